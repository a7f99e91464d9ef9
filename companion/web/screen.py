"""The table screen (``GET /table``) and the table's voice (``/api/voice``).

``GET /table`` renders ``web/templates/table.html``: a spectator's page for a TV, a tablet or a
monitor at the end of the table, in the table's language (``[game] language``: it is the
table's screen, not one phone's), which loads ``/static/js/table.js``. While the table is its
own Wi-Fi (companion.network), the join panel shows that network's QR code beside the page's.

**Who sees the PIN.** The screen shows the table PIN in its join panel, so that people sitting
down can join. The PIN is the one thing that separates a player from anyone on the Wi-Fi, so
the page carries it only for the table itself (a browser on the Pi, as `access.is_local`
decides: the kiosk of ``companion kiosk``) and for a browser that already gave the PIN (a
tablet used as the table screen joins once, like a phone). Anyone else on the Wi-Fi who opens
``/table`` sees the same screen without the PIN: the QR codes and the address, and "ask the
table for the PIN". Everything else on the screen is a spectator's, which anybody may watch.

``GET /api/voice?after=N&wait=S`` — ``{"outlet", "verbosity", "volume", "muted", "language",
"last", "said": [{"id", "kind", "text", "lang", "seq"}]}``: the announcements numbered after
``N`` that the screen speaks (outlet ``screen`` or ``both``), waiting up to ``S`` seconds (at
most 25) for the next one. Only a few such waits are held at once (each holds a thread): past
that the answer comes at once. Without a voice (``[voice] outlet = "none"``) ``outlet`` is
``"none"`` and ``said`` is empty.

``POST /api/voice {"muted": true|false}`` — mute the voice (both outlets) for everyone, or
speak again; needs the PIN (and the CSRF token), as every change does.
"""

from __future__ import annotations

import threading
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, render_template, request
from markupsafe import Markup

from ..network import portal
from . import access, payload
from .pages import CSP, qr_svg, table_url

bp = Blueprint("screen", __name__)

LONGEST_WAIT = 25.0
WAITERS = 2
"""Long polls held at once; the table screen needs one."""
_waiting = threading.BoundedSemaphore(WAITERS)


def voice() -> Any:
    """The running `voice.announcer.Announcer`, or None."""
    return current_app.extensions.get("companion.voice")


def shows_pin() -> bool:
    """May this browser see the table PIN: the table itself, or one that gave the PIN?"""
    return access.is_local() or access.authorised()


@bp.get("/table")
def table_screen() -> Response:
    url, wifi = portal.join_codes(table_url())
    announcer = voice()
    html = render_template(
        "table.html",
        csrf=access.csrf_token(),
        lang=current_app.config["DEFAULT_LANGUAGE"],
        table_url=url,
        qr_svg=Markup(qr_svg(url)),
        wifi_name=wifi.ssid if wifi else None,
        wifi_qr_svg=Markup(qr_svg(wifi.qr_data())) if wifi else None,
        pin=access.table_pin() if shows_pin() else None,
        voice=announcer.outlet if announcer is not None else "none",
    )
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"  # it may carry the PIN
    response.headers["Content-Security-Policy"] = CSP
    return response


def _state(after: int, wait: float) -> dict[str, Any]:
    announcer = voice()
    if announcer is None:
        return {"outlet": "none", "muted": False, "said": [], "last": 0}
    said = announcer.said(after, 0.0)
    if not said and wait > 0 and _waiting.acquire(blocking=False):
        try:
            said = announcer.said(after, wait)
        finally:
            _waiting.release()
    return {**announcer.describe(), "said": said}


@bp.get("/api/voice")
def voice_state() -> Response:
    try:
        after = int(request.args.get("after", "0"))
        wait = min(max(float(request.args.get("wait", "0")), 0.0), LONGEST_WAIT)
    except ValueError:
        after, wait = -1, -1.0
    if after < 0 or wait < 0 or wait != wait:  # NaN too
        payload.unprocessable(
            "after must be a whole number ≥ 0 and wait a number of seconds (0 to 25)."
        )
    return jsonify(_state(after, wait))


@bp.post("/api/voice")
@access.guarded()
def voice_mute() -> Response:
    body = payload.body()
    payload.only(body, ("muted",), "the voice")
    muted = body.get("muted")
    if not isinstance(muted, bool):
        payload.unprocessable('Send {"muted": true} to mute the voice, false to speak.')
    announcer = voice()
    if announcer is None:
        payload.unprocessable(
            'The table has no voice: set [voice] outlet = "pi", "screen" or "both".'
        )
    announcer.mute(muted)
    return jsonify(_state(announcer.last_id(), 0.0))
