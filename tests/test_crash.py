"""The crash test: a real `companion serve`, killed with SIGKILL at random moments, loses nothing
it acknowledged (architecture.md, "The one rule of the house").

A driver plays seeded games through the JSON API only, as fast as it can: a mirror of each game
(the engine, fed what the daemon stored) says what is legal, and every command carries a request_id
of its own. A killer thread sends SIGKILL to the daemon after a seeded random delay — one kill in
five waits for a moment between two commands, the others land wherever they fall, mostly in the
middle of one; a broken connection means "not acknowledged".
After every kill:

(a) ``PRAGMA integrity_check`` on the database file says ok (read-only, the daemon down);
(b) the log in force is every acknowledged action, in order, with its acknowledged seq, then at
    most the start of what the command in flight would have stored (stored, then killed before
    its reply) — nothing else;
(c) the restarted daemon serves, for every game, the referee view of replaying the stored log
    from scratch, which is also the replay of the acknowledged actions plus that stored suffix;
(d) the command in flight is sent again with the same request_id: accepted, and done once — as
    the stored action when it was stored, else now — and the driver plays on from the log the
    daemon serves.

``CRASH_KILLS`` sets the kills of the default run (4); the slow test (``make check-long``) makes
``CRASH_KILLS_LONG`` kills, at least 50. ``CRASH_SEED`` picks the seeds.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from companion.engine import REFEREE, Action, Game, Rules, notation, replay
from companion.store import Store
from companion.table import Table
from companion.web import create_app
from tests.daemon_support import COMPANION, environment, free_port, wait_http_200, write_config

KILLS = int(os.environ.get("CRASH_KILLS", "4"))
LONG_KILLS = max(50, int(os.environ.get("CRASH_KILLS_LONG", "50")))
SEED = int(os.environ.get("CRASH_SEED", "1"))
KILL_AFTER = (0.005, 0.300)
"""Seconds from the (re)start of play to the SIGKILL, drawn uniformly."""
BETWEEN = 0.2
"""The share of kills aimed between two commands (the driver stops before its next request and the
kill comes then): the driver sends as fast as it can, so a kill left to chance nearly always lands
in the middle of a command."""
SELF_DRAWN = ("terrain", "back")
"""Table decisions the companion draws itself in a digital game with a random island
(`Table._draws_itself`); the die is rolled when a seat asks (intent ``roll``)."""

JsonAction = list[Any]
Logged = tuple[int, JsonAction]
"""One action of a game's log in force: its seq and the action as stored (JSON)."""


class Lost(Exception):
    """The connection broke before a whole reply came: the command was not acknowledged."""


Api = Callable[[str, str, "dict[str, Any] | None"], "tuple[int, Any]"]
"""(method, path, JSON body or None) -> (HTTP status, JSON answer); Lost if no whole answer."""


class Http:
    """A keep-alive HTTP/1.1 client of one daemon: the driver's only way in."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)

    def __call__(self, method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        headers = {} if body is None else {"Content-Type": "application/json"}
        data = None if body is None else json.dumps(body)
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
            return response.status, json.loads(response.read())
        except (OSError, http.client.HTTPException) as e:
            self.conn.close()
            raise Lost(f"{method} {path}: {e!r}") from None

    def close(self) -> None:
        self.conn.close()


SELF_KILL = """
import os, signal, sys
from companion import cli, store

prefix = sys.argv.pop(1).split()
opened = store.Store._open

def _open(self):
    db = opened(self)
    def trace(sql):
        if sql.split()[: len(prefix)] == prefix:
            os.kill(os.getpid(), signal.SIGKILL)
    db.set_trace_callback(trace)
    return db

