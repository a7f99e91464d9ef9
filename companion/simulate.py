"""Play many games at random through the engine's public face, checking every invariant.

A user feature (how long do games last, does seat order matter?) and the engine's soak test:
every decision is chosen uniformly among `legal_actions()`, table decisions are drawn by the
engine, and `violations()` runs after every action. With ``bots`` some seats are bots of a
level (`companion.bots`) instead, the bots' seats rotating game by game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots import decide
from .bots.arena import few_collections
from .engine import Game, Rules, notation, violations


@dataclass
class Tally:
    """What a batch of games came to."""

    players: int
    games: int = 0
    decisions: int = 0
    turns: int = 0
    wins: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    saved: list[int] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    shared: int = 0

    def __post_init__(self) -> None:
        self.wins = [0.0] * self.players
        self.points = [0] * self.players
        self.saved = [0] * self.players


def play_one(
    game: Game,
    rng: random.Random,
    check: bool,
    bots: frozenset[int] = frozenset(),
    level: str = "normal",
    budget_s: float = 0.1,
) -> tuple[int, list[str]]:
    """Play `game` to its end; return its decisions and any broken invariants (with the action).

    Seats in `bots` are bots of `level` (the strong level with `budget_s` a decision)."""
    decisions = 0
    while not game.over:
        if game.is_chance():
            action = game.draw()
        elif game.actor in bots:
            action = decide(game, game.actor, level, rng, budget_s=budget_s).action
            decisions += 1
        else:
            action = rng.choice(game.legal_actions())
            decisions += 1
        game.apply(action)
        if check:
            broken = violations(game)
            if broken:
                return decisions, [f"after {notation(action)}: {b}" for b in broken]
    return decisions, []


def simulate(
    rules: Rules,
    players: int,
    games: int,
    seed: int,
    *,
    check: bool = True,
    progress: Callable[[int], None] | None = None,
    bots: int = 0,
    level: str = "normal",
    budget_s: float = 0.1,
) -> dict[str, Any]:
    """Play `games` games, `bots` seats of them bots of `level` and the rest random; the summary
    `companion simulate --json` prints."""
    if not 0 <= bots <= players:
        raise ValueError(f"--bots must be between 0 and the {players} players")
    tally = Tally(players)
    rng = random.Random(seed)
    start = time.perf_counter()
    for i in range(games):
        game = Game.new(rules, players, seed=seed * 1_000_003 + i)
        seats = frozenset((i + k) % players for k in range(bots))
        with few_collections():
            decisions, broken = play_one(game, rng, check, seats, level, budget_s)
        tally.games += 1
        tally.decisions += decisions
        tally.violations.extend(f"game {i}: {b}" for b in broken)
        if broken:
            continue
        state = game.state
        tally.turns += sum(state.turns_taken)
        result = game.result()
        assert result is not None
        winners = result["winners"]
        tally.shared += len(winners) > 1
        for seat in winners:
            tally.wins[seat] += 1 / len(winners)
        for place in result["ranking"]:
            tally.points[place["seat"]] += place["points"]
            tally.saved[place["seat"]] += place["saved"]
        if progress:
            progress(i + 1)
    seconds = time.perf_counter() - start
    n = max(tally.games, 1)
    return {
        "players": players,
        "rules": rules.to_json(),
        "seed": seed,
        "bots": bots,
        "level": level if bots else None,
        "games": tally.games,
        "seconds": round(seconds, 3),
        # three significant digits: a bot game takes seconds, and 0.024 must not print as 0.0
        "games_per_s": float(f"{tally.games / seconds:.3g}") if seconds else None,
        "decisions_per_game": round(tally.decisions / n, 2),
        "invariant_violations": len(tally.violations),
        "violations": tally.violations[:20],
        "mean_turns": round(tally.turns / n, 2),
        "win_rate_by_seat": [round(w / n, 4) for w in tally.wins],
        "mean_points_saved": [round(p / n, 3) for p in tally.points],
        "mean_people_saved": [round(p / n, 3) for p in tally.saved],
        "shared_win_rate": round(tally.shared / n, 4),
    }


def table(summary: dict[str, Any]) -> str:
    """The summary as a few readable lines."""
    lines = [
        f"{summary['games']} games, {summary['players']} players, "
        f"rules {','.join(summary['rules']['modules'])}, "
        f"seed {summary['seed']} (for tests: predictable)"
        + (f", {summary['bots']} {summary['level']} bot(s)" if summary.get("bots") else ""),
        f"{summary['seconds']} s ({summary['games_per_s']} games/s), "
        f"{summary['decisions_per_game']} decisions and {summary['mean_turns']} turns a game",
        f"invariant violations: {summary['invariant_violations']}",
        "",
        f"{'seat':>4}  {'wins':>6}  {'points':>6}  {'saved':>5}",
    ]
    for seat in range(summary["players"]):
        lines.append(
            f"{seat + 1:>4}  {100 * summary['win_rate_by_seat'][seat]:>5.1f}%  "
            f"{summary['mean_points_saved'][seat]:>6.2f}  {summary['mean_people_saved'][seat]:>5.2f}"
        )
    lines.append(f"shared victories: {100 * summary['shared_win_rate']:.1f}%")
    lines.extend(summary["violations"])
    return "\n".join(lines)
