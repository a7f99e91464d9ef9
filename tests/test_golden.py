"""Golden games: stored games that must replay exactly as they did when they were stored.

If one of these fails, a change altered how a stored game replays: a table's saved game would
come back different after an update. Either the change is wrong, or it is deliberate — then
regenerate with `python -m tests.golden.make_golden` and say so in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.commands import REFEREE
from companion.engine import Rules, replay
from companion.flotilla.game import FlotillaGame
from companion.store import Store
from companion.table import Table

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def test_there_are_golden_games() -> None:
    """A stored game for each ruleset and kit: the base game digital and physical, every kit,
    the squid's variant, the challenges, the 1986 box, and Flotilla."""
    assert {p.stem for p in GOLDEN} >= {
        "survive-digital-4p", "survive-physical-3p", "survive-kits-6p",
        "survive-squid-variant-5p", "survive-challenges-3p", "escape-1986-3p", "flotilla-3p",
    }  # fmt: skip


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_unchanged_in_the_engine(path: Path) -> None:
    data = load(path)
    record = data["record"]
    in_force = [row["action"] for row in data["actions"] if row["status"] == "ok"]
    if record["kind"] == "flotilla":
        flotilla = FlotillaGame.new(len(record["players"]), record["seed"], record["mode"],
                                    record["rules"]["vp_per_player"],
                                    second_ties=record["rules"]["second_ties"])  # fmt: skip
        for action in in_force:
            flotilla.apply(action)
        assert flotilla.over
        assert flotilla.view(REFEREE) == data["final"]
        return
    game = replay(Rules.from_json(record["rules"]), len(record["players"]), record["seed"],
                  record["mode"], in_force)  # fmt: skip
    assert game.over
    assert game.referee_view() == data["final"]


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_game_replays_unchanged_from_a_store(path: Path, tmp_path: Path) -> None:
    """The same game written into a fresh store comes back through the Table as it was."""
    data = load(path)
    record = data["record"]
    store = Store(tmp_path / "games.db")
    game_id = store.create_game(record["kind"], record["rules"], record["players"], record["seed"],
                                record["mode"], record["settings"], 0.0)  # fmt: skip
    for row in data["actions"]:
        seq = store.append(game_id, row["action"], row["source"], row["seat"], 0.0)
        assert seq == row["seq"]
        if row["status"] != "ok":
            store.mark(game_id, [seq], row["status"], None)
    snapshot = Table(store).snapshot(game_id, REFEREE)
    assert snapshot["state"] == data["final"]
    assert snapshot["actions"] == sum(row["status"] == "ok" for row in data["actions"])


def test_golden_games_reach_the_parts_worth_guarding() -> None:
    """The golden games are only a guard if they go through the rules that matter (F-1…F-6 for
    Flotilla: dives, research with wild dice, trades, VP to the end of the supply, the count)."""
    verbs = {row["action"][0] for path in GOLDEN for row in load(path)["actions"]}
    assert {"terrain", "place", "boat", "move", "sail", "sink", "back", "roll", "creature",
            "play", "reveal"} <= verbs  # fmt: skip
    assert {"dive", "dive_faces", "barrels", "research", "research_faces", "wild", "trade", "vp",
            "done", "tally"} <= verbs  # fmt: skip
    flotilla = load(Path(__file__).parent / "golden" / "flotilla-3p.json")["final"]
    assert flotilla["supply"]["from_reserve"] > 0  # the supply ran out: the last turns were played
    assert any(guild["most"] for guild in flotilla["result"]["guilds"])
    backs = {row["action"][1] for path in GOLDEN for row in load(path)["actions"]
             if row["action"][0] == "back"}  # fmt: skip
    assert {"shark", "whale", "boat", "whirlpool", "volcano", "red"} <= backs
    survive = [p for p in GOLDEN if not p.stem.startswith("flotilla")]
    assert any(load(p)["final"]["result"]["ranking"][0]["points"] > 0 for p in survive)
