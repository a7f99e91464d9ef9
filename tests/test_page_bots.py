"""A whole game with two bots and two people, through the phone page: set up in the wizard (seats
2 and 4 given to bots, "suggest" turned on), the two people's phones (one in English, one in
Spanish) taking the two other seats, every person's decision tapped on the page, the bots
deciding on their own thread as the daemon runs them, up to the volcano and the ranking.

Each bot decision reaches both phones as data, and each phone says it in its own language with
hexes, boats and creatures named as the page names them: the test words every decision the
Table told (a spectator's subscription) from the catalogues and finds those lines in both
phones' logs, and no bot line in any other words. "Suggest" shows the bot's move with its why
on the asking phone only."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.bots.seat import BotSeats
from companion.commands import Event
from companion.table import Subscriber
from tests.page_support import TALL, Live, Phone, no_page_errors, no_small_targets, same_looks
from tests.test_page_axe import Audit
from tests.test_page_game import decide

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

SEED = 11
LIMIT = 600
"""Page decisions before the test gives up (two people's share of a four-player game)."""
BOTS_WAIT = 60.0
"""Seconds the people may wait for the bots between two of their own decisions (a loaded
machine; an easy bot decides in milliseconds)."""
I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"
NAMES = ["Ana", "Blue", "Cy", "Yellow"]
"""Seats 1-4: the bots (2 and 4) are called by their colour, as the wizard names them."""
RAW = re.compile(r"\b(?:[A-F]\d{1,2}|b\d{1,2}|(?:shark|whale|serpent|squid|dolphin)\d)\b")
"""The engine's own notation (a person A3, a boat b3, a creature shark2): never on the page."""


def book(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def worded(words: dict[str, str], key: str, params: dict[str, Any]) -> str:
    """A bot decision as the page words it (web/static/js/words.js), from the catalogue."""

    def place(name: str) -> str:
        if re.fullmatch(r"b\d+", name):
            return words["piece.boat"].format(n=name[1:])
        return words.get(f"island.{name}", name)

    said: dict[str, str] = {}
    for name, value in params.items():
        if name == "seat":
            said[name] = NAMES[value]
        elif name in ("hex", "from", "to", "boat"):
            said[name] = place(value)
        elif name == "creature":
            kind = value.rstrip("0123456789")
            said[name] = f"{words[f'creature.{kind}']} {value[len(kind) :]}"
        elif name == "person":
            said[name] = words["piece.person"].format(name=NAMES["ABCDEF".index(value[0])])
        elif name == "back":
            said[name] = words[f"back.{value}"]
    text = words[key].format(**said)
    return text[0].upper() + text[1:]


def set_up(ana: Phone) -> None:
    """The wizard: four seats, 2 and 4 bots (easy: quick to decide), digital, hints on."""
    page = ana.page
    ana.join()
    page.click("[data-go=setup]")
    page.click("[data-count='4']")
    page.fill("[data-name='1']", "Ana")
    page.fill("[data-name='3']", "Cy")
    page.click("li[data-seat='2'] [data-bot=easy]")
    page.click("li[data-seat='4'] [data-bot=easy]")
    assert page.get_attribute("li[data-seat='2'] [data-bot=easy]", "aria-checked") == "true"
    assert page.get_attribute("li[data-seat='1'] [data-bot=person]", "aria-checked") == "true"
    ana.shot("bots-setup-players")
    page.click("[data-go=next]")
    page.click("[data-go=next]")
    page.click("[data-mode=digital]")
    assert page.get_attribute("[data-hints=off]", "aria-checked") == "true"  # off by default
    page.click("[data-hints=on]")
    page.click(".advanced summary")
    page.fill("[data-field=seed]", str(SEED))
    page.click("[data-go=start]")
    page.wait_for_selector("[data-seat='1']")
    # The bots' seats are the companion's: the join screen offers the people's only.
    offered = page.eval_on_selector_all(".seats [data-seat]", "els => els.map(e => e.dataset.seat)")
    assert offered == ["1", "3", "watch"]


def suggest(ana: Phone, cy: Phone) -> None:
    """Ana asks for a move: the bot's, with one line of why, on her phone alone; she plays it."""
    page = ana.page
    page.click("[data-go=suggest]")
    page.wait_for_selector("[data-suggest=shown]", timeout=20_000)
    assert page.inner_text(".suggestion .suggested").startswith("Suggested: Place a person")
    assert re.match(r"Best of \d+ moves: [+−]\d\.\d expected points", page.inner_text(".why"))
    ana.shot("bots-suggest")
    assert not cy.page.locator("[data-suggest], [data-go=suggest]").count()  # not Cy's turn
    ana.tap("[data-go=take-suggestion]")
    assert not page.locator(".refusal").count(), page.inner_text(".refusal")


def test_two_bots_and_two_people_play_a_whole_game_through_the_page(
    browser: Browser, live: Live
) -> None:
    ana = Phone.open(browser, live.url, "Ana", TALL)
    set_up(ana)
    told: list[Event] = []
    live.table.subscribe(Subscriber(None, "spectator", told.append))
    bots = BotSeats(live.table, budget_s=0.05, seed=3)  # as the daemon starts them
    bots.start()
    try:
        cy = Phone.open(browser, live.url, "Cy", TALL)
        cy.page.select_option("[data-field=language]", "es")
        cy.join()
        cy.take_seat(3)
        ana.take_seat(1)
        phones = [ana, cy]
        moved: set[int] = set()
        suggested = False
        decisions = 0
        deadline = time.monotonic() + BOTS_WAIT
        while decisions < LIMIT:
            heard = len(told)
            looks = same_looks(phones, live)
            assert not [look.refusal for look in looks if look.refusal], looks
            if looks[0].phase == "over":
                break
            deciding = [(p, look) for p, look in zip(phones, looks, strict=True) if look.mine]
            if not deciding:  # a bot's turn: its thread decides and the stream brings it
                while len(told) == heard:
                    assert time.monotonic() < deadline, "the bots stopped deciding"
                    time.sleep(0.01)
                continue
            deadline = time.monotonic() + BOTS_WAIT
            decisions += 1
            phone, look = deciding[0]
            if phone is ana and not suggested:
                suggested = True
                suggest(ana, cy)
                continue
            decide(phone, moved, look)
        else:
            pytest.fail(f"no end after {LIMIT} decisions")
    finally:
        bots.stop()
    assert suggested

    for phone in phones:
        phone.page.wait_for_selector(".end .ranking")
    ana.shot("bots-end")
    assert ana.page.locator(".ranking [data-place]").count() == 4
    assert ana.page.locator(".ranking [data-place='1']").count() >= 1  # a winner

    decisions = [e.data for e in told if e.kind == "bot"]
    assert {d["seat"] for d in decisions} == {1, 3}
    assert {"bot.place", "bot.boat", "bot.move", "bot.sink"} <= {d["key"] for d in decisions}
    for phone, lang, bot in ((ana, "en", "Bot "), (cy, "es", "El bot ")):
        words = book(lang)
        lines = phone.page.eval_on_selector_all(
            ".log .happenings li", "els => els.map(e => e.textContent)"
        )
        said = [line for line in lines if line.startswith(bot)]
        expected = {worded(words, d["key"], d["params"]) for d in decisions}
        assert said and set(said) <= expected, sorted(set(said) - expected)[:5]
        # The log keeps the newest lines: every one of the last decisions is there.
        assert {worded(words, d["key"], d["params"]) for d in decisions[-10:]} <= set(said)
        assert not [line for line in said if RAW.search(line)]
    for phone in phones:
        phone.close()
    no_page_errors(*phones)
    no_small_targets(*phones)


def test_at_a_physical_table_a_tap_says_the_bots_move_is_made_on_the_board(
    browser: Browser, live: Live
) -> None:
    """The bot's decision waits on the phone (in French here) as a sentence with the hex it
    touches marked on the board, until a person has made it on the real board and taps
    "Done on the board"; only then is it stored, as the bot seat's."""
    players = [
        {"name": "Ana", "colour": "red"},
        {"name": "Blue", "colour": "blue", "bot": "normal"},
    ]
    game_id = live.new_game(players=players, mode="physical", seed=SEED)
    # bypass_csp: axe-core is injected as a script the page's Content-Security-Policy refuses.
    context = browser.new_context(viewport=TALL, device_scale_factor=1, bypass_csp=True)
    ana = Phone(context.new_page(), "Ana")
    ana.page.on("pageerror", lambda e: ana.errors.append(str(e)))
    ana.page.goto(live.url)
    ana.page.wait_for_selector("body[data-screen='join']")
    audit = Audit(ana.page)
    ana.join()
    ana.page.click("[data-go=setup]")  # the wizard's new choices, audited in three languages
    ana.page.click("li[data-seat='2'] [data-bot=strong]")
    audit("setup-bots")
    ana.page.click("[data-go=next]")
    ana.page.click("[data-go=next]")
    audit("setup-hints")
    ana.page.click("[data-go=back]")
    ana.page.click("[data-go=back]")
    ana.page.click("[data-go=cancel]")
    ana.page.select_option("[data-field=language]", "fr")
    ana.take_seat(1)
    game = live.mirror(game_id)
    while game.actor != 1:
        game = live.play(game_id, game.legal_actions()[0])
    bots = BotSeats(live.table, budget_s=0.05, seed=3)  # stepped here: no thread
    assert bots.step()
    waiting = live.table.snapshot(game_id, "spectator")["bot_move"]
    ana.page.wait_for_selector("[data-bot-move='bot.place'][data-waiting=yes]")
    said = worded(book("fr"), waiting["key"], waiting["params"])
    assert said.startswith("Le robot Blue place un personnage sur ")
    assert ana.page.inner_text(".bot-move .bot-said") == said
    assert ana.page.eval_on_selector_all(
        "g.hex[data-bot]", "els => els.map(e => e.dataset.name)"
    ) == [waiting["params"]["hex"]]
    ana.shot("bots-waiting")
    audit("bot-waiting")
    ana.page.select_option("[data-field=language]", "fr")
    audit.check()
    rows = live.table.read(lambda: live.table._store.log(game_id))
    assert ana.page.locator("[data-bot-move][data-waiting=yes]").is_visible()
    assert not bots.step()  # it waits; nothing stored meanwhile
    ana.tap("[data-go=bot-done]")
    after = live.table.read(lambda: live.table._store.log(game_id))
    assert len(after) == len(rows) + 1
    assert after[-1].seat == 1 and after[-1].action[0] == "place"
    assert ana.page.locator("[data-bot-move]").count() == 0
    # "Suggest" is off in this game: the seat's own phone is told so as data, a watcher is refused.
    hint = f"{live.url}api/games/{game_id}/hint"
    answer = context.request.get(hint)
    assert answer.status == 409 and answer.json()["key"] == "suggest.off"
    watcher = browser.new_context()
    assert watcher.request.get(hint).status == 403
    watcher.close()
    ana.close()
    no_page_errors(ana)
