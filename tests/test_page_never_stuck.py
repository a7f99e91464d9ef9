"""Never stuck (issue 17), in real Chromium at 360 px. Against the served daemon (`companion serve`
as its own process, waitress, its own Table and SQLite), with short patience configured
(``[web] ping = 1``, ``wait = 3``: a stream pings every second, a tap waits 3 s):

- before a phone joins, the status bar shows the panel as it is (the simulated panel), not "none";
- a frozen Pi (SIGSTOP for 8 s): the page stops saying "Live" (its watchdog on the pings), a tap
  shows it is pending, then that the table did not answer, and it is not carried out when the
  Pi wakes (it expired); the page goes live again by itself;
- a reload storm (five phones reloading at once, three times) never shows "Offline" while the
  table is up, and every phone is live again within seconds.

The phones reach the daemon at this machine's own network address, not loopback, so that the
daemon treats them as phones on the Wi-Fi (the PIN, seats by cookie), not as the table itself.

Against the page served in-process (waitress and a real Table, which the test can hold still):
two phones on one piece (the second told the board changed, no rule id), a seated phone that
watches instead, changes seat and is not sent back to a game the table has left, one whose
"watch instead" never reaches the table (it says so and stays seated), and real tiles
defaulting to the island as laid on the table.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from companion.commands import Command
from companion.engine.state import person_name
from tests.daemon_support import environment, free_port, running, wait_http_200
from tests.page_support import PIN, TALL, Live, Phone, lay_out, no_page_errors, seated

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page

FROZEN = 8.0
"""Seconds the daemon is stopped (SIGSTOP) in the frozen-Pi test."""
PLAYERS = [{"name": n} for n in ("Ana", "Ben", "Cai", "Dee")]
BACK_WITHIN = 8.0
"""Seconds within which every phone of a reload storm is live again (the busy retry is 10 s)."""


def own_address() -> str:
    """This machine's address on its network (a phone's view of the Pi); loopback if none."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.254", 9))  # no packet is sent: only the route is looked up
            address: str = s.getsockname()[0]
        except OSError:
            return "127.0.0.1"
    return address


class Daemon:
    def __init__(self, url: str, local: str, pid: int) -> None:
        self.url = url
        self.local = local
        self.pid = pid
        self.sent = 0

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """As the table itself (loopback): no PIN, any seat."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.local + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def referee(self, game: int) -> dict[str, Any]:
        return dict(self.call("GET", f"/api/games/{game}?view=referee"))

    def play(self, game: int, action: list[Any]) -> None:
        seat = self.referee(game)["state"]["actor"]
        self.sent += 1
        body = {"request_id": f"test-{self.sent}", "action": action}
        if seat is not None:
            body["seat"] = seat + 1
        self.call("POST", f"/api/games/{game}/commands", body)

    def new_game(self, players: list[dict[str, str]]) -> int:
        """A digital game with people and boats placed by the first legal choices."""
        game = int(
            self.call("POST", "/api/games", {"players": players, "seed": 4, "mode": "digital"})[
                "game"
            ]
        )
        while (snap := self.referee(game))["state"]["phase"] in ("place", "boat"):
            self.play(game, snap["legal"][0])
        return game


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Daemon]:
    folder: Path = tmp_path_factory.mktemp("never-stuck")
    port = free_port()
    address = own_address()
    config = folder / "companion.toml"
    config.write_text(
        f'[store]\npath = "{folder / "games.db"}"\n\n'
        f'[web]\nhost = "{"127.0.0.1" if address == "127.0.0.1" else "0.0.0.0"}"\nport = {port}\n'
        "ping = 1\nwait = 3\n\n"
        f'[security]\npin = "{PIN}"\n\n[panel]\nkind = "sim"\n\n[network]\nhotspot = "off"\n',
        encoding="utf-8",
    )
    with running(["serve", "--config", str(config)], environment(folder)) as proc:
        local = f"http://127.0.0.1:{port}"
        wait_http_200(local, ("/api/health",), timeout=60)
        yield Daemon(f"http://{address}:{port}/", local, proc.pid)
        os.kill(proc.pid, signal.SIGCONT)  # never leave it stopped


def open_phone(browser: Browser, daemon: Daemon, name: str) -> Phone:
    return Phone.open(browser, daemon.url, name, TALL)


def conn(phone: Phone) -> str:
    return str(phone.page.get_attribute("#conn", "data-connected"))


def test_the_bar_shows_the_panel_before_the_phone_joins(browser: Browser, daemon: Daemon) -> None:
    """The panel's state is read at once, not "none" until a game is followed."""
    phone = open_phone(browser, daemon, "newcomer")
    try:
        panel = phone.page.wait_for_selector("[data-status=panel]")
        assert panel is not None
        real = daemon.call("GET", "/api/health")["status"]["panel"]
        # the page words the state itself (issue 17): the kind it shows is the daemon's
        assert real.split(":")[0] == "simulated" == panel.get_attribute("data-state")
        assert "/panel" in (panel.get_attribute("title") or "")
        assert phone.data("screen") == "join"
        no_page_errors(phone)
    finally:
        phone.close()


