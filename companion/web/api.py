"""The JSON API under ``/api``: the daemon's outside face.

Every change goes through the Table as a command (`Table.call`); every read runs on the Table's
thread (`Table.read`, `Table.snapshot`), so a request never sees a game half-changed. Bodies are
JSON (``Content-Type: application/json``, at most 64 KiB); every answer is JSON.

``POST /api/games`` — start a game (the Table's ``new_game`` intent)::

    {"players": [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}],
     "modules": ["base"], "options": {"tiebreak": "chain"}, "seed": 7,
     "mode": "digital" | "physical", "layout": "random" | "table", "kind": "survive",
     "request_id": "phone-7-1"}      (optional: a resent start returns the same game)

    201 {"game": 3}     (and Location: /api/games/3)
    422 {"error": "...", "rule": "B-4"}     the Table would not start it (rule id when a rule says so)

  ``position`` (text, ``companion/engine/README.md``) starts the game at that position — a
  puzzle, a lesson, a table re-created after a mistake — with its rules, mode and seed; a
  position that cannot happen is a 422 naming the rule it breaks.

  Only ``players`` is required: 2 to 4 entries, each with an optional ``name`` (≤ 40 characters)
  and ``colour`` (≤ 20), and ``bot`` (``easy``, ``normal`` or ``strong``) for a seat the
  companion plays. ``hints`` (true or false, the default) lets each person's phone ask the bot
  for a suggested move (``GET /api/games/<id>/hint``). The others default as the Table decides
  (base rules, a secret seed, digital, a random island). A ``seed`` given makes every draw
  predictable: it is for tests.

  A Flotilla game (``"kind": "flotilla"``, 3 to 5 players) takes ``players``, ``seed``,
  ``roll`` (``"entered"``, the default: faces come from the real dice; or ``"digital"``) and
  ``vp_per_player`` (the VP supply counted per player; default the dice file's, unverified) and
  ``second_ties`` (a tie for second most guild seals: ``toxicity``, the default, lower toxicity
  then friendly as for the most seals; or ``friendly`` at once).
  Its actions are JSON lists (`companion.flotilla.game`), never text.

``GET /api/games`` — ``{"games": [{"id", "kind", "mode", "players", "started_at", "ended_at",
"winners", "current"}]}``, oldest first. ``winners`` lists the players placed first once the
game is over (several when they share the victory); ``current`` marks the table's current game.
Seeds are left out: in a digital game the seed tells every draw to come.

``GET /api/games/<id>?view=spectator|referee|<seat>`` — the game as that viewer may see it
(`Table.snapshot`): ``{"game", "kind", "players", "settings", "seq", "actions", "can_undo",
"status", "state"}``, plus ``legal`` and ``outcomes`` for the viewer who decides now (see
`companion.kinds.choices`). Without ``view``, this phone's own view: its seat's (seat cookie),
else a spectator's. A phone may ask for its own seat or a spectator; the referee and any seat
only the table itself (`access`). What a view may see is the engine's decision, never this
module's.

``POST /api/games/<id>/commands`` — one command::

    {"request_id": "phone-7-42", "seat": 1, "action": "move A1 5.2"}
    {"request_id": "phone-7-43", "seat": 1, "action": ["move", 0, 58]}
    {"request_id": "panel-9", "seat": null, "intent": "roll"}
    {"request_id": "ref-1", "intent": "correct", "args": {"seq": 70, "action": "roll whale"}}

    200 the Reply: {"request_id", "accepted": true, "game", "seq", "events", "rule", "message"}
    409 the Reply, refused: {"accepted": false, "rule": "B-8", "message": "...", "error": "..."}

  ``request_id`` (1 to 100 characters, the sender's choice) comes back in the reply. Exactly one
  of ``action`` (text notation, or its JSON list) and ``intent`` (``roll``, ``draw``, ``next``,
  ``undo``, ``correct``, ``confirm_proposal``, ``reject_proposal``); ``args`` only with
  ``correct``: ``seq`` of the stored fact to correct and the ``action`` it should have been; and
  with the camera's two: ``id`` of the proposal answered (the snapshot's ``camera``) and, to
  confirm one of a question's choices, its ``hex``, or the corrections to a proposed island,
  ``layout`` (``{"3.4": "forest"}``). ``events`` are the sender's projection: a
  command with ``seat: null`` acts for the table (the referee) and gets the referee's projection.

  The seat is the phone's seat cookie: leave ``seat`` out (a seat that disagrees is a 403). A
  phone that watches may send only ``roll``, ``draw``, ``next`` and ``undo`` (the table's
  buttons), and its reply carries no ``events`` (they would be the referee's: its stream has
  them). Only the table itself (loopback) sends a ``seat`` of its choosing (`access`).

``GET /api/games/<id>/actions`` — the stored log. The table itself (loopback) reads every row
whatever its status:
``{"game", "actions": [{"seq", "ord", "action", "notation", "source", "seat", "at", "status",
"note"}]}`` in log order (``status``: ok, undone, corrected or superseded). A phone reads the
rows in force only, each as its seat (or a spectator) may know it: a value it may not see is
left out (``place 3.4 =?``), a red back kept by another as ``back red`` (`Table.log`).

``GET /api/games/<id>/position?view=...&at=SEQ`` — ``{"game", "at", "position"}``: the game's
position as text (the format is in ``companion/engine/README.md``) as the view may see it (the
same views as above: a seat's position holds its own tiles and no other hidden fact), now or
after the action numbered ``at``. 409 for a Flotilla game or an action not in force.

``GET /api/health`` — ``{"ok": true, "table_alive": bool, "status": {"panel": ..., "camera":
...}}``: ``ok`` says the web server answers; ``table_alive`` that the Table's thread goes round.

Seats: what a client *sends* counts seats from 1, as players do (``seat``, ``view``). Game data
passed through from the Table and the engine (``players``, ``state``, reply ``events``, log rows)
keeps the engine's 0-based seat indexes.

Errors: a 4xx with ``{"error": "<one sentence saying what to do>"}`` — 400 unreadable JSON or
a bad query, 404 no such game or address, 405 wrong method, 413 body too large, 415 not JSON,
422 JSON of the wrong shape, 503 the Table did not answer in time (for a command, the
sentence says whether it was withdrawn or may still be carried out). 403: not allowed to this
phone (no PIN, no CSRF token, another seat's view or command: `access` says who may do what).
Every POST needs the PIN and the ``X-CSRF-Token`` header, except from the table itself.
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, cast

from flask import Blueprint, abort, current_app, request, url_for

from ..commands import REFEREE, SPECTATOR, Command, Reply
from ..engine import board, parse, paths
from ..kinds import KINDS, MALFORMED
from ..table import GameRecord, Refused, Table, UnknownGame
from . import access, payload
from .payload import unprocessable

bp = Blueprint("api", __name__, url_prefix="/api")

INTENTS = ("roll", "draw", "next", "undo", "correct", "confirm_proposal", "reject_proposal")
"""The Table's intents a client may send here (new_game has its own address)."""

