"""The phone page as everyone sees it, in Debian's chromium at 360×740 against the companion
served by waitress: axe-core (npm, injected by Playwright) finds no serious or critical
violation on any screen — join, each setup step, play at each step (the island laid, people and
boats placed, a red tile, moves with a piece picked up, a tile sunk and its back, the creature
die, a creature moving, the 1986 spinner, the kits' dive dice), the defence question, the end,
Flotilla — in English, Spanish and French; every tappable thing measures at least 44×44 CSS
px; the board is open to a screen reader and a keyboard (each hex a named button, arrows and
Tab, the board in words); the turn is felt, heard and not slept through; a rematch keeps the
players; an end with nobody saved says so; six players fit a compact strip.

One browser page serves the whole module; the games are driven to each screen through the
Table, and the page follows them as a seated phone does."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from companion.engine import Game
from tests.page_support import MEASURE, PIN, TALL, TAP, TAPPABLE, Live, lay_out, serving
from tests.test_flotilla_table import PLAYERS as CAPTAINS
from tests.test_page_defence import shark_beside_a_swimmer
from tests.test_page_tiebreak import up_to_the_volcano, volcano_next

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

ROOT = Path(__file__).resolve().parent.parent
BOARD_JS = ROOT / "web" / "static" / "js" / "board.js"
AXE = ROOT / ".npm-tools" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
LANGUAGES = ("en", "es", "fr")
# Every call the page makes to vibrate, to keep the screen awake and to sound a tone, recorded
# on its way to the browser's own.
CUE_SPY = """
window.__cues = [];
const vibrate = navigator.vibrate ? navigator.vibrate.bind(navigator) : null;
navigator.vibrate = (pattern) => { window.__cues.push(['vibrate', pattern]); return vibrate ? vibrate(pattern) : true; };
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.__cues.push(['wakeLock', type]); return request(type); };
}
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__cues.push(['tone']); return oscillator.call(this); };
"""
# What a turn of the base game goes through, for the page to be audited at each.
TURN_STEPS = {"tile", "move", "move-selected", "sink", "back", "roll", "creature", "waiting"}


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with serving(tmp_path_factory.mktemp("axe")) as served:
        yield served


@pytest.fixture(scope="module")
def page(browser: Browser, live: Live) -> Iterator[Page]:
    # bypass_csp: axe-core is injected as a script the page's Content-Security-Policy refuses.
    context = browser.new_context(viewport=TALL, device_scale_factor=1, locale="en-GB",
                                  bypass_csp=True)  # fmt: skip
    page = context.new_page()
    page.add_init_script(CUE_SPY)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    yield page
    context.close()
    assert not errors, errors


class Audit:
    """axe-core and the 44 px measure on the screen as it is, in each language."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.violations: list[tuple[str, str, Any]] = []
        self.small: list[tuple[str, str, dict[str, Any]]] = []
        self.screens: list[str] = []

    def language(self, lang: str) -> None:
        page = self.page
        if page.evaluate("document.documentElement.lang") != lang:
            page.select_option("[data-field=language]", lang)
            page.wait_for_function(f"document.documentElement.lang === '{lang}'")

    def __call__(self, where: str) -> None:
        if not AXE.is_file():
            pytest.fail(f"{AXE} is missing: `make test` installs axe-core from npm")
        page = self.page
        self.screens.append(where)
        for lang in LANGUAGES:
            self.language(lang)
            if not page.evaluate("typeof axe !== 'undefined'"):
                page.add_script_tag(path=str(AXE))
            result = page.evaluate("axe.run(document).then(r => r.violations)")
            for v in result:
                if v["impact"] in ("serious", "critical"):
                    nodes = [(n["target"], n["failureSummary"][:160]) for n in v["nodes"][:3]]
                    self.violations.append((f"{where}/{lang}", v["id"], nodes))
            for small in page.evaluate(MEASURE, [TAPPABLE, TAP]):
                self.small.append((where, lang, small))
        self.language("en")

    def check(self) -> None:
        found = sorted(
            {
                (where.split("/")[0], rule, str(nodes[0][0]))
                for where, rule, nodes in self.violations
            }
        )
        assert not self.violations, "\n".join(map(str, found)) + f"\n{self.violations[:3]}"
        assert not self.small, f"touch targets under {TAP}×{TAP} px: {self.small[:8]}"


