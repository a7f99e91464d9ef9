"""Setting up: the island laid tile by tile, then people, then boats (B-2 ... B-6)."""

from __future__ import annotations

from collections import Counter

from . import board, pieces
from .data import BOATS_PER_PLAYER, PEOPLE_VALUES, TERRAIN_COUNT, TERRAINS
from .errors import IllegalAction
from .events import Event
from .state import CHANCE, LAND, OFF, UNPLACED, Action, State, person_name


def terrain_laid(s: State) -> Counter[str | None]:
    return Counter(s.terrain[h] for h in board.LAND[: s.layout])


def terrain_left(s: State) -> list[str]:
    """Terrains that may still lie on the next land position (B-2: 16 beach, 16 forest, 8 mountain)."""
    laid = terrain_laid(s)
    return [t for t in TERRAINS if laid[t] < TERRAIN_COUNT[t]]


def legal_terrain(s: State) -> list[Action]:
    return [("terrain", t) for t in terrain_left(s)]


def apply_terrain(s: State, action: Action, ev: list[Event]) -> None:
    h = board.LAND[s.layout]
    s.terrain[h] = action[1]
    s.layout += 1
    ev.append(Event("laid", {"hex": board.name(h), "terrain": action[1]}))
    if s.layout == len(board.LAND):
        # B-3: with the island laid, a serpent goes on each serpent space (the lagoon's, B-2)
        serpents = [c for c, kind in enumerate(s.c_kind) if kind == "serpent"]
        for c, space in zip(serpents, board.SERPENT_START, strict=True):
            pieces.put_creature(s, c, space)
        s.phase, s.actor = "place", 0


def values_left(s: State, seat: int) -> list[int]:
    """The values this seat has not placed yet, as a multiset (sorted)."""
    left = Counter(PEOPLE_VALUES)
    for p in s.people_of(seat):
        value = s.p_value[p]
        if value is not None:
            left[value] -= 1
    return sorted(left.elements())


def next_unplaced(s: State, seat: int) -> int | None:
    for p in s.people_of(seat):
        if s.p_kind[p] == UNPLACED:
            return p
    return None


def free_land(s: State) -> list[int]:
    """B-5: a person goes on a land tile with no person on it."""
    return [h for h in board.LAND if s.terrain[h] is not None and not s.land_people[h]]


def legal_place(s: State) -> list[Action]:
    tiles = free_land(s)
    if s.mode == "physical":
        return [("place", h, None) for h in tiles]
    values = sorted(set(values_left(s, s.actor)))
    return [("place", h, v) for h in tiles for v in values]


def apply_place(s: State, action: Action, ev: list[Event]) -> None:
    _, h, value = action
    seat = s.actor
    p = next_unplaced(s, seat)
    assert p is not None
    s.p_value[p] = value
    s.p_kind[p] = LAND
    s.p_at[p] = h
    s.land_people[h].append(p)
    see = seat if s.rules.option("own_values_visible") == "yes" else None
    secret = {} if value is None else {"value": value}
    ev.append(Event("placed", {"person": person_name(p), "hex": board.name(h)}, secret, see))
    _next_placer(s, "place")


def _next_placer(s: State, phase: str) -> None:
    """Turn order, one piece at a time; a seat with nothing left to place is passed over (P-3)."""
    n = s.players
    for step in range(1, n + 1):
        seat = (s.actor + step) % n
        if _has_to_place(s, seat, phase):
            s.actor = seat
            return
    if phase == "place":
        s.phase, s.actor = "boat", 0
        if not _has_to_place(s, 0, "boat"):
            _next_placer(s, "boat")
    else:
        s.phase = "start"


def _has_to_place(s: State, seat: int, phase: str) -> bool:
    if phase == "place":
        return next_unplaced(s, seat) is not None
    return boats_placed(s, seat) < BOATS_PER_PLAYER


def boats_placed(s: State, seat: int) -> int:
    return int(s.ctx.get("boats", [0] * s.players)[seat])


COAST = tuple(
    h
    for h in range(board.SIZE)
    if h not in board.LAND
    and not board.IS_SAFE[h]
    and any(n in board.LAND for n in board.WATER_NEIGHBOURS[h])
)
"""Sea spaces next to a land position: at setup every land position holds a tile."""


def boat_spaces(s: State) -> list[int]:
    """B-6: a vacant sea space next to a land tile."""
    return [h for h in COAST if s.vacant(h)]


def legal_boat(s: State) -> list[Action]:
    return [("boat", h) for h in boat_spaces(s)]


def apply_boat(s: State, action: Action, ev: list[Event]) -> None:
    h = action[1]
    b = s.b_pos.index(OFF)
    s.b_pos[b] = h
    s.boat_at[h] = b
    counts = s.ctx.setdefault("boats", [0] * s.players)
    counts[s.actor] += 1
    ev.append(Event("boat_placed", {"seat": s.actor, "boat": f"b{b + 1}", "hex": board.name(h)}))
    _next_placer(s, "boat")
    if s.phase == "start":
        s.ctx = {}


def explain(s: State, action: Action) -> IllegalAction:
    """Why a setup action is refused."""
    verb = action[0]
    if verb == "terrain":
        return IllegalAction(
            "B-2", f"no {action[1]} tile is left to lay (16 beach, 16 forest, 8 mountain)"
        )
    if verb == "place":
        _, h, value = action
        if s.terrain[h] is None:
            return IllegalAction("B-5", f"{board.name(h)} is not a land tile")
        if s.land_people[h]:
            return IllegalAction("B-5", f"{board.name(h)} already holds a person")
        if (value is None) != (s.mode == "physical"):
            what = "no value" if s.mode == "physical" else "the value chosen"
            return IllegalAction("B-5", f"in {s.mode} mode a placement carries {what}")
        return IllegalAction("B-5", f"seat {s.actor + 1} has no person of value {value} left")
    h = action[1]
    if not s.is_sea(h):
        return IllegalAction("B-6", f"{board.name(h)} is not a sea space")
    if not s.vacant(h):
        return IllegalAction("B-6", f"{board.name(h)} is not vacant")
    return IllegalAction("B-6", f"{board.name(h)} does not touch a land tile")


__all__ = ["CHANCE"]
