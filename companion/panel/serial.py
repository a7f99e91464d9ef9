"""The Pico panel on USB serial: its presses go to the Table, the Table's events to its lights.

Two threads. The reader owns the connection: it finds the port (the Pico's USB id, or the
configured device), opens it exclusively, asks the panel for its hello, reads lines, and after
an unplug closes the port and tries again with a growing, capped delay. Every change of the
connection is told to the Table (``set_status("panel", ...)``), so phones can show it. The
worker carries presses out (`presses.carry_out`, which waits for the Table's reply) and turns
the Table's events into panel commands: the current player's colour on the LED, a beep for a
roll, an error beep for a press the table did not take.

The LED and the roll's beep are decided by `lights.Lights`, as for the GPIO panel, so both
panels look alike.

States (`SerialPanel.status`; the Table hears ``serial: STATE`` and a few words more):
``disconnected`` (no panel found, or it went away), ``busy`` (another program holds the port:
mpremote, Thonny, a second companion), ``connecting`` (port open, no hello yet), ``connected``,
``silent`` (open, but no line for a while: the firmware is not running), and ``incompatible``
(the panel speaks another protocol version; its presses are ignored).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import serial
from serial.tools import list_ports

from ..commands import SPECTATOR, Event
from ..table import Subscriber, Table
from . import wire
from .buttons import BUTTONS, HOLD, PRESS, Press
from .lights import Lights
from .presses import TableDown, carry_out

log = logging.getLogger(__name__)

PICO_USB = (0x2E8A, 0x0005)
"""USB vendor:product of a Raspberry Pi Pico running MicroPython."""
SOURCE = "serial"
READ_TIMEOUT = 0.05
"""Seconds a read waits before the reader looks at the clock (a line ends the wait at once)."""
WRITE_TIMEOUT = 0.5
SILENT_AFTER = 3.0
"""Seconds without a line (the panel's heartbeat comes every second) before it counts as silent."""
PING_EVERY = 1.0
"""The panel blinks its status LED when the companion has said nothing for 5 s; a ping keeps
it lit."""
ACK_WITHIN = 2.0
"""Seconds a command may wait for its acknowledgement before it counts as unacknowledged."""
BACKOFF = (0.1, 1.0)
"""First and longest delay between tries to open the port; it doubles after each failure.
Capped at one second so that a panel plugged back in is in use again within about a second."""

# The same sounds as the GPIO panel's (gpio.ROLL_BEEP, BOT_BEEP, ERROR_BEEP), with a pitch: the
# Pico drives a passive buzzer.
ROLL_BEEP = {"hz": 880, "ms": 150, "n": 1}
ERROR_BEEP = {"hz": 220, "ms": 70, "n": 3}
BOT_BEEP = {"hz": 660, "ms": 150, "n": 2}
BEEPS = {"roll": ROLL_BEEP, "bot": BOT_BEEP}
OFF = [0, 0, 0]


def rgb(colour: tuple[float, float, float]) -> list[int]:
    """gpiozero's 0..1 colour as the protocol's 0..255."""
    return [round(255 * max(0.0, min(1.0, c))) for c in colour]


# -- finding the port ---------------------------------------------------------------------


def find_pico() -> str | None:
    """The device of the first Pico running MicroPython (by USB id), or None."""
    ports = sorted(list_ports.comports(), key=lambda p: p.device)
    return next((p.device for p in ports if (p.vid, p.pid) == PICO_USB), None)


def finder(port: str) -> Callable[[], str | None]:
    """How to look for the panel's port: ``auto`` (by USB id) or a device path."""
    if port == "auto":
        return find_pico
    return lambda: port if os.path.exists(port) else None


def open_port(path: str) -> serial.Serial:
    # Exclusive: a second opener (mpremote, Thonny, another companion) is refused instead of
    # stealing half of the lines.
    return serial.Serial(
        path, wire.BAUD, timeout=READ_TIMEOUT, write_timeout=WRITE_TIMEOUT, exclusive=True
    )


def busy(error: Exception) -> bool:
    """Did opening fail because another program holds the port?"""
    return getattr(error, "errno", None) in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EBUSY)


