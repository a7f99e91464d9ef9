"""The game log in SQLite: every game, every action in order, never deleted.

One writer connection (the Table's thread), WAL mode, ``synchronous=FULL``: an action is on disk
before anyone is told it happened, so a power cut loses nothing acknowledged. A game's state is
the replay of its log; rows are never deleted — an undone, corrected or superseded action keeps
its row with a status saying so.

A database that cannot be read is moved aside (never deleted) and a fresh one started; `recovered`
then says, in plain words, what happened and where the old file is.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Each entry brings the schema from version i to i + 1 (PRAGMA user_version).
MIGRATIONS: list[str] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        rules TEXT NOT NULL,          -- JSON, with its format version
        players TEXT NOT NULL,        -- JSON list of {name, colour, seat}
        seed INTEGER NOT NULL,
        mode TEXT NOT NULL,
        settings TEXT NOT NULL,       -- JSON: how the table plays it (layout dealt or told, ...)
        started_at REAL NOT NULL,
        ended_at REAL,
        outcome TEXT,                 -- JSON, once the game is over
        request_id TEXT UNIQUE        -- the starter's, so that a retried start makes no second game
    );
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,         -- order of storing, per game
        ord INTEGER NOT NULL,         -- place in the game's log (a correction takes the old place)
        action TEXT NOT NULL,         -- JSON
        source TEXT NOT NULL,
        seat INTEGER,
        at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'ok',   -- ok | undone | corrected | superseded
        note TEXT,                    -- who corrected it, or why it was superseded
        request_id TEXT,              -- the sender's, so that a retried command is not done twice
        PRIMARY KEY (game_id, seq)
    );
    CREATE INDEX actions_by_ord ON actions (game_id, ord, seq);
    CREATE INDEX actions_by_request ON actions (game_id, request_id);
    """,
]

STATUSES = ("ok", "undone", "corrected", "superseded")
GAME_COLUMNS = "id, kind, rules, players, seed, mode, settings, started_at, ended_at, outcome"


@dataclass(frozen=True)
class Row:
    """One stored action."""

    seq: int
    ord: int
    action: list[Any]
    source: str
    seat: int | None
    at: float
    status: str
    note: str | None


@dataclass(frozen=True)
class GameRecord:
    id: int
    kind: str
    rules: dict[str, Any]
    players: list[dict[str, Any]]
    seed: int
    mode: str
    settings: dict[str, Any]
    started_at: float
    ended_at: float | None
    outcome: dict[str, Any] | None


class StoreError(Exception):
    """The store cannot do what was asked (an unknown game, a database from a newer version)."""


