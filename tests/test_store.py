"""The store: durable settings on the writer, unreadable files moved aside (never lost), newer
schemas refused, and migrations from an empty file."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from companion import integrity
from companion.commands import Command
from companion.store import LOG_BYTES, MIGRATIONS, Store, StoreError, _Copy
from tests.playing import first, mirror, new_game
from tests.web_support import close, started_table


def store_with_games(path: Path, games: int = 30) -> None:
    """A real database of some pages, closed (so its WAL is folded back into the file)."""
    store = Store(path)
    for i in range(games):
        store.create_game(
            "survive", {"format": 1}, [{"seat": 0, "name": "Ana" * 50}], i, "digital", {}, 0.0
        )
    store.close()
    assert not Path(f"{path}-wal").exists()


def add_game(store: Store) -> int:
    return store.create_game("survive", {"format": 1}, [], 1, "digital", {}, 0.0)


def aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(f"{path.name}.unreadable-*[!lm]"))  # not -wal / -shm


def test_the_writer_connection_is_wal_and_synchronous_full(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    assert store.pragma("journal_mode") == "wal"
    assert store.pragma("synchronous") == 2  # FULL: on disk before anyone is told
    store.close()


def test_a_checkpoint_that_fails_is_logged_not_raised(tmp_path: Path) -> None:
    """The Table checkpoints on its own thread when quiet: an I/O error there must not end it."""
    store = Store(tmp_path / "games.db")
    add_game(store)
    store.db.close()
    store.checkpoint()  # a closed connection raises sqlite3.ProgrammingError inside


def test_commits_write_over_the_log_laid_out_at_open_and_a_power_cut_keeps_each_one(
    tmp_path: Path,
) -> None:
    """The write-ahead log has its whole size from the start, so that no command's fsync
    grows the file; commits past a checkpoint write it again from its start. The layout's
    rolled-back pages reach neither the database nor a log read after a power cut: the files
    as they are on disk between two commits (copied while the store is open) hold every row
    committed, and no other."""
    path = tmp_path / "games.db"
    wal = Path(f"{path}-wal")
    store = Store(path)
    try:
        laid = wal.stat().st_size
        assert laid >= LOG_BYTES
        game = add_game(store)
        for i in range(1500):  # three pages each: twice the log, checkpointed as a table does
            store.append_all(game, [(["roll", i % 6 + 1], "seat", 0, None, None)], float(i))
            assert wal.stat().st_size == laid
            if i % 500 == 499:
                store.checkpoint()
        cut = tmp_path / "cut"
        cut.mkdir()
        for name in (path, wal):
            shutil.copy(name, cut / name.name)
    finally:
        store.close()
    assert path.stat().st_size < laid // 4  # the layout's pages never reached the database
    after = Store(cut / "games.db")
    try:
        assert [r.action[1] for r in after.log(game)] == [i % 6 + 1 for i in range(1500)]
        assert after.damage(game) is None
        tables = after.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        assert "log_layout" not in {name for (name,) in tables}
    finally:
        after.close()


def test_an_action_costs_its_commit_one_page_and_a_kept_reply_one_more(tmp_path: Path) -> None:
    """Each page a commit writes is synced with it: an action stored without a request id (a
    draw, a panel's press) writes its row, kept in its key's order (no index of the key beside
    it), and no request index; one whose reply is kept writes its reply's row too (again no
    index of its key beside it) and no request index (the reply is found by its request id and
    tells the row's seq); one stored with its request id and no reply (as before replies were
    kept) is found by the request index."""
    store = Store(tmp_path / "games.db")
    try:
        game = add_game(store)
        store.append(game, ["roll", 1], "seat", 0, 0.0)

        def pages(store_it: Callable[[], object]) -> int:
            store.checkpoint()  # the next commit starts the log again: its frames alone are in it
            store_it()
            written: int = store.db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
            return written

        assert pages(lambda: store.append(game, ["roll", 2], "seat", 0, 0.0)) == 1
        action = (["roll", 3], "phone", 0, "phone-1-1", None)
        kept = ("phone-1-1", 0, {"accepted": True, "events": []})
        assert pages(lambda: store.append_all(game, [action], 0.0, request=kept)) == 2
        assert store.recall(game, "phone-1-1") == (0, {**kept[2], "seq": 3})
        assert store.find_request(game, "phone-1-1") is None
        store.append(game, ["roll", 4], "phone", 0, 0.0, request_id="phone-1-2")
        assert store.find_request(game, "phone-1-2") == 4
        plan = store.db.execute(
            "EXPLAIN QUERY PLAN SELECT seq FROM actions WHERE game_id = ? AND request_id = ?",
            (game, "phone-1-2"),
        ).fetchall()
        assert "actions_by_request" in str(plan)
    finally:
        store.close()


def test_a_command_resent_is_not_done_again_whether_its_reply_was_kept_or_only_its_row(
    tmp_path: Path,
) -> None:
    """A phone resends a command it had no answer to: the Table answers as the first time and
    stores nothing, both for one whose reply was kept (its row holds no request id) and for
    one stored before replies were kept (its row holds the request id, no reply is kept)."""
    path = tmp_path / "games.db"
    table = started_table(path)
    try:
        game_id = new_game(table)
        game = mirror(table, game_id)
        action = list(first(game, "place"))
        sent = Command("phone", game.actor, "phone-2-1", game_id, action=action)
        done = table.call(sent)
        assert done.accepted, done.message
        game.apply(action)
        old = list(first(game, "place"))
        seq = table.read(
            lambda: table._store.append(game_id, old, "phone", game.actor, 0.0, "phone-2-2")
        )
        table.read(lambda: table._reload(game_id))  # as after a restart: read from the store
        stored = len(table.log(game_id, "referee"))
        assert table.call(sent) == done
        again = table.call(Command("phone", game.actor, "phone-2-2", game_id, action=old))
        assert (again.accepted, again.seq) == (True, seq)
        assert len(table.log(game_id, "referee")) == stored
        assert integrity.problems(table._store) == []
    finally:
        close(table)


def garbage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[: len(data) // 2] = random.Random(3).randbytes(len(data) // 2)
    path.write_bytes(bytes(data))


def truncated(path: Path) -> None:
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2 + 100)


@pytest.mark.parametrize("damage", [garbage, truncated], ids=["garbage", "truncated"])
def test_an_unreadable_database_is_moved_aside_and_a_fresh_one_works(
    tmp_path: Path, damage: Callable[[Path], None]
) -> None:
    path = tmp_path / "games.db"
    store_with_games(path)
    damage(path)
    damaged = path.read_bytes()

    store = Store(path)

    assert store.recovered is not None
    [old] = aside(path)
    assert old.read_bytes() == damaged  # nothing lost: the very bytes, where the message says
    assert f"The game database {path} could not be read" in store.recovered
    assert f"It was moved to {old} " in store.recovered
    assert "a new, empty one was started" in store.recovered
    assert store.games() == []
    game = add_game(store)
    store.close()
    again = Store(path)
    assert again.recovered is None and [g.id for g in again.games()] == [game]
    again.close()


def test_a_database_from_a_newer_version_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    store_with_games(path, games=2)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {len(MIGRATIONS) + 1}")
    db.commit()
    db.close()

    with pytest.raises(StoreError) as refused:
        Store(path)

    message = str(refused.value)
    assert "newer version of the companion" in message and "upgrade the companion" in message
    assert str(path) in message
    assert aside(path) == []
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 2
    db.close()


def test_migrations_bring_an_empty_file_to_the_current_version(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    path.touch()
    store = Store(path)
    assert store.recovered is None
    assert store.pragma("user_version") == len(MIGRATIONS)
    tables = {r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"games", "actions"} <= tables
    game = add_game(store)
    assert store.append(game, ["done"], "cli", None, 1.0) == 1
    store.close()


def test_a_new_migration_upgrades_a_stored_database_and_keeps_its_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    store_with_games(path, games=3)
    monkeypatch.setattr(
        "companion.store.MIGRATIONS",
        [
            *MIGRATIONS,
            "CREATE TABLE notes (game_id INTEGER, text TEXT); CREATE INDEX n ON notes (game_id)",
        ],
    )
    store = Store(path)
    assert store.pragma("user_version") == len(MIGRATIONS) + 1
    assert len(store.games()) == 3
    assert store.db.execute("SELECT COUNT(*) FROM notes").fetchone()[0] == 0
    store.close()


def test_a_store_of_the_schema_before_the_rows_were_kept_by_their_key_is_migrated_losing_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store written by a companion of schema 4 (actions in a rowid table) opens with every
    game as it was: the same rows, their checksums still following each other, an undone
    action still undone, a request still found, the games replaying; and play goes on."""
    path = tmp_path / "games.db"
    with monkeypatch.context() as old:
        old.setattr("companion.store.MIGRATIONS", MIGRATIONS[:4])
        table = started_table(path)
        try:
            games = [new_game(table, seed) for seed in (1, 2)]
            for _ in range(2):
                game = mirror(table, games[0])
                placed = table.call(
                    Command("cli", game.actor, game=games[0], action=list(first(game, "place")))
                )
                assert placed.accepted, placed.message
            action = list(first(mirror(table, games[1]), "place"))
            sent = table.call(Command("phone", 0, "phone-3-1", games[1], action=action))
            assert sent.accepted, sent.message
        finally:
            close(table)
        written = Store(path)
        written.mark(games[0], [placed.seq], "undone", "undone by its player")
        written.close()
    schema = "SELECT group_concat(sql) FROM sqlite_master WHERE name IN ('actions', 'requests')"
    before = sqlite3.connect(path)
    assert "WITHOUT ROWID" not in before.execute(schema).fetchone()[0]
    rows = before.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall()
    before.close()
    with monkeypatch.context() as old:
        old.setattr("companion.store.MIGRATIONS", MIGRATIONS[:4])
        written = Store(path)
        kept = written.recall(games[1], "phone-3-1")
        written.close()
    assert kept is not None and kept[1]["seq"] == sent.seq
    assert {"undone"} <= {row[7] for row in rows} and len(rows) > 2

    store = Store(path)
    try:
        assert store.pragma("user_version") == len(MIGRATIONS)
        assert store.db.execute(schema).fetchone()[0].count("WITHOUT ROWID") == 2
        assert store.db.execute("SELECT * FROM actions ORDER BY game_id, seq").fetchall() == rows
        assert integrity.problems(store) == []
        assert store.recall(games[1], "phone-3-1") == kept
    finally:
        store.close()
    table = started_table(path)
    try:
        game = mirror(table, games[0])
        again = table.call(
            Command("cli", game.actor, game=games[0], action=list(first(game, "place")))
        )
        assert again.accepted, again.message
        assert integrity.problems(table._store) == []
    finally:
        close(table)


