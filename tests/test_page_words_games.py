"""Whole games played by taps in Spanish and French, every phone's page checked after every
event for English and raw notation (issue 17): a base game, a 5-player kit game (dive dice,
the squid), a 1986 game told from the table, a Flotilla game. Seats without a phone play
through the Table; a seat with one plays by taps (its rolls and spins told on it too).
The kit game and the 1986 game are slow (`make check-long`); every 1986 and kit word is also
checked one by one in test_page_words.py."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.commands import Command
from companion.engine import Game, Rules
from tests.page_support import TALL, Live, Phone, no_page_errors, same_looks, same_seq, seated
from tests.test_page_game import decide
from tests.words_support import check, speak

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ana", "red"), ("Ben", "blue")]]


# -- whole games, by taps ------------------------------------------------------------------------

LIMIT = 1500
"""Decisions before a game gives up (a 5-player game takes about 600)."""


def tell_on_page(phone: Phone, game: Game) -> bool:
    """The roller's own roll or spin, told on their phone; False when the page offers none."""
    page = phone.page
    # (A digital game keeps the real dice's faces folded away: its Roll button comes first.)
    if page.locator("[data-spin=kind]:visible").count():  # 1986: the creature, then its move
        page.click("[data-spin=kind]:visible >> nth=0")
        page.wait_for_selector("[data-outcome^='spin ']")
        phone.tap("[data-outcome^='spin '] >> nth=0")
        return True
    if page.locator("[data-die=kind]:visible").count():  # the dive dice: a face on each
        page.click("[data-die=kind] >> nth=0")
        page.click("[data-die=distance] >> nth=0")
        phone.tap("[data-outcome=dive]")
        return True
    for selector in ("[data-intent=roll]", "[data-outcome^='back ']:visible >> nth=0"):
        if page.locator(selector).count():
            phone.tap(selector)
            return True
    return False


def play_checked(
    live: Live, game_id: int, tappers: dict[int, Phone], phones: list[Phone], seed: int
) -> int:
    """Play `game_id` to its end: the seats in `tappers` by taps on their phones, the others
    (and the table's facts) through the Table; every phone's page checked after every event.
    The number of decisions made by taps."""
    rng = random.Random(seed)
    moved: set[int] = set()
    tapped = 0
    table = live.table
    record = table.read(lambda: table._store.game(game_id))
    game = Game.new(Rules.from_json(record.rules), len(record.players), record.seed, record.mode)
    done = 0
    for step in range(LIMIT):
        looks = same_looks(phones, live)
        for phone in phones:
            check(phone.page, f"{phone.name} at step {step}")
            if phone not in tappers.values() and phone.page.locator(".points").count():
                # A watcher is never spoken to as the player moving ("te quedan", "vous").
                points = phone.page.inner_text(".points")
                assert not re.search(r"\b(?:vous|te|tu|you)\b", points, re.I), points
        # The game as stored, brought up to date (a whole replay each step would cost more
        # than the pages).
        rows = table.read(lambda: table._store.log(game_id))
        for row in rows[done:]:
            game.apply(row.action)
        done = len(rows)
        if game.over:
            return tapped
        turn = game.state.turn
        phone = tappers.get(turn if game.is_chance() else game.actor)  # type: ignore[arg-type]
        if phone is not None and game.is_chance() and game.phase in ("roll", "back"):
            if tell_on_page(phone, game):
                tapped += 1
                continue
        elif phone is not None and (look := looks[phones.index(phone)]).mine:
            decide(phone, moved, look)
            after = phone.look()
            if after.seq != look.seq or after.sheet:
                tapped += 1
                continue
        if game.is_chance():
            what = (
                {"intent": "draw"}
                if record.mode == "digital"
                else {"action": list(rng.choice(game.legal_actions()))}
            )
            reply = live.table.call(Command("cli", None, f"t-{step}", game_id, **what))
            assert reply.accepted, reply.message
        else:
            action = list(rng.choice(game.legal_actions()))
            reply = table.call(Command("phone", game.actor, f"p-{step}", game_id, action=action))
            assert reply.accepted, (action, reply.message)
    pytest.fail(f"no end after {LIMIT} decisions")


