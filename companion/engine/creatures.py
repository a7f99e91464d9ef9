"""Step 4 of a turn: the creature die, a creature's move, its attack, and the defence window.

B-10, B-24 ... B-29. A move of several spaces is one decision per space; the creature stops where
it enters something it can attack, and attacks there. Before a shark or whale moved by another
player attacks, the attacked players who may hold the matching repellent are asked (B-29, B-43).
"""

from __future__ import annotations

from . import board, hand, pieces
from .data import DIE_FACES, STEPS
from .errors import IllegalAction
from .events import Event
from .state import CHANCE, OFF, Action, State

FACES = tuple(sorted(set(DIE_FACES)))
REPELLENT = {"shark": "shark-repellent", "whale": "whale-repellent"}


def legal_roll(s: State) -> list[Action]:
    return [("roll", f) for f in FACES]


def apply_roll(s: State, action: Action, ev: list[Event]) -> None:
    face = action[1]
    s.roll = face
    ev.append(Event("rolled", {"seat": s.turn, "face": face}))
    s.ctx = {"kind": face, "creature": None, "steps": 0}
    s.phase, s.actor = "creature", s.turn


def steps_of(s: State, c: int, out: list[Action]) -> None:
    """B-27: creatures move through sea spaces only, sharing them with anything."""
    terrain = s.terrain
    for n in board.WATER_NEIGHBOURS[s.c_pos[c]]:
        if terrain[n] is None:
            out.append(("creature", c, n))


def legal_creature(s: State) -> list[Action]:
    kind, c, steps = s.ctx["kind"], s.ctx["creature"], s.ctx["steps"]
    out: list[Action] = []
    if c is None:
        for x in s.on_board(kind):  # B-28: none of that kind, nothing to move
            steps_of(s, x, out)
        if not out or s.rules.option("creature_move") == "optional":
            out.append(("done",))
    else:
        if steps < STEPS[kind]:
            steps_of(s, c, out)
        out.append(("done",))
    return out


def apply_creature(s: State, action: Action, ev: list[Event]) -> None:
    if action[0] == "done":
        end_turn(s, ev)
        return
    _, c, h = action
    pieces.move_creature(s, c, h, ev)
    s.ctx["creature"] = c
    s.ctx["steps"] += 1
    kind = s.c_kind[c]
    if kind == "serpent":  # B-24: one space, then it strikes whatever is there
        b = s.boat_at[h]
        if b != OFF and s.b_people[b]:
            pieces.sink_boat(s, b, ev)
        pieces.eat(s, h, "serpent", ev)
        end_turn(s, ev)
    elif can_attack(s, kind, h):
        attack(s, c, h, s.turn, ev, then="end")
    elif s.ctx["steps"] == STEPS[kind]:
        end_turn(s, ev)


def can_attack(s: State, kind: str, h: int) -> bool:
    """B-25: a shark attacks swimmers; B-26: a whale attacks an occupied boat."""
    if kind == "shark":
        return bool(s.swimmers[h])
    b = s.boat_at[h]
    return b != OFF and bool(s.b_people[b])


def attacked_seats(s: State, kind: str, h: int) -> set[int]:
    if kind == "shark":
        return {p // 10 for p in s.swimmers[h]}
    return set(s.controllers(s.boat_at[h]))


def attack(s: State, c: int, h: int, mover: int, ev: list[Event], *, then: str) -> None:
    """Creature c is about to attack at h; first ask the defenders (B-29), then strike.

    `then` says what follows: ``end`` (the turn ends) or ``roll`` (a tile's shark: the die).
    """
    kind = s.c_kind[c]
    tile = REPELLENT[kind]
    n = s.players
    seats = attacked_seats(s, kind, h) - {mover}
    # Everyone attacked who, for all the table knows, may hold the repellent is asked — also one
    # the companion knows holds none — so that being asked tells the other players nothing.
    queue = sorted(
        (seat for seat in seats if hand.may_seem_to_hold(s, seat, tile)),
        key=lambda seat: (seat - mover) % n,
    )
    s.ctx = {"creature": c, "hex": h, "queue": queue, "then": then}
    if queue:
        s.phase, s.actor = "defence", queue[0]
    else:
        strike(s, ev)


def strike(s: State, ev: list[Event]) -> None:
    c, h, then = s.ctx["creature"], s.ctx["hex"], s.ctx["then"]
    if s.c_kind[c] == "shark":
        pieces.eat(s, h, "shark", ev)
    else:
        pieces.wreck(s, s.boat_at[h], "whale", ev)  # B-26: capsized, passengers swim
    go_on(s, then, ev)


def go_on(s: State, then: str, ev: list[Event]) -> None:
    s.ctx = {}
    if then == "end":
        end_turn(s, ev)
    else:
        s.phase, s.actor = "roll", CHANCE


def legal_defence(s: State) -> list[Action]:
    tile = REPELLENT[s.c_kind[s.ctx["creature"]]]
    if hand.find(s, s.actor, tile) is None:
        return [("done",)]
    return [("repel",), ("done",)]


def apply_defence(s: State, action: Action, ev: list[Event]) -> None:
    seat, c = s.actor, s.ctx["creature"]
    queue: list[int] = s.ctx["queue"]
    if action[0] == "repel":
        tile = REPELLENT[s.c_kind[c]]
        i = hand.find(s, seat, tile)
        assert i is not None
        hand.take(s, seat, i, tile)
        ev.append(
            Event(
                "repelled",
                {
                    "seat": seat,
                    "back": tile,
                    "creature": pieces.creature(s, c),
                    "hex": board.name(s.ctx["hex"]),
                },
            )
        )
        pieces.remove_creature(s, c)
        go_on(s, s.ctx["then"], ev)
        return
    queue.pop(0)
    if queue:
        s.actor = queue[0]
    else:
        strike(s, ev)


def end_turn(s: State, ev: list[Event]) -> None:
    """The turn passes to the next seat, who starts at step 1."""
    s.turns_taken[s.turn] += 1
    s.swam.clear()
    s.roll = None
    s.ctx = {}
    s.turn = (s.turn + 1) % s.players
    s.phase, s.actor = "tile", s.turn
    ev.append(Event("turn", {"seat": s.turn}))


def explain(s: State, action: Action) -> IllegalAction:
    verb = action[0]
    if verb == "roll":
        return IllegalAction("B-10", f"the creature die has no {action[1]} face")
    if verb == "repel":
        tile = REPELLENT[s.c_kind[s.ctx["creature"]]]
        return IllegalAction("B-43", f"seat {s.actor + 1} cannot be holding a {tile}")
    if verb == "done":
        return IllegalAction("B-10", "the rolled creature must move (creature_move=mandatory)")
    kind, chosen = s.ctx["kind"], s.ctx["creature"]
    _, c, h = action
    if s.c_kind[c] != kind:
        return IllegalAction("B-10", f"the die shows {kind}: move a {kind}")
    if s.c_pos[c] == OFF:
        return IllegalAction("B-28", f"{pieces.creature(s, c)} is not on the board")
    if chosen is not None and c != chosen:
        return IllegalAction("B-10", "one creature moves, not two")
    if chosen is not None and s.ctx["steps"] >= STEPS[kind]:
        rule = {"serpent": "B-24", "shark": "B-25", "whale": "B-26"}[kind]
        return IllegalAction(rule, f"a {kind} moves at most {STEPS[kind]} spaces")
    return IllegalAction("B-27", f"creatures move to an adjacent sea space, not {board.name(h)}")
