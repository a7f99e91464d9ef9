"""The companion's web face: a Flask app made around a running Table.

The daemon builds the Table and hands it in (``create_app(table, config)``); nothing here
creates game state or reaches it except through the Table's face (`submit`, `call`, `read`,
`snapshot`, `subscribe`). Each concern is a blueprint:

- `pages`: the phone page (``/``) and its catalogues; its files come from ``web/`` (`assets`);
- `screen`: the table screen (``/table``) and the table's voice (``/api/voice``);
- `session`: the PIN, the seat and the language of each phone (``/api/session``);
- `api`: games and commands (``/api/games``), health;
- `stream`: Server-Sent Events of a game for one viewer;
- `gamedata`: the board and the rules; `export`: a finished play as JSON and for BG Stats;
- `openapi`: the API described (``/api/openapi.json``);
- `portal` (companion.network): phones' captive-portal probes, while the table is a hotspot.

Who may do what is `access`'s; web/README.md is the contract with the page.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import Flask
from werkzeug.wrappers import Response

from ..config import Config
from ..network import portal
from ..table import Table
from . import api, errors, export, gamedata, hints, openapi, pages, screen, session, stream
from .assets import web_folder
from .cookies import UntimedSessions
from .seats import Seats
from .serving import MAX_BODY

STREAM_HEADROOM = 4
"""Waitress threads kept free of event streams, for the API's plain requests."""
SESSION_DAYS = 30
"""How long a phone's session (PIN given, seat) lasts without a visit."""


def create_app(
    table: Table, config: Config | None = None, test_config: dict[str, Any] | None = None
) -> Flask:
    """The app serving `table`; `test_config` overrides Flask settings (``TESTING``, ...).

    From `config`: the table PIN and the cookie-signing secret (``[security]``, filled in by
    the daemon), the number of waitress threads (``[web] threads``: the streams leave 4 of
    them free) and the default language (``[game] language``). Without a config the app has
    no PIN (only the table itself may change anything) and a secret of its own.
    """
    folder = web_folder()
    app = Flask(
        __name__,
        static_folder=str(folder / "static"),
        static_url_path="/static",
        template_folder=str(folder / "templates"),
    )
    threads = config["web.threads"] if config is not None else 16
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_BODY,
        TABLE_TIMEOUT=10.0,  # seconds a request waits for the Table before a 503
        WEB_FOLDER=folder,
        SECRET_KEY=(config["security.secret"] if config is not None else None)
        or secrets.token_urlsafe(32),
        TABLE_PIN=config["security.pin"] if config is not None else None,
        DEFAULT_LANGUAGE=config["game.language"] if config is not None else "en",
        SESSION_COOKIE_NAME="companion_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=SESSION_DAYS * 24 * 3600,
        TRUST_LOOPBACK=True,  # see access.is_local
        TABLE_URLS=[],  # set by the daemon once it listens: the URLs phones use
        SSE_PING=float(config["web.ping"]) if config is not None else 15.0,  # idle stream's pings
        PAGE_WAIT=float(config["web.wait"]) if config is not None else 12.0,  # a tap's patience
        STREAM_SECONDS=None,  # a stream's lifetime (None: until the phone leaves)
        MAX_STREAMS=max(1, threads - STREAM_HEADROOM),
    )
    if test_config:
        app.config.update(test_config)
    # Collaborators travel on the app, not as module globals, so tests hand in their own.
    app.extensions["companion.table"] = table
    app.extensions["companion.config"] = config
    app.extensions["companion.streams"] = stream.Streams(int(app.config["MAX_STREAMS"]))
    app.extensions["companion.pin_guard"] = session.PinGuard()
    app.extensions["companion.network"] = None  # the daemon's hotspot keeper, if any
    app.extensions["companion.seats"] = Seats()
    app.session_interface = UntimedSessions()
    app.extensions.setdefault("companion.voice", None)  # the daemon hands in the Announcer
    errors.register(app)
    # The portal first: in hotspot mode its redirect answers a probe before anything else looks.
    for module in (portal, pages, screen, session, api, hints, stream, gamedata, export, openapi):
        app.register_blueprint(module.bp)
    app.after_request(_headers)
    return app


def _headers(response: Response) -> Response:
    """Headers every answer carries: no sniffing, no framing, no referrer leaving the table."""
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("X-Frame-Options", "DENY")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    return response


def end_streams(app: Flask) -> None:
    """Ask every open event stream to end (the daemon stops): each frees its thread at once."""
    streams: stream.Streams = app.extensions["companion.streams"]
    streams.end_all()


__all__ = ["create_app", "end_streams"]
