"""The phone page in a real browser: Debian's chromium driven by Playwright, at 360×640.

A test module says ``pytest_plugins = ["tests.page_fixtures"]`` for the ``browser`` and
``live`` fixtures (see there), and takes from here:

- `Live`: the companion serving a real Table, and the Table's face to set a scene quickly;
- `Phone`: one browser context (its own cookies: one phone) with the moves a player makes, the
  screenshot it leaves in ``tests/artifacts/`` and the measure of its touch targets.

The tests find what to tap from the page's own data attributes (``data-target`` on a hex that
takes a piece, ``data-source`` on a hex with a piece to pick up, ``data-action``,
``data-outcome``, ...), never from the engine.
"""

from __future__ import annotations

import faulthandler
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from companion import config
from companion.commands import Command
from companion.engine import Game, Rules
from companion.store import Store
from companion.table import Table
from companion.web import create_app, end_streams
from companion.web.serving import end_server, make_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PIN = "246813"
SECRET = "the-page-tests-secret-of-more-than-32-characters"
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
VIEWPORT = {"width": 360, "height": 640}
TALL = {"width": 360, "height": 740}
"""The phone of issue 17's tests: 360 px wide, 740 tall."""
TAP = 44
"""The smallest touch target, in CSS pixels, each side."""

# Everything a finger may tap: buttons, links, fields, and the hexes that take a tap.
TAPPABLE = "button, a[href], input, select, summary, [role=button], [data-tap], [data-zoom-in]"
MEASURE = """([selector, tap]) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('[hidden]')) continue;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width === 0 || r.height === 0 || style.visibility === 'hidden' || style.display === 'none') continue;
    if (r.width < tap - 0.5 || r.height < tap - 0.5) {
      small.push({what: el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined ? '.' + el.className : ''),
                  text: (el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 40),
                  width: Math.round(r.width), height: Math.round(r.height)});
    }
  }
  return small;
}"""


# A finger's tap, in two steps around Playwright's mouse (real input events at a point):
# AIM brings the element into view and finds the point a finger would press — its centre, which
# must be the element itself (or inside it), not something over it, and not a disabled control —
# and guards the window against the press landing elsewhere (a redraw between aim and press):
# such a press is swallowed before the page sees it, and FELT says it missed, so the tap is
# made again. Playwright's own click checks the same, but waits two animation frames for the
# element to be still and takes several round trips: ~60 ms a tap, a whole game's minute.
AIM = """(el) => {
  if (window.__finger) window.__finger.off();
  window.__finger = null;
  if (!el.isConnected) return 'detached';
  if (el.matches(':disabled') || el.closest('[aria-disabled=true], [hidden]')) return 'disabled or hidden';
  const at = () => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return null;
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return hit && el.contains(hit) ? [x, y] : null;
  };
  let point = at();
  if (!point) {
    el.scrollIntoView({block: 'center', inline: 'center'});
    point = at();
  }
  if (!point) {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return 'not under the finger: ' + (hit ? hit.outerHTML.slice(0, 120) : 'off screen');
  }
  const finger = {hit: false, missed: ''};
  const kinds = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click'];
  const guard = (e) => {
    if (!finger.missed && el.isConnected && el.contains(e.target)) { finger.hit = true; return; }
    finger.missed = finger.missed || e.type + ' on ' + (e.target.outerHTML || '').slice(0, 120);
    e.preventDefault();
    e.stopImmediatePropagation();
  };
  for (const kind of kinds) window.addEventListener(kind, guard, true);
  finger.off = () => { for (const kind of kinds) window.removeEventListener(kind, guard, true); };
  window.__finger = finger;
  return [...point, Number(document.body.dataset.seq || '-1')];
}"""
FELT = """(() => {
  const finger = window.__finger;
  if (!finger) return 'no finger';
  finger.off();
  window.__finger = null;
  return finger.missed ? 'missed: ' + finger.missed : finger.hit ? null : 'nothing felt';
})()"""
"""What went wrong with the tap just made, or null."""
# Wait in the page for `test(arg)` to hold, looked at again whenever the document changes (no
# polling interval to sleep through); its value, or null after `ms`.
UNTIL = """([arg, ms]) => new Promise((resolve) => {
  const test = %s;
  const now = test(arg);
  if (now) return resolve(now);
  const seen = new MutationObserver(() => {
    const value = test(arg);
    if (value) { seen.disconnect(); clearTimeout(timer); resolve(value); }
  });
  seen.observe(document, {attributes: true, childList: true, subtree: true, characterData: true});
  const timer = setTimeout(() => { seen.disconnect(); resolve(test(arg) || null); }, ms);
})"""
SEQ = "(Number(document.body.dataset.seq || '-1'))"
LOOK = """() => {
  const d = document.body.dataset, q = (s) => document.querySelectorAll(s).length;
  const refusal = document.querySelector('.refusal');
  return {screen: d.screen || '', phase: d.phase || '', seq: Number(d.seq || '-1'),
          mine: d.mine === 'yes', busy: d.busy === 'yes', refusal: refusal ? refusal.innerText : null,
          choices: q('#sheet:not([hidden]) [data-choice]'), sheet: q('#sheet:not([hidden])'),
          targets: q('[data-target]'), sources: q('[data-source]'),
          points: Number(document.querySelector('[data-points]')?.dataset.points || 0)};
}"""
ANSWERED = (
    "(before) => document.body.dataset.busy !== 'yes' && "
    f"({SEQ} !== before || !!document.querySelector('.refusal'))"
)
"""The table answered the tap made at state `before`: a new state, or a refusal shown."""
CHOOSER = "document.querySelector('#sheet:not([hidden]) [data-choice]')"
CHOSEN = (
    "(before) => document.body.dataset.busy !== 'yes' && "
    f"({SEQ} !== before || !!document.querySelector('.refusal') || "
    "!document.querySelector('#sheet:not([hidden])'))"
)
"""A choice taken on the chooser sheet: the table's answer to it, or, when it picked a piece
up, the sheet closed."""
PICKED = f"() => {CHOOSER} ? 'choose' : document.querySelector('[data-target]') && 'targets'"
"""A piece tapped: where it may go shown, or a chooser (several pieces there)."""
PUT = f"(before) => {CHOOSER} ? 'choose' : ({ANSWERED})(before) && 'answered'"
"""A target tapped: the table's answer, or a chooser (several moves end there)."""
FELT_THEN = f"""(before) => {{
  if (window.__finger) {{
    const missed = {FELT};
    if (missed) return {{missed}};
  }}
  const value = (%s)(before);
  return value && {{missed: null, value}};
}}"""
"""A tap felt by its element (else {missed}), then `test(before)` waited for: {value}."""
REACHED = f"(seq) => document.body.dataset.busy !== 'yes' && {SEQ} >= seq && ({LOOK})()"
"""The page shows state `seq` or a later one, no tap of its own on the way: what it shows."""


