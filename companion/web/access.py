"""Who may do what: the table PIN, the CSRF token, the seat cookie and the table itself (loopback).

The rules, the same for every address (web/README.md, "Who may do what"):

- **Reading** the page, the board, the rules and a game as a spectator needs nothing.
- **A phone's own view**: the seat in its signed session cookie (set by ``POST
  /api/session/seat``, which needs the PIN). A phone may ask for its own seat's view or a
  spectator's, never another seat's, never the referee's.
- **Changing anything** (every POST but the PIN and language ones) needs the PIN once per phone
  (``POST /api/session/pin`` marks the session) and, on every POST, the session's CSRF token in
  the ``X-CSRF-Token`` header.
- **A command's seat** is the seat cookie's: a body ``seat`` that disagrees is a 403. A phone
  without a seat (watching) that knows the PIN may press the table's buttons for the panel —
  the intents ``roll``, ``draw``, ``next`` and ``undo``, exactly what the shared ROLL/NEXT/UNDO
  buttons do — and start a game; it sends no action and no ``correct``.
- **The table itself** — a client on the Pi's loopback interface that is not a browser page of
  another site (no forwarding header, a loopback ``Host``, and no ``Origin`` or a loopback one
  of the same host) — is trusted as the CLI is: no PIN, no CSRF, any ``view`` (the referee's
  too) and a body ``seat`` as sent (none: the table). Local tools, the crash test and the
  simulated panel's page in ``companion demo`` rely on it. ``TRUST_LOOPBACK = False`` (app
  config) turns it off, so that a browser test on 127.0.0.1 goes through the PIN like a phone.

The session cookie is Flask's: signed with the secret from `companion.security` (it survives a
restart, so phones keep their seats across a power cut), HttpOnly, SameSite=Lax. It holds no
PIN, only a mark derived from it, so a changed PIN signs every phone out.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from flask import abort, current_app, request, session

from ..commands import REFEREE, SPECTATOR
from ..kinds import View
from .seats import Seats

F = TypeVar("F", bound=Callable[..., Any])

CSRF_HEADER = "X-CSRF-Token"
PANEL_INTENTS = ("roll", "draw", "next", "undo")
"""What a phone without a seat may send: the table's own buttons (companion.panel.buttons)."""
FORWARDED = (
    "X-Forwarded-For",
    "Forwarded",
    "X-Real-IP",
    "X-Forwarded-Host",
    "X-Forwarded-Proto",
    "Via",
)
LOOPBACK_NAMES = ("localhost",)
OWN_ADDRESSES = ("127.0.0.1", "::1", "::ffff:127.0.0.1")


# -- the table itself -------------------------------------------------------------------------


def _loopback(host: str | None) -> bool:
    if host is None:
        return False
    if host in LOOPBACK_NAMES:
        return True
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped.is_loopback
    return address.is_loopback


def is_local() -> bool:
    """Is this request the table's own (a tool on the Pi), trusted as the CLI is?"""
    if not current_app.config["TRUST_LOOPBACK"]:
        return False
    # The Pi's own tools connect from 127.0.0.1 or ::1; nothing else is the table (the tests play
    # phones on the Wi-Fi from other loopback addresses, 127.0.0.2 and up).
    if request.remote_addr not in OWN_ADDRESSES:
        return False
    # Behind a proxy on the Pi every phone would come from loopback: never trust those.
    if any(name in request.headers for name in FORWARDED):
        return False
    # A loopback Host keeps out a DNS-rebinding page (its Host is the attacker's name) ...
    host = urlsplit(f"//{request.host}").hostname
    if not _loopback(host):
        return False
    # ... and a loopback Origin of this very host keeps out every other site's page in the
    # Pi's own browser: browsers send Origin on every cross-origin request and on every POST.
    origin = request.headers.get("Origin")
    if origin is None:
        return True
    parts = urlsplit(origin)
    return _loopback(parts.hostname) and parts.netloc == request.host


# -- the session ----------------------------------------------------------------------------


def csrf_token() -> str:
    """This session's CSRF token, made on first use."""
    token = session.get("csrf")
    if not isinstance(token, str) or len(token) < 20:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
        session.permanent = True
    return token


def pin_mark(pin: str) -> str:
    """What the session keeps for "knows the PIN": changes when the PIN changes, tells nothing
    of it (a Flask session is signed, not encrypted: its owner can read it)."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    return hmac.new(key, f"pin:{pin}".encode(), hashlib.sha256).hexdigest()[:32]


def table_pin() -> str | None:
    pin = current_app.config.get("TABLE_PIN")
    return pin if isinstance(pin, str) and pin else None


def authorised() -> bool:
    """Has this phone given the table's PIN (since the PIN last changed)?"""
    pin = table_pin()
    mark = session.get("pin")
    return pin is not None and isinstance(mark, str) and hmac.compare_digest(mark, pin_mark(pin))


def sign_in() -> None:
    pin = table_pin()
    assert pin is not None
    session["pin"] = pin_mark(pin)
    session.permanent = True