def test_the_join_screen_is_drawn_again_only_when_the_games_change(
    browser: Browser, daemon: Daemon
) -> None:
    """The join screen polls the table every 5 s. A poll that finds the same games leaves the
    screen as it is: a redraw replaces the PIN button, and one between a finger's down and up
    loses the tap (under load a phone's join never happened). A new game is still shown."""
    context = browser.new_context(viewport=TALL, device_scale_factor=1, locale="en-GB")
    try:
        page = context.new_page()
        page.clock.install()  # the poll's timer runs when the test says
        page.goto(daemon.url)
        page.wait_for_selector("body[data-screen='join'] [data-go=pin]")
        page.evaluate(
            "() => { window.redraws = 0; new MutationObserver((m) => { window.redraws += m.length; })"
            ".observe(document.getElementById('main'), { childList: true }); }"
        )
        for _ in range(2):  # nothing new at the table
            with page.expect_response(lambda r: r.url.endswith("/api/games")):
                page.clock.run_for(5_000)
        game = daemon.new_game(PLAYERS[:2])
        with page.expect_response(lambda r: r.url.endswith("/api/games")):
            page.clock.run_for(5_000)
        page.get_by_role("heading", name=f"Game {game}").wait_for()
        assert page.evaluate("window.redraws") == 1
    finally:
        context.close()


def test_a_frozen_table_is_not_live_a_tap_shows_pending_and_is_never_done_late(
    browser: Browser, daemon: Daemon
) -> None:
    game = daemon.new_game(PLAYERS[:2])
    ana = open_phone(browser, daemon, "ana")
    try:
        ana.join()
        ana.take_seat(1)
        page = ana.page
        page.wait_for_selector("[data-source]")
        page.click("[data-source] >> nth=0")
        page.wait_for_selector("[data-target]")
        before = daemon.referee(game)
        os.kill(daemon.pid, signal.SIGSTOP)
        stopped = time.monotonic()
        try:
            page.click("[data-target] >> nth=0")
            page.wait_for_selector("[data-pending=yes]", timeout=2000)
            ana.shot("pending")
            # The watchdog: 2.5 pings of silence and the page no longer says "Live".
            page.wait_for_selector("#conn:not([data-connected=connected])", timeout=6000)
            assert conn(ana) in ("silent", "connecting")
            assert "Live" not in page.inner_text("#conn")
            # The tap's patience runs out: it says the table did not answer.
            page.wait_for_selector(".refusal", timeout=6000)
            assert "did not answer in time" in page.inner_text(".refusal")
            assert not page.locator("[data-pending=yes]").count()
            ana.shot("frozen")
            time.sleep(max(0.0, FROZEN - (time.monotonic() - stopped)))
        finally:
            os.kill(daemon.pid, signal.SIGCONT)
        ana.page.wait_for_selector("#conn[data-connected=connected]", timeout=15000)
        time.sleep(1.0)  # the tap, had it been kept, would be carried out by now
        after = daemon.referee(game)
        assert after["version"] == before["version"] and after["actions"] == before["actions"]
        assert after["state"]["people"] == before["state"]["people"]
        no_page_errors(ana)
    finally:
        ana.close()


def test_a_reload_storm_never_shows_offline(browser: Browser, daemon: Daemon) -> None:
    game = daemon.new_game(PLAYERS)
    phones = [open_phone(browser, daemon, p["name"]) for p in PLAYERS]
    watcher = open_phone(browser, daemon, "watcher")
    try:
        for seat, phone in enumerate(phones, 1):
            phone.join()
            phone.take_seat(seat)
        watcher.page.click("[data-seat=watch]")
        everyone = [*phones, watcher]
        for phone in everyone:
            phone.wait_live()
        for _round in range(3):
            for phone in everyone:
                phone.page.evaluate("location.reload()")
            seen: set[str] = set()
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                states = []
                for phone in everyone:
                    try:
                        states.append(conn(phone))
                    except Exception:  # the page is between two documents
                        states.append("loading")
                seen.update(states)
                if all(s == "connected" for s in states):
                    break
                time.sleep(0.05)
            assert all(conn(p) == "connected" for p in everyone), [conn(p) for p in everyone]
            assert "disconnected" not in seen, seen
            # Back at once: a reload is a page load and a stream, not a wait for a free slot.
            assert time.monotonic() - (deadline - 10) < BACK_WITHIN, (
                time.monotonic() - deadline + 10
            )
        assert all(p.data("screen") == "play" for p in everyone)
        assert daemon.referee(game)["state"]["phase"] == "move"
        no_page_errors(*everyone)
    finally:
        for phone in [*phones, watcher]:
            phone.close()


# -- on the page served in-process (waitress, a real Table): the Table held still at will --------


