"""The Table's writes under faults and abuse, on the served daemon (issue 14, items 3, 8, 9, 11).

- A resent command (its reply lost) gets its first reply and is not done again: an undo and a
  correction as much as a move (item 8).
- Facts are corrected only by those who may: no phone changes what the companion drew; a fact
  told from the table, only the seat that told it or whose turn it was; every phone is shown
  the correction and who made it (item 3).
- A full disk (a real one: a small tmpfs, filled) refuses every write with the same plain
  sentence, changes nothing, and memory stays what the store holds (item 9).
- A log that lost rows (a damaged WAL file) or holds a move that no longer replays is found,
  named by game and action, and repaired by exporting up to the last good action (item 11).
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import sqlite3
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from companion import doctor, integrity
from companion.commands import REFEREE, Command
from companion.config import parse
from companion.engine import Game
from companion.store import Store
from companion.table import FULL, Table
from companion.web import create_app
from tests.daemon_support import environment, free_port, running, stop, wait_http_200, write_config
from tests.playing import first, mirror, new_game, play_setup, play_until
from tests.web_support import PIN, Phone, Stream, close, served, table_config, wait_for


@contextmanager
def table_on(folder: Path) -> Iterator[tuple[Table, int]]:
    """A Table on a store in `folder`, served by waitress with loopback untrusted (the test's
    requests are phones on the Wi-Fi; the table itself acts through `Table.call`)."""
    table = Table(Store(folder / "games.db"))
    table.start()
    app = create_app(table, table_config(), {"TESTING": True, "TRUST_LOOPBACK": False})
    try:
        with served(app) as port:
            yield table, port
    finally:
        close(table)


def seated(port: int, game: int, seat: int) -> Phone:
    phone = Phone(port)
    assert phone.post("/api/session/pin", {"pin": PIN})[0] == 200
    if seat:
        status, body = phone.post("/api/session/seat", {"game": game, "seat": seat})
        assert status == 200, body
    return phone


def ready(table: Table, port: int, mode: str) -> tuple[int, Phone]:
    """A 2-player game past its setup, and seat 1's phone."""
    game = new_game(table, seed=5, mode=mode)
    play_setup(table, game)
    return game, seated(port, game, 1)


def command(phone: Phone, game: int, request_id: str, **what: Any) -> tuple[int, Any]:
    return phone.post(f"/api/games/{game}/commands", {"request_id": request_id, **what})


def statuses(table: Table, game: int) -> list[tuple[str, str]]:
    return [(r["action"][0], r["status"]) for r in table.log(game, REFEREE)]


# -- item 8: a resent undo or correction is done once ---------------------------------------


def test_a_resent_undo_and_a_resent_correction_get_their_first_reply_and_happen_once(
    tmp_path: Path,
) -> None:
    with table_on(tmp_path) as (table, port):
        game, ana = ready(table, port, "physical")
        engine = play_until(table, game, "move")
        for n in range(2):
            engine = mirror(table, game)
            status, body = command(ana, game, f"move-{n}", action=list(first(engine, "move")))
            assert status == 200, body
        once = command(ana, game, "undo-1", intent="undo")
        again = command(ana, game, "undo-1", intent="undo")  # its reply was lost
        assert once[0] == again[0] == 200 and once[1] == again[1]
        assert statuses(table, game)[-2:] == [("move", "ok"), ("move", "undone")]

        play_until(table, game, "roll")
        status, told = command(ana, game, "told", action="roll shark")  # the real die
        assert status == 200, told
        fix = {"intent": "correct", "args": {"seq": told["seq"], "action": "roll whale"}}
        once, again = command(ana, game, "fix-1", **fix), command(ana, game, "fix-1", **fix)
        assert once[0] == again[0] == 200 and once[1] == again[1]
        rolls = [s for verb, s in statuses(table, game) if verb == "roll"]
        assert rolls == ["corrected", "ok"]

        # Another phone cannot read the first reply by sending the same request id.
        ben = seated(port, game, 2)
        status, body = command(ben, game, "fix-1", **fix)
        assert status == 409 and "another sender's" in body["error"]


# -- item 3: who may correct a fact ---------------------------------------------------------


def test_no_phone_corrects_a_fact_the_companion_drew_in_a_digital_game(tmp_path: Path) -> None:
    with table_on(tmp_path) as (table, port):
        game, ana = ready(table, port, "digital")
        play_until(table, game, "roll")
        status, rolled = command(ana, game, "roll", intent="roll")  # the companion's die
        assert status == 200, rolled
        face = rolled["events"][0]["face"]
        other = "whale" if face != "whale" else "shark"
        fix = {"intent": "correct", "args": {"seq": rolled["seq"], "action": f"roll {other}"}}
        status, body = command(ana, game, "fix", **fix)
        assert status == 409 and "drawn by the companion" in body["error"]
        back = next(r for r in table.log(game, REFEREE) if r["action"][0] == "back")
        flip = {"intent": "correct", "args": {"seq": back["seq"], "action": "back whale"}}
        assert command(ana, game, "flip", **flip)[0] == 409
        assert [s for v, s in statuses(table, game) if v == "roll"] == ["ok"]
        # The table itself (the referee) still may.
        args = {"seq": rolled["seq"], "action": ["roll", other]}
        reply = table.call(Command("cli", None, "", game, intent="correct", args=args))
        assert reply.accepted, reply.message


