"""The 1986 ruleset on the phone: the wizard offers it alone with its two options, and the
spinner's result, told from the table, is shown with what it allows (E-1, E-4, E-7)."""

from __future__ import annotations

from collections import Counter

import pytest
from playwright.sync_api import Browser

from tests.page_support import Live, Phone, lay_out, no_page_errors, no_small_targets

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


@pytest.mark.rule("E-1", "E-4", "E-7")
def test_the_wizard_offers_the_1986_ruleset_and_the_phone_shows_the_spin(
    browser: Browser, live: Live
) -> None:
    phone = Phone.open(browser, live.url, "Ana")
    page = phone.page
    phone.join()
    page.click("[data-go=setup]")
    page.click("[data-go=next]")
    assert not page.locator("[data-spinner_sectors]").count()  # only with the 1986 ruleset
    page.click("[data-own_values_visible=yes]")  # then hidden by the 1986 ruleset: not sent
    page.click("[data-module=escape-1986]")
    assert page.get_attribute("[data-module=escape-1986]", "aria-pressed") == "true"
    assert not page.locator("[data-own_values_visible]").count()  # E-4: no values in 1986
    assert page.is_disabled("[data-module=dive-dice]")  # E-7: played alone
    assert page.locator("[data-spinner_sectors=uniform]").count() == 1
    assert "unverified" in page.inner_text("[data-spinner_sectors=uniform]").lower()
    page.click("[data-entrances_per_island='2']")
    assert page.locator("[data-layout_1986=rings]").get_attribute("aria-checked") == "true"
    assert "unverified" in page.inner_text("[data-backs_1986=default]").lower()
    phone.shot("setup-1986")
    page.click("[data-go=next]")
    # E-5: the island is laid in rings, so there is no random or tapped-in island to choose.
    assert page.locator("[data-layout=rings]").count() == 1
    assert not page.locator("[data-layout=random]").count()
    page.click("[data-go=start]")
    page.wait_for_selector("[data-seat='1']")
    game_id = live.table.current
    assert game_id is not None
    laid = live.mirror(game_id)
    assert laid.phase == "place"
    assert sorted(Counter(t for t in laid.state.terrain if t).values()) == [6, 12, 22]
    rules = laid.state.rules
    assert rules.modules == ("escape-1986",)
    assert rules.option("entrances_per_island") == "2"
    assert rules.option("own_values_visible") == "no"
    phone.take_seat(1)

    game = lay_out(live, game_id)
    while game.phase != "roll":
        game = live.play(game_id, game.legal_actions()[0])
    assert game.state.turn == 0  # the phone's seat tells the spinner
    # Two short questions, not 16 buttons: the creature (4), then its move (4).
    page.wait_for_selector("[data-spin=kind][data-face=serpent]")
    assert page.locator("[data-spin=kind]").count() == 4
    assert page.locator("[data-outcome^='spin ']").count() == 0
    assert page.inner_text("[data-spin=kind][data-face=serpent]") == "Sea monster"
    page.click("[data-spin=kind][data-face=serpent]")
    page.wait_for_selector("[data-outcome='spin serpent 1']")
    assert page.locator("[data-outcome^='spin ']").count() == 4
    phone.shot("spin-tell")
    assert page.inner_text(".turn-head .step") == "Step 4 · Spin"
    phone.tap("[data-outcome='spin serpent 1']")
    meaning = page.wait_for_selector(".roll-meaning[data-roll='serpent 1']")
    assert meaning is not None
    text = meaning.inner_text()
    assert "Sea monster, 1 space" in text and "exactly" in text and "May move:" in text
    phone.shot("spin-result")
    assert "spun: Sea monster · 1 space." in page.inner_text(".happenings")
    # The 1986 box calls the serpent pieces sea monsters (E-1): so do the pieces' names.
    assert "serpent" not in page.inner_text(".roll-meaning").lower()

    # Told wrongly: "Fix a spin or a tile" lists the spin, and a tap puts it right.
    page.click("[data-fix=open]")
    page.click("[data-verb=spin]")
    phone.tap("[data-correct='spin shark 2']")
    page.wait_for_selector(".roll-meaning[data-roll='shark 2']")
    assert (live.mirror(game_id).state.ctx["kind"], live.mirror(game_id).state.ctx["dist"]) == (
        "shark",
        "2",
    )
    phone.close()
    no_page_errors(phone)
    no_small_targets(phone)


@pytest.mark.rule("E-6")
def test_E_6_the_end_of_a_1986_game_says_what_ended_it_and_counts_heads(
    browser: Browser, live: Live
) -> None:
    """E-6: the end screen says how the game ended, ranks by people saved (the score, no tie
    to break) and states the 1986 tie-break, not the base game's."""
    game_id = live.new_game(modules=["escape-1986"], mode="digital", seed=9)
    game = live.mirror(game_id)
    while not game.over:
        game = live.play(game_id, game.legal_actions()[0])
    phone = Phone.open(browser, live.url, "Ana")
    phone.join()
    phone.take_seat(1)
    page = phone.page
    page.wait_for_selector(".ranking")
    ended, note = page.inner_text(".ended"), page.inner_text(".end .note")
    assert "end.by" not in ended and ("volcano" in ended or "saved or lost" in ended)
    assert note.startswith("1986 rules (E-6)")
    saved = page.inner_text("[data-rule='E-6'][data-criterion=saved]")
    assert "Tie between" not in saved
    assert "points" not in page.inner_text(".ranking")
    phone.shot("end-1986")
    phone.close()
    no_page_errors(phone)
