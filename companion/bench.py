"""`companion bench`: the figures this machine reaches, as one flat JSON object.

Every key of ``figures`` has one fixed meaning (architecture brief, "Benchmarks"); ``meta`` says
which machine, software and commit produced them. A section that cannot run here says why in
``meta.skipped`` and adds no figures.
"""

from __future__ import annotations

import datetime
import os
import platform
import random
import subprocess
import time
from collections.abc import Callable
from importlib import metadata
from typing import Any

from .engine import Game, Rules

SECTIONS = ("engine", "table", "web", "panel", "vision")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith(("model name", "Model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=os.path.dirname(__file__),
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    out = {}
    for name in ("atlantis-companion", "flask", "waitress", "pyserial", "gpiozero"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def meta() -> dict[str, Any]:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "versions": _versions(),
        "commit": _commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "skipped": {},
    }


def _playout(game: Game, rng: random.Random) -> int:
    decisions = 0
    while not game.over:
        if game.is_chance():
            game.apply(game.draw())
        else:
            game.apply(rng.choice(game.legal_actions()))
            decisions += 1
    return decisions


def engine(seconds: float = 4.0) -> dict[str, float]:
    """Uniform random playouts of the base game with 4 players, on one core."""
    rules = Rules()
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 20:
        decisions += _playout(Game.new(rules, 4, seed=games), rng)
        games += 1
    elapsed = time.perf_counter() - start
    # One apply plus the legal_actions that follows it, timed per decision.
    samples: list[float] = []
    seed = 10_000
    while len(samples) < 10_000:
        game = Game.new(rules, 4, seed=seed)
        seed += 1
        while not game.over:
            action = game.draw() if game.is_chance() else rng.choice(game.legal_actions())
            t0 = time.perf_counter()
            game.apply(action)
            game.legal_actions()
            samples.append(time.perf_counter() - t0)
    samples.sort()
    return {
        "engine.playouts_per_s": round(games / elapsed, 1),
        "engine.decisions_per_game": round(decisions / games, 1),
        "engine.action_p99_ms": round(1000 * samples[int(0.99 * len(samples))], 4),
    }


RUNNERS: dict[str, Callable[[], dict[str, float]]] = {"engine": engine}


def run(sections: list[str]) -> dict[str, Any]:
    info = meta()
    figures: dict[str, float] = {}
    for section in sections or SECTIONS:
        runner = RUNNERS.get(section)
        if runner is None:
            info["skipped"][section] = "not built yet in this version"
            continue
        figures.update(runner())
    return {"meta": info, "figures": figures}
