"""Issue 14, attacked on the served app: waitress on 127.0.0.1 with the daemon's limits
(companion.web.serving), real HTTP and real cookies, phones on the Wi-Fi from addresses of their
own. Each test is a hole a hostile phone found; each fails on the code before the fix."""

from __future__ import annotations

import json
import os
import select
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from companion.commands import Command
from companion.table import Table
from companion.web import create_app
from companion.web.seats import SILENT_SECONDS
from tests.served_support import Phone, next_address
from tests.web_support import PIN, Stream, served, table_config, wait_for

THREE = [{"name": "Ana"}, {"name": "Bo"}, {"name": "Cy"}]


def start_game(table: Table, players: list[dict[str, Any]] = THREE) -> int:
    reply = table.call(Command("cli", intent="new_game", args={"players": players, "seed": 1}))
    assert reply.accepted and reply.game is not None, reply.message
    return reply.game


@pytest.fixture
def app(table: Table) -> Flask:
    return create_app(table, table_config())


@pytest.fixture
def port(app: Flask) -> Iterator[int]:
    with served(app) as port:
        yield port


def seat_events(stream: Stream) -> list[dict[str, Any]]:
    return [json.loads(data) for kind, data, _ in stream.events if kind == "seat"]


def snapshot_ok(stream: Stream) -> bool:
    return bool(stream.events) and stream.events[0][0] == "snapshot"


# -- item 2: a seat is held by one phone ------------------------------------------------------


def test_a_held_seat_is_refused_to_another_phone_and_every_phone_hears_of_the_attempt(
    table: Table, port: int
) -> None:
    game = start_game(table)
    ana, eve = Phone(port).join(), Phone(port).join()
    assert ana.sit(game, 1)[0] == 200
    watching = ana.stream(f"/api/games/{game}/stream")
    wait_for(lambda: snapshot_ok(watching), what="ana's snapshot")
    status, body = eve.sit(game, 1)  # eve gave the PIN too, and wants ana's red tiles
    assert status == 409
    assert "held by another phone" in body["error"] and "5 minutes" in body["error"]
    assert eve.session()["seat"] is None
    status, _ = eve.request("GET", f"/api/games/{game}?view=1")
    assert status == 403  # still not seat 1's view
    wait_for(lambda: seat_events(watching), what="the seat event")
    assert seat_events(watching)[0] == {"game": game, "seat": 1, "what": "asked", "why": ""}
    assert ana.session()["seat"] == 1
    watching.close()


def test_a_seat_left_or_handed_over_by_the_table_goes_to_the_next_phone_and_all_are_told(
    table: Table, port: int
) -> None:
    game = start_game(table)
    ana, bo, eve = Phone(port).join(), Phone(port).join(), Phone(port).join()
    assert ana.sit(game, 1)[0] == 200 and bo.sit(game, 2)[0] == 200
    told = eve.stream(f"/api/games/{game}/stream")
    wait_for(lambda: snapshot_ok(told))
    assert ana.sit(game, None)[0] == 200  # ana leaves her seat (Watch)
    assert eve.sit(game, 1)[0] == 200
    assert eve.session()["seat"] == 1
    # The table hands bo's seat over (the Pi itself: 127.0.0.1), with bo's phone still on.
    bo_stream = bo.stream(f"/api/games/{game}/stream")
    wait_for(lambda: snapshot_ok(bo_stream))
    pi = Phone(port, "127.0.0.1")
    assert eve.sit(game, 2)[0] == 409
    assert pi.request("POST", "/api/session/release", {"game": game, "seat": 2})[0] == 200
    assert Phone(port).join().request("POST", "/api/session/release", {"game": game, "seat": 2})[
        0
    ] in (403,)  # only the table hands a seat over
    newcomer = Phone(port).join()
    assert newcomer.sit(game, 2)[0] == 200
    assert bo.session()["seat"] is None
    assert bo_stream.done.wait(5)  # bo's stream of seat 2's view ended
    wait_for(lambda: len(seat_events(told)) >= 5, what="every change told")
    assert [(e["seat"], e["what"]) for e in seat_events(told)] == [
        (1, "left"),
        (1, "taken"),
        (2, "asked"),
        (2, "handed_over"),
        (2, "taken"),
    ]
    told.close()
    bo_stream.close()


