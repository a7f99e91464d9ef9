"""The phone's session: the PIN given once, the seat it holds, its language (``/api/session``).

``GET /api/session`` — ``{"authorised", "game", "seat", "csrf", "language"}``: whether this
phone gave the table PIN, the game and seat (1-based) it holds (both null while it watches),
the CSRF token to send as ``X-CSRF-Token`` with every POST, and the page's language.

``POST /api/session/pin {"pin": "123456"}`` — the same answer, now authorised; a wrong PIN is
a 403 with a sentence. Against guessing, an address (an IPv6 /64 counting as one) may get the
PIN wrong 5 times a minute: past that a 429 with ``Retry-After`` for that address only, the
right PIN included. No table-wide limit: the right PIN from an address that has not failed is
never refused, so no device can lock the others out. What that buys: a 6-digit PIN (the
shortest allowed) has 1,000,000 values; at 5 guesses a minute one address needs 100,000
minutes (about 69 days) to try half of them, but a laptop that takes 50 addresses on the
Wi-Fi needs about a day and a half — enough for a game night, not for a table left on for
weeks with the same PIN (change it: ``[security] pin`` or delete ``security.json``).

``POST /api/session/seat {"game": 3, "seat": 2}`` — take seat 2 (1-based) of game 3 (needs the
PIN); ``"seat": null`` — watch (no PIN needed: it only gives up rights). A seat another phone
holds is a 409 until that phone leaves it, the table hands it over or that phone has been
silent for 5 minutes (`seats`); every phone hears of each change (``event: seat``).

``POST /api/session/release {"game": 3, "seat": 2}`` — the table itself (the Pi) hands seat 2
over: the next phone to ask takes it.

``POST /api/session/language {"language": "es"}`` — en, es or fr; kept in the ``lang`` cookie
(readable by the page), which `GET /` also reads.

Every POST here needs the CSRF token (the table itself excepted, see `access`).
"""

from __future__ import annotations

import hmac
import math
import threading
import time
from collections import deque
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, session

from . import access, payload, serving, stream
from .api import record_of
from .payload import unprocessable
from .seats import Change, Held

bp = Blueprint("session", __name__, url_prefix="/api/session")

LANGUAGES = ("en", "es", "fr")
LANG_COOKIE = "lang"
LANG_MAX_AGE = 365 * 24 * 3600


class PinGuard:
    """Counts wrong PINs per address (an IPv6 /64 counting as one), over a sliding minute.

    Only the address that failed is held back: the right PIN from any other address is always
    let through, so no device can lock the table."""

    def __init__(self, per_address: int = 5, window: float = 60.0, remembered: int = 4096) -> None:
        self.per_address = per_address
        self.window = window
        self.remembered = remembered
        self._lock = threading.Lock()
        self._by_address: dict[str, deque[float]] = {}

    def _trim(self, times: deque[float], now: float) -> None:
        while times and now - times[0] >= self.window:
            times.popleft()

    def wait(self, address: str, now: float) -> float:
        """Seconds before `address` may try again (0: now)."""
        with self._lock:
            mine = self._by_address.get(serving.address_key(address))
            if mine is None:
                return 0.0
            self._trim(mine, now)
            if len(mine) >= self.per_address:
                return self.window - (now - mine[0])
            return 0.0

    def failed(self, address: str, now: float) -> None:
        with self._lock:
            self._by_address.setdefault(serving.address_key(address), deque()).append(now)
            if len(self._by_address) > self.remembered:  # forget the quiet ones first
                for key, times in list(self._by_address.items()):
                    self._trim(times, now)
                    if not times:
                        del self._by_address[key]

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._by_address.pop(serving.address_key(address), None)


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
def choose_seat() -> dict[str, Any] | Response:
    data = payload.body()
    payload.only(data, ("game", "seat"), "A seat")
    if "game" not in data or "seat" not in data:
        unprocessable('The body is {"game": 3, "seat": 2} (seat from 1), or "seat": null to watch.')
    game_id = payload.integer(data["game"], "game", 1)
    record = record_of(game_id)
    seat = data["seat"]
    registry = access.seats()
    phone = access.phone_id()
    assert phone is not None
    if seat is None:
        _tell(registry.leave(phone, game_id))
        access.remember_seat(game_id, None)
        return state()
    seat = payload.integer(seat, "seat", 1, len(record.players)) - 1
    if access.is_local():  # the table itself hands the seat over to itself
        _tell(registry.hand_over(game_id, seat))
    else:
        access.check_pin()
    try:
        changes = registry.take(phone, game_id, seat)
    except Held as held:
        _tell([Change(game_id, seat, "asked")])
        minutes = max(1, math.ceil(held.seconds / 60))
        response = jsonify(
            {
                "error": f"Seat {seat + 1} is held by another phone: its player may leave it "
                "(Watch), or the table hand it over; if that phone stays silent, the seat is "
                f"free to take in {minutes} minute{'s' if minutes > 1 else ''}."
            }
        )
        response.status_code = 409
        return response
    _tell(changes)
    access.remember_seat(game_id, seat)
    return state()


@bp.post("/release")
@access.guarded(pin=False)
def release_seat() -> dict[str, Any]:
    """The table hands a seat over: the Pi itself frees it, and the next phone to ask takes it
    (a player whose phone died, while the old phone is still on)."""
    access.local_only("Handing a seat over")
    data = payload.body()
    payload.only(data, ("game", "seat"), "A seat to hand over")
    game_id = payload.integer(data.get("game"), "game", 1)
    record = record_of(game_id)
    seat = payload.integer(data.get("seat"), "seat", 1, len(record.players)) - 1
    _tell(access.seats().hand_over(game_id, seat))
    return state()


def _tell(changes: list[Change]) -> None:
    """Tell every phone (a ``seat`` event on every stream); the phone that lost a seat has its
    streams ended, so that it sees no more of that seat's view."""
    registry = stream.streams()
    for change in changes:
        registry.tell(stream.Notice("seat", change.told()), ending=change.previous)


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
