"""Whole games between bots and baseline players, for `companion bench bots` and
`companion simulate --bots`: who won, and how long each decision took."""

from __future__ import annotations

import gc
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..engine import Game, Rules, notation, violations
from .players import BASELINES, LEVELS, PLAYERS, STRONG_BUDGET_S, decide


@dataclass
class Played:
    """One game's outcome."""

    winners: list[int]
    points: list[int]
    decision_s: dict[str, list[float]] = field(default_factory=dict)
    """Per player kind (a level or a baseline), the seconds each of its decisions took."""
    violations: list[str] = field(default_factory=list)
    decisions: int = 0


def play(
    game: Game,
    seats: list[str],
    rng: random.Random,
    *,
    budget_s: float = STRONG_BUDGET_S,
    check: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> Played:
    """Play `game` to its end with `seats[i]` (a bot level or a baseline) deciding for seat i.
    `clock` times the strong level's budget (the decision times kept are always wall time)."""
    for kind in seats:
        if kind not in LEVELS and kind not in BASELINES:
            raise ValueError(f"a seat is one of {', '.join(LEVELS + BASELINES)}, not {kind!r}")
    times: dict[str, list[float]] = {}
    decisions = 0
    while not game.over:
        if game.is_chance():
            action = game.draw()
        else:
            seat = game.actor
            assert seat is not None
            kind = seats[seat]
            start = time.perf_counter()
            if kind in LEVELS:
                action = decide(game, seat, kind, rng, budget_s=budget_s, clock=clock).action
            else:
                action = PLAYERS[kind](game, seat, rng)
            times.setdefault(kind, []).append(time.perf_counter() - start)
            decisions += 1
        game.apply(action)
        if check:
            broken = violations(game)
            if broken:
                return Played([], [], times, [f"after {notation(action)}: {b}" for b in broken])
    result = game.result()
    assert result is not None
    points = [0] * game.state.players
    for place in result["ranking"]:
        points[place["seat"]] = place["points"]
    return Played(list(result["winners"]), points, times, [], decisions)


@contextmanager
def few_collections() -> Iterator[None]:
    """Games of bots with Python's cyclic garbage collector run seldom. A bot copies the game
    for every action it weighs; at the default threshold (700 objects more made than freed)
    the collector ran a few times a decision for ~10 % of a game's CPU, and found next to
    nothing: the copies are freed as soon as they are weighed. Restored afterwards."""
    threshold = gc.get_threshold()
    gc.set_threshold(20_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def match(
    rules: Rules,
    bot: str,
    against: str,
    games: int,
    seed: int,
    *,
    players: int = 4,
    bots: int = 1,
    budget_s: float = STRONG_BUDGET_S,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float | list[float]]:
    """`games` games of `bots` seats of `bot` against the rest of `against`, the bots' seats
    rotating game by game; the bots' share of wins (a shared win counts its share)."""
    wins = 0.0
    times: dict[str, list[float]] = {}
    for i in range(games):
        first = i % players
        mine = {(first + k * (players // bots)) % players for k in range(bots)}
        seats = [bot if s in mine else against for s in range(players)]
        game = Game.new(rules, players, seed=seed * 1_000_003 + i)
        with few_collections():
            played = play(
                game, seats, random.Random(seed * 7919 + i), budget_s=budget_s, clock=clock
            )
        wins += sum(1 for w in played.winners if w in mine) / len(played.winners)
        for kind, seconds in played.decision_s.items():
            times.setdefault(kind, []).extend(seconds)
    return {"win_rate": wins / games, "decision_s": times.get(bot, [])}