COMMAND_FIELDS = ("request_id", "seat", "action", "intent", "args", "at", "expires")
GAME_FIELDS = (
    "players", "modules", "options", "seed", "mode", "layout", "kind", "request_id", "position",
    "hints",
)  # fmt: skip
FLOTILLA_FIELDS = ("roll", "vp_per_player", "second_ties")
"""A Flotilla game's own settings (`companion.kinds.flotilla_setup`)."""
HEARTBEAT_STALE = 5.0
"""Seconds without the Table's loop coming round before it counts as stuck (it comes round at
least once a second when idle)."""


def the_table() -> Table:
    return cast(Table, current_app.extensions["companion.table"])


def timeout() -> float:
    return float(current_app.config["TABLE_TIMEOUT"])


# -- games ------------------------------------------------------------------------------------


@bp.post("/games")
@access.guarded()
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    data = payload.body()
    args = _new_game_args(data)
    # Optional: a client that resends a start whose answer it lost gets the same game back.
    request = payload.text(data["request_id"], "request_id", 100) if "request_id" in data else ""
    reply = _send(Command("phone", intent="new_game", args=args, request_id=request))
    if not reply.accepted:
        refusal: dict[str, Any] = {"error": f"{reply.message}."}
        if reply.rule is not None:
            refusal["rule"] = reply.rule
        return refusal, 422, {}
    assert reply.game is not None
    return {"game": reply.game}, 201, {"Location": url_for("api.game", game_id=reply.game)}


