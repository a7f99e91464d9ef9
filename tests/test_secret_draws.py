"""A digital game's draws cannot be foretold from anything a phone sees (issue 14, item 1).

Every draw of the companion (the island laid at random, a tile's back dealt, the die rolled) is
keyed with the game's seed, a secret from `secrets` that only the referee is shown. The attack
that worked before: the seed was the clock's milliseconds, published as ``started_at``, so a
stranger with no PIN replayed the public log with it and knew every draw to come.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import history, seeds
from companion.commands import REFEREE, Command
from companion.engine import Game, Rules, chance
from companion.store import Store
from companion.table import Table
from companion.web import create_app
from tests.web_support import PIN, Phone, close, served, started_table, table_config

PLAYERS = [{"name": n} for n in ("Ana", "Bo")]
WINDOW_MS = 300
"""How far from ``started_at`` the attacker looks for the clock's reading that made the seed."""


def numbers(data: Any) -> Iterator[int]:
    """Every whole number in a JSON document, and every number's whole part and thousandths
    (a time in seconds read as milliseconds): the attacker's candidate seeds."""
    if isinstance(data, bool):
        return
    if isinstance(data, int | float):
        yield int(data)
        yield int(data * 1000) % 2**31
    elif isinstance(data, dict):
        for value in data.values():
            yield from numbers(value)
    elif isinstance(data, list):
        for value in data:
            yield from numbers(value)


def drawn(rules: Rules, players: int, mode: str, log: list[Any]) -> list[tuple[Game, Any]]:
    """Each table decision of a game with its outcome: the game just before it, and the fact."""
    game = Game.new(rules, players, 0, mode)
    out = []
    for action in log:
        if game.is_chance():
            out.append((game.copy(), tuple(action)))
        game.apply(action)
    return out


def hits(decisions: list[tuple[Game, Any]], seed: int) -> int:
    """How many of the table's decisions a game seeded with `seed` would have drawn."""
    count = 0
    for game, fact in decisions:
        game.state.seed = seed
        count += game.draw() == fact
    return count


def chance_bound(decisions: list[tuple[Game, Any]], guesses: int, risk: float = 1e-9) -> int:
    """A number of hits that no wrong seed among `guesses` reaches but with probability `risk`.

    A wrong seed draws each outcome independently of the fact, with the fact's own odds: it
    hits decision i with probability q_i = sum of p_k squared. The count of hits is then
    Poisson-binomial (computed exactly); a union bound covers every guess."""
    dist = [1.0]
    for game, _ in decisions:
        q = sum(p * p for _, p in game.chance_outcomes())
        dist = [
            (dist[k] if k < len(dist) else 0.0) * (1 - q) + (dist[k - 1] * q if k else 0.0)
            for k in range(len(dist) + 1)
        ]
    tail = 0.0
    for k in range(len(dist) - 1, -1, -1):
        tail += dist[k]
        if tail * guesses > risk:
            return k + 1
    return 0


def play_to_the_end(table: Table, game_id: int, rng: random.Random) -> None:
    """Each seat makes a legal choice (mostly its first: games then end sooner), the table rolls
    its die with ROLL; the Table deals the rest itself."""
    for _ in range(5000):
        snap = table.snapshot(game_id, REFEREE)
        if snap["state"]["phase"] == "over":
            return
        if "legal" in snap:
            legal = snap["legal"]
            action = legal[0] if rng.random() < 0.7 else rng.choice(legal)
            seat = snap["state"]["actor"]
            command = Command("cli", seat, "", game_id, action=action)
        else:
            command = Command("cli", None, "", game_id, intent="draw")
        reply = table.call(command)
        assert reply.accepted, reply.message
    raise AssertionError("the game did not end within 5000 decisions")


@pytest.fixture
def finished(tmp_path: Path) -> Iterator[tuple[Table, int, dict[str, list[Any]]]]:
    """A digital game started by a phone (no seed typed) and played to its end, served by
    waitress; every document a phone can read about it, without PIN and as a seated phone,
    mid-game and at the end (by path)."""
    table = started_table(tmp_path / "games.db")
    # Loopback is not trusted here: the test's requests are phones on the Wi-Fi.
    app = create_app(table, table_config(), {"TESTING": True, "TRUST_LOOPBACK": False})
    seen: dict[str, list[Any]] = {}
    try:
        with served(app) as port:
            starter = Phone(port)
            assert starter.post("/api/session/pin", {"pin": PIN})[0] == 200
            status, body = starter.post(
                "/api/games", {"players": PLAYERS, "mode": "digital", "layout": "random"}
            )
            assert status == 201, body
            game_id = body["game"]
            seated = Phone(port)
            assert seated.post("/api/session/pin", {"pin": PIN})[0] == 200
            assert seated.post("/api/session/seat", {"game": game_id, "seat": 1})[0] == 200
            stranger = Phone(port)
            paths = (
                "/api/games", f"/api/games/{game_id}", f"/api/games/{game_id}/actions",
                f"/api/games/{game_id}/export", f"/api/games/{game_id}/bgstats",
                "/api/session", "/api/health",
            )  # fmt: skip

            def look() -> None:
                for phone, path in itertools.product((stranger, seated, starter), paths):
                    status, body = phone.get(path)
                    if status == 200:
                        seen.setdefault(path, []).append(body)

            look()
            play_to_the_end(table, game_id, random.Random(14))
            look()
            yield table, game_id, seen
    finally:
        close(table)


