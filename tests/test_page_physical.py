"""A turn with the real tiles and the real die (physical mode): the remover tells the tile's
back on their own phone (B-22), the roller taps the die face the red die shows (B-10), and a
mis-entered face and back are put right through the correction flow — two taps to its picker."""

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


def test_a_physical_turn_told_on_the_phone_and_corrected(browser: Browser, live: Live) -> None:
    game_id = live.new_game(mode="physical", seed=11)
    lay_out(live, game_id)
    ana, ben = seated(browser, live.url, "Ana", "Ben")
    same_seq([ana, ben])
    assert ana.phase == "move" and ana.mine and not ben.mine

    # The stream drops while the table is up (a restart of the stream, a Wi-Fi blink): the bar
    # says it is coming back (not "offline": the table answers), then the page reconnects by
    # itself and shows the game again.
    live.drop_streams()
    ana.page.wait_for_selector("#conn[data-connected=connecting]")
    ana.shot("reconnecting")
    ana.wait_live()
    same_seq([ana, ben])

    # Step 2: a person goes to a sea space that holds a boat: into the sea or into the boat?
    # One tap meant two moves, so the page asks. Then the movement ends.
    page = ana.page
    for i in range(page.locator("[data-source]").count()):
        page.click(f"[data-source] >> nth={i}")
        if page.locator("[data-target][data-source]").count():
            break
        page.click("[data-go=unselect]")
    before = ana.seq
    page.click("[data-target][data-source] >> nth=0")
    assert page.locator("#sheet:not([hidden]) [data-choice]").count() == 2
    assert ana.choose_first_if_asked()  # photographed: page-chooser.png
    ana.settle(before)
    ana.tap("[data-action=done]")
    # Step 3: a tile is removed; only the remover's phone asks for its back.
    ana.tap("[data-target] >> nth=0")
    same_seq([ana, ben])
    assert ana.phase == "back"
    assert ana.page.locator("[data-outcome='back whale']").count() == 1
    assert ben.page.locator("[data-outcome]").count() == 0
    assert ben.page.locator("[data-waiting=back]").count() == 1
    ana.shot("physical-back")
    ben.shot("physical-back-waiting")
    ana.tap("[data-outcome='back whale']")
    # Step 4: the die face as the real die shows it.
    same_seq([ana, ben])
    assert ana.phase == "roll"
    assert ana.page.locator("[data-outcome^='roll ']").count() == 3  # shark, whale, sea serpent
    ana.shot("physical-face")
    ana.tap("[data-outcome='roll whale']")
    assert ana.page.locator("[data-roll=whale]").count() == 1  # the whale the tile brought
    ana.shot("physical-creature")

    # The die showed a sea serpent, not a whale: Fix, the roll (two taps), then the right face.
    ana.page.click("[data-fix=open]")
    ana.page.wait_for_selector("[data-fact][data-verb=roll]")
    ana.shot("fix-list")
    ana.page.click("[data-fact][data-verb=roll] >> nth=0")
    ana.page.wait_for_selector("[data-correct='roll serpent']")
    ana.shot("fix-picker")
    ana.tap("[data-correct='roll serpent']")
    ana.page.wait_for_selector("[data-roll=serpent]")
    # A correction the rules cannot allow is refused in the rule's own words: a beach tile
    # never hides the volcano (B-22).
    ana.page.click("[data-fix=open]")
    ana.page.click("[data-fact][data-verb=back] >> nth=0")
    ana.tap("[data-correct='back volcano']")
    refusal = ana.page.locator(".refusal[data-rule='B-22']")
    assert refusal.count() == 1
    assert "red back goes secretly into your hand" in refusal.inner_text()  # rule.B-22
    assert "beach" in refusal.inner_text()  # the table's own sentence
    ana.shot("refusal")
    # And the tile's back was a boat, not a whale.
    ana.page.click("[data-fix=open]")
    ana.page.click("[data-fact][data-verb=back] >> nth=0")
    ana.tap("[data-correct='back boat']")
    same_seq([ana, ben])
    state = live.mirror(game_id).view(None)
    assert state["roll"] == "serpent"
    assert not any(c["at"] for c in state["creatures"] if c["id"].startswith("whale"))
    assert sum(b["at"] is not None for b in state["boats"]) == 5  # 4 placed, 1 from the tile
    assert ana.page.locator("[data-roll=serpent]").count() == 1
    ana.shot("fixed")

    ana.tap("[data-action=done]")  # leave the creature: Ben's turn
    same_seq([ana, ben])
    assert ben.mine and not ana.mine
    for phone in (ana, ben):
        phone.close()
    no_page_errors(ana, ben)
    no_small_targets(ana, ben)
