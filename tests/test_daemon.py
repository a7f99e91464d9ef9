"""The daemon: the PIN and secret kept across restarts, the start and stop in order, and a real
`companion serve` process that answers HTTP and stops cleanly on SIGTERM."""

from __future__ import annotations

import gc
import io
import json
import logging
import os
import queue
import random
import socket
import sqlite3
import stat
from pathlib import Path
from typing import Any

import pytest

from companion import bench, config, daemon, notify, security, urls
from companion.commands import SPECTATOR, Command, Event
from companion.store import Store
from companion.table import Subscriber, Table
from tests.daemon_support import (
    environment,
    free_port,
    notify_socket,
    receive,
    running,
    stop,
    wait_http_200,
    write_config,
)

# -- settled -------------------------------------------------------------------------------


def test_once_settled_a_run_of_commands_is_never_held_by_the_garbage_collector(
    tmp_path: Path,
) -> None:
    """What a command makes and drops again (its views' snapshots, its events) starts no pass
    of the garbage collector, which would hold that command and every phone waiting for it."""
    tbl = Table(Store(tmp_path / "games.db"))
    tbl.start()
    inboxes: dict[int | str, queue.SimpleQueue[Event]] = {
        v: queue.SimpleQueue() for v in bench.VIEWS
    }
    for view, inbox in inboxes.items():
        tbl.subscribe(Subscriber(None, view, inbox.put))
    passes: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    threshold = gc.get_threshold()
    rng = random.Random(1)
    try:
        daemon.settle()
        gc.callbacks.append(seen)
        args = {"players": [{}] * 4, "seed": 1, "mode": "digital", "layout": "random"}
        game = tbl.call(Command("cli", intent="new_game", args=args)).game
        for _ in range(150):
            state = bench._last_state(inboxes)
            reply = tbl.submit(bench._next_command(state, game, rng)).result(10)
            assert reply.accepted, reply.message
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*threshold)
        gc.unfreeze()
        tbl.stop()
        tbl._store.close()
    assert passes == []


# -- the PIN and the secret ---------------------------------------------------------------


def test_pin_and_secret_are_made_once_kept_owner_only_and_survive_a_restart(
    tmp_path: Path,
) -> None:
    state = tmp_path / "state"
    first = security.load(state)
    assert first.pin.isdigit() and len(first.pin) == 6
    assert len(first.secret) >= 32
    assert first.generated == ("pin", "secret")
    kept = state / security.FILENAME
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert json.loads(kept.read_text()) == {"pin": first.pin, "secret": first.secret}
    again = security.load(state)
    assert (again.pin, again.secret, again.generated) == (first.pin, first.secret, ())
    # Only the file itself is left: the temp file of the atomic write is gone.
    assert sorted(p.name for p in state.iterdir()) == [security.FILENAME]


def test_values_set_in_the_config_win_and_are_not_written_to_the_file(tmp_path: Path) -> None:
    both = security.load(tmp_path, pin="432198", secret="s" * 40)
    assert (both.pin, both.secret, both.generated) == ("432198", "s" * 40, ())
    assert not (tmp_path / security.FILENAME).exists()
    only_pin = security.load(tmp_path, pin="432198")
    assert only_pin.pin == "432198" and only_pin.generated == ("secret",)
    assert json.loads((tmp_path / security.FILENAME).read_text()) == {"secret": only_pin.secret}


def test_an_unreadable_kept_file_is_replaced_and_loose_permissions_are_tightened(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    kept = tmp_path / security.FILENAME
    kept.write_text("{not json")
    made = security.load(tmp_path)
    assert made.generated == ("pin", "secret")
    assert "cannot be read" in caplog.text
    kept.chmod(0o644)
    assert security.load(tmp_path).pin == made.pin
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


# -- the daemon in this process -----------------------------------------------------------


def make(tmp_path: Path, port: int | None = None, **kw: Any) -> tuple[daemon.Daemon, io.StringIO]:
    cfg = config.parse({"web": {"port": port or free_port()}})
    out, err = io.StringIO(), io.StringIO()
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, out=out, err=err, **kw)
    return d, out


