"""The 1986 island sinks ring by ring, from the outside in, whatever the terrain (E-5).

The rings come from the board's geometry: hex distance from the lagoon. The outer ring is the 22
land positions at distance 3 or 4, then the 12 at distance 2, then the 6 next to the lagoon. In
the current ring an empty tile goes before any tile with people on it.
"""

from __future__ import annotations

from . import board
from .errors import IllegalAction
from .state import State

RINGS: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in board.LAND if board.distance(h, board.LAGOON) in far)
    for far in ((3, 4), (2,), (1,))
)
"""The land positions of each ring, outermost first."""

RING_OF: dict[int, int] = {h: i for i, ring in enumerate(RINGS) for h in ring}


def current(s: State) -> tuple[int, ...]:
    """The tiles left in the outermost ring that still has any (empty when the island is gone)."""
    terrain = s.terrain
    for ring in RINGS:
        tiles = tuple(h for h in ring if terrain[h] is not None)
        if tiles:
            return tiles
    return ()


def candidates(s: State) -> list[int]:
    """E-5: an empty tile of the current ring; a tile with people only when none is left."""
    tiles = current(s)
    people = s.land_people
    return [h for h in tiles if not people[h]] or list(tiles)


def refusal(s: State, h: int) -> IllegalAction:
    """Why tile h may not be sunk now (it holds land: the caller checked)."""
    name = board.name(h)
    tiles = current(s)
    if h not in tiles:
        ring = RING_OF[tiles[0]] + 1
        return IllegalAction(
            "E-5", f"{name} is in an inner ring: ring {ring} from the outside sinks first"
        )
    empty = board.name(candidates(s)[0])
    return IllegalAction("E-5", f"{name} holds people: empty tiles of its ring first, e.g. {empty}")
