"""Setting up: the island laid tile by tile, then people, then boats (B-2 ... B-6; E-4 for the
1986 ruleset: people without values, one per beach tile, any number on the others)."""

from __future__ import annotations

from collections.abc import Sequence
from math import floor
from typing import Final

from . import board, chance, fivesix, pieces, rings
from .data import TERRAIN_COUNT, TERRAINS
from .errors import IllegalAction
from .events import Event, Events
from .state import CHANCE, LAID_SEA_NEAR, OFF, UNPLACED, Action, State, person_name


def tiles_left(s: State) -> list[tuple[str, int]]:
    """Each terrain that may still lie on the next land position, with how many of its tiles
    are still to be laid (B-2: 16 beach, 16 forest, 8 mountain)."""
    laid = s.standing  # tiles lie only on the positions laid so far, and none sinks at setup
    out: list[tuple[str, int]] = []
    for t in TERRAINS:
        n = TERRAIN_COUNT[t] - len(laid[t])
        if n > 0:
            out.append((t, n))
    return out


TILES: Final = sum(TERRAIN_COUNT.values())
"""The box's land tiles (B-2)."""


def drawn_terrain(s: State, pick: float) -> str:
    """The terrain that `Game.draw`'s number `pick` (in [0, 1)) falls on among `tiles_left`: the
    same walk over the same weights in the same order, without listing them (the list and a
    loop adding it up were half of the Python of a terrain's draw)."""
    laid = s.standing
    total = TILES - sum(map(len, laid.values()))  # tiles to lay: none sinks at setup
    for t in TERRAINS:
        # a terrain with none left is not among the weights; subtracting its 0 changes nothing
        pick -= (TERRAIN_COUNT[t] - len(laid[t])) / total  # as `Game.draw` walks them
        if pick < 0:
            return t
    return tiles_left(s)[-1][0]  # rounding left the number past the end: the last weight's


def legal_terrain(s: State) -> list[Action]:
    return [("terrain", t) for t, _ in tiles_left(s)]


def apply_terrain(s: State, action: Action, ev: Events) -> None:
    h = board.LAND[s.layout]
    t: str = action[1]
    s.terrain[h] = t
    s.occupants[h] += 1  # land now: no longer vacant sea
    s.standing[t].append(h)  # laid in `board.LAND`'s order
    s.empty_land.append(h)  # nobody stands on a tile just laid
    s.layout += 1
    if ev is not None:
        ev.append(Event("laid", {"hex": board.name(h), "terrain": action[1]}))
    if s.layout == len(board.LAND):
        _laid(s)


def _laid(s: State) -> None:
    """B-3: with the island laid, a serpent goes on each serpent space (the lagoon's, B-2)."""
    # the island is whole: the sea beside each hex is known without a look at the island
    s.sea_near = list(LAID_SEA_NEAR)
    serpents = [c for c, kind in enumerate(s.c_kind) if kind == "serpent"]
    for c, space in zip(serpents, board.SERPENT_START, strict=True):
        pieces.put_creature(s, c, space)
    s.phase, s.actor = "place", 0


def by_rings(s: State) -> bool:
    """E-5: is this 1986 island laid in rings by terrain (option layout_1986)?"""
    return s.is_1986 and s.rules.option("layout_1986") == "rings"


RING_TERRAIN = ("beach", "forest", "mountain")
"""E-5: the outer ring's terrain, the middle ring's, the inner ring's."""


def lay_rings(s: State) -> None:
    """E-5: the 1986 island is laid in rings, not at random: 22 beach tiles outside, 12 forest,
    6 mountain round the lagoon; nothing is left to chance, so setup starts with the people."""
    for ring, terrain in zip(rings.RINGS, RING_TERRAIN, strict=True):
        for h in ring:
            s.terrain[h] = terrain
    s.layout = len(board.LAND)
    s.reindex()  # rings are not in `board.LAND`'s order
    _laid(s)


def terrain_count(s: State) -> dict[str, int]:
    """How many tiles of each terrain the island has: the box's 16/16/8 (B-2), or 22/12/6 on
    a 1986 island laid by rings (E-5)."""
    if by_rings(s):
        return {t: len(r) for t, r in zip(RING_TERRAIN, rings.RINGS, strict=True)}
    return TERRAIN_COUNT


