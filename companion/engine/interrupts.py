"""Decisions that interrupt the flow of a turn, taken before the game goes on.

A dolphin's protege when more swimmers arrive than there are free dolphins (D-2, D-6), where a
squid enters (Q-1), and which person a squid takes (Q-2, Q-4). The rule that raises one queues
it (`pieces.interrupt`); the game then pauses whatever phase it was in, asks the chooser, and
resumes that phase once the queue is empty.
"""

from __future__ import annotations

from typing import Any

from . import board, pieces, squid
from .errors import IllegalAction
from .events import Event, Events
from .state import Action, State, person_name


def current(s: State) -> dict[str, Any]:
    return s.pending[0]


def legal(s: State) -> list[Action]:
    item = current(s)
    kind = item["kind"]
    if kind == "guard":
        h = item["hex"]
        free = s.free_dolphins(h)
        waiting = _waiting(s, item)
        return [("protect", free[0], p) for p in waiting] if free else []
    if kind == "squid":
        return [("put", item["squid"], h) for h in squid_spaces(s)]
    out: list[Action] = [("grab", p) for p in squid.prey(s, item["squid"], boat=item["boat"])]
    if out and item["optional"]:
        out.append(("done",))
    return out


def _waiting(s: State, item: dict[str, Any]) -> list[int]:
    """Arrivals still swimming at the hex with no dolphin yet."""
    h = item["hex"]
    return [p for p in item["people"] if p in s.swimmers[h] and s.guardian(p) is None]


def squid_spaces(s: State) -> list[int]:
    """Q-1: a vacant sea space next to a land tile."""
    terrain = s.terrain
    return [
        h
        for h in range(board.SIZE)
        if s.vacant(h) and any(terrain[n] is not None for n in board.WATER_NEIGHBOURS[h])
    ]


def apply(s: State, action: Action, ev: Events) -> None:
    item = current(s)
    kind = item["kind"]
    if kind == "guard":
        _, d, p = action
        pieces.protect(s, d, p, ev)
        if s.free_dolphins(item["hex"]) and _waiting(s, item):
            return  # another free dolphin: choose again
    elif kind == "squid":
        _, c, h = action
        pieces.put_creature(s, c, h)
        if ev is not None:
            ev.append(
                Event("creature_placed", {"creature": pieces.creature(s, c), "hex": board.name(h)})
            )
        entry = s.rules.option("squid_entry")
        if entry != "none" and squid.prey(s, c, boat=False):
            pieces.interrupt(s, {"kind": "grab", "actor": item["actor"], "squid": c,
                                 "boat": False, "optional": entry == "may"})  # fmt: skip
    elif action[0] == "grab":
        p = action[1]
        if ev is not None:
            ev.append(
                Event(
                    "grabbed",
                    {"person": person_name(p), "squid": pieces.creature(s, item["squid"])},
                )
            )
        pieces.lose(s, p)
    finish(s, ev)


def finish(s: State, ev: Events) -> None:
    """The decision is over (taken, declined, or left with nothing to decide): what it held back
    happens, and the next queued decision or the paused phase goes on."""
    item = s.pending.pop(0)
    if item["kind"] == "guard":
        left = _waiting(s, item)
        killer = pieces.deadly_for_swimmers(s, item["hex"])
        if killer and left:
            pieces.eat(s, item["hex"], killer, ev, left)
    resume = item["resume"]
    if s.pending:
        s.pending[0]["resume"] = resume
        s.actor = s.pending[0]["actor"]
    else:
        s.phase, s.actor, s.ctx = resume


def explain(s: State, action: Action) -> IllegalAction:
    kind = current(s)["kind"]
    if kind == "guard":
        return IllegalAction(
            "D-6", "choose one of the swimmers who just arrived for the free dolphin"
        )
    if kind == "squid":
        return IllegalAction("Q-1", "a squid enters on a vacant sea space next to a land tile")
    if action[0] == "done":  # on entry the squid_entry option says so, after a move Q-4
        rule = "Q-4" if current(s)["boat"] else "Q-2"
        return IllegalAction(rule, "the squid must take one person")
    rule = "Q-4" if current(s)["boat"] else "Q-2"  # on entry only a person on land
    where = (
        "an adjacent land tile or the boat in its space"
        if rule == "Q-4"
        else ("a land tile next to the space it entered")
    )
    return IllegalAction(rule, f"the squid takes one person from {where}")
