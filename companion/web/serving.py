"""Serving the web app with waitress, with limits chosen so one device cannot starve the table.

waitress's defaults suit a server behind a proxy, not a Pi on a Wi-Fi shared with strangers.
What is set here, and why (web/README.md, "Security", says the same to the reader):

- ``max_request_body_size`` = the app's own body limit (64 KiB): waitress refuses a longer body
  (a chunked one too) while reading it, instead of spooling up to 1 GiB to a temp file on the
  SD card that holds the game log before Flask could say no.
- ``max_request_header_size`` 16 KiB: a phone's headers are well under 2 KiB.
- ``connection_limit`` 250 and at most `PER_ADDRESS` connections from one address (an IPv6
  /64 counts as one): past that a new connection from that address is closed at once, so a
  laptop holding sockets open cannot reach the limit that stops waitress accepting anyone.
  The Pi's own 127.0.0.1 and ::1 (its tools, its screen) are not counted.
- ``channel_timeout`` 30 s: a connection that sends nothing is closed; an open event stream
  is a request in progress, never idle.
- ``channel_request_lookahead`` 1: waitress keeps reading a connection while its request runs,
  so an event stream learns at once that its phone hung up (`stream`) and frees its slot.
- ``clear_untrusted_proxy_headers`` off, and no ``trusted_proxy``: waitress trusts no proxy
  (``REMOTE_ADDR`` stays the socket's peer) but passes forwarding headers on, so that
  `access.is_local` sees them and never takes a proxied phone for the table itself.

waitress times a connection's silence with the wall clock; a Pi's clock may step back by days
when the network sets it, and then no silent connection would be closed until the clock caught
up. `make_server` has waitress's connection bookkeeping count with the monotonic clock instead.
"""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
import time
import types
from typing import Any

import waitress.channel
import waitress.server
from waitress import wasyncore
from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server

log = logging.getLogger(__name__)

MAX_BODY = 64 * 1024
"""The largest request body accepted: a command is well under 1 KiB, a new game under 4 KiB."""
PER_ADDRESS = 32
"""Connections one address may hold (a browser opens at most 6 to one host)."""
OWN_ADDRESSES = ("127.0.0.1", "::1")
"""The Pi itself: its tools and its screen are not limited."""

LIMITS: dict[str, Any] = {
    "max_request_body_size": MAX_BODY,
    "max_request_header_size": 16 * 1024,
    "connection_limit": 250,
    "channel_timeout": 30,
    "cleanup_interval": 10,
    "channel_request_lookahead": 1,
    "clear_untrusted_proxy_headers": False,
    "trusted_proxy": None,
}


def address_key(host: str) -> str:
    """Whom an address belongs to, for counting: the address, or its /64 for IPv6 (one device
    may take any address of its network's /64)."""
    try:
        address = ipaddress.ip_address(host.split("%")[0])
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.ip_network(f"{address}/64", strict=False))
    return str(address)


def _peer(addr: Any) -> str:
    return str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)


class _Channels:
    """A channel class for waitress that first counts the connections of the peer's address."""

    def __init__(self, per_address: int) -> None:
        self.per_address = per_address

    def __call__(
        self, server: Any, sock: socket.socket, addr: Any, adj: Any, map: dict[int, Any]
    ) -> HTTPChannel | None:
        peer = _peer(addr)
        if peer not in OWN_ADDRESSES:
            key = address_key(peer)
            held = sum(
                1
                for channel in map.values()
                if isinstance(channel, HTTPChannel) and address_key(_peer(channel.addr)) == key
            )
            if held >= self.per_address:
                sock.close()  # the listening socket stays free for everyone else
                return None
        return HTTPChannel(server, sock, addr, adj, map=map)


MONOTONIC = types.SimpleNamespace(time=time.monotonic)
"""Stands for the `time` module in waitress's channel and server modules: there it only stamps
activity and schedules the clean-up, never tells anyone the date."""


def make_server(app: Any, host: str, port: int, threads: int, **overrides: Any) -> Any:
    """A waitress server for `app`, bound and listening, with the limits above."""
    waitress.channel.time = MONOTONIC
    waitress.server.time = MONOTONIC
    options = {**LIMITS, **overrides}
    per_address = int(options.pop("per_address", PER_ADDRESS))
    server = create_server(app, host=host, port=port, threads=threads, **options)
    channels = _Channels(per_address)
    listeners = [server, *getattr(server, "_map", {}).values()]
    for listener in listeners:
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = channels
    return server


def end_server(server: Any, loop: threading.Thread, timeout: float = 5) -> None:
    """Stop a server whose loop (`server.run`) runs on the thread `loop`: its workers first
    (they hand what they write to the loop), then every socket it holds, listening or
    connected, closed from the loop's own thread, after which the loop ends. Closed from here,
    they would race the loop's select: an EBADF there, or a closed descriptor's number given to
    a new socket or pipe while the loop still watches it."""
    server.task_dispatcher.shutdown(timeout=timeout)
    if loop.is_alive():
        try:
            server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
        except OSError as e:  # its wake-up pipe is gone: the loop is ending by itself
            log.warning("the web server's loop could not be woken to stop (%s)", e)
        loop.join(timeout)
    if loop.is_alive():
        log.warning("the web server's loop did not end within %s s; its sockets are left", timeout)
    else:
        wasyncore.close_all(server._map)  # what a loop that ended by itself left open
