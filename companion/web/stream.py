"""The event stream: Server-Sent Events of one game (or the current one) as one viewer may see it.

``GET /api/games/<id>/stream`` and ``GET /api/stream`` (whichever game is current, following
the table to the next game) answer ``text/event-stream``::

    retry: 2000
    event: snapshot
    id: 41
    data: {"game": 3, "seq": 42, "state": {...}, ...}

    event: moved
    id: 42
    data: {"kind": "moved", "person": "A1", ...}

    : ping

The first event is always a ``snapshot`` (the Table's snapshot for this viewer, its ``id`` the
last event it contains), also when a reconnecting EventSource sends ``Last-Event-ID``: what it
missed is folded into the fresh snapshot. Then every table event of the game in order, as
``event: <kind>``, ``id: <seq>``, ``data: <the event as this viewer may see it>`` — among them,
after each command, ``state`` with the viewer's new snapshot and its choices. ``status`` events
(panel and camera connection) carry no ``id``. A comment ``: ping`` every 15 s keeps the
connection open through Wi-Fi and lets the server notice a phone that left.

The viewer is the phone's seat (seat cookie) or a spectator; ``?view=`` as for ``GET
/api/games/<id>`` (the referee's view only for the table itself). On ``/api/stream`` a seat's
stream ends when the table moves on to another game (the seat was for the old one): the
EventSource reconnects and watches the new game until the phone takes a seat in it.

Every open stream holds one of waitress's threads. So that streams can never take the last
threads from the API, at most ``MAX_STREAMS`` are open at once (``[web] threads`` minus 4); one
more gets ``event: busy`` and the stream ends (the EventSource tries again after ``retry``). A
phone that reads too slowly to keep up (1000 events behind) has its stream ended the same way,
and reconnects to a fresh snapshot.
"""

from __future__ import annotations

import contextlib
import json
import queue
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from ..commands import REFEREE, SPECTATOR, Event
from ..kinds import View
from ..table import Refused, Subscriber, Table
from . import access
from .api import record_of, the_table

bp = Blueprint("stream", __name__, url_prefix="/api")

RETRY_MS = 2000
"""How long an EventSource waits before it reconnects (the ``retry`` field)."""
BUSY_RETRY_MS = 10_000
BACKLOG = 1000
"""Events a stream may fall behind before it is ended (the phone reconnects to a snapshot)."""
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

_END = object()
"""Put on a stream's queue to end it (the server is stopping)."""