def values_left(s: State, seat: int) -> list[int]:
    """The values this seat has not placed yet, as a multiset (sorted)."""
    return [v for v, n in s.left_values[seat].items() for _ in range(n)]


def different_values_left(s: State, seat: int) -> list[int]:
    """`values_left` once each (what a person of the seat may still show or be told)."""
    return list(s.left_values[seat])  # kept by the state, counted by value in order


def next_unplaced(s: State, seat: int) -> int | None:
    kinds = s.p_kind
    for p in s.seat_people[seat]:  # not `people_of`: asked twice at every placement
        if kinds[p] == UNPLACED:
            return p
    return None


OUTER_COAST: frozenset[int] = frozenset(
    h
    for h in board.LAND
    if any(n not in board.LAND and n != board.LAGOON for n in board.NEIGHBOURS[h])
)
"""C-1: the 22 land positions that touch a sea space other than the lagoon at the start."""


def place_tiles(s: State) -> list[int]:
    """The land tiles the seat to place may put its next person on (B-5, C-1, P-2, P-4)."""
    if s.one_per_tile:
        return list(s.empty_land)  # B-5 alone (most games: nothing else to ask)
    seat = s.actor
    terrain, people = s.terrain, s.land_people
    if s.is_1986:  # E-4
        return [h for h in board.LAND if terrain[h] not in (None, "beach") or not people[h]]
    last = placing_last(s, seat)
    if not last and not fivesix.crowded(s.rules) and "densely-populated" not in s.rules.modules:
        return list(s.empty_land)  # B-5 alone
    full = island_full(s)  # only the kits ask it (P-4)
    return [h for h in board.LAND if placement_refusal(s, seat, h, full, last) is None]


def island_full(s: State) -> bool:
    """P-4: does every land tile hold a person?"""
    return all(s.land_people[h] for h in board.LAND if s.terrain[h] is not None)


def placing_last(s: State, seat: int) -> bool:
    """P-2: does this seat's last person, now to be placed, have to join another colour?"""
    if not fivesix.last_on_occupied(s, seat):
        return False  # most seats: no need to count (asked at every placement)
    return s.tally[seat][UNPLACED] == 1


