"""The Table: the one writer. Commands in, checked by the engine, stored, then told to everyone.

Every change to any game goes through one queue consumed by one thread, in order. For each
command the Table asks the engine; an accepted action is appended to the store (on disk) and only
then are its events published, each subscriber receiving its own view's projection; the sender
gets a `Reply`. Table intents (roll, next, undo, correct, ...) become engine actions here and
nowhere else.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import queue
import shutil
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, cast

from . import bots, history, integrity, seeds
from .commands import REFEREE, Command, Event, Reply
from .engine import Game, IllegalAction, MalformedAction, Rules, RulesError, actions, paths
from .engine.state import State
from .engine.views import Shown
from .flotilla import FlotillaError, RuleBroken
from .flotilla.game import FlotillaGame
from .kinds import (
    ILLEGAL,
    KINDS,
    MALFORMED,
    AnyEvent,
    AnyGame,
    Kind,
    View,
    engine_view,
    flotilla_setup,
    game_of,
    seen,
    views_of,
)
from .kinds import choices as survive_choices
from .meanwhile import Helper, Job
from .proposals import CAMERA_ONLY_PROPOSES, Proposals, last
from .refusals import Refused, Stale, UnknownGame
from .store import GameRecord, Request, Row, Store, StoreError

log = logging.getLogger(__name__)

UNDO_REPLAYS_AT_MOST = 150
"""Actions before the turn's start an undo replays at most (besides the turn's own, and the copy
of a game): the game kept for it is copied when it falls that far behind (`Loaded.kept`), at the
start of a turn, about one command in 150 when the Table is never quiet (a benchmark's pace); a
table of people is quiet most of the time and keeps it at the turn's start."""
QUIET = 0.05
"""Seconds without a command after which the Table does its quiet work, one short step at a
time, whenever no job waits."""
CHECKPOINT_AFTER = 200
"""Commits after which the Table checkpoints the log in a quiet moment. Not after each: the
commit that starts the log again syncs its header first, so a table checkpointing whenever it
is quiet (between most commands of people) made nearly every command two fsyncs. 200 commits
(two to six pages each) stay inside the log laid out at open (`store.LOG_BYTES`)."""
STEP_GAP = 0.001
"""Seconds the Table waits for a job between two steps of its quiet work: it lets go of the
interpreter meanwhile, so that no edge's thread waits for it to hand over a command."""

MODES = ("digital", "physical")
LAYOUTS = ("random", "table")


@dataclass
class Subscriber:
    game: int | None
    """The game followed; None follows whichever game is current."""
    view: View
    deliver: Callable[[Event], None]
    """Called on the Table's thread: it must only hand the event on (e.g. to a queue)."""


@dataclass
class Loaded:
    """A game held in the Table's memory: its record, the engine's game and the actions in
    force, each with the events it caused (what each viewer may know of it is read off them)."""

    record: GameRecord
    game: AnyGame
    log: list[Row] = field(default_factory=list)
    caused: list[Sequence[AnyEvent]] = field(default_factory=list)
    """The events of each action of `log`, in the same order."""
    turn_start: int = 0
    """Index in `log` of the first action of the current turn (undo stops there)."""
    kept: Game | None = None
    """A Survive game as it stood after the first `kept_at` actions of `log` (None: before the
    first), at or before the turn's start: an undo replays from there, not from the game's
    start. The Table brings it up to the turn's start in its quiet moments (`catch_up`), one
    action at a time, instead of copying the game when a turn starts (a tenth of the commands
    would pay ~0.15 ms for it): a command never waits for more than one step of it."""
    kept_at: int = 0
    events: int = 0
    """Events published so far; the next event's sequence number."""
    shown: Shown = field(default_factory=Shown)
    """What the views of the game were last built from (only what changed is built again)."""
    told_whole: dict[View, int] = field(default_factory=dict)
    """The last whole snapshot told to each view (its event's number): the next is told as
    following it, so that a stream that sent it sends only what changed (`Event.before`)."""

    @classmethod
    def load(cls, record: GameRecord, rows: list[Row]) -> Loaded:
        loaded = cls(record, game_of(record))
        for row in rows:
            loaded.push(row, loaded.game.apply(row.action))
        return loaded

    def push(self, row: Row, events: Sequence[AnyEvent]) -> None:
        self.log.append(row)
        self.caused.append(events)
        self.events += len(events)
        if any(e.kind == "turn" for e in events):
            self.turn_start = len(self.log)
            if self.turn_start - self.kept_at > UNDO_REPLAYS_AT_MOST and isinstance(
                self.game, Game
            ):  # never quiet for that long: the copy after all (an undo's cost is bounded)
                self.kept, self.kept_at = self.game.copy(), self.turn_start

    @property
    def behind(self) -> bool:
        """Is the game kept for an undo short of the turn's start (`catch_up`)?"""
        return self.kept_at < self.turn_start and isinstance(self.game, Game)

    def catch_up(self) -> None:
        """One step of bringing the kept game to the turn's start: one action replayed."""
        if self.kept is None:
            self.kept = cast(Game, game_of(self.record))
            return
        self.kept.apply(self.log[self.kept_at].action)
        self.kept_at += 1

    def take_back(self) -> None:
        """Drop the last action in force (an undo): the game is replayed from the one kept
        (the turn's start or a little before), or from the game's start."""
        self.log.pop()
        self.caused.pop()
        if self.kept is None or self.kept_at > len(self.log):
            self.kept, self.kept_at = None, 0
            game = game_of(self.record)
        else:
            game = self.kept.copy()
        for row in self.log[self.kept_at :]:
            game.apply(row.action)
        self.game = game


@dataclass(frozen=True)
class Done:
    """An action the engine accepted in memory, not yet stored: `_commit` stores it."""

    action: list[Any]
    source: str
    seat: int | None
    events: Sequence[AnyEvent]
    request_id: str = ""
    note: str | None = None


class Table:
    """One queue, one thread, every game."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self._store = store
        """The game log: the Table's alone (the edges read through the methods below)."""
        self.clock = clock
        self._loaded: dict[int, Loaded] = {}
        self.current: int | None = None
        self.subscribers: list[Subscriber] = []
        self._followers: dict[tuple[int, int | None], tuple[list[Subscriber], list[View]]] = {}
        """Each game's subscribers and their views, each once (`_following`), for the table's
        current game as it was: made again after a subscriber comes or goes."""
        self._told: dict[int, int] = {}
        """Events told of games dropped from memory, so that a reload numbers on from there."""
        self.status: dict[str, Any] = {"panel": "none", "camera": "none"}
        self.proposals = Proposals(self._act, self._tell_state)
        """The camera's word on each game (a pending proposal, a disagreement)."""
        self.bot_moves: dict[int, BotMove] = {}
        """Each physical game's bot decision waiting for a person to make it on the board."""
        self.heartbeat = time.monotonic()
        """When the Table's thread last came round its loop; a watchdog reads it."""
        self.told = 0
        """How many times the Table has told anything (every change of a game is told): an edge
        that reads the same snapshot again and again (the camera, every frame) reads this number
        from its own thread first, and asks the Table again only when it moved."""
        self._queue: queue.SimpleQueue[tuple[Callable[[], Any], Future[Any]] | None] = (
            queue.SimpleQueue()
        )
        self._pending = 0
        """Jobs queued or in hand; the Table is quiet when there are none (`wait_quiet`)."""
        self._quiet = threading.Condition()
        self._commanded = 0.0
        """When the Table last took a command (its quiet work waits for `QUIET` after it)."""
        self._thread: threading.Thread | None = None
        self._helper = Helper("table-meanwhile")
        """Builds what the Table tells next while a command's COMMIT waits for the disk."""
        self._stopped = False
        self._kept = ""
        """The request id whose reply the last write kept with what it stored."""
        self._told_later: list[tuple[Subscriber, Event]] | None = None
        """What the job under way has told, handed to the subscribers when it is done."""
        unfinished = [g for g in store.games() if g.ended_at is None]
        if unfinished:
            self.current = unfinished[-1].id

    # -- the thread -----------------------------------------------------------------------

    def start(self) -> None:
        # The disk as it is at the start, told with the first snapshot; then every STORAGE_EVERY.
        self.status["storage"] = storage_status(self._store.path)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="table", daemon=True)
        self._helper.start()
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stopped = True
            self._queue.put(None)
            self._thread.join(timeout=10)
            self._thread = None
            self._helper.stop()

    @property
    def alive(self) -> bool:
        """Is the Table's thread running (a stuck thread is alive: see `heartbeat`)?"""
        return self._thread is not None and self._thread.is_alive()

    def _run(self) -> None:
        looked = time.monotonic()
        while True:
            self.heartbeat = time.monotonic()
            if self.heartbeat - looked >= STORAGE_EVERY:
                looked = self.heartbeat
                self._look_at_storage()
            behind = next((g for g in self._loaded.values() if g.behind), None)
            # Reads (a panel's, a camera's) do not put the quiet work off; commands do.
            wait = (
                1.0 if behind is None else max(STEP_GAP, self._commanded + QUIET - self.heartbeat)
            )
            try:
                item = self._queue.get(timeout=wait)
            except queue.Empty:  # a quiet moment: what commands should not wait for
                if behind is not None:
                    try:
                        behind.catch_up()
                    except Exception:  # memory is not its log: rebuilt from the store when asked
                        log.exception("could not replay game %s", behind.record.id)
                        self._forget(behind.record.id)
                else:
                    self._store.checkpoint(after=CHECKPOINT_AFTER)
                continue
            if item is None:
                return
            job, future = item
            try:
                if future.set_running_or_notify_cancel():
                    future.set_result(self._job(job))
            except Refused as e:  # an answer, not a fault
                future.set_exception(e)
            except BaseException as e:  # the sender gets the error; the Table goes on
                log.exception("table job failed")
                future.set_exception(e)
            finally:
                with self._quiet:
                    self._pending -= 1
                    if not self._pending:
                        self._quiet.notify_all()

    def _on_thread(self, job: Callable[[], Any]) -> Future[Any]:
        future: Future[Any] = Future()
        if self._stopped:
            future.set_exception(
                Refused("the table is shutting down; try again in a moment", key="table.stopping")
            )
        elif self._thread is None:  # never started: run in the caller's thread (tests, CLI)
            try:
                future.set_result(self._job(job))
            except BaseException as e:
                future.set_exception(e)
        else:
            with self._quiet:
                self._pending += 1
            self._queue.put((job, future))
        return future

    def _job(self, job: Callable[[], Any]) -> Any:
        """Run `job`; what it tells the subscribers is handed to them when it is done (also if
        it fails: what it told was stored), before its sender has the answer. Each stream is
        then written (or its thread woken) once with every event, instead of competing with the
        job for the interpreter after the first."""
        if self._told_later is not None:  # a job inside a job (never on the Table's thread)
            return job()
        self._told_later = []
        try:
            return job()
        finally:
            told, self._told_later = self._told_later, None
            for sub, event in told:
                sub.deliver(event)

    def _tell(self, sub: Subscriber, event: Event) -> None:
        if self._told_later is None:
            sub.deliver(event)
        else:
            self._told_later.append((sub, event))

    def wait_quiet(self, timeout: float | None = None) -> bool:
        """Wait until no job is queued or in hand (at once when there is none); False if the
        Table was still busy after `timeout` seconds. For work of the same process that must not
        compete with a command for the interpreter (the voice's): the Table's thread would wait
        for it to let go of the interpreter lock, and a command's time is a player's wait."""
        with self._quiet:
            return self._quiet.wait_for(lambda: not self._pending, timeout)

    # -- the face -------------------------------------------------------------------------

    def submit(self, command: Command) -> Future[Reply]:
        """Queue a command; the future's result is the sender's Reply."""
        return self._on_thread(lambda: self._handle(command))

    def call(self, command: Command, timeout: float = 30.0) -> Reply:
        result: Reply = self.submit(command).result(timeout)
        return result

    def read(self, job: Callable[[], Any], timeout: float = 30.0) -> Any:
        """Run a read-only `job` on the Table's thread, in order with the commands."""
        return self._on_thread(job).result(timeout)

    def subscribe(self, subscriber: Subscriber) -> None:
        self._on_thread(lambda: self._add(subscriber)).result(30)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        self._on_thread(lambda: self._remove(subscriber)).result(30)

    def _add(self, subscriber: Subscriber) -> None:
        self.subscribers.append(subscriber)
        self._followers.clear()

    def _remove(self, subscriber: Subscriber) -> None:
        if subscriber in self.subscribers:
            self.subscribers.remove(subscriber)
        self._followers.clear()

    def snapshot(self, game: int | None, view: View) -> dict[str, Any]:
        """A game as `view` may see it, with what the table knows around it; for the view
        `CAMERA`, the island the camera should see (`Proposals.expected`), or None."""

        def job() -> dict[str, Any] | None:
            loaded = self._fetch(game)
            if view == CAMERA:  # what the camera should see: the island, nothing hidden
                return self.proposals.expected(loaded)
            return self._snapshot(loaded, view)

        result: dict[str, Any] = self.read(job)
        return result

    def reach(self, game: int, verb: str, piece: int, timeout: float = 30.0) -> dict[str, Any]:
        """Where a whole move of the piece can end (`paths.reach`), on the current board."""

        def job() -> dict[str, Any]:
            loaded = self._fetch(game)
            if not isinstance(loaded.game, Game):
                raise Refused("only a Survive game has whole moves")
            try:
                found = paths.reach(loaded.game, verb, piece)
            except (KeyError, IndexError):
                raise Refused(f"there is no piece {piece} to move with {verb}") from None
            return {"version": version(loaded), "paths": {str(h): p for h, p in found.items()}}

        return self.read(job, timeout)

    def submit_for_step(
        self, choose: Callable[[str | None], Command | None]
    ) -> Future[tuple[str | None, Reply | None]]:
        """Queue the command `choose` makes of the current game's step (the engine's phase; None
        when no game has started), chosen on the Table's thread: what a panel's button means
        depends on the step alone, and asking for it first would take every press to the Table
        and back twice. The future's result is the step and the Reply (None when `choose` made no
        command)."""

        def job() -> tuple[str | None, Reply | None]:
            step = None if self.current is None else self._fetch(None).game.phase
            command = choose(step)
            return step, None if command is None else self._handle(command)

        return self._on_thread(job)

    def games(self, timeout: float = 30.0) -> tuple[list[GameRecord], int | None]:
        """Every stored game, oldest first, and the table's current one."""
        result: tuple[list[GameRecord], int | None] = self.read(
            lambda: (self._store.games(), self.current), timeout
        )
        return result

    def record(self, game: int, timeout: float = 30.0) -> GameRecord:
        """A stored game's record; UnknownGame if there is none."""
        result: GameRecord = self.read(lambda: self._record(game), timeout)
        return result

    def log(self, game: int, view: View, timeout: float = 30.0) -> list[dict[str, Any]]:
        """The game's log as `view` may read it. The referee reads every stored row whatever
        its status; anyone else the actions in force only, each as the engine's projection of
        its events lets them know it (a value they may not see left out: ``place 3.4 =?``)."""
        result: list[dict[str, Any]] = self.read(lambda: self._log(game, view), timeout)
        return result

    def export(self, game: int, view: View, timeout: float = 30.0) -> dict[str, Any]:
        """Everything stored about a game and where it leads (`history.export`). The log holds
        every hidden value, so a game still in play is exported to the referee only: Refused
        for anyone else until it is over (and its values are public). The seed, the game's
        secret, only to the referee."""

        def job() -> dict[str, Any]:
            record = self._record(game)
            if record.ended_at is None and view != REFEREE:
                raise Refused(
                    f"game {game} is still in play and its log holds hidden values: export it "
                    "once it is over"
                )
            rows = self._store.log(game, everything=True)
            return history.export(record, rows, seed=view == REFEREE)

        result: dict[str, Any] = self.read(job, timeout)
        return result

    def position(self, game: int, view: View, at: int | None = None, timeout: float = 30.0) -> str:
        """The game's position as `view` may see it (`Game.position`), now or after the action
        numbered `at`; Refused for a Flotilla game or an action not in force."""

        def job() -> str:
            record = self._record(game)
            try:
                return history.position(record, self._store.log(game), engine_view(view), at)
            except history.NoPosition as e:
                raise Refused(str(e)) from None

        result: str = self.read(job, timeout)
        return result

    def _look_at_storage(self) -> None:
        """Every phone's status bar warns before the game log's disk is full (`storage`)."""
        now = storage_status(self._store.path)
        if self.status.get("storage") != now:
            self.set_status("storage", now)

    def set_status(self, part: str, status: str) -> None:
        """A panel tells how it is connected; every viewer is told."""
        self._on_thread(lambda: self._set_status(part, status))

    def _set_status(self, part: str, status: str) -> None:
        self.status[part] = status
        for sub in list(self.subscribers):
            game = sub.game if sub.game is not None else self.current
            seq = self._loaded[game].events if game in self._loaded else 0
            self._tell(sub, Event(game or 0, seq, "status", dict(self.status)))

    def _camera_status(self, command: Command) -> Reply:
        """The camera tells how it is (``args.status``): a command like its others."""
        status = command.args.get("status")
        if not isinstance(status, str) or not status or len(status) > 300:
            raise Refused("a camera status is a short sentence")
        self._set_status("camera", status)
        return Reply(command.request_id, True, command.game, message="status noted")

    # -- inside the thread ----------------------------------------------------------------

    def _record(self, game: int) -> GameRecord:
        loaded = self._loaded.get(game)
        if loaded is not None:
            return loaded.record
        try:
            return self._store.game(game)
        except StoreError as e:
            raise UnknownGame(str(e)) from None

    def _log(self, game: int, view: View) -> list[dict[str, Any]]:
        record = self._record(game)
        if view == REFEREE:
            return [history.row_json(r, record.kind) for r in self._store.log(game, True)]
        loaded = self._fetch(game)
        shown = []
        for row, events in zip(loaded.log, loaded.caused, strict=True):
            action = seen(row.action, events, view)
            if action is not None:
                shown.append(history.row_json(replace(row, action=action), record.kind))
        return shown

    def _fetch(self, game: int | None) -> Loaded:
        game_id = self.current if game is None else game
        if game_id is None:
            raise Refused("no game has been started at this table yet", key="table.no_game")
        loaded = self._loaded.get(game_id)
        if loaded is None:
            record, rows = self._record(game_id), self._store.log(game_id)
            try:
                loaded = Loaded.load(record, rows)
            except Exception:  # a stored move the rules no longer take: say which, once a line
                damage = integrity.unplayable(record, rows)
                log.error("%s", damage)
                raise Refused(str(damage)) from None
            loaded.events = max(loaded.events, self._told.pop(game_id, 0))
            self._loaded[game_id] = loaded
            # A crash may have come between a stored action and the draws the companion makes
            # after it (a dealt tile): make them now, or the game would wait for nobody.
            with contextlib.suppress(Refused):
                self._follow(loaded)
        return loaded

    def _snapshot(self, loaded: Loaded, view: View) -> dict[str, Any]:
        return self._snapshots(loaded, [view])[view]

    def _snapshots(
        self, loaded: Loaded, views: list[View], parts: dict[View, dict[str, Any]] | None = None
    ) -> dict[View, dict[str, Any]]:
        """The game as each of `views` may see it, with what the table knows around it; what
        they see alike is built once and shared (read-only). `parts`: `_parts`, built already."""
        record = loaded.record
        parts = self._parts(loaded, views) if parts is None else parts
        common = {
            "game": record.id,
            "kind": record.kind,
            "players": record.players,
            "settings": record.settings,
            "seq": loaded.events,
            "actions": len(loaded.log),
            "version": version(loaded),
            "can_undo": self._undoable(loaded) is not None,
            "status": dict(self.status),
            "camera": self.proposals.to_json(loaded),
            "bot_move": self._bot_json(loaded),
        }
        return {view: {**common, **parts[view]} for view in views}

    def _parts(self, loaded: Loaded, views: list[View]) -> dict[View, dict[str, Any]]:
        """What of each view's snapshot the game in memory alone decides: the state as it may
        see it, its choices, what it tells for a bot seat. The costly part: after a command it
        is built while the COMMIT waits for the disk (`_commit`)."""
        states = views_of(loaded.game, [engine_view(v) for v in views], loaded.shown)
        choices = KINDS[loaded.record.kind].choices
        told = self._told_for_bot(loaded)
        return {
            view: {
                "state": states[engine_view(view)],
                **choices(loaded.game, view),
                **(told if isinstance(view, int) and view != told.get("for_bot") else {}),
            }
            for view in views
        }

    def _told_for_bot(self, loaded: Loaded) -> dict[str, Any]:
        """At a physical table, what a bot seat would tell is told by the people: its die and
        its tiles' backs (the seat whose turn it is tells those), the value under its saved
        people at the end (read off the pieces, B-31). Every person's phone is offered it,
        as ``for_bot`` (the bot's seat) with the bot seat's outcomes or legal reveals."""
        game = loaded.game
        if loaded.record.mode != "physical" or not isinstance(game, Game) or game.over:
            return {}
        if game.is_chance():
            seat = game.state.turn
            if _seat(loaded, seat).get("bot") is None:
                return {}
            return {"for_bot": seat, **survive_choices(game, seat)}
        if game.phase == "reveal" and game.actor is not None:
            if _seat(loaded, game.actor).get("bot") is None:
                return {}
            return {"for_bot": game.actor, **survive_choices(game, game.actor)}
        return {}

    def _handle(self, command: Command) -> Reply:
        self._commanded = time.monotonic()
        try:
            if command.source == "camera" and command.intent is not None:
                if command.intent not in CAMERA_INTENTS:
                    raise Refused(CAMERA_ONLY_PROPOSES)
                if command.intent == "status":
                    return self._camera_status(command)
            if command.intent in CAMERA_INTENTS and command.source != "camera":
                raise Refused(f"only the camera says {command.intent!r}")
            if command.intent == "new_game":
                return self._new_game(command)
            loaded = self._fetch(command.game)
            if command.request_id:
                first = self._first_reply(loaded, command)
                if first is not None:  # a retry of a command already carried out
                    return first
            self._kept = ""
            self._in_time(loaded, command)
            if command.source == "camera":  # it proposes; only a player's tap acts
                if command.intent == "sync":
                    reply = self.proposals.sync(loaded, command)
                else:
                    reply = self.proposals.propose(loaded, command)
            elif command.source == "bot" and command.action is not None:
                reply = self._bot(loaded, command)
            elif command.intent is None:
                assert command.action is not None
                reply = self._act(loaded, self._as_bot(loaded, command), command.action)
            else:
                reply = INTENTS[command.intent](self, loaded, command)
            if command.request_id and self._kept != command.request_id:
                # An intent that stored nothing (a proposal dropped, faces asked for): its reply
                # is kept on its own. Not keeping it only makes a resend act again.
                with contextlib.suppress(sqlite3.Error, OSError):
                    self._store.remember(loaded.record.id, _request(command, reply))
            return reply
        except Refused as e:
            return Reply(command.request_id, False, command.game, rule=e.rule, message=e.message,
                         stale=isinstance(e, Stale), key=e.key, params=e.params)  # fmt: skip

    def _in_time(self, loaded: Loaded, command: Command) -> None:
        """Refuse a command made on an older board, or come after its sender gave up on it."""
        if command.at is not None and command.at != version(loaded):
            raise Stale(
                "the board changed before this arrived: here it is now", key="board.changed"
            )
        if command.expires is not None and self.clock() > command.expires:
            raise Stale(
                "this came after its phone stopped waiting for it: nothing was done",
                key="board.too_late",
            )

    def _first_reply(self, loaded: Loaded, command: Command) -> Reply | None:
        """The reply a command with this request id got the first time, if it was carried
        out: every intent's is kept (`Store.recall`); an action stored before that was kept is
        found by its row. Only the sender (the same view) reads it: another's could hold what
        this view may not see."""
        game_id = loaded.record.id
        kept = self._store.recall(game_id, command.request_id)
        if kept is not None:
            reader, reply = kept
            if reader != _reader(command):
                raise Refused(
                    f"request {command.request_id} was another sender's: send a new request id"
                )
            return Reply(**reply)
        seq = self._store.find_request(game_id, command.request_id)
        if seq is None:
            return None
        return Reply(command.request_id, True, game_id, seq,
                     message=f"already done as action {seq}")  # fmt: skip

    @contextlib.contextmanager
    def _saving(self, game_id: int | None) -> Iterator[None]:
        """A write to the store. If it fails, nothing was changed: the game is dropped from
        memory (it is rebuilt from what the store holds when next asked for), the log gets one
        line, and the sender a sentence saying why (a full disk in so many words)."""
        try:
            yield
        except Refused:
            raise
        except Exception as e:
            if game_id is not None:
                self._forget(game_id)
            log.error("could not store a change of game %s: %s", game_id, e)
            raise Refused(storage_refusal(e), key="table.storage") from None

    def _act(
        self, loaded: Loaded, command: Command, action: Any, note: str | None = None,
        tell_state: bool = True,
    ) -> Reply:  # fmt: skip
        """Check an action with the engine, then store it with the draws that follow it in one
        transaction, and only then tell everyone. `note`: said of it in the log (`DRAWN`);
        `tell_state`: False when the caller tells the new state itself, after more of its own."""
        game = loaded.game
        why = _not_theirs(KINDS[loaded.record.kind], game, command.seat)
        if why:
            teller = _teller(KINDS[loaded.record.kind], game)
            raise Refused(why, key="dice.not_yours", params={"seat": teller})
        try:
            events = game.apply(action, by=command.seat)  # out of turn: refused by the rules
        except ILLEGAL as e:
            raise Refused(e.message, e.rule, e.key, e.params) from None
        except MALFORMED as e:
            raise Refused(str(e), key="action.unreadable") from None
        stored = KINDS[loaded.record.kind].check(action)
        done = Done(stored, command.source, command.seat, events, command.request_id, note)
        view = engine_view(_reader(command))
        seen = [e.project(view) for e in events]
        # The reply is kept with what it stored only when its sender may resend it (a request
        # id); the store numbers it then.
        request = None
        if command.request_id:
            request = _request(
                command, Reply(command.request_id, True, loaded.record.id, None, seen)
            )
        # The new state each view is told is built while the COMMIT waits for the disk.
        ahead = Job(partial(self._parts, loaded, self._views(loaded))) if tell_state else None
        seqs = self._commit(loaded, [done, *self._draws(loaded)], request, ahead)
        if ahead is not None:
            self._tell_state(loaded, ahead.result())
        return Reply(command.request_id, True, loaded.record.id, seqs[0], seen)

    def _commit(
        self, loaded: Loaded, done: list[Done], request: Request | None = None,
        ahead: Job[Any] | None = None,
    ) -> list[int]:  # fmt: skip
        """The one way an action reaches the log: store `done` (already applied to the game in
        memory) in one transaction, with the `request` that made them, and only then publish
        their events, in order. If storing fails nothing is told, the game is rebuilt from
        what the store holds, and Refused. `ahead`: work on the game in memory that the helper
        may do while the COMMIT waits for the disk; it is done (or dropped) before anything
        else here."""
        if not done:
            return []
        game_id = loaded.record.id
        at = self.clock()
        outcome = loaded.game.result() if loaded.game.over else None
        rows = [(d.action, d.source, d.seat, d.request_id or None, d.note) for d in done]
        with self._meanwhile(ahead) as hand, self._saving(game_id):
            seqs = self._store.append_all(game_id, rows, at, outcome, request, hand)
        self._kept = request[0] if request else ""
        if outcome is not None:
            loaded.record = replace(loaded.record, ended_at=at, outcome=outcome)
        for d, seq in zip(done, seqs, strict=True):
            first = loaded.events
            loaded.push(Row(seq, seq, d.action, d.source, d.seat, at, "ok", d.note), d.events)
            self._publish(loaded, d.events, first)
        return seqs

    @contextlib.contextmanager
    def _meanwhile(self, ahead: Job[Any] | None) -> Iterator[Callable[[], None] | None]:
        """Around a write to the store: what hands `ahead` to the helper just before the
        COMMIT (None without `ahead`). On leaving, the helper's part is over (the job done, or
        dropped if the write failed): from then on this thread alone works on the game."""
        if ahead is None:
            yield None
            return
        try:
            yield partial(self._helper.hand, ahead)
        except BaseException:
            ahead.drop()
            raise
        ahead.result()

    def _views(self, loaded: Loaded) -> list[View]:
        """The views of the game's subscribers, each once."""
        return self._followed(loaded.record.id)[1]

    def _following(self, game_id: int) -> list[Subscriber]:
        return self._followed(game_id)[0]

    def _followed(self, game_id: int) -> tuple[list[Subscriber], list[View]]:
        """The game's subscribers and their views, each once: found again only when the
        subscribers or the current game changed (a command asked for them three times). Read
        them, never change them."""
        key = (game_id, self.current)
        found = self._followers.get(key)
        if found is None:
            following = [
                sub
                for sub in self.subscribers
                if (sub.game if sub.game is not None else self.current) == game_id
            ]
            found = following, list(dict.fromkeys(sub.view for sub in following))
            if len(self._followers) > 16:  # games of long ago, or a current game since gone
                self._followers.clear()
            self._followers[key] = found
        return found

    def _publish(self, loaded: Loaded, events: Sequence[AnyEvent], first: int) -> None:
        """Tell every subscriber of the game its projection of `events`, numbered from `first`:
        projected once per view, and one Event for every view whose projection is the same (most
        events hide nothing), so that a stream encodes each once however many views it goes to."""
        game_id = loaded.record.id
        self.told += 1
        told: dict[View, list[Event]] = {}
        # An event without a secret is one Event for every view, made at once: projecting and
        # comparing it again for each view cost more than the rest of the telling.
        public = [not getattr(e, "secret", None) for e in events]
        made: list[list[Event]] = [  # each event's, one per projection
            [Event(game_id, first + i, e.kind, e.project(REFEREE))] if public[i] else []
            for i, e in enumerate(events)
        ]
        for sub in self._following(game_id):
            if sub.view not in told:
                view = engine_view(sub.view)
                told[sub.view] = [
                    made[i][0] if public[i]
                    else _shared(made[i], game_id, first + i, e.kind, e.project(view))
                    for i, e in enumerate(events)
                ]  # fmt: skip
            for event in told[sub.view]:
                self._tell(sub, event)

    def _tell_state(self, loaded: Loaded, parts: dict[View, dict[str, Any]] | None = None) -> None:
        """After a command: every viewer gets the game as it may see it now, with its choices
        (`parts`: what of it the game alone decides, `_parts`, if built already)."""
        self._broadcast(loaded, "state", parts=parts)

    def _draws(self, loaded: Loaded) -> list[Done]:
        """Make, in memory, the table decisions the companion draws itself (a dealt tile's back,
        a random island); `_commit` stores them."""
        game = loaded.game
        done = []
        while game.is_chance() and self._draws_itself(loaded):
            action = game.draw()
            done.append(Done(list(action), "table", None, game.apply(action), note=DRAWN))
        return done

    def _follow(self, loaded: Loaded) -> None:
        """Store and tell the draws the companion makes itself, in one transaction."""
        self._commit(loaded, self._draws(loaded))

    def _draws_itself(self, loaded: Loaded) -> bool:
        phase = loaded.game.phase
        if phase == "terrain":
            return bool(loaded.record.settings.get("layout") == "random")
        return phase == "back" and loaded.record.mode == "digital"

    def _broadcast(
        self,
        loaded: Loaded,
        kind: str,
        data: Callable[[View], dict[str, Any]] | None = None,
        snapshot: bool = True,
        parts: dict[View, dict[str, Any]] | None = None,
    ) -> None:
        """A table event whose data depends on the viewer: `data`'s, then (`snapshot`) the
        viewer's fresh snapshot (`parts`: as for `_snapshots`). One Event per view,
        however many watch it."""
        game_id = loaded.record.id
        seq = loaded.events
        loaded.events += 1
        self.told += 1
        following, views = self._followed(game_id)
        snapshots = self._snapshots(loaded, views, parts) if snapshot and views else {}
        made: dict[View, Event] = {}
        told_whole = loaded.told_whole
        for view in views:
            if data is None:  # the snapshot alone, as built (not copied again)
                told = snapshots.get(view, {})
            else:
                told = {**data(view), **snapshots.get(view, {})}
            if snapshots:
                made[view] = Event.whole_after(game_id, seq, kind, told, told_whole.get(view))
                told_whole[view] = seq
            else:
                made[view] = Event(game_id, seq, kind, told)
        for sub in following:
            self._tell(sub, made[sub.view])

    # -- intents --------------------------------------------------------------------------

    def _new_game(self, command: Command) -> Reply:
        args = command.args
        if command.request_id:
            started = self._store.find_game_request(command.request_id)
            if started is not None:  # a retry of a start already carried out
                kept = self._store.recall(started, command.request_id)
                if kept is not None:
                    return Reply(**kept[1])
                return Reply(
                    command.request_id, True, started, message=f"game {started} already started"
                )
        kind = args.get("kind", "survive")
        if kind not in KINDS:
            raise Refused(
                f"games of kind {kind!r} cannot be played here yet; kinds: {', '.join(KINDS)}"
            )
        players = args.get("players")
        if not isinstance(players, list) or not all(isinstance(p, dict) for p in players):
            raise Refused('players must be a list like [{"name": "Ana", "colour": "red"}, ...]')
        mode = args.get("mode", "digital")
        layout = args.get("layout", "random")
        seed = args["seed"] if "seed" in args else seeds.new()  # typed: predictable (tests)
        if kind == "survive" and mode not in MODES:
            raise Refused(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if kind == "survive" and layout not in LAYOUTS:
            raise Refused(f"layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise Refused(f"seed must be a whole number ≥ 0, not {seed!r}")
        settings: dict[str, Any] = {"layout": layout}
        try:
            if kind == "flotilla":
                rules_json, mode, settings = flotilla_setup(args, len(players), seed)
            elif "position" in args:  # a game set up from a written position
                start = Game.from_position(str(args["position"]))
                if start.state.players != len(players):
                    raise Refused(f"the position is of a {start.state.players}-player game")
                rules_json, mode, seed = (
                    start.state.rules.to_json(),
                    start.state.mode,
                    start.state.seed,
                )
                settings["position"] = start.position()
            else:
                rules = Rules(tuple(args.get("modules", ("base",))), dict(args.get("options", {})))
                Game.new(rules, len(players), seed, mode)
                rules_json = rules.to_json()
        except (RuleBroken, IllegalAction) as e:
            raise Refused(e.message, e.rule) from None
        except (RulesError, FlotillaError, MalformedAction, TypeError, ValueError) as e:
            raise Refused(str(e), getattr(e, "rule", None)) from None
        if "seed" in args:
            settings = {**settings, "seed": seeds.TYPED}
        seats = [
            {"seat": i, "name": str(p.get("name") or f"Player {i + 1}"), "colour": p.get("colour")}
            for i, p in enumerate(players)
        ]
        for seat, p in zip(seats, players, strict=True):
            level = p.get("bot")
            if level is None:
                continue
            if kind != "survive" or level not in bots.LEVELS:
                raise Refused(
                    f"a bot seat plays Survive at level {', '.join(bots.LEVELS)}, not {level!r}"
                )
            seat["bot"] = level
        if args.get("hints") is not None:
            if not isinstance(args["hints"], bool) or kind != "survive":
                raise Refused(f"hints is true or false in a Survive game, not {args['hints']!r}")
            settings = {**settings, "hints": args["hints"]}
        with self._saving(None):
            game_id = self._store.create_game(
                kind, rules_json, seats, seed, mode, settings, self.clock(),
                command.request_id or None,
            )  # fmt: skip
        self.current = game_id
        self._store.checkpoint()  # the last game's log, now that players set up the next
        for ended in [g for g, held in self._loaded.items() if held.record.ended_at is not None]:
            self._forget(ended)  # memory holds the games in play; an ended one is read again
        loaded = Loaded.load(self._store.game(game_id), [])
        self._loaded[game_id] = loaded
        self._broadcast(loaded, "new_game")
        message = f"game {game_id} started"
        try:
            self._follow(loaded)
        except Refused:
            message += "; the island could not be dealt yet: send draw to go on"
        if loaded.log:  # the island was dealt: everyone sees it laid
            self._tell_state(loaded)
        reply = Reply(command.request_id, True, game_id, message=message)
        if command.request_id:
            with contextlib.suppress(sqlite3.Error, OSError):  # the game's own request id stays
                self._store.remember(game_id, _request(command, reply))
        return reply

    def _roll(self, loaded: Loaded, command: Command) -> Reply:
        if loaded.record.kind == "flotilla":
            return self._flotilla_roll(loaded, command)
        if loaded.game.phase != "roll":
            raise Refused(
                "the creature die is rolled in step 4, after a tile is removed",
                "B-10",
                "roll.not_now",
            )
        return self._act(loaded, command, loaded.game.draw(), DRAWN)

    def _draw(self, loaded: Loaded, command: Command) -> Reply:
        if loaded.record.kind == "flotilla":
            return self._flotilla_roll(loaded, command)
        if not loaded.game.is_chance():
            raise Refused(
                "nothing is waiting for the table to decide", key="table.nothing_to_decide"
            )
        return self._act(loaded, command, loaded.game.draw(), DRAWN)

    def _flotilla_roll(self, loaded: Loaded, command: Command) -> Reply:
        """ROLL in a Flotilla game: a digital roll when the table chose one at setup; else the
        roller's phone is asked for the faces of the real dice (the companion never guesses)."""
        game = loaded.game
        assert isinstance(game, FlotillaGame)
        if not game.is_chance():
            raise Refused(
                "no dice are awaited: start a dive (F-1) or a research (F-2) first",
                key="flotilla.no_dice",
            )
        if loaded.record.settings.get("roll") == "digital":
            return self._act(loaded, command, game.draw(), DRAWN)
        seat = game.state.turn
        roll = game.phase if game.state.step is None else game.state.step["kind"]
        self._broadcast(loaded, "enter_faces", lambda view: {"seat": seat, "roll": roll}, False)
        return Reply(command.request_id, True, loaded.record.id,
                     message=f"seat {seat + 1}'s phone asks for the faces of the {roll} roll: "
                     "enter what the dice show")  # fmt: skip

    def _next(self, loaded: Loaded, command: Command) -> Reply:
        move = self._bot_move(loaded)
        if move is not None:  # the move is on the board now: a person says so
            self.bot_moves.pop(loaded.record.id, None)
            return self._act(loaded, replace(command, seat=move.seat), list(move.action))
        if ("done",) not in loaded.game.legal_actions():
            raise Refused(
                "there is nothing to skip now: this step needs a choice", key="next.needs_choice"
            )
        return self._act(loaded, command, ["done"])

    def _undoable(self, loaded: Loaded) -> Row | None:
        """The last action in force, if it is the current player's own move of this turn."""
        if len(loaded.log) <= loaded.turn_start:
            return None
        row = loaded.log[-1]
        facts = KINDS[loaded.record.kind].facts
        if row.action[0] in facts or row.source == "table" or loaded.game.over:
            return None
        if row.seat is not None and row.seat != loaded.game.state.turn:
            return None
        return row

    def _undo(self, loaded: Loaded, command: Command) -> Reply:
        row = self._undoable(loaded)
        if row is None:
            raise Refused(
                "only the current player's own moves of this turn can be undone; a die or a "
                "tile's back is a fact of the table: correct it instead",
                key="undo.nothing",
            )
        if command.seat is not None and command.seat != loaded.game.state.turn:
            raise Refused(
                f"only seat {loaded.game.state.turn + 1} may undo their own move",
                key="undo.not_yours",
                params={"seat": loaded.game.state.turn},
            )
        kind = KINDS[loaded.record.kind]
        notation = kind.shown(loaded.game, row.action, _reader(command))
        reply = Reply(
            command.request_id, True, loaded.record.id, row.seq, message=f"undone: {notation}"
        )
        game_id = loaded.record.id
        try:  # in memory first: each view's state is built while the undo's COMMIT syncs
            loaded.take_back()
        except Exception:  # memory is no longer the log: rebuild it from the store
            self._reload(game_id)
            raise
        ahead = Job(partial(self._parts, loaded, self._views(loaded)))
        with self._meanwhile(ahead) as hand, self._saving(game_id):
            self._store.mark(game_id, [row.seq], "undone", f"undone by {command.source}",
                             _request(command, reply), hand)  # fmt: skip
        self._kept = command.request_id
        self._broadcast(
            loaded,
            "undone",
            # `played`: the action as data, for a page to word in its language.
            lambda view: {
                "action": kind.shown(loaded.game, row.action, view),
                "played": kind.told(loaded.game, row.action, view),
            },
            parts=ahead.result(),
        )  # fmt: skip
        return reply

    def _correct(self, loaded: Loaded, command: Command) -> Reply:
        seq, action = command.args.get("seq"), command.args.get("action")
        index = next((i for i, r in enumerate(loaded.log) if r.seq == seq), None)
        if index is None:
            raise Refused(f"there is no action {seq} in force in this game", key="correct.gone")
        old = loaded.log[index]
        kind = KINDS[loaded.record.kind]
        if old.action[0] not in kind.facts:
            raise Refused(
                f"action {seq} ({kind.notation(old.action)}) is a player's move, not a "
                "fact of the table: undo it instead"
            )
        try:
            new = kind.check(action)
        except MALFORMED as e:
            raise Refused(str(e)) from None
        if new[0] != old.action[0]:
            raise Refused(
                f"a {old.action[0]} can only be corrected by another {old.action[0]}",
                key="correct.same_verb",
                params={"verb": old.action[0]},
            )
        game = game_of(loaded.record)
        for row in loaded.log[:index]:
            game.apply(row.action)
        _may_correct(command, old, game.state.turn)
        try:
            game.apply(new)
        except ILLEGAL as e:
            # The rule's own key, when it has one; else the rule alone says why.
            raise Refused(
                f"the correction is not possible there: {e.message}", e.rule, e.key, e.params
            ) from None
        dropped: list[Row] = []
        for row in loaded.log[index + 1 :]:
            # A later move stands only where its own seat still makes it: after the correction
            # the turn may have passed to someone else.
            if _not_theirs(kind, game, row.seat):
                dropped.append(row)
                continue
            try:
                game.apply(row.action, by=row.seat)
            except ILLEGAL:
                dropped.append(row)
        by = (
            command.source
            if command.seat is None
            else f"seat {command.seat + 1} ({command.source})"
        )
        reader = _reader(command)
        reply = Reply(
            command.request_id, True, loaded.record.id,
            message=f"{kind.shown(game, old.action, reader)} corrected to "
            f"{kind.shown(game, new, reader)}; {len(dropped)} action(s) dropped",
        )  # fmt: skip
        game_id = loaded.record.id
        with self._saving(game_id):  # the correction and the game's end, in one transaction
            new_seq = self._store.correct(
                game_id, old.seq, new, command.source, command.seat, self.clock(), by,
                [r.seq for r in dropped], game.result() if game.over else None,
                _request(command, reply),
            )  # fmt: skip
        self._kept = command.request_id
        self._reload(game_id)
        loaded = self._loaded[game_id]

        def change(view: View) -> dict[str, Any]:
            game = loaded.game
            return {
                "seq": old.seq,
                "was": kind.shown(game, old.action, view),
                "now": kind.shown(game, new, view),
                "was_played": kind.told(game, old.action, view),
                "now_played": kind.told(game, new, view),
                "by": by,
                "dropped": [
                    {"seq": r.seq, "action": kind.shown(game, r.action, view)} for r in dropped
                ],
            }

        self._broadcast(loaded, "corrected", change)
        self._follow(loaded)
        return replace(reply, seq=new_seq)

    def _forget(self, game_id: int) -> None:
        """Drop a game from memory; it is rebuilt from the store when next asked for."""
        loaded = self._loaded.pop(game_id, None)
        if loaded is not None:
            self._told[game_id] = max(self._told.get(game_id, 0), loaded.events)

    def _reload(self, game_id: int) -> None:
        """Rebuild a game from the store (after an undo or a correction)."""
        self._forget(game_id)
        self._fetch(game_id)

    # -- bot seats -------------------------------------------------------------------------

    def bot_turn(self) -> tuple[int, int, str, Any] | None:
        """When a bot seat of the current game is to decide and has not yet: (game, seat,
        level, what that seat knows). The bot decides on that alone, outside this thread.
        What it knows is None when all it has to do is roll its own die (a digital game)."""

        def job() -> tuple[int, int, str, Any] | None:
            if self.current is None:
                return None
            loaded = self._fetch(self.current)
            game = loaded.game
            if not isinstance(game, Game) or game.over:
                return None
            turn = game.state.turn
            if game.phase == "roll" and loaded.record.mode == "digital" and game.is_chance():
                level = _seat(loaded, turn).get("bot")  # its own die: no one else rolls it
                return None if level is None else (loaded.record.id, turn, level, None)
            if game.actor is None:
                return None
            level = _seat(loaded, game.actor).get("bot")
            if level is None or self._bot_move(loaded) is not None:
                return None
            if game.phase == "reveal" and loaded.record.mode == "physical":
                return None  # the value under a saved piece is read off it by a person
            return loaded.record.id, game.actor, level, bots.knowledge(game.state, game.actor)

        result: tuple[int, int, str, Any] | None = self.read(job)
        return result

    def hint(self, game_id: int, seat: int, timeout: float = 30.0) -> State:
        """What `seat` knows now, for the bot to suggest its move ("suggest", off unless the
        game was set up with hints): its seat's knowledge only, as a bot seat's. Refused when
        hints are off, or when the seat is not the one to decide."""

        def job() -> State:
            loaded = self._fetch(game_id)
            game = loaded.game
            if not loaded.record.settings.get("hints"):
                raise Refused("this game was set up without hints", key="suggest.off")
            if not isinstance(game, Game) or game.over or game.actor != seat:
                raise Refused("a hint is for the seat that decides now", key="suggest.not_now")
            if _seat(loaded, seat).get("bot") is not None:
                raise Refused("a bot seat decides for itself", key="suggest.bot")
            known: State = bots.knowledge(game.state, seat)
            return known

        result: State = self.read(job, timeout)
        return result

    def _as_bot(self, loaded: Loaded, command: Command) -> Command:
        """A person's phone telling the value under a bot seat's saved person (physical): sent
        as that seat's, which the rules ask it of. Anything else stays the sender's own."""
        game = loaded.game
        if command.source == "phone" and command.seat is not None and isinstance(game, Game):
            bot = self._told_for_bot(loaded).get("for_bot")
            if bot is not None and game.phase == "reveal" and game.actor == bot:
                return replace(command, seat=bot)
        return command

    def _bot(self, loaded: Loaded, command: Command) -> Reply:
        """A bot seat's decision, told to every phone as data (`bots.said`) with the hexes it
        touches: done at once in a digital game; at a physical table it waits, shown, until a
        person has made it on the board and says so (NEXT, or a tap)."""
        seat = command.seat
        if seat is None or _seat(loaded, seat).get("bot") is None:
            raise Refused("only a bot seat's decisions come from the bot")
        game = loaded.game
        assert isinstance(game, Game) and command.action is not None
        try:
            action = actions.check(command.action)
        except MALFORMED as e:
            raise Refused(str(e), key="action.unreadable") from None
        if game.actor != seat or action not in game.legal_actions():
            raise Refused(
                f"seat {seat + 1} may not do that now: the game moved on",
                key="game.moved_on",
                params={"seat": seat},
            )
        name = _seat(loaded, seat).get("colour") or _seat(loaded, seat)["name"]
        key, params = bots.said(game.state, seat, action)
        touched = bots.hexes(game.state, action)
        english = bots.sentence(game.state, str(name).capitalize(), action)
        waiting = loaded.record.mode != "digital"
        reply = Reply(command.request_id, True, loaded.record.id, message=english)
        if not waiting:  # the state is told once, below, with the move in it
            reply = self._act(loaded, command, command.action, tell_state=False)
        move = BotMove(seat, action, english, key, params, touched, waiting, last(loaded))
        self.bot_moves[loaded.record.id] = move
        self._broadcast(loaded, "bot", lambda _view: self._bot_json(loaded) or {}, False)
        self._tell_state(loaded)
        return reply

    def _bot_move(self, loaded: Loaded, waiting: bool = True) -> BotMove | None:
        """The bot decision waiting to be made on the board (`waiting`), or else the last one
        made (a digital game's, shown until the next action); one made before the last action
        in force is stale (an undo, a correction, or the game went on)."""
        move = self.bot_moves.get(loaded.record.id)
        if move is None or move.at != last(loaded) or (waiting and not move.waiting):
            return None
        return move

    def _bot_json(self, loaded: Loaded) -> dict[str, Any] | None:
        """What every phone reads of it: the decision as data, its English sentence, the hexes
        it touches. Never the action itself (a placed person's value is in it) nor the bot's
        reasons (its expected points weigh values only its seat may know)."""
        move = self._bot_move(loaded, waiting=False)
        if move is None:
            return None
        return {"seat": move.seat, "key": move.key, "params": move.params,
                "sentence": move.sentence, "hexes": move.hexes,
                "waiting": move.waiting}  # fmt: skip


def version(loaded: Loaded) -> int:
    """What the game is now, as a number: the last action in force (an undo gives back the
    number of the board it returns to, and a new action always a new one)."""
    return loaded.log[-1].seq if loaded.log else 0


def _shared(made: list[Event], game: int, seq: int, kind: str, data: dict[str, Any]) -> Event:
    """The Event of `made` with this data, else a new one (added to `made`)."""
    for event in made:
        if event.data == data:
            return event
    made.append(Event(game, seq, kind, data))
    return made[-1]


def _not_theirs(kind: Kind, game: AnyGame, seat: int | None) -> str:
    """Why `seat` may not tell the table's dice now ("" when it may, or for no seat); a seat
    acting out of turn the game itself refuses, naming the rule."""
    if seat is None:
        return ""
    teller = kind.teller(game) if game.is_chance() else None
    if teller is not None and seat != teller:
        return f"seat {teller + 1}'s phone tells what their dice show"
    return ""


def _teller(kind: Kind, game: AnyGame) -> int | None:
    """The only seat that may tell the table's dice now, if one is."""
    return kind.teller(game) if game.is_chance() else None


@dataclass(frozen=True)
class BotMove:
    """A bot's decision: at a physical table waiting for a person to carry it out."""

    seat: int
    action: tuple[Any, ...]
    sentence: str
    key: str
    params: dict[str, Any]
    hexes: list[str]
    waiting: bool
    """True until a person has made it on the real board; False for a digital game's, done."""
    at: int
    """The last action in force when the bot decided (after it, for one done at once)."""


def _seat(loaded: Loaded, seat: int) -> dict[str, Any]:
    seats = loaded.record.players
    return seats[seat] if 0 <= seat < len(seats) else {}


STORAGE_EVERY = 30.0
"""Seconds between two looks at the free space of the game log's disk."""
LOW_BYTES = 64 * 1024 * 1024
"""Below this much free space the status bar and `companion doctor` warn: hours of play still
fit (an action is a few hundred bytes), but a full disk is near."""


def storage_status(path: Path) -> str:
    """``ok``, ``low: N MB left`` or ``full``, for the disk that holds `path`."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError as e:
        return f"error: {e.strerror}"
    if free < 1024 * 1024:
        return "full"
    if free < LOW_BYTES:
        return f"low: {free // (1024 * 1024)} MB left"
    return "ok"


DRAWN = "drawn by the companion"
"""The note of a fact the companion drew (not told from the real table)."""
FULL = (
    "the Pi's storage is full: nothing was changed. Free some space on it (`companion doctor` "
    "says how much is left), then try again"
)


def _may_correct(command: Command, fact: Row, turn: int) -> None:
    """Refused unless `command` may correct `fact`, stored when it was seat `turn`'s turn. The
    table itself (the referee) may correct any fact. A fact the companion drew is no phone's to
    change; one told from the real table only the seat that told it or the seat whose turn it
    was may correct."""
    if _reader(command) == REFEREE:
        return
    what = f"action {fact.seq} ({fact.action[0]})"
    if fact.note == DRAWN or fact.source == "table":
        raise Refused(
            f"{what} was drawn by the companion: no phone may change it", key="correct.drawn"
        )
    allowed = sorted({s for s in (fact.seat, turn) if s is not None})
    if command.seat not in allowed:
        seats = " or ".join(f"seat {s + 1}" for s in allowed)
        raise Refused(
            f"{what} may be corrected only by {seats} (who told it, or whose turn it was) or "
            "by the table itself",
            key="correct.not_yours",
            params={"seats": allowed},
        )


def storage_refusal(error: Exception) -> str:
    """What to tell a sender whose command could not be stored."""
    full = (
        isinstance(error, sqlite3.Error)
        and getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL
    ) or (isinstance(error, OSError) and error.errno == errno.ENOSPC)
    if full:
        return FULL
    return f"the game log could not be written ({error}): nothing was changed; try again"


def _request(command: Command, reply: Reply) -> Request:
    """What the store keeps of a request: its id, the view its reply was written for, the reply."""
    return command.request_id, _reader(command), reply.to_json()


def _reader(command: Command) -> View:
    """Whom the reply is for: the view the command names, else its seat's, else the referee's
    (a command without a seat from the table itself)."""
    if command.view is not None:
        return command.view
    return REFEREE if command.seat is None else command.seat


CAMERA = "camera"
"""The view of the camera (`Table.snapshot`): the island it should see, nothing hidden."""

CAMERA_INTENTS = ("sync", "status")
"""What the camera may say besides proposing: the board and the game disagree (``sync``, with
``args.disagree``), and how the camera is (``status``, with ``args.status``)."""


INTENTS: dict[str, Callable[[Table, Loaded, Command], Reply]] = {
    "roll": Table._roll,
    "draw": Table._draw,
    "next": Table._next,
    "undo": Table._undo,
    "correct": Table._correct,
    "confirm_proposal": lambda table, loaded, command: table.proposals.confirm(loaded, command),
    "reject_proposal": lambda table, loaded, command: table.proposals.reject(loaded, command),
}
