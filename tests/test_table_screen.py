"""The table screen (/table) in Debian's chromium at 1920×1080 and 1024×768, through whole games
driven through the Table: a base game (English), a kit game (Spanish), a 1986 game (French) and
a Flotilla game. After every command both screens show the table's latest state (the DOM
changes with the event that brings it, no reload); the island on screen is the game's; the
screenshots stay in tests/artifacts/table-*.png; axe-core finds no serious or critical
violation; the voice, switched on by a tap, speaks the table's announcements in the table's
language through speechSynthesis (observed in the browser). The join panel shows the PIN only
to a screen that may know it, and is gone once play starts.

And §9 by difference: two tables play games with the same public history and different hidden
facts (the backs of kept red tiles; the values placed); their screens must be identical at
every step, while the referee's views of the two games differ."""

from __future__ import annotations

import random
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from waitress.server import create_server

from companion import config
from companion.commands import REFEREE, SPECTATOR, Command
from companion.engine import Game, Rules
from companion.store import Store
from companion.table import Table
from companion.voice.announcer import Announcer
from companion.voice.words import Announcement
from companion.web import create_app, end_streams
from companion.web.serving import end_server
from tests.page_support import ARTIFACTS, PIN, SECRET, Live, Phone, until
from tests.test_web_hidden import DIGITAL, PHYSICAL, SEED, Scenario, two_games
from tests.web_support import self_drawn, sender

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

ROOT = Path(__file__).resolve().parent.parent
AXE = ROOT / ".npm-tools" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
SIZES = {"1920": {"width": 1920, "height": 1080}, "1024": {"width": 1024, "height": 768}}
LIMIT = 1500
"""Decisions before a game is given up as endless."""

# Every utterance the page hands to speechSynthesis, recorded before it goes on to the browser.
SPEECH_SPY = """
window.__spoken = [];
const speak = window.speechSynthesis.speak.bind(window.speechSynthesis);
window.speechSynthesis.speak = (u) => { window.__spoken.push({text: u.text, lang: u.lang}); speak(u); };
"""
LAND_ON_SCREEN = "document.querySelectorAll('svg.board g.hex.land').length"
SHOWS = f"""([seq, land]) => document.body.dataset.seq === String(seq)
  && (land === null || {LAND_ON_SCREEN} === land)"""


@dataclass
class Screen:
    page: Page
    name: str
    errors: list[str]

    @classmethod
    def open(cls, browser: Browser, url: str, size: str, pin: bool) -> Screen:
        # bypass_csp: the test's own probes (wait_for_function, axe-core injected inline) are
        # scripts the page's Content-Security-Policy would refuse; the page's own are unchanged.
        context = browser.new_context(viewport=SIZES[size], device_scale_factor=1, bypass_csp=True)
        if pin:  # a tablet used as the table screen joined once with the PIN
            token = context.request.get(url + "api/session").json()["csrf"]
            answer = context.request.post(url + "api/session/pin", data={"pin": PIN},
                                          headers={"X-CSRF-Token": token})  # fmt: skip
            assert answer.ok, answer.text()
        page = context.new_page()
        page.add_init_script(SPEECH_SPY)
        screen = cls(page, size, [])
        page.on("pageerror", lambda e: screen.errors.append(str(e)))
        page.set_default_timeout(10_000)
        page.goto(url + "table")
        page.wait_for_selector("body[data-screen='waiting'], body[data-screen='play'], "
                               "body[data-screen='flotilla'], body[data-screen='end']")  # fmt: skip
        return screen

    def close(self) -> None:
        self.page.context.close()

    def shows(self, seq: int, land: int | None) -> None:
        """Wait until the screen shows the state numbered `seq` (with `land` tiles drawn)."""
        until(self.page, SHOWS, [seq, land], 5, f"the {self.name} screen at {seq}, {land} land")

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"table-{name}-{self.name}.png"))

    def axe(self, where: str) -> None:
        if not AXE.is_file():
            pytest.fail(f"{AXE} is missing: `make test` installs axe-core from npm")
        if not self.page.evaluate("typeof axe !== 'undefined'"):
            self.page.add_script_tag(path=str(AXE))
        result = self.page.evaluate("axe.run(document).then(r => r.violations)")
        bad = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in result
            if v["impact"] in ("serious", "critical")
        ]
        assert not bad, f"{where} at {self.name}: {bad}"

    def text(self) -> str:
        return str(self.page.inner_text("main"))