def test_a_database_held_by_another_process_is_refused_not_moved_aside(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "games.db"
    store_with_games(path, games=1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    real_connect = sqlite3.connect

    def impatient(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        return real_connect(*args, **{**kwargs, "timeout": 0.1})  # not the default 5 s

    monkeypatch.setattr(sqlite3, "connect", impatient)
    try:
        with pytest.raises(StoreError, match="locked"):
            Store(path)
        assert aside(path) == []
    finally:
        other.close()
        for leftover in aside(path):
            os.remove(leftover)


def test_a_game_number_beyond_the_store_is_no_game(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    try:
        with pytest.raises(StoreError, match="no game"):
            store.game(2**63)
    finally:
        store.close()


def test_a_row_is_stored_and_checksummed_in_the_text_json_dumps_writes(tmp_path: Path) -> None:
    """The store writes JSON with an encoder made once: its text must stay json.dumps's, which
    the checksums of every row already stored were made over."""
    store = Store(tmp_path / "games.db")
    try:
        game = add_game(store)
        action = ["note", 'Zoë "x"\n', [1.5, None, True], {"b": [], "a": {"ü": -0.0}}]
        store.append_all(game, [(action, "phone", 2, "r1", None)], 1.0)
        text, chain = store.db.execute("SELECT action, chain FROM actions").fetchone()
        assert text == json.dumps(action)
        fields = json.dumps(["", 1, 1, text, "phone", 2])
        assert chain == hashlib.blake2b(fields.encode(), digest_size=16).hexdigest()
        with pytest.raises(TypeError):  # what JSON cannot write is refused, as by json.dumps
            store.append_all(game, [(["roll", {3}], "seat", 0, None, None)], 2.0)
    finally:
        store.close()


def test_an_append_rolled_back_leaves_no_trace_in_the_next_rows_numbers_or_checksums(
    tmp_path: Path,
) -> None:
    """The store keeps each game's last row in memory between commands: a transaction that
    fails after adding a row must not leave that row behind in what the next append follows."""
    store = Store(tmp_path / "games.db")
    try:
        game = add_game(store)
        store.append_all(game, [(["roll", 1], "seat", 0, None, None)], 1.0)
        with pytest.raises(TypeError):  # the second action cannot be stored: neither is
            store.append_all(
                game,
                [(["roll", 2], "seat", 0, None, None), (["roll", {3}], "seat", 0, None, None)],
                2.0,
            )
        assert store.append_all(game, [(["roll", 4], "seat", 0, None, None)], 3.0) == [2]
        assert [r.action for r in store.log(game)] == [["roll", 1], ["roll", 4]]
        assert [r.ord for r in store.log(game)] == [1, 2]
        assert store.damage(game) is None
    finally:
        store.close()
    reopened = Store(tmp_path / "games.db")
    try:
        assert reopened.damage(game) is None
        assert reopened.append_all(game, [(["roll", 5], "seat", 0, None, None)], 4.0) == [3]
        assert reopened.damage(game) is None
    finally:
        reopened.close()


def test_the_witness_is_read_whole_while_its_writer_is_open_as_it_grows_and_shrinks(
    tmp_path: Path,
) -> None:
    """Each copy of the witness is written through a memory map: another reader sees every
    game's last row at once (the store not closed: a crash leaves what it wrote), when the text
    outgrows the map's first page, and when it is shorter than the text written before."""
    path = tmp_path / "games.db"
    store = Store(path)
    try:
        games = [add_game(store) for _ in range(90)]  # ~50 bytes a game: past one page
        for game in games:
            store.append(game, ["roll", 1], "table", None, 0.0)
        assert max(p.stat().st_size for p in store._tally_paths) > 4096
        assert Store.reading(path).tally == store.tally == {g: store.tally[g] for g in games}
    finally:
        store.close()
    copy = _Copy(tmp_path / "copy")
    try:
        copy.write(json.dumps({"written": 1, "games": {"1": [12345, "a" * 5000]}}).encode())
        copy.write(b'{"written": 2, "games": {}}')
        assert json.loads((tmp_path / "copy").read_text()) == {"written": 2, "games": {}}
    finally:
        copy.close()


def test_the_witness_survives_a_copy_cut_short_and_reads_an_old_single_copy(
    tmp_path: Path,
) -> None:
    """The witness of each game's last row is written over the older of two copies in turn:
    the newer readable copy is believed, a copy cut short (a power cut mid-write) leaves the
    other, and a witness from before there were two copies is still read."""
    path = tmp_path / "games.db"
    store = Store(path)
    game = add_game(store)
    for n in range(3):
        store.append(game, ["roll", n + 1], "table", None, 0.0)
    first, second = store._tally_paths
    assert first.exists() and second.exists()
    last = store.tally[game]
    assert last[0] == 3
    store.close()
    assert Store.reading(path).tally[game] == last
    newer = max((first, second), key=lambda p: json.loads(p.read_text())["written"])
    newer.write_bytes(newer.read_bytes()[:20])  # cut short
    assert Store.reading(path).tally[game][0] == 2  # the older copy: one row behind
    second.unlink()
    first.write_text(json.dumps({str(game): list(last)}))  # as a witness was written before
    reopened = Store(path)
    assert reopened.tally[game] == last
    reopened.append(game, ["roll", 4], "table", None, 0.0)
    reopened.close()
    assert Store.reading(path).tally[game][0] == 4
