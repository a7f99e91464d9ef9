"""Step 2 of a turn: up to three movement points for people and boats (B-8, B-11 ... B-19)."""

from __future__ import annotations

from . import board, pieces
from .errors import IllegalAction
from .events import Event
from .state import BOAT, LAND, OFF, SEA, Action, State, person_name

BOAT_CAPACITY = 3  # B-13


def person_moves(s: State, p: int, out: list[Action]) -> None:
    """Every one-point move of person p (B-12, B-15, B-16)."""
    kind, at = s.p_kind[p], s.p_at[p]
    terrain, boat_at, b_people = s.terrain, s.boat_at, s.b_people
    if kind == LAND:
        for n in board.WATER_NEIGHBOURS[at]:
            out.append(("move", p, n))  # onto land, or into the sea as a swimmer
            if terrain[n] is None:
                b = boat_at[n]
                if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                    out.append(("board", p, b))
    elif kind == BOAT:
        h = s.b_pos[at]
        if p not in s.swam:
            out.append(("move", p, h))  # over the side, into the boat's own space
        for n in board.WATER_NEIGHBOURS[h]:
            b = boat_at[n]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                out.append(("board", p, b))
        island = board.ACCESS.get(h)
        if island is not None:
            out.append(("move", p, island))
    elif kind == SEA:
        fresh = p not in s.swam
        if fresh:
            guarded = bool(s.guard) and s.guardian(p) is not None
            for n in board.WATER_NEIGHBOURS[at]:
                if terrain[n] is None:
                    out.append(("move", p, n))
                    if guarded:  # D-8: or with its dolphin
                        out.append(("ride", p, n))
        if fresh or s.rules.option("swimmer_after_swim") == "yes":
            b = boat_at[at]
            if b != OFF and len(b_people[b]) < BOAT_CAPACITY:
                out.append(("board", p, b))
            island = board.ACCESS.get(at)
            if island is not None:
                out.append(("move", p, island))


def boat_moves(s: State, b: int, out: list[Action]) -> None:
    """B-13: one space into a sea space without a boat; Q-6: an occupied boat never into a
    squid's space."""
    terrain, boat_at, squids = s.terrain, s.boat_at, s.n_squid
    occupied = bool(s.b_people[b])
    for n in board.WATER_NEIGHBOURS[s.b_pos[b]]:
        if terrain[n] is None and boat_at[n] == OFF and not (occupied and squids[n]):
            out.append(("sail", b, n))


def legal(s: State) -> list[Action]:
    seat = s.turn
    out: list[Action] = []
    for p in s.people_of(seat):
        if s.p_kind[p] in (LAND, BOAT, SEA):
            person_moves(s, p, out)
    for b, pos in enumerate(s.b_pos):
        if pos != OFF and seat in s.controllers(b):
            boat_moves(s, b, out)
    out.append(("done",))
    return out


def apply(s: State, action: Action, ev: list[Event]) -> None:
    verb = action[0]
    if verb == "done":
        s.points = 0
    else:
        apply_step(s, action, ev)
        s.points -= 1
    if s.points == 0:
        s.phase, s.actor = "sink", s.turn


def apply_step(s: State, action: Action, ev: list[Event], *, uses_swim: bool = True) -> None:
    """One point's move (shared with the dolphin and winds tiles, whose moves use no swim)."""
    verb, x, to = action
    if verb == "sail":
        ev.append(
            Event(
                "sailed",
                {"boat": f"b{x + 1}", "from": board.name(s.b_pos[x]), "to": board.name(to)},
            )
        )
        pieces.boat_to(s, x, to, ev)
        return
    frm = where(s, x)
    if verb == "ride":  # D-8: the dolphin comes along, and its protection with it
        d = s.guardian(x)
        assert d is not None
        ev.append(Event("rode", {"person": person_name(x), "dolphin": pieces.creature(s, d),
                                 "from": frm, "to": board.name(to)}))  # fmt: skip
        pieces.put_creature(s, d, to)
        pieces.swim(s, [x], to, ev, by_choice=uses_swim, keep_guard=True)
        return
    if verb == "board":
        ev.append(Event("boarded", {"person": person_name(x), "boat": f"b{to + 1}", "from": frm}))
        empty = not s.b_people[to]
        pieces.to_boat(s, x, to)
        h = s.b_pos[to]
        danger = s.n_serpent[h] or s.n_whale[h]
        if empty and danger and s.rules.option("boarding_in_danger") == "same-as-moving-in":
            pieces.wreck(s, to, "serpent" if s.n_serpent[h] else "whale", ev)
        return
    ev.append(Event("moved", {"person": person_name(x), "from": frm, "to": board.name(to)}))
    if board.IS_SAFE[to]:
        pieces.save(s, x, to, ev)
    elif s.terrain[to] is not None:
        pieces.to_land(s, x, to)
    else:
        pieces.swim(s, [x], to, ev, by_choice=uses_swim)


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
        if seat not in s.controllers(x):
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
            return IllegalAction("B-15", "the boat is not on an access space of that safe island")
        if s.terrain[to] is not None:
            return IllegalAction("B-12", "once off the island a person never returns to land")
        if to == s.b_pos[s.p_at[x]]:
            return IllegalAction("B-16", f"{person_name(x)} already swam this turn")
        return IllegalAction("B-15", "from a boat a person boards a boat next to it or swims")
    if board.IS_SAFE[to]:
        if board.ACCESS.get(s.p_at[x]) != to:
            return IllegalAction(
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
