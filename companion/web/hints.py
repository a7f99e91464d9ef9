"""``GET /api/games/<id>/hint`` — "suggest": the move the normal bot would make for this phone's
seat now, with one line of why, for this phone alone (its seat from its cookie; nobody else is
told). Off unless the game was set up with ``"hints": true``. The bot decides from the seat's
knowledge only (`Table.hint`), here on the request's own thread, never on the Table's::

    200 {"game": 3, "action": ["move", 0, 58],
         "why": {"reason": "best", "options": 12, "gain": 0.4}}
    403 this phone holds no seat of the game        409 hints are off, or it is not its turn
"""

from __future__ import annotations

import random
from typing import Any

from flask import Blueprint, abort

from ..bots import decide
from ..engine import Game
from ..refusals import Refused
from . import access
from .api import record_of, the_table, timeout

bp = Blueprint("hints", __name__, url_prefix="/api")

LEVEL = "normal"
"""The bot that suggests: the one a table most often plays against (and quick to answer)."""


@bp.get("/games/<int:game_id>/hint")
def hint(game_id: int) -> tuple[dict[str, Any], int]:
    record = record_of(game_id)
    seat = access.seat_in(game_id, len(record.players))
    if seat is None:
        abort(403, f"A hint is for a seat's own phone: take a seat of game {game_id} first.")
    table = the_table()
    try:
        known = table.hint(game_id, seat, timeout())
    except Refused as e:
        return {"error": f"{e.message}.", "key": e.key, "params": e.params}, 409
    decision = decide(Game(known), seat, LEVEL, random.Random())
    why = {"reason": decision.reason, "options": decision.options, "gain": round(decision.gain, 1)}
    return {"game": game_id, "action": list(decision.action), "why": why}, 200