store.Store._open = _open
sys.exit(cli.main())
"""
"""`companion serve` that kills itself just before its store runs a statement starting with the
words of its first argument: a SIGKILL at a chosen moment rather than a random one."""


class Served:
    """`companion serve` on one store, started again on a fresh port after each kill."""

    def __init__(self, folder: Path, kill_before: str | None = None) -> None:
        self.folder = folder
        self.db = folder / "games.db"
        self.proc: subprocess.Popen[str] | None = None
        self.starts = 0
        self.kill_before = kill_before
        """SQL the daemon kills itself (SIGKILL) just before running, if set: see SELF_KILL."""

    def log_path(self, start: int) -> Path:
        return self.folder / f"serve-{start}.log"

    def start(self) -> Http:
        port = free_port()
        config = write_config(self.folder, port)
        self.starts += 1
        with self.log_path(self.starts).open("w") as out:
            program = [str(COMPANION)]
            if self.kill_before is not None:
                program = [sys.executable, "-c", SELF_KILL, self.kill_before]
            self.proc = subprocess.Popen(
                [*program, "serve", "--config", str(config)],
                env=environment(self.folder),
                stdout=out,
                stderr=subprocess.STDOUT,
                text=True,
            )
        try:
            wait_http_200(f"http://127.0.0.1:{port}", ("/api/health",), timeout=20)
        except AssertionError as e:
            raise AssertionError(f"{e}\n{self.output()}") from None
        said = self.output()
        assert "could not be read" not in said, said  # the store moved the file aside: lost
        return Http(port)

    def output(self, start: int | None = None) -> str:
        return self.log_path(start or self.starts).read_text(encoding="utf-8", errors="replace")

    def stop(self) -> int:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=15)

    def reap(self) -> None:
        """Kill whatever is left at the end of a test, failed or not."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=15)


# -- what is on disk ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameRow:
    rules: dict[str, Any]
    players: int
    seed: int
    mode: str
    over: bool


@dataclass
class Image:
    """What the database file holds, read with the daemon down (or beside it, read-only)."""

    integrity: str
    games: dict[int, GameRow] = field(default_factory=dict)
    logs: dict[int, list[Logged]] = field(default_factory=dict)
    """Each game's log in force, in log order."""
    not_in_force: int = 0
    """Rows undone, corrected or superseded: the driver never asks for any."""
    requests: Counter[tuple[int, str]] = field(default_factory=Counter)
    """How many times each (game, request_id) is stored: a row holding it (as stored before
    replies were kept) or a kept reply naming a row. A command done twice would have two."""


def read_store(path: Path) -> Image:
    """The file read with a read-only connection, closed again before returning, so that it holds
    no lock the daemon needs. A file SQLite cannot read gives an Image whose `integrity` says so."""
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, isolation_level=None)
    try:
        rows = db.execute("PRAGMA integrity_check").fetchall()
        image = Image("; ".join(str(r[0]) for r in rows))
        for id_, rules, players, seed, mode, ended in db.execute(
            "SELECT id, rules, players, seed, mode, ended_at FROM games ORDER BY id"
        ):
            image.games[id_] = GameRow(
                json.loads(rules), len(json.loads(players)), seed, mode, ended is not None
            )
            image.logs[id_] = []
        for game_id, seq, action, status, request_id in db.execute(
            "SELECT game_id, seq, action, status, request_id FROM actions "
            "ORDER BY game_id, ord, seq"
        ):
            if status == "ok":
                image.logs[game_id].append((seq, json.loads(action)))
            else:
                image.not_in_force += 1
            if request_id is not None:
                image.requests[game_id, request_id] += 1
        for game_id, request_id, reply in db.execute(
            "SELECT game_id, request_id, reply FROM requests"
        ):
            if json.loads(reply).get("seq") is not None:
                image.requests[game_id, request_id] += 1
        return image
    except sqlite3.DatabaseError as e:
        return Image(f"unreadable: {e}")
    finally:
        db.close()


