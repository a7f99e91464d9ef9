"""What each viewer may see of a state (spec §9).

A player sees their own held tiles and, only under ``own_values_visible``, their own people's
values; a spectator sees nothing private; the referee sees everything. How many red tiles each
player holds is public. Values become public with the final result.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import board
from .events import REFEREE, View
from .state import BOAT, CHANCE, NOBODY, OFF, PLACE_NAMES, State, creature_name, person_name

PUBLIC_CTX = (
    "hex",
    "terrain",
    "boat",
    "back",
    "steps",
    "person",
    "kind",
    "creature",
    "then",
    "may_move",
)


def view(s: State, viewer: View) -> dict[str, Any]:
    return views(s, (viewer,))[viewer]


def views(s: State, viewers: Iterable[View]) -> dict[View, dict[str, Any]]:
    """The state as each of `viewers` may see it. What they all see alike is built once and
    shared between their views (the same objects: read a view, never change it)."""
    over = s.phase in ("over", "reveal")  # at the end every value is shown (or told)
    own_values = s.rules.option("own_values_visible") == "yes"
    placed = []
    for p in sorted(s.p_owner):
        kind, at = s.p_kind[p], s.p_at[p]
        where = None if at == OFF else f"b{at + 1}" if kind == BOAT else board.name(at)
        entry: dict[str, Any] = {
            "id": person_name(p),
            "seat": p // 10,
            "where": PLACE_NAMES[kind],
            "at": where,
        }
        placed.append((p, entry))
    people_seen: dict[Any, list[dict[str, Any]]] = {}

    def people(viewer: View) -> list[dict[str, Any]]:
        # Who sees which values: everyone all at the end, the referee always, a seat its own
        # under own_values_visible; nobody else any.
        key: Any = "all" if viewer == REFEREE or over else None
        if key is None and own_values and isinstance(viewer, int):
            key = viewer
        if key not in people_seen:
            people_seen[key] = [
                {**e, "value": s.p_value[p]} if key == "all" or key == p // 10 else e
                for p, e in placed
            ]
        return people_seen[key]

    counted: list[dict[str, Any]] = [
        {"seat": seat, "count": len(held)} for seat, held in enumerate(s.hands)
    ]

    def hands(viewer: View) -> list[dict[str, Any]]:
        shown: list[dict[str, Any]] = []
        for seat, held in enumerate(s.hands):
            if viewer in (REFEREE, seat):
                tiles = [{"terrain": t, "back": k} for t, k in held]
                shown.append({**counted[seat], "tiles": tiles})
            else:
                shown.append(counted[seat])
        return shown

    rules = s.rules.to_json()
    pending = _pending(s)
    tiles = {board.name(h): s.terrain[h] for h in board.LAND if s.terrain[h] is not None}
    sunk = dict(s.sunk)
    swam = sorted(person_name(p) for p in s.swam)
    boats = [
        {
            "id": f"b{b + 1}",
            "at": None if pos == OFF else board.name(pos),
            "people": [person_name(p) for p in s.b_people[b]],
        }
        for b, pos in enumerate(s.b_pos)
    ]
    creatures = [_creature(s, c) for c in range(len(s.c_kind)) if s.c_kind[c] in s.in_play]
    turns_taken = list(s.turns_taken)
    out: dict[View, dict[str, Any]] = {}
    for viewer in viewers:
        referee = viewer == REFEREE
        actor: Any = s.actor
        if s.phase == "defence" and not (referee or viewer == s.actor):
            actor = None  # who is asked would tell who may hold a repellent
        elif s.actor == CHANCE:
            actor = "table"
        elif s.actor == NOBODY:
            actor = None
        one: dict[str, Any] = {
            "viewer": "referee" if referee else "spectator" if viewer is None else viewer,
            "players": s.players,
            "mode": s.mode,
            "rules": rules,
            "phase": s.phase,
            "turn": s.turn,
            "actor": actor,
            "points": s.points,
            "roll": s.roll,
            "pending": pending,
            "tiles": tiles,
            "sunk": sunk,
            "people": people(viewer),
            "swam": swam,
            "boats": boats,
            "creatures": creatures,
            "hands": hands(viewer),
            "turns_taken": turns_taken,
            "result": s.result,
        }
        if referee:
            one["known_backs"] = {t: dict(v) for t, v in s.known.items()}
            one["seed"] = s.seed
        out[viewer] = one
    return out


def _creature(s: State, c: int) -> dict[str, Any]:
    pos = s.c_pos[c]
    out: dict[str, Any] = {
        "id": creature_name(s.c_kind, c),
        "at": None if pos == OFF else board.name(pos),
        "gone": s.c_gone[c],
    }
    if s.c_kind[c] == "dolphin":
        p = s.guard.get(c)
        out["protects"] = None if p is None else person_name(p)
    return out


def _pending(s: State) -> dict[str, Any]:
    """The public part of the decision under way (never who may hold what)."""
    out: dict[str, Any] = {}
    for key in PUBLIC_CTX:
        if key not in s.ctx:
            continue
        value = s.ctx[key]
        if key == "hex":
            value = board.name(value)
        elif key == "person" and value is not None:
            value = person_name(value)
        elif key == "boat" and value is not None:
            value = f"b{value + 1}"
        elif key == "creature" and value is not None:
            value = creature_name(s.c_kind, value)
        elif key == "may_move":  # E-1: what the spinner's result allows
            value = [creature_name(s.c_kind, c) for c in value]
        out[key] = value
    return out