class Store:
    """The game log. Use it from one thread: the Table's."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.recovered: str | None = None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = self._open()
        except sqlite3.OperationalError as e:  # locked, no permission, I/O: not a damaged file
            raise StoreError(
                f"the game database {self.path} cannot be opened ({e}); is another companion "
                "running, or are its permissions wrong?"
            ) from None
        except sqlite3.DatabaseError as e:
            aside = self._move_aside()
            self.recovered = (
                f"The game database {self.path} could not be read ({e}). It was moved to "
                f"{aside} and a new, empty one was started. The old file is kept: a repair "
                f"tool such as 'sqlite3 {aside} .recover' may still get games out of it."
            )
            self.db = self._open()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"quick_check says: {check}")
            self._migrate(db)
        except BaseException:
            db.close()
            raise
        return db

    def _migrate(self, db: sqlite3.Connection) -> None:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise StoreError(
                f"{self.path} was written by a newer version of the companion "
                f"(schema {version}, this one knows {len(MIGRATIONS)}): upgrade the companion"
            )
        for i in range(version, len(MIGRATIONS)):
            db.execute("BEGIN IMMEDIATE")
            for statement in _statements(MIGRATIONS[i]):
                db.execute(statement)
            db.execute(f"PRAGMA user_version={i + 1}")
            db.execute("COMMIT")

    def _move_aside(self) -> Path:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}")
        n = 1
        while aside.exists():
            n += 1
            aside = self.path.with_name(f"{self.path.name}.unreadable-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                os.replace(src, Path(str(aside) + suffix))
        return aside

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- games ----------------------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        rules: dict[str, Any],
        players: list[dict[str, Any]],
        seed: int,
        mode: str,
        settings: dict[str, Any],
        at: float,
        request_id: str | None = None,
    ) -> int:
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO games (kind, rules, players, seed, mode, settings, started_at, "
                "request_id) VALUES (?,?,?,?,?,?,?,?)",
                (
                    kind,
                    json.dumps(rules),
                    json.dumps(players),
                    seed,
                    mode,
                    json.dumps(settings),
                    at,
                    request_id,
                ),
            )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def finish(self, game_id: int, outcome: dict[str, Any], at: float) -> None:
        with self.transaction() as db:
            db.execute(
                "UPDATE games SET outcome = ?, ended_at = ? WHERE id = ?",
                (json.dumps(outcome), at, game_id),
            )

    def reopen(self, game_id: int) -> None:
        """A correction took the game back from its end."""
        with self.transaction() as db:
            db.execute("UPDATE games SET outcome = NULL, ended_at = NULL WHERE id = ?", (game_id,))

    def game(self, game_id: int) -> GameRecord:
        if not 0 <= game_id < 2**63:
            raise StoreError(f"there is no game {game_id}")
        row = self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        if row is None:
            raise StoreError(f"there is no game {game_id}")
        return _record(row)

    def games(self) -> list[GameRecord]:
        return [
            _record(r) for r in self.db.execute(f"SELECT {GAME_COLUMNS} FROM games ORDER BY id")
        ]

    # -- actions --------------------------------------------------------------------------

    def append(
        self,
        game_id: int,
        action: list[Any],
        source: str,
        seat: int | None,
        at: float,
        request_id: str | None = None,
        outcome: dict[str, Any] | None = None,
    ) -> int:
        """Store one accepted action at the end of the game's log; return its sequence number."""
        return self.append_all(game_id, [(action, source, seat, request_id)], at, outcome)[0]

    def append_all(
        self,
        game_id: int,
        actions: list[tuple[list[Any], str, int | None, str | None]],
        at: float,
        outcome: dict[str, Any] | None = None,
    ) -> list[int]:
        """Store accepted actions (each ``(action, source, seat, request_id)``) at the end of the
        game's log in one transaction — a command and the draws it brings, one ``fsync`` —; return
        their sequence numbers.

        `outcome`: the last action ended the game; its result is recorded in the same
        transaction, so that a crash cannot leave a game over by its log but in play by its
        record."""
        with self.transaction() as db:
            seq = self._next_seq(game_id)
            ord_ = db.execute(
                "SELECT COALESCE(MAX(ord), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()[0]
            db.executemany(
                "INSERT INTO actions (game_id, seq, ord, action, source, seat, at, request_id) "
                "VALUES (?,?,?,?,?,?,?,?)",
                [(game_id, seq + i, ord_ + i, json.dumps(action), source, seat, at, request_id)
                 for i, (action, source, seat, request_id) in enumerate(actions)],
            )  # fmt: skip
            if outcome is not None:
                db.execute(
                    "UPDATE games SET outcome = ?, ended_at = ? WHERE id = ?",
                    (json.dumps(outcome), at, game_id),
                )
        return [seq + i for i in range(len(actions))]

    def find_game_request(self, request_id: str) -> int | None:
        """The game a start request made, if it made one."""
        row = self.db.execute("SELECT id FROM games WHERE request_id = ?", (request_id,)).fetchone()
        return None if row is None else int(row[0])

    def find_request(self, game_id: int, request_id: str) -> int | None:
        """The action a request was stored as, if it was."""
        row = self.db.execute(
            "SELECT seq FROM actions WHERE game_id = ? AND request_id = ?", (game_id, request_id)
        ).fetchone()
        return None if row is None else int(row[0])

    def _next_seq(self, game_id: int) -> int:
        seq: int = self.db.execute(
            "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
        ).fetchone()[0]
        return seq

    def mark(self, game_id: int, seqs: list[int], status: str, note: str | None) -> None:
        """Set the status of these actions (undone or superseded); the rows stay."""
        assert status in STATUSES
        with self.transaction() as db:
            db.executemany(
                "UPDATE actions SET status = ?, note = ? WHERE game_id = ? AND seq = ?",
                [(status, note, game_id, seq) for seq in seqs],
            )

    def correct(
        self,
        game_id: int,
        seq: int,
        action: list[Any],
        source: str,
        seat: int | None,
        at: float,
        by: str,
        superseded: list[int],
    ) -> int:
        """Replace action `seq` by `action` in the log, in one transaction.

        The old row is kept as ``corrected`` (with who corrected it); the new one takes its place
        in the log; the actions the correction made illegal are kept as ``superseded``.
        """
        with self.transaction() as db:
            old = db.execute(
                "SELECT ord FROM actions WHERE game_id = ? AND seq = ?", (game_id, seq)
            ).fetchone()
            if old is None:
                raise StoreError(f"game {game_id} has no action {seq}")
            new_seq = self._next_seq(game_id)
            db.execute(
                "UPDATE actions SET status = 'corrected', note = ? WHERE game_id = ? AND seq = ?",
                (f"corrected by {by} (now action {new_seq})", game_id, seq),
            )
            db.execute(
                "INSERT INTO actions (game_id, seq, ord, action, source, seat, at, note) "
                "VALUES (?,?,?,?,?,?,?,?)",
                (game_id, new_seq, old[0], json.dumps(action), source, seat, at,
                 f"correction of action {seq} by {by}"),
            )  # fmt: skip
            db.executemany(
                "UPDATE actions SET status = 'superseded', note = ? WHERE game_id = ? AND seq = ?",
                [(f"no longer legal after the correction of action {seq}", game_id, s)
                 for s in superseded],
            )  # fmt: skip
        return new_seq

    def log(self, game_id: int, everything: bool = False) -> list[Row]:
        """The game's actions in log order; only those in force unless `everything`."""
        where = "" if everything else " AND status = 'ok'"
        rows = self.db.execute(
            "SELECT seq, ord, action, source, seat, at, status, note FROM actions "
            f"WHERE game_id = ?{where} ORDER BY ord, seq",
            (game_id,),
        )
        return [
            Row(seq, ord_, json.loads(action), source, seat, at, status, note)
            for seq, ord_, action, source, seat, at, status, note in rows
        ]

    def pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]


def _statements(script: str) -> list[str]:
    return [part.strip() for part in script.split(";") if part.strip()]


def _record(row: tuple[Any, ...]) -> GameRecord:
    id_, kind, rules, players, seed, mode, settings, started, ended, outcome = row
    return GameRecord(
        id_,
        kind,
        json.loads(rules),
        json.loads(players),
        seed,
        mode,
        json.loads(settings),
        started,
        ended,
        None if outcome is None else json.loads(outcome),
    )
