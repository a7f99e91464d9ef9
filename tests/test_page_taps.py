"""Fewer taps, and the right piece on screen (issue 17): in real Chromium at 360 px, served by
waitress. A person walks three spaces in one tap (a whole path, B-8) and one undo takes the
whole move back; a piece moved one space stays selected while it has points; at the creature
step what may move is in sight, not the island's middle; the far view takes a tap."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.page_support import TALL, Live, Phone, lay_out, no_page_errors, seated

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

IN_SIGHT = """(sel) => {
  const wrap = document.getElementById('boardwrap').getBoundingClientRect();
  return [...document.querySelectorAll(sel)].filter((el) => {
    const r = el.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    return x >= wrap.left && x <= wrap.right && y >= wrap.top && y <= wrap.bottom;
  }).length;
}"""


def where(live: Live, game_id: int, key: str) -> str:
    """Where the page's selected piece ("person:A1", "boat:b2") stands, read off the Table."""
    kind, piece = key.split(":")
    view = live.table.snapshot(game_id, "referee")["state"]
    found = view["people"] if kind == "person" else view["boats"]
    return str(next(p["at"] for p in found if p["id"] == piece))


@pytest.fixture
def phones(browser: Browser, live: Live) -> list[Phone]:
    game_id = live.new_game(seed=3, mode="digital")
    lay_out(live, game_id)
    phones = seated(browser, live.url, "Ana", "Ben", viewport=TALL)
    yield phones
    for phone in phones:
        phone.close()
    no_page_errors(*phones)


def test_B_8_three_spaces_in_one_tap_and_one_undo(live: Live, phones: list[Phone]) -> None:
    """B-8: a target three spaces away moves the piece there in one tap (one action in the
    log, three "moved"), and one undo takes the whole path back."""
    ana = next(p for p in phones if p.mine)
    page = ana.page
    assert ana.phase == "move"
    page.click("[data-source] >> nth=0")
    page.wait_for_selector("[data-steps='3']")
    piece = str(page.get_attribute("[data-selected]", "data-selected"))
    before_hex = where(live, 1, piece)
    actions = live.table.snapshot(1, "referee")["actions"]
    target = page.get_attribute("[data-steps='3'] >> nth=0", "data-name")
    ana.tap("[data-steps='3'] >> nth=0")
    assert where(live, 1, piece) == target != before_hex
    assert live.table.snapshot(1, "referee")["actions"] == actions + 1
    assert ana.phase == "sink"
    ana.tap("[data-intent=undo]")
    assert where(live, 1, piece) == before_hex and ana.phase == "move"
    assert page.locator("[data-points='3']").count() == 1


def test_B_8_the_piece_stays_selected_while_it_has_points(phones: list[Phone]) -> None:
    """B-8: one space moved, the same person stays picked up with two points left: the next
    tap moves it again, no second tap to pick it up."""
    ana = next(p for p in phones if p.mine)
    page = ana.page
    page.click("[data-source] >> nth=0")
    page.wait_for_selector("[data-selected]")
    chosen = page.get_attribute("[data-selected]", "data-selected")
    one_step = "[data-target]:not([data-steps])"
    ana.tap(f"{one_step} >> nth=0")
    ana.choose_first_if_asked()
    assert page.get_attribute("[data-points]", "data-points") == "2"
    assert page.get_attribute("[data-selected]", "data-selected") == chosen
    assert page.locator("[data-target]").count() > 0
    ana.shot("still-selected")


def test_the_far_view_takes_a_tap_and_what_may_move_is_in_sight(phones: list[Phone]) -> None:
    """A tap on a piece in the whole-island view picks it up and brings it near; the hexes
    that may be tapped are in the board's window."""
    ana = next(p for p in phones if p.mine)
    page = ana.page
    assert page.evaluate(IN_SIGHT, "[data-source]") >= 1
    page.click("[data-zoom=far]")
    box = page.locator("svg[data-zoom-in]").bounding_box()
    hexes = page.evaluate(
        """() => { const src = document.querySelector('[data-source]');
                   const r = src.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }"""
    )
    assert box is not None
    page.mouse.click(hexes[0], hexes[1])
    page.wait_for_selector("[data-selected]")
    assert page.locator("[data-zoom=far]").count() == 1  # near again
    assert page.evaluate(IN_SIGHT, ".hex.selected") == 1
    assert page.evaluate(IN_SIGHT, "[data-target]") >= 1


@pytest.mark.rule("B-24")
def test_B_24_at_the_creature_step_what_may_move_is_in_sight_and_one_tap_moves_it(
    live: Live, phones: list[Phone]
) -> None:
    """B-24: a serpent rolled; the board is scrolled to where serpents may go (not the island's
    middle), and a space only one serpent reaches moves it there in one tap."""
    ana = next(p for p in phones if p.mine)
    game = live.mirror(1)
    while game.phase != "roll":
        legal = game.legal_actions()
        game = live.play(1, ("done",) if ("done",) in legal else legal[0])
    game = live.play(1, ("roll", "serpent"))
    assert game.phase == "creature"
    page = ana.page
    page.wait_for_selector("[data-target]")
    assert page.evaluate(IN_SIGHT, "[data-target]") >= 1
    ana.shot("creature-step")
    actions = live.table.snapshot(1, "referee")["actions"]
    ana.tap("[data-target] >> nth=0")
    assert live.table.snapshot(1, "referee")["actions"] == actions + 1
    assert live.mirror(1).state.turn == 1  # the serpent moved; Ben's turn