def seat(page: Page, live: Live, game_id: int, seat: int | None) -> None:
    """This phone takes `seat` (1-based; None watches) in `game_id` and opens its screen."""
    request = page.context.request
    session = request.get(live.url + "api/session").json()
    token = session["csrf"]
    if not session["authorised"]:
        answer = request.post(live.url + "api/session/pin", data={"pin": PIN},
                              headers={"X-CSRF-Token": token})  # fmt: skip
        assert answer.ok, answer.text()
    answer = request.post(live.url + "api/session/seat", data={"game": game_id, "seat": seat},
                          headers={"X-CSRF-Token": token})  # fmt: skip
    assert answer.ok, answer.text()
    page.goto("about:blank")
    page.goto(f"{live.url}#play/{game_id}")
    page.wait_for_selector("body[data-screen='play'] .turn-head, body[data-screen='play'] .end, "
                           "body[data-screen='play'] .flotilla")  # fmt: skip


def shows(page: Page, live: Live, game_id: int) -> Game:
    """Wait until the page shows the game's latest state; the game as the engine has it."""
    game = live.mirror(game_id)
    seq = page.context.request.get(f"{live.url}api/games/{game_id}").json()["seq"]
    page.wait_for_function(
        f"document.body.dataset.seq === '{seq}' && document.body.dataset.busy !== 'yes'"
    )
    return game


def next_action(game: Game) -> list[Any]:
    """The walk's next step: no red tile played, a person moved while points last, a serpent
    rolled (so that a creature moves), otherwise the first thing the engine offers."""
    actions = [list(a) for a in game.legal_actions()]
    if game.phase == "tile" and ["done"] in actions:
        return ["done"]
    if game.phase == "roll" and ["roll", "serpent"] in actions:
        return ["roll", "serpent"]
    return actions[0]


def test_axe_finds_nothing_serious_on_any_screen_in_three_languages(page: Page, live: Live) -> None:
    audit = Audit(page)
    game_id = live.new_game(mode="physical", seed=1, layout="table")

    # Join: the PIN, then the seats.
    page.goto(live.url)
    page.wait_for_selector("body[data-screen='join'] [data-field=pin]")
    audit("join-pin")
    page.fill("[data-field=pin]", PIN)
    page.click("[data-go=pin]")
    page.wait_for_selector("[data-seat='1']")
    audit("join-seats")

    # Setup: each step of a Survive game, and a Flotilla game's.
    page.click("[data-go=setup]")
    for step in ("players", "rules", "table"):
        page.wait_for_selector(f".setup[data-step={step}]")
        audit(f"setup-{step}")
        if step != "table":
            page.click("[data-go=next]")
    page.click("[data-go=back]")
    page.click("[data-go=back]")
    page.click("[data-kind=flotilla]")
    page.click("[data-go=next]")
    page.wait_for_selector(".setup[data-step=flotilla]")
    audit("setup-flotilla")
    page.click("[data-go=back]")
    page.click("[data-go=cancel]")

    # Play: the island told tile by tile, people and boats placed, then turns until every step
    # has been seen on this phone (Ana's) and on the waiting side.
    page.click("[data-seat='1']")
    page.wait_for_selector("body[data-screen='play'] .turn-head")
    seen: set[str] = set()
    for _ in range(400):
        game = shows(page, live, game_id)
        step = (
            game.phase
            if game.state.turn == 0 or game.phase in ("terrain", "place", "boat")
            else "waiting"
        )
        if step not in seen and (step != "waiting" or game.phase == "move"):
            seen.add(step)
            audit(step)
        if step == "move" and "move-selected" not in seen and page.locator("[data-source]").count():
            page.click("[data-source] >> nth=0")
            page.wait_for_selector("[data-target]")
            seen.add("move-selected")
            audit("move-selected")
        if seen >= TURN_STEPS:
            break
        live.play(game_id, next_action(game))
    assert seen >= TURN_STEPS, f"never seen: {TURN_STEPS - seen}"
    assert {"terrain", "place", "boat"} <= seen

    # Defence: Ben's swimmer attacked by Ana's shark; the question on Ben's phone.
    defence_id = live.new_game(mode="physical", seed=1)
    game = lay_out(live, defence_id)
    game = live.play(defence_id, ["done"])
    sink, swim = shark_beside_a_swimmer(game)
    for action in (sink, ["back", "shark"], ["roll", "whale"], swim, ["done"]):
        game = live.play(defence_id, action)
    game = live.play(defence_id, next(a for a in game.legal_actions() if a[0] == "sink"))
    live.play(defence_id, ["back", "shark-repellent"])
    game = live.play(defence_id, ["roll", "whale"])
    game = live.play(defence_id, ["done"]) if ("done",) in game.legal_actions() else game
    while game.phase != "defence":
        game = live.play(defence_id, next(a for a in game.legal_actions() if a[0] != "done"))
        if game.phase == "roll":
            game = live.play(defence_id, ["roll", "shark"])
    seat(page, live, defence_id, 2)
    shows(page, live, defence_id)
    page.wait_for_selector("body[data-phase='defence'][data-mine='yes']")
    audit("defence")

    # The other boxes' step 4: the 1986 spinner, the kits' dive dice (with the squid).
    for modules, step in ((["escape-1986"], "spin-1986"), (["base", "dive-dice", "squid"], "dive")):
        other = live.new_game(mode="physical", seed=1, modules=modules)
        game = lay_out(live, other)
        while game.phase != "roll":
            game = live.play(other, game.legal_actions()[0])
        assert game.state.turn == 0
        seat(page, live, other, 1)
        shows(page, live, other)
        page.wait_for_selector("body[data-phase='roll'][data-mine='yes']")
        audit(step)

    # The end: nobody saved, the volcano on Ana's turn.
    end_id = live.new_game(mode="digital", seed=2)
    up_to_the_volcano(live, end_id)
    game = live.mirror(end_id)
    sink = next(a for a in game.legal_actions() if volcano_next(game, a))
    live.play(end_id, sink)
    seat(page, live, end_id, 1)
    page.wait_for_selector(".end .ranking")
    audit("end")

    # Flotilla: a captain's turn.
    flotilla_id = live.new_game(kind="flotilla", players=CAPTAINS, roll="entered")
    seat(page, live, flotilla_id, 1)
    page.wait_for_selector("body[data-phase='turn']")
    audit("flotilla")

    audit.check()
    assert len(audit.screens) >= 20, audit.screens


