"""Helpers for the web app's tests: a table, phones on the Wi-Fi, a live server, SSE readers.

    app = create_app(table, table_config(), test_config={"TESTING": True})
    ana = phone(app, game=1, seat=1)     # a test client from 192.168.1.x: PIN given, seat taken
    local = app.test_client()            # the table itself (loopback): trusted as the CLI

A phone's client sends the session's CSRF token with every request (``environ_base``), as the
page does with every POST.
"""

from __future__ import annotations

import contextlib
import http.client
import http.cookiejar
import itertools
import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from companion import config
from companion.commands import Command
from companion.config import Config
from companion.engine import Game, Rules
from companion.engine.state import Action
from companion.store import Store
from companion.table import Table
from companion.web import end_streams
from companion.web.serving import end_server, make_server

PIN = "246813"
SECRET = "a-test-secret-of-more-than-32-characters"
ADDRESSES = (f"192.168.1.{n}" for n in itertools.count(20))
"""Each phone gets an address of its own (the PIN's attempt limit counts per address)."""


def table_config(threads: int = 16, **sections: dict[str, Any]) -> Config:
    return config.parse(
        {"security": {"pin": PIN, "secret": SECRET}, "web": {"threads": threads}, **sections}
    )


def started_table(path: Path) -> Table:
    table = Table(Store(path))
    table.start()
    return table


def close(table: Table) -> None:
    table.stop()
    table._store.close()


def phone(
    app: Flask, game: int | None = None, seat: int | None = None, pin: str | None = PIN
) -> FlaskClient:
    """A phone on the Wi-Fi: its own cookies and address, the CSRF token on every request; it
    gives `pin` (None: gives none) and takes `seat` (1-based) of `game`."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = next(ADDRESSES)
    token = client.get("/api/session").json["csrf"]  # type: ignore[index]
    client.environ_base["HTTP_X_CSRF_TOKEN"] = token
    if pin is not None:
        r = client.post("/api/session/pin", json={"pin": pin})
        assert r.status_code == 200, r.json
    if seat is not None:
        r = client.post("/api/session/seat", json={"game": game, "seat": seat})
        assert r.status_code == 200, r.json
    return client


def new_game(client: FlaskClient, **body: Any) -> int:
    body.setdefault("players", [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}])
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.json
    game: int = r.json["game"]  # type: ignore[index]
    return game


def wait_for(condition: Callable[[], Any], timeout: float = 5.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {what or condition}")
        time.sleep(0.005)


# -- playing a whole game through the Table ---------------------------------------------------


def self_drawn(game: Game, mode: str, layout: str) -> bool:
    """Is the next decision one the Table draws itself (Table._draws_itself)?"""
    if not game.is_chance():
        return False
    if game.phase == "terrain":
        return layout == "random"
    return game.phase == "back" and mode == "digital"


def sender(game: Game) -> int | None:
    """Who sends an action at a real table: the seat deciding, or for a table decision the
    seat whose turn it is (it tells the die, the back it saw); nobody while the island is laid."""
    if game.actor is not None:
        return game.actor
    return None if game.phase == "terrain" else game.state.turn


def play(
    table: Table,
    game_id: int,
    actions: list[Action],
    rules: Rules,
    players: int,
    seed: int,
    mode: str,
    layout: str,
) -> Game:
    """Send `actions` (a whole log, as the engine played it) to the Table, each from the seat
    that would send it, skipping what the Table draws itself; the engine's game at the end."""
    game = Game.new(rules, players, seed, mode)
    for action in actions:
        if not self_drawn(game, mode, layout):
            command = Command("phone", sender(game), "", game_id, action=list(action))
            reply = table.submit(command).result(10)
            assert reply.accepted, (action, reply.message)
        game.apply(action)
    return game