def set_up_in(phone: Phone, lang: str) -> None:
    """The wizard in `lang`, every screen checked: Ana and Ben, digital tiles, a seed."""
    page = phone.page
    phone.join()
    speak(phone, lang)
    check(page, f"join-{lang}")
    page.click("[data-go=setup]")
    page.fill("[data-name='1']", "Ana")
    page.fill("[data-name='2']", "Ben")
    check(page, f"setup-players-{lang}")
    page.click("[data-go=next]")
    check(page, f"setup-rules-{lang}")
    page.click("[data-go=next]")
    page.click("[data-mode=digital]")
    page.click(".advanced summary")
    page.fill("[data-field=seed]", "7")
    check(page, f"setup-table-{lang}")
    page.click("[data-go=start]")
    page.wait_for_selector("[data-seat='1']")
    check(page, f"seats-{lang}")


def test_a_base_game_played_by_taps_in_spanish_and_french(browser: Browser, live: Live) -> None:
    ana = Phone.open(browser, live.url, "Ana", viewport=TALL)
    set_up_in(ana, "es")
    ana.take_seat(1)
    ben = Phone.open(browser, live.url, "Ben", viewport=TALL)
    ben.join()
    speak(ben, "fr")
    ben.take_seat(2)
    game_id = live.table.current
    assert game_id is not None
    tapped = play_checked(live, game_id, {0: ana, 1: ben}, [ana, ben], seed=7)
    assert tapped > 50
    for phone in (ana, ben):
        phone.page.wait_for_selector(".end .ranking")
        check(phone.page, f"{phone.name} at the end")
    # The whole game's log, scrollable: far more than the last four lines.
    assert ana.page.locator(".happenings li").count() > 20
    ana.close()
    ben.close()
    no_page_errors(ana, ben)


FIVE = [
    {"name": n, "colour": c}
    for n, c in [
        ("Ana", "red"),
        ("Ben", "blue"),
        ("Cleo", "green"),
        ("Dario", "yellow"),
        ("Eva", "white"),
    ]
]


@pytest.mark.slow  # a 5-player game by taps: `make check-long` (the base game runs in make test)
@pytest.mark.rule("D-1", "Q-1")
def test_a_five_player_kit_game_with_dive_dice_and_the_squid_in_spanish_and_french(
    browser: Browser, live: Live
) -> None:
    """D-1 (the dive dice replace the red die) and Q-1 (the squid): seat 1 plays by taps in
    Spanish, a watcher follows in French; the other seats play through the table."""
    game_id = live.new_game(
        players=FIVE, modules=["five-six", "dive-dice", "squid"], seed=11, mode="digital"
    )
    (ana,) = seated(browser, live.url, "Ana", viewport=TALL)
    speak(ana, "es")
    watcher = Phone.open(browser, live.url, "watcher", viewport=TALL)
    speak(watcher, "fr")
    watcher.page.click("[data-seat=watch]")
    watcher.page.wait_for_selector("body[data-screen='play'] .turn")
    tapped = play_checked(live, game_id, {0: ana}, [ana, watcher], seed=11)
    assert tapped > 10
    ana.close()
    watcher.close()
    no_page_errors(ana, watcher)


@pytest.mark.slow  # `make check-long`, as the kit game above
@pytest.mark.rule("E-1")
def test_a_1986_game_told_from_the_table_in_french_and_spanish(
    browser: Browser, live: Live
) -> None:
    """E-1: the spinner told in two taps (the creature, then its move) on the roller's phone,
    the tiles' backs told there too; the pieces named as the 1986 box names them."""
    game_id = live.new_game(players=PLAYERS, modules=["escape-1986"], seed=5, mode="physical")
    ana, ben = seated(browser, live.url, "Ana", "Ben", viewport=TALL)
    speak(ana, "fr")
    speak(ben, "es")
    tapped = play_checked(live, game_id, {0: ana, 1: ben}, [ana, ben], seed=5)
    assert tapped > 30
    log = ana.page.inner_text(".happenings") if ana.page.locator(".happenings").count() else ""
    assert "serpent" not in log.lower()  # "monstre marin", as the 1986 box says
    ana.close()
    ben.close()
    no_page_errors(ana, ben)