def test_B_10_in_a_physical_game_only_the_teller_or_the_turn_corrects_and_all_see_it(
    tmp_path: Path,
) -> None:
    """B-10: the die told by seat 1 on its turn; seat 2 may not change it, seat 1 may, and
    every phone (both seats and a watcher) is shown the correction with who made it."""
    with table_on(tmp_path) as (table, port):
        game, ana = ready(table, port, "physical")
        phones = {1: ana, 2: seated(port, game, 2), 0: seated(port, game, 0)}
        streams = {
            n: Stream(port, f"/api/games/{game}/stream", {"Cookie": p.cookie()}).start()
            for n, p in phones.items()
        }
        try:
            play_until(table, game, "roll")
            status, told = command(phones[1], game, "told", action="roll shark")
            assert status == 200, told
            fix = {"intent": "correct", "args": {"seq": told["seq"], "action": "roll whale"}}
            status, body = command(phones[2], game, "fix-2", **fix)
            assert status == 409 and "only by seat 1" in body["error"], body
            status, body = command(phones[1], game, "fix-1", **fix)
            assert status == 200, body

            def corrected(stream: Stream) -> dict[str, Any] | None:
                found = [json.loads(d) for kind, d, _ in stream.events if kind == "corrected"]
                return found[0] if found else None

            for stream in streams.values():
                event = wait_for(lambda s=stream: corrected(s), what="the correction's event")
                assert event["by"] == "seat 1 (phone)"
                assert (event["was"], event["now"]) == ("roll shark", "roll whale")
        finally:
            for stream in streams.values():
                stream.close()