class Streams:
    """The open streams: how many, at most how many, and a way to end them all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._open: set[queue.Queue[Any]] = set()

    def open(self) -> queue.Queue[Any] | None:
        """A queue for a new stream, or None when `limit` streams are open."""
        with self._lock:
            if len(self._open) >= self.limit:
                return None
            inbox: queue.Queue[Any] = queue.Queue(maxsize=BACKLOG + 1)
            self._open.add(inbox)
            return inbox

    def close(self, inbox: queue.Queue[Any]) -> None:
        with self._lock:
            self._open.discard(inbox)

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def end_all(self) -> None:
        """Ask every open stream to end now (the daemon stops): each frees its thread at once
        instead of at its next ping."""
        with self._lock:
            inboxes = list(self._open)
        for inbox in inboxes:
            with contextlib.suppress(queue.Full):  # a full inbox already ends its stream
                inbox.put_nowait(_END)


def streams() -> Streams:
    result: Streams = current_app.extensions["companion.streams"]
    return result


def sse(kind: str, data: Any, seq: int | None = None, retry: int | None = None) -> bytes:
    """One event in the text/event-stream format; the JSON stays on one line."""
    head = f"retry: {retry}\n" if retry is not None else ""
    head += f"event: {kind}\n"
    if seq is not None and seq >= 0:
        head += f"id: {seq}\n"
    body = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"{head}data: {body}\n\n".encode()


@bp.get("/games/<int:game_id>/stream")
def game_stream(game_id: int) -> Response:
    record = record_of(game_id)
    view = access.view_for(game_id, len(record.players), request.args.get("view"))
    return _open(game_id, view, following=False)


@bp.get("/stream")
def current_stream() -> Response:
    table = the_table()
    current: int | None = table.read(lambda: table.current, current_app.config["TABLE_TIMEOUT"])
    asked = request.args.get("view")
    if current is not None:
        record = record_of(current)
        return _open(current, access.view_for(current, len(record.players), asked), True)
    if asked == REFEREE:
        access.local_only("The referee's view")
        return _open(None, REFEREE, True)
    if asked not in (None, SPECTATOR):
        abort(400, "No game has started yet, so there is no seat to view: watch as a spectator.")
    return _open(None, SPECTATOR, True)


def _open(game_id: int | None, view: View, following: bool) -> Response:
    """Subscribe, take the snapshot, and answer with the stream that follows from there."""
    registry = streams()
    inbox = registry.open()
    if inbox is None:
        busy = sse(
            "busy",
            {"error": "The table is serving as many streams as it can; trying again shortly."},
            retry=BUSY_RETRY_MS,
        )
        return Response([busy], mimetype="text/event-stream", headers=HEADERS)
    table = the_table()
    lagging = threading.Event()

    def deliver(event: Event) -> None:
        # On the Table's thread: hand the event on, never wait.
        try:
            inbox.put_nowait(event)
        except queue.Full:
            lagging.set()

    subscriber = Subscriber(None if following else game_id, view, deliver)
    closed = threading.Lock()

    def close() -> None:
        # Runs when the response is closed (the phone left, the stream ended, the server
        # stops) — even if the body was never iterated, where a generator's `finally` would not.
        if not closed.acquire(blocking=False):
            return
        registry.close(inbox)
        with contextlib.suppress(Refused, TimeoutError):  # the Table is stopping: they go too
            table.unsubscribe(subscriber)

    try:
        table.subscribe(subscriber)
        snapshot = _snapshot(table, game_id, view)
    except BaseException:
        close()
        raise
    config = current_app.config
    ends = config["STREAM_SECONDS"]
    if ends is not None:  # a stream that ends by itself (tests, fuzzing); the phone reconnects
        ends = time.monotonic() + float(ends)
    body = _events(inbox, lagging, snapshot, view, float(config["SSE_PING"]), ends)
    response = Response(body, mimetype="text/event-stream", headers=HEADERS)
    response.call_on_close(close)
    return response


def _snapshot(table: Table, game_id: int | None, view: View) -> dict[str, Any]:
    try:
        return table.snapshot(game_id, view)
    except Refused:
        if game_id is not None:
            raise
        return {"game": None, "seq": 0, "status": dict(table.status)}


def _events(
    inbox: queue.Queue[Any],
    lagging: threading.Event,
    snapshot: dict[str, Any],
    view: View,
    ping: float,
    ends: float | None,
) -> Iterator[bytes]:
    """The body: the snapshot, then the events after it, pings in between. (It runs outside the
    request: everything it needs is handed in.)"""
    game, seq = snapshot.get("game"), int(snapshot.get("seq", 0))
    yield sse("snapshot", snapshot, seq - 1, retry=RETRY_MS)
    while True:
        wait = ping if ends is None else min(ping, ends - time.monotonic())
        if wait <= 0:
            return
        try:
            event = inbox.get(timeout=wait)
        except queue.Empty:
            if ends is None or time.monotonic() < ends:
                yield b": ping\n\n"
            continue
        if event is _END or lagging.is_set():
            return
        if event.kind == "status":
            yield sse("status", event.data)
            continue
        if event.game != game:
            if isinstance(view, int):
                return  # the table moved on: a seat of the old game sees nothing of the new
            game, seq = event.game, 0
        elif event.seq < seq:
            continue  # happened between subscribing and the snapshot: already in it
        yield sse(event.kind, event.data, event.seq)  # the Table projected it for this view