def phone_id(create: bool = True) -> str | None:
    """This phone's id: random, kept in its signed session, made on first use (None if it has
    none and `create` is False). A seat is held by a phone id (`seats`)."""
    phone = session.get("phone")
    if isinstance(phone, str) and len(phone) >= 16:
        return phone
    if not create:
        return None
    phone = secrets.token_urlsafe(16)
    session["phone"] = phone
    session.permanent = True
    return phone


def seats() -> Seats:
    registry: Seats = current_app.extensions["companion.seats"]
    return registry


def seat_in(game_id: int | None, players: int | None = None) -> int | None:
    """The phone's seat (0-based) in `game_id`, from its session; None when it watches, when
    another phone holds that seat now (`seats`), or when the seat is not one of the game's
    `players` (a cookie older than a wiped game log)."""
    seat = session.get("seat")
    if game_id is None or session.get("game") != game_id:
        return None
    if not isinstance(seat, int) or isinstance(seat, bool) or seat < 0:
        return None
    if players is not None and seat >= players:
        return None
    return seat if seats().holds(phone_id(), game_id, seat) else None


def remember_seat(game_id: int | None, seat: int | None) -> None:
    """Write the seat into the session (the registry is `seats`'s to change)."""
    if seat is None:
        session.pop("game", None)
        session.pop("seat", None)
    else:
        session["game"] = game_id
        session["seat"] = seat
    session.permanent = True


# -- guarding the POSTs ---------------------------------------------------------------------


def check_csrf() -> None:
    sent = request.headers.get(CSRF_HEADER, "")
    token = session.get("csrf")
    if not isinstance(token, str) or not sent or not hmac.compare_digest(sent, token):
        abort(
            403,
            f"The {CSRF_HEADER} header is missing or stale: read the token from GET "
            "/api/session (or reload the page) and send it with every POST.",
        )


def check_pin() -> None:
    if not authorised():
        abort(
            403,
            "This phone has not given the table PIN yet: POST it to /api/session/pin first "
            "(the PIN is printed where the companion starts).",
        )


def guarded(pin: bool = True) -> Callable[[F], F]:
    """A POST view that needs the CSRF token, and the PIN unless `pin` is False; the table
    itself (loopback, `is_local`) needs neither. Marks the view, so a test can find a POST
    that is not guarded."""

    def wrap(view: F) -> F:
        @functools.wraps(view)
        def checked(*args: Any, **kwargs: Any) -> Any:
            if not is_local():
                check_csrf()
                if pin:
                    check_pin()
            return view(*args, **kwargs)

        checked.guarded = True  # type: ignore[attr-defined]
        return cast(F, checked)

    return wrap


def local_only(what: str) -> None:
    if not is_local():
        abort(403, f"{what} is the referee's: it is read on the table itself (the Pi), not here.")


# -- views and seats ------------------------------------------------------------------------


def view_for(game_id: int, players: int, asked: str | None) -> View:
    """The view a request gets of `game_id`: its own without ``view``; another only if allowed.

    A phone's own view is its seat's (seat cookie for this game) or a spectator's. The table
    itself may ask for any (the referee's, or any seat 1..players)."""
    own = seat_in(game_id, players)
    if asked is None:
        return SPECTATOR if own is None else own
    if asked == SPECTATOR:
        return SPECTATOR
    if asked == REFEREE:
        local_only("The referee's view")
        return REFEREE
    if asked.isascii() and asked.isdigit() and len(asked) <= 3 and 1 <= int(asked) <= players:
        seat = int(asked) - 1
        if seat != own and not is_local():
            abort(
                403,
                f"This phone may see seat {asked}'s view only from seat {asked}: take that "
                "seat (POST /api/session/seat) or watch as a spectator.",
            )
        return seat
    abort(
        400,
        f"view must be spectator, referee or a seat from 1 to {players}, not {asked[:24]!r}.",
    )


def sender_seat(
    game_id: int, players: int, sent: dict[str, Any], seat: int | None, intent: str | None
) -> int | None:
    """The seat a command is sent for: the seat cookie's. `seat` is the body's (0-based), if the
    body has one (``"seat" in sent``); `intent` the command's intent (None for an action)."""
    own = seat_in(game_id, players)
    says_seat = "seat" in sent
    if own is not None:
        if says_seat and seat != own:
            shown = "null" if seat is None else seat + 1
            abort(
                403,
                f"This phone holds seat {own + 1} of game {game_id}: it cannot send a command "
                f"for seat {shown}; leave seat out of the body.",
            )
        return own
    if is_local():  # the table itself: the seat as sent, none meaning the table
        return seat
    if says_seat and seat is not None:
        abort(
            403,
            f"This phone holds no seat of game {game_id}: take seat {seat + 1} first "
            "(POST /api/session/seat), then leave seat out of the body.",
        )
    if intent not in PANEL_INTENTS:
        abort(
            403,
            "A phone that watches may only press the table's buttons (roll, draw, next, undo): "
            "take a seat to play (POST /api/session/seat).",
        )
    return None