def log_problems(
    acked: Sequence[Logged], in_flight: Sequence[JsonAction], stored: Sequence[Logged]
) -> tuple[list[str], int]:
    """How a stored log in force breaks the rule, and how many actions of the command in flight
    it holds.

    The rule: the log in force is every acknowledged action, in the acknowledged order with the
    acknowledged seq, then at most the start of `in_flight` (what the command whose reply was lost
    would store: its action, then the table's draws that follow it), numbered on — nothing else.
    """
    problems = []
    for i, (seq, action) in enumerate(acked):
        if i >= len(stored):
            problems.append(
                f"acknowledged action {seq} {action} is lost: the log in force ends after "
                f"{len(stored)} action(s), {len(acked)} were acknowledged"
            )
            break
        if tuple(stored[i]) != (seq, action):
            problems.append(
                f"place {i + 1} of the log: acknowledged as action {seq} {action}, "
                f"stored as action {stored[i][0]} {stored[i][1]}"
            )
    extra = list(stored[len(acked) :])
    start = acked[-1][0] + 1 if acked else 1
    expected = [(start + i, list(a)) for i, a in enumerate(in_flight)][: len(extra)]
    if [tuple(x) for x in extra] != [tuple(x) for x in expected]:
        problems.append(
            f"the log in force holds {extra} after the acknowledged actions; only the start of "
            f"the command in flight, {expected or 'nothing'}, may be there"
        )
    return problems, len(extra)


# -- the driver -----------------------------------------------------------------------------------


def advance(game: Game, action: Action) -> list[JsonAction]:
    """Apply `action` and then the table's own draws that follow it, as `Table._follow` does;
    every action the command stores, in order."""
    done = [list(action)]
    game.apply(action)
    while game.is_chance() and game.phase in SELF_DRAWN:
        draw = game.draw()
        game.apply(draw)
        done.append(list(draw))
    return done


@dataclass
class Sent:
    """A command whose reply has not come: what it would store, in order."""

    game: int | None
    """None: a new game (POST /api/games, no request_id)."""
    request_id: str
    body: dict[str, Any]
    actions: list[JsonAction]


@dataclass
class Kill:
    at_request: bool
    """Was a request out (sent or being sent, no whole reply yet) when the SIGKILL went?"""


