"""The page's own controls of issue 15 and 17, in real Chromium at 360 px: a digital game whose
table rolls its own die (B-9: the face told from the phone, the tiles still dealt); a roll that
lets nothing move says so (B-10: the turn passes by itself); Flotilla's second-place seal tie
chosen at setup (F-5) and a sale checked against the seller's reserve and cargo (F-3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.page_support import TALL, Live, Phone, lay_out, no_page_errors, seated

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


def to_roll(live: Live, game: int) -> None:
    """Seat 1's turn played by the table up to its roll: no move, the first tile sunk."""
    mirror = live.mirror(game)
    while mirror.phase != "roll":
        legal = mirror.legal_actions()
        mirror = live.play(game, ("done",) if ("done",) in legal else legal[0])


@pytest.mark.rule("B-10")
def test_B_9_B_10_a_dealt_game_rolls_the_real_die_and_a_roll_that_moves_nothing_says_so(
    browser: Browser, live: Live
) -> None:
    """B-9: with dealt tiles the phone still offers the real die's faces; B-10: a whale told
    before any whale is on the board moves nothing, the turn passes, and the page says so."""
    game = live.new_game(seed=3, mode="digital")
    lay_out(live, game)
    ana, ben = seated(browser, live.url, "Ana", "Ben", viewport=TALL)
    try:
        to_roll(live, game)
        page = ana.page
        page.wait_for_selector("[data-intent=roll]")
        assert live.mirror(game).state.phase == "roll"
        assert not any(
            c["at"] and c["id"].startswith("whale")
            for c in live.table.snapshot(game, "referee")["state"]["creatures"]
        )
        page.click("[data-dice=table] summary")
        ana.shot("own-dice")
        ana.tap("[data-outcome='roll whale']")
        rows = live.table.read(lambda: live.table._store.log(game))
        assert any(r.action == ["roll", "whale"] and r.source == "phone" for r in rows)
        assert live.mirror(game).state.turn == 1  # nothing could move: Ben's turn
        page.wait_for_selector(".happenings")
        assert "Nothing can move on Ana's roll" in page.inner_text(".happenings")
        no_page_errors(ana, ben)
    finally:
        ana.close()
        ben.close()


@pytest.mark.rule("F-5")
def test_F_3_F_5_second_ties_chosen_at_setup_and_a_sale_checked_against_the_reserve(
    browser: Browser, live: Live
) -> None:
    """F-5: "friendly at once" chosen on the setup screen reaches the game's rules; F-3: a sale
    of more than the reserve told is refused, naming the rule, and nothing is stored."""
    ana = Phone.open(browser, live.url, "Ana", TALL)
    try:
        page = ana.page
        ana.join()
        page.click("[data-go=setup]")
        page.click("[data-kind=flotilla]")
        page.click("[data-go=next]")
        page.click(".advanced summary")
        page.click("[data-second_ties=rule][data-value=friendly]")
        page.click("[data-go=start]")
        ana.take_seat(1)
        game = live.table.current
        assert game is not None
        record = live.table.read(lambda: live.table._store.game(game))
        assert record.rules["second_ties"] == "friendly"
        actions = live.table.snapshot(game, "referee")["actions"]
        page.click("[data-open=trade]")
        page.click("[data-sell=red] button >> nth=1")
        page.click("[data-sell=red] button >> nth=1")
        page.click("[data-goods=told] summary")
        page.click("[data-reserve=red] button >> nth=1")
        page.click("[data-cargo=red] button >> nth=1")
        ana.shot("flotilla-goods")
        ana.tap("[data-go=trade]")
        assert "F-3" in page.inner_text(".refusal")
        assert live.table.snapshot(game, "referee")["actions"] == actions
        no_page_errors(ana)
    finally:
        ana.close()
