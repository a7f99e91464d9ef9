"""The printed board: hexes, their neighbours, the island, the safe islands, and where to draw them.

Hexes are numbered 0..136 in reading order (row by row, left to right); the number is what the
engine stores. People read a hex as ``row.col`` (``6.5`` is the lagoon) and a safe island by its
corner (``NW``, ``NE``, ``SW``, ``SE``). The outline comes from ``data/board.json`` (spec §2).
"""

from __future__ import annotations

import json
import math
from importlib import resources
from typing import Any, Final

_DATA: dict[str, Any] = json.loads(
    resources.files(__package__).joinpath("data/board.json").read_text(encoding="utf-8")
)
BOARD_SOURCE: str = _DATA["source"]
BOARD_VERIFIED: bool = _DATA["verified"]

ROWS = 13
CELLS: tuple[tuple[int, int], ...] = tuple(
    (r, c) for r in range(ROWS) for c in range(*_DATA["valid_cols"][str(r)])
)
INDEX: dict[tuple[int, int], int] = {rc: i for i, rc in enumerate(CELLS)}
SIZE: Final = len(CELLS)

SAFE_NAMES: tuple[str, ...] = tuple(_DATA["safe_islands"])
SAFE_ISLANDS: tuple[int, ...] = tuple(INDEX[tuple(_DATA["safe_islands"][n])] for n in SAFE_NAMES)
IS_SAFE: Final[tuple[bool, ...]] = tuple(i in SAFE_ISLANDS for i in range(SIZE))

LAND: Final[tuple[int, ...]] = tuple(
    INDEX[(int(r), c)] for r, cols in _DATA["land"].items() for c in cols
)
LAGOON: int = INDEX[tuple(_DATA["lagoon"])]
SERPENT_START: tuple[int, ...] = tuple(INDEX[tuple(rc)] for rc in _DATA["serpent_start"])


def _neighbours(r: int, c: int) -> tuple[int, ...]:
    steps = (
        ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))
        if r % 2 == 0
        else ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))
    )
    return tuple(INDEX[(r + dr, c + dc)] for dr, dc in steps if (r + dr, c + dc) in INDEX)


NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(_neighbours(r, c) for r, c in CELLS)
"""Every neighbour of a hex, safe islands included."""

WATER_NEIGHBOURS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(n for n in NEIGHBOURS[i] if not IS_SAFE[n]) for i in range(SIZE)
)
"""Neighbours that can ever be sea (safe islands are never sea: B-1)."""


def _picks(hexes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every subset of `hexes`, in their order, numbered by bit mask (bit i: hexes[i])."""
    return tuple(
        tuple(n for i, n in enumerate(hexes) if mask >> i & 1) for mask in range(1 << len(hexes))
    )


PICKED: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    _picks(WATER_NEIGHBOURS[h]) for h in range(SIZE)
)
"""PICKED[h][mask]: the neighbours of h (`WATER_NEIGHBOURS[h]`) whose bits the mask sets, in
order. With `State.sea_near[h]` as the mask, h's sea neighbours: a constant tuple found by two
indexes, not a look at the terrain of each neighbour (movement, creatures and B-21 ask it at
every step)."""

BIT_BESIDE: Final[tuple[tuple[tuple[int, int], ...], ...]] = tuple(
    tuple((n, 1 << WATER_NEIGHBOURS[n].index(h)) for n in NEIGHBOURS[h]) if not IS_SAFE[h]
    else ()
    for h in range(SIZE)
)  # fmt: skip
"""BIT_BESIDE[h]: each neighbour n of a hex h that can be sea, with h's bit in n's mask
(`PICKED`): what changes beside h when its land tile is removed."""

ACCESS: Final[dict[int, int]] = {
    INDEX[tuple(rc)]: SAFE_ISLANDS[SAFE_NAMES.index(name)]
    for name, hexes in _DATA["access"].items()
    for rc in hexes
}
"""Access hex -> the safe island it touches."""


NAMES: Final[tuple[str, ...]] = tuple(
    SAFE_NAMES[SAFE_ISLANDS.index(i)] if IS_SAFE[i] else f"{CELLS[i][0]}.{CELLS[i][1]}"
    for i in range(SIZE)
)
"""Every hex as people write it, written once: events name hexes at every step."""


def name(i: int) -> str:
    """The hex as people write it: ``6.5``, or a safe island's corner."""
    return NAMES[i]


def parse(text: str) -> int:
    """The hex named ``row.col`` or by a safe island's corner; ValueError if there is none."""
    if text in SAFE_NAMES:
        return SAFE_ISLANDS[SAFE_NAMES.index(text)]
    try:
        r, c = (int(part) for part in text.split("."))
    except ValueError:
        raise ValueError(
            f"{text!r} is not a hex: write row.col, e.g. 6.5, or NW/NE/SW/SE"
        ) from None
    if (r, c) not in INDEX:
        raise ValueError(f"{text!r} is not on the board")
    return INDEX[(r, c)]


def plane(r: int, c: int) -> tuple[float, float]:
    """Where hex (r, c) is drawn, in hex units: circumradius 1, x right, y down, lagoon at 0, 0.

    The phone's SVG board and the camera's expected hex centres both come from here (spec §2).
    """
    return math.sqrt(3) * (c - 5.5 + (0.5 if r % 2 == 0 else 0.0)), 1.5 * (r - 6)


def distance(a: int, b: int) -> int:
    """Hexes between a and b (through any hex), in steps."""
    (ra, ca), (rb, cb) = CELLS[a], CELLS[b]
    # even-r offset to cube coordinates
    qa, qb = ca - (ra + (ra & 1)) // 2, cb - (rb + (rb & 1)) // 2
    dq, dr = qa - qb, ra - rb
    return max(abs(dq), abs(dr), abs(dq + dr))
