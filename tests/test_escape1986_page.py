"""The 1986 ruleset on the phone: the wizard offers it alone with its two options, and the
spinner's result, told from the table, is shown with what it allows (E-1, E-4, E-7)."""

from __future__ import annotations

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
    phone.shot("setup-1986")
    page.click("[data-go=next]")
    page.click("[data-go=start]")
    page.wait_for_selector("[data-seat='1']")
    game_id = live.table.current
    assert game_id is not None
    rules = live.mirror(game_id).state.rules
    assert rules.modules == ("escape-1986",)
    assert rules.option("entrances_per_island") == "2"
    assert rules.option("own_values_visible") == "no"
    phone.take_seat(1)

    game = lay_out(live, game_id)
    while game.phase != "roll":
        game = live.play(game_id, game.legal_actions()[0])
    assert game.state.turn == 0  # the phone's seat tells the spinner
    page.wait_for_selector("[data-outcome='spin serpent 1']")
    assert page.locator("[data-outcome^='spin ']").count() == 16
    phone.shot("spin-tell")
    phone.tap("[data-outcome='spin serpent 1']")
    meaning = page.wait_for_selector(".roll-meaning[data-roll='serpent 1']")
    assert meaning is not None
    text = meaning.inner_text()
    assert "Sea monster, 1 space" in text and "exactly" in text and "May move:" in text
    phone.shot("spin-result")
    phone.close()
    no_page_errors(phone)
    no_small_targets(phone)
