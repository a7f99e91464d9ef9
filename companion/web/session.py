"""The phone's session: the PIN given once, the seat it holds, its language (``/api/session``).

``GET /api/session`` — ``{"authorised", "game", "seat", "csrf", "language"}``: whether this
phone gave the table PIN, the game and seat (1-based) it holds (both null while it watches),
the CSRF token to send as ``X-CSRF-Token`` with every POST, and the page's language.

``POST /api/session/pin {"pin": "123456"}`` — the same answer, now authorised; a wrong PIN is
a 403 with a sentence. Against guessing, an address may get the PIN wrong 5 times a minute and
the whole table 30 times: past that a 429 with ``Retry-After``, the right PIN included (a
6-digit PIN then takes months to guess).

``POST /api/session/seat {"game": 3, "seat": 2}`` — take seat 2 (1-based) of game 3 (needs the
PIN); ``"seat": null`` — watch (no PIN needed: it only gives up rights).

``POST /api/session/language {"language": "es"}`` — en, es or fr; kept in the ``lang`` cookie
(readable by the page), which `GET /` also reads.

Every POST here needs the CSRF token (the table itself excepted, see `access`).
"""

from __future__ import annotations

import hmac
import threading
import time
from collections import deque
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, session

from . import access, payload
from .api import record_of
from .payload import unprocessable

bp = Blueprint("session", __name__, url_prefix="/api/session")

LANGUAGES = ("en", "es", "fr")
LANG_COOKIE = "lang"
LANG_MAX_AGE = 365 * 24 * 3600


class PinGuard:
    """Counts wrong PINs per address and in all, over a sliding minute."""

    def __init__(self, per_address: int = 5, overall: int = 30, window: float = 60.0) -> None:
        self.per_address = per_address
        self.overall = overall
        self.window = window
        self._lock = threading.Lock()
        self._by_address: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()

    def _trim(self, times: deque[float], now: float) -> None:
        while times and now - times[0] >= self.window:
            times.popleft()

    def wait(self, address: str, now: float) -> float:
        """Seconds before `address` may try again (0: now)."""
        with self._lock:
            mine = self._by_address.get(address, deque())
            self._trim(mine, now)
            self._trim(self._all, now)
            waits = [0.0]
            if len(mine) >= self.per_address:
                waits.append(self.window - (now - mine[0]))
            if len(self._all) >= self.overall:
                waits.append(self.window - (now - self._all[0]))
            return max(waits)

    def failed(self, address: str, now: float) -> None:
        with self._lock:
            self._by_address.setdefault(address, deque()).append(now)
            self._all.append(now)
            if len(self._by_address) > 1000:  # forget the quiet ones, so memory stays small
                for key in [k for k, v in self._by_address.items() if not v]:
                    del self._by_address[key]

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._by_address.pop(address, None)


def language() -> str:
    """The page's language: the ``lang`` cookie, else the browser's (Accept-Language), else the
    table's default (``[game] language``)."""
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    best = request.accept_languages.best_match(LANGUAGES)
    if best:
        return best
    default = current_app.config.get("DEFAULT_LANGUAGE", "en")
    return default if default in LANGUAGES else "en"


def state() -> dict[str, Any]:
    game = session.get("game")
    seat = access.seat_in(game if isinstance(game, int) else None)
    return {
        "authorised": access.authorised(),
        "game": game if seat is not None else None,
        "seat": None if seat is None else seat + 1,
        "csrf": access.csrf_token(),
        "language": language(),
    }


@bp.get("")
def read() -> dict[str, Any]:
    return state()


@bp.post("/pin")
@access.guarded(pin=False)
def give_pin() -> dict[str, Any] | Response:
    data = payload.body()
    payload.only(data, ("pin",), "The PIN")
    pin = data.get("pin")
    if not isinstance(pin, str) or not 1 <= len(pin) <= 20:
        unprocessable('The body is {"pin": "123456"}: the PIN as a string of digits.')
    guard: PinGuard = current_app.extensions["companion.pin_guard"]
    address = request.remote_addr or "?"
    now = time.monotonic()
    wait = guard.wait(address, now)
    if wait > 0:
        seconds = max(1, round(wait))
        response = jsonify(
            {"error": f"Too many wrong PINs: wait {seconds} seconds, then try again."}
        )
        response.status_code = 429
        response.headers["Retry-After"] = str(seconds)
        return response
    right = access.table_pin()
    if right is None:
        abort(
            403,
            "This table has no PIN set, so phones cannot join it: start it with `companion "
            "serve` (which makes one) or set [security] pin.",
        )
    if not hmac.compare_digest(pin.encode(), right.encode()):
        guard.failed(address, now)
        abort(
            403,
            "That is not the table's PIN: it is printed where the companion starts (its screen "
            "or `journalctl -u companion`).",
        )
    guard.succeeded(address)
    access.sign_in()
    return state()


@bp.post("/seat")
@access.guarded(pin=False)
def choose_seat() -> dict[str, Any]:
    data = payload.body()
    payload.only(data, ("game", "seat"), "A seat")
    if "game" not in data or "seat" not in data:
        unprocessable('The body is {"game": 3, "seat": 2} (seat from 1), or "seat": null to watch.')
    game_id = payload.integer(data["game"], "game", 1)
    record = record_of(game_id)
    seat = data["seat"]
    if seat is not None:
        seat = payload.integer(seat, "seat", 1, len(record.players)) - 1
        if not access.is_local():
            access.check_pin()
    access.take_seat(game_id, seat)
    return state()


@bp.post("/language")
@access.guarded(pin=False)
def choose_language() -> Response:
    data = payload.body()
    payload.only(data, ("language",), "A language")
    chosen = data.get("language")
    if chosen not in LANGUAGES:
        unprocessable(
            f"language must be one of {', '.join(LANGUAGES)}, not {payload.kind(chosen)}."
        )
    # The answer says the new language although the request still carries the old cookie.
    answer = {**state(), "language": chosen}
    response = jsonify(answer)
    response.set_cookie(LANG_COOKIE, chosen, max_age=LANG_MAX_AGE, samesite="Lax", httponly=False)
    return response