def patched(before: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """A whole snapshot from the one before and what changed since (``delta``), as the page
    makes it (``patched`` in web/static/js/stream.js)."""
    after = {**before, **delta.get("set", {})}
    for key in delta.get("drop", []):
        del after[key]
    for key, change in delta.get("in", {}).items():
        after[key] = patched(before[key], change)
    return after


class Phone:
    """A browser on a served table (real HTTP, real cookies): the CSRF token on every POST.
    Served with ``TRUST_LOOPBACK`` off, it is a phone on the Wi-Fi although it calls 127.0.0.1."""

    def __init__(self, port: int) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )
        self.csrf = self.get("/api/session")[1]["csrf"]

    def _send(self, request: urllib.request.Request) -> tuple[int, Any]:
        try:
            with self.opener.open(request, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def get(self, path: str) -> tuple[int, Any]:
        return self._send(
            urllib.request.Request(self.base + path, headers={"Accept": "application/json"})
        )

    def post(self, path: str, body: dict[str, Any]) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json", "X-CSRF-Token": self.csrf}
        data = json.dumps(body).encode()
        return self._send(urllib.request.Request(self.base + path, data, headers, method="POST"))

    def cookie(self) -> str:
        """The session cookie, as a Cookie header's value (for a raw `Stream`)."""
        jar = next(
            h for h in self.opener.handlers if isinstance(h, urllib.request.HTTPCookieProcessor)
        )
        return "; ".join(f"{c.name}={c.value}" for c in jar.cookiejar)


# -- a live server and raw SSE streams --------------------------------------------------------


@contextmanager
def served(app: Flask, threads: int = 16, **limits: Any) -> Iterator[int]:
    """`app` served by waitress on 127.0.0.1 and a free port, in a thread, with the daemon's
    limits (companion.web.serving; `limits` overrides some); yields the port."""
    server = make_server(app, "127.0.0.1", 0, threads, **limits)
    thread = threading.Thread(target=server.run, name="waitress", daemon=True)
    thread.start()
    try:
        yield int(server.effective_port)
    finally:
        end_streams(app)  # as the daemon does: open streams free their threads at once
        assert thread.is_alive(), "the server's loop ended during the test"
        end_server(server, thread)


@dataclass
class Stream:
    """One raw SSE stream read on a thread of its own: its bytes, and when each id arrived."""

    port: int
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    source: str | None = None
    """The loopback address the phone connects from (127.0.0.2 and up: a phone on the Wi-Fi)."""
    raw: bytearray = field(default_factory=bytearray)
    arrived: dict[int, float] = field(default_factory=dict)
    """Event id -> perf_counter when its blank line was read."""
    events: list[tuple[str, str, str | None]] = field(default_factory=list)
    """(event, data, id) in order of arrival."""
    status: int | None = None
    done: threading.Event = field(default_factory=threading.Event)

    def start(self) -> Stream:
        source = (self.source, 0) if self.source else None
        self.conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=30, source_address=source
        )
        self.conn.request("GET", self.path, headers=self.headers)
        self.sock = self.conn.sock  # getresponse() may let go of it; close() needs it
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()
        return self

    def _read(self) -> None:
        kind, data, seq = "message", "", None
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                self.raw += line
                text = line.decode().rstrip("\n")
                if text == "":
                    if data or kind != "message":
                        if seq is not None:
                            self.arrived[int(seq)] = time.perf_counter()
                        self.events.append((kind, data, seq))
                    kind, data, seq = "message", "", None
                elif text.startswith("event: "):
                    kind = text[7:]
                elif text.startswith("data: "):
                    data = text[6:]
                elif text.startswith("id: "):
                    seq = text[4:]
        except (OSError, ValueError, http.client.HTTPException):
            return
        finally:
            self.done.set()

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.events]

    def body(self) -> bytes:
        """What was read of the body, chunk framing removed (http.client undoes it)."""
        return bytes(self.raw)

    def close(self) -> None:
        """Hang up, as a phone that leaves (the server notices at its next write)."""
        if self.sock is not None:
            with contextlib.suppress(OSError):
                self.sock.shutdown(socket.SHUT_RDWR)
        self.conn.close()
        self.thread.join(5)