@bp.get("/games")
def list_games() -> dict[str, Any]:
    records, current = the_table().games(timeout())
    return {"games": [_summary(r, r.id == current) for r in records]}


@bp.get("/games/<int:game_id>")
def game(game_id: int) -> dict[str, Any]:
    record = record_of(game_id)
    view = access.view_for(game_id, len(record.players), request.args.get("view"))
    try:
        return the_table().snapshot(game_id, view)
    except Refused as e:
        abort(409, f"{e.message}.")


@bp.post("/games/<int:game_id>/commands")
@access.guarded()
def command(game_id: int) -> tuple[dict[str, Any], int]:
    data = payload.body()
    record = record_of(game_id)
    sent = _command(data, game_id, len(record.players), record.kind)
    seat = access.sender_seat(game_id, len(record.players), data, sent.seat, sent.intent)
    # A phone's reply is written for its seat, or for a spectator: the Table projects it.
    reader = None if access.is_local() or seat is not None else SPECTATOR
    reply = _send(dataclasses.replace(sent, seat=seat, view=reader))
    answer = reply.to_json()
    if reply.accepted:
        return answer, 200
    return {**answer, "error": f"{answer['message']}."}, 409


@bp.get("/games/<int:game_id>/actions")
def actions(game_id: int) -> dict[str, Any]:
    record = record_of(game_id)
    if access.is_local():
        view: int | str = REFEREE
    else:  # a phone: the actions in force, as its seat (or a spectator) may know them
        seat = access.seat_in(game_id, len(record.players))
        view = SPECTATOR if seat is None else seat
    return {"game": game_id, "actions": the_table().log(game_id, view, timeout())}


@bp.get("/games/<int:game_id>/position")
def position(game_id: int) -> dict[str, Any]:
    """The position as text (``companion/engine/README.md``), as the asking view may see it."""
    record = record_of(game_id)
    view = access.view_for(game_id, len(record.players), request.args.get("view"))
    at = request.args.get("at")
    if at is not None and not (at.isascii() and at.isdigit() and len(at) <= 9):
        abort(400, f"at must be an action's number, not {at[:24]!r}.")
    try:
        text = the_table().position(game_id, view, None if at is None else int(at), timeout())
    except Refused as e:
        abort(409, f"{e.message}.")
    return {"game": game_id, "at": None if at is None else int(at), "position": text}


@bp.get("/games/<int:game_id>/reach")
def reach(game_id: int) -> dict[str, Any]:
    """Where one tap can take a piece: ``?verb=go|sail|creature|ride&piece=N`` (the piece's
    index, as in the legal actions) gives ``{"game", "version", "paths": {"58": [57, 58]}}``,
    each space a whole move can end on (two spaces away or more) with the path there."""
    record_of(game_id)
    verb = request.args.get("verb", "")
    if verb not in paths.STEP:
        abort(400, f"verb must be one of {', '.join(paths.STEP)}, not {verb[:24]!r}.")
    piece = request.args.get("piece", "")
    if not (piece.isascii() and piece.isdigit() and len(piece) <= 4):
        abort(400, f"piece must be a piece's number, not {piece[:24]!r}.")
    try:
        return {"game": game_id, **the_table().reach(game_id, verb, int(piece), timeout())}
    except Refused as e:
        abort(409, f"{e.message}.")


@bp.get("/health")
def health() -> dict[str, Any]:
    table = the_table()
    return {"ok": True, "table_alive": table_alive(table), "status": dict(table.status)}


def table_alive(table: Table) -> bool:
    """The Table's thread runs and its loop came round lately (read without asking it)."""
    # Asking the Table would hang this probe exactly when the Table is stuck.
    return table.alive and time.monotonic() - table.heartbeat < HEARTBEAT_STALE


def _send(command: Command) -> Reply:
    """The Table's reply; a 503 if it does not come in time, saying whether to send again."""
    future = the_table().submit(command)
    try:
        return future.result(timeout())
    except TimeoutError:
        if future.cancel():  # still queued: now it never will be carried out
            abort(503, "The table is busy and did not take the command; send it again shortly.")
        abort(
            503,
            "The table is slow to answer and may still carry the command out: read the game "
            "before sending it again.",
        )


