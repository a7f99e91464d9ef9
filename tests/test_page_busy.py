"""The phone page when the table answers ``busy`` (every stream slot taken) says so — "the table
is busy", in the phone's language — instead of "offline", and goes live by itself once a slot
is free (issue 14, item 7)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.page_support import Live, Phone, no_page_errors

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


def test_a_full_table_shows_busy_not_offline_and_then_goes_live(
    browser: Browser, live: Live
) -> None:
    game = live.new_game()
    streams = live.app.extensions["companion.streams"]
    room = streams.limit
    ana = Phone.open(browser, live.url, "ana")
    try:
        ana.join()
        streams.limit = 0  # every slot taken (by phones that hold their seats)
        ana.page.click("[data-seat='1']")
        conn = ana.page.wait_for_selector("#conn[data-connected='busy']")
        assert conn is not None
        assert "The table is busy" in conn.inner_text()
        assert "Offline" not in conn.inner_text()
        ana.shot("busy")
        streams.limit = room  # a phone left: the page tries again after the busy retry (10 s)
        ana.page.wait_for_selector("#conn[data-connected='connected']", timeout=20_000)
        assert ana.data("screen") == "play" and game == 1
        no_page_errors(ana)
    finally:
        ana.close()


def test_a_pin_half_typed_stays_while_the_screen_is_drawn_again(
    browser: Browser, live: Live
) -> None:
    """The join screen is drawn again whenever the table tells anything or the language
    changes: the digits typed so far, and the keyboard's focus, stay (under load a new
    language arrived between typing and sending, and an empty PIN was sent)."""
    live.new_game()
    ben = Phone.open(browser, live.url, "ben")
    try:
        ben.page.click("[data-field=pin]")
        ben.page.keyboard.type(live.pin[:3])
        ben.page.eval_on_selector("[data-field=pin]", "el => { el.dataset.old = 'yes'; }")
        ben.page.select_option("[data-field=language]", "fr")
        ben.page.wait_for_selector("[data-field=pin]:not([data-old])")  # a new field
        assert ben.page.inner_text("label[for=pin]").startswith("Code de la table")
        assert ben.page.input_value("[data-field=pin]") == live.pin[:3]
        assert ben.page.evaluate("document.activeElement.dataset.field") == "pin"
        ben.page.keyboard.type(live.pin[3:])
        ben.page.keyboard.press("Enter")
        ben.page.wait_for_selector("[data-go=setup]")
        no_page_errors(ben)
    finally:
        ben.close()