def hex_label(page: Page, selector: str) -> str:
    return str(page.get_attribute(selector, "aria-label") or "")


def test_the_board_names_whose_pieces_are_where_and_answers_the_keyboard(
    page: Page, live: Live
) -> None:
    """Each hex is a button named in words ("forest at 3.7: Ana's person"), the hexes that take
    a tap are Tab stops, the arrows walk the board, Enter picks up; the board in words lists
    what may move now and where it may go, in the phone's language; a sheet takes the focus and
    Escape closes it."""
    game_id = live.new_game(mode="physical", seed=1)
    game = lay_out(live, game_id)
    assert game.phase == "move" and game.state.turn == 0
    seat(page, live, game_id, 1)
    shows(page, live, game_id)
    assert page.get_attribute("svg.board", "role") == "group"

    # Every person and boat of the view is named on its hex, by its owner's name.
    view = page.evaluate(f"fetch('/api/games/{game_id}').then(r => r.json())")
    people = view["state"]["people"]
    for person in people[:6]:
        if person["where"] != "land":
            continue
        owner = ("Ana", "Ben")[person["seat"]]
        label = hex_label(page, f"g.hex[data-name='{person['at']}']")
        assert re.match(r"^(beach|forest|mountain) at \S+: ", label), label
        assert f"{owner}'s person" in label or f"of {owner}'s people" in label, label
    boat = view["state"]["boats"][0]
    assert f"Boat {boat['id'][1:]}" in hex_label(page, f"g.hex[data-name='{boat['at']}']")

    # The board in words: one button per piece that may move, each naming its owner.
    page.click(".board-words summary")
    picks = page.locator(".board-words .may-move button")
    sources = page.locator("g.hex[data-source]").count()
    assert picks.count() >= sources > 0
    texts = picks.all_inner_texts()
    assert all(re.match(r"^(Ana's person|Boat \d+), \w+ at \S+: pick up$", x) for x in texts), texts
    assert any(x.startswith("Ana's person") for x in texts), texts
    where = page.locator(".board-words .where li").all_inner_texts()
    assert any("Ben's person" in line for line in where), where

    # Keyboard: Tab reaches a hex that takes a tap; Enter picks its piece up; the arrows walk.
    first = page.evaluate("[...document.querySelectorAll('g.hex[data-source]')]"
                          ".find(g => /: Ana's person/.test(g.getAttribute('aria-label'))).dataset.hex")  # fmt: skip
    page.focus(f"g.hex[data-hex='{first}']")
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-target]")
    assert page.locator(".selection").count() == 1
    assert page.evaluate("document.activeElement.dataset.hex") == first  # kept across the redraw
    assert "picked up" in hex_label(page, f"g.hex[data-hex='{first}']")
    page.keyboard.press("ArrowRight")
    moved = page.evaluate("document.activeElement.dataset.hex")
    assert moved not in (None, first)
    assert page.locator(".board-words .may-move button").count() >= 1  # where it may go
    tabbable = page.evaluate("[...document.querySelectorAll('g.hex')].filter(g => g.tabIndex === 0)"
                             ".every(g => g.hasAttribute('data-tap'))")  # fmt: skip
    assert tabbable

    # In Spanish, the same hex in Spanish words.
    page.select_option("[data-field=language]", "es")
    page.wait_for_function("document.documentElement.lang === 'es'")
    label = hex_label(page, f"g.hex[data-hex='{first}']")
    assert re.match(r"^(playa|bosque|montaña) en \S+: .*persona de Ana", label), label
    page.select_option("[data-field=language]", "en")
    page.wait_for_function("document.documentElement.lang === 'en'")

    # A sheet (here: fixing a fact) takes the focus when it opens; Escape closes it and gives
    # the focus back to the button that opened it.
    page.focus("[data-fix=open]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#sheet:not([hidden]) [data-sheet=cancel]")
    page.wait_for_function("document.getElementById('sheet').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#sheet", state="hidden")
    assert page.evaluate("document.activeElement.dataset.fix") == "open"


def luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def rgb(css: str) -> tuple[int, int, int]:
    r, g, b = (int(x) for x in re.findall(r"\d+", css)[:3])
    return r, g, b


def test_creature_discs_stand_out_from_the_sea(page: Page, live: Live) -> None:
    """Every kind of creature disc (the base game's and the kits') at 3:1 or more against the
    sea and a sunk tile's water (WCAG 1.4.11), and its letters at 4.5:1 on the disc: measured
    on the discs the board shows, and for the kinds not out yet, on the fills board.js gives."""
    game_id = live.new_game(mode="physical", seed=1, modules=["dive-dice", "squid"])
    lay_out(live, game_id)
    seat(page, live, game_id, 1)
    colours = page.evaluate("""() => {
      const fillOf = (sel) => getComputedStyle(document.querySelector(sel)).fill;
      const discs = [...document.querySelectorAll('g.creature')].map(g => ({
        kind: g.getAttribute('class'), disc: getComputedStyle(g.querySelector('circle')).fill,
        text: getComputedStyle(g.querySelector('text')).fill}));
      const sunk = document.createElementNS('http://www.w3.org/2000/svg', 'g');
      sunk.setAttribute('class', 'hex sea sunk');
      sunk.append(document.createElementNS('http://www.w3.org/2000/svg', 'polygon'));
      document.querySelector('svg.board .hexes').append(sunk);
      const out = {sea: fillOf('g.hex.sea:not(.sunk) polygon'),
                   sunk: getComputedStyle(sunk.firstChild).fill, discs};
      sunk.remove();
      return out;
    }""")
    assert colours["discs"], "no creature on the board"
    fills = dict(re.findall(r'^  (\w+): "(#[0-9A-Fa-f]{6})",$', BOARD_JS.read_text(), re.M))
    assert set(fills) == {"serpent", "shark", "whale", "dolphin", "squid"}, fills
    drawn = [(d["kind"], rgb(d["disc"]), rgb(d["text"])) for d in colours["discs"]]
    for kind, hexa in fills.items():
        disc = tuple(int(hexa[i : i + 2], 16) for i in (1, 3, 5))
        drawn.append((kind, disc, (255, 255, 255) if kind == "shark" else (17, 17, 17)))  # type: ignore[arg-type]
    for kind, disc, text in drawn:
        for water in ("sea", "sunk"):
            ratio = contrast(disc, rgb(colours[water]))
            assert ratio >= 3, (kind, disc, water, ratio)
        assert contrast(disc, text) >= 4.5, (kind, disc, text)


def cues(page: Page, kind: str) -> int:
    return int(page.evaluate(f"window.__cues.filter(c => c[0] === '{kind}').length"))


def end_turn(live: Live, game_id: int) -> Game:
    """The seat whose turn it is passes what it can and finishes its turn."""
    game = live.mirror(game_id)
    turn = game.state.turn
    while game.state.turn == turn and game.phase != "over":
        actions = [list(a) for a in game.legal_actions()]
        game = live.play(game_id, ["done"] if ["done"] in actions else actions[0])
    return game


