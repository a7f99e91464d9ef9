"""Digital rolls from the data file, for tables that chose them at setup.

The companion's first mode is "enter what you rolled"; a digital roll draws each die's face
uniformly from its faces in ``data/dice.json`` with the caller's seeded `random.Random`, and
says whether that distribution is verified — if not, the phone shows `NOT_VERIFIED` beside it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .box import BOX, Box
from .errors import RuleBroken

NOT_VERIFIED = "face distribution not verified"


@dataclass(frozen=True)
class DiveRoll:
    """Faces of dive dice (each the list of its icons), in the order asked."""

    faces: tuple[tuple[str, ...], ...]
    verified: bool
    note: str
    """`NOT_VERIFIED` or empty."""


@dataclass(frozen=True)
class ResearchRoll:
    faces: tuple[str, ...]
    verified: bool
    note: str


def roll_dive(depths: Sequence[int], rng: random.Random, box: Box | None = None) -> DiveRoll:
    """Roll one dive die of each depth in `depths` (e.g. ``[d.depth for d in dive_dice(...)]``)."""
    box = box or BOX
    faces: list[tuple[str, ...]] = []
    verified = True
    for depth in depths:
        kind = box.dive_kind(depth)
        if kind is None:
            raise RuleBroken("F-1", f"no dive die for depth {depth!r}")
        faces.append(rng.choice(kind.faces).icons)
        verified = verified and kind.verified
    return DiveRoll(tuple(faces), verified, "" if verified else NOT_VERIFIED)


def roll_research(count: int, rng: random.Random, box: Box | None = None) -> ResearchRoll:
    """Roll `count` research dice."""
    box = box or BOX
    if not 0 <= count <= box.research_dice:
        raise RuleBroken("F-2", f"the box has {box.research_dice} research dice, not {count}")
    faces = tuple(rng.choice(box.research_faces).face for _ in range(count))
    verified = box.research_verified
    return ResearchRoll(faces, verified, "" if verified else NOT_VERIFIED)