@contextmanager
def served(folder: Path, lang: str) -> Iterator[tuple[Live, Announcer]]:
    """A table with its voice (outlet "screen", in `lang`) served on 127.0.0.1, the loopback
    trust off: the screens are browsers on the Wi-Fi."""
    table = Table(Store(folder / "games.db"))
    table.start()
    settings = config.parse({
        "security": {"pin": PIN, "secret": SECRET}, "game": {"language": lang},
        "voice": {"outlet": "screen", "verbosity": "turns"},
    })  # fmt: skip
    app = create_app(table, settings, test_config={"TRUST_LOOPBACK": False})
    voice = Announcer(table, lang, "screen", "turns")
    voice.start()
    app.extensions["companion.voice"] = voice
    server = create_server(app, host="127.0.0.1", port=0, threads=16)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.effective_port}/", table, app), voice
    finally:
        end_streams(app)
        # A screen whose voice is on holds a long poll for the next announcement (up to 25 s),
        # which a mute ends: else the server's end waits 5 s for that thread.
        voice.mute(True)
        end_server(server, thread)
        voice.stop()
        table.stop()
        table._store.close()


def seq_of(table: Table, game: int) -> int:
    return int(table.snapshot(game, SPECTATOR)["seq"])


def land_of(table: Table, game: int) -> int:
    return len(table.snapshot(game, SPECTATOR)["state"]["tiles"])


def shown_of(table: Table, game: int) -> tuple[int, int]:
    """What a screen must show now: the latest state's seq and its land tiles (one snapshot)."""
    snapshot = table.snapshot(game, SPECTATOR)
    return int(snapshot["seq"]), len(snapshot["state"]["tiles"])


# -- whole games --------------------------------------------------------------------------------

GAMES = {
    "base": ("en", {"players": 2, "modules": ["base"]}),
    "kit": ("es", {"players": 5, "modules": ["base", "five-six", "dive-dice", "squid"]}),
    "1986": ("fr", {"players": 2, "modules": ["escape-1986"]}),
}
EVERY_STEP = {"base": ("1920", "1024"), "kit": (), "1986": ()}
"""The screens checked after every command (the others at the moments photographed and at the
end): a screen redraws the whole board on every change, and chromium paints it in software."""


def choose(game: Game, rng: random.Random) -> list[Any]:
    """The table's decision, or a player's: a short game — movement ended at once, else any."""
    if game.is_chance():
        return list(game.draw())
    legal = game.legal_actions()
    if game.phase == "move" and ("done",) in legal:
        return ["done"]
    return list(rng.choice(legal))


NAMES = ["Ana", "Bruno", "Chloé", "Dev", "Eva"]
COLOURS = ["red", "blue", "green", "yellow", "orange"]


def survive_game(live: Live, screens: list[Screen], kind: str) -> int:
    _, setup = GAMES[kind]
    players = [{"name": NAMES[i], "colour": COLOURS[i]} for i in range(setup["players"])]
    game = live.new_game(players=players, seed=5, mode="digital", layout="random",
                         modules=setup["modules"])  # fmt: skip
    rng = random.Random(5)
    shots = {"place", "move", "sink", "roll", "creature", "spin"}
    for screen in screens:  # the island dealt comes as events after the new game's state
        screen.page.wait_for_function(f"() => {LAND_ON_SCREEN} === {land_of(live.table, game)}")
        assert screen.page.locator("g.hex.changed").count() == 0  # laid, not changed
        screen.shot(f"{kind}-join")
        assert screen.page.locator("[data-join=open]").count() == 1
    screens[0].axe(f"{kind} join panel")
    for _ in range(LIMIT):
        g = live.mirror(game)
        if g.over:
            break
        action = choose(g, rng)
        reply = live.table.call(Command("phone", sender(g), "", game, action=action))
        assert reply.accepted, (action, reply.message)
        now = live.table.snapshot(game, SPECTATOR)
        seq, land, phase = now["seq"], len(now["state"]["tiles"]), now["state"]["phase"]
        for screen in screens:
            if phase in shots or screen.name in EVERY_STEP[kind]:
                screen.shows(seq, land)
            if phase in shots:
                screen.shot(f"{kind}-{phase}")
        if phase in shots:
            shots.discard(phase)
            if phase in ("move", "creature"):
                assert all(s.page.locator("[data-join=open]").count() == 0 for s in screens)
                screens[1].axe(f"{kind} {phase}")
    else:
        raise AssertionError(f"the {kind} game did not end in {LIMIT} decisions")
    return game


