"""systemd's notify protocol against a real AF_UNIX datagram socket, and the watchdog that pings
only while the Table's thread is alive and coming round its loop."""

from __future__ import annotations

import os
import socket
import threading
import uuid
from pathlib import Path

import pytest

from companion import notify
from companion.store import Store
from companion.table import Table
from tests.daemon_support import drain, notify_socket, receive


def test_notify_sends_one_datagram_of_lines_to_the_socket_path() -> None:
    with notify_socket() as (sock, path):
        assert notify.notify("READY=1", "STATUS=serving", environ={"NOTIFY_SOCKET": path})
        sock.settimeout(2)
        assert sock.recv(4096) == b"READY=1\nSTATUS=serving"


def test_a_leading_at_sign_means_the_abstract_namespace() -> None:
    name = f"companion-test-{uuid.uuid4().hex}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert notify.notify("WATCHDOG=1", environ={"NOTIFY_SOCKET": "@" + name})
        sock.settimeout(2)
        assert sock.recv(4096) == b"WATCHDOG=1"


def test_without_notify_socket_nothing_is_sent_and_nothing_fails(tmp_path: Path) -> None:
    assert notify.notify("READY=1", environ={}) is False
    # systemd gone away (socket removed): the daemon must go on.
    gone = str(tmp_path / "gone")
    assert notify.notify("READY=1", environ={"NOTIFY_SOCKET": gone}) is False


def test_watchdog_interval_is_half_of_watchdog_usec_and_only_for_this_process() -> None:
    assert notify.watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert notify.watchdog_interval({}) is None
    assert notify.watchdog_interval({"WATCHDOG_USEC": "0"}) is None
    mine = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid())}
    assert notify.watchdog_interval(mine) == 1.0
    other = {"WATCHDOG_USEC": "2000000", "WATCHDOG_PID": str(os.getpid() + 1)}
    assert notify.watchdog_interval(other) is None


def pinged(message: str) -> bool:
    return "WATCHDOG=1" in message.split("\n")


def test_watchdog_pings_while_the_table_runs_and_stops_while_it_is_stuck(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    with notify_socket() as (sock, path):
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        # max_age above the idle Table's 1 s loop: an idle Table must never look stuck.
        dog = notify.Watchdog(table, interval=0.05, max_age=1.5)
        dog.status = "serving"
        release = threading.Event()
        dog.start()
        try:
            # Healthy, idle through more than one turn of the Table's loop: pings only.
            got = drain(sock, 1.3)
            assert len(got) >= 10 and all(m == "WATCHDOG=1" for m in got)

            # A job that blocks the Table's one thread: the heartbeat goes stale.
            stuck = threading.Thread(target=table.read, args=(release.wait, 10), daemon=True)
            stuck.start()
            receive(sock, lambda m: m.startswith("STATUS=the table has not come round its loop"))
            assert [m for m in drain(sock, 0.4) if pinged(m)] == []

            # Unstuck: pings come back, with the status it had.
            release.set()
            back = receive(sock, pinged, timeout=3)
            assert back[-1] == "STATUS=serving\nWATCHDOG=1"
            stuck.join(2)
        finally:
            release.set()
            dog.stop()


def test_watchdog_stops_pinging_when_the_table_thread_has_ended(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    with notify_socket() as (sock, path):
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        # A long max_age: only the dead thread can stop the pings here.
        dog = notify.Watchdog(table, interval=0.05, max_age=60)
        dog.start()
        try:
            receive(sock, pinged)
            table.stop()
            said = receive(sock, lambda m: m.startswith("STATUS="))
            assert said[-1] == "STATUS=the table's thread has stopped"
            assert [m for m in drain(sock, 0.3) if pinged(m)] == []
        finally:
            dog.stop()


def test_a_table_never_started_gets_no_ping(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    sent: list[tuple[str, ...]] = []
    dog = notify.Watchdog(Table(store), interval=1, send=lambda *f: sent.append(f) or True)
    dog.beat()
    assert sent == [("STATUS=the table's thread has stopped",)]
    store.close()
