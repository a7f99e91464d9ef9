"""Issue 14 on a real `companion serve` process: a reverse proxy on the Pi, the Pi's clock stepping
back and forth under libfaketime, and a laptop holding 100 sockets open. Phones are real HTTP
clients with cookies, from loopback addresses other than the Pi's own 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion import security
from tests.daemon_support import environment, free_port, running, wait_http_200, write_config
from tests.served_support import Phone, next_address
from tests.web_support import wait_for

FAKETIME = Path("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1")


@contextmanager
def serving(
    tmp_path: Path, extra: str = "", **env: str
) -> Iterator[tuple[int, str, subprocess.Popen[str]]]:
    """`companion serve` on a free port: its port, its PIN and the process."""
    port = free_port()
    cfg = write_config(tmp_path, port, extra)
    with running(["serve", "--config", str(cfg)], environment(tmp_path, **env)) as proc:
        wait_http_200(f"http://127.0.0.1:{port}", ("/api/health",), timeout=20)
        pin = json.loads((tmp_path / security.FILENAME).read_text())["pin"]
        yield port, pin, proc


def new_game(port: int) -> int:
    """Started by the table itself (127.0.0.1: a tool on the Pi)."""
    status, body = Phone(port, "127.0.0.1").request(
        "POST", "/api/games", {"players": [{"name": "Ana"}, {"name": "Bo"}], "seed": 3}
    )
    assert status == 201, body
    game: int = body["game"]
    return game


# -- item 5: a reverse proxy on the Pi ----------------------------------------------------------


@pytest.mark.parametrize(
    "header",
    [
        ("X-Forwarded-For", "192.168.1.50"),
        ("Forwarded", "for=192.168.1.50;proto=http"),
        ("X-Forwarded-Proto", "https"),
    ],
)
def test_a_phone_through_a_proxy_on_the_pi_is_not_the_table(
    tmp_path: Path, header: tuple[str, str]
) -> None:
    with serving(tmp_path) as (port, _, _):
        game = new_game(port)
        proxy = Phone(port, "127.0.0.1")  # nginx or caddy on the Pi, passing a phone on
        status, body = proxy.request("GET", f"/api/games/{game}?view=referee")
        assert status == 200  # the Pi itself may read the referee's view ...
        status, body = proxy.request(
            "GET", f"/api/games/{game}?view=referee", headers=dict([header])
        )
        assert status == 403, body  # ... a phone behind the proxy may not
        status, body = proxy.request(
            "POST", "/api/games", {"players": [{"name": "X"}, {"name": "Y"}]}, dict([header])
        )
        assert status == 403 and "X-CSRF-Token" in body["error"]


# -- item 2: seats across a restart -------------------------------------------------------------


def test_after_a_restart_a_seat_is_still_its_holders_not_the_first_old_cookies(
    tmp_path: Path,
) -> None:
    """Eve held seat 1 until the table handed it to Ana; Eve's cookie still says seat 1. After
    a power cut, Eve comes back first: the seat stays Ana's."""
    with serving(tmp_path) as (port, pin, proc):
        game = new_game(port)
        eve, ana = Phone(port).join(pin), Phone(port).join(pin)
        assert eve.sit(game, 1)[0] == 200
        pi = Phone(port, "127.0.0.1")
        assert pi.request("POST", "/api/session/release", {"game": game, "seat": 1})[0] == 200
        assert ana.sit(game, 1)[0] == 200
        proc.kill()  # a power cut
        proc.wait(10)
    with serving(tmp_path) as (port, pin, _):
        eve.port = ana.port = port
        assert eve.session()["seat"] is None
        assert eve.request("GET", f"/api/games/{game}?view=1")[0] == 403
        assert ana.session()["seat"] == 1
        assert eve.sit(game, 1)[0] == 409


# -- item 10: the Pi's clock steps -------------------------------------------------------------


def test_phones_keep_their_seats_when_the_pis_clock_steps_back_or_forward(tmp_path: Path) -> None:
    """The daemon runs under libfaketime: its wall clock is what the file says, as a Pi that
    boots with an old time and is set later by the network."""
    if not FAKETIME.exists():
        pytest.fail(
            f"{FAKETIME} is missing: this test steps the daemon's clock with Debian's "
            "libfaketime. Install it with `sudo apt-get install faketime` (or run `make test` "
            "as root, which does).",
            pytrace=False,
        )
    offset = tmp_path / "faketime"
    offset.write_text("+0\n")
    env = {
        "LD_PRELOAD": str(FAKETIME),
        "FAKETIME_TIMESTAMP_FILE": str(offset),
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",  # a clock step moves the wall clock only
    }
    with serving(tmp_path, **env) as (port, pin, _):
        game = new_game(port)
        ana = Phone(port).join(pin)
        assert ana.sit(game, 1)[0] == 200
        cookie = ana.cookies["companion_session"]
        for step in ("-1h", "-400d", "+0", "+45d", "+400d"):
            offset.write_text(f"{step}\n")
            now = Phone(port).request("GET", "/api/health")  # the daemon's clock has moved
            assert now[0] == 200
            answer = ana.session()
            assert (answer["authorised"], answer["seat"], answer["game"]) == (True, 1, game), step
            assert ana.request("GET", f"/api/games/{game}?view=1")[0] == 200, step
        # The cookie was never replaced by another session: the same phone, the same seat.
        assert ana.cookies["companion_session"].split(".")[0] == cookie.split(".")[0]
        assert all("Max-Age=2592000" in c for c in ana.set_cookies if "companion_session" in c)


# -- the "done when": 100 hostile sockets -------------------------------------------------------


def test_the_panel_and_seated_phones_are_served_while_a_laptop_holds_100_sockets(
    tmp_path: Path,
) -> None:
    with serving(tmp_path, '\n[panel]\nkind = "sim"\n') as (port, pin, _):
        game = new_game(port)
        laptop = next_address()
        hostile = []
        for _n in range(100):  # half-open requests: a header begun, never ended
            sock = socket.socket()
            sock.bind((laptop, 0))
            sock.settimeout(5)
            try:
                sock.connect(("127.0.0.1", port))
                sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            except OSError:
                pass  # refused at once: that is the defence
            hostile.append(sock)
        try:
            t0 = time.monotonic()
            panel = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            panel.request("GET", "/panel")
            page = panel.getresponse()
            assert page.status == 200 and b"<" in page.read()
            phones = [Phone(port).join(pin) for _ in range(2)]
            for seat, phone in enumerate(phones, 1):
                assert phone.sit(game, seat)[0] == 200
            streams = [p.stream(f"/api/games/{game}/stream") for p in phones]
            wait_for(lambda: all(s.events for s in streams), 5, "the phones' snapshots")
            assert [s.kinds()[0] for s in streams] == ["snapshot", "snapshot"]
            before = [len(s.events) for s in streams]
            # The seat deciding plays its first legal placement from its phone.
            views = [p.request("GET", f"/api/games/{game}")[1] for p in phones]
            mover = next(i for i, v in enumerate(views) if v.get("legal"))
            played = phones[mover].request(
                "POST",
                f"/api/games/{game}/commands",
                {"request_id": "hostile-1", "action": views[mover]["legal"][0]},
            )
            assert played[0] == 200, played
            wait_for(
                lambda: all(len(s.events) > n for s, n in zip(streams, before, strict=True)),
                5,
                "the move on every phone",
            )
            assert time.monotonic() - t0 < 20
            for s in streams:
                s.close()
        finally:
            for sock in hostile:
                sock.close()