def until(page: Page, test: str, arg: Any, timeout: float, what: str) -> Any:
    """Wait in `page` for the JavaScript function `test` to hold for `arg` (see UNTIL); its
    value. Fails saying `what` was awaited when `timeout` seconds pass first."""
    value = page.evaluate(UNTIL % test, [arg, timeout * 1000])
    if not value:
        raise AssertionError(f"{what}: not so after {timeout} s")
    return value


@dataclass
class Look:
    """What a phone shows, read in one round trip (see LOOK)."""

    screen: str
    phase: str
    seq: int
    mine: bool
    busy: bool
    refusal: str | None
    choices: int
    """Choices on an open chooser sheet (one tap meant several things)."""
    sheet: int
    targets: int
    sources: int
    points: int


@dataclass
class Live:
    """The companion serving a real Table on 127.0.0.1."""

    url: str
    table: Table
    app: Flask
    pin: str = PIN
    _mirrors: dict[int, tuple[Game, list[tuple[int, Any]]]] = field(default_factory=dict)

    def drop_streams(self) -> None:
        """End every open event stream, as a Wi-Fi drop or a restart would; phones reconnect."""
        end_streams(self.app)

    def command(self, seat: int | None, action: list[Any] | None = None, **kw: Any) -> None:
        """Act as a seat's phone would, through the Table (to set a scene quickly)."""
        reply = self.table.call(Command("phone", seat, "", action=action, **kw))
        assert reply.accepted, reply.message

    def new_game(self, **args: Any) -> int:
        args.setdefault(
            "players", [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]
        )
        reply = self.table.call(Command("cli", intent="new_game", args=args))
        assert reply.accepted, reply.message
        assert reply.game is not None
        return reply.game

    def seq(self, game_id: int | None = None) -> int:
        """The latest state's number of a game (the current one by default): the seq its last
        state event carries to every phone."""
        return int(self.table.snapshot(game_id or self.table.current, "spectator")["seq"])

    def mirror(self, game_id: int) -> Game:
        """The engine's game replayed from the store: for setting scenes, never for the page.
        Only the actions stored since the last call are applied (a whole replay at every step
        of a long game costs more than the step); a copy, the caller's to change."""
        table = self.table
        record, rows = table.read(lambda: (table._store.game(game_id), table._store.log(game_id)))
        log = [(r.seq, r.action) for r in rows]
        game, done = self._mirrors.get(game_id, (None, []))
        if game is None or log[: len(done)] != done:  # new, or something undone or corrected
            rules = Rules.from_json(record.rules)
            game, done = Game.new(rules, len(record.players), record.seed, record.mode), []
        for _, action in log[len(done) :]:
            game.apply(action)
        self._mirrors[game_id] = (game, log)
        return game.copy()

    def play(self, game_id: int, action: list[Any] | tuple[Any, ...]) -> Game:
        """Send one action from the seat that would send it; the game as it is after."""
        game = self.mirror(game_id)
        seat = game.actor if game.actor is not None else game.state.turn
        reply = self.table.call(Command("phone", seat, "", game_id, action=list(action)))
        assert reply.accepted, (action, reply.message)
        return self.mirror(game_id)


