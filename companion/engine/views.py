"""What each viewer may see of a state (spec §9).

A player sees their own held tiles and, only under ``own_values_visible``, their own people's
values; a spectator sees nothing private; the referee sees everything. How many red tiles each
player holds is public. Values become public with the final result.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from . import board
from .events import REFEREE, View
from .state import BOAT, CHANCE, NOBODY, OFF, PLACE_NAMES, State, creature_name, person_name

T = TypeVar("T")

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


class Shown:
    """What the views of one game were built from last time, part by part: a part whose source
    in the state is as it was is handed on as it was (the same objects), so that after a move
    only what it changed is built again. One per game; read the views, never change them."""

    def __init__(self) -> None:
        self._parts: dict[str, tuple[Any, Any]] = {}

    def part(self, name: str, source: Any, build: Callable[[], T]) -> T:
        """The part `name`, built by `build` unless `source` equals what it was built from."""
        kept = self._parts.get(name)
        if kept is not None and kept[0] == source:
            value: T = kept[1]
            return value
        value = build()
        self._parts[name] = (source, value)
        return value


def view(s: State, viewer: View) -> dict[str, Any]:
    return views(s, (viewer,))[viewer]


def views(
    s: State, viewers: Iterable[View], shown: Shown | None = None
) -> dict[View, dict[str, Any]]:
    """The state as each of `viewers` may see it. What they all see alike is built once and
    shared between their views (the same objects: read a view, never change it); with `shown`,
    also with the views built before from the parts of the state that have not changed since."""
    shown = Shown() if shown is None else shown
    over = s.phase in ("over", "reveal")  # at the end every value is shown (or told)
    own_values = s.rules.option("own_values_visible") == "yes"
    # Sources are compared as copies of the state's lists (a C-level copy and compare), not
    # as tuples of their items, which cost more than the rest of an unchanged view.
    pieces = (list(s.p_kind), list(s.p_at))
    placed = shown.part("placed", pieces, lambda: _placed(s))
    # Who sees which values: everyone all at the end, the referee always, a seat its own
    # under own_values_visible; nobody else any. Built for each key at most once.
    values = (pieces, list(s.p_value), over, own_values)
    people_seen: dict[Any, list[dict[str, Any]]] = shown.part("people", values, dict)

    def people(viewer: View) -> list[dict[str, Any]]:
        key: Any = "all" if viewer == REFEREE or over else None
        if key is None and own_values and isinstance(viewer, int):
            key = viewer
        if key not in people_seen:
            people_seen[key] = [
                {**e, "value": s.p_value[p]} if key == "all" or key == p // 10 else e
                for p, e in placed
            ]
        return people_seen[key]

    held = tuple(tuple(map(tuple, h)) for h in s.hands)
    hands_seen: dict[View, list[dict[str, Any]]] = shown.part("hands", held, dict)

    def hands(viewer: View) -> list[dict[str, Any]]:
        # A seat sees its own tiles, the referee every one, anyone else how many are held.
        key = viewer if viewer == REFEREE or isinstance(viewer, int) else None
        if key not in hands_seen:
            hands_seen[key] = [
                {"seat": seat, "count": len(tiles)}
                | ({"tiles": [{"terrain": t, "back": k} for t, k in tiles]}
                   if key in (REFEREE, seat) else {})
                for seat, tiles in enumerate(held)
            ]  # fmt: skip
        return hands_seen[key]

    rules = shown.part("rules", s.rules, s.rules.to_json)
    pending = _pending(s)
    tiles = shown.part("tiles", tuple(s.terrain), lambda: _tiles(s))
    sunk = dict(s.sunk)
    swam = sorted(PERSON[p] for p in s.swam)
    boats = shown.part("boats", (tuple(s.b_pos), tuple(map(tuple, s.b_people))), lambda: _boats(s))
    creatures = shown.part(
        "creatures",
        (tuple(s.c_pos), tuple(s.c_gone), tuple(s.c_kind), frozenset(s.in_play),
         dict(s.guard)),
        lambda: [_creature(s, c) for c in range(len(s.c_kind)) if s.c_kind[c] in s.in_play],
    )  # fmt: skip
    actor: Any = "table" if s.actor == CHANCE else None if s.actor == NOBODY else s.actor
    # What every viewer sees alike, copied for each (a copy costs less than building the dict
    # again); "viewer", "people", "hands" and in a defence "actor" are the viewer's own.
    alike: dict[str, Any] = {
        "viewer": None,
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
        "people": None,
        "swam": swam,
        "boats": boats,
        "creatures": creatures,
        "hands": None,
        "turns_taken": list(s.turns_taken),
        "result": s.result,
    }
    defence = s.phase == "defence"
    out: dict[View, dict[str, Any]] = {}
    for viewer in viewers:
        referee = viewer == REFEREE
        one = alike.copy()
        one["viewer"] = "referee" if referee else "spectator" if viewer is None else viewer
        if defence and not (referee or viewer == s.actor):
            one["actor"] = None  # who is asked would tell who may hold a repellent
        one["people"] = people(viewer)
        one["hands"] = hands(viewer)
        if referee:
            one["known_backs"] = {t: dict(v) for t, v in s.known.items()}
            one["seed"] = s.seed
        out[viewer] = one
    return out


HEX: tuple[str, ...] = tuple(board.name(h) for h in range(board.SIZE))
"""Each hex's name, made once (views name every piece's hex after every move)."""
PERSON: dict[int, str] = {p: person_name(p) for p in range(60)}
"""Each person's name (``A1``), made once."""


def _placed(s: State) -> list[tuple[int, dict[str, Any]]]:
    """Every person in the game and where it is, without its value."""
    placed = []
    for p in sorted(s.p_owner):
        kind, at = s.p_kind[p], s.p_at[p]
        where = None if at == OFF else f"b{at + 1}" if kind == BOAT else HEX[at]
        entry = {"id": PERSON[p], "seat": p // 10, "where": PLACE_NAMES[kind], "at": where}
        placed.append((p, entry))
    return placed


def _tiles(s: State) -> dict[str, str]:
    return {HEX[h]: t for h in board.LAND if (t := s.terrain[h]) is not None}


def _boats(s: State) -> list[dict[str, Any]]:
    return [
        {
            "id": f"b{b + 1}",
            "at": None if pos == OFF else HEX[pos],
            "people": [PERSON[p] for p in s.b_people[b]],
        }
        for b, pos in enumerate(s.b_pos)
    ]


def _creature(s: State, c: int) -> dict[str, Any]:
    pos = s.c_pos[c]
    out: dict[str, Any] = {
        "id": creature_name(s.c_kind, c),
        "at": None if pos == OFF else HEX[pos],
        "gone": s.c_gone[c],
    }
    if s.c_kind[c] == "dolphin":
        p = s.guard.get(c)
        out["protects"] = None if p is None else PERSON[p]
    return out


def _pending(s: State) -> dict[str, Any]:
    """The public part of the decision under way (never who may hold what)."""
    out: dict[str, Any] = {}
    for key in PUBLIC_CTX:
        if key not in s.ctx:
            continue
        value = s.ctx[key]
        if key == "hex":
            value = HEX[value]
        elif key == "person" and value is not None:
            value = PERSON[value]
        elif key == "boat" and value is not None:
            value = f"b{value + 1}"
        elif key == "creature" and value is not None:
            value = creature_name(s.c_kind, value)
        elif key == "may_move":  # E-1: what the spinner's result allows
            value = [creature_name(s.c_kind, c) for c in value]
        out[key] = value
    return out