# -- reading requests -------------------------------------------------------------------------


def record_of(game_id: int) -> GameRecord:
    """The stored game, or a 404 that says how to find the games there are."""
    missing = f"There is no game {game_id}: GET /api/games lists the games."
    if game_id > payload.MAX_INT:  # beyond what the store can even look up
        abort(404, missing)
    try:
        return the_table().record(game_id, timeout())
    except UnknownGame:
        abort(404, missing)


def _command(data: dict[str, Any], game_id: int, players: int, kind: str) -> Command:
    payload.only(data, COMMAND_FIELDS, "A command")
    if "request_id" not in data:
        unprocessable(
            "request_id is missing: give each command a string of your choosing (a counter will "
            "do) so that its reply can be matched to it."
        )
    request_id = payload.text(data["request_id"], "request_id", 100)
    seat = data.get("seat")
    if seat is not None:
        seat = payload.integer(seat, "seat", 1, players) - 1
    if ("action" in data) == ("intent" in data):
        unprocessable(
            'A command carries either an action (e.g. "move A1 5.2") or an intent (e.g. "roll"), '
            "exactly one of them."
        )
    if "action" in data:
        if "args" in data:
            unprocessable("args go with an intent, not with an action: remove args.")
        action = _action(data["action"], "action", kind)
        return Command("phone", seat, request_id, game_id, action=action, **_timely(data))
    intent = data["intent"]
    if not isinstance(intent, str) or intent not in INTENTS:
        unprocessable(f"intent must be one of {', '.join(INTENTS)}, not {payload.kind(intent)}.")
    args = data.get("args", {})
    if not isinstance(args, dict):
        unprocessable(f"args must be a JSON object, not {payload.kind(args)}.")
    return Command(
        "phone",
        seat,
        request_id,
        game_id,
        intent=intent,
        args=_args(intent, args, kind),
        **_timely(data),
    )


def _timely(data: dict[str, Any]) -> dict[str, Any]:
    """``at`` (the snapshot's ``version`` the tap was made on) and ``expires`` (the table's
    epoch seconds after which the phone no longer waits): a command that arrives too late or
    on another board is refused as stale (409 with ``"stale": true``), never done unseen."""
    out: dict[str, Any] = {}
    if "at" in data:
        out["at"] = payload.integer(data["at"], "at", 0)
    if "expires" in data:
        expires = data["expires"]
        if isinstance(expires, bool) or not isinstance(expires, int | float) or expires < 0:
            unprocessable(f"expires must be a time in seconds, not {payload.kind(expires)}.")
        out["expires"] = float(expires)
    return out


def _args(intent: str, args: dict[str, Any], kind: str) -> dict[str, Any]:
    if intent in ("confirm_proposal", "reject_proposal"):
        return _proposal_args(intent, args)
    if intent != "correct":
        if args:
            unprocessable(f"{intent} takes no args: remove args.")
        return {}
    payload.only(args, ("seq", "action"), "The args of correct")
    for key in ("seq", "action"):
        if key not in args:
            unprocessable(
                f"correct needs args.{key}: the seq of the stored fact and the action it should "
                'have been, e.g. {"seq": 70, "action": "roll whale"}.'
            )
    return {
        "seq": payload.integer(args["seq"], "args.seq", 1),
        "action": _action(args["action"], "args.action", kind),
    }


def _proposal_args(intent: str, args: dict[str, Any]) -> dict[str, Any]:
    """The camera proposal answered (its ``id`` from the snapshot's ``camera``) and, for a
    confirm, optionally which of its choices (``hex``, the hex's index) or the corrections to
    a proposed island (``layout``, ``{"3.4": "forest", ...}``)."""
    keys = ("id", "hex", "layout") if intent == "confirm_proposal" else ("id",)
    payload.only(args, keys, f"The args of {intent}")
    if "id" not in args:
        unprocessable(
            f'{intent} needs args.id: the id of the camera proposal answered, e.g. {{"id": 3}}.'
        )
    out: dict[str, Any] = {"id": payload.integer(args["id"], "args.id", 1)}
    if "hex" in args:
        out["hex"] = payload.integer(args["hex"], "args.hex", 0)
    if "layout" in args:
        layout = args["layout"]
        if not isinstance(layout, dict):
            unprocessable(
                'args.layout must be an object like {"3.4": "forest"}, not '
                f"{payload.kind(layout)}."
            )
        try:  # the terrains are the Table's to check
            out["layout"] = {board.parse(k): payload.text(t, f"args.layout.{k}", 20)
                             for k, t in layout.items()}  # fmt: skip
        except ValueError as e:
            unprocessable(f"args.layout: {e}.")
    return out


