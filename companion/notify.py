"""systemd's notify protocol (sd_notify(3)) with the standard library, and the watchdog.

A message is one datagram of ``KEY=VALUE`` lines sent to the AF_UNIX socket named by
``$NOTIFY_SOCKET`` (a leading ``@`` means Linux's abstract namespace). Outside systemd the
variable is unset and every call does nothing, so the daemon runs the same from a terminal.

The watchdog pings only while the Table's thread is alive and came round its loop recently: a
stuck Table then stops the pings, and systemd (``WatchdogSec=``) restarts the service. Pinging
from a timer that does not look at the Table would keep a hung daemon "healthy" for ever.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Protocol

log = logging.getLogger(__name__)
_warned: set[str] = set()


def _address(value: str) -> str | None:
    if value.startswith("@"):
        return "\0" + value[1:]
    if value.startswith("/"):
        return value
    return None  # systemd also knows vsock addresses; a Pi service never gets one


def notify(*fields: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send ``fields`` (e.g. ``"READY=1"``, ``"STATUS=..."``) to systemd; True if sent.

    Never raises: a daemon must not fall over because its supervisor went away.
    """
    env = os.environ if environ is None else environ
    address = _address(env.get("NOTIFY_SOCKET", ""))
    if address is None or not fields:
        return False
    message = "\n".join(fields).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.sendto(message, address)
    except OSError as e:
        # Once per reason: the watchdog would otherwise repeat it every few seconds.
        level = logging.DEBUG if str(e) in _warned else logging.WARNING
        _warned.add(str(e))
        log.log(level, "could not notify systemd at %s: %s", env.get("NOTIFY_SOCKET"), e)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between pings (half of ``$WATCHDOG_USEC``, as sd_watchdog_enabled(3) advises);
    None when systemd asks for no watchdog or asks another process (``$WATCHDOG_PID``)."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if pid and pid != str(os.getpid()):
        return None
    return int(usec) / 2 / 1_000_000


class Beating(Protocol):
    """What the watchdog reads of the Table."""

    heartbeat: float
    """time.monotonic() of the thread's last time round its loop."""

    @property
    def alive(self) -> bool:
        """Whether the thread runs at all."""


def table_alive(table: Beating) -> bool:
    return table.alive


class Watchdog:
    """A thread that sends ``WATCHDOG=1`` every `interval` seconds while the Table is healthy.

    Healthy: its thread is alive and its heartbeat is at most `max_age` seconds old. The Table
    loops at least once a second when idle, so a few seconds of silence means a job is stuck.
    """

    def __init__(
        self,
        table: Beating,
        interval: float,
        max_age: float = 10.0,
        send: Callable[..., bool] = notify,
        alive: Callable[[Beating], bool] = table_alive,
    ) -> None:
        self.table = table
        self.interval = interval
        self.max_age = max_age
        self._send = send
        self._alive = alive
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._failing = False
        self.status = "running"
        """Told to systemd again when the table recovers after a stall."""

    def healthy(self) -> bool:
        age = time.monotonic() - self.table.heartbeat
        return self._alive(self.table) and age <= self.max_age

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _run(self) -> None:
        while not self._stop.is_set():
            self.beat()
            self._stop.wait(self.interval)

    def beat(self) -> None:
        """One round: ping if healthy; otherwise say why in the log and in systemctl status."""
        if self.healthy():
            if self._failing:
                log.warning("the table is responding again")
                self._send(f"STATUS={self.status}", "WATCHDOG=1")
            else:
                self._send("WATCHDOG=1")
            self._failing = False
            return
        if not self._failing:
            age = time.monotonic() - self.table.heartbeat
            why = (
                "the table's thread has stopped"
                if not self._alive(self.table)
                else f"the table has not come round its loop for {age:.0f} s"
            )
            log.error("%s: no more watchdog pings, systemd will restart the service", why)
            self._send(f"STATUS={why}")
        self._failing = True
