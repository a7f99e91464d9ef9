"""The `bots` section of `companion bench`: how strong the bot levels are, and how long they
take to decide, over whole four-player games with the bots' seats rotating.

- ``bots.normal_vs_random_win_rate``: one normal bot against three uniform-random players;
- ``bots.normal_vs_greedy_win_rate``: one normal bot against three greedy players (rescue the
  highest values first, attack the leader);
- ``bots.strong_vs_normal_win_rate``: one strong bot against three normal ones (above 0.25, a
  fair share, strong is the better);
- ``bots.decision_p95_ms_<level>``: the 95th percentile of one decision's time.

The games run in worker processes, one per core, each game on its own seeds.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .bots.arena import match
from .engine import Rules

GAMES = 400
BUDGET_S = 0.1
"""The strong level's budget per decision in these games, in CPU seconds (a table gives it
0.5 s of its own clock). Its search plays three candidates to the turn's end per round (about
45 ms at a movement point on this machine), and with a single round normal's choice stands:
at 0.05 s strong was normal."""
MATCHES = (("normal", "random"), ("normal", "greedy"), ("strong", "normal"))


def _chunk(args: tuple[str, str, int, int, float]) -> tuple[float, list[float]]:
    bot, against, games, seed, budget = args
    # the budget in CPU seconds: on a shared machine a wall-clock budget buys fewer rounds the
    # busier it is, and the strength measured would be the load's
    played = match(Rules(), bot, against, games, seed, budget_s=budget, clock=time.process_time)
    rate, seconds = played["win_rate"], played["decision_s"]
    assert isinstance(rate, float) and isinstance(seconds, list)
    return rate * games, seconds


def _p95_ms(samples: list[float]) -> float:
    ordered = sorted(samples)
    return round(1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 2)


def bots(
    games: int = GAMES, budget_s: float = BUDGET_S, workers: int | None = None
) -> dict[str, Any]:
    """The figures above, and what produced them (for ``meta``)."""
    workers = workers or min(4, os.cpu_count() or 1)
    figures: dict[str, float] = {}
    times: dict[str, list[float]] = {}
    # each worker plays a block of whole games; seeds differ by block, so no game repeats
    per = -(-games // workers)
    with ProcessPoolExecutor(workers) as pool:
        for bot, against in MATCHES:
            jobs = [
                (bot, against, min(per, games - k * per), 1 + k, budget_s) for k in range(workers)
            ]
            wins = 0.0
            for won, seconds in pool.map(_chunk, [j for j in jobs if j[2] > 0]):
                wins += won
                times.setdefault(bot, []).extend(seconds)
            figures[f"bots.{bot}_vs_{against}_win_rate"] = round(wins / games, 4)
    for level, seconds in sorted(times.items()):
        figures[f"bots.decision_p95_ms_{level}"] = _p95_ms(seconds)
    return figures
