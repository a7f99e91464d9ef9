"""The end of a game whose tie is broken by fewer turns (P-6 through B-32): nobody saved
anyone, so points and people saved tie; Ana revealed the volcano on her own turn, so Ben,
seated after her, had one turn fewer and wins. The end screen says each step in words and
numbers — in the language each phone chose."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.engine import Game
from tests.page_support import Live, no_page_errors, no_small_targets, same_seq, seated

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

SEED = 2
"""With every player passing, this game's volcano comes up on Ana's turn (seat 1)."""


def volcano_next(game: Game, sink: tuple[object, ...]) -> bool:
    """Would the companion deal the volcano for this tile? (Its draw is seeded.)"""
    after = game.copy()
    after.apply(sink)
    return after.phase == "back" and after.draw() == ("back", "volcano")


def up_to_the_volcano(live: Live, game_id: int) -> None:
    """Everyone passes: no tile played, nobody moves, the first tile sinks, no creature moves;
    stop at the sink that deals the volcano (on Ana's turn)."""
    game = live.mirror(game_id)
    while True:
        if game.phase == "roll":
            live.command(game.state.turn, intent="roll")
            game = live.mirror(game_id)
            continue
        actions = game.legal_actions()
        if game.phase == "sink" and volcano_next(game, actions[0]):
            assert game.state.turn == 0, "the volcano would come on Ben's turn: change SEED"
            return
        game = live.play(game_id, ("done",) if ("done",) in actions else actions[0])


def test_P_6_B_32_a_tie_broken_by_fewer_turns(browser: Browser, live: Live) -> None:
    game_id = live.new_game(mode="digital", seed=SEED)
    up_to_the_volcano(live, game_id)
    ana, ben = seated(browser, live.url, "Ana", "Ben")
    ben.page.select_option("[data-field=language]", "fr")
    ana.page.select_option("[data-field=language]", "es")
    same_seq([ana, ben])
    assert ana.phase == "sink" and ana.mine
    ana.shot("last-sink-es")
    ana.tap("[data-target] >> nth=0")  # the volcano
    for phone in (ana, ben):
        phone.page.wait_for_selector(".end .ranking")
    ana.page.select_option("[data-field=language]", "en")
    page = ana.page
    assert page.inner_text(".end h1") == "Ben wins!"
    assert page.locator("[data-place='1'][data-seat='1']").count() == 1
    assert page.locator("[data-place='2'][data-seat='0']").count() == 1
    steps = page.locator(".reason")
    assert [steps.nth(i).get_attribute("data-criterion") for i in range(steps.count())] == [
        "points",
        "saved",
        "turns",
    ]
    turns = page.inner_text("[data-criterion=turns]")
    assert "Ana" in turns and "Ben" in turns and "one turn fewer" in turns
    assert page.get_attribute("[data-criterion=turns]", "data-decided") == "yes"
    assert page.get_attribute("[data-criterion=saved]", "data-decided") == "no"
    ana.shot("tie-end")
    # The same end in French on Ben's phone.
    assert ben.page.inner_text(".end h1") == "Ben gagne\u00a0!"  # French: a non-breaking space
    ben.shot("tie-end-fr")
    for phone in (ana, ben):
        phone.close()
    no_page_errors(ana, ben)
    no_small_targets(ana, ben)
