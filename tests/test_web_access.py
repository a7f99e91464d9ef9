"""Who may do what (companion.web.access): the PIN, the CSRF token, the seat cookie, and the
table itself on loopback — each rule shown by a request it refuses and one it lets through."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.engine import notation
from companion.table import Table
from companion.web import create_app
from companion.web.session import PinGuard
from tests.playing import PLAYERS, first, mirror, play_setup
from tests.web_support import PIN, phone, table_config


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, table_config(), test_config={"TESTING": True})


@pytest.fixture
def game(app: Flask, table: Table) -> int:
    """A two-player game at seat 1's first movement point."""
    r = phone(app).post("/api/games", json={"players": PLAYERS, "seed": 1})
    game_id: int = r.json["game"]  # type: ignore[index]
    play_setup(table, game_id)
    return game_id


def log_length(table: Table, game: int) -> int:
    return len(table.read(lambda: table._store.log(game, everything=True)))


def error(response: Any) -> str:
    body = response.json
    assert isinstance(body, dict) and set(body) == {"error"}, body
    sentence: str = body["error"]
    assert sentence.endswith(".") and len(sentence) > 20
    return sentence


# -- the PIN and the CSRF token ---------------------------------------------------------------


def test_a_phone_without_the_pin_changes_nothing_and_is_told_how_to_join(
    app: Flask, table: Table, game: int
) -> None:
    stranger = phone(app, pin=None)
    before = log_length(table, game)
    for path, body in (
        ("/api/games", {"players": PLAYERS}),
        (f"/api/games/{game}/commands", {"request_id": "x", "intent": "next"}),
    ):
        r = stranger.post(path, json=body)
        assert r.status_code == 403
        assert "/api/session/pin" in error(r)
    r = stranger.post("/api/session/seat", json={"game": game, "seat": 1})
    assert r.status_code == 403 and "PIN" in error(r)
    assert log_length(table, game) == before
    assert len(table._store.games()) == 1
    # ... but it may watch: reads need nothing, and so does giving up a seat
    assert stranger.get(f"/api/games/{game}").status_code == 200
    assert stranger.post("/api/session/seat", json={"game": game, "seat": None}).status_code == 200


def test_every_post_needs_the_csrf_token_of_its_own_session(app: Flask, game: int) -> None:
    ana, bo = phone(app, game, 1), phone(app)
    token = ana.environ_base.pop("HTTP_X_CSRF_TOKEN")
    path, body = f"/api/games/{game}/commands", {"request_id": "x", "intent": "next"}
    for sent in (None, "", "a-forged-token-of-some-length", bo.environ_base["HTTP_X_CSRF_TOKEN"]):
        r = ana.post(path, json=body, headers={} if sent is None else {"X-CSRF-Token": sent})
        assert r.status_code == 403, sent
        assert "X-CSRF-Token" in error(r)
    assert ana.post(path, json=body, headers={"X-CSRF-Token": token}).status_code == 200
    # The session's own POSTs too, the PIN's included (no login by a forged form).
    newcomer = app.test_client()
    newcomer.environ_base["REMOTE_ADDR"] = "192.168.1.250"
    for path in ("/api/session/pin", "/api/session/seat", "/api/session/language"):
        r = newcomer.post(path, json={})
        assert r.status_code == 403 and "X-CSRF-Token" in error(r), path


def test_a_wrong_pin_is_a_403_and_guessing_is_stopped_per_address(app: Flask) -> None:
    guesser = phone(app, pin=None)
    for guess in ("0000", "1111", "2222", "3333", "4444"):
        r = guesser.post("/api/session/pin", json={"pin": guess})
        assert r.status_code == 403 and "not the table's PIN" in error(r)
    r = guesser.post("/api/session/pin", json={"pin": PIN})  # even the right one, for a while
    assert r.status_code == 429
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    assert "wait" in error(r)
    assert guesser.get("/api/session").json["authorised"] is False  # type: ignore[index]
    other = phone(app, pin=None)  # another address is not held back
    assert other.post("/api/session/pin", json={"pin": PIN}).status_code == 200
    assert other.get("/api/session").json["authorised"] is True  # type: ignore[index]