class Driver:
    """Plays seeded games through an Api as fast as it can, keeping what it was told."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.acked: dict[int, list[Logged]] = {}
        """Each game's acknowledged actions, in log order (a command's reply acknowledges the
        table's draws that were stored after its action too: they are stored before it)."""
        self.current: int | None = None
        self.mirror: Game | None = None
        self.pending: Sent | None = None
        self.counter = 0
        self.commands = 0
        self.lock = threading.Lock()
        self.in_request = False
        self.killed = threading.Event()
        self.kill: Kill | None = None
        self.hold = threading.Event()
        """The killer asks the driver to stop before its next request ..."""
        self.held = threading.Event()
        """... and the driver says it has: the kill lands between two commands."""
        self.draws_left = 0
        """Restarts that found a table draw left undone (its command stored, the draw not): the
        daemon waits for a ``draw`` intent then, which the driver sends."""
        self.may_die = False
        """Set when the daemon may kill itself (SELF_KILL): a broken connection is no surprise."""

    # -- sending --------------------------------------------------------------------------

    def request(self, api: Api, method: str, path: str, body: dict[str, Any] | None) -> Any:
        if self.hold.is_set():
            self.held.set()
            self.killed.wait(timeout=10)
        with self.lock:
            if self.killed.is_set():
                raise Lost("the daemon was killed")
            self.in_request = True
        try:
            return api(method, path, body)
        except Lost:
            with self.lock:  # the killer holds the lock from SIGKILL to `killed` being set
                assert self.killed.is_set() or self.may_die, (
                    "the connection broke, but nobody killed the daemon"
                )
            raise
        finally:
            with self.lock:
                self.in_request = False

    def sigkill(self, pid: int, between: bool = False) -> None:
        """The killer's blow: SIGKILL, noting whether a request was out at that moment. `between`:
        first wait (a few seconds at most) for the driver to stop before its next request."""
        if between:
            self.hold.set()
            self.held.wait(timeout=5)
        with self.lock:
            self.kill = Kill(self.in_request)
            os.kill(pid, signal.SIGKILL)
            self.killed.set()

    def revive(self) -> None:
        """Ready for the next daemon: no kill yet."""
        for event in (self.killed, self.hold, self.held):
            event.clear()

    def next_id(self) -> str:
        self.counter += 1
        return f"crash-{self.counter}"

    # -- playing --------------------------------------------------------------------------

    def play(self, api: Api, limit: int | None = None) -> None:
        """Send commands until the daemon is killed (Lost), or `limit` commands were answered."""
        while limit is None or self.commands < limit:
            if self.mirror is None or self.mirror.over:
                self.new_game(api)
            else:
                self.command(api)
            self.commands += 1

    def new_game(self, api: Api) -> None:
        players = self.rng.choice((2, 3, 4))
        seed = self.rng.randrange(2**31)
        body = {
            "players": [{"name": f"P{i + 1}"} for i in range(players)],
            "seed": seed,
            "modules": ["base"],
            "mode": "digital",
            "layout": "random",
        }
        game = Game.new(Rules(("base",), {}), players, seed, "digital")
        deal: list[JsonAction] = []
        while game.is_chance() and game.phase in SELF_DRAWN:
            draw = game.draw()
            game.apply(draw)
            deal.append(list(draw))
        self.current, self.mirror = None, game
        self.pending = Sent(None, "", body, deal)
        status, answer = self.request(api, "POST", "/api/games", body)
        assert status == 201, (status, answer)
        game_id = answer["game"]
        assert game_id not in self.acked
        self.acked[game_id] = [(i + 1, a) for i, a in enumerate(deal)]
        self.current, self.pending = game_id, None

    def command(self, api: Api) -> None:
        game = self.mirror
        assert game is not None and self.current is not None
        request_id = self.next_id()
        body: dict[str, Any] = {"request_id": request_id}
        if game.is_chance():  # the die, or a draw the table left undone when it was killed
            action = game.draw()
            body.update(seat=None, intent="roll" if game.phase == "roll" else "draw")
        else:
            action = self.rng.choice(game.legal_actions())
            assert game.actor is not None
            text = self.rng.random() < 0.5
            body.update(seat=game.actor + 1, action=notation(action) if text else list(action))
        self.pending = Sent(self.current, request_id, body, advance(game, action))
        status, reply = self.request(api, "POST", f"/api/games/{self.current}/commands", body)
        self.acknowledged(status, reply)

    def acknowledged(self, status: int, reply: dict[str, Any]) -> None:
        sent = self.pending
        assert sent is not None and sent.game is not None
        assert status == 200 and reply["accepted"], (sent, status, reply)
        assert reply["request_id"] == sent.request_id, (sent, reply)
        acked = self.acked[sent.game]
        assert reply["seq"] == len(acked) + 1, (sent, reply, len(acked))
        acked += [(reply["seq"] + i, a) for i, a in enumerate(sent.actions)]
        self.pending = None

    # -- after a restart ------------------------------------------------------------------

    def served_log(self, api: Api, game_id: int) -> list[Logged]:
        status, answer = self.request(api, "GET", f"/api/games/{game_id}/actions", None)
        assert status == 200, (status, answer)
        return [(r["seq"], r["action"]) for r in answer["actions"] if r["status"] == "ok"]

    def resend(
        self, api: Api, db: Path, sent: Sent, logs: dict[int, list[Logged]], stored: int
    ) -> None:
        """The command in flight again, same request_id: done once, whether stored or not."""
        game_id = sent.game
        assert game_id is not None
        acked = self.acked[game_id]
        status, reply = self.request(api, "POST", f"/api/games/{game_id}/commands", sent.body)
        assert status == 200 and reply["accepted"], (sent, status, reply)
        assert reply["request_id"] == sent.request_id
        assert reply["seq"] == len(acked) + 1, (reply, len(acked))
        if stored:  # stored before the kill: the retry gets its reply, and is not done again
            # the rest of it, and the draws the table made on reload that the kill left undone
            served = self.served_log(api, game_id)
            assert served[: len(logs[game_id])] == logs[game_id]
            acked += served[len(acked) :]
        else:
            acked += [(reply["seq"] + i, a) for i, a in enumerate(sent.actions)]
        assert self.served_log(api, game_id) == acked, "the retry was not done exactly once"
        assert read_store(db).requests[game_id, sent.request_id] == 1

    def resume(self, api: Api, db: Path, image: Image, stored_in_flight: int) -> None:
        """(d): send the command in flight again, then play on from the log the daemon serves."""
        sent, self.pending = self.pending, None
        if sent is not None and sent.game is None:  # a new game whose answer was lost
            unknown = [g for g in image.games if g not in self.acked]
            assert len(unknown) <= 1, unknown
            if unknown:  # it was created: adopt it, with the deal stored so far (and the
                # rest of the deal, which the table made when it reloaded the game)
                served = self.served_log(api, unknown[0])
                assert served[: len(image.logs[unknown[0]])] == image.logs[unknown[0]]
                self.acked[unknown[0]] = served
                self.current = unknown[0]
            else:
                self.current = None
        elif sent is not None:
            self.resend(api, db, sent, image.logs, stored_in_flight)
        if self.current is None:
            self.mirror = None
            return
        log = self.served_log(api, self.current)
        assert log == self.acked[self.current]
        row = image.games[self.current]
        self.mirror = replay(
            Rules.from_json(row.rules), row.players, row.seed, row.mode, [a for _, a in log]
        )
        if self.mirror.is_chance() and self.mirror.phase in SELF_DRAWN:
            self.draws_left += 1


