"""Overpopulated! (challenge #5): the immediate movement point after a crowded tile sinks (P-5).

When a land tile sinks with people on it, each owner of such people, in turn order from the
player who sank it, gets one movement point for those people only. It comes after the tile's
back has resolved — a shark may already have eaten them, and then the point is lost — and
before the creature die. It may be declined (``done``) and is never saved. (Placing the crowd,
P-4, is part of the setup's placement rule.)
"""

from __future__ import annotations

from . import movement
from .errors import IllegalAction
from .events import Event, Events
from .fivesix import crowded
from .state import BOAT, CHANCE, LAND, SEA, Action, State, person_name

ON_BOARD = (LAND, BOAT, SEA)


def note_sunk(s: State, people: list[int]) -> None:
    """The tile just removed held these people: they are owed the point (P-5)."""
    if people and crowded(s.rules):
        s.from_sunk = list(people)


def start(s: State, ev: Events) -> None:
    """Before the creature die: the mini-round begins with the first owner whose people are
    still on the board, or, with nobody left to move, the die is rolled as usual."""
    people = [p for p in s.from_sunk if s.p_kind[p] in ON_BOARD]
    s.from_sunk = []
    n = s.players
    owners = sorted({p // 10 for p in people}, key=lambda seat: (seat - s.turn) % n)
    if not owners:
        return
    if ev is not None:
        ev.append(
            Event("immediate_point", {"seats": owners, "people": [person_name(p) for p in people]})
        )
    s.ctx = {"people": people, "queue": owners}
    s.phase, s.actor = "rush", owners[0]


def _movers(s: State) -> list[int]:
    """The people of the sunk tile that the seat now deciding may move."""
    seat = s.actor
    return [p for p in s.ctx["people"] if p // 10 == seat and s.p_kind[p] in ON_BOARD]


def legal(s: State) -> list[Action]:
    out: list[Action] = []
    for p in _movers(s):
        movement.person_moves(s, p, out)
    out.append(("done",))
    return out


def apply(s: State, action: Action, ev: Events) -> None:
    if action[0] != "done":
        movement.apply_step(s, action, ev)
    queue: list[int] = s.ctx["queue"]
    queue.pop(0)
    while queue and not any(
        p // 10 == queue[0] and s.p_kind[p] in ON_BOARD for p in s.ctx["people"]
    ):
        queue.pop(0)  # that owner's people were lost meanwhile: the point is lost
    if queue:
        s.actor = queue[0]
    else:
        s.ctx = {}
        s.phase, s.actor = "roll", CHANCE


def explain(s: State, action: Action) -> IllegalAction:
    x = action[1]
    if x not in _movers(s):
        return IllegalAction(
            "P-5",
            f"the immediate point is for seat {s.actor + 1}'s people of the tile just sunk, "
            f"not {person_name(x)}",
        )
    # The move itself breaks a movement rule: say which, as step 2 would for its owner.
    turn = s.turn
    s.turn = s.actor
    try:
        return movement.explain(s, action)
    finally:
        s.turn = turn
