"""What never changes during a game: the board and the rules (``/api/board``, ``/api/rules``).

``GET /api/board`` — ``hexes``: every hex of the printed board with its ``index`` (what actions
carry), ``name`` (``r.c``, or ``NW``/``NE``/``SW``/``SE`` for a safe island), ``row``, ``col``,
``kind`` (``land``: one of the 40 places of an island tile; ``lagoon``; ``safe``: a safe island;
``access``: a sea hex touching a safe island, with ``island`` naming it; ``sea``: the rest) and
its centre ``x``, ``y`` in hex units (circumradius 1, x right, y down, the lagoon at 0, 0:
`companion.engine.board.plane`). ``land``: the land hexes in the order the island is laid.
``people``, ``boats``, ``creatures``: names by index, as actions number the pieces (person
``seat * 10 + k`` is ``A1``.. ``F10``; boat ``b1``..; creature ``serpent1``.. ``squid5``).
Also ``lagoon``, ``serpent_start`` (hex indexes) and where the outline comes from (``source``,
``verified``).

``GET /api/rules`` — ``modules`` (``name``, ``text``: what it is, ``playable`` in this version,
``needs``: the module it is played with, ``alone``: played with no other), ``options``
(``name``, ``values``, ``default`` — the first —, ``text``: one line for the setup screen),
``colours`` (the box's), ``players`` (``min``, ``max``: 5-6 need the 5-6 player kit), and
``unverified``: each data set the sources do not settle, with where its numbers come from.
"""

from __future__ import annotations

import functools
from typing import Any

from flask import Blueprint

from ..engine import board, rules
from ..engine.actions import CREATURES
from ..engine.data import COLOURS, PEOPLE_VALUES, PIECES, UNVERIFIED
from ..engine.fivesix import MAX_PLAYERS, MIN_PLAYERS
from ..engine.state import SEAT_LETTERS, creature_name, person_name

bp = Blueprint("gamedata", __name__, url_prefix="/api")


def _kind(index: int) -> str:
    if index in board.SAFE_ISLANDS:
        return "safe"
    if index == board.LAGOON:
        return "lagoon"
    if index in board.LAND:
        return "land"
    if index in board.ACCESS:
        return "access"
    return "sea"


@functools.cache
def board_data() -> dict[str, Any]:
    hexes = []
    for index, (r, c) in enumerate(board.CELLS):
        x, y = board.plane(r, c)
        entry: dict[str, Any] = {
            "index": index,
            "name": board.name(index),
            "kind": _kind(index),
            "row": r,
            "col": c,
            "x": round(x, 4),
            "y": round(y, 4),
        }
        if index in board.ACCESS:
            entry["island"] = board.name(board.ACCESS[index])
        hexes.append(entry)
    people = [person_name(p) for p in range(len(SEAT_LETTERS) * len(PEOPLE_VALUES))]
    return {
        "hexes": hexes,
        "land": list(board.LAND),
        "people": people,
        "boats": [f"b{b + 1}" for b in range(PIECES["boat"])],
        "creatures": [creature_name(list(CREATURES), c) for c in range(len(CREATURES))],
        "lagoon": board.LAGOON,
        "serpent_start": list(board.SERPENT_START),
        "source": board.BOARD_SOURCE,
        "verified": board.BOARD_VERIFIED,
    }


@functools.cache
def rules_data() -> dict[str, Any]:
    needs = {module: other for module, (other, _) in rules.NEEDS.items()}
    unverified = dict(UNVERIFIED)
    if not board.BOARD_VERIFIED:
        unverified["board"] = board.BOARD_SOURCE
    return {
        "modules": [
            {
                "name": name,
                "text": text,
                "playable": name in rules.PLAYABLE,
                "needs": needs.get(name),
                "alone": name == rules.ALONE,
            }
            for name, text in rules.MODULES.items()
        ],
        "options": [
            {"name": name, "values": list(values), "default": values[0], "text": text}
            for name, (values, text) in rules.OPTIONS.items()
        ],
        "colours": list(COLOURS),
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "unverified": unverified,
    }


@bp.get("/board")
def board_route() -> dict[str, Any]:
    return board_data()


@bp.get("/rules")
def rules_route() -> dict[str, Any]:
    return rules_data()
