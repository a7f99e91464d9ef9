"""The board and the rules as data for the page; a finished play exported as JSON and for BG
Stats (companion.web.gamedata, companion.web.export)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from urllib.parse import unquote

import pytest
from flask import Flask

from companion.engine import Rules, board, parse
from companion.engine.data import UNVERIFIED
from companion.table import Table
from companion.web import create_app
from companion.web.export import APP_LINK, WEB_LINK
from tests.test_hidden import PLAYERS, random_log
from tests.web_support import close, phone, play, started_table, table_config

SEED = 3


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    table = started_table(tmp_path_factory.mktemp("data") / "games.db")
    yield table
    close(table)


@pytest.fixture(scope="module")
def app(table: Table) -> Flask:
    return create_app(table, table_config(), test_config={"TESTING": True})


@pytest.fixture(scope="module")
def games(app: Flask, table: Table) -> tuple[int, int]:
    """A finished digital game for four (a seeded random game to its end), and one in play."""
    players = [
        {"name": n, "colour": c}
        for n, c in zip("ABCD", ("red", "blue", "green", "white"), strict=True)
    ]
    local = app.test_client()
    done = local.post("/api/games", json={"players": players, "seed": SEED}).json["game"]  # type: ignore[index]
    actions = [a for a, _, _ in random_log(SEED, "digital", Rules())]
    end = play(table, done, actions, Rules(), PLAYERS, SEED, "digital", "random")
    assert end.over
    playing = local.post("/api/games", json={"players": players, "seed": 1}).json["game"]  # type: ignore[index]
    return done, playing


# -- the board and the rules ------------------------------------------------------------------


def test_the_board_has_every_hex_with_its_kind_and_centre_and_the_pieces_by_index(
    app: Flask,
) -> None:
    data = phone(app, pin=None).get("/api/board").json
    assert data is not None
    hexes = data["hexes"]
    assert [h["index"] for h in hexes] == list(range(board.SIZE)) == list(range(137))
    assert Counter(h["kind"] for h in hexes) == {
        "sea": 84,
        "land": 40,
        "access": 8,
        "safe": 4,
        "lagoon": 1,
    }
    lagoon = hexes[board.LAGOON]
    assert (lagoon["name"], lagoon["x"], lagoon["y"]) == ("6.5", 0.0, 0.0)
    assert {h["name"] for h in hexes if h["kind"] == "safe"} == {"NW", "NE", "SW", "SE"}
    assert all(h["island"] in ("NW", "NE", "SW", "SE") for h in hexes if h["kind"] == "access")
    assert data["land"] == list(board.LAND)
    for h in hexes:  # the names and places are the engine's own
        assert board.parse(h["name"]) == h["index"]
        assert (h["x"], h["y"]) == pytest.approx(board.plane(h["row"], h["col"]), abs=1e-4)
    # Pieces by index as actions carry them: "move B4 5.2" moves person 13.
    assert data["people"][13] == "B4" and len(data["people"]) == 60
    assert data["boats"][0] == "b1" and len(data["boats"]) == 12
    assert parse("creature shark2 4.5")[1] == data["creatures"].index("shark2")


def test_the_rules_list_modules_options_with_defaults_and_what_is_unverified(app: Flask) -> None:
    data = phone(app, pin=None).get("/api/rules").json
    assert data is not None
    options = {o["name"]: o for o in data["options"]}
    assert options["tiebreak"]["default"] == "chain" == options["tiebreak"]["values"][0]
    assert all(o["text"] and o["default"] == o["values"][0] for o in data["options"])
    modules = {m["name"]: m for m in data["modules"]}
    assert modules["squid-variant-1"]["needs"] == "squid"
    assert modules["escape-1986"]["playable"] is True and modules["escape-1986"]["alone"]
    assert data["players"] == {"min": 2, "max": 6}
    assert set(UNVERIFIED) <= set(data["unverified"])
    assert ("board" in data["unverified"]) == (not board.BOARD_VERIFIED)


# -- export -----------------------------------------------------------------------------------


def test_a_game_in_play_is_exported_to_the_table_itself_only(
    app: Flask, games: tuple[int, int]
) -> None:
    _, playing = games
    r = phone(app).get(f"/api/games/{playing}/export")
    assert r.status_code == 409 and "still in play" in r.json["error"]  # type: ignore[index]
    r = app.test_client().get(f"/api/games/{playing}/export")
    assert r.status_code == 200
    r = phone(app).get(f"/api/games/{playing}/bgstats")
    assert r.status_code == 409 and "not over" in r.json["error"]  # type: ignore[index]


def test_a_finished_game_is_exported_whole_to_any_phone(
    app: Flask, table: Table, games: tuple[int, int]
) -> None:
    done, _ = games
    r = phone(app, pin=None).get(f"/api/games/{done}/export")
    assert r.status_code == 200
    assert r.headers["Content-Disposition"] == (f'attachment; filename="atlantis-game-{done}.json"')
    data = r.json
    assert data is not None
    stored = table.read(lambda: table._store.log(done, everything=True))
    assert [a["action"] for a in data["actions"]] == [row.action for row in stored]
    assert data["final"]["phase"] == "over" and data["game"]["outcome"]["ranking"]
    assert (
        data["bgg"]
        == {
            "id": 2653,
            "verified": False,
            "source": data["bgg"]["source"],
        }
        and "not checked" in data["bgg"]["source"]
    )


def test_bg_stats_gets_the_play_by_a_link_a_tap_follows(
    app: Flask, table: Table, games: tuple[int, int]
) -> None:
    done, _ = games
    client = phone(app, pin=None)
    tap = client.get(f"/api/games/{done}/bgstats", headers={"Accept": "text/html,*/*;q=0.8"})
    assert tap.status_code == 302 and tap.location.startswith(APP_LINK)
    play = json.loads(unquote(tap.location[len(APP_LINK) :]))
    asked = client.get(f"/api/games/{done}/bgstats", headers={"Accept": "application/json"})
    answer = asked.json
    assert answer is not None and answer["play"] == play and answer["link"] == tap.location
    assert answer["web_link"] == WEB_LINK + tap.location[len(APP_LINK) :]
    assert play["game"] == {
        "name": "Survive: Escape from Atlantis!",
        "bggId": 2653,
        "highestWins": True,
        "noPoints": False,
        "sourceGameId": "survive",
    }
    assert "unverified" in play["comments"] and answer["bgg"]["verified"] is False
    record = table.read(lambda: table._store.game(done))
    ranking = {p["seat"]: p for p in record.outcome["ranking"]}
    assert [p["name"] for p in play["players"]] == ["A", "B", "C", "D"]
    for seat, player in enumerate(play["players"]):
        assert player["score"] == ranking[seat]["points"]
        assert player["rank"] == ranking[seat]["place"]
        assert player["winner"] == (seat in record.outcome["winners"])
    assert sum(p["winner"] for p in play["players"]) >= 1
    assert play["sourcePlayId"].startswith(f"{done}-") and play["durationMin"] >= 1
