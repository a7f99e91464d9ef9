"""The captive-portal answers through the served daemon: ``companion serve`` under waitress, the
probes' real Host headers and paths, the nmcli double on PATH standing for NetworkManager.

In hotspot mode each probe is answered with one redirect to the page (on the table's port and
on the portal port); on the home network the same requests find nothing, and the page itself is
served to the table's own names and numeric addresses whatever the mode."""

from __future__ import annotations

import http.client
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.network.nmcli import HOTSPOT
from companion.network.portal import PROBES
from tests.daemon_support import environment, free_port, running, stop, wait_http_200, write_config
from tests.network_support import HOME, WLAN, Double


def get(port: int, host: str, path: str) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request(
        "GET", path, headers={"Host": host, "User-Agent": "CaptiveNetworkSupport/1.0 wispr"}
    )
    response = conn.getresponse()
    response.read()
    conn.close()
    return response


def until(condition: object, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise AssertionError(f"not within {timeout} s")


@contextmanager
def served(tmp_path: Path, mode: str, **state: object) -> Iterator[tuple[int, int, Double, object]]:
    double = Double(tmp_path / "nm")
    double.write(**({"devices": [WLAN]} | state))
    port, portal = free_port(), free_port()
    cfg = write_config(
        tmp_path, port,
        f'\n[network]\nhotspot = "{mode}"\naddress = "127.0.0.1"\nportal_port = {portal}\nwait = 5\n',
    )  # fmt: skip
    env = environment(tmp_path, **double.env)
    with running(["serve", "--config", str(cfg)], env) as proc:
        wait_http_200(f"http://127.0.0.1:{port}", ("/",))
        yield port, portal, double, proc


def probes_redirect(port: int) -> bool:
    try:
        return get(port, "connectivitycheck.gstatic.com", "/generate_204").status == 302
    except OSError:  # the portal's port opens with the hotspot
        return False


def test_every_probe_leads_to_the_page_in_one_redirect_in_hotspot_mode(tmp_path: Path) -> None:
    with served(tmp_path, "on") as (port, portal, double, proc):
        until(lambda: probes_redirect(port) and probes_redirect(portal))
        page = f"http://127.0.0.1:{port}/"
        for who, host, path in PROBES:
            for listening in (port, portal):
                answer = get(listening, host, path)
                assert (answer.status, answer.getheader("Location")) == (302, page), (
                    who,
                    host,
                    path,
                    listening,
                )
                assert answer.getheader("Cache-Control") == "no-store"
        # A phone that typed the numeric address reached the Pi itself: never redirected.
        assert get(port, f"127.0.0.1:{port}", "/generate_204").status == 404
        # Any other name a phone looks up (dnsmasq points them all at the Pi) leads there too.
        assert get(port, "example.org", "/some/page").getheader("Location") == page
        # The table's own names and numeric addresses get the page itself, which offers the
        # network to the next phone: the Wi-Fi QR code, with the kept name and password.
        kept = json.loads((tmp_path / "network.json").read_text())
        for host in (f"127.0.0.1:{port}", "atlantis.local", f"atlantis.local:{portal}"):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/", headers={"Host": host})
            response = conn.getresponse()
            body = response.read().decode()
            assert response.status == 200, host
            assert f'data-password="{kept["password"]}"' in body and 'id="wifi-invite"' in body
        assert double.state()["active"] == {HOTSPOT: "wlan0"}
        status, out, err = stop(proc)  # type: ignore[arg-type]
    assert status == 0, err
    assert "The table is its own Wi-Fi network now" in out and kept["password"] in out
    assert (
        "Scan to join the network:" in out and f"then scan to open http://127.0.0.1:{port}/" in out
    )
    assert "hotspot:   on" in out
    # A restart must not cut the phones off: the hotspot stays up when the daemon stops.
    assert double.state()["active"] == {HOTSPOT: "wlan0"}


def test_on_the_home_network_probes_find_nothing_until_the_home_network_is_lost(
    tmp_path: Path,
) -> None:
    with served(tmp_path, "auto", profiles={"Home": HOME}, active={"Home": "wlan0"}) as (
        port,
        portal,
        double,
        proc,
    ):
        time.sleep(1)  # the keeper's first look
        for _who, host, path in PROBES:
            assert get(port, host, path).status == 404, (host, path)
        with pytest.raises(OSError):  # nor is port 80 (here `portal`) held on the home network
            get(portal, "captive.apple.com", "/hotspot-detect.html")
        page = get(port, f"127.0.0.1:{port}", "/")
        assert page.status == 200
        # The home Wi-Fi goes away: after [network] wait seconds the table hosts its own.
        state = double.state()
        state["active"] = {}
        double.write(**state)
        until(lambda: probes_redirect(port))
        assert double.state()["active"] == {HOTSPOT: "wlan0"}
        # Ethernet plugged in: the hotspot is given back, and the probes' port with it.
        state = double.state()
        state["profiles"]["Wired"] = {"type": "802-3-ethernet"}
        state["active"]["Wired"] = "eth0"
        double.write(**state)
        until(lambda: not probes_redirect(port))
        until(lambda: not probes_redirect(portal))
        assert HOTSPOT not in double.state()["active"]
        stop(proc)  # type: ignore[arg-type]
