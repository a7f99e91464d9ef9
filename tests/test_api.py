"""The JSON API: games started, played by text and by JSON, seen per view, and every bad request
answered with a 4xx and one sentence, leaving the game as it was.

The clients are phones on the Wi-Fi that gave the table PIN and send the CSRF header
(`tests.web_support.phone`); `local` is the table itself (loopback), which reads the referee's
view and the stored log.
"""

from __future__ import annotations

import itertools
import json
import logging
import random
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.commands import Command
from companion.engine import notation
from companion.engine.data import TURN_TILES
from companion.table import Table
from companion.web import create_app
from companion.web.errors import BUG
from tests.playing import PLAYERS, first, mirror, play_setup
from tests.web_support import close, phone, started_table, table_config


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, table_config(), test_config={"TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A phone that gave the PIN and watches (no seat)."""
    return phone(app)


@pytest.fixture
def local(app: Flask) -> FlaskClient:
    """The table itself: a tool on the Pi's loopback (the referee's views, the stored log)."""
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient, table: Table) -> int:
    """A two-player game at seat 1's first movement point (people and boats placed)."""
    response = client.post("/api/games", json={"players": PLAYERS, "seed": 1})
    game_id: int = response.json["game"]  # type: ignore[index]
    play_setup(table, game_id)
    return game_id


@pytest.fixture
def seats(app: Flask, game: int) -> dict[int, FlaskClient]:
    """The phones of seat 1 (Ana) and seat 2 (Bo), PIN given."""
    return {seat: phone(app, game, seat) for seat in (1, 2)}


def command(client: FlaskClient, game: int, **body: Any) -> TestResponse:
    """POST a command; each gets its own request id, as a real client's would."""
    body.setdefault("request_id", f"t-{next(REQUESTS)}")
    return client.post(f"/api/games/{game}/commands", json=body)


REQUESTS = itertools.count(1)


def plain(data: Any) -> Any:
    """As it comes back through JSON (tuples become lists)."""
    return json.loads(json.dumps(data))


# -- games --------------------------------------------------------------------------------------


def test_a_new_game_is_201_with_its_id_and_is_listed(
    client: FlaskClient, local: FlaskClient
) -> None:
    response = client.post(
        "/api/games",
        json={"players": PLAYERS, "seed": 4, "mode": "physical", "layout": "table"},
    )
    assert response.status_code == 201
    game = response.json["game"]  # type: ignore[index]
    assert response.headers["Location"] == f"/api/games/{game}"
    listed = client.get("/api/games").json["games"]  # type: ignore[index]
    assert [g["id"] for g in listed] == [game]
    entry = listed[0]
    assert [p["name"] for p in entry["players"]] == ["Ana", "Bo"]
    assert entry["mode"] == "physical" and entry["current"] is True
    assert entry["ended_at"] is None and entry["winners"] == []
    assert "seed" not in entry  # a digital game's seed would tell every draw to come
    state = local.get(f"/api/games/{game}?view=referee").json["state"]  # type: ignore[index]
    assert state["phase"] == "terrain" and state["seed"] == 4  # layout told by the table


def test_B_4_a_game_for_seven_is_refused_with_the_rule(client: FlaskClient) -> None:
    response = client.post("/api/games", json={"players": PLAYERS * 3 + PLAYERS[:1]})
    assert response.status_code == 422
    assert response.json["rule"] == "B-4"  # type: ignore[index]
    assert "2 to 4 players, or 5 to 6" in response.json["error"]  # type: ignore[index]
    assert client.get("/api/games").json == {"games": []}


# -- playing ------------------------------------------------------------------------------------