CAPTAINS = [
    {"name": n, "colour": c} for n, c in [("Ana", "red"), ("Ben", "blue"), ("Cleo", "green")]
]
COUNT = {"currency": 0, "resources": 0, "toxicity": 0, "crew": 0, "penalty_vp": 0}


def captain_turn(phone: Phone, dived: bool) -> None:
    """Ana's turn by taps: a dive the first time (the tile's name typed last: the start button
    must wake up as it is typed), then VP."""
    page = phone.page
    if not dived:
        page.click("[data-open=dive]")
        page.click("[data-depth='0'] >> nth=0")
        page.click("[data-resource='0'] >> nth=0")
        assert page.is_disabled("[data-go=dive]")  # no tile yet
        page.locator("[data-field=tile-0]").press_sequentially("A7")
        assert page.is_enabled("[data-go=dive]")
        phone.tap("[data-go=dive]")
    else:
        page.click("[data-open=vp]")
        phone.tap("[data-go=vp]")


@pytest.mark.rule("F-1", "F-4")
def test_a_flotilla_game_played_by_taps_in_spanish_and_french(browser: Browser, live: Live) -> None:
    """F-1 (a dive: its faces tapped in, its choices made) and F-4 (the VP supply ends the
    game): Ana plays by taps in Spanish, Ben follows in French, Cleo plays through the table."""
    game_id = live.new_game(kind="flotilla", players=CAPTAINS, roll="entered", vp_per_player=2)
    ana, ben = seated(browser, live.url, "Ana", "Ben", viewport=TALL)
    speak(ana, "es")
    speak(ben, "fr")
    page = ana.page
    dived = False
    for step in range(200):
        same_seq([ana, ben], live)
        for phone in (ana, ben):
            check(phone.page, f"{phone.name} at step {step}", notation=False)  # tiles: "A7"
        state = live.table.snapshot(game_id, "referee")["state"]
        phase, actor = state["phase"], state["actor"]
        if phase == "over":
            break
        if (actor == 0 or (phase == "roll" and state["turn"] == 0)) and ana.mine:
            if phase == "turn":
                if page.locator("[data-last=dive]").count():
                    dived = True
                if state["step"] is None and dived and page.locator("[data-go=undo]").count():
                    ana.tap("[data-go=done]")  # the turn's step is taken: done
                else:
                    captain_turn(ana, dived)
            elif phase == "roll":
                for die in range(page.locator("li.die-row").count()):
                    page.click(f"li.die-row[data-die='{die}'] button >> nth=0")
                ana.tap("[data-go=faces]")
            elif phase in ("barrels", "deplete"):
                ana.tap("[data-option='0']")
            elif phase == "wild":
                ana.tap("[data-wild='0']")
            elif phase == "tally":
                ana.tap("[data-go=tally]")
            continue
        seat = actor if isinstance(actor, int) else state["turn"]
        action: list[Any] = ["tally", COUNT] if phase == "tally" else ["done"]
        if phase == "turn" and seat == 2 and state["supply"]["supply"] > 0:
            action = ["vp", 10]  # Cleo empties the supply: the game's end comes (F-4)
        reply = live.table.call(Command("phone", seat, f"f-{step}", game_id, action=action))
        assert reply.accepted, (action, reply.message)
    else:
        pytest.fail("the Flotilla game did not end")
    assert dived
    for phone in (ana, ben):
        phone.page.wait_for_selector(".ranking")
        check(phone.page, f"{phone.name} at the end", notation=False)
    ana.close()
    ben.close()
    no_page_errors(ana, ben)