# -- the run --------------------------------------------------------------------------------------


def replayed(row: GameRow, actions: Sequence[JsonAction]) -> Game:
    return replay(Rules.from_json(row.rules), row.players, row.seed, row.mode, list(actions))


def referee_view(game: Game) -> dict[str, Any]:
    """The referee's view of a game, as JSON carries it."""
    view: dict[str, Any] = json.loads(json.dumps(game.view(REFEREE)))
    return view


def check_file(image: Image, driver: Driver) -> int:
    """(a) and (b), on the file as the kill left it; how many actions of the command in flight
    it holds."""
    assert image.integrity == "ok", image.integrity
    assert image.not_in_force == 0, "rows undone or superseded, though nobody asked for that"
    assert set(driver.acked) <= set(image.games), "a game acknowledged as created is lost"
    sent = driver.pending
    stored = 0
    for game_id in image.games:
        if game_id in driver.acked:
            acked = driver.acked[game_id]
            in_flight = sent.actions if sent is not None and sent.game == game_id else []
        else:  # only the new game whose answer was lost may be unknown to the driver
            assert sent is not None and sent.game is None, f"game {game_id} came from nowhere"
            acked, in_flight = [], sent.actions
        problems, n = log_problems(acked, in_flight, image.logs[game_id])
        assert not problems, f"game {game_id}:\n" + "\n".join(problems)
        stored += n
    return stored


def check_served(api: Api, image: Image, driver: Driver) -> None:
    """(c): the restarted daemon serves the replay of the stored log, which is the replay of what
    was acknowledged and the stored start of the command in flight."""
    for game_id, row in image.games.items():
        status, snapshot = driver.request(api, "GET", f"/api/games/{game_id}?view=referee", None)
        assert status == 200, (status, snapshot)
        log = image.logs[game_id]
        # On reload the Table makes the draws of its own that the kill left undone (a dealt tile
        # after a stored sink); those, and only those, may follow what the file held.
        status, served = driver.request(api, "GET", f"/api/games/{game_id}/actions", None)
        assert status == 200, (status, served)
        in_force = [r for r in served["actions"] if r["status"] == "ok"]
        assert [r["action"] for r in in_force[: len(log)]] == [a for _, a in log]
        assert all(r["source"] == "table" for r in in_force[len(log) :]), "made up on reload"
        drawn = [r["action"] for r in in_force[len(log) :]]
        from_store = replayed(row, [a for _, a in log] + drawn)
        assert snapshot["state"] == referee_view(from_store), f"game {game_id} is not its log"
        assert snapshot["actions"] == len(log) + len(drawn)
        acked = driver.acked.get(game_id, [])
        told = [a for _, a in acked] + [a for _, a in log[len(acked) :]] + drawn
        assert snapshot["state"] == referee_view(replayed(row, told))
        ended = row.over
        if drawn:  # the record as the daemon holds it now, after its own draws
            status, listed = driver.request(api, "GET", "/api/games", None)
            assert status == 200, (status, listed)
            ended = next(g for g in listed["games"] if g["id"] == game_id)["ended_at"] is not None
        assert ended == from_store.over, (
            f"game {game_id}: its log says {'over' if from_store.over else 'not over'}, its "
            f"record says {'ended' if ended else 'not ended'}"
        )