def test_your_turn_vibrates_keeps_the_screen_awake_and_sounds_when_asked(
    page: Page, live: Live
) -> None:
    """The screen is asked to stay awake as the page opens; when the turn comes to this phone it
    vibrates (no tone: sound is off by default); with sound switched on, the next turn also
    sounds — and nothing happens on a turn that is not this phone's."""
    game_id = live.new_game(mode="physical", seed=1)
    lay_out(live, game_id)
    seat(page, live, game_id, 2)  # Ben's phone, while Ana plays
    shows(page, live, game_id)
    assert cues(page, "wakeLock") == 1
    assert page.evaluate("window.__cues.find(c => c[0] === 'wakeLock')[1]") == "screen"
    assert cues(page, "vibrate") == 0

    end_turn(live, game_id)  # Ana's turn ends: Ben's begins
    shows(page, live, game_id)
    page.wait_for_function("window.__cues.some(c => c[0] === 'vibrate')")
    assert cues(page, "vibrate") == 1 and cues(page, "tone") == 0

    page.click("[data-sound]")
    assert page.get_attribute("[data-sound]", "aria-pressed") == "true"
    played = cues(page, "tone")  # the tap that switches it on plays it once, as a sample
    assert played == 1
    end_turn(live, game_id)  # Ben's turn: no cue while Ana plays
    shows(page, live, game_id)
    assert cues(page, "vibrate") == 1
    end_turn(live, game_id)
    shows(page, live, game_id)
    page.wait_for_function("window.__cues.filter(c => c[0] === 'vibrate').length === 2")
    assert cues(page, "tone") == played + 1
    page.click("[data-sound]")  # off again, for the tests after
    assert page.get_attribute("[data-sound]", "aria-pressed") == "false"


def test_B_32_an_end_with_nobody_saved_says_so_and_a_rematch_keeps_the_players(
    page: Page, live: Live
) -> None:
    """B-32 with ties shared: nobody saved anyone, so nobody is hailed as a shared winner — the
    end says that nobody was saved, in each language. "Set up a new game" then starts from the
    same players, their names and colours."""
    players = [{"name": "Ana", "colour": "orange"}, {"name": "Ben", "colour": "green"}]
    game_id = live.new_game(mode="digital", seed=2, players=players, options={"tiebreak": "shared"})
    up_to_the_volcano(live, game_id)
    game = live.mirror(game_id)
    live.play(game_id, next(a for a in game.legal_actions() if volcano_next(game, a)))
    seat(page, live, game_id, 1)
    page.wait_for_selector(".end .ranking")
    assert page.locator("[data-place='1']").count() == 2  # the place is shared
    for lang, title in (
        ("es", "Nadie se ha salvado"),
        ("fr", "Personne n'a été sauvé"),
        ("en", "Nobody was saved"),
    ):
        page.select_option("[data-field=language]", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        assert page.inner_text(".end h1") == title
        assert page.locator("[data-nobody=saved]").count() == 1
    assert "Shared victory" not in page.inner_text("main")

    page.click(".end [data-go=setup]")
    page.wait_for_selector(".setup[data-step=players]")
    assert page.input_value("[data-name='1']") == "Ana"
    assert page.input_value("[data-name='2']") == "Ben"
    assert page.get_attribute("[data-seat='1'][data-colour='orange']", "aria-checked") == "true"
    assert page.get_attribute("[data-seat='2'][data-colour='green']", "aria-checked") == "true"
    page.click("[data-go=cancel]")


def test_six_players_fit_a_compact_strip(page: Page, live: Live) -> None:
    """Six players' names and counts in two rows, nothing cut off, in each language: the board
    keeps the screen; and axe-core finds nothing serious there either."""
    names = ["Ana", "Ben", "Carmen", "Dario", "Élodie", "Florian"]
    colours = ["red", "blue", "green", "yellow", "orange", "white"]
    players = [{"name": n, "colour": c} for n, c in zip(names, colours, strict=True)]
    game_id = live.new_game(mode="physical", seed=1, players=players, modules=["base", "five-six"])
    lay_out(live, game_id)
    seat(page, live, game_id, 1)
    for lang in LANGUAGES:
        page.select_option("[data-field=language]", lang)
        page.wait_for_function(f"document.documentElement.lang === '{lang}'")
        strip = page.evaluate("""() => {
          const r = document.querySelector('.players-strip').getBoundingClientRect();
          const rows = new Set([...document.querySelectorAll('.players-strip .player')].map(p => Math.round(p.getBoundingClientRect().top)));
          const cut = [...document.querySelectorAll('.players-strip .player')].some(p => p.scrollWidth > p.clientWidth + 1);
          return {height: r.height, rows: rows.size, cut};
        }""")
        assert strip["rows"] <= 2 and not strip["cut"], (lang, strip)
        assert strip["height"] <= 72, (lang, strip)  # a tenth of the screen; it was 3 rows
    audit = Audit(page)
    audit("six-players")
    audit.check()
