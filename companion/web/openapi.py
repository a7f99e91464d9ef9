"""The API described for machines: ``GET /api/openapi.json`` (OpenAPI 3.0), written by hand.

The document is data, kept beside the code it describes: a test holds every ``/api`` route of
the app to it, and a fuzzing test (schemathesis) sends what it describes to the app. The
module docstrings of `api`, `session`, `stream`, `gamedata` and `export` say the same in words.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from ..commands import INTENTS

bp = Blueprint("openapi", __name__, url_prefix="/api")

ERROR = {"$ref": "#/components/schemas/Error"}
JSON = "application/json"


def answer(description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": schema or ERROR}}}


def errors(*codes: int) -> dict[str, Any]:
    said = {
        400: "Unreadable JSON or a bad query.",
        403: "Not allowed to this phone: no PIN, no or a stale CSRF token, another seat.",
        404: "No such game.",
        409: "Refused by the rules (with `rule`), or not possible in the game's state.",
        413: "Body too large.",
        415: "Body is not JSON.",
        422: "JSON of the wrong shape.",
        429: "Too many wrong PINs: wait (Retry-After).",
        503: "The table did not answer in time.",
    }
    return {str(code): answer(said[code]) for code in codes}


def body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {JSON: {"schema": schema}}}


GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 0},
    "example": 1,
    "description": "The game's number (GET /api/games lists them).",
}
VIEW = {
    "name": "view",
    "in": "query",
    "required": False,
    "schema": {"type": "string", "pattern": "^(spectator|referee|[1-6])$"},
    "description": "spectator, referee (the table itself only) or a seat from 1 (this phone's "
    "own, or any for the table itself). Without it: this phone's own view.",
}
GUARDED: list[dict[str, list[str]]] = [{"session": [], "csrf": []}]
"""POSTs: the session cookie (with the PIN given) and the X-CSRF-Token header."""
SSE = {
    "description": "text/event-stream: `snapshot` first, then each event (`event`, `id`, "
    "`data`), `: ping` every 15 s; `busy` when too many streams are open.",
    "content": {"text/event-stream": {"schema": {"type": "string"}}},
}
OBJECT = {"type": "object"}
SEAT = {
    "type": "object",
    "required": ["game", "seat"],
    "properties": {
        "game": {"type": "integer", "minimum": 1},
        "seat": {"type": "integer", "minimum": 1, "nullable": True},
    },
    "additionalProperties": False,
}

SCHEMAS: dict[str, Any] = {
    "Error": {
        "type": "object",
        "required": ["error"],
        "properties": {"error": {"type": "string"}, "rule": {"type": "string"}},
    },
    "Session": {
        "type": "object",
        "required": ["authorised", "game", "seat", "csrf", "language"],
        "properties": {
            "authorised": {"type": "boolean"},
            "game": {"type": "integer", "nullable": True},
            "seat": {"type": "integer", "minimum": 1, "nullable": True},
            "csrf": {"type": "string"},
            "language": {"type": "string", "enum": ["en", "es", "fr"]},
        },
    },
    "NewGame": {
        "type": "object",
        "required": ["players"],
        "properties": {
            "players": {
                "type": "array",
                "minItems": 1,
                "maxItems": 8,
                "items": {
                    "type": "object",
                    "properties": {
                        "name": {"type": "string", "minLength": 1, "maxLength": 40},
                        "colour": {"type": "string", "minLength": 1, "maxLength": 20},
                        "bot": {"type": "string", "enum": ["easy", "normal", "strong"]},
                    },
                    "additionalProperties": False,
                },
            },
            "modules": {"type": "array", "items": {"type": "string"}, "minItems": 1},
            "options": {"type": "object", "additionalProperties": {"type": "string"}},
            "seed": {
                "type": "integer",
                "minimum": 0,
                "description": "for tests: predictable draws; left out, the game's seed is a "
                "secret that only the table itself is shown",
            },
            "mode": {"type": "string", "enum": ["digital", "physical"]},
            "layout": {"type": "string", "enum": ["random", "table"]},
            "kind": {"type": "string", "enum": ["survive", "flotilla"]},
            "roll": {"type": "string", "enum": ["entered", "digital"]},
            "vp_per_player": {"type": "integer", "minimum": 1, "maximum": 1000},
            "second_ties": {"type": "string", "enum": ["toxicity", "friendly"]},
            "request_id": {"type": "string", "minLength": 1, "maxLength": 100},
            "position": {"type": "string", "minLength": 1, "maxLength": 8000},
            "hints": {
                "type": "boolean",
                "description": "each person's phone may ask the bot for a suggested move",
            },
        },
        "additionalProperties": False,
    },
    "Command": {
        "type": "object",
        "required": ["request_id"],
        "properties": {
            "request_id": {"type": "string", "minLength": 1, "maxLength": 100},
            "seat": {"type": "integer", "minimum": 1, "nullable": True},
            "action": {
                "oneOf": [
                    {"type": "string", "example": "move A1 5.2"},
                    {"type": "array", "example": ["move", 0, 58]},
                ]
            },
            "intent": {"type": "string", "enum": [i for i in INTENTS if i != "new_game"]},
            "args": {
                "type": "object",
                "description": "correct: seq and action; confirm_proposal / reject_proposal: the "
                "proposal's id, and for a confirm the hex chosen of a question or the layout's "
                "corrections (position name → terrain)",
                "properties": {
                    "seq": {"type": "integer", "minimum": 1},
                    "action": {},
                    "id": {"type": "integer", "minimum": 1},
                    "hex": {"type": "integer", "minimum": 0},
                    "layout": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
            "at": {
                "type": "integer",
                "minimum": 0,
                "description": "the snapshot's version the tap was made on: another is stale",
            },
            "expires": {
                "type": "number",
                "minimum": 0,
                "description": "the table's epoch seconds after which the sender stopped waiting",
            },
        },
        "additionalProperties": False,
    },
    "Reply": {
        "type": "object",
        "required": ["request_id", "accepted"],
        "properties": {
            "request_id": {"type": "string"},
            "accepted": {"type": "boolean"},
            "game": {"type": "integer", "nullable": True},
            "seq": {"type": "integer", "nullable": True},
            "events": {"type": "array", "items": OBJECT},
            "rule": {"type": "string", "nullable": True},
            "message": {"type": "string"},
            "stale": {"type": "boolean"},
            # A refusal as data: a page words `key` with `params` in its own language.
            "key": {"type": "string", "nullable": True},
            "params": OBJECT,
        },
    },
    "Snapshot": {
        "type": "object",
        "required": ["game", "kind", "players", "settings", "seq", "state"],
        "properties": {
            "game": {"type": "integer"},
            "kind": {"type": "string"},
            "players": {"type": "array", "items": OBJECT},
            "settings": OBJECT,
            "seq": {"type": "integer"},
            "actions": {"type": "integer"},
            "version": {"type": "integer"},
            "can_undo": {"type": "boolean"},
            "status": OBJECT,
            "state": OBJECT,
            "legal": {"type": "array", "items": {"type": "array"}},
            "outcomes": {"type": "array", "items": {"type": "array"}},
        },
    },
}

PATHS: dict[str, Any] = {
    "/api/health": {
        "get": {
            "summary": "Does the web server answer, and does the Table's thread go round?",
            "responses": {"200": answer("Health.", OBJECT)},
        }
    },
    "/api/openapi.json": {
        "get": {"summary": "This document.", "responses": {"200": answer("OpenAPI.", OBJECT)}}
    },
    "/api/session": {
        "get": {
            "summary": "This phone's session: PIN given, seat, CSRF token, language.",
            "responses": {"200": answer("The session.", {"$ref": "#/components/schemas/Session"})},
        }
    },
    "/api/session/pin": {
        "post": {
            "summary": "Give the table PIN (once per phone).",
            "security": [{"csrf": []}],
            "requestBody": body(
                {
                    "type": "object",
                    "required": ["pin"],
                    "properties": {"pin": {"type": "string", "minLength": 1, "maxLength": 20}},
                    "additionalProperties": False,
                }
            ),
            "responses": {
                "200": answer("Authorised.", {"$ref": "#/components/schemas/Session"}),
                **errors(400, 403, 413, 415, 422, 429),
            },
        }
    },
    "/api/session/seat": {
        "post": {
            "summary": "Take a seat of a game (needs the PIN), or watch (seat null). A seat "
            "another phone holds is a 409 until it leaves it, the table hands it over or that "
            "phone has been silent for 5 minutes.",
            "security": [{"csrf": []}],
            "requestBody": body(SEAT),
            "responses": {
                "200": answer("The session.", {"$ref": "#/components/schemas/Session"}),
                **errors(400, 403, 404, 409, 413, 415, 422, 503),
            },
        }
    },
    "/api/session/release": {
        "post": {
            "summary": "The table itself (the Pi) hands a seat over: the next phone to ask "
            "takes it.",
            "requestBody": body(SEAT),
            "responses": {
                "200": answer("The session.", {"$ref": "#/components/schemas/Session"}),
                **errors(400, 403, 404, 413, 415, 422, 503),
            },
        }
    },
    "/api/session/language": {
        "post": {
            "summary": "Choose the page's language (kept in the `lang` cookie).",
            "security": [{"csrf": []}],
            "requestBody": body(
                {
                    "type": "object",
                    "required": ["language"],
                    "properties": {"language": {"type": "string", "enum": ["en", "es", "fr"]}},
                    "additionalProperties": False,
                }
            ),
            "responses": {
                "200": answer("The session.", {"$ref": "#/components/schemas/Session"}),
                **errors(400, 403, 413, 415, 422),
            },
        }
    },
    "/api/voice": {
        "get": {
            "summary": "The table's voice: its settings and the announcements the screen speaks.",
            "parameters": [
                {"name": "after", "in": "query", "schema": {"type": "integer", "minimum": 0}},
                {"name": "wait", "in": "query", "schema": {"type": "number", "minimum": 0}},
            ],
            "responses": {"200": answer("The voice.", OBJECT), **errors(422)},
        },
        "post": {
            "summary": "Mute the table's voice for everyone, or let it speak again.",
            "security": GUARDED,
            "requestBody": body(
                {
                    "type": "object",
                    "required": ["muted"],
                    "properties": {"muted": {"type": "boolean"}},
                    "additionalProperties": False,
                }
            ),
            "responses": {
                "200": answer("The voice.", OBJECT),
                **errors(400, 403, 413, 415, 422),
            },
        },
    },
    "/api/games": {
        "get": {
            "summary": "Every game, oldest first.",
            "responses": {"200": answer("The games.", OBJECT), **errors(503)},
        },
        "post": {
            "summary": "Start a game.",
            "security": GUARDED,
            "requestBody": body({"$ref": "#/components/schemas/NewGame"}),
            "responses": {
                "201": answer(
                    "Started.", {"type": "object", "properties": {"game": {"type": "integer"}}}
                ),
                **errors(400, 403, 413, 415, 422, 503),
            },
        },
    },
    "/api/games/{game_id}": {
        "get": {
            "summary": "The game as a viewer may see it.",
            "parameters": [GAME_ID, VIEW],
            "responses": {
                "200": answer("The snapshot.", {"$ref": "#/components/schemas/Snapshot"}),
                **errors(400, 403, 404, 409, 503),
            },
        }
    },
    "/api/games/{game_id}/commands": {
        "post": {
            "summary": "One command: an action or a table intent, for this phone's seat.",
            "parameters": [GAME_ID],
            "security": GUARDED,
            "requestBody": body({"$ref": "#/components/schemas/Command"}),
            "responses": {
                "200": answer("Accepted.", {"$ref": "#/components/schemas/Reply"}),
                "409": answer("Refused by the table.", {"$ref": "#/components/schemas/Reply"}),
                **errors(400, 403, 404, 413, 415, 422, 503),
            },
        }
    },
    "/api/games/{game_id}/actions": {
        "get": {
            "summary": "The stored log, every row (the table itself only: it holds hidden values).",
            "parameters": [GAME_ID],
            "responses": {"200": answer("The log.", OBJECT), **errors(403, 404, 503)},
        }
    },
    "/api/games/{game_id}/position": {
        "get": {
            "summary": "The position as text (companion/engine/README.md), as this view may see it.",
            "parameters": [
                GAME_ID,
                VIEW,
                {
                    "name": "at",
                    "in": "query",
                    "required": False,
                    "description": "After the action with this number (default: now).",
                    "schema": {"type": "integer", "minimum": 0},
                },
            ],
            "responses": {
                "200": answer("The position.", OBJECT),
                **errors(400, 403, 404, 409, 503),
            },
        }
    },
    "/api/games/{game_id}/reach": {
        "get": {
            "summary": "Where one tap can take a piece: each space a whole move ends on, with its path.",
            "parameters": [
                GAME_ID,
                {
                    "name": "verb",
                    "in": "query",
                    "required": True,
                    "schema": {"type": "string", "enum": ["go", "sail", "creature", "ride"]},
                },
                {
                    "name": "piece",
                    "in": "query",
                    "required": True,
                    "description": "The piece's number, as in the legal actions.",
                    "schema": {"type": "integer", "minimum": 0, "maximum": 9999},
                },
            ],
            "responses": {
                "200": answer("The paths.", OBJECT),
                **errors(400, 403, 404, 409, 503),
            },
        }
    },
    "/api/games/{game_id}/hint": {
        "get": {
            "summary": "The move the normal bot suggests to this phone's seat now, and why "
            "(only when the game was set up with hints).",
            "parameters": [GAME_ID],
            "responses": {
                "200": answer("The suggested action and its reason.", OBJECT),
                **errors(403, 404, 409, 503),
            },
        }
    },
    "/api/games/{game_id}/stream": {
        "get": {
            "summary": "Server-Sent Events of the game for this phone's view.",
            "parameters": [GAME_ID, VIEW],
            "responses": {"200": SSE, **errors(400, 403, 404, 503)},
        }
    },
    "/api/stream": {
        "get": {
            "summary": "Server-Sent Events of whichever game is current.",
            "parameters": [VIEW],
            "responses": {"200": SSE, **errors(400, 403, 503)},
        }
    },
    "/api/board": {
        "get": {
            "summary": "Every hex (index, name, kind, x, y) and the pieces by index.",
            "responses": {"200": answer("The board.", OBJECT)},
        }
    },
    "/api/rules": {
        "get": {
            "summary": "Modules, options with explanations and defaults, unverified data.",
            "responses": {"200": answer("The rules.", OBJECT)},
        }
    },
    "/api/games/{game_id}/export": {
        "get": {
            "summary": "The whole play as JSON (in play: the table itself only).",
            "parameters": [GAME_ID],
            "responses": {"200": answer("The play.", OBJECT), **errors(404, 409, 503)},
        }
    },
    "/api/games/{game_id}/bgstats": {
        "get": {
            "summary": "A link that logs the finished play in BG Stats.",
            "parameters": [GAME_ID],
            "responses": {
                "200": answer("With Accept: application/json: the link and the play.", OBJECT),
                "302": {"description": "A browser's tap: to the BG Stats app's import link."},
                **errors(404, 409, 503),
            },
        }
    },
}

DOCUMENT: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {
        "title": "Atlantis table companion",
        "version": "1",
        "description": "The phone page's API (web/README.md). Seats sent by clients count "
        "from 1; game data passed through keeps the engine's 0-based seats. Every error is "
        '{"error": "<one sentence saying what to do>"}.',
    },
    "paths": PATHS,
    "components": {
        "schemas": SCHEMAS,
        "securitySchemes": {
            "session": {"type": "apiKey", "in": "cookie", "name": "companion_session"},
            "csrf": {"type": "apiKey", "in": "header", "name": "X-CSRF-Token"},
        },
    },
}


@bp.get("/openapi.json")
def document() -> dict[str, Any]:
    return DOCUMENT
