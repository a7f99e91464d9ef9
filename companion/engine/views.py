"""What each viewer may see of a state (spec §9).

A player sees their own held tiles and, only under ``own_values_visible``, their own people's
values; a spectator sees nothing private; the referee sees everything. How many red tiles each
player holds is public. Values become public with the final result.
"""

from __future__ import annotations

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
    referee = viewer == REFEREE
    over = s.phase in ("over", "reveal")  # at the end every value is shown (or told)
    own_values = s.rules.option("own_values_visible") == "yes"

    def sees_value(p: int) -> bool:
        return referee or over or (own_values and viewer == p // 10)

    people = []
    for p in sorted(s.p_owner):
        kind, at = s.p_kind[p], s.p_at[p]
        where = None if at == OFF else f"b{at + 1}" if kind == BOAT else board.name(at)
        entry: dict[str, Any] = {
            "id": person_name(p),
            "seat": p // 10,
            "where": PLACE_NAMES[kind],
            "at": where,
        }
        if sees_value(p):
            entry["value"] = s.p_value[p]
        people.append(entry)
    hands = []
    for seat, held in enumerate(s.hands):
        entry = {"seat": seat, "count": len(held)}
        if referee or viewer == seat:
            entry["tiles"] = [{"terrain": t, "back": k} for t, k in held]
        hands.append(entry)
    actor: Any = s.actor
    if s.phase == "defence" and not (referee or viewer == s.actor):
        actor = None  # who is asked would tell who may hold a repellent
    elif s.actor == CHANCE:
        actor = "table"
    elif s.actor == NOBODY:
        actor = None
    out: dict[str, Any] = {
        "viewer": "referee" if referee else "spectator" if viewer is None else viewer,
        "players": s.players,
        "mode": s.mode,
        "rules": s.rules.to_json(),
        "phase": s.phase,
        "turn": s.turn,
        "actor": actor,
        "points": s.points,
        "roll": s.roll,
        "pending": _pending(s),
        "tiles": {board.name(h): s.terrain[h] for h in board.LAND if s.terrain[h] is not None},
        "sunk": dict(s.sunk),
        "people": people,
        "swam": sorted(person_name(p) for p in s.swam),
        "boats": [
            {
                "id": f"b{b + 1}",
                "at": None if pos == OFF else board.name(pos),
                "people": [person_name(p) for p in s.b_people[b]],
            }
            for b, pos in enumerate(s.b_pos)
        ],
        "creatures": [_creature(s, c) for c in range(len(s.c_kind)) if s.c_kind[c] in s.in_play],
        "hands": hands,
        "turns_taken": list(s.turns_taken),
        "result": s.result,
    }
    if referee:
        out["known_backs"] = {t: dict(v) for t, v in s.known.items()}
        out["seed"] = s.seed
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
