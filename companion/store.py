"""The game log in SQLite: every game, every action in order, never deleted.

One writer connection (the Table's thread), WAL mode, ``synchronous=FULL``: an action is on disk
before anyone is told it happened, so a power cut loses nothing acknowledged. A game's state is
the replay of its log; rows are never deleted — an undone, corrected or superseded action keeps
its row with a status saying so.

A database that cannot be read is moved aside (never deleted) and a fresh one started; `recovered`
then says, in plain words, what happened and where the old file is.
"""

from __future__ import annotations

import hashlib
import json
import logging
import mmap
import os
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from . import jsontext

log = logging.getLogger(__name__)

AUTOCHECKPOINT = 8000
"""Pages of write-ahead log (4 KiB each, 32 MiB) after which SQLite checkpoints inside a commit:
some 3,000 commands of a game without a quiet second, which a table never plays."""
LOG_BYTES = 2048 * 4096
"""The write-ahead log's size, laid out when the store opens (`_lay_out_log`): 8 MiB, 2,048
pages, some 700 commands of two or three pages (a phone's, its reply kept, five or six) without
a quiet second, more than a whole game's. The Table checkpoints after a while in its quiet
moments and when a game starts, and the log is written again from its start after each
checkpoint, so commits stay inside it."""

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
    """
    CREATE TABLE requests (
        game_id INTEGER NOT NULL REFERENCES games(id),
        request_id TEXT NOT NULL,
        reader,                       -- the view the reply was written for: a seat, or a name
        reply TEXT NOT NULL,          -- JSON: the first reply, as its sender read it
        PRIMARY KEY (game_id, request_id)
    );
    ALTER TABLE actions ADD COLUMN chain TEXT;  -- running checksum of the game's rows (`chained`)
    """,
    # A game's log in order is read when the game is loaded or exported, a few hundred rows
    # sorted in memory; the index cost every command one more page written and synced.
    """
    DROP INDEX actions_by_ord;
    """,
    # A request id is looked up only for a command that has one: the rows without (the draws
    # the table makes, the panel's presses, a bot's moves) cost their command one more page of
    # index written and synced.
    """
    DROP INDEX actions_by_request;
    CREATE INDEX actions_by_request ON actions (game_id, request_id)
        WHERE request_id IS NOT NULL;
    """,
    # The rows kept in their key's order (WITHOUT ROWID): a rowid table kept its key (game_id,
    # seq) in an index of its own, a second page written and synced by every command, and a
    # kept reply's key (game_id, request_id) likewise. Copied whole, each row as it was, an
    # action's checksum with it.
    """
    CREATE TABLE actions_by_seq (
        game_id INTEGER NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,
        ord INTEGER NOT NULL,
        action TEXT NOT NULL,
        source TEXT NOT NULL,
        seat INTEGER,
        at REAL NOT NULL,
        status TEXT NOT NULL DEFAULT 'ok',
        note TEXT,
        request_id TEXT,
        chain TEXT,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    INSERT INTO actions_by_seq (game_id, seq, ord, action, source, seat, at, status, note,
        request_id, chain)
        SELECT game_id, seq, ord, action, source, seat, at, status, note, request_id, chain
        FROM actions;
    DROP TABLE actions;
    ALTER TABLE actions_by_seq RENAME TO actions;
    CREATE INDEX actions_by_request ON actions (game_id, request_id)
        WHERE request_id IS NOT NULL;
    CREATE TABLE requests_by_id (
        game_id INTEGER NOT NULL REFERENCES games(id),
        request_id TEXT NOT NULL,
        reader,
        reply TEXT NOT NULL,
        PRIMARY KEY (game_id, request_id)
    ) WITHOUT ROWID;
    INSERT INTO requests_by_id (game_id, request_id, reader, reply)
        SELECT game_id, request_id, reader, reply FROM requests;
    DROP TABLE requests;
    ALTER TABLE requests_by_id RENAME TO requests;
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


Request = tuple[str, "int | str", dict[str, Any]]
"""A command's request id, the view its reply was written for (a seat, or SPECTATOR or REFEREE)
and the reply it got: kept with what the command
changed, in the same transaction, so that a resent command is answered, not done again."""


_WRITE = jsontext.encoder(ascii_only=True, item=", ", key=": ")


def dumps(value: Any) -> str:
    """`value` as ``json.dumps(value)`` writes it (the text stored, and checksummed: never
    another), by an encoder made once (`jsontext`)."""
    return "".join(_WRITE(value, 0))


def chained(previous: str, seq: int, ord_: int, action: str, source: str, seat: int | None) -> str:
    """The running checksum after one more stored row: BLAKE2b over the previous one and the
    row's fixed fields (its status changes with undo and corrections; what it was does not)."""
    text = dumps([previous, seq, ord_, action, source, seat])
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class Store:
    """The game log. Use it from one thread: the Table's."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.tally_path, self._tally_paths = _tally_paths(self.path)
        """Each game's last stored row and checksum, written after every commit that adds rows:
        a witness outside the database, so that a log that lost committed rows (a damaged WAL
        file is replayed only up to its first bad frame) is noticed (`damage`). Kept in two
        copies (`_tally_paths`), written in turn."""
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
        self.tally = self._read_tally()
        self._copies: list[_Copy | None] = [None, None]
        """The witness's two copies, opened at their first write and kept open: opening,
        sizing and closing a file after every command cost more than writing it."""
        self._tails: dict[int, Tail] = {}
        self._commits = 1
        """Commits since the last `checkpoint` (1 for what the last run may have left in the
        log)."""

    @classmethod
    def reading(cls, path: str | Path) -> Store:
        """The store opened read-only (for `companion doctor`): nothing is migrated, moved or
        written."""
        store = cls.__new__(cls)
        store.path = Path(path)
        store.tally_path, store._tally_paths = _tally_paths(store.path)
        store.recovered = None
        store.db = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True, check_same_thread=False)
        store.tally = store._read_tally()
        store._copies = [None, None]
        store._tails = {}
        store._commits = 0
        return store

    def _read_tally(self) -> dict[int, tuple[int, str]]:
        """The newer of the two copies that can be read (none yet, or both cut short by a
        power cut: none). A copy from before there were two holds the games alone: the older."""
        best: tuple[int, dict[int, tuple[int, str]]] = (-1, {})
        for path in self._tally_paths:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                written = int(data.pop("written", 0))
                games = data.get("games", data) if written else data
                tally = {int(g): (int(seq), str(chain)) for g, (seq, chain) in games.items()}
            except (OSError, ValueError, TypeError, AttributeError):
                continue
            if written > best[0]:
                best = (written, tally)
        self._written = max(best[0], 0)
        self._entries = {g: _entry(g, last) for g, last in best[1].items()}
        return best[1]

    def _witness(self, game_id: int, last: tuple[int, str] | None = None) -> None:
        """Write down the game's last row (`last`: its seq and checksum, when the caller has
        them) now that it is committed. No fsync: a witness that lags behind the database after
        a power cut says nothing wrong. Written over the older of two copies in place, in one
        write, rather than a new file renamed over the old: on ext4 such a rename pushes the
        file's data out with the next journal commit, which is the next command's fsync (it
        cost a command more than the rest of its work); a copy cut short by a power cut leaves
        the other."""
        if last is None:
            last = self.db.execute(
                "SELECT seq, chain FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
        if last is None:
            return
        self.tally[game_id] = (last[0], last[1])
        self._entries[game_id] = _entry(game_id, self.tally[game_id])
        self._written += 1
        games = ", ".join(self._entries.values())
        text = f'{{"written": {self._written}, "games": {{{games}}}}}'.encode()
        which = self._written % 2
        try:
            copy = self._copies[which]
            if copy is None:
                copy = self._copies[which] = _Copy(self._tally_paths[which])
            copy.write(text)
        except OSError:
            pass  # a full disk: the database refused the write first, or will say so next

    def forget_tally(self, game_id: int) -> None:
        """Accept the game's log as it is now (the way out after a loss was reported)."""
        self.tally.pop(game_id, None)
        self._entries.pop(game_id, None)
        self._witness(game_id)

    def damage(self, game_id: int) -> tuple[int, str] | None:
        """The first row of the game's log that is not as it was stored, and why; None when
        every row's checksum holds and nothing the witness saw stored is missing."""
        chain = ""
        rows = self.db.execute(
            "SELECT seq, ord, action, source, seat, chain FROM actions WHERE game_id = ? "
            "ORDER BY seq",
            (game_id,),
        ).fetchall()
        for seq, ord_, action, source, seat, stored in rows:
            chain = chained(chain, seq, ord_, action, source, seat)
            if stored != chain:
                return seq, f"action {seq} is not as it was stored (its checksum differs)"
        last = rows[-1][0] if rows else 0
        seen = self.tally.get(game_id)
        if seen is not None and seen[0] > last:
            return last + 1, (
                f"actions {last + 1} to {seen[0]} were stored and are gone: the log ends at "
                f"action {last} (a damaged write-ahead log file is replayed only up to its "
                "first bad frame)"
            )
        if seen is not None and not any(r[0] == seen[0] and r[5] == seen[1] for r in rows):
            return seen[0], f"action {seen[0]} is not as it was stored (its checksum differs)"
        return None

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            # The Table checkpoints when it is quiet (`checkpoint`): SQLite's own checkpoint, an
            # fsync of the whole database inside some command, is only the backstop.
            db.execute(f"PRAGMA wal_autocheckpoint={AUTOCHECKPOINT}")
            db.execute("PRAGMA foreign_keys=ON")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise sqlite3.DatabaseError(f"quick_check says: {check}")
            self._migrate(db)
            self._lay_out_log(db)
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
            if i == 1:  # the rows stored before there was a checksum get theirs now
                _chain_all(db)
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
        for copy in self._copies:
            if copy is not None:
                copy.close()
        self._copies = [None, None]

    @contextmanager
    def transaction(
        self, meanwhile: Callable[[], object] | None = None
    ) -> Iterator[sqlite3.Connection]:
        """One transaction. `meanwhile` is called just before its COMMIT: work it hands to
        another thread runs while this one waits for the disk (sqlite3 lets go of the
        interpreter lock during the COMMIT's fsync)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield self.db
        except BaseException:
            self._tails.clear()  # they may hold rows that are not stored after all
            self.db.execute("ROLLBACK")
            raise
        if meanwhile is not None:
            meanwhile()
        try:
            self.db.execute("COMMIT")
        except BaseException:
            self._tails.clear()
            raise
        self._commits += 1

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
        return self.append_all(game_id, [(action, source, seat, request_id, None)], at, outcome)[0]

    def append_all(
        self,
        game_id: int,
        actions: list[tuple[list[Any], str, int | None, str | None, str | None]],
        at: float,
        outcome: dict[str, Any] | None = None,
        request: Request | None = None,
        meanwhile: Callable[[], object] | None = None,
    ) -> list[int]:
        """Store accepted actions (each ``(action, source, seat, request_id, note)``) at the end of the
        game's log in one transaction — a command and the draws it brings, one ``fsync`` —; return
        their sequence numbers.

        `outcome`: the last action ended the game; its result is recorded in the same
        transaction, so that a crash cannot leave a game over by its log but in play by its
        record. `meanwhile`: as for `transaction`."""
        # A row whose request's reply is kept here leaves its request id out: the reply (with
        # the row's seq) is found by it (`recall`), and the id in the row would cost the commit
        # a page of `actions_by_request` more. Rows stored before replies were kept have it
        # (`find_request`).
        kept = request[0] if request is not None else None
        with self.transaction(meanwhile) as db:
            seq = self._next_seq(game_id)
            ord_ = self._tail(game_id).ord + 1
            last: tuple[int, str] | None = None
            for i, (action, source, seat, request_id, note) in enumerate(actions):
                request_id = None if request_id == kept else request_id
                last = (
                    seq + i,
                    self._insert(
                        game_id, seq + i, ord_ + i, action, source, seat, at, request_id, note
                    ),
                )
            if outcome is not None:
                db.execute(
                    "UPDATE games SET outcome = ?, ended_at = ? WHERE id = ?",
                    (json.dumps(outcome), at, game_id),
                )
            self._remember(game_id, request, seq)
        self._witness(game_id, last)
        return [seq + i for i in range(len(actions))]

    def _insert(
        self, game_id: int, seq: int, ord_: int, action: list[Any], source: str,
        seat: int | None, at: float, request_id: str | None = None, note: str | None = None,
    ) -> str:  # fmt: skip
        """One new row, its running checksum following the game's last row's; the checksum."""
        text = dumps(action)
        tail = self._tail(game_id)
        chain = chained(tail.chain, seq, ord_, text, source, seat)
        self.db.execute(
            "INSERT INTO actions (game_id, seq, ord, action, source, seat, at, request_id, note, "
            "chain) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (game_id, seq, ord_, text, source, seat, at, request_id, note, chain),
        )
        self._tails[game_id] = Tail(seq, max(tail.ord, ord_), chain)
        return chain

    def _tail(self, game_id: int) -> Tail:
        """The game's last stored row (by seq), its highest place in the log and its checksum:
        read once, then kept as rows are added — the store is the one writer of its log, and
        three look-ups per command cost as much as the rest of the command's SQL."""
        tail = self._tails.get(game_id)
        if tail is None:
            seq, ord_ = self.db.execute(
                "SELECT COALESCE(MAX(seq), 0), COALESCE(MAX(ord), 0) FROM actions "
                "WHERE game_id = ?",
                (game_id,),
            ).fetchone()
            last = self.db.execute(
                "SELECT chain FROM actions WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            tail = self._tails[game_id] = Tail(seq, ord_, last[0] if last else "")
        return tail

    def _remember(self, game_id: int, request: Request | None, seq: int | None = None) -> None:
        """Keep a request's reply (inside the caller's transaction); `seq`: the number the
        store gave what the request made, when the reply could not know it beforehand."""
        if request is None or not request[0]:
            return
        request_id, reader, reply = request
        if seq is not None and reply.get("seq") is None:
            reply = {**reply, "seq": seq}
        self.db.execute(
            "INSERT OR IGNORE INTO requests (game_id, request_id, reader, reply) VALUES (?,?,?,?)",
            (game_id, request_id, reader, dumps(reply)),
        )

    def remember(self, game_id: int, request: Request) -> None:
        """Keep the reply of a request that changed nothing stored (or whose change is stored
        already with its request id)."""
        with self.transaction():
            self._remember(game_id, request)

    def recall(self, game_id: int, request_id: str) -> tuple[int | str, dict[str, Any]] | None:
        """The view a request's first reply was written for, and that reply, if it was kept."""
        row = self.db.execute(
            "SELECT reader, reply FROM requests WHERE game_id = ? AND request_id = ?",
            (game_id, request_id),
        ).fetchone()
        return None if row is None else (row[0], json.loads(row[1]))

    def find_game_request(self, request_id: str) -> int | None:
        """The game a start request made, if it made one."""
        row = self.db.execute("SELECT id FROM games WHERE request_id = ?", (request_id,)).fetchone()
        return None if row is None else int(row[0])

    def find_request(self, game_id: int, request_id: str) -> int | None:
        """The action a request was stored as, if it was stored with its request id (one whose
        reply was kept with it is found by `recall`)."""
        row = self.db.execute(
            "SELECT seq FROM actions WHERE game_id = ? AND request_id = ?", (game_id, request_id)
        ).fetchone()
        return None if row is None else int(row[0])

    def _next_seq(self, game_id: int) -> int:
        return self._tail(game_id).seq + 1

    def mark(
        self, game_id: int, seqs: list[int], status: str, note: str | None,
        request: Request | None = None, meanwhile: Callable[[], object] | None = None,
    ) -> None:  # fmt: skip
        """Set the status of these actions (undone or superseded); the rows stay. `request`:
        the command that did it, kept in the same transaction; `meanwhile`: as for
        `transaction`."""
        assert status in STATUSES
        with self.transaction(meanwhile) as db:
            db.executemany(
                "UPDATE actions SET status = ?, note = ? WHERE game_id = ? AND seq = ?",
                [(status, note, game_id, seq) for seq in seqs],
            )
            self._remember(game_id, request)

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
        outcome: dict[str, Any] | None = None,
        request: Request | None = None,
    ) -> int:
        """Replace action `seq` by `action` in the log, in one transaction.

        The old row is kept as ``corrected`` (with who corrected it); the new one takes its place
        in the log; the actions the correction made illegal are kept as ``superseded``. The
        game's end follows in the same transaction: `outcome` when the corrected game is over,
        else none (a correction may take a game back from its end). `request`: the command.
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
            self._insert(game_id, new_seq, old[0], action, source, seat, at,
                         request[0] if request else None, f"correction of action {seq} by {by}")  # fmt: skip
            db.executemany(
                "UPDATE actions SET status = 'superseded', note = ? WHERE game_id = ? AND seq = ?",
                [(f"no longer legal after the correction of action {seq}", game_id, s)
                 for s in superseded],
            )  # fmt: skip
            db.execute(
                "UPDATE games SET outcome = ?, ended_at = ? WHERE id = ?",
                (None if outcome is None else json.dumps(outcome),
                 None if outcome is None else at, game_id),
            )  # fmt: skip
            self._remember(game_id, request, new_seq)
        self._witness(game_id)
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

    def _lay_out_log(self, db: sqlite3.Connection) -> None:
        """Give the write-ahead log its whole size (`LOG_BYTES`) now, written and synced, so
        that no command's fsync has to make the file longer. On ext4 a commit that grows the
        file is the data's flush and a journal commit for its new size, which waits for the
        journal's kernel thread to get a core; one that writes over pages already there is the
        flush alone. With the cores busy (the camera's work on a Pi) a growing commit's p90 was
        7.5-9.4 ms here against 3.4-3.5 ms for one written in place. SQLite keeps the file and
        writes it again from its start after each checkpoint, so commits stay inside it. The
        pages are those of a transaction rolled back: they spill into the log as uncommitted
        frames (a small page cache) and nothing reaches the database; a log read after a power
        cut ends at its last committed frame, as after any rolled-back transaction."""
        wal = Path(f"{self.path}-wal")
        with suppress(OSError):
            if wal.stat().st_size >= LOG_BYTES:
                return
        if shutil.disk_usage(self.path.parent).free < 16 * LOG_BYTES:
            return  # a disk nearly full keeps its space for the games (the log grows instead)
        db.execute("PRAGMA cache_size=-64")  # KiB: the transaction spills almost at once
        try:
            db.execute("BEGIN")
            db.execute("CREATE TABLE log_layout (pages BLOB)")
            chunk = 64 * 4096
            for _ in range(LOG_BYTES // chunk + 1):
                db.execute("INSERT INTO log_layout VALUES (zeroblob(?))", (chunk,))
        except sqlite3.Error as e:  # no room after all: the log grows with the commands instead
            log.info("the write-ahead log was not laid out: %s", e)
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")
            db.execute("PRAGMA cache_size=-2000")  # SQLite's default again
        try:
            fd = os.open(wal, os.O_RDONLY)
        except FileNotFoundError:  # nothing was written
            return
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def checkpoint(self, after: int = 1) -> None:
        """Copy the write-ahead log into the database, so the next commits write the log from
        its start again: a few milliseconds of fsyncs that no command then waits for. Only
        once `after` commits were made since the last: the commit that starts the log again
        writes and syncs its header first, a second fsync for that command."""
        if self._commits < after:
            return
        try:
            self.db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        except sqlite3.Error as e:  # the Table's thread goes on: the next quiet second retries
            log.warning("the game log could not be checkpointed: %s", e)
            return
        self._commits = 0

    def pragma(self, name: str) -> Any:
        return self.db.execute(f"PRAGMA {name}").fetchone()[0]


class Tail(NamedTuple):
    """A game's last stored row (`Store._tail`)."""

    seq: int
    ord: int
    chain: str


def _chain_all(db: sqlite3.Connection) -> None:
    """Give every stored row its running checksum, game by game in the order stored."""
    chains: dict[int, str] = {}
    rows = db.execute(
        "SELECT game_id, seq, ord, action, source, seat FROM actions ORDER BY game_id, seq"
    ).fetchall()
    for game_id, seq, ord_, action, source, seat in rows:
        chains[game_id] = chained(chains.get(game_id, ""), seq, ord_, action, source, seat)
        db.execute(
            "UPDATE actions SET chain = ? WHERE game_id = ? AND seq = ?",
            (chains[game_id], game_id, seq),
        )


class _Copy:
    """One copy of the witness, written in place through a memory map (`Store._witness`): a
    command's write is a copy into the page cache, which the kernel writes out in its own time,
    where a write call on ext4 also updated the file's times (its inode) at every command. What
    reaches the page cache survives the process's crash as a write's would; a power cut may
    lose either."""

    def __init__(self, path: Path) -> None:
        # Kept open for the store's life (closed by `Store.close`, else when collected).
        self.fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        self.used = os.fstat(self.fd).st_size
        """Bytes of the file that may hold text (the rest is spaces)."""
        self.map: mmap.mmap | None = None
        self._map(self.used)

    def _map(self, size: int) -> None:
        """Map at least `size` bytes, whole pages; a file made longer gets spaces, not the NUL
        bytes a longer file reads as (JSON may end in spaces)."""
        pages = max(1, -(-size // mmap.PAGESIZE)) * mmap.PAGESIZE
        if self.map is not None and len(self.map) >= pages:
            return
        had = os.fstat(self.fd).st_size
        if had < pages:  # written, not only sized: a page of a sparse file is not yet on disk,
            # and storing into it when the disk is full would kill the process (SIGBUS)
            os.pwrite(self.fd, b" " * (pages - had), had)
        longer = mmap.mmap(self.fd, pages)
        if self.map is not None:
            self.map.close()
        self.map = longer

    def write(self, text: bytes) -> None:
        self._map(len(text))
        assert self.map is not None
        self.map[: len(text)] = text
        if self.used > len(text):  # a shorter text than the last: spaces over the rest
            self.map[len(text) : self.used] = b" " * (self.used - len(text))
        self.used = len(text)

    def close(self) -> None:
        if self.map is not None:
            self.map.close()
            self.map = None
        os.close(self.fd)


def _tally_paths(path: Path) -> tuple[Path, tuple[Path, Path]]:
    """The witness's name beside the database, and its two copies (`Store.tally_path`)."""
    tally = path.with_name(path.name + ".tally")
    return tally, (tally, tally.with_name(tally.name + ".2"))


def _entry(game_id: int, last: tuple[int, str]) -> str:
    """A game's entry in the witness as JSON text, kept between writes: encoding every game the
    store ever held again after each command made a command's cost grow with the store."""
    return f'"{game_id}": [{last[0]:d}, {dumps(last[1])}]'


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
