"""Step 2 of a turn: up to three movement points for people and boats (B-8, B-11 ... B-19).

In the 1986 ruleset a safe island has one entrance (E-7), and a swimmer beside a dolphin may ride
it up to three sea spaces in a turn instead of swimming one (E-3).
"""

from __future__ import annotations

from math import floor
from typing import Final

from . import board, chance, pieces
from .errors import IllegalAction
from .events import Event, Events
from .state import BOAT, DONE, LAND, OFF, SEA, Action, State, person_name

BOAT_CAPACITY: Final = 3  # B-13
RIDE_1986 = 3  # E-3: a dolphin carries a swimmer up to three spaces a turn


def person_moves(s: State, p: int, out: list[Action]) -> None:
    """Every one-point move of person p (B-12, B-15, B-16)."""
    kind, at = s.p_kind[p], s.p_at[p]
    terrain, boat_at, b_people = s.terrain, s.boat_at, s.b_people
    if kind == LAND:  # `_kth_from_land` counts these in this order: keep the two in step
        for n in board.WATER_NEIGHBOURS[at]:
            out.append(("move", p, n))  # onto land, or into the sea as a swimmer
            if terrain[n] is None:
                b = boat_at[n]
                if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                    out.append(("board", p, b))
    elif kind == BOAT:  # `_kth_afloat` counts these and a swimmer's: keep the three in step
        h = s.b_pos[at]
        if p not in s.swam:
            out.append(("move", p, h))  # over the side, into the boat's own space
        for n in board.WATER_NEIGHBOURS[h]:
            b = boat_at[n]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                out.append(("board", p, b))
        island = s.access.get(h)
        if island is not None:
            out.append(("move", p, island))
    elif kind == SEA:
        fresh = p not in s.swam
        if fresh:
            guarded = bool(s.guard) and s.guardian(p) is not None
            for n in board.PICKED[at][s.sea_near[at]]:
                out.append(("move", p, n))
                if guarded:  # D-8: or with its dolphin
                    out.append(("ride", p, n))
        if fresh or s.rules.option("swimmer_after_swim") == "yes":
            b = boat_at[at]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                out.append(("board", p, b))
            island = s.access.get(at)
            if island is not None:
                out.append(("move", p, island))
        if s.n_dolphin[at] and s.is_1986 and rides_left(s, p):
            out.extend(("ride", p, n) for n in board.PICKED[at][s.sea_near[at]])


def boat_moves(s: State, b: int, out: list[Action]) -> None:
    """B-13: one space into a sea space without a boat; Q-6: an occupied boat never into a
    squid's space."""
    boat_at, squids = s.boat_at, s.n_squid
    occupied = bool(s.b_people[b])
    h = s.b_pos[b]
    for n in board.PICKED[h][s.sea_near[h]]:  # `_kth_sail` counts these: keep in step
        if boat_at[n] == OFF and not (occupied and squids[n]):
            out.append(("sail", b, n))


def _kth_sail(s: State, b: int, k: int) -> Action | None:
    """`boat_moves`' move number k of boat b, None when it has no more: counted in the same
    order, building only the move drawn."""
    boat_at, squids = s.boat_at, s.n_squid
    occupied = bool(s.b_people[b])
    h = s.b_pos[b]
    for n in board.PICKED[h][s.sea_near[h]]:
        if boat_at[n] == OFF and not (occupied and squids[n]):
            if k == 0:
                return ("sail", b, n)
            k -= 1
    return None


MOST_MOVES: Final[tuple[int, ...]] = (0, 12, 8, 20, 0, 0)
"""By place kind (`UNPLACED`, `LAND`, `BOAT`, `SEA`, `SAVED`, `LOST`: none off the board; a
tuple, not a dict: compiled, indexing it is cheap. Typed of any length: compiled, a tuple of
six ints is kept unboxed and was boxed again, a new tuple, at every index by a variable)."""
MOST_SAILS: Final = 6
"""The most one-point moves a piece can have: a person on land, onto or (boarding) beside each
of its six neighbours; in a boat, over the side, into six boats beside it or onto a safe
island; a swimmer, six swims, six rides with its dolphin (D-8) or on one (E-3), a boat or an
island in its space; a boat, six sails (`random_move` relies on these being upper bounds)."""


def movers(s: State) -> tuple[list[int], list[int]]:
    """What the seat to move may move: its people on the board, and the boats it controls."""
    seat = s.turn
    kinds = s.p_kind
    people = [p for p in s.people_of(seat) if kinds[p] in (LAND, BOAT, SEA)]
    return people, s.sailable[seat]  # the boats it controls (B-14), kept by the state


def legal(s: State) -> list[Action]:
    out: list[Action] = []
    people, boats = movers(s)
    for p in people:
        person_moves(s, p, out)
    for b in boats:
        boat_moves(s, b, out)
    out.append(DONE)
    return out


