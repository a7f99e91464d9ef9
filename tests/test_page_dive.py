"""The dive dice (challenge #6) told on the phone: die 1 shows the starfish — wild, any of the
five (D-3) — and die 2 the D — dive to any unoccupied sea space (D-4); both spelled out before
the roll is sent, and the creature then dives where the player taps."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

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


def test_D_3_D_4_a_starfish_and_a_D_on_the_dive_dice(browser: Browser, live: Live) -> None:
    game_id = live.new_game(mode="physical", seed=5, modules=["dive-dice"])
    game = lay_out(live, game_id)
    game = live.play(game_id, ["done"])  # no movement
    game = live.play(game_id, game.legal_actions()[0])  # a tile sinks
    game = live.play(game_id, ["back", "whale"])  # a whale comes out
    assert game.phase == "roll"
    (ana,) = seated(browser, live.url, "Ana")
    assert ana.mine and ana.phase == "roll"
    page = ana.page
    # Die 1 and die 2, each with every face, the starfish and the D in words.
    assert page.locator("[data-die=kind]").count() == 6
    assert page.locator("[data-die=distance]").count() == 4
    assert "wild" in page.inner_text("[data-die=kind][data-face=starfish]").lower()
    page.click("[data-die=kind][data-face=starfish]")
    page.click("[data-die=distance][data-face=D]")
    meaning = page.inner_text(".tell .roll-meaning").lower()
    assert "starfish" in meaning and "wild" in meaning and "dive" in meaning
    assert "any unoccupied sea space" in meaning
    ana.shot("dive-dice")
    ana.tap("[data-outcome=dive]")
    assert page.locator("[data-roll='starfish D']").count() == 1
    # Anything the starfish names may dive: serpents, the whale, unoccupied boats.
    page.click("[data-source] >> nth=0")
    ana.choose_first_if_asked()
    page.wait_for_selector("[data-target]")
    assert page.locator("[data-target]").count() > 30  # any unoccupied sea space
    ana.shot("dive-creature")
    before = ana.seq
    page.click("[data-target] >> nth=-1")
    ana.settle(before)
    same_seq([ana])
    assert not ana.mine  # the dive ended the turn: Ben's now
    assert "Ben" in page.inner_text(".waiting")
    ana.close()
    no_page_errors(ana)
    no_small_targets(ana)
