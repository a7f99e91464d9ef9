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

import contextlib
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

    def tap(self, selector: str) -> None:
        """Tap what `selector` finds and wait for the table's answer (a new state, or a
        refusal shown)."""
        before = self.seq
        self.page.click(selector)
        self.settle(before)

    def settle(self, before: int, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.data("busy") != "yes" and (
                self.seq != before or self.page.locator(".refusal").count()
            ):
                return
            time.sleep(0.02)
        raise AssertionError(f"{self.name}: no answer from the table after {timeout} s")

    def choose_first_if_asked(self) -> bool:
        """A chooser sheet is open (one tap meant several things): take its first choice."""
        if self.page.locator("#sheet:not([hidden]) [data-choice]").count():
            if not self.chooser_seen:
                self.chooser_seen = True
                self.shot("chooser")
            before = self.seq
            self.page.click("#sheet [data-choice='0']")
            with contextlib.suppress(AssertionError):
                self.settle(before, timeout=1.0)
            return True
        return False

    def move_piece(self) -> bool:
        """Pick up the first piece that can move and put it on its first target."""
        page = self.page
        if not page.locator("[data-target]").count():
            if not page.locator("[data-source]").count():
                return False
            page.click("[data-source] >> nth=0")
            self.choose_first_if_asked()
            page.wait_for_selector("[data-target]")
        before = self.seq
        page.click("[data-target] >> nth=0")
        if not self.choose_first_if_asked():
            self.settle(before)
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


def same_seq(phones: list[Phone], timeout: float = 10.0) -> int:
    """Wait until every phone shows the same (latest) state; return its seq."""
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