def _action(value: Any, key: str, kind: str) -> list[Any]:
    """An action from its text notation or its JSON list, checked for form (not legality) as
    the game's kind reads actions; a Flotilla action is a JSON list only."""
    try:
        if isinstance(value, str) and kind == "survive":
            return list(parse(value))
        if isinstance(value, list):
            return KINDS[kind].check(value)
    except MALFORMED as e:
        unprocessable(f"The {key} cannot be read: {e}.")
    if kind == "flotilla":
        unprocessable(f'{key} must be a JSON list such as ["vp", 3], not {payload.kind(value)}.')
    unprocessable(
        f'{key} must be text such as "move A1 5.2" or a JSON list such as ["move", 0, 58], '
        f"not {payload.kind(value)}."
    )


def _new_game_args(data: dict[str, Any]) -> dict[str, Any]:
    payload.only(data, GAME_FIELDS + FLOTILLA_FIELDS, "A new game")
    players = data.get("players")
    if not isinstance(players, list) or not players:
        unprocessable(
            'players must be a list with one entry per seat, like [{"name": "Ana", "colour": '
            '"red"}, {"name": "Bo", "colour": "blue"}].'
        )
    seats = []
    for i, player in enumerate(players):
        where = f"players[{i}]"
        if not isinstance(player, dict):
            unprocessable(f'{where} must be an object like {{"name": "Ana", "colour": "red"}}.')
        payload.only(player, ("name", "colour", "bot"), where)
        seats.append(
            {
                key: payload.text(player[key], f"{where}.{key}", longest)
                for key, longest in (("name", 40), ("colour", 20), ("bot", 20))
                if player.get(key) is not None
            }
        )
    args: dict[str, Any] = {"players": seats}
    if "modules" in data:
        modules = data["modules"]
        if not isinstance(modules, list) or not modules:
            unprocessable(
                f'modules must be a list of names like ["base"], not {payload.kind(modules)}.'
            )
        args["modules"] = [payload.text(m, f"modules[{i}]", 40) for i, m in enumerate(modules)]
    if "options" in data:
        options = data["options"]
        if not isinstance(options, dict):
            unprocessable(
                f'options must be an object like {{"tiebreak": "chain"}}, not {payload.kind(options)}.'
            )
        args["options"] = {k: payload.text(v, f"options.{k}", 40) for k, v in options.items()}
    if "seed" in data:
        args["seed"] = payload.integer(data["seed"], "seed", 0)
    # their values are the Table's to check
    for key in ("mode", "layout", "kind", "roll", "second_ties"):
        if key in data:
            args[key] = payload.text(data[key], key, 20)
    if "position" in data:  # the rules, mode and seed are the position's
        args["position"] = payload.text(data["position"], "position", 8000)
    if "hints" in data:
        if not isinstance(data["hints"], bool):
            unprocessable(f"hints must be true or false, not {payload.kind(data['hints'])}.")
        args["hints"] = data["hints"]
    if "vp_per_player" in data:
        args["vp_per_player"] = payload.integer(data["vp_per_player"], "vp_per_player", 1)
    return args


# -- writing answers --------------------------------------------------------------------------


def _summary(record: GameRecord, current: bool) -> dict[str, Any]:
    firsts = {p["seat"] for p in (record.outcome or {}).get("ranking", []) if p["place"] == 1}
    return {
        "id": record.id,
        "kind": record.kind,
        "mode": record.mode,
        "players": record.players,
        "started_at": record.started_at,
        "ended_at": record.ended_at,
        "winners": [p for p in record.players if p["seat"] in firsts],
        "current": current,
    }