def test_the_pin_guard_forgets_after_a_minute_and_counts_an_ipv6_64_as_one_address() -> None:
    guard = PinGuard(per_address=5, window=60.0)
    for t in range(5):
        guard.failed("a", float(t))
    assert guard.wait("a", 5.0) == pytest.approx(55.0)
    assert guard.wait("z", 5.0) == 0.0  # another address may still try
    for n in range(100):
        guard.failed(f"192.168.1.{n}", 6.0)  # many addresses fail: nobody else is held back
    assert guard.wait("192.168.2.1", 7.0) == 0.0
    for n in range(5):  # one device taking a new address of its /64 for each guess
        guard.failed(f"fd00::1:{n}", 8.0)
    assert guard.wait("fd00::1:99", 9.0) == pytest.approx(59.0)
    assert guard.wait("fd00:0:0:1::5", 9.0) == 0.0  # another /64
    assert guard.wait("a", 60.5) == 0.0  # the first failure has aged out
    guard.succeeded("a")
    assert guard.wait("a", 61.0) == 0.0


def test_a_table_without_a_pin_lets_no_phone_in(table: Table) -> None:
    app = create_app(table, test_config={"TESTING": True})  # no config: no PIN
    r = phone(app, pin=None).post("/api/session/pin", json={"pin": PIN})
    assert r.status_code == 403 and "no PIN" in error(r)


# -- seats and views --------------------------------------------------------------------------


def test_a_seat_is_taken_with_the_pin_and_gives_that_seat_its_view_only(
    app: Flask, game: int
) -> None:
    ana = phone(app, game, 1)
    assert ana.get("/api/session").json == {  # type: ignore[index]
        "authorised": True,
        "game": game,
        "seat": 1,
        "csrf": ana.environ_base["HTTP_X_CSRF_TOKEN"],
        "language": "en",
    }
    own = ana.get(f"/api/games/{game}").json
    assert own is not None and own["state"]["viewer"] == 0 and "legal" in own  # her decision
    assert ana.get(f"/api/games/{game}?view=1").status_code == 200
    for view, word in (("2", "seat 2"), ("referee", "referee")):
        r = ana.get(f"/api/games/{game}?view={view}")
        assert r.status_code == 403 and word in error(r)
    assert ana.post("/api/session/seat", json={"game": game, "seat": 3}).status_code == 422
    assert ana.post("/api/session/seat", json={"game": 99, "seat": 1}).status_code == 404
    # Watching again: the seat's view is gone with the seat.
    assert ana.post("/api/session/seat", json={"game": game, "seat": None}).json["seat"] is None  # type: ignore[index]
    assert ana.get(f"/api/games/{game}?view=1").status_code == 403
    assert ana.get(f"/api/games/{game}").json["state"]["viewer"] == "spectator"  # type: ignore[index]


def test_a_command_goes_for_the_phones_seat_and_a_body_seat_that_disagrees_is_403(
    app: Flask, table: Table, game: int
) -> None:
    ana, bo = phone(app, game, 1), phone(app, game, 2)
    move = notation(first(mirror(table, game), "move"))
    before = log_length(table, game)
    for body_seat in (2, None):
        r = ana.post(
            f"/api/games/{game}/commands",
            json={"request_id": "a", "seat": body_seat, "action": move},
        )
        assert r.status_code == 403 and "holds seat 1" in error(r)
    # Bo cannot play Ana's move by claiming her seat ...
    r = bo.post(f"/api/games/{game}/commands", json={"request_id": "b", "seat": 1, "action": move})
    assert r.status_code == 403
    # ... nor by leaving the seat out: it goes as his, and the rules refuse it.
    r = bo.post(f"/api/games/{game}/commands", json={"request_id": "b", "action": move})
    assert r.status_code == 409 and "seat 1's decision" in r.json["error"]  # type: ignore[index]
    assert log_length(table, game) == before
    r = ana.post(f"/api/games/{game}/commands", json={"request_id": "a", "action": move})
    assert r.status_code == 200
    row = table.read(lambda: table._store.log(game))[-1]
    assert (row.seat, row.source) == (0, "phone")


def test_a_watching_phone_may_press_the_tables_buttons_only(
    app: Flask, table: Table, game: int
) -> None:
    watcher = phone(app)
    path = f"/api/games/{game}/commands"
    move = notation(first(mirror(table, game), "move"))
    for body in (
        {"request_id": "w1", "action": move},
        {"request_id": "w2", "intent": "correct", "args": {"seq": 1, "action": "terrain beach"}},
        {"request_id": "w3", "seat": 1, "intent": "next"},
    ):
        r = watcher.post(path, json=body)
        assert r.status_code == 403, body
        assert "seat" in error(r)
    r = watcher.post(path, json={"request_id": "w4", "intent": "next"})  # NEXT, as the panel
    assert r.status_code == 200, r.json
    assert r.json["events"] == []  # type: ignore[index]  # the referee's projection: not for it
    row = table.read(lambda: table._store.log(game))[-1]
    assert (row.action, row.seat) == (["done"], None)


