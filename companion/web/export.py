"""A finished play, taken away: the whole record as JSON, and a link that logs it in BG Stats.

``GET /api/games/<id>/export`` — the record as ``companion export`` writes it
(`companion.history.export`: ``format``, ``game``, ``rules``, ``players``, every stored
``actions`` row, the ``final`` state) plus ``bgg`` (below), as a download
(``Content-Disposition: attachment; filename=atlantis-game-<id>.json``). The log holds every
hidden value, so a game still in play is exported only to the table itself (loopback); once
it is over (its values are public) to every phone: 409 before.

``GET /api/games/<id>/bgstats`` — for a finished game (409 before). A browser's tap (an
``<a href>``) is redirected (302) to the BG Stats app with the play filled in:
``bgstats://app.bgstatsapp.com/createPlay.html?data=<the play as URL-encoded JSON>``. Asked
with ``Accept: application/json``, the answer is ``{"link", "web_link", "play", "bgg"}``:
``web_link`` is the same import through https (for a phone where the app's scheme does not
open), ``play`` the JSON itself: ``sourceName``, ``sourcePlayId``, ``playDate`` (local time),
``durationMin``, ``comments``, ``game`` (``name``, ``bggId``, ``highestWins``, ``noPoints``,
``sourceGameId``) and ``players`` (``name``, ``sourcePlayerId``, ``score`` — the ranking's
points —, ``rank``, ``winner``, ``startPlayer``, ``color``). These names and the link's form
are those other apps use to push plays to BG Stats; BG Stats' own page was not at hand to
check them against.

The game's BoardGameGeek id comes from ``data/games.json`` with its source; ``bgg.verified``
says whether anyone checked it (not yet: see that file), and an unverified id is named so in
the play's ``comments``.
"""

from __future__ import annotations

import datetime
import functools
import json
from importlib import resources
from typing import Any
from urllib.parse import quote

from flask import Blueprint, Response, abort, jsonify, redirect, request
from werkzeug.wrappers import Response as WerkzeugResponse

from ..commands import REFEREE, SPECTATOR
from ..table import GameRecord, Refused
from . import access
from .api import record_of, the_table, timeout

bp = Blueprint("export", __name__, url_prefix="/api")

APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Atlantis companion"


@functools.cache
def games() -> dict[str, Any]:
    text = resources.files(__package__).joinpath("data/games.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def bgg(kind: str) -> dict[str, Any]:
    entry = games().get(kind, {})
    return {
        "id": entry.get("bgg_id"),
        "verified": bool(entry.get("verified", False)),
        "source": entry.get("source", "no entry for this kind of game"),
    }


@bp.get("/games/<int:game_id>/export")
def export(game_id: int) -> Response:
    record = record_of(game_id)
    try:
        exported = the_table().export(
            game_id, REFEREE if access.is_local() else SPECTATOR, timeout()
        )
    except Refused as e:
        abort(409, f"{e.message[0].upper()}{e.message[1:]}.")
    response = jsonify({**exported, "bgg": bgg(record.kind)})
    response.headers["Content-Disposition"] = f'attachment; filename="atlantis-game-{game_id}.json"'
    return response


def play(record: GameRecord) -> dict[str, Any]:
    """The play as BG Stats reads it (the fields its import link takes)."""
    outcome = record.outcome or {}
    places = {p["seat"]: p for p in outcome.get("ranking", [])}
    winners = set(outcome.get("winners", []))
    ended = record.ended_at if record.ended_at is not None else record.started_at
    local_start = datetime.datetime.fromtimestamp(record.started_at)
    info = bgg(record.kind)
    modules = ", ".join(record.rules.get("modules", ["base"]))
    comments = f"Played with the Atlantis companion (game {record.id}; rules: {modules})."
    if not info["verified"]:
        comments += f" The BoardGameGeek id {info['id']} is unverified: check it."
    return {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": f"{record.id}-{int(record.started_at)}",
        "playDate": local_start.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, round((ended - record.started_at) / 60)),
        "comments": comments,
        "game": {
            "name": games().get(record.kind, {}).get("name", record.kind),
            "bggId": info["id"],
            "highestWins": True,
            "noPoints": False,
            "sourceGameId": record.kind,
        },
        "players": [
            {
                "name": p["name"],
                "sourcePlayerId": f"seat-{p['seat'] + 1}",
                "score": places.get(p["seat"], {}).get("points"),
                "rank": places.get(p["seat"], {}).get("place"),
                "winner": p["seat"] in winners,
                "startPlayer": p["seat"] == 0,
                "color": p.get("colour"),
            }
            for p in record.players
        ],
    }


@bp.get("/games/<int:game_id>/bgstats")
def bgstats(game_id: int) -> WerkzeugResponse:
    record = record_of(game_id)
    if record.ended_at is None or record.outcome is None:
        abort(409, f"Game {game_id} is not over yet: BG Stats logs a play once it has a ranking.")
    data = play(record)
    encoded = quote(json.dumps(data, separators=(",", ":"), ensure_ascii=False), safe="")
    link = APP_LINK + encoded
    answer = {"link": link, "web_link": WEB_LINK + encoded, "play": data, "bgg": bgg(record.kind)}
    if request.accept_mimetypes.best_match(["text/html", "application/json"]) == "application/json":
        return jsonify(answer)
    return redirect(link, 302)