@pytest.mark.parametrize("kind", ["base", "kit", "1986"])
def test_a_whole_game_on_the_table_screen_at_both_sizes(
    browser: Browser, tmp_path: Path, kind: str
) -> None:
    lang, _ = GAMES[kind]
    with served(tmp_path, lang) as (live, voice):
        big = Screen.open(browser, live.url, "1920", pin=True)
        small = Screen.open(browser, live.url, "1024", pin=False)
        assert big.page.get_attribute("html", "lang") == lang
        big.page.click("[data-voice=off]")  # the one tap browsers need before they speak
        big.page.wait_for_selector("[data-voice=on]")
        try:
            game = survive_game(live, [big, small], kind)
            result = live.table.snapshot(game, SPECTATOR)["state"]["result"]
            for screen in (big, small):
                screen.page.wait_for_selector("body[data-screen='end'] .end.large .ranking")
                screen.shot(f"{kind}-end")
                places = screen.page.locator(".end.large .place").count()
                assert places == len(result["ranking"])
                assert screen.page.locator(".end.large .reason").count() == len(result["reasons"])
            big.axe(f"{kind} end")
            # The PIN: on the screen that gave it, never on the other.
            assert big.page.locator("template#join-codes").inner_html().count(PIN) == 2
            assert "data-pin" not in small.page.locator("template#join-codes").inner_html()
            # The voice: the table's words, in the table's language, through speechSynthesis.
            said = [a["text"] for a in voice.said(0)]
            winner = said[-1]
            big.page.wait_for_function(
                f"window.__spoken.some(u => u.text === {winner!r})", timeout=30_000
            )
            spoken = big.page.evaluate("window.__spoken")
            assert {u["lang"] for u in spoken} == {lang}
            turns = [u["text"] for u in spoken if u["text"] in said]
            assert len(turns) >= 3, spoken
            assert small.page.evaluate("window.__spoken") == []  # never tapped: silent
            assert not big.errors and not small.errors, big.errors + small.errors
        finally:
            big.close()
            small.close()


def test_a_flotilla_game_shows_market_supply_countdown_and_end(
    browser: Browser, tmp_path: Path
) -> None:
    with served(tmp_path, "en") as (live, _):
        screens = [Screen.open(browser, live.url, size, pin=size == "1920") for size in SIZES]
        try:
            players = [{"name": n, "colour": c} for n, c in zip(NAMES[:3], COLOURS, strict=False)]
            game = live.new_game(kind="flotilla", players=players, vp_per_player=5)
            steps: list[tuple[int, list[Any]]] = [(0, ["done"]), (1, ["vp", 20])]
            steps += [(seat, ["done"]) for seat in (1, 2, 0, 1, 2)]
            count = {"currency": 5, "resources": 2, "crew": 3, "penalty_vp": 0, "toxicity": 1}
            steps += [(seat, ["tally", count]) for seat in (0, 1, 2)]
            for screen in screens:
                screen.shows(seq_of(live.table, game), None)
                assert screen.page.locator(".market tr[data-good]").count() >= 3
                # A spectator's screen: the round, never the player's own "Your steps".
                assert screen.page.inner_text(".whose-turn .step") == "Round 1"
                screen.shot("flotilla-start")
            for n, (seat, action) in enumerate(steps):
                live.command(seat, action, game=game)
                for screen in screens:
                    screen.shows(seq_of(live.table, game), None)
                if n == 1:  # the supply ran out: the countdown is on every screen
                    for screen in screens:
                        assert screen.page.locator("p.supply[data-supply='0']").count() == 1
                        assert screen.page.locator("[data-ending=yes]").count() == 1
                        screen.shot("flotilla-countdown")
                    screens[0].axe("flotilla countdown")
            for screen in screens:
                screen.page.wait_for_selector("body[data-screen='flotilla'] .end .ranking")
                assert "Bruno" in screen.page.inner_text(".end h1")
                screen.shot("flotilla-end")
            screens[1].axe("flotilla end")
            assert not any(s.errors for s in screens)
        finally:
            for screen in screens:
                screen.close()


# -- §9 by difference -------------------------------------------------------------------------


# The screen's markup but the QR codes and address (each table is served on its own port), once
# it shows the state `seq` with `land` tiles drawn (one round trip: wait, then read).
MARKUP = f"""(shown) => {{
  if (!({SHOWS})(shown)) return null;
  const main = document.querySelector("main").cloneNode(true);
  for (const codes of main.querySelectorAll(".codes")) codes.remove();
  return main.innerHTML;
}}"""