def test_actions_by_text_and_by_json_are_played_stored_and_seen(
    seats: dict[int, FlaskClient], local: FlaskClient, table: Table, game: int
) -> None:
    ana = seats[1]
    engine = mirror(table, game)
    by_text = first(engine, "move")
    # A body seat that agrees with the phone's seat is fine; leaving it out is the same.
    response = command(ana, game, seat=1, action=notation(by_text), request_id="r-1")
    assert response.status_code == 200
    reply = response.json
    assert reply is not None
    assert reply["accepted"] is True and reply["request_id"] == "r-1"
    assert [e["kind"] for e in reply["events"]] == ["moved"]
    engine.apply(by_text)

    by_json = first(engine, "move")
    response = command(ana, game, action=list(by_json))
    assert response.status_code == 200
    assert response.json["seq"] == reply["seq"] + 1  # type: ignore[index]
    engine.apply(by_json)

    seen = local.get(f"/api/games/{game}?view=referee").json
    assert seen is not None
    assert seen["state"] == plain(engine.referee_view())
    log = local.get(f"/api/games/{game}/actions").json["actions"]  # type: ignore[index]
    assert [(r["notation"], r["seat"], r["source"], r["status"]) for r in log[-2:]] == [
        (notation(by_text), 0, "phone", "ok"),
        (notation(by_json), 0, "phone", "ok"),
    ]


def test_intents_next_roll_undo_and_correct(
    seats: dict[int, FlaskClient], local: FlaskClient, table: Table, game: int
) -> None:
    ana = seats[1]
    engine = mirror(table, game)
    move = first(engine, "move")
    assert command(ana, game, action=notation(move)).status_code == 200
    undo = command(ana, game, intent="undo")
    assert undo.status_code == 200 and undo.json["message"] == f"undone: {notation(move)}"  # type: ignore[index]
    assert command(ana, game, intent="next").status_code == 200  # no move at all
    engine = mirror(table, game)
    assert engine.phase == "sink"
    assert command(ana, game, action=notation(first(engine, "sink"))).status_code == 200
    rolled = command(ana, game, intent="roll")
    assert rolled.status_code == 200
    assert rolled.json["events"][0]["kind"] == "rolled"  # type: ignore[index]
    face = rolled.json["events"][0]["face"]  # type: ignore[index]
    other = "whale" if face != "whale" else "shark"
    seq = rolled.json["seq"]  # type: ignore[index]
    correct = {"intent": "correct", "args": {"seq": seq, "action": f"roll {other}"}}
    refused = command(ana, game, **correct)  # the companion rolled it: no phone changes it
    assert refused.status_code == 409 and "drawn by the companion" in refused.json["error"]  # type: ignore[index]
    fixed = command(local, game, **correct)  # the table itself may
    assert fixed.status_code == 200, fixed.json
    log = {
        r["seq"]: (r["notation"], r["status"])
        for r in local.get(f"/api/games/{game}/actions").json["actions"]  # type: ignore[index]
    }
    assert log[seq] == (f"roll {face}", "corrected")
    assert log[fixed.json["seq"]] == (f"roll {other}", "ok")  # type: ignore[index]
    assert (notation(move), "undone") in log.values()


def test_a_phone_reads_only_the_actions_in_force(
    seats: dict[int, FlaskClient], local: FlaskClient, table: Table, game: int
) -> None:
    """An undone move was never played: the table itself reads its row (status ``undone``),
    a phone's log leaves it out."""
    ana = seats[1]
    move = first(mirror(table, game), "move")
    moved = command(ana, game, action=notation(move))
    assert moved.status_code == 200 and command(ana, game, intent="undo").status_code == 200
    undone = moved.json["seq"]  # type: ignore[index]
    everything = local.get(f"/api/games/{game}/actions").json["actions"]  # type: ignore[index]
    assert [r["status"] for r in everything if r["seq"] == undone] == ["undone"]
    for phone_log in (
        ana.get(f"/api/games/{game}/actions"),
        seats[2].get(f"/api/games/{game}/actions"),
    ):
        rows = phone_log.json["actions"]  # type: ignore[index]
        assert undone not in [r["seq"] for r in rows]
        assert {r["status"] for r in rows} == {"ok"}
        assert len(rows) == len(everything) - 1


