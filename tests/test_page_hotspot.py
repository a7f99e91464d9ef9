"""A phone joining the table's own Wi-Fi: its captive-portal probe leads to the page in one
redirect, and the page works from there (PIN, seat).

Debian's chromium stands for the phone; ``--host-resolver-rules`` maps every name on port 80 to
the served companion, as NetworkManager's dnsmasq (`files.DNSMASQ`) and the portal's port do on
the Pi. The hotspot's keeper is the real one, speaking to the nmcli double on PATH."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from companion import config
from companion.network.hotspot import Keeper
from tests.network_support import Double
from tests.page_support import CHROMIUM, CHROMIUM_ARGS, VIEWPORT, Live, Phone

pytest_plugins = ["tests.page_fixtures", "tests.network_fixtures"]
pytestmark = pytest.mark.page


@pytest.fixture
def hotspot(live: Live, double: Double, tmp_path: Path) -> Iterator[Keeper]:
    """The table in hotspot mode: the keeper brought the hotspot up through nmcli."""
    settings = config.parse(
        {"network": {"hotspot": "on", "address": "127.0.0.1", "portal_port": 0}}
    )
    port = int(live.url.rsplit(":", 1)[1].strip("/"))
    keeper = Keeper(settings, tmp_path / "state", port)
    assert keeper.tick() == "up" and keeper.active
    live.app.extensions["companion.network"] = keeper
    yield keeper
    live.app.extensions["companion.network"] = None


@pytest.fixture
def resolving_browser(live: Live, browser: Browser) -> Iterator[Browser]:
    """A chromium for which every name on port 80 is the companion (dnsmasq's address=/#/),
    launched by the session's Playwright (one per thread)."""
    port = live.url.rsplit(":", 1)[1].strip("/")
    chromium = browser.browser_type.launch(
        executable_path=str(CHROMIUM),
        args=[*CHROMIUM_ARGS, f"--host-resolver-rules=MAP *:80 127.0.0.1:{port}"],
    )
    yield chromium
    chromium.close()


@pytest.mark.parametrize(
    ("probe", "agent"),
    [
        (
            "http://connectivitycheck.gstatic.com/generate_204",
            "Mozilla/5.0 (Linux; Android 14) Chrome/120 Mobile",
        ),
        ("http://captive.apple.com/hotspot-detect.html", "CaptiveNetworkSupport-481 wispr"),
    ],
)
def test_a_phone_probing_the_hotspot_reaches_the_join_page_in_one_redirect_and_plays(
    live: Live, hotspot: Keeper, resolving_browser: Browser, probe: str, agent: str
) -> None:
    live.new_game()
    context = resolving_browser.new_context(viewport=VIEWPORT, user_agent=agent, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(10_000)
    response = page.goto(probe)
    assert response is not None and response.status == 200
    assert page.url == hotspot.page_url == live.url
    first = response.request.redirected_from
    assert first is not None and first.url == probe and first.redirected_from is None  # one hop
    page.wait_for_selector("body[data-screen='join']")
    # The page offers the network to the next phone: Wi-Fi QR code, name and password.
    invite = page.locator("[data-wifi]")
    assert invite.get_attribute("data-wifi") == hotspot.network.ssid
    assert hotspot.network.password in invite.inner_text()
    assert page.locator(".invite .qr svg").count() == 2
    name = "apple" if "apple" in probe else "android"
    phone = Phone(page, "hotspot")
    phone.shot(f"hotspot-join-{name}")
    phone.join()
    phone.take_seat(1)
    assert phone.data("screen") == "play" and phone.mine  # Ana (seat 1) is to move
    assert page.url.startswith(live.url)
    phone.shot(f"hotspot-{name}")
    context.close()


def test_on_the_home_network_the_probe_finds_no_portal(
    live: Live, resolving_browser: Browser
) -> None:
    """Without the hotspot a probe is not the companion's business: no redirect, no page."""
    context = resolving_browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    response = page.goto("http://connectivitycheck.gstatic.com/generate_204")
    assert response is not None and response.status == 404
    assert response.request.redirected_from is None
    context.close()