def can_move(s: State) -> bool:
    """Has the seat to move any move at all? `legal`'s walk, stopping at the first move found:
    asked after every action, where the list is not needed."""
    seat = s.turn
    if s.tally[seat][LAND]:
        # a person on land may always move: every hex but the safe islands has three or more
        # neighbours that are land or sea (B-12), so no person need be looked at
        return True
    kinds = s.p_kind
    for p in s.seat_people[seat]:
        if kinds[p] in (BOAT, SEA) and _kth_afloat(s, p, 0) is not None:
            return True
    for b in s.sailable[seat]:  # noqa: SIM110 (a loop: not any() over a generator, a call per boat)
        if _kth_sail(s, b, 0) is not None:
            return True
    return False


def random_move(s: State, draw: chance.Draw) -> Action:
    """One of `legal`'s actions, each equally likely, without listing them all (listing every
    move of every piece at every movement point was a random playout's largest cost).

    Each piece has as many slots as the most moves it can have (`MOST_MOVES`), "done" has one:
    a slot drawn uniformly is that piece's move of that number or, past its last move, is drawn
    again. Every legal action has exactly one slot, so each is equally likely."""
    # `movers`' people are the seat's with a bound: the others (not on the board) have none,
    # so they take no slot and the draw below passes them by, without lists of its own
    kinds = s.p_kind
    seat_people = s.seat_people[s.turn]
    tally = s.tally[s.turn]  # how many of them are on land, in boats, swimming
    people_slots = (
        tally[LAND] * MOST_MOVES[LAND]
        + tally[BOAT] * MOST_MOVES[BOAT]
        + tally[SEA] * MOST_MOVES[SEA]
    )
    boats = s.sailable[s.turn]  # the boats it controls (B-14)
    sails = len(boats) * MOST_SAILS
    slots = people_slots + sails + 1  # the last one is "done"'s
    while True:
        k = floor(draw() * slots)  # `int`'s number (draws are not negative), without a type's call
        if k < people_slots:
            for p in seat_people:
                bound = MOST_MOVES[kinds[p]]
                if k < bound:  # its k-th move, found without listing its moves
                    if kinds[p] == LAND:
                        move = _kth_from_land(s, p, k)
                    else:
                        move = _kth_afloat(s, p, k)
                    if move is not None:
                        return move
                    break  # past its last move: drawn again
                k -= bound
        else:  # a boat's slot, or the last one, "done": the people's are not walked through
            k -= people_slots
            if k == sails:
                return DONE
            sail = _kth_sail(s, boats[k // MOST_SAILS], k % MOST_SAILS)
            if sail is not None:
                return sail
            # past the boat's last sail: drawn again


def _kth_from_land(s: State, p: int, k: int) -> Action | None:
    """`person_moves`' move number k of person p on land, None when it has no more: counted in
    the same order, building only the move drawn (a move for each neighbour, each followed by
    boarding the boat there when it has room)."""
    at = s.p_at[p]
    boat_at, b_people = s.boat_at, s.b_people
    near = board.WATER_NEIGHBOURS[at]
    # Only a sea neighbour can hold a boat (most land has none beside it): with no boat that
    # has room there, the moves are the neighbours themselves, move k is neighbour k, found by
    # its index (not walked to: half the draws fall past a person's last move)
    for n in board.PICKED[at][s.sea_near[at]]:
        b = boat_at[n]
        if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
            break
    else:
        return ("move", p, near[k]) if k < len(near) else None
    terrain = s.terrain
    for n in near:
        if k == 0:
            return ("move", p, n)
        k -= 1
        if terrain[n] is None:
            b = boat_at[n]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                if k == 0:
                    return ("board", p, b)
                k -= 1
    return None


def _kth_afloat(s: State, p: int, k: int) -> Action | None:
    """`person_moves`' move number k of person p in a boat or swimming, None when it has no
    more: counted in the same order, building only the move found. Most draws fall past a
    swimmer's few moves (a swimmer that swam has at most two of its twenty slots): listing
    them all at every draw was the largest part of a random movement point."""
    kind, at = s.p_kind[p], s.p_at[p]
    boat_at, b_people, access = s.boat_at, s.b_people, s.access
    if kind == BOAT:
        h = s.b_pos[at]
        if p not in s.swam:
            if k == 0:
                return ("move", p, h)
            k -= 1
        for n in board.PICKED[h][s.sea_near[h]]:  # only sea holds boats
            b = boat_at[n]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                if k == 0:
                    return ("board", p, b)
                k -= 1
        return ("move", p, access[h]) if k == 0 and h in access else None
    fresh = p not in s.swam
    if fresh:
        # the swims, each found by its index, not walked to (most draws fall past them)
        seas = board.PICKED[at][s.sea_near[at]]
        if s.guard and s.guardian(p) is not None:  # D-8: each swim, then the same with its dolphin
            if k < 2 * len(seas):
                return ("ride" if k % 2 else "move", p, seas[k // 2])
            k -= 2 * len(seas)
        elif k < len(seas):
            return ("move", p, seas[k])
        else:
            k -= len(seas)
    if fresh or s.rules.options["swimmer_after_swim"] == "yes":
        b = boat_at[at]
        if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
            if k == 0:
                return ("board", p, b)
            k -= 1
        if at in access:  # `in`, then [ ]: most spaces are no access space, asked without a call
            if k == 0:
                return ("move", p, access[at])
            k -= 1
    if s.n_dolphin[at] and s.is_1986 and rides_left(s, p):
        seas = board.PICKED[at][s.sea_near[at]]
        return ("ride", p, seas[k]) if k < len(seas) else None
    return None


def apply(s: State, action: Action, ev: Events) -> None:
    verb: str = action[0]
    if verb == "done":
        s.points = 0
    else:
        apply_step(s, action, ev)
        s.points -= 1
    if s.points == 0:
        s.phase, s.actor = "sink", s.turn


def apply_step(s: State, action: Action, ev: Events, *, uses_swim: bool = True) -> None:
    """One point's move (shared with the dolphin and winds tiles, whose moves use no swim)."""
    # An action's parts are typed Any: named with their types, compiled code compares and
    # indexes with them natively instead of through generic calls.
    verb: str = action[0]
    x: int = action[1]
    to: int = action[2]
    if verb == "sail":
        if ev is not None:
            ev.append(
                Event(
                    "sailed",
                    {"boat": f"b{x + 1}", "from": board.name(s.b_pos[x]), "to": board.name(to)},
                )
            )
        pieces.boat_to(s, x, to, ev)
        return
    # where the person was, in words, only for the events (none built in a random playout)
    frm = where(s, x) if ev is not None else ""
    if verb == "move":  # the commonest, with sailing: asked first
        if ev is not None:
            ev.append(Event("moved", {"person": person_name(x), "from": frm, "to": board.name(to)}))
        if board.IS_SAFE[to]:
            pieces.save(s, x, to, ev)
        elif s.terrain[to] is not None:
            pieces.to_land(s, x, to)
        else:
            pieces.swim(s, [x], to, ev, by_choice=uses_swim)
        return
    if verb == "board":
        if ev is not None:
            ev.append(
                Event("boarded", {"person": person_name(x), "boat": f"b{to + 1}", "from": frm})
            )
        empty = not s.b_people[to]
        pieces.to_boat(s, x, to)
        h = s.b_pos[to]
        danger = s.n_serpent[h] or s.n_whale[h]
        if empty and danger and s.rules.option("boarding_in_danger") == "same-as-moving-in":
            pieces.wreck(s, to, "serpent" if s.n_serpent[h] else "whale", ev)
        return
    assert verb == "ride"  # the one verb left
    if s.is_1986:  # E-3: on the dolphin in the swimmer's own space
        _ride_1986(s, x, to, ev)
        return
    # D-8: with its dolphin, which comes along, and its protection with it
    d = s.guardian(x)
    assert d is not None
    if ev is not None:
        ev.append(Event("rode", {"person": person_name(x), "dolphin": pieces.creature(s, d),
                                 "from": frm, "to": board.name(to)}))  # fmt: skip
    pieces.put_creature(s, d, to)
    pieces.swim(s, [x], to, ev, by_choice=uses_swim, keep_guard=True)


def rides_left(s: State, p: int) -> int:
    """E-3: spaces swimmer p may still ride this turn: three if it has not moved, what is left of
    three if it is riding, none once it swam."""
    if p not in s.swam:
        return RIDE_1986
    for q, n in s.ctx.get("rides", ()):
        if q == p:
            return int(RIDE_1986 - n)
    return 0


def _ride_1986(s: State, p: int, to: int, ev: Events) -> None:
    """E-3: a dolphin in the swimmer's space carries it one space; it protects it from nothing."""
    at = s.p_at[p]
    d = next(c for c, pos in enumerate(s.c_pos) if pos == at and s.c_kind[c] == "dolphin")
    rides: list[list[int]] = s.ctx.setdefault("rides", [])
    mine = next((r for r in rides if r[0] == p), None)
    if mine is None:
        rides.append([p, 1])
    else:
        mine[1] += 1
    if ev is not None:
        ev.append(Event("rode", {"person": person_name(p), "dolphin": pieces.creature(s, d),
                                 "from": board.name(at), "to": board.name(to)}))  # fmt: skip
    pieces.put_creature(s, d, to)
    pieces.swim(s, [p], to, ev, by_choice=True)


def where(s: State, p: int) -> str:
    """Where person p stands, as people write it."""
    kind, at = s.p_kind[p], s.p_at[p]
    return f"b{at + 1}" if kind == BOAT else board.name(at)


def explain(s: State, action: Action) -> IllegalAction:
    """Why a movement action is refused: the rule it breaks."""
    verb, x = action[0], action[1]
    seat = s.turn
    if verb == "sail":
        if s.b_pos[x] == OFF:
            return IllegalAction("B-13", f"boat b{x + 1} is not on the board")
        if not s.controls(seat, x):
            return IllegalAction("B-14", f"seat {seat + 1} does not control boat b{x + 1}")
        to = action[2]
        if to not in board.NEIGHBOURS[s.b_pos[x]]:  # an adjacent safe island: refused below
            return IllegalAction("B-13", "a boat moves one space per point")
        if not s.is_sea(to):
            return IllegalAction(
                "B-13", f"a boat never enters land or a safe island ({board.name(to)})"
            )
        if s.boat_at[to] == OFF and s.n_squid[to]:
            return IllegalAction("Q-6", "an occupied boat may not move into a giant squid's space")
        return IllegalAction("B-13", f"{board.name(to)} already holds a boat (one boat per space)")
    if x // 10 != seat:
        return IllegalAction("B-8", f"{person_name(x)} is not one of seat {seat + 1}'s people")
    kind = s.p_kind[x]
    if kind not in (LAND, BOAT, SEA):
        return IllegalAction("B-19", f"{person_name(x)} is no longer on the board")
    to = action[2]
    if verb == "ride" and s.is_1986:
        if kind != SEA or not s.n_dolphin[s.p_at[x]]:
            return IllegalAction("E-3", f"{person_name(x)} is not a swimmer beside a dolphin")
        if not rides_left(s, x):
            return IllegalAction("E-3", "a dolphin carries a swimmer at most 3 spaces a turn, "
                                        "and not one that already swam")  # fmt: skip
        return IllegalAction("E-3", "a dolphin carries its swimmer one sea space per point")
    if verb == "ride":
        if kind != SEA or s.guardian(x) is None:
            return IllegalAction("D-8", f"{person_name(x)} is not a swimmer a dolphin protects")
        if x in s.swam:
            return IllegalAction("D-8", "with its dolphin a swimmer still moves one space per turn")
        return IllegalAction("D-8", "a dolphin goes along one sea space, never onto land or a boat")
    if verb == "board":
        if s.b_pos[to] == OFF:
            return IllegalAction("B-12", f"boat b{to + 1} is not on the board")
        if len(s.b_people[to]) >= BOAT_CAPACITY:
            return IllegalAction("B-13", f"boat b{to + 1} is full (3 people)")
        if kind == SEA:
            if s.b_pos[to] != s.p_at[x]:
                return IllegalAction("B-16", "a swimmer boards only a boat in its own space")
            return IllegalAction("B-16", f"{person_name(x)} already swam this turn")
        return IllegalAction("B-12", f"boat b{to + 1} is not next to {person_name(x)}")
    if kind == LAND:
        if board.IS_SAFE[to] or to not in board.NEIGHBOURS[s.p_at[x]]:
            return IllegalAction("B-12", "a person on land moves to an adjacent space")
        return IllegalAction("B-12", "illegal move from land")
    if kind == BOAT:
        if board.IS_SAFE[to]:
            return _closed(s, s.b_pos[s.p_at[x]], to) or IllegalAction(
                "B-15", "the boat is not on an access space of that safe island"
            )
        if s.terrain[to] is not None:
            return IllegalAction("B-12", "once off the island a person never returns to land")
        if to == s.b_pos[s.p_at[x]]:
            return IllegalAction("B-16", f"{person_name(x)} already swam this turn")
        return IllegalAction("B-15", "from a boat a person boards a boat next to it or swims")
    if board.IS_SAFE[to]:
        if s.access.get(s.p_at[x]) != to:
            return _closed(s, s.p_at[x], to) or IllegalAction(
                "B-16", "a swimmer reaches a safe island only from its access space"
            )
        return IllegalAction("B-16", f"{person_name(x)} already swam this turn")
    if s.terrain[to] is not None:
        return IllegalAction("B-12", "once off the island a person never returns to land")
    if x in s.swam:
        return IllegalAction(
            "B-16", f"{person_name(x)} already swam this turn (one sea space per turn)"
        )
    return IllegalAction("B-16", "a swimmer moves one sea space")


def _closed(s: State, h: int, island: int) -> IllegalAction | None:
    """E-7: the refusal of a landing from h, a printed access hex that the 1986 board closes."""
    if board.ACCESS.get(h) != island:
        return None
    gate = next(x for x, i in s.access.items() if i == island)
    return IllegalAction(
        "E-7", f"{board.name(island)} has one entrance on the 1986 board: {board.name(gate)}"
    )
