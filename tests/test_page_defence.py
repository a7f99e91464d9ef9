"""A shark repelled (B-29, B-43), on two phones. Ben tells the companion his red tile — a shark
repellent — on his own phone only (B-22); later Ana moves a shark onto his swimmer, and the
question whether to play the tile shows on Ben's phone, never on Ana's. Ben plays it: the
shark is gone and his swimmer lives."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.engine import Game, board
from companion.engine.state import LAND
from tests.page_support import (
    Live,
    lay_out,
    no_page_errors,
    no_small_targets,
    same_seq,
    seated,
)

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


def shark_beside_a_swimmer(game: Game) -> tuple[list[object], list[object]]:
    """A tile for Ana to sink (a shark comes out of it, B-33) and a move for Ben into the sea
    beside that shark: the scene, found from the game (the page is not asked)."""
    for sink in game.legal_actions():
        shark = sink[1]
        after = game.copy()
        after.apply(sink)
        after.apply(("back", "shark"))
        after.apply(("roll", "whale"))  # no whale out yet: nothing moves, Ben's turn
        s = after.state
        assert after.phase == "move" and s.turn == 1
        for move in after.legal_actions():
            if move[0] != "move" or s.p_kind[move[1]] != LAND:
                continue
            to = move[2]
            beside = to in board.WATER_NEIGHBOURS[shark] and to != shark
            if beside and s.is_sea(to) and not (s.n_serpent[to] or s.n_shark[to]):
                return list(sink), list(move)
    raise AssertionError("no scene: change the seed")


def test_B_29_B_43_the_attacked_player_alone_is_asked_and_repels_the_shark(
    browser: Browser, live: Live
) -> None:
    game_id = live.new_game(mode="physical", seed=1)
    game = lay_out(live, game_id)
    game = live.play(game_id, ["done"])
    sink, swim = shark_beside_a_swimmer(game)
    shark_hex, swimmer, sea = sink[1], swim[1], swim[2]
    live.play(game_id, sink)
    live.play(game_id, ["back", "shark"])
    live.play(game_id, ["roll", "whale"])
    live.play(game_id, swim)  # Ben's person swims out beside the shark
    game = live.play(game_id, ["done"])
    game = live.play(game_id, next(a for a in game.legal_actions() if a[0] == "sink"))
    assert game.phase == "back" and game.state.turn == 1

    ana, ben = seated(browser, live.url, "Ana", "Ben")
    same_seq([ana, ben])

    # Ben tells his red tile on his phone; Ana's phone offers nothing and learns nothing.
    assert ben.mine and not ana.mine
    assert ana.page.locator("[data-outcome]").count() == 0
    ben.page.click(".private summary")
    ben.shot("red-back-private")
    ana.shot("red-back-waiting")
    ben.tap("[data-outcome='back shark-repellent']")
    same_seq([ana, ben])
    assert "shark repellent" in ben.page.inner_text(".hand").lower()
    assert "repellent" not in ana.page.inner_text("body").lower()
    ben.tap("[data-outcome='roll whale']")  # no whale is out: nothing moves

    # Ana's turn: no movement, a tile, a whale from it, then the shark on the die.
    same_seq([ana, ben])
    assert ana.mine and ana.phase == "move"
    ana.tap("[data-action=done]")
    ana.tap("[data-target] >> nth=0")
    ana.tap("[data-outcome='back whale']")
    ana.tap("[data-outcome='roll shark']")
    ana.page.click(f"[data-hex='{shark_hex}'][data-source]")
    ana.choose_first_if_asked()
    ana.tap(f"[data-hex='{sea}'][data-target]")

    # The attack waits for Ben's answer, asked on his phone only.
    same_seq([ana, ben])
    assert ben.phase == "defence" and ben.mine and not ana.mine
    assert ben.page.locator("[data-question=defence] [data-action=repel]").count() == 1
    assert ana.page.locator("[data-question]").count() == 0
    assert ana.page.locator("[data-waiting=defence]").count() == 1
    ben.shot("defence-attacked")
    ana.shot("defence-mover")
    ben.tap("[data-question=defence] [data-action=repel]")
    same_seq([ana, ben])
    ana.page.wait_for_selector(".happenings li:has-text('repellent')")
    ana.shot("defence-repelled")
    view = live.mirror(game_id).view(None)
    person = next(p for p in view["people"] if p["id"] == f"B{swimmer % 10 + 1}")
    assert person["where"] == "sea", "the swimmer lives"
    assert not [c for c in view["creatures"] if c["id"].startswith("shark") and c["at"]]
    for phone in (ana, ben):
        phone.close()
    no_page_errors(ana, ben)
    no_small_targets(ana, ben)
