"""The engine compiled by mypyc (`make compiled`), beside the pure package.

The compiled modules are the engine's own sources built into C extensions, in
``build/compiled`` with a copy of the rest of the package: putting that folder first on
PYTHONPATH runs the compiled engine, leaving it off runs the pure one. The benchmark reports both
(``engine.*`` and ``engine.*_compiled``) and a test plays the engine's tests against the build.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from .engine import game

PACKAGE = Path(__file__).resolve().parent
ENGINE = PACKAGE / "engine"
BUILD = PACKAGE.parent / "build" / "compiled"
"""Where `make compiled` puts the build (the repository's, not an installed wheel's)."""


def running() -> bool:
    """Is the engine imported here the compiled one (an extension module, not a .py file)?"""
    return not game.__file__.endswith(".py")


def build() -> Path | None:
    """The compiled build when `make compiled` made one from the engine's sources as they are
    now, with the rest of the package brought up to date; else None (none, or a stale one)."""
    if not (BUILD / ".built").is_file():
        return None
    built = BUILD / "companion" / "engine"
    for source in ENGINE.glob("*.py"):
        copy = built / source.name
        if not copy.is_file() or copy.read_bytes() != source.read_bytes():
            return None  # the engine changed since: `make compiled` again
    # Only the engine is compiled: the rest is copied as it is now, so that nothing else
    # (the bench, the Table) runs an older version of itself next to the compiled engine.
    shutil.copytree(
        PACKAGE,
        BUILD / "companion",
        ignore=shutil.ignore_patterns("engine", "__pycache__"),
        dirs_exist_ok=True,
    )
    return BUILD


def environment(folder: Path) -> dict[str, str]:
    """This process's environment with the compiled build `folder` first on PYTHONPATH."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), env.get("PYTHONPATH")]))
    return env
