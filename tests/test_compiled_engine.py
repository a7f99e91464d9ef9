"""The engine compiled by mypyc (`make compiled`) plays exactly as the pure one.

The engine's tests and the golden games run again in a process where the compiled build comes
first on PYTHONPATH: the same outcomes, refusals and byte-identical golden replays, from C
extensions instead of .py files. `make test` builds it first (where a C compiler is); run alone
without a build, this says how to make one.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import compiled

ROOT = Path(__file__).resolve().parent.parent

ENGINE_TESTS = [
    "tests/test_golden.py",
    "tests/test_setup.py",
    "tests/test_movement.py",
    "tests/test_sinking.py",
    "tests/test_creatures.py",
    "tests/test_scoring.py",
    "tests/test_turn.py",
    "tests/test_refusals.py",
    "tests/test_secret_draws.py",
    "tests/test_position.py",
    "tests/test_invariants.py",
    "tests/test_bots.py",
    "tests/test_random_action.py",
]

# What the child asserts before anything else: every engine module it imports is compiled.
CHECK = """
import companion.engine, pkgutil, importlib
for m in pkgutil.iter_modules(companion.engine.__path__):
    f = importlib.import_module("companion.engine." + m.name).__file__
    assert f.endswith(".so"), f
print("compiled")
"""


def build() -> Path:
    folder = compiled.build()
    if folder is None:
        if os.environ.get("COMPANION_REQUIRE_COMPILED"):
            pytest.fail("no compiled engine for the sources as they are: run `make compiled`")
        pytest.skip("no compiled engine for the sources as they are: run `make compiled`")
    return folder


def test_the_pure_engine_is_what_runs_without_the_build() -> None:
    """The package stays pure Python: nothing outside build/compiled is compiled."""
    assert not compiled.running()
    assert not list((ROOT / "companion").rglob("*.so"))


QUICK = ["tests/test_golden.py", "tests/test_refusals.py", "tests/test_secret_draws.py",
         "tests/test_movement.py", "tests/test_random_action.py"]  # fmt: skip
"""What `make test` runs against the build: the golden games (every ruleset's stored game,
byte for byte), the refusals, the keyed draws, movement and the random actions; `make
check-long` runs them all."""


def run_compiled(tests: list[str]) -> None:
    folder = build()
    env = compiled.environment(folder)
    check = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=folder, env=env, capture_output=True, text=True
    )
    assert check.stdout.strip() == "compiled", check.stderr
    # --import-mode=append: the tests' own folder goes last on sys.path, so `companion` is the
    # compiled build's, not this repository's pure package.
    run = subprocess.run(
        [str(Path(sys.executable).parent / "pytest"), "-q", "-p", "no:cacheprovider",
         "--import-mode=append", "-m", "not slow and not page", *tests],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1800,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " failed" not in run.stdout


def test_the_compiled_engine_replays_the_golden_games_and_refuses_and_draws_alike() -> None:
    """Every golden game (tests/golden) replayed byte for byte with the compiled modules, and
    the refusals, the draws and movement as their tests pin them."""
    run_compiled(QUICK)


@pytest.mark.slow
def test_the_compiled_engine_passes_the_engine_tests_and_replays_the_golden_games() -> None:
    """B-1 … E-7 as the engine's own tests pin them, with the compiled modules."""
    run_compiled(ENGINE_TESTS)
