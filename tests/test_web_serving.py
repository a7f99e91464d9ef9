"""Stopping a served app (companion.web.serving.end_server): the server's loop closes every
socket it holds, a phone's open connection included, from its own thread, and ends."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator

import pytest
from flask import Flask

from companion.network.listener import PortalListener
from companion.web.serving import end_server, make_server


@pytest.fixture
def loop_errors() -> Iterator[list[BaseException | None]]:
    """Exceptions that ended a thread while the test ran (waitress's loop ends by one on an
    EBADF from its select)."""
    seen: list[BaseException | None] = []

    def hook(args: threading.ExceptHookArgs) -> None:
        seen.append(args.exc_value)

    saved = threading.excepthook
    threading.excepthook = hook
    yield seen
    threading.excepthook = saved


def _app() -> Flask:
    app = Flask(__name__)
    app.add_url_rule("/", "hello", lambda: "hello")
    return app


def _held_connection(port: int) -> socket.socket:
    """A phone's keep-alive connection, its first answer read: waitress keeps it open."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=5)
    conn.sendall(b"GET / HTTP/1.1\r\nHost: table\r\n\r\n")
    answer = b""
    while not answer.endswith(b"hello"):
        chunk = conn.recv(4096)
        assert chunk, answer
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 200")
    return conn


def _served_by_hand() -> tuple[int, Callable[[], None], threading.Thread]:
    server = make_server(_app(), "127.0.0.1", 0, 4)
    loop = threading.Thread(target=server.run, daemon=True)
    loop.start()
    return int(server.effective_port), lambda: end_server(server, loop), loop


def _portal() -> tuple[int, Callable[[], None], threading.Thread]:
    with socket.socket() as probe:  # a free port for the portal's listener
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    listener = PortalListener(_app(), "127.0.0.1", port, 4)
    return port, listener.stop, listener._thread


@pytest.mark.parametrize("serve", [_served_by_hand, _portal], ids=["end_server", "portal"])
def test_a_stopped_server_closes_a_phones_open_connection_from_its_own_loop(
    serve: Callable[[], tuple[int, Callable[[], None], threading.Thread]],
    loop_errors: list[BaseException | None],
) -> None:
    port, stop, loop = serve()
    conn = _held_connection(port)
    with conn:
        stop()
        assert not loop.is_alive()
        conn.settimeout(5)
        assert conn.recv(1) == b""  # closed by the server, not left to time out
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()
    assert loop_errors == []