# -- item 9: a full disk --------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 3 MB filesystem (tmpfs), to be filled; mounting needs root, as `make test` is run
    by CI here."""
    folder = tmp_path / "disk"
    folder.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def fill(folder: Path) -> Path:
    """Fill the filesystem of `folder` to the last byte."""
    filler = folder / "filler"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as f:
        while True:
            f.write(b"\0" * 4096)
    return filler


def test_a_full_disk_refuses_every_write_plainly_and_changes_nothing(
    small_disk: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with table_on(small_disk) as (table, port):
        game, ana = ready(table, port, "physical")
        engine = play_until(table, game, "move")
        assert command(ana, game, "m1", action=list(first(engine, "move")))[0] == 200
        before = table.snapshot(game, REFEREE)
        rows = table.log(game, REFEREE)
        filler = fill(small_disk)
        assert table._store.path.exists() and shutil.disk_usage(small_disk).free < 8192

        engine = mirror(table, game)
        tries = {
            "a move": command(ana, game, "m2", action=list(first(engine, "move"))),
            "an undo": command(ana, game, "u1", intent="undo"),
            "a new game": ana.post("/api/games", {"players": [{}, {}], "request_id": "g2"}),
        }
        for what, (status, body) in tries.items():
            assert status in (409, 422), (what, status, body)
            assert body["error"] == FULL + ".", (what, body)
        # The table itself corrects the island's first tile (it drew it): refused the same way.
        terrain = rows[0]["action"][1]
        other = "forest" if terrain != "forest" else "beach"
        args = {"seq": rows[0]["seq"], "action": ["terrain", other]}
        fix = table.call(Command("cli", None, "c1", game, intent="correct", args=args))
        assert not fix.accepted and fix.message == FULL
        assert not [r for r in caplog.records if r.exc_info]  # no traceback: plain lines
        after = table.snapshot(game, REFEREE)
        assert after["state"] == before["state"] and table.log(game, REFEREE) == rows
        fresh = Table(Store.reading(small_disk / "games.db"))  # what the disk holds
        assert fresh.snapshot(game, REFEREE)["state"] == after["state"]
        assert table.games()[0] == fresh.games()[0]

        filler.unlink()  # space again: the same undo now works
        status, body = command(ana, game, "u2", intent="undo")
        assert status == 200, body


def test_the_status_bar_and_doctor_warn_before_the_disk_is_full(small_disk: Path) -> None:
    """With less than 64 MB left (here: 3 MB in all) every phone's status says so, and doctor
    warns; full, doctor fails."""
    with table_on(small_disk) as (table, port):
        table._look_at_storage()
        snap = Phone(port).get("/api/health")[1]
        assert snap["status"]["storage"].startswith("low: ")
    cfg = parse({"store": {"path": str(small_disk / "games.db")}})
    check = doctor.disk(cfg)
    assert check.status == "warn" and "MB free" in check.text
    fill(small_disk)
    assert doctor.disk(cfg).status == "fail"


# -- item 11: a damaged log ----------------------------------------------------------------


def in_use(db: Path, probe: Path) -> int:
    """How many frames of the WAL beside `db` hold committed pages, as SQLite reads them (in a
    copy, in the folder `probe`): the file is longer, since the store lays it out whole when it
    opens."""
    probe.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(f"{db}{suffix}", probe / f"{db.name}{suffix}")
    with contextlib.closing(sqlite3.connect(probe / db.name)) as copy:
        frames: int = copy.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    return frames


def test_a_damaged_wal_that_rewinds_a_game_is_found_and_repaired(tmp_path: Path) -> None:
    """A copy of the log taken while the companion runs (its WAL not yet checkpointed), with
    the WAL damaged half-way: SQLite replays it up to the bad frame and the game rewinds
    without a word. The witness finds it; doctor names the game and the action; repair
    exports what is left and lets the game go on."""
    live = tmp_path / "live"
    store = Store(live / "games.db")
    table = Table(store)
    game = new_game(table, seed=5, mode="physical")
    play_setup(table, game)
    stored = len(store.log(game))
    copy = tmp_path / "copy"
    copy.mkdir()
    for name in ("games.db", "games.db-wal", "games.db.tally", "games.db.tally.2"):
        shutil.copy(live / name, copy / name)
    store.close()
    wal = copy / "games.db-wal"
    data = bytearray(wal.read_bytes())
    frame = 24 + int.from_bytes(data[8:12], "big")  # a frame's header and its page
    half = in_use(copy / "games.db", tmp_path / "probe") // 2
    middle = 32 + frame * half + 100  # inside a frame half-way through the log
    data[middle : middle + 64] = bytes(range(64))
    wal.write_bytes(bytes(data))

    cfg = parse({"store": {"path": str(copy / "games.db")}})
    check = doctor.games(cfg)
    assert check.status == "fail", check
    port = free_port()  # the daemon says so at its start
    with running(["serve", "--config", str(write_config(copy, port))], environment(copy)) as proc:
        wait_http_200(f"http://127.0.0.1:{port}", ("/api/health",), timeout=60)
        _, _, err = stop(proc)
    assert f"game {game} is damaged from action" in err and "are gone" in err, err
    damaged = Store(copy / "games.db")
    left = len(damaged.log(game))
    assert left < stored  # the rewind itself
    assert f"game {game} from action {left + 1}" in check.text and "are gone" in check.text
    assert f"companion repair {game}" in check.advice
    out = tmp_path / "until.json"
    said = integrity.repair(damaged, game, out)
    assert f"up to action {left}" in said
    assert len(json.loads(out.read_text())["actions"]) == left
    damaged.close()
    assert doctor.games(cfg).status == "ok"


def test_a_move_that_no_longer_replays_is_named_not_a_500(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """As after an upgrade that changed a rule: the stored boat placement is refused on
    replay. The served game answers a sentence naming the game and the action (not a 500),
    the log gets one line, doctor says the same, repair sets the rest aside and the game goes
    on; a game that does not exist is one line in the log, not a traceback."""
    store = Store(tmp_path / "games.db")
    table = Table(store)
    game = new_game(table, seed=5, mode="physical")
    play_setup(table, game)
    boat = next(r for r in store.log(game) if r.action[0] == "boat")
    store.close()

    real = Game.apply

    def upgraded(self: Game, action: Any, by: Any = None) -> Any:
        if list(action) == boat.action:
            from companion.engine import IllegalAction

            raise IllegalAction("B-6", "a boat may no longer go there")
        return real(self, action, by=by)

    monkeypatch.setattr(Game, "apply", upgraded)
    caplog.set_level(logging.INFO)
    with table_on(tmp_path) as (_, port):
        phone = seated(port, game, 0)
        status, body = phone.get(f"/api/games/{game}")
        assert status == 409, body
        assert f"game {game} is damaged from action {boat.seq}" in body["error"]
        assert "no longer replays" in body["error"] and f"companion repair {game}" in body["error"]
        assert phone.get("/api/games/999")[0] == 404
    assert not [r for r in caplog.records if r.exc_info]
    assert len([r for r in caplog.records if "damaged" in r.getMessage()]) == 1

    cfg = parse({"store": {"path": str(tmp_path / "games.db")}})
    check = doctor.games(cfg)
    assert check.status == "fail" and f"game {game} from action {boat.seq}" in check.text
    store = Store(tmp_path / "games.db")
    said = integrity.repair(store, game, tmp_path / "until.json")
    assert f"up to action {boat.seq - 1}" in said
    assert [r.status for r in store.log(game, everything=True) if r.seq >= boat.seq] == [
        "superseded"
    ] * len([r for r in store.log(game, everything=True) if r.seq >= boat.seq])
    store.close()
    assert doctor.games(cfg).status == "ok"
    with table_on(tmp_path) as (table, _):
        assert table.snapshot(game, REFEREE)["state"]["phase"] == "boat"  # goes on from there