def placement_refusal(s: State, seat: int, h: int, full: bool, last: bool) -> IllegalAction | None:
    """Why seat's next person may not go on tile h; None when it may. `full`: every tile holds
    a person; `last`: this is the seat's last person and P-2 applies to it.

    B-5: one person per tile. C-1 (Densely Populated): up to two, of any colours, except on the
    outer coast. P-2 (6 players): the last person of seats 5 and 6 joins a tile that holds a
    person, none of its own colour (a tile with two is not excluded, and the kit's text takes
    precedence over C-1's limit). P-4 (Overpopulated!): once every tile holds a person, a
    second may join one — never a tile with two, never one with a person of its own colour.
    """
    if s.terrain[h] is None:
        return IllegalAction("B-5", f"{board.name(h)} is not a land tile")
    here = s.land_people[h]
    if s.is_1986:
        if here and s.terrain[h] == "beach":
            return IllegalAction("E-4", f"{board.name(h)} is a beach tile, which takes one person")
        return None
    if last:
        if not here:
            return IllegalAction(
                "P-2", f"seat {seat + 1}'s last person goes onto a tile that already holds a person"
            )
        if any(p // 10 == seat for p in here):
            return IllegalAction(
                "P-2", f"seat {seat + 1}'s last person may not join a person of its own colour"
            )
        return None
    if not here:
        return None
    dense = "densely-populated" in s.rules.modules
    if dense and len(here) < (1 if h in OUTER_COAST else 2):
        return None
    name = board.name(h)
    crowded = fivesix.crowded(s.rules)
    if crowded and full:
        if len(here) >= 2:
            return IllegalAction("P-4", f"{name} already holds two people")
        if any(p // 10 == seat for p in here):
            return IllegalAction(
                "P-4", f"{name} already holds a person of seat {seat + 1}'s colour"
            )
        return None
    if crowded and not dense:
        return IllegalAction(
            "P-4", f"{name} already holds a person; a second may join only once the island is full"
        )
    if dense:
        if h in OUTER_COAST:
            return IllegalAction("C-1", f"{name} is on the outer coast, which takes one person")
        return IllegalAction("C-1", f"{name} already holds two people")
    return IllegalAction("B-5", f"{name} already holds a person")


def legal_place(s: State) -> list[Action]:
    values = place_values(s)
    return [("place", h, v) for h in place_tiles(s) for v in values]


def random_place(s: State, draw: chance.Draw) -> Action:
    """One of `legal_place`'s actions, each equally likely: a tile and a value drawn on their
    own (the legal actions are every pair of them), without listing every pair; each
    `chance.choose`, written out (asked at every placement)."""
    # B-5 alone (most games): the empty tiles themselves, not `place_tiles`' copy of them
    tiles = s.empty_land if s.one_per_tile else place_tiles(s)
    values = place_values(s)
    return ("place", tiles[floor(draw() * len(tiles))], values[floor(draw() * len(values))])


def place_values(s: State) -> Sequence[int | None]:
    """The values the next person may show: any the seat has left (B-5), or none at all when
    the companion is not told them (physical) or people carry none (E-4)."""
    if s.mode == "physical" or s.is_1986:
        return [None]
    return different_values_left(s, s.actor)


def apply_place(s: State, action: Action, ev: Events) -> None:
    h: int = action[1]  # typed, as in movement.apply_step
    value: int | None = action[2]
    seat = s.actor
    p = next_unplaced(s, seat)
    assert p is not None
    s.p_value[p] = value
    if value is not None:
        s.take_value(s.left_values[seat], value)
    if not s.land_people[h]:
        s.empty_land.remove(h)
    pieces.to_land(s, p, h)
    if ev is not None:
        see = seat if s.rules.option("own_values_visible") == "yes" else None
        secret = {} if value is None else {"value": value}
        ev.append(Event("placed", {"person": person_name(p), "hex": board.name(h)}, secret, see))
    _next_placer(s, "place")


def _next_placer(s: State, phase: str) -> None:
    """Turn order, one piece at a time; a seat with nothing left to place is passed over (P-3)."""
    n = s.players
    for step in range(1, n + 1):
        seat = (s.actor + step) % n
        # people: `_has_to_place` without its call (asked at every placement)
        if s.tally[seat][UNPLACED] > 0 if phase == "place" else _has_to_place(s, seat, phase):
            s.actor = seat
            return
    if phase == "place":
        s.phase, s.actor = "boat", 0
        s.empty_land = []  # see `State.reindex`: people now leave and tiles sink unrecorded
        if not _has_to_place(s, 0, "boat"):
            _next_placer(s, "boat")
    else:
        s.phase = "start"


def _has_to_place(s: State, seat: int, phase: str) -> bool:
    if phase == "place":
        return s.tally[seat][UNPLACED] > 0  # counted by the pieces: no walk over the seat's people
    return boats_placed(s, seat) < fivesix.boats_for(s, seat)  # P-1, P-2, P-3


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
    return s.vacant_spaces(COAST)


def legal_boat(s: State) -> list[Action]:
    return [("boat", h) for h in boat_spaces(s)]


def random_boat(s: State, draw: chance.Draw) -> Action:
    """`chance.pick` of `legal_boat` (the same draw of the same list), without an action
    built for every space."""
    return ("boat", chance.choose(draw, boat_spaces(s)))


def apply_boat(s: State, action: Action, ev: Events) -> None:
    h = action[1]
    b = s.b_pos.index(OFF)
    s.b_pos[b] = h
    s.boat_at[h] = b
    s.occupants[h] += 1
    s.recontrol(b)
    counts = s.ctx.setdefault("boats", [0] * s.players)
    counts[s.actor] += 1
    if ev is not None:
        ev.append(
            Event("boat_placed", {"seat": s.actor, "boat": f"b{b + 1}", "hex": board.name(h)})
        )
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
        refusal = placement_refusal(s, s.actor, h, island_full(s), placing_last(s, s.actor))
        if refusal is not None:
            return refusal
        if s.is_1986:
            return IllegalAction("E-4", "people have no values in the 1986 ruleset: place with =?")
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