def test_a_watching_phone_that_draws_a_tile_is_not_told_a_kept_back(
    client: FlaskClient, local: FlaskClient, table: Table
) -> None:
    """Spec §9: a phone without a seat may press draw for the table, but its reply never
    carries the back of a red tile the remover keeps (only the remover and the referee know
    it); the table itself reads it in the log."""
    response = client.post(
        "/api/games", json={"players": PLAYERS, "seed": 2, "mode": "physical", "layout": "random"}
    )
    game = response.json["game"]  # type: ignore[index]
    play_setup(table, game)
    rng = random.Random(2)
    kept = 0
    while kept < 2:
        engine = mirror(table, game)
        assert not engine.over, "no red tile was kept: choose another seed"
        if engine.phase != "back":
            action = rng.choice(engine.legal_actions()) if not engine.is_chance() else engine.draw()
            assert table.call(Command("cli", engine.actor, "", game, action=list(action))).accepted
            continue
        drawn = command(client, game, intent="draw")
        assert drawn.status_code == 200, drawn.json
        row = local.get(f"/api/games/{game}/actions").json["actions"][-1]  # type: ignore[index]
        back = row["action"][1]
        if back not in TURN_TILES:
            continue
        kept += 1
        assert back not in json.dumps(drawn.json), drawn.json
        assert row["notation"] == f"back {back}"  # the table itself reads it


def test_each_view_sees_what_it_may(
    client: FlaskClient, local: FlaskClient, seats: dict[int, FlaskClient], game: int
) -> None:
    asker = {"spectator": client, "referee": local, "1": seats[1], "2": seats[2]}
    views = {
        view: who.get(f"/api/games/{game}?view={view}").json["state"]  # type: ignore[index]
        for view, who in asker.items()
    }
    assert all("value" in p for p in views["referee"]["people"])
    for view in ("spectator", "1", "2"):  # own values stay hidden under the default options
        assert not any("value" in p for p in views[view]["people"]), view
        assert "seed" not in views[view]
    assert views["1"]["viewer"] == 0 and views["2"]["viewer"] == 1
    assert views["spectator"]["viewer"] == "spectator"
    # without ?view= a phone gets its own view: a spectator's while it watches, else its seat's
    assert client.get(f"/api/games/{game}").json["state"] == views["spectator"]  # type: ignore[index]
    assert seats[2].get(f"/api/games/{game}").json["state"] == views["2"]  # type: ignore[index]


def test_B_8_a_sink_during_movement_is_409_with_the_rule_id(
    seats: dict[int, FlaskClient], table: Table, game: int
) -> None:
    before = table.snapshot(game, "referee")
    hexes = [a for a in mirror(table, game).legal_actions() if a[0] == "move"]
    sink = f"sink {notation(hexes[0]).split()[2]}"
    response = command(seats[1], game, action=sink)
    assert response.status_code == 409
    refusal = response.json
    assert refusal is not None
    assert refusal["accepted"] is False and refusal["rule"] == "B-8"
    assert refusal["error"] == refusal["message"] + "."
    wrong_seat = command(seats[2], game, action=notation(hexes[0]))
    assert wrong_seat.status_code == 409
    assert "seat 1's decision" in wrong_seat.json["message"]  # type: ignore[index]
    assert table.snapshot(game, "referee") == before


def test_health_says_the_table_goes_round(client: FlaskClient, table: Table) -> None:
    health = client.get("/api/health").json
    assert health is not None and health["ok"] and health["table_alive"]
    # and the game log's disk, looked at when the Table's thread starts (status.storage)
    assert health["status"] | {"storage": "ok"} == {
        "panel": "none",
        "camera": "none",
        "storage": "ok",
    }
    table.stop()
    assert client.get("/api/health").json["table_alive"] is False  # type: ignore[index]


def test_a_table_that_does_not_answer_is_a_503(table: Table) -> None:
    app = create_app(table, table_config(), test_config={"TESTING": True, "TABLE_TIMEOUT": 0.2})
    client = phone(app)
    started, release = threading.Event(), threading.Event()

    def hold() -> None:  # keeps the Table's thread busy
        started.set()
        release.wait(5)

    holder = threading.Thread(target=table.read, args=(hold,))
    holder.start()
    assert started.wait(5)
    try:
        listed = client.get("/api/games")
        started = client.post("/api/games", json={"players": PLAYERS})
    finally:
        release.set()
        holder.join(5)
    assert listed.status_code == 503
    assert "try again" in listed.json["error"]  # type: ignore[index]
    assert started.status_code == 503
    assert "did not take the command; send it again" in started.json["error"]  # type: ignore[index]
    assert client.get("/api/games").json == {"games": []}  # the queued command was withdrawn


