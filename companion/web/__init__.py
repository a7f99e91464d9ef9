"""The companion's web face: a Flask app made around a running Table.

The daemon builds the Table and hands it in (``create_app(table, config)``); nothing here
creates game state or reaches it except through the Table's face (`submit`, `call`, `read`,
`snapshot`). Each concern is a blueprint: today the JSON API (`api`); the phone pages and the
event stream come later on the same app.
"""

from __future__ import annotations

from typing import Any

from flask import Flask

from ..config import Config
from ..table import Table
from . import errors
from .api import bp as api

MAX_BODY = 64 * 1024
"""The largest request body accepted: a command is well under 1 KiB, a new game under 4 KiB."""


def create_app(
    table: Table, config: Config | None = None, test_config: dict[str, Any] | None = None
) -> Flask:
    """The app serving `table`; `test_config` overrides Flask settings (``TESTING``, ...)."""
    app = Flask(__name__)
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_BODY,
        TABLE_TIMEOUT=10.0,  # seconds a request waits for the Table before a 503
    )
    if test_config:
        app.config.update(test_config)
    # Collaborators travel on the app, not as module globals, so tests hand in their own.
    app.extensions["companion.table"] = table
    app.extensions["companion.config"] = config
    errors.register(app)
    app.register_blueprint(api)
    return app


__all__ = ["create_app"]
