"""A Flotilla game on the phone at 360×640: a dive declared and its mixed faces tapped in, the
barrels placed where the player chooses (F-1); a research roll with a wild die, the best colour
offered first (F-2); the panel's ROLL asking this phone for the faces; and a game started from
the setup screen with digital rolls, whose roll says "face distribution not verified"."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from companion.commands import Command
from companion.flotilla import NOT_VERIFIED
from tests.page_support import Live, Phone, no_page_errors, no_small_targets, same_seq, seated
from tests.test_flotilla_table import DIVE, PLAYERS

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


def test_F_1_F_2_a_dive_with_mixed_results_and_a_research_with_a_wild_die(
    browser: Browser, live: Live
) -> None:
    """F-1: two barrels, one toxicity; the barrels go where the player taps. F-2: a wild die
    beside two blue ones: the best choice (blue, the Delvers pay out) comes first."""
    live.new_game(kind="flotilla", players=PLAYERS, roll="entered")
    (ana,) = seated(browser, live.url, "Ana")
    page = ana.page
    assert ana.mine and ana.phase == "turn"

    # The dive: a skiff on A7 (middle depth, red, 3 barrels aboard) and one on B2.
    page.click("[data-open=dive]")
    page.fill("[data-field=tile-0]", "A7")
    page.click("[data-depth='0'][data-value='2']")
    page.click("[data-resource='0'][data-value='red']")
    for _ in range(3):
        page.click("[data-aboard='0'] button >> nth=1")
    page.click("[data-go=add-skiff]")
    page.fill("[data-field=tile-1]", "B2")
    page.click("[data-depth='1'][data-value='1']")
    page.click("[data-resource='1'][data-value='blue']")
    ana.shot("flotilla-dive")
    ana.tap("[data-go=dive]")
    assert ana.phase == "roll"
    assert "Die 1: middle (skiff on A7)" in page.inner_text("[data-roll=dive]")

    # The panel's ROLL asks this phone for the faces: it never rolls them itself.
    reply = live.table.call(Command("gpio", intent="roll"))
    assert reply.accepted and reply.seq is None
    page.wait_for_selector(".question")

    page.click("button[data-die='0'][data-face='barrel+barrel']")
    page.click("button[data-die='1'][data-face='toxicity']")
    ana.shot("flotilla-faces")
    ana.tap("[data-go=faces]")
    assert ana.phase == "barrels"
    options = page.locator("[data-option]")
    assert options.count() == 2
    assert options.nth(1).inner_text() == "A7 +0 · B2 +2"
    ana.tap("[data-option='1']")
    last = page.inner_text("[data-last=dive]")
    assert "+2 blue barrel(s)" in last and "toxicity +1" in last

    # The research: four dice, two Delver artifacts placed.
    page.click("[data-open=research]")
    page.click("[data-dice=research][data-value='4']")
    for _ in range(2):
        page.click("[data-artifacts=delvers] button >> nth=1")
    ana.tap("[data-go=research]")
    assert ana.phase == "roll"
    for die, face in enumerate(["wild", "blue", "blue", "currency:2"]):
        page.click(f"button[data-die='{die}'][data-face='{face}']")
    ana.tap("[data-go=faces]")
    assert ana.phase == "wild"
    best = page.inner_text("[data-wild='0']")
    assert "die 1 as blue" in best and "Delvers set: 2 artifacts pay out" in best
    assert "no guild set" in page.inner_text("[data-wild='1']")
    ana.shot("flotilla-wild")
    ana.tap("[data-wild='0']")
    last = page.inner_text("[data-last=research]")
    assert "Delvers set: 2 artifacts pay out" in last and "2 currency" in last
    assert ana.phase == "turn"
    same_seq([ana])
    ana.close()
    no_page_errors(ana)
    no_small_targets(ana)


def test_F_1_a_game_started_on_the_phone_with_digital_rolls_says_they_are_not_verified(
    browser: Browser, live: Live
) -> None:
    """F-1: Flotilla chosen on the setup screen with the table rolling; the roll the phone asks
    for is drawn from the dice file, and "face distribution not verified" stands beside it."""
    ana = Phone.open(browser, live.url, "Ana")
    page = ana.page
    ana.join()
    page.click("[data-go=setup]")
    page.click("[data-kind=flotilla]")
    assert page.locator(".player-row").count() == 3  # 3 to 5 captains
    page.click("[data-go=next]")
    page.click("[data-roll=mode][data-value=digital]")
    ana.shot("flotilla-setup")
    page.click("[data-go=start]")
    ana.take_seat(1)
    live.command(0, DIVE)
    ana.page.wait_for_selector("[data-go=roll]")
    assert page.inner_text("[data-roll=dive] [data-note=unverified]") == NOT_VERIFIED
    ana.tap("[data-go=roll]")
    page.wait_for_selector("[data-note=unverified]")
    assert NOT_VERIFIED in page.inner_text(".faces")
    ana.shot("flotilla-digital")

    # F-4, F-5, F-6: the supply emptied, the last turns, this phone's count, then the ranking.
    while (snap := live.table.snapshot(None, "referee"))["state"]["phase"] != "turn":
        live.command(0, snap["legal"][0])
    live.command(0, ["vp", 400])
    assert "turns left, in order: Player 2, Player 3" in page.inner_text("[data-ending]")
    for seat in (0, 1, 2, 0, 1, 2):
        live.command(seat, ["done"])
    page.wait_for_selector("[data-form=tally]")
    ana.tap("[data-go=tally]")
    for seat in (1, 2):
        count = {"currency": 0, "resources": 0, "toxicity": 1, "crew": 0, "penalty_vp": 0}
        live.command(seat, ["tally", {**count, "seals": {"traders": 1}}])
    page.wait_for_selector(".ranking")
    assert page.inner_text("h1") == "Player 1 wins!"
    assert page.locator(".place[data-seat='0'][data-place='1']").count() == 1
    guild = page.inner_text("[data-guild=traders]")
    assert "most seals: Player 2, Player 3 (10 VP)" in guild and "friendly tie" in guild
    ana.shot("flotilla-end")
    ana.close()
    no_page_errors(ana)
    no_small_targets(ana)


def test_F_4_a_step_taken_clears_its_form_undo_is_the_turns_own_and_the_end_leads_on(
    browser: Browser, live: Live
) -> None:
    """F-4: VP taken close their form (a second tap cannot take stale numbers again); only the
    phone whose turn it is offers undo, and the others' header names whose turn it is; a
    refusal does not outlive its step; the end screen offers the next game."""
    live.new_game(kind="flotilla", players=PLAYERS, roll="entered", vp_per_player=2)
    ana, ben = seated(browser, live.url, "Ana", "Ben")
    page = ana.page
    page.click("[data-open=vp]")
    page.click("[data-vp=gained] button >> nth=1")  # 2 VP
    ana.tap("[data-go=vp]")
    assert page.locator("[data-form=vp]").count() == 0
    same_seq([ana, ben])
    assert live.table.snapshot(None, "referee")["state"]["vp"][0] == 2
    assert page.locator("[data-go=undo]").count() == 1
    assert ben.page.locator("[data-go=undo]").count() == 0
    assert ben.page.inner_text(".turn-head .step") == "Ana's turn"

    # Buying and selling red in one turn is refused (F-3); once the turn has moved on (the
    # panel's NEXT here), the refusal is gone with it.
    page.click("[data-open=trade]")
    page.click("[data-buy=red] button >> nth=1")
    page.click("[data-sell=red] button >> nth=1")
    ana.tap("[data-go=trade]")
    assert "F-3" in page.inner_text(".refusal")
    live.command(0, ["done"])
    same_seq([ana, ben])
    assert ben.mine and page.locator(".refusal").count() == 0

    live.command(1, ["trade", {"buy": {"red": 2}}])  # F-3: every phone sees what it cost
    same_seq([ana, ben])
    trade = page.inner_text("[data-last=trade]")
    assert "Ben's trade" in trade and "bought 2 red" in trade and "paid " in trade
    live.command(1, ["vp", 10])  # the supply (6) runs out: the round ends, then a turn each
    for seat in (1, 2, 0, 1, 2):
        live.command(seat, ["done"])
    count = {"currency": 0, "resources": 0, "toxicity": 0, "crew": 0, "penalty_vp": 0}
    for seat in (0, 1, 2):
        live.command(seat, ["tally", count])
    page.wait_for_selector(".ranking")
    assert page.locator("[data-go=setup]").count() == 1  # the next game, from this phone
    ana.close()
    ben.close()
    no_page_errors(ana, ben)
    no_small_targets(ana, ben)


def test_F_1_faces_entered_wrongly_are_fixed_from_the_rollers_phone(
    browser: Browser, live: Live
) -> None:
    """F-1: the faces are a fact of the table: the roller's phone fixes them (the turn is
    replayed from that roll) where undo cannot take them back; other phones are not offered it."""
    game_id = live.new_game(kind="flotilla", players=PLAYERS, roll="entered")
    ana, ben = seated(browser, live.url, "Ana", "Ben")
    live.command(0, DIVE)
    live.command(0, ["dive_faces", [["barrel", "barrel"], ["toxicity"]]])
    same_seq([ana, ben])
    page = ana.page
    assert ana.phase == "barrels" and ben.page.locator("[data-go=fix-faces]").count() == 0
    page.click("[data-go=fix-faces]")
    page.wait_for_selector("[data-fixing]")
    assert "on" in (
        page.get_attribute("button[data-die='0'][data-face='barrel+barrel']", "class") or ""
    )
    page.click("button[data-die='0'][data-face='toxicity']")
    ana.shot("flotilla-fix-faces")
    ana.tap("[data-go=fix-send]")
    same_seq([ana, ben])
    snap = live.table.snapshot(game_id, "referee")["state"]
    assert snap["phase"] == "turn" and snap["last"]["toxicity"] == 2
    assert "toxicity +2" in page.inner_text("[data-last=dive]")
    assert page.locator("[data-fixing]").count() == 0
    ana.close()
    ben.close()
    no_page_errors(ana, ben)
    no_small_targets(ana, ben)
