"""Who sees the table PIN on the table screen, through the served daemon (`companion serve` as
its own process, real HTTP on 127.0.0.1): the Pi's own browser (the kiosk) and a browser that
gave the PIN do; anyone else on the Wi-Fi who opens /table sees the screen without it. A
request is "from the Wi-Fi" here by its Host header or a proxy's forwarding header, as
`access.is_local` judges them (a phone on the Wi-Fi reaches the Pi from its own address,
which no test here can have; waitress drops a proxy's X-Forwarded-* headers before the app
sees them, so those cannot stand in for it). The voice's mute needs the PIN like every change."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.request
from pathlib import Path

from tests.daemon_support import environment, free_port, running, stop, wait_http_200, write_config
from tests.test_network_portal import probes_redirect, served, until

PIN = "97531864"


def opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


def fetch(
    browser: urllib.request.OpenerDirector,
    url: str,
    headers: dict[str, str] | None = None,
    body: dict[str, object] | None = None,
) -> tuple[int, str]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with browser.open(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_table_screen_shows_the_pin_only_to_the_table_and_to_who_gave_it(
    tmp_path: Path,
) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    extra = f'[security]\npin = "{PIN}"\n\n[voice]\noutlet = "screen"\n'
    cfg = write_config(tmp_path, port, extra)
    with running(["serve", "--config", str(cfg)], environment(tmp_path)) as proc:
        wait_http_200(base, ("/api/health",))
        wifi = {"Host": f"companion.local:{port}"}  # a phone that reached the Pi by its name

        status, kiosk = fetch(opener(), base + "/table")  # the Pi's own browser
        assert status == 200 and f"<strong>{PIN}</strong>" in kiosk

        stranger = opener()
        status, page = fetch(stranger, base + "/table", wifi)
        assert status == 200 and PIN not in page and 'class="qr"' in page
        assert 'data-caption="no-pin"' in page

        # The stranger guesses wrong: still no PIN; it cannot mute the voice either.
        csrf = json.loads(fetch(stranger, base + "/api/session", wifi)[1])["csrf"]
        posting = {**wifi, "X-CSRF-Token": csrf}
        assert fetch(stranger, base + "/api/session/pin", posting, {"pin": "12345678"})[0] == 403
        assert PIN not in fetch(stranger, base + "/table", wifi)[1]
        assert fetch(stranger, base + "/api/voice", posting, {"muted": True})[0] == 403

        # A tablet that joined with the PIN is a table screen like the kiosk.
        tablet = opener()
        csrf = json.loads(fetch(tablet, base + "/api/session", wifi)[1])["csrf"]
        posting = {**wifi, "X-CSRF-Token": csrf}
        assert fetch(tablet, base + "/api/session/pin", posting, {"pin": PIN})[0] == 200
        status, page = fetch(tablet, base + "/table", wifi)
        assert status == 200 and f"<strong>{PIN}</strong>" in page
        status, voice = fetch(tablet, base + "/api/voice", posting, {"muted": True})
        assert status == 200 and json.loads(voice)["muted"] is True
        status, voice = fetch(stranger, base + "/api/voice?after=0", wifi)
        assert status == 200 and json.loads(voice)["muted"] is True  # muted for everyone
        assert json.loads(voice)["outlet"] == "screen"
        proc.terminate()
        assert proc.wait(10) == 0


def test_while_the_table_is_its_own_wifi_the_screen_shows_that_networks_qr_code(
    tmp_path: Path,
) -> None:
    """The hotspot up (companion.network, NetworkManager's double on PATH): the table screen's
    join panel offers the Wi-Fi's QR code beside the page's, named after the network."""
    with served(tmp_path, "on") as (port, _, _, proc):
        until(lambda: probes_redirect(port))
        status, page = fetch(opener(), f"http://127.0.0.1:{port}/table")
        assert status == 200 and "data-wifi" in page and "Wi-Fi QR code" in page
        assert re.search(r'data-caption="wifi">Atlantis-[0-9A-Fa-f]{4}<', page), page
        stop(proc)  # type: ignore[arg-type]
