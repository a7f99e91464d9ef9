"""``GET /api/games/<id>/position`` served by waitress on 127.0.0.1: each view gets the position
it may see (spec §9) — a seat its own held tiles and no value, the table itself everything — and
a position read back is the game the Table holds."""

from __future__ import annotations

import http.client
import json
from pathlib import Path
from typing import Any

from companion.commands import Command
from companion.engine import Game
from companion.web import create_app
from tests.position import Position
from tests.web_support import close, phone, served, started_table, table_config


def get(port: int, path: str, cookie: str | None = None) -> tuple[int, dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        response = conn.getresponse()
        return response.status, json.loads(response.read())
    finally:
        conn.close()


def test_each_view_gets_the_position_it_may_see(tmp_path: Path) -> None:
    """Spec §9: over real HTTP the seat's position shows its own tiles, the table's (loopback,
    referee) reads back as the Table's game; a phone may not ask for the referee's."""
    table = started_table(tmp_path / "games.db")
    try:
        app = create_app(table, table_config(), test_config={"TESTING": True})
        starter = phone(app)
        made = starter.post(
            "/api/games", json={"players": [{"name": "Ana"}, {"name": "Bo"}], "seed": 4}
        )
        game = made.json["game"]  # type: ignore[index]
        while (snap := table.snapshot(game, "referee"))["state"]["phase"] == "place":
            seat = snap["state"]["actor"]
            reply = table.call(Command("phone", seat, "", game, action=snap["legal"][0]))
            assert reply.accepted, reply.message
        ana = phone(app, game, 1)
        cookie = ana.get_cookie("companion_session")
        assert cookie is not None
        with served(app) as port:
            status, mine = get(
                port, f"/api/games/{game}/position", f"companion_session={cookie.value}"
            )
            assert status == 200 and mine["game"] == game
            status, whole = get(port, f"/api/games/{game}/position?view=referee")
            assert status == 200
        referee = Game.from_position(whole["position"])
        assert referee.referee_view() == table.snapshot(game, "referee")["state"]
        assert "seed=" in whole["position"] and "seed=" not in mine["position"]
        assert (
            "A1=?@" in mine["position"]
            and "=?@" not in whole["position"].split("people ")[1].split("\n")[0]
        )
        refused = ana.get(f"/api/games/{game}/position?view=referee")
        assert refused.status_code == 403
        other = ana.get(f"/api/games/{game}/position?view=2")
        assert other.status_code == 403
        early = ana.get(f"/api/games/{game}/position?at=1")  # one land position laid
        island = early.json["position"].split("island ")[1].split("\n")[0]  # type: ignore[index]
        assert early.status_code == 200 and island.count("-") == 39
        assert ana.get(f"/api/games/{game}/position?at=x").status_code == 400
    finally:
        close(table)


def test_a_game_set_up_from_a_position_plays_on_and_survives_a_restart(tmp_path: Path) -> None:
    """A table re-created from a position (a puzzle, a lesson, a mistake put right): the game
    starts there, takes the next move, and comes back there after a restart; an impossible
    position is refused naming its rule (B-13: a boat with four people)."""
    pos = Position(players=2)
    pos.land(0, "5.2", 6)
    pos.land(1, "4.5", 2)
    text = pos.game("move").position()
    table = started_table(tmp_path / "games.db")
    try:
        app = create_app(table, table_config(), test_config={"TESTING": True})
        starter = phone(app)
        players = [{"name": "Ana"}, {"name": "Bo"}]
        bad = text.replace("b1@-", "b1@1.5:A1,A2,A3,B1")
        refused = starter.post("/api/games", json={"players": players, "position": bad})
        assert refused.status_code == 422 and refused.json["rule"] == "B-13"  # type: ignore[index]
        made = starter.post("/api/games", json={"players": players, "position": text})
        assert made.status_code == 201, made.json
        game = made.json["game"]  # type: ignore[index]
        ana = phone(app, game, 1)
        sent = ana.post(
            f"/api/games/{game}/commands", json={"request_id": "p1", "action": "go A1 5.3 5.4"}
        )
        assert sent.status_code == 200, sent.json
        now = table.snapshot(game, "referee")["state"]
        assert now["points"] == 1 and now["phase"] == "move"
    finally:
        close(table)
    table = started_table(tmp_path / "games.db")
    try:
        assert table.snapshot(game, "referee")["state"] == now
    finally:
        close(table)