def kind_of_kill(kill: Kill | None, sent: Sent | None, stored: int, created: bool) -> str:
    assert kill is not None
    if not kill.at_request:
        assert stored == 0 and not created, "stored a command that was never sent"
        return "between commands"
    if sent is None:
        return "in a request, its whole reply already read"
    if sent.game is None:
        return f"in a new game: {'created' if created else 'not created'}, answer lost"
    return "in a command: stored, reply lost" if stored else "in a command: not stored"


def crash_run(folder: Path, kills: int, seed: int) -> Counter[str]:
    """Play, kill, check, restart, resend, `kills` times; then stop cleanly and check once more.
    The kinds of moments the kills landed at, counted."""
    rng = random.Random(seed)
    served = Served(folder)
    driver = Driver(rng.randrange(2**31))
    tally: Counter[str] = Counter()
    started = time.monotonic()
    try:
        api = served.start()
        driver.new_game(api)
        for _ in range(kills):
            proc = served.proc
            assert proc is not None
            driver.kill = None
            delay, between = rng.uniform(*KILL_AFTER), rng.random() < BETWEEN

            def blow(pid: int = proc.pid, delay: float = delay, between: bool = between) -> None:
                time.sleep(delay)
                driver.sigkill(pid, between)

            killer = threading.Thread(target=blow, name="killer")
            killer.start()
            try:
                driver.play(api)
            except Lost:
                pass
            finally:
                killer.join()
                api.close()
            assert proc.wait(timeout=15) == -signal.SIGKILL
            driver.revive()
            image = read_store(served.db)
            stored = check_file(image, driver)
            created = any(g not in driver.acked for g in image.games)
            tally[kind_of_kill(driver.kill, driver.pending, stored, created)] += 1
            api = served.start()
            check_served(api, image, driver)
            driver.resume(api, served.db, image, stored)
        # The end: a few more commands, a clean stop, and the log is what was acknowledged.
        driver.play(api, limit=driver.commands + 20)
        api.close()
        assert served.stop() == 0, served.output()
        image = read_store(served.db)
        assert image.integrity == "ok"
        assert image.logs == driver.acked
        for start in range(1, served.starts + 1):
            assert "Traceback" not in served.output(start), served.output(start)
    finally:
        served.reap()
    print(
        f"\ncrash test: {kills} kills, {driver.commands} commands, {len(driver.acked)} games, "
        f"{time.monotonic() - started:.1f} s; kills landed: {dict(sorted(tally.items()))}; "
        f"restarts with a table draw left undone: {driver.draws_left}"
    )
    return tally


def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path: Path) -> None:
    tally = crash_run(tmp_path, KILLS, SEED)
    assert sum(tally.values()) == KILLS


@pytest.mark.slow
def test_at_least_fifty_sigkills_lose_nothing_acknowledged(tmp_path: Path) -> None:
    tally = crash_run(tmp_path, LONG_KILLS, SEED + 1)
    assert sum(tally.values()) == LONG_KILLS >= 50
    # Both kinds of moment were hit: the timing of the kills is not all of one kind.
    assert tally["between commands"] > 0
    assert sum(n for kind, n in tally.items() if kind != "between commands") > 0


# -- the checks can fail --------------------------------------------------------------------------


def flask_api(table: Table) -> Api:
    """The same API in this process (no daemon), for a quick store to spoil."""
    client = create_app(table, test_config={"TESTING": True}).test_client()

    def call(method: str, path: str, body: dict[str, Any] | None) -> tuple[int, Any]:
        response = client.open(path, method=method, json=body)
        return response.status_code, response.get_json()

    return call


def played_store(folder: Path, commands: int = 60) -> tuple[Path, int, list[Logged]]:
    """A store with one game played by the driver; its path, game and acknowledged log."""
    path = folder / "games.db"
    table = Table(Store(path))
    driver = Driver(SEED)
    try:
        driver.play(flask_api(table), limit=commands)
    finally:
        table._store.close()  # the last connection: the WAL is folded into the file
    ((game_id, acked),) = driver.acked.items()
    return path, game_id, acked