def test_a_request_with_the_cookie_from_before_a_seat_was_left_does_not_take_it_back(
    table: Table, port: int
) -> None:
    """A phone taps "watch instead" while its page is rereading the session (another seat's
    event) or its stream reconnects: those requests carry the cookie that still names the seat.
    Such a late cookie must not take the seat back — neither its own phone's after leaving nor
    an old phone's after the table handed its seat over."""
    game = start_game(table)
    ana, bo = Phone(port).join(), Phone(port).join()
    assert ana.sit(game, 1)[0] == 200 and bo.sit(game, 2)[0] == 200
    late = Phone(port, ana.address)
    late.cookies, late.csrf = dict(ana.cookies), ana.csrf  # a request already on its way
    assert ana.sit(game, None)[0] == 200
    assert late.session()["seat"] is None
    assert late.request("GET", f"/api/games/{game}?view=1")[0] == 403
    assert ana.session()["seat"] is None
    pi = Phone(port, "127.0.0.1")
    assert pi.request("POST", "/api/session/release", {"game": game, "seat": 2})[0] == 200
    assert bo.session()["seat"] is None  # bo's phone, still on, keeps its old cookie
    newcomer = Phone(port).join()
    assert newcomer.sit(game, 2)[0] == 200 and newcomer.session()["seat"] == 2
    assert ana.sit(game, 1)[0] == 200  # asked for again, the seat is hers
    assert ana.session()["seat"] == 1


def test_a_phone_that_lost_its_seat_gets_it_back_once_the_old_phone_is_silent(
    app: Flask, table: Table, port: int
) -> None:
    game = start_game(table)
    now = [1000.0]
    app.extensions["companion.seats"].clock = lambda: now[0]
    old = Phone(port).join()
    assert old.sit(game, 1)[0] == 200
    phone_stream = old.stream(f"/api/games/{game}/stream")
    wait_for(lambda: snapshot_ok(phone_stream))
    new = Phone(port).join()  # the same player, cookies cleared (or a new phone)
    now[0] += SILENT_SECONDS + 60
    assert new.sit(game, 1)[0] == 409  # the old phone's stream is open: it is not silent
    phone_stream.close()
    wait_for(lambda: app.extensions["companion.streams"].count() == 0, 3, "the stream closed")
    now[0] += SILENT_SECONDS - 30
    status, body = new.sit(game, 1)
    assert status == 409 and "1 minute" in body["error"]
    now[0] += 31
    assert new.sit(game, 1)[0] == 200
    assert new.session()["seat"] == 1 and old.session()["seat"] is None


# -- item 4: the PIN guard holds per address only ---------------------------------------------


def test_wrong_pins_from_many_addresses_never_refuse_the_right_pin_to_another(port: int) -> None:
    for _n in range(8):  # 40 wrong PINs in a minute, from 8 addresses
        guesser = Phone(port)
        guesser.session()
        for guess in range(5):
            status, _ = guesser.request("POST", "/api/session/pin", {"pin": f"00000{guess}"})
            assert status == 403
        assert guesser.request("POST", "/api/session/pin", {"pin": PIN})[0] == 429
    player = Phone(port)
    player.session()
    status, body = player.request("POST", "/api/session/pin", {"pin": PIN})
    assert status == 200 and body["authorised"] is True


# -- item 6: no laptop starves the table ------------------------------------------------------


@pytest.mark.parametrize("addresses", [1, 12])
def test_twelve_cookieless_streams_do_not_keep_seated_phones_out(
    table: Table, port: int, addresses: int
) -> None:
    """[web] threads = 16: 12 stream slots. A laptop opens 12 streams with no cookie, from one
    address or from twelve; the three seated phones still get theirs."""
    game = start_game(table)
    hosts = [next_address() for _ in range(addresses)]
    hostile = [
        Stream(port, f"/api/games/{game}/stream", source=hosts[n % addresses]).start()
        for n in range(12)
    ]
    wait_for(lambda: all(s.events for s in hostile), what="the hostile streams answered")
    phones = [Phone(port).join() for _ in range(3)]
    for seat, phone in enumerate(phones, 1):
        assert phone.sit(game, seat)[0] == 200
    streams = [phone.stream(f"/api/games/{game}/stream") for phone in phones]
    wait_for(lambda: all(s.events for s in streams), what="the phones' first events")
    assert [s.kinds()[0] for s in streams] == ["snapshot"] * 3
    held = [s for s in hostile if s.kinds() == ["snapshot"] and not s.done.is_set()]
    assert len(held) <= min(12 - 3, 4 * addresses)
    for s in [*hostile, *streams]:
        s.close()


def test_a_huge_chunked_post_is_refused_while_it_is_read_and_never_reaches_the_disk(
    port: int,
) -> None:
    """A body past 64 KiB is refused by waitress as it arrives: no temp file on the SD card."""
    before = _temp_files()
    sock = socket.create_connection(("127.0.0.1", port), source_address=(next_address(), 0))
    sock.sendall(
        f"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json"
        "\r\nTransfer-Encoding: chunked\r\n\r\n".encode()
    )
    chunk = b"%x\r\n%s\r\n" % (65536, b"x" * 65536)
    sent, answer, spooled = 0, b"", False
    try:
        while sent < 64 * 2**20:
            _, writable, _ = select.select([], [sock], [], 5)
            readable, _, _ = select.select([sock], [], [], 0)
            if readable or not writable:
                break
            sock.sendall(chunk)
            sent += len(chunk)
            spooled = spooled or _temp_files() > before
    except OSError:  # the server closed the connection: refused
        pass
    try:
        sock.settimeout(5)
        answer = sock.recv(4096)
    except OSError:
        pass
    sock.close()
    assert sent < 8 * 2**20, f"{sent} bytes were read before a refusal"
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert not spooled