@dataclass
class Phone:
    """One phone: a browser context of its own, its page, and what it measured."""

    page: Page
    name: str
    small: list[dict[str, Any]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    chooser_seen: bool = False

    @classmethod
    def open(
        cls, browser: Browser, url: str, name: str, viewport: dict[str, int] = VIEWPORT
    ) -> Phone:
        context = browser.new_context(viewport=viewport, device_scale_factor=1, locale="en-GB")
        page = context.new_page()
        phone = cls(page, name)
        page.on("pageerror", lambda e: phone.errors.append(str(e)))
        page.set_default_timeout(10_000)
        page.goto(url)
        page.wait_for_selector("body[data-screen='join'], body[data-screen='play']")
        return phone

    def close(self) -> None:
        self.page.context.close()

    # -- what it shows ------------------------------------------------------------------------

    def shot(self, name: str) -> None:
        """A screenshot in tests/artifacts/, and the touch targets on screen measured."""
        ARTIFACTS.mkdir(exist_ok=True)
        self.measure(name)
        path = str(ARTIFACTS / f"page-{name}.png")
        if self.page.locator("#sheet:not([hidden])").count():
            self.page.screenshot(path=path)  # the sheet covers the screen as the phone shows it
        else:
            self.page.evaluate("window.scrollTo(0, 0)")
            self.page.screenshot(path=path, full_page=True)

    def measure(self, where: str) -> None:
        for small in self.page.evaluate(MEASURE, [TAPPABLE, TAP]):
            self.small.append({**small, "screen": where})

    def data(self, key: str) -> str:
        return str(self.page.evaluate(f"document.body.dataset[{key!r}] || ''"))

    @property
    def mine(self) -> bool:
        return self.data("mine") == "yes"

    @property
    def phase(self) -> str:
        return self.data("phase")

    @property
    def seq(self) -> int:
        text = self.data("seq")
        return int(text) if text else -1

    # -- what it does -------------------------------------------------------------------------

    def join(self, pin: str = PIN) -> None:
        self.page.fill("[data-field=pin]", pin)
        self.page.click("[data-go=pin]")
        try:
            self.page.wait_for_selector("[data-go=setup]")
        except PlaywrightTimeout:
            # A join that never ends was seen once under load: leave what the page showed and
            # where every thread of the server stood, for the next time.
            print(f"{self.name}: screen {self.data('screen')!r}, errors {self.errors}")
            print(self.page.inner_text("body")[:2000])
            faulthandler.dump_traceback(all_threads=True)
            raise

    def take_seat(self, seat: int) -> None:
        self.page.click(f"[data-seat='{seat}']")
        self.page.wait_for_selector("body[data-screen='play'] .turn, body[data-screen='play'] .end")
        self.wait_live()

    def wait_live(self) -> None:
        self.page.wait_for_selector("#conn[data-connected='connected']")

    def look(self) -> Look:
        return Look(**self.page.evaluate(LOOK))

    def press(self, selector: str, then: str | None = None, timeout: float = 10.0) -> Any:
        """A finger on the first element `selector` finds (waiting for it to be there, in
        view, uncovered and enabled): real mouse events at its centre, made again if a redraw
        moved something else under the finger (see AIM). With `then` (a test of the seq
        before the tap), until it holds: its value."""
        deadline = time.monotonic() + timeout
        while True:
            aimed = self.page.locator(selector).first.evaluate(AIM, timeout=timeout * 1000)
            if isinstance(aimed, list):
                x, y, before = aimed
                self.page.mouse.click(x, y)
                if then is None:
                    missed, value = self.page.evaluate(FELT), None
                else:
                    what = f"{self.name}: after the tap on {selector}"
                    felt = until(self.page, FELT_THEN % then, before, timeout, what)
                    missed, value = felt["missed"], felt.get("value")
                if not missed:
                    return value
                aimed = missed
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.name}: could not tap {selector}: {aimed}")
            time.sleep(0.02)

    def tap(self, selector: str) -> None:
        """Tap what `selector` finds and wait for the table's answer (a new state, or a
        refusal shown)."""
        self.press(selector, ANSWERED)

    def settle(self, before: int, timeout: float = 10.0) -> None:
        until(self.page, ANSWERED, before, timeout, f"{self.name}: an answer from the table")

    def reach(self, seq: int, timeout: float = 10.0) -> Look:
        """Wait until the page shows state `seq` (or a later one), no tap of its own on the
        way; what it shows then."""
        return Look(**until(self.page, REACHED, seq, timeout, f"{self.name}: state {seq} shown"))

    def choose_first_if_asked(self, look: Look | None = None) -> bool:
        """A chooser sheet is open (one tap meant several things): take its first choice."""
        if (look or self.look()).choices:
            if not self.chooser_seen:
                self.chooser_seen = True
                self.shot("chooser")
            self.press("#sheet [data-choice='0']", CHOSEN)
            return True
        return False

    def move_piece(self, look: Look | None = None) -> bool:
        """Pick up the first piece that can move and put it on its first target."""
        look = look or self.look()
        if not look.targets:
            if not look.sources:
                return False
            if self.press("[data-source] >> nth=0", PICKED) == "choose":
                self.choose_first_if_asked()
                self.page.wait_for_selector("[data-target]")
        if self.press("[data-target] >> nth=0", PUT) == "choose":
            self.choose_first_if_asked()
        return True