def spoiled(path: Path, name: str, *statements: tuple[str, tuple[Any, ...]]) -> Image:
    copy = path.with_name(name)
    shutil.copy(path, copy)
    db = sqlite3.connect(copy, isolation_level=None)
    try:
        for sql, params in statements:
            db.execute(sql, params)
    finally:
        db.close()
    return read_store(copy)


def test_the_log_check_reports_a_lost_acknowledged_action_and_one_done_twice(
    tmp_path: Path,
) -> None:
    path, game_id, acked = played_store(tmp_path)
    image = read_store(path)
    assert image.integrity == "ok"
    assert log_problems(acked, [], image.logs[game_id]) == ([], 0)
    # The last two rows seen as the command in flight, stored before its reply was lost: allowed.
    assert log_problems(acked[:-2], [a for _, a in acked[-2:]], image.logs[game_id]) == ([], 2)

    delete = "DELETE FROM actions WHERE game_id = ? AND seq = ?"
    for seq, action in (acked[len(acked) // 2], acked[-1]):
        lost = spoiled(path, f"lost-{seq}.db", (delete, (game_id, seq)))
        assert lost.integrity == "ok"
        problems, _ = log_problems(acked, [], lost.logs[game_id])
        assert problems, f"acknowledged action {seq} deleted, and the check saw nothing"
        assert f"action {seq} {action}" in problems[0]
    undone = spoiled(
        path, "undone.db", ("UPDATE actions SET status = 'undone' WHERE seq = ?", (acked[-1][0],))
    )
    assert log_problems(acked, [], undone.logs[game_id])[0]

    seq, action = acked[-1]
    again = spoiled(
        path,
        "twice.db",
        (
            "INSERT INTO actions (game_id, seq, ord, action, source, at) VALUES (?,?,?,?,?,?)",
            (game_id, seq + 1, seq + 1, json.dumps(action), "phone", 0.0),
        ),
    )
    problems, _ = log_problems(acked, [], again.logs[game_id])
    assert problems and "after the acknowledged actions" in problems[0]
    # ... and beyond the command in flight: also reported.
    assert log_problems(acked[:-1], [], image.logs[game_id])[0]


def test_the_integrity_check_reports_a_damaged_file(tmp_path: Path) -> None:
    path, _, _ = played_store(tmp_path, commands=10)
    damaged = tmp_path / "damaged.db"
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for start in range(page, len(data), page):  # every page but the first: its b-tree header
        data[start : start + 12] = b"\xa5" * 12
    damaged.write_bytes(bytes(data))
    assert read_store(damaged).integrity != "ok"


def test_a_kill_as_the_game_end_is_recorded_leaves_the_record_agreeing_with_the_log(
    tmp_path: Path,
) -> None:
    """A SIGKILL at a chosen moment: just before the store writes a game's outcome. The game's
    last action and its outcome stand or fall together; a game over by its log but in play by
    its record would be listed without winners and stay the table's current game for ever."""
    served = Served(tmp_path, kill_before="UPDATE games SET outcome")
    driver = Driver(SEED)
    driver.may_die = True
    try:
        api = served.start()
        with pytest.raises(Lost):
            driver.play(api, limit=5000)  # until the first game ends
        api.close()
        assert served.proc is not None and served.proc.wait(timeout=15) == -signal.SIGKILL
        image = read_store(served.db)
        stored = check_file(image, driver)
        served.kill_before = None
        api = served.start()
        check_served(api, image, driver)
        driver.may_die = False
        driver.resume(api, served.db, image, stored)
        assert driver.mirror is not None
        while not driver.mirror.over:  # the end's own draw may have been what the kill undid
            driver.command(api)
        status, answer = api("GET", "/api/games", None)
        assert status == 200
        (summary,) = answer["games"]
        assert summary["ended_at"] is not None and summary["winners"], summary
        assert read_store(served.db).games[summary["id"]].over
        api.close()
        assert served.stop() == 0
    finally:
        served.reap()