# -- the table itself (loopback) --------------------------------------------------------------


def test_the_table_itself_needs_no_pin_but_a_page_of_another_site_does(
    app: Flask, table: Table, game: int
) -> None:
    local = app.test_client()  # 127.0.0.1, Host: localhost, no Origin: a tool on the Pi
    assert local.get(f"/api/games/{game}?view=referee").status_code == 200
    assert local.get(f"/api/games/{game}?view=2").status_code == 200
    body = {"request_id": "l1", "seat": 2, "intent": "undo"}
    assert local.post(f"/api/games/{game}/commands", json=body).status_code == 409  # rules, not 403
    # The same loopback address, but not the table itself:
    for headers in (
        {"Origin": "http://evil.example"},  # another site's page in the Pi's browser
        {"Host": "evil.example:8000"},  # a DNS-rebinding page
        {"X-Forwarded-For": "192.168.1.7"},  # a phone through a proxy on the Pi
        {"Origin": "http://127.0.0.1:9999"},  # another port is another origin
    ):
        r = local.post("/api/games", json={"players": PLAYERS}, headers=headers)
        assert r.status_code == 403, headers
        r = local.get(f"/api/games/{game}?view=referee", headers=headers)
        assert r.status_code == 403, headers
    # The simulated panel's page of `companion demo`, served from 127.0.0.1 itself, is trusted.
    same = {"Origin": "http://localhost", "Host": "localhost"}
    assert local.get(f"/api/games/{game}?view=referee", headers=same).status_code == 200
    untrusting = create_app(table, table_config(), {"TESTING": True, "TRUST_LOOPBACK": False})
    r = untrusting.test_client().get(f"/api/games/{game}?view=referee")
    assert r.status_code == 403


def test_every_post_route_is_guarded(app: Flask) -> None:
    posts = [rule for rule in app.url_map.iter_rules() if "POST" in (rule.methods or ())]
    assert len(posts) >= 5
    unguarded = [
        r.rule for r in posts if not getattr(app.view_functions[r.endpoint], "guarded", False)
    ]
    assert unguarded == []


# -- the cookie -------------------------------------------------------------------------------


def session_payload(client: FlaskClient) -> dict[str, Any]:
    cookie = client.get_cookie("companion_session")
    assert cookie is not None
    compressed = cookie.value.startswith(".")  # itsdangerous: "." + zlib when it is shorter
    data = cookie.value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    if compressed:
        raw = zlib.decompress(raw)
    payload: dict[str, Any] = json.loads(raw)
    return payload


def test_the_signed_cookie_is_httponly_lax_keeps_no_pin_and_survives_a_restart(
    app: Flask, table: Table, game: int, tmp_path: Path
) -> None:
    ana = phone(app, game, 1)
    r = ana.get("/api/session")
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Expires=" in cookie
    assert PIN not in json.dumps(session_payload(ana))
    # The daemon restarts (a power cut): a new app with the same secret knows the phone.
    again = create_app(table, table_config(), test_config={"TESTING": True})
    ana.application = again
    state = ana.get("/api/session").json
    assert state is not None and state["authorised"] is True and state["seat"] == 1
    # Another secret (or another PIN) and the phone must join again.
    other = create_app(
        table,
        table_config(security={"pin": "975319", "secret": "x" * 40}),
        test_config={"TESTING": True},
    )
    ana.application = other
    state = ana.get("/api/session").json
    assert state is not None and state["authorised"] is False and state["seat"] is None


def test_language_is_the_cookie_else_the_browser_else_the_tables(table: Table) -> None:
    app = create_app(table, table_config(game={"language": "fr"}), {"TESTING": True})
    client = phone(app, pin=None)
    assert client.get("/api/session").json["language"] == "fr"  # type: ignore[index]
    headers = {"Accept-Language": "es-ES,es;q=0.9,en;q=0.5"}
    assert client.get("/api/session", headers=headers).json["language"] == "es"  # type: ignore[index]
    r = client.post("/api/session/language", json={"language": "en"})
    assert r.status_code == 200 and r.json["language"] == "en"  # type: ignore[index]
    assert "lang=en" in r.headers["Set-Cookie"] and "HttpOnly" not in r.headers["Set-Cookie"]
    assert client.get("/api/session", headers=headers).json["language"] == "en"  # type: ignore[index]
    r = client.post("/api/session/language", json={"language": "de"})
    assert r.status_code == 422