def probe(path: str, timeout: float = 2.0) -> wire.Hello:
    """Open `path`, ask the panel for its hello and return it (for `companion doctor`).

    Raises serial.SerialException or OSError when the port cannot be opened, TimeoutError when
    no hello comes.
    """
    with open_port(path) as port:
        port.write(wire.command("hello", 1))
        splitter = wire.LineSplitter()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in splitter.feed(port.read(max(1, port.in_waiting))):
                msg = None if line is None else wire.parse(line)
                if isinstance(msg, wire.Hello):
                    return msg
    raise TimeoutError(f"no hello from {path} within {timeout:g} s")


class Backoff:
    """Delays that double from `first` up to `cap`."""

    def __init__(self, first: float, cap: float) -> None:
        self.first = first
        self.cap = cap
        self.delay = first

    def next(self) -> float:
        delay = self.delay
        self.delay = min(self.cap, self.delay * 2)
        return delay

    def reset(self) -> None:
        self.delay = self.first


@dataclass
class Counters:
    lines: int = 0
    """Lines received that were messages."""
    malformed: int = 0
    """Lines received that were not (counted and ignored)."""
    lost: int = 0
    """Lines the panel sent that never arrived (gaps in its sequence numbers)."""
    presses: int = 0
    refused: int = 0
    """Presses the table did not take (answered with the error beep)."""
    sent: int = 0
    """Commands sent to the panel."""
    acked: int = 0
    nacked: int = 0
    """Commands the panel acknowledged as not done (a bad value)."""
    unacked: int = 0
    """Commands with no acknowledgement within ACK_WITHIN."""
    connects: int = 0
    panel_malformed: int = 0
    """Malformed lines the panel received, as its last heartbeat says."""
    panel_errors: int = 0