def without_moments(html: str) -> str:
    """The screen's markup without what depends on when it was drawn (the few seconds' marks)."""
    return re.sub(r" changed", "", html)


@pytest.mark.parametrize(
    "scenario",
    [PHYSICAL, pytest.param(DIGITAL, marks=pytest.mark.slow)],
    ids=["kept-red-backs", "values"],
)
def test_no_secret_reaches_the_table_screen(
    browser: Browser, tmp_path: Path, scenario: Scenario
) -> None:
    """§9: the screens of two games that differ only in hidden facts are identical after every
    action, while the referee's views of the same two games tell them apart."""
    first, second = two_games(scenario)
    with served(tmp_path / "one", "en") as (one, _), served(tmp_path / "two", "en") as (two, _):
        tables = [one, two]
        screens = [Screen.open(browser, live.url, "1024", pin=False) for live in tables]
        try:
            games = [
                live.new_game(
                    players=[{"name": n} for n in ("Ana", "Bo", "Cy", "Di")],
                    seed=SEED,
                    mode=scenario.mode,
                    layout=scenario.layout,
                    modules=list(scenario.rules.modules),
                    options=dict(scenario.rules.options),
                )
                for live in tables
            ]
            mirrors = [Game.new(scenario.rules, 4, SEED, scenario.mode) for _ in tables]
            referee_differed = False
            for n, pair in enumerate(zip(first, second, strict=True)):
                # Both tables are sent their action before either screen is waited for: the two
                # screens draw at the same time.
                sent = []
                for live, game, mirror, action in zip(tables, games, mirrors, pair, strict=True):
                    drawn = self_drawn(mirror, scenario.mode, scenario.layout)
                    if not drawn:
                        command = Command("phone", sender(mirror), "", game, action=list(action))
                        sent.append((live.table.submit(command), action))
                    mirror.apply(action)
                for reply, action in sent:
                    assert reply.result(30).accepted, (action, reply.result().message)
                if drawn:  # both tables drew it themselves: nothing new was sent
                    continue
                # (what the Table draws itself comes with the command before)
                seen = [
                    without_moments(until(s.page, MARKUP, shown_of(live.table, game), 5, f"screen {i}"))
                    for i, (live, game, s) in enumerate(zip(tables, games, screens, strict=True))
                ]  # fmt: skip
                assert seen[0] == seen[1], f"the screens differ after action {n}: {pair}"
                if not referee_differed:
                    views = [live.table.snapshot(g, REFEREE)["state"] for live, g in zip(tables, games, strict=True)]  # fmt: skip
                    referee_differed = views[0] != views[1]
            assert referee_differed, "the hidden facts never differed: the test is blind"
        finally:
            for screen in screens:
                screen.close()


def test_the_rules_of_the_scenarios_are_what_the_games_were_started_with() -> None:
    assert PHYSICAL.rules == Rules() and DIGITAL.rules.options["own_values_visible"] == "yes"


def test_a_phone_with_the_pin_mutes_the_voice_for_everyone(
    browser: Browser, tmp_path: Path
) -> None:
    with served(tmp_path, "en") as (live, voice):
        screen = Screen.open(browser, live.url, "1024", pin=False)
        phone = Phone.open(browser, live.url, "mute")
        try:
            screen.page.click("[data-voice=off]")
            screen.page.wait_for_selector("[data-voice=on]")
            assert phone.page.locator(".voice-toggle").count() == 0  # no PIN, no say
            phone.join()
            phone.page.click(".voice-toggle[data-voice=on]")
            phone.page.wait_for_selector(".voice-toggle[data-voice=muted]")
            assert voice.muted
            screen.page.wait_for_selector("[data-voice=muted]")  # the screen's wait ends at once
            voice.announce(Announcement("turn", "Ana's turn.", "en", 1, 1))
            assert voice.said(0) == []  # muted: nothing reaches the screen
            phone.page.click(".voice-toggle[data-voice=muted]")
            screen.page.wait_for_selector("[data-voice=on]")
            voice.announce(Announcement("turn", "Bruno's turn.", "en", 1, 2))
            screen.page.wait_for_function(
                '() => window.__spoken.some(u => u.text === "Bruno\'s turn.")'
            )
            texts = [u["text"] for u in screen.page.evaluate("window.__spoken")]
            assert "Ana's turn." not in texts
        finally:
            screen.close()
            phone.close()
