"""The Giant Squid's attack after any of its moves (Q-4): it drives off a whale and takes one
person beside it. Used by the die, the dive dice and the move-whale tile alike."""

from __future__ import annotations

from . import board, pieces
from .events import Event, Events
from .state import OFF, State


def strikes(s: State, c: int, ev: Events) -> None:
    """Q-4: a whale in the squid's space goes; then one person next to it (on one adjacent land
    tile, or in the boat in its space) is taken, the mover choosing whom."""
    h = s.c_pos[c]
    for w in [x for x in s.on_board("whale") if s.c_pos[x] == h]:
        if ev is not None:
            ev.append(Event("whale_removed", {"whale": pieces.creature(s, w), "by": pieces.creature(s, c),
                                              "hex": board.name(h)}))  # fmt: skip
        pieces.remove_creature(s, w)
    if prey(s, c, boat=True):
        pieces.interrupt(s, {"kind": "grab", "actor": s.turn, "squid": c, "boat": True,
                             "optional": False})  # fmt: skip


def prey(s: State, c: int, *, boat: bool) -> list[int]:
    """Who a squid may take: people on the land tiles beside it, and (after a move, Q-4) those in
    the boat in its space."""
    h = s.c_pos[c]
    out = [p for n in board.WATER_NEIGHBOURS[h] for p in s.land_people[n]]
    b = s.boat_at[h]
    if boat and b != OFF:
        out.extend(s.b_people[b])
    return out