def test_start_says_ready_once_listening_prints_url_and_pin_and_stop_says_stopping(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    port = free_port()
    d, out = make(tmp_path, port)
    listening_at_ready: list[bool] = []
    real_notify = notify.notify

    def spy(*fields: str, **kw: Any) -> bool:
        if "READY=1" in fields:  # is the port open at the very moment READY=1 is sent?
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                listening_at_ready.append(True)
            except OSError:
                listening_at_ready.append(False)
        return real_notify(*fields, **kw)

    monkeypatch.setattr(notify, "notify", spy)
    with notify_socket() as (sock, path):
        monkeypatch.setenv("NOTIFY_SOCKET", path)
        d.start()
        try:
            ready = receive(sock, lambda m: "READY=1" in m)
            assert f"STATUS=serving on http://127.0.0.1:{port}/" in ready[-1]
            assert listening_at_ready == [True]
            assert d.watchdog is None  # no WATCHDOG_USEC, no pings
        finally:
            d.stop()
        receive(sock, lambda m: m.startswith("STOPPING=1"))
    # Stopped in order: the Table's thread has ended and the game log is closed.
    assert d.table is not None and not notify.table_alive(d.table)
    assert d.store is not None
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        d.store.games()
    assert d.security is not None
    printed = out.getvalue()
    assert f"http://127.0.0.1:{port}/" in printed
    assert f"table PIN: {d.security.pin}" in printed
    with pytest.raises(OSError):  # the port is free again
        socket.create_connection(("127.0.0.1", port), timeout=1)


def test_the_web_app_gets_the_pin_and_secret_in_force(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[config.Config] = []
    real = daemon.web_app

    def capture(table: Any, cfg: config.Config) -> Any:
        seen.append(cfg)
        return real(table, cfg)

    monkeypatch.setattr(daemon, "web_app", capture)
    d, _ = make(tmp_path)
    d.start()
    d.stop()
    kept = json.loads((tmp_path / security.FILENAME).read_text())
    assert seen[0]["security.pin"] == kept["pin"]
    assert seen[0]["security.secret"] == kept["secret"]


def test_a_demo_daemon_starts_a_two_player_game_with_its_seed(tmp_path: Path) -> None:
    d, _ = make(tmp_path, demo_seed=7)
    d.start()
    try:
        assert d.table is not None
        snap = d.table.snapshot(None, SPECTATOR)
    finally:
        d.stop()
    assert [p["name"] for p in snap["players"]] == ["Ana", "Ben"]
    assert Store(tmp_path / "games.db").games()[0].seed == 7
    # The island was laid by the companion, so the page has a board to show.
    assert snap["actions"] > 0 and snap["state"]["phase"] == "place"


def test_an_unreadable_game_log_is_reported_in_plain_words_and_the_daemon_starts(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / "games.db").write_bytes(b"this is not a database" * 100)
    d, _ = make(tmp_path)
    with caplog.at_level(logging.WARNING):
        d.start()
        d.stop()
    said = d.err.getvalue()
    assert "could not be read" in said and "was moved to" in said
    assert "game log recovered" in caplog.text
    assert any(p.name.startswith("games.db.unreadable-") for p in tmp_path.iterdir())


def test_a_port_in_use_is_one_clear_line_and_exit_status_1(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as busy:
        port = busy.getsockname()[1]
        d, _ = make(tmp_path, port)
        status = daemon.run(d)
    assert status == 1
    line = d.err.getvalue().strip()
    assert "\n" not in line
    assert f"port {port} is already in use" in line
    assert d.table is not None and not d.table._thread  # the Table was stopped again


# -- a real `companion serve` process ------------------------------------------------------


def test_serve_answers_http_pings_the_watchdog_and_stops_cleanly_on_sigterm(
    tmp_path: Path,
) -> None:
    port = free_port()
    cfg = write_config(tmp_path, port)
    with notify_socket() as (sock, path):
        env = environment(tmp_path, NOTIFY_SOCKET=path, WATCHDOG_USEC="400000")
        with running(["serve", "--config", str(cfg)], env) as proc:
            receive(sock, lambda m: "READY=1" in m, timeout=10)
            wait_http_200(f"http://127.0.0.1:{port}", ("/api/games", "/"))
            receive(sock, lambda m: "WATCHDOG=1" in m, timeout=3)
            # No camera in its config: numpy and OpenCV stay out of the daemon (a Pi's RAM).
            maps = Path(f"/proc/{proc.pid}/maps").read_text(encoding="utf-8")
            assert "numpy" not in maps and "cv2" not in maps
            status, out, err = stop(proc)
        receive(sock, lambda m: m.startswith("STOPPING=1"))
    assert status == 0, err
    kept = json.loads((tmp_path / security.FILENAME).read_text())
    assert f"http://127.0.0.1:{port}/" in out
    assert f"table PIN: {kept['pin']}" in out
    assert "Traceback" not in err
    # Stopped cleanly: the store was closed, so SQLite checkpointed and removed its WAL file.
    assert (tmp_path / "games.db").exists()
    assert not (tmp_path / "games.db-wal").exists()
    assert os.stat(tmp_path / security.FILENAME).st_mode & 0o077 == 0


def test_urls_for_all_interfaces_put_the_lan_address_first_and_localhost_last(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(urls, "lan_address", lambda: "192.168.1.20")
    monkeypatch.setattr(urls.socket, "gethostname", lambda: "atlantis")
    assert urls.table_urls("0.0.0.0", 8000) == [
        "http://192.168.1.20:8000/",
        "http://atlantis.local:8000/",
        "http://127.0.0.1:8000/",
    ]
    assert urls.table_urls("127.0.0.1", 8001) == ["http://127.0.0.1:8001/"]
    assert urls.table_urls("::1", 8002) == ["http://[::1]:8002/"]
    monkeypatch.setattr(urls, "lan_address", lambda: None)  # no network at all
    assert urls.table_urls("0.0.0.0", 8000)[-1] == "http://127.0.0.1:8000/"


def test_bench_daemon_measures_start_ready_first_response_and_idle_memory() -> None:
    figures = bench.daemon(idle=0.1)
    assert set(figures) == {"daemon.ready_s", "daemon.first_response_s", "daemon.rss_mb"}
    assert 0 < figures["daemon.ready_s"] < 30
    assert 0 < figures["daemon.first_response_s"] < 30
    assert 10 < figures["daemon.rss_mb"] < 1000  # a Python process with Flask, not a stub
