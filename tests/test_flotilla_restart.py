"""A Flotilla game survives a daemon killed mid-game: a real `companion serve` takes a dive up to
the player's barrel choice, is killed with SIGKILL, and once started again serves the game
replayed from the store and plays on from where it stopped (spec flotilla.md, F-1)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.test_crash import Http, Served
from tests.test_flotilla_table import DIVE, MIXED, PLAYERS


def send(api: Http, game: int, n: int, seat: int, action: list[Any]) -> dict[str, Any]:
    status, reply = api("POST", f"/api/games/{game}/commands",
                        {"request_id": f"r{n}", "seat": seat, "action": action})  # fmt: skip
    assert status == 200, reply
    return dict(reply)


def referee(api: Http, game: int) -> dict[str, Any]:
    status, snapshot = api("GET", f"/api/games/{game}?view=referee", None)
    assert status == 200, snapshot
    return dict(snapshot)


def test_F_1_a_flotilla_game_killed_mid_dive_goes_on_from_the_store(tmp_path: Path) -> None:
    """F-1: after a SIGKILL between the faces and the barrel choice, the restarted daemon serves
    the same game, still awaiting that choice, and the dive then resolves."""
    served = Served(tmp_path)
    try:
        api = served.start()
        status, made = api("POST", "/api/games", {"kind": "flotilla", "players": PLAYERS})
        assert status == 201, made
        game = made["game"]
        send(api, game, 1, 1, DIVE)
        mixed = send(api, game, 2, 1, MIXED)
        before = referee(api, game)
        assert before["state"]["phase"] == "barrels"
        assert served.proc is not None
        served.proc.kill()
        served.proc.wait(timeout=15)
        api.close()

        api = served.start()
        after = referee(api, game)
        assert after["state"] == before["state"]
        assert after["legal"] == before["legal"] == [["barrels", [1, 1]], ["barrels", [0, 2]]]
        again = send(api, game, 2, 1, MIXED)  # a retry of a command already done
        assert again == mixed  # its first reply, kept with it in the store
        send(api, game, 3, 1, ["barrels", [0, 2]])
        last = referee(api, game)["state"]["last"]
        assert last["gained"] == {"blue": 2} and last["toxicity"] == 1
        assert served.stop() == 0
    finally:
        served.reap()