def test_a_bug_is_a_json_500_and_is_logged(
    client: FlaskClient, table: Table, game: int, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    def broken(*_: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(table, "snapshot", broken)
    with caplog.at_level(logging.ERROR, logger="companion.web.errors"):
        response = client.get(f"/api/games/{game}")
    assert response.status_code == 500
    assert response.json == {"error": BUG}
    assert "a bug" not in response.text
    assert any(r.exc_info and "a bug" in str(r.exc_info[1]) for r in caplog.records)


# -- bad requests ---------------------------------------------------------------------------------

RANDOM_BYTES = random.Random(7).randbytes(400)
JSON = "application/json"

BAD: list[tuple[str, str, str, dict[str, Any], int]] = [
    # (what, method, path, request, status); {game} is a game in progress
    ("text, not JSON", "POST", "{game}/commands", {"data": b"move A1 5.2", "content_type": JSON}, 400),
    ("random bytes as JSON", "POST", "{game}/commands", {"data": RANDOM_BYTES, "content_type": JSON}, 400),
    ("random bytes", "POST", "{game}/commands", {"data": RANDOM_BYTES}, 415),
    ("a form", "POST", "{game}/commands", {"data": {"request_id": "x", "intent": "roll"}}, 415),
    ("JSON as text/plain", "POST", "{game}/commands", {"data": '{"request_id": "x", "intent": "roll"}', "content_type": "text/plain"}, 415),
    ("an empty body", "POST", "{game}/commands", {"data": b"", "content_type": JSON}, 400),
    ("bad UTF-8", "POST", "{game}/commands", {"data": b'{"request_id": "\xff\xfe", "intent": "roll"}', "content_type": JSON}, 400),
    ("NaN", "POST", "{game}/commands", {"data": b'{"request_id": "x", "seat": NaN, "intent": "roll"}', "content_type": JSON}, 400),
    ("a 5000-digit seat", "POST", "{game}/commands", {"data": b'{"request_id": "x", "seat": ' + b"9" * 5000 + b', "intent": "roll"}', "content_type": JSON}, 400),
    ("deep lists", "POST", "{game}/commands", {"data": "[" * 10000 + "]" * 10000, "content_type": JSON}, 400),
    ("deep objects", "POST", "{game}/commands", {"data": '{"a":' * 5000 + "1" + "}" * 5000, "content_type": JSON}, 400),
    ("a huge body", "POST", "{game}/commands", {"json": {"request_id": "x" * 70000, "intent": "roll"}}, 413),
    ("a list", "POST", "{game}/commands", {"json": [{"request_id": "x", "intent": "roll"}]}, 422),
    ("a string", "POST", "{game}/commands", {"json": "roll"}, 422),
    ("null", "POST", "{game}/commands", {"data": b"null", "content_type": JSON}, 422),
    ("a number", "POST", "{game}/commands", {"json": 42}, 422),
    ("no request_id", "POST", "{game}/commands", {"json": {"intent": "roll"}}, 422),
    ("a number as request_id", "POST", "{game}/commands", {"json": {"request_id": 7, "intent": "roll"}}, 422),
    ("an empty request_id", "POST", "{game}/commands", {"json": {"request_id": "", "intent": "roll"}}, 422),
    ("a long request_id", "POST", "{game}/commands", {"json": {"request_id": "x" * 101, "intent": "roll"}}, 422),
    ("neither action nor intent", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": 1}}, 422),
    ("both action and intent", "POST", "{game}/commands", {"json": {"request_id": "x", "action": "done", "intent": "next"}}, 422),
    ("an unknown field", "POST", "{game}/commands", {"json": {"request_id": "x", "intnet": "roll"}}, 422),
    ("seat 0", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": 0, "action": "done"}}, 422),
    ("seat 3 of 2", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": 3, "action": "done"}}, 422),
    ("seat -1", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": -1, "action": "done"}}, 422),
    ("seat as text", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": "1", "action": "done"}}, 422),
    ("seat true", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": True, "action": "done"}}, 422),
    ("seat 1.0", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": 1.0, "action": "done"}}, 422),
    ("seat 2**70", "POST", "{game}/commands", {"json": {"request_id": "x", "seat": 2**70, "action": "done"}}, 422),
    ("seat 1e400", "POST", "{game}/commands", {"data": b'{"request_id": "x", "seat": 1e400, "action": "done"}', "content_type": JSON}, 422),
    ("an unknown verb", "POST", "{game}/commands", {"json": {"request_id": "x", "action": "fly A1 2.3"}}, 422),
    ("a hex off the board", "POST", "{game}/commands", {"json": {"request_id": "x", "action": "move A1 99.99"}}, 422),
    ("a person nobody has", "POST", "{game}/commands", {"json": {"request_id": "x", "action": "move Z9 5.2"}}, 422),
    ("an empty action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": ""}}, 422),
    ("an empty JSON action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": []}}, 422),
    ("names in a JSON action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": ["move", "A1", 58]}}, 422),
    ("a float hex", "POST", "{game}/commands", {"json": {"request_id": "x", "action": ["move", 0, 58.0]}}, 422),
    ("nested lists as action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": [[[[["move"]]]]]}}, 422),
    ("an object as action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": {"move": [0, 58]}}}, 422),
    ("a number as action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": 42}}, 422),
    ("an unknown intent", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "fly"}}, 422),
    ("new_game as a command", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "new_game"}}, 422),
    ("a list as intent", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": ["roll"]}}, 422),
    ("args with an action", "POST", "{game}/commands", {"json": {"request_id": "x", "action": "done", "args": {}}}, 422),
    ("args as a list", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": [1, "roll whale"]}}, 422),
    ("args for roll", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "roll", "args": {"face": "whale"}}}, 422),
    ("correct without seq", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": {"action": "roll whale"}}}, 422),
    ("correct with seq as text", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": {"seq": "1", "action": "roll whale"}}}, 422),
    ("correct with seq true", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": {"seq": True, "action": "roll whale"}}}, 422),
    ("correct to garbage", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": {"seq": 1, "action": "roll dragon"}}}, 422),
    ("deep args", "POST", "{game}/commands", {"json": {"request_id": "x", "intent": "correct", "args": {"seq": 1, "action": {"a": {"b": {"c": [[[]]]}}}}}}, 422),
    ("commands to an unknown game", "POST", "999/commands", {"json": {"request_id": "x", "intent": "roll"}}, 404),
    ("an unknown game", "GET", "999", {}, 404),
    ("the log of an unknown game", "GET", "999/actions", {}, 404),
    ("a game number beyond the store", "GET", "99999999999999999999999", {}, 404),
    ("commands to a game beyond the store", "POST", "99999999999999999999999/commands", {"json": {"request_id": "x", "intent": "roll"}}, 404),
    ("a game that is no number", "GET", "abc", {}, 404),
    ("a negative game", "GET", "-1", {}, 404),
    ("an unknown view", "GET", "{game}?view=god", {}, 400),
    ("view 0", "GET", "{game}?view=0", {}, 400),
    ("view 3 of 2", "GET", "{game}?view=3", {}, 400),
    ("view 1e3", "GET", "{game}?view=1e3", {}, 400),
    ("a 5000-digit view", "GET", "{game}?view=" + "9" * 5000, {}, 400),
    ("an Arabic-Indic digit view", "GET", "{game}?view=\u0661", {}, 400),
    ("DELETE on the games", "DELETE", "", {}, 405),
    ("PUT on commands", "PUT", "{game}/commands", {"json": {}}, 405),
    ("GET on commands", "GET", "{game}/commands", {}, 405),
    ("POST on a game", "POST", "{game}", {"json": {}}, 405),
    ("POST on the log", "POST", "{game}/actions", {"json": {}}, 405),
    ("POST on health", "POST", "/api/health", {"json": {}}, 405),
    ("an unknown address", "GET", "/api/nothing", {}, 404),
    ("a trailing slash", "POST", "{game}/commands/", {"json": {"request_id": "x", "intent": "roll"}}, 404),
    ("a game without players", "POST", "", {"json": {"seed": 1}}, 422),
    ("players as text", "POST", "", {"json": {"players": "Ana, Bo"}}, 422),
    ("no players", "POST", "", {"json": {"players": []}}, 422),
    ("a player as a number", "POST", "", {"json": {"players": [1, 2]}}, 422),
    ("a long name", "POST", "", {"json": {"players": [{"name": "x" * 41}, {"name": "Bo"}]}}, 422),
    ("a name as a list", "POST", "", {"json": {"players": [{"name": ["A"]}, {"name": "Bo"}]}}, 422),
    ("a player's unknown field", "POST", "", {"json": {"players": [{"name": "A", "age": 9}, {"name": "Bo"}]}}, 422),
    ("a thousand players", "POST", "", {"json": {"players": [{}] * 1000}}, 422),
    ("one player", "POST", "", {"json": {"players": PLAYERS[:1]}}, 422),
    ("a negative seed", "POST", "", {"json": {"players": PLAYERS, "seed": -1}}, 422),
    ("a seed beyond the store", "POST", "", {"json": {"players": PLAYERS, "seed": 2**64}}, 422),
    ("a seed as text", "POST", "", {"json": {"players": PLAYERS, "seed": "7"}}, 422),
    ("a float seed", "POST", "", {"json": {"players": PLAYERS, "seed": 1.5}}, 422),
    ("an unknown mode", "POST", "", {"json": {"players": PLAYERS, "mode": "virtual"}}, 422),
    ("a layout as a number", "POST", "", {"json": {"players": PLAYERS, "layout": 3}}, 422),
    ("an unknown layout", "POST", "", {"json": {"players": PLAYERS, "layout": "hexagonal"}}, 422),
    ("an unknown kind", "POST", "", {"json": {"players": PLAYERS, "kind": "chess"}}, 422),
    ("modules as text", "POST", "", {"json": {"players": PLAYERS, "modules": "base"}}, 422),
    ("an unknown module", "POST", "", {"json": {"players": PLAYERS, "modules": ["dragons"]}}, 422),
    ("options as a list", "POST", "", {"json": {"players": PLAYERS, "options": ["tiebreak"]}}, 422),
    ("an option as a number", "POST", "", {"json": {"players": PLAYERS, "options": {"tiebreak": 3}}}, 422),
    ("an unknown option", "POST", "", {"json": {"players": PLAYERS, "options": {"dragons": "yes"}}}, 422),
    ("an unknown game field", "POST", "", {"json": {"players": PLAYERS, "colour": "red"}}, 422),
    ("a game as text", "POST", "", {"data": b"players: Ana, Bo", "content_type": JSON}, 400),
]  # fmt: skip


@pytest.fixture(scope="module")
def in_progress(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[FlaskClient, Table, int]]:
    """One game a move into seat 1's turn, shared by the bad requests (none may change it)."""
    table = started_table(tmp_path_factory.mktemp("bad") / "games.db")
    app = create_app(table, table_config(), test_config={"TESTING": True})
    game_id = phone(app).post("/api/games", json={"players": PLAYERS, "seed": 2}).json["game"]  # type: ignore[index]
    client = phone(app, game_id, 1)  # seat 1's phone sends every bad request
    play_setup(table, game_id)
    move = notation(first(mirror(table, game_id), "move"))
    assert command(client, game_id, action=move).status_code == 200
    yield client, table, game_id
    close(table)


@pytest.mark.parametrize(
    ("what", "method", "path", "request_", "status"), BAD, ids=[b[0] for b in BAD]
)
def test_a_bad_request_is_a_4xx_with_a_sentence_and_changes_nothing(
    in_progress: tuple[FlaskClient, Table, int],
    what: str, method: str, path: str, request_: dict[str, Any], status: int,
) -> None:  # fmt: skip
    client, table, game = in_progress

    def state() -> tuple[Any, ...]:
        stored = table.read(lambda: (table._store.games(), table._store.log(game, everything=True)))
        return table.snapshot(game, "referee"), stored

    before = state()
    url = path if path.startswith("/") else "/api/games" + (f"/{path}" if path else "")
    response = client.open(url.format(game=game), method=method, **request_)
    assert response.status_code == status, response.text
    assert response.content_type == "application/json"
    body = response.json
    assert isinstance(body, dict) and set(body) <= {"error", "rule"}, body
    sentence = body["error"]
    assert isinstance(sentence, str) and 20 <= len(sentence) <= 400 and sentence.endswith("."), (
        sentence
    )
    assert "Traceback" not in sentence and "<" not in sentence
    assert state() == before