def seated(
    browser: Browser, url: str, *names: str, viewport: dict[str, int] = VIEWPORT
) -> list[Phone]:
    """A phone for each of `names`, joined with the PIN and seated in order from seat 1."""
    phones = []
    for seat, name in enumerate(names, 1):
        phone = Phone.open(browser, url, name, viewport)
        phone.join()
        phone.take_seat(seat)
        phones.append(phone)
    return phones


def same_looks(phones: list[Phone], live: Live, timeout: float = 10.0) -> list[Look]:
    """Wait until every phone shows the table's latest state (of its current game), no tap on
    the way; what each shows then."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        looks = [p.reach(live.seq(), timeout) for p in phones]
        if len({look.seq for look in looks}) == 1:  # else the table moved on meanwhile (a bot)
            return looks
    raise AssertionError(f"phones disagree: {[(p.name, p.seq) for p in phones]}")


def same_seq(phones: list[Phone], live: Live | None = None, timeout: float = 10.0) -> int:
    """Wait until every phone shows the same (latest) state; return its seq. With `live`, the
    latest is the table's own: no state can still be on its way then (see `same_looks`)."""
    if live is not None:
        return same_looks(phones, live, timeout)[0].seq
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        seqs = {p.seq for p in phones}
        if len(seqs) == 1 and -1 not in seqs:
            time.sleep(0.05)  # a state may be on its way to one of them: look again
            if {p.seq for p in phones} == seqs:
                return seqs.pop()
        time.sleep(0.02)
    raise AssertionError(f"phones disagree: {[(p.name, p.seq) for p in phones]}")


def no_small_targets(*phones: Phone) -> None:
    small = [s for p in phones for s in p.small]
    assert not small, f"touch targets under {TAP}×{TAP} px: {small[:10]}"


def no_page_errors(*phones: Phone) -> None:
    errors = [e for p in phones for e in p.errors]
    assert not errors, errors


def lay_out(live: Live, game_id: int) -> Game:
    """People and boats placed by the table's first choices (the page's setup screens are
    tested with the whole game); the game at seat 1's first step."""
    game = live.mirror(game_id)
    while game.phase in ("place", "boat"):
        game = live.play(game_id, game.legal_actions()[0])
    return game


@contextmanager
def serving(folder: Path) -> Iterator[Live]:
    """The companion served from `folder` (its own games.db) until the block ends."""
    table = Table(Store(folder / "games.db"))
    table.start()
    settings = config.parse({"security": {"pin": PIN, "secret": SECRET}})
    app = create_app(table, settings, test_config={"TRUST_LOOPBACK": False})
    server = make_server(app, "127.0.0.1", 0, 16)  # the daemon's limits
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield Live(f"http://127.0.0.1:{server.effective_port}/", table, app)
    finally:
        # Streams first, so that no stream's thread writes to a server already closed.
        end_streams(app)
        streams = app.extensions["companion.streams"]
        deadline = time.monotonic() + 5
        while streams.count() and time.monotonic() < deadline:
            time.sleep(0.02)
        end_server(server, thread)
        table.stop()
        table._store.close()