@pytest.fixture
def seated_ana(browser: Browser, live: Live) -> Iterator[tuple[int, Phone]]:
    """A digital game at its first movement, Ana's phone in seat 1."""
    game = live.new_game(seed=3, mode="digital")
    lay_out(live, game)
    ana = seated(browser, live.url, "Ana", viewport=TALL)[0]
    yield game, ana
    ana.close()
    no_page_errors(ana)


def test_two_phones_on_one_piece_the_second_is_shown_the_new_board(
    live: Live, seated_ana: tuple[int, Phone]
) -> None:
    """The same piece moved by another phone a moment before this tap reaches the table: the
    tap is refused as stale ("the board changed"), with no rule it did not break (it broke
    none), and the page shows the board as it is now."""
    game, ana = seated_ana
    page = ana.page
    page.click("[data-source] >> nth=0")
    page.wait_for_selector("[data-target]")
    kind, name = str(page.get_attribute("[data-selected]", "data-selected")).split(":")
    target = int(page.get_attribute("[data-target] >> nth=0", "data-hex") or -1)
    named = person_name if kind == "person" else (lambda b: f"b{b + 1}")
    other = next(
        a for a in live.mirror(game).legal_actions()
        if a[0] in ("move", "sail") and named(a[1]) == name and a[2] != target
    )  # fmt: skip
    actions = live.table.snapshot(game, "referee")["actions"]
    release = threading.Event()
    hold = threading.Thread(target=lambda: live.table.read(lambda: release.wait(5)))
    hold.start()
    time.sleep(0.2)  # the Table holds still: what comes now waits in its queue, in order
    first = live.table.submit(Command("phone", 0, "other-phone", game, action=list(other)))
    page.click("[data-target] >> nth=0")  # this phone's tap, made on the board before it
    page.wait_for_selector("[data-pending=yes]")
    time.sleep(0.5)
    release.set()
    hold.join()
    assert first.result(10).accepted
    refusal = page.wait_for_selector(".refusal")
    assert refusal is not None
    assert "board changed" in refusal.inner_text()
    assert refusal.get_attribute("data-rule") == ""
    assert live.table.snapshot(game, "referee")["actions"] == actions + 1  # the other's only
    ana.shot("stale")


def test_a_seated_phone_watches_instead_changes_seat_and_leaves_an_abandoned_game(
    live: Live, seated_ana: tuple[int, Phone]
) -> None:
    game, ana = seated_ana
    page = ana.page
    page.click("[data-ways=out] summary")
    ana.shot("ways-out")
    page.click("[data-go=watch-instead]")
    page.wait_for_selector("body[data-screen=play] .turn")
    ana.wait_live()
    # a spectator now: the seat's mark goes once the watcher's first state has come
    page.wait_for_selector(".players-strip .you", state="detached")
    page.click("[data-ways=out] summary")
    assert not page.locator("[data-go=change-seat]").count()
    page.click("[data-go=leave]")
    page.wait_for_selector("body[data-screen=join]")
    ana.take_seat(2)  # another seat
    assert page.locator(".players-strip li[data-seat='1'] .you").count() == 1
    # The table moves on to another game: a reload does not take the phone back to the old.
    newer = live.new_game(seed=4)
    assert newer != game
    page.reload()
    page.wait_for_selector("body[data-screen=join]")
    assert ana.data("screen") == "join" and page.locator("[data-seat='1']").count() == 1


def test_watch_instead_that_cannot_reach_the_table_says_so_and_stays_seated(
    seated_ana: tuple[int, Phone],
) -> None:
    """The seat's release lost on the way (the Wi-Fi drops as Ana taps "watch instead"): the
    table still has her in the seat, so the page says it could not and stays her seat's, rather
    than going on as if she were watching. A second try, with the Wi-Fi back, works."""
    _, ana = seated_ana
    page = ana.page
    page.route("**/api/session/seat", lambda route: route.abort("internetdisconnected"))
    page.click("[data-ways=out] summary")
    page.click("[data-go=watch-instead]")
    page.wait_for_selector(".refusal[role=alert]")
    assert page.locator(".players-strip .you").count() == 1
    page.unroute("**/api/session/seat")
    page.click("[data-ways=out] summary")
    page.click("[data-go=watch-instead]")
    page.wait_for_selector(".players-strip .you", state="detached")
    assert not page.locator(".refusal[role=alert]").count()


def test_real_tiles_default_to_the_island_as_laid_on_the_table(
    browser: Browser, live: Live
) -> None:
    phone = Phone.open(browser, live.url, "setup", TALL)
    try:
        phone.join()
        page = phone.page
        page.click("[data-go=setup]")
        page.click("[data-go=next]")
        page.click("[data-go=next]")
        assert page.get_attribute("[data-mode=physical]", "aria-checked") == "true"
        assert page.get_attribute("[data-layout=table]", "aria-checked") == "true"
        page.click("[data-mode=digital]")  # dealt tiles: the companion shuffles the island
        assert page.get_attribute("[data-layout=random]", "aria-checked") == "true"
        no_page_errors(phone)
    finally:
        phone.close()
