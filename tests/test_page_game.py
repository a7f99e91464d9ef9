"""A whole seeded 2-player game played on two phones through the page alone: set up in the
wizard (the start player chosen, so the list turns round), seats taken with the PIN, people and
boats placed, turns played — a move, a tile sunk, the die rolled, the creature moved — until
the volcano (B-37), then the ranking with its reasons. Digital tiles: the companion deals.
Every screen is photographed (tests/artifacts/page-*.png) and its touch targets measured."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.page_support import Live, Look, Phone, no_page_errors, no_small_targets, same_looks

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

SEED = 7
LIMIT = 400
"""Decisions before the test gives up (a game takes about 200 here)."""


def set_up(phone: Phone) -> None:
    """The wizard: two players, Ben chosen to start, digital tiles, a seed."""
    page = phone.page
    phone.join()
    phone.shot("join-authorised")
    page.click("[data-go=setup]")
    page.fill("[data-name='1']", "Ana")
    page.fill("[data-name='2']", "Ben")
    page.click("[data-colour=green][data-seat='2']")
    page.click("[data-start='2']")  # Ben starts: he becomes seat 1, Ana seat 2
    assert page.input_value("[data-name='1']") == "Ben"
    assert page.input_value("[data-name='2']") == "Ana"
    phone.shot("setup-players")
    page.click("[data-go=next]")
    phone.shot("setup-rules")
    page.click("[data-go=next]")
    page.click("[data-mode=digital]")
    page.click(".advanced summary")
    page.fill("[data-field=seed]", str(SEED))
    phone.shot("setup-table")
    page.click("[data-go=start]")
    page.wait_for_selector("[data-seat='1']")
    phone.shot("seats")


SHOTS = {
    "place": "place",
    "boat": "boat",
    "move": "move",
    "sink": "sink",
    "roll": "roll",
    "creature": "creature",
}


def decide(phone: Phone, moved: set[int], look: Look | None = None) -> None:
    """The first thing this phone may do, found on the page (what it shows: `look`, if just
    read); one movement per turn."""
    look = look or phone.look()
    phase = look.phase
    if phone.choose_first_if_asked(look):
        return
    if phase == "roll":
        phone.tap("[data-intent=roll]")
    elif phase in ("defence", "tile"):
        phone.tap("[data-action=done]")
    elif phase == "move":
        if look.points == 3 and look.seq not in moved and phone.move_piece(look):
            moved.add(phone.seq)
        else:
            phone.tap("[data-action=done]")
    elif phase == "creature":
        if not phone.move_piece(look):
            phone.tap("[data-action=done]")
    elif look.targets or look.sources:
        phone.move_piece(look)
    else:
        phone.tap("[data-action=done]")


def test_a_whole_game_from_setup_to_the_volcano(browser: Browser, live: Live) -> None:
    ben = Phone.open(browser, live.url, "Ben")
    ben.shot("join")
    set_up(ben)
    ana = Phone.open(browser, live.url, "Ana")
    ana.join()
    ana.take_seat(2)
    ben.take_seat(1)
    phones = [ben, ana]
    photographed: set[str] = set()
    moved: set[int] = set()
    for _ in range(LIMIT):
        looks = same_looks(phones, live)
        assert not [look.refusal for look in looks if look.refusal], looks
        if looks[0].phase == "over":
            break
        deciding = [(p, look) for p, look in zip(phones, looks, strict=True) if look.mine]
        assert len(deciding) == 1, looks
        phone, look = deciding[0]
        shot = SHOTS.get(look.phase)
        if shot and shot not in photographed:
            photographed.add(shot)
            phone.shot(shot)
            (ana if phone is ben else ben).shot(f"{shot}-waiting")
        if shot == "move" and "board-far" not in photographed:
            photographed.add("board-far")
            phone.page.click("[data-zoom=far]")  # the whole island; a tap brings it near
            phone.shot("board-far")
            phone.page.click("svg[data-zoom-in]")
            phone.page.wait_for_selector("[data-zoom=far]")
            look = phone.look()
        decide(phone, moved, look)
    else:
        pytest.fail(f"no end after {LIMIT} decisions")

    for phone in phones:
        phone.page.wait_for_selector(".end .ranking")
    ben.shot("end")
    page = ben.page
    assert "volcano" in page.inner_text(".ended").lower()
    assert page.locator(".ranking [data-place]").count() == 2
    assert page.locator(".reasons .reason").count() >= 1
    assert page.get_attribute("[data-link=export]", "href").endswith("/export")
    assert page.get_attribute("[data-link=bgstats]", "href").endswith("/bgstats")
    for phone in phones:
        phone.close()
    no_page_errors(*phones)
    no_small_targets(*phones)
