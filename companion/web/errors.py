"""Every error the app returns is JSON: ``{"error": "<one sentence saying what to do>"}``.

An HTTP error raised on purpose (``abort(422, "seat must be ...")``) keeps its sentence; one
raised by Flask or Werkzeug themselves (an unknown URL, a wrong method, a body too large) gets
the sentence below for its status. Anything else is a bug: it is logged with its traceback and
answered with a plain 500, never with the traceback.
"""

from __future__ import annotations

import logging

from flask import Flask, current_app, jsonify, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed
from werkzeug.wrappers import Response

log = logging.getLogger(__name__)

SENTENCES = {
    400: "The request could not be read: send a JSON object with Content-Type: application/json.",
    403: "This phone may not do that: give the table PIN and send the X-CSRF-Token header.",
    404: "Nothing is at this address: the page is at /, the API's addresses are listed at /api/openapi.json.",
    413: "The request body is too large: a command or a new game fits in {limit} bytes.",
    415: "Send the body as JSON, with the header Content-Type: application/json.",
    422: "The JSON was read but does not have the fields this address expects.",
    503: "The table is not answering right now; try again in a moment.",
}
BUG = (
    "Something went wrong inside the companion (it has been logged); try again, and report it "
    "if it happens again."
)


def register(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    # The Table's answer did not come in time: busy or stuck, either way not the client's fault.
    app.register_error_handler(TimeoutError, lambda e: _json(503, SENTENCES[503]))
    app.register_error_handler(Exception, bug)


def http_error(e: HTTPException) -> Response:
    response = e.get_response()  # keeps headers such as Allow on a 405
    code = e.code or 500
    if e.description != type(e).description:  # a sentence given with abort()
        sentence = str(e.description)
    elif isinstance(e, MethodNotAllowed):
        allowed = ", ".join(m for m in e.valid_methods or () if m not in ("HEAD", "OPTIONS"))
        sentence = f"{request.method} is not allowed at this address; use {allowed}."
    elif code in SENTENCES:
        sentence = SENTENCES[code].format(limit=current_app.config["MAX_CONTENT_LENGTH"])
    else:
        sentence = f"{e.name}: check the address and the method."
    response.set_data(current_app.json.dumps({"error": sentence}))
    response.content_type = "application/json"
    return response


def bug(e: Exception) -> Response:
    log.exception("unexpected error serving %s %s", request.method, request.path)
    return _json(500, BUG)


def _json(status: int, sentence: str) -> Response:
    response = jsonify({"error": sentence})
    response.status_code = status
    return response
