"""A phone answers the camera through the command endpoint: a seated phone confirms with the
proposal's id, a malformed answer is a 422 that says what to send, a stale one a 409, and
nothing is stored by either."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.commands import Command
from companion.web import create_app
from tests.playing import mirror, new_game, play_until
from tests.web_support import close, phone, started_table, table_config


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    table = started_table(tmp_path / "games.db")
    yield create_app(table, table_config(), test_config={"TESTING": True})
    close(table)


@pytest.mark.rule("B-9")
def test_B_9_a_seated_phone_confirms_and_bad_or_stale_answers_are_refused(app: Flask) -> None:
    """B-9: the remover's phone turns the camera's proposal into the sink with one POST; a
    malformed or stale answer is refused with a sentence and stores nothing."""
    table = app.extensions["companion.table"]
    game_id = new_game(table, seed=5, mode="physical")
    game = play_until(table, game_id, "sink")
    tile = next(a[1] for a in game.legal_actions() if a[0] == "sink")
    seat = game.state.turn
    reply = table.call(Command("camera", None, "", game_id, action=["sink", tile]))
    assert reply.accepted, reply.message
    pid = table.snapshot(game_id, seat)["camera"]["proposal"]["id"]
    remover = phone(app, game_id, seat + 1)
    watcher = phone(app)
    path = f"/api/games/{game_id}/commands"

    def send(client: Any, args: Any, n: int) -> Any:
        body = {"request_id": f"c{n}", "intent": "confirm_proposal", "args": args}
        return client.post(path, json=body)

    def stored() -> int:
        return len(table.read(lambda: table._store.log(game_id)))

    before = stored()
    for n, (args, says) in enumerate(
        [
            ({}, "needs args.id"),
            ({"id": "one"}, "args.id must be a whole number"),
            ({"id": pid, "tile": tile}, "has no field 'tile'"),
        ]
    ):
        answer = send(remover, args, n)
        assert answer.status_code == 422 and says in answer.json["error"], answer.json
    assert send(watcher, {"id": pid}, 9).status_code == 403  # a phone that watches
    stale = send(remover, {"id": pid + 1}, 10)
    assert stale.status_code == 409 and "no longer open" in stale.json["error"]
    assert table.snapshot(game_id, seat)["camera"]["proposal"]["id"] == pid  # still open
    assert stored() == before and mirror(table, game_id).phase == "sink"

    done = send(remover, {"id": pid, "hex": tile}, 11)
    assert done.status_code == 200 and done.json["accepted"], done.json
    assert stored() == before + 1 and mirror(table, game_id).state.terrain[tile] is None