class SerialPanel:
    kind = "serial"

    def __init__(
        self,
        table: Table,
        port: str = "auto",
        *,
        find: Callable[[], str | None] | None = None,
        backoff: tuple[float, float] = BACKOFF,
        silent_after: float = SILENT_AFTER,
        ping_every: float = PING_EVERY,
    ) -> None:
        """`find` overrides how the port is looked up (a test points it at a pty)."""
        self.table = table
        self.port = port
        self.find = find or finder(port)
        self.backoff = Backoff(*backoff)
        self.silent_after = silent_after
        self.ping_every = ping_every
        self.counters = Counters()
        self.status = "none"
        self.device: str | None = None
        """The port in use, if any."""
        self.hello: wire.Hello | None = None
        self._port: serial.Serial | None = None
        self._lock = threading.Lock()
        """Guards `_port` and every write to it (reader and worker both write)."""
        self._next_id = 1
        self._pending: dict[int, float] = {}
        self._expected: int | None = None
        self._last_line = 0.0
        self._last_sent = 0.0
        self.lights = Lights(self._show_colour, self._beep)
        """The current game's players (their colours)."""
        self._shown: list[int] | None = None
        """The colour last sent to the LED on this connection."""
        """Game events came since the LED was last set from the game as it is."""
        self._work: queue.Queue[tuple[str, Any] | None] = queue.Queue()
        self._stopping = threading.Event()
        self._subscriber = Subscriber(None, SPECTATOR, self._deliver)
        self._threads: list[threading.Thread] = []

    # -- life -----------------------------------------------------------------------------

    def start(self) -> None:
        self._stopping.clear()
        self.table.subscribe(self._subscriber)
        self._set_status("disconnected")
        self._threads = [
            threading.Thread(target=self._run, name="serial-panel-reader", daemon=True),
            threading.Thread(target=self._work_loop, name="serial-panel-worker", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stopping.set()
        with self._lock:
            if self._port is not None:
                self._port.cancel_read()
        self._work.put(None)
        for thread in self._threads:
            thread.join(timeout=5)
        self._threads = []
        try:
            self.table.unsubscribe(self._subscriber)
        except Exception:  # the Table may already be stopped; nothing is left to undo there
            log.debug("unsubscribe after the table stopped", exc_info=True)
        self._set_status("stopped")

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            log.info("panel %s", self.describe())
            self.table.set_status("panel", self.describe())

    def describe(self) -> str:
        return f"serial: {self._state()}"

    def _state(self) -> str:
        where = self.device or (
            f"a Pico by USB id {PICO_USB[0]:04X}:{PICO_USB[1]:04X}"
            if self.port == "auto"
            else self.port
        )
        if self.status == "connected" and self.hello is not None:
            return f"connected on {where}, firmware {self.hello.firmware}"
        if self.status == "disconnected":
            return f"disconnected (looking for {where})"
        if self.status == "busy":
            return f"busy ({where} is held by another program: mpremote, Thonny?)"
        if self.status == "incompatible" and self.hello is not None:
            return (
                f"incompatible (the panel speaks protocol {self.hello.proto}, this companion "
                f"{wire.PROTO}: update its firmware)"
            )
        if self.status == "silent":
            return f"silent on {where} (no heartbeat: is the firmware running?)"
        return f"{self.status} ({where})"

    # -- the reader: the connection -------------------------------------------------------

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                path = self.find()
            except Exception:
                log.exception("looking for the serial panel failed")
                path = None
            if path is None:
                self._set_status("disconnected")
                self._stopping.wait(self.backoff.next())
                continue
            try:
                port = open_port(path)
            except (serial.SerialException, OSError) as e:
                self._set_status("busy" if busy(e) else "disconnected")
                log.debug("cannot open %s: %s", path, e)
                self._stopping.wait(self.backoff.next())
                continue
            self._serve(port, path)
            if not self._stopping.is_set():
                self._set_status("disconnected")
                self._stopping.wait(self.backoff.next())

    def _serve(self, port: serial.Serial, path: str) -> None:
        with self._lock:
            self._port = port
        self.device = path
        self.hello = None
        self._expected = None
        self._last_line = time.monotonic()
        self._set_status("connecting")
        self._send("hello")  # the hello it sent at boot went nowhere if no one was listening
        splitter = wire.LineSplitter()
        try:
            while not self._stopping.is_set():
                data = port.read(max(1, port.in_waiting))
                for line in splitter.feed(data):
                    self._line(line)
                self._tick()
        except (serial.SerialException, OSError) as e:
            log.info("serial panel on %s lost: %s", path, e)
        except Exception:  # a bug here must not end the reader: start over as after an unplug
            log.exception("serial panel on %s: reading failed", path)
        finally:
            with self._lock:
                self._port = None
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()
            self.device = None

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self._last_line > self.silent_after and self.status in ("connected", "connecting"):
            self._set_status("silent")
            self._send("hello")
        if now - self._last_sent > self.ping_every:
            self._send("ping")
        with self._lock:
            expired = [i for i, sent in self._pending.items() if now - sent > ACK_WITHIN]
            for i in expired:
                del self._pending[i]
            self.counters.unacked += len(expired)

    def _line(self, line: bytes | None) -> None:
        msg = None if line is None else wire.parse(line)
        if msg is None:
            if line != b"":  # an empty line is padding; None is one too long
                self.counters.malformed += 1
            return
        self.counters.lines += 1
        self._last_line = time.monotonic()
        if isinstance(msg, wire.Hello):
            self._hello(msg)
            return
        if self._expected is not None and msg.seq != self._expected:
            self.counters.lost += (msg.seq - self._expected) % wire.ID_LIMIT
        self._expected = (msg.seq + 1) % wire.ID_LIMIT
        if self.status == "silent" and self.hello is not None:
            self._set_status("connected")
        if isinstance(msg, wire.ButtonEvent):
            self._button(msg)
        elif isinstance(msg, wire.Ack):
            self._ack(msg)
        elif isinstance(msg, wire.Heartbeat):
            self.counters.panel_malformed = msg.bad
        elif isinstance(msg, wire.PanelError):
            self.counters.panel_errors += 1
            log.warning("serial panel reports: %s", msg.message)

    def _hello(self, hello: wire.Hello) -> None:
        self.hello = hello
        self._expected = (hello.seq + 1) % wire.ID_LIMIT  # a new count after a panel's restart
        if hello.proto != wire.PROTO:
            log.warning(
                "the panel on %s speaks protocol %s, this companion %s: update its firmware "
                "(firmware/README.md)", self.device, hello.proto, wire.PROTO,
            )  # fmt: skip
            self._set_status("incompatible")
            return
        unknown = set(hello.buttons) - set(BUTTONS)
        if unknown:
            log.warning("the panel has buttons this companion does not know: %s", sorted(unknown))
        if self.status != "connected":
            self.counters.connects += 1
            self.backoff.reset()
            self._set_status("connected")
            self._work.put(("resync", None))

    def _button(self, event: wire.ButtonEvent) -> None:
        if self.status != "connected" or event.button not in BUTTONS:
            return
        gesture = None
        if event.event == "hold":
            gesture = HOLD
        elif event.event == "release" and not event.held:
            gesture = PRESS  # a release after a hold was already told as the hold
        if gesture is not None:
            self.counters.presses += 1
            self._work.put(("press", Press(event.button, gesture)))

    def _ack(self, ack: wire.Ack) -> None:
        with self._lock:
            if self._pending.pop(ack.id, None) is None:
                return  # late (already counted as unacknowledged) or not ours
        if ack.ok:
            self.counters.acked += 1
        else:
            self.counters.nacked += 1
            log.warning("the serial panel did not carry a command out: %s", ack.error)

    # -- writing --------------------------------------------------------------------------

    def _send(self, kind: str, **fields: Any) -> bool:
        """Write one command if a port is open; False when it could not be written."""
        with self._lock:
            port = self._port
            if port is None:
                return False
            ident = self._next_id
            self._next_id = self._next_id % (wire.ID_LIMIT - 1) + 1
            try:
                port.write(wire.command(kind, ident, **fields))
            except (serial.SerialException, OSError) as e:
                log.debug("writing %s to the serial panel failed: %s", kind, e)
                return False  # the reader sees the port fail and reconnects
            now = time.monotonic()
            self._pending[ident] = now
            self._last_sent = now
            self.counters.sent += 1
            return True

    # -- the worker: presses out, events in -----------------------------------------------

    def _deliver(self, event: Event) -> None:
        """On the Table's thread: only hand the event on."""
        self._work.put(("event", event))

    def _work_loop(self) -> None:
        while True:
            item = self._work.get()
            if item is None:
                return
            kind, value = item
            try:
                if kind == "press":
                    self._press(value)
                elif kind == "event":
                    self._event(value)
                elif kind == "resync":
                    self._resync()
            except Exception:  # one bad event must not end the panel
                log.exception("serial panel: %s failed", kind)

    def _press(self, press: Press) -> None:
        try:
            outcome = carry_out(self.table, press, SOURCE)
        except TableDown as e:
            log.warning("serial panel: %s not carried out: %s", press, e)
            self.counters.refused += 1
            self._send("beep", **ERROR_BEEP)
            return
        log.info("serial panel: %s", outcome)
        if not outcome.accepted:
            self.counters.refused += 1
            self._send("beep", **ERROR_BEEP)

    def _event(self, event: Event) -> None:
        self.lights.event(event)

    def _beep(self, sound: str) -> None:
        self._send("beep", **BEEPS.get(sound, ERROR_BEEP))

    def _show_colour(self, colour: tuple[float, float, float]) -> None:
        shown = rgb(colour)
        if shown != self._shown and self._send("led", rgb=shown):
            self._shown = shown

    def _resync(self) -> None:
        """After a (re)connect: the panel knows nothing, so tell it everything it shows."""
        self._shown = None
        self._send("status", mode="on")
        self.lights.sync(self.table)
