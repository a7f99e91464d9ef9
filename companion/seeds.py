"""A game's seed: the secret every draw of the companion is keyed with (`engine.chance`).

A new game's seed comes from `secrets`; the store keeps it, and only the referee (the table
itself) is shown it. A seed typed at setup (a test, the demo, `companion simulate --seed`)
makes every draw predictable to whoever knows it: the game's settings say so, and so does
every place that shows it.
"""

from __future__ import annotations

import secrets

from .store import GameRecord

TYPED = "typed"
"""A game's ``settings["seed"]`` when its seed was typed at setup."""
PREDICTABLE = "typed at setup, for tests: predictable"

BITS = 63
"""The store keeps a seed as a signed 64-bit integer (SQLite's INTEGER)."""


def new() -> int:
    return secrets.randbits(BITS)


def said(record: GameRecord) -> str:
    """The seed as the referee reads it: a typed one is marked predictable."""
    if record.settings.get("seed") == TYPED:
        return f"{record.seed} [{PREDICTABLE}]"
    return str(record.seed)