def _temp_files() -> int:
    """Files this process holds in the temp folder (waitress spools big bodies there)."""
    count = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        count += target.startswith(
            ("/tmp/", "/var/tmp/", str(Path(os.environ.get("TMPDIR", "/x"))))
        )
    return count


def test_a_silent_connection_is_closed_even_after_the_pis_clock_stepped_back(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Pi's clock steps back 400 days while the table serves (the network set it): silent
    connections are still closed after the channel timeout (1 s here), not 400 days later."""
    app = create_app(table, table_config())
    real = time.time
    with served(app, threads=4, channel_timeout=1, cleanup_interval=1) as port:
        monkeypatch.setattr(time, "time", lambda: real() - 400 * 86400)
        sock = socket.create_connection(("127.0.0.1", port), source_address=(next_address(), 0))
        sock.settimeout(10)
        t0 = time.monotonic()
        try:
            closed = sock.recv(1) == b""  # the server hung up on the silent connection
        except TimeoutError:
            closed = False
        except OSError:  # reset: hung up too
            closed = True
        sock.close()
        assert closed and time.monotonic() - t0 < 5


# -- item 7: a phone that leaves frees its slot ----------------------------------------------


def make_small(table: Table) -> tuple[Flask, int]:
    app = create_app(table, table_config(), test_config={"MAX_STREAMS": 2})
    return app, start_game(table)


def test_a_phone_that_hangs_up_frees_its_stream_slot_at_once(table: Table) -> None:
    app, game = make_small(table)  # 2 stream slots; pings every 15 s as on a real table
    with served(app, threads=6) as port:
        phones = [Phone(port).join() for _ in range(3)]
        for seat, phone in enumerate(phones, 1):
            assert phone.sit(game, seat)[0] == 200
        first, second = (p.stream(f"/api/games/{game}/stream") for p in phones[:2])
        wait_for(lambda: snapshot_ok(first) and snapshot_ok(second))
        first.close()  # the phone leaves (the page is closed)

        def third_gets_one() -> bool:
            third = phones[2].stream(f"/api/games/{game}/stream")
            wait_for(lambda: third.events, what="an answer")
            third.close()
            return third.kinds()[0] == "snapshot"

        wait_for(third_gets_one, 3.0, "the third phone's stream")
        second.close()


def test_a_reloading_phone_takes_over_its_own_slot_and_the_page_hears_busy(table: Table) -> None:
    app, game = make_small(table)
    with served(app, threads=6) as port:
        ana, bo = Phone(port).join(), Phone(port).join()
        assert ana.sit(game, 1)[0] == 200 and bo.sit(game, 2)[0] == 200
        old, other = ana.stream(f"/api/games/{game}/stream"), bo.stream(f"/api/games/{game}/stream")
        wait_for(lambda: snapshot_ok(old) and snapshot_ok(other))
        watcher = Phone(port).join().stream(f"/api/games/{game}/stream")
        assert watcher.done.wait(5) and watcher.kinds() == ["busy"]  # full: told busy
        reloaded = ana.stream(f"/api/games/{game}/stream")  # the old one is not closed yet
        wait_for(lambda: reloaded.events)
        assert reloaded.kinds()[0] == "snapshot"
        assert old.done.wait(5) and old.kinds()[-1] == "busy"
        for s in (old, other, watcher, reloaded):
            s.close()


# -- item 12: names and Flotilla's VP -----------------------------------------------------------


def test_bidi_controls_are_stripped_from_names_and_vp_per_player_is_bounded(
    table: Table, port: int
) -> None:
    eve = Phone(port).join()
    disguised = "Ana\u202e\u2066ecnalA\u2069\u200f"
    status, body = eve.request(
        "POST", "/api/games", {"players": [{"name": disguised}, {"name": "Bo\u061c"}], "seed": 2}
    )
    assert status == 201, body
    status, games = eve.request("GET", "/api/games")
    names = [p["name"] for p in games["games"][-1]["players"]]
    assert names == ["AnaecnalA", "Bo"]
    status, body = eve.request(
        "POST", "/api/games", {"players": [{"name": "\u202e\u202c"}, {"name": "Bo"}]}
    )
    assert status == 422 and "players[0].name" in body["error"]
    flotilla = {"kind": "flotilla", "players": [{}, {}, {}], "vp_per_player": 10**9}
    status, body = eve.request("POST", "/api/games", flotilla)
    assert status == 422 and "vp_per_player" in body["error"] and "1000" in body["error"]
    flotilla["vp_per_player"] = 100  # the box's own supply per player is still taken
    assert eve.request("POST", "/api/games", flotilla)[0] == 201