def test_no_seed_reaches_a_phone_and_no_public_number_foretells_the_draws(
    finished: tuple[Table, int, dict[str, list[Any]]],
) -> None:
    """The old attack (candidate seeds from ``started_at``) and any number a phone reads
    (without PIN, seated, before and after the end) draw the game's facts no better than
    chance; the referee's seed draws every one of them, so the attack itself is sound."""
    table, game_id, seen = finished
    export = seen[f"/api/games/{game_id}/export"][-1]  # public once the game is over
    record, log = export["game"], [r["action"] for r in export["actions"] if r["status"] == "ok"]
    assert record["ended_at"] is not None and record["mode"] == "digital"
    assert "seed" not in record and "seed" not in export["final"]
    decisions = drawn(Rules.from_json(export["rules"]), len(export["players"]), "digital", log)
    assert len(decisions) > 60  # the island (40), backs and dice: enough to tell chance apart

    secret = table.snapshot(game_id, REFEREE)["state"]["seed"]
    assert hits(decisions, secret) == len(decisions)

    started = int(record["started_at"] * 1000)
    candidates = {(started + d) % 2**31 for d in range(-WINDOW_MS, WINDOW_MS + 1)}
    for bodies in seen.values():
        for body in bodies:
            candidates.update(numbers(body))
    assert secret not in candidates
    bound = chance_bound(decisions, len(candidates))
    assert bound < len(decisions) * 0.75
    best = max(hits(decisions, c) for c in candidates)
    assert best < bound, f"a public number foretells {best} of {len(decisions)} draws"


def test_a_new_game_seed_comes_from_secrets_and_a_typed_one_is_marked_predictable(
    tmp_path: Path,
) -> None:
    """Two games started in the same millisecond get unrelated seeds; a typed seed is kept
    and marked "for tests: predictable" wherever it is shown (the replay's first line)."""
    store = Store(tmp_path / "games.db")
    table = Table(store, clock=lambda: 1_795_000_000.0)  # not started: runs in this thread
    made = [
        table.call(Command("cli", intent="new_game", args={"players": PLAYERS})).game
        for _ in range(2)
    ]
    typed = table.call(Command("cli", intent="new_game", args={"players": PLAYERS, "seed": 7}))
    records = {g: table.snapshot(g, REFEREE) for g in [*made, typed.game]}
    secret = [records[g]["state"]["seed"] for g in made]
    assert secret[0] != secret[1] and min(secret) > 2**40  # 63 random bits, not the clock's
    assert all(records[g]["settings"].get("seed") is None for g in made)
    assert records[typed.game]["state"]["seed"] == 7
    assert records[typed.game]["settings"]["seed"] == seeds.TYPED
    assert typed.game is not None
    record = store.game(typed.game)
    assert "7 [typed at setup, for tests: predictable]" in next(history.replay_lines(record, []))
    assert history.export(record, [], seed=True)["game"]["seed"] == 7
    assert "seed" not in history.export(record, [])["game"]
    store.close()


def test_draws_are_keyed_hashes_of_seed_and_number() -> None:
    """The same seed and number always give the same draw (a game replays); neighbouring
    seeds and numbers give unrelated ones, spread evenly over [0, 1)."""
    assert chance.uniform(5, 3) == chance.uniform(5, 3)
    draws = [chance.uniform(seed, n) for seed in range(50) for n in range(200)]
    assert len(set(draws)) == len(draws)
    assert all(0 <= x < 1 for x in draws)
    tenths = [sum(int(x * 10) == k for x in draws) for k in range(10)]
    assert max(tenths) - min(tenths) < 6 * math.sqrt(len(draws) / 10)
    assert chance.uniform(-1, 0) != chance.uniform(2**200, 0)  # any whole number is a key
