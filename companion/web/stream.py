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

    event: ping
    data: {}

The first event is always a ``snapshot`` (the Table's snapshot for this viewer, its ``id`` the
last event it contains), also when a reconnecting EventSource sends ``Last-Event-ID``: what it
missed is folded into the fresh snapshot. Then every table event of the game in order, as
``event: <kind>``, ``id: <seq>``, ``data: <the event as this viewer may see it>`` — among them,
after each command, ``state`` with the viewer's new snapshot and its choices. A whole snapshot
(``state``, ``undone``, ``new_game``, ``corrected``) after one the stream sent as an event comes
as what changed since that one: ``{"delta": <its id>, "set": {...}, "drop": [...], "in":
{"state": {"set": ..., "drop": ...}}}`` (`changed`; the page applies it: ``patched`` in
stream.js). ``status`` events
(panel and camera connection) carry no ``id``. ``event: ping`` every ``[web] ping`` seconds (15) keeps the connection
open through Wi-Fi, lets the server notice a phone that left, and lets the page notice a
table that stopped answering (its watchdog).

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
import logging
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, abort, current_app, request

from .. import jsontext
from ..commands import REFEREE, SPECTATOR, Event
from ..kinds import View
from ..table import Refused, Subscriber, Table
from . import access, serving
from .api import record_of, the_table

bp = Blueprint("stream", __name__, url_prefix="/api")
log = logging.getLogger(__name__)

RETRY_MS = 2000
"""How long an EventSource waits before it reconnects (the ``retry`` field)."""
BUSY_RETRY_MS = 10_000
BACKLOG = 1000
"""Events a stream may fall behind before it is ended (the phone reconnects to a snapshot)."""
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}

_END = object()
"""Put on a stream's queue to end it (the server is stopping, its phone lost its seat)."""
_MADE_ROOM = object()
"""Put on a stream's queue when it is ended to make room for one of higher rank (or a newer
stream of the same phone): it says ``busy`` and ends."""
PING = b"event: ping\ndata: {}\n\n"
"""An idle stream's sign of life: an event, not a comment, so that the page's watchdog hears it."""
BUSY = {"error": "The table is serving as many streams as it can; trying again shortly."}


TABLE, SEATED, WATCHER, ANONYMOUS = 3, 2, 1, 0
"""Who a stream is for, in the order streams are given out: the table itself (loopback), a
phone in its seat, a phone with a session that watches, a client with no cookie."""
PER_ADDRESS = 4
"""Streams one address (an IPv6 /64) may hold without a seat: a phone needs one."""
PER_PHONE = 2
"""Streams one phone (session) may hold; a newer one of the same game and view takes over the
older (a reload, a reconnection while the old connection is not yet known to be dead)."""
CHECK = 1.0
"""Seconds between two looks at whether a stream's phone hung up."""


@dataclass(eq=False)
class Slot:
    """One open stream: its queue, and whom it serves."""

    inbox: queue.SimpleQueue[Any]
    """What the stream is to send (C's queue: the Table's thread puts each event on one queue
    per stream, and a Python queue cost it more than the rest of the telling)."""
    address: str
    phone: str | None
    rank: int
    seat: tuple[int, int] | None = None
    """(game, seat) when the stream shows a seat's view."""
    shows: tuple[Any, ...] = ()
    """What it follows: a newer stream of the same phone showing the same takes it over."""


@dataclass(frozen=True)
class Notice:
    """Something for every stream that is not a table event (a seat changed hands)."""

    kind: str
    data: dict[str, Any]


class Streams:
    """The open streams, at most `limit`: per address and per phone capped, and a seated phone
    served before a watcher, a watcher before a client without a cookie (one of lower rank is
    ended to make room). A way to tell them all, and to end them all."""

    def __init__(
        self, limit: int, per_address: int = PER_ADDRESS, per_phone: int = PER_PHONE
    ) -> None:
        self.limit = limit
        self.per_address = per_address
        self.per_phone = per_phone
        self._lock = threading.Lock()
        self._open: list[Slot] = []  # in the order they opened: the oldest first

    def open(
        self,
        address: str = "",
        phone: str | None = None,
        rank: int = TABLE,
        seat: tuple[int, int] | None = None,
        shows: tuple[Any, ...] = (),
    ) -> Slot | None:
        """A slot for a new stream, or None when there is no room for one of its `rank`."""
        with self._lock:
            live = list(self._open)
            ended: list[Slot] = []

            def make_room(among: list[Slot]) -> bool:
                lower = [s for s in among if s.rank < rank]
                if not lower:
                    return False
                ended.append(lower[0])
                live.remove(lower[0])
                return True

            if phone is not None:  # its own older streams first: a reload takes over
                for old in [s for s in live if s.phone == phone and s.shows == shows]:
                    ended.append(old)
                    live.remove(old)
                mine = [s for s in live if s.phone == phone]
                while len(mine) >= self.per_phone:
                    ended.append(mine[0])
                    live.remove(mine.pop(0))
            if rank < SEATED:
                same = [s for s in live if s.address == address and s.rank < SEATED]
                if len(same) >= self.per_address and not make_room(same):
                    return None
            if len(live) >= self.limit and not make_room(live):
                return None
            slot = Slot(queue.SimpleQueue(), address, phone, rank, seat, shows)
            self._open = [*live, slot]
        for gone in ended:
            _put(gone.inbox, _MADE_ROOM)
        return slot

    def close(self, slot: Slot) -> None:
        with self._lock:
            if slot in self._open:
                self._open.remove(slot)

    def count(self) -> int:
        with self._lock:
            return len(self._open)

    def tell(self, notice: Notice, ending: str | None = None) -> None:
        """Put `notice` on every stream; end the streams of phone `ending` after it."""
        with self._lock:
            slots = list(self._open)
        for slot in slots:
            _put(slot.inbox, notice)
            if ending is not None and slot.phone == ending:
                _put(slot.inbox, _END)

    def end_all(self) -> None:
        """Ask every open stream to end now (the daemon stops): each frees its thread at once
        instead of at its next ping."""
        with self._lock:
            slots = list(self._open)
        for slot in slots:
            _put(slot.inbox, _END)


def _put(inbox: queue.SimpleQueue[Any], item: Any) -> None:
    if inbox.qsize() <= BACKLOG:  # a full inbox already ends its stream
        inbox.put(item)


def streams() -> Streams:
    result: Streams = current_app.extensions["companion.streams"]
    return result


_STRING = json.encoder.encode_basestring
_WRITE = jsontext.encoder(ascii_only=False, item=",", key=":")


def _one_line(value: Any) -> str:
    """`value` as JSON on one line (as ``json.dumps(value, separators=(",", ":"),
    ensure_ascii=False)`` writes it), by an encoder made once (`jsontext`)."""
    if type(value) is str:
        return _STRING(value)
    return "".join(_WRITE(value, 0))


def sse(
    kind: str, data: Any, seq: int | None = None, retry: int | None = None, body: str | None = None
) -> bytes:
    """One event in the text/event-stream format; the JSON (`body`, if made already) stays on
    one line."""
    head = f"retry: {retry}\n" if retry is not None else ""
    head += f"event: {kind}\n"
    if seq is not None and seq >= 0:
        head += f"id: {seq}\n"
    body = _one_line(data) if body is None else body
    return f"{head}data: {body}\n\n".encode()


def frame(event: Event) -> bytes:
    """`event` in the stream's format, encoded once however many streams send it: the Table
    hands every subscriber of a view the same Event, so phones of one view share the bytes;
    and what the views of one telling share is encoded once for all of them (`_Pieces`)."""
    encoded: bytes | None = event.__dict__.get("_frame")
    if encoded is None:  # two streams may both encode it: the same bytes, no harm
        body = _Pieces.of(event.game, event.seq).json(event.data)
        encoded = sse(event.kind, event.data, event.seq, body=body)
        object.__setattr__(event, "_frame", encoded)  # a cache, not a field: Event stays frozen
    return encoded


def changed(event: Event, before: Event) -> bytes:
    """`event`, a view's whole snapshot, as what changed since `before` (the same view's
    whole snapshot told before it: ``event.before == before.seq``): ``{"delta": <before's
    id>, "set": {...}, "drop": [...], "in": {<key>: {"set": ..., "drop": ...}}}`` — the keys
    whose value changed (within the dicts, such as ``state``, one level down), and those gone.
    Made of the view's own two snapshots, it carries nothing the snapshot would not. Encoded
    once for every stream of the view, as `frame`."""
    encoded: bytes | None = event.__dict__.get("_delta")
    if encoded is None:
        # Written whole by the C encoder: a change is small, and sharing its pieces between
        # the views (`_Pieces`) cost three times as much as writing it.
        encoded = sse(
            event.kind, {"delta": before.seq, **_changes(before.data, event.data)}, event.seq
        )
        object.__setattr__(event, "_delta", encoded)
    return encoded


_GONE = object()


def _changes(before: dict[str, Any], now: dict[str, Any], depth: int = 2) -> dict[str, Any]:
    """What `now` changed of `before`: values told again whole, but a dict in both compared
    key by key `depth` - 1 levels down. The Table hands on what did not change as the same
    objects (`engine.views.Shown`), so most are passed over by identity."""
    told: dict[str, Any] = {}
    inside: dict[str, Any] = {}
    for key, value in now.items():
        old = before.get(key, _GONE)
        if old is value:
            continue
        if depth > 1 and type(value) is dict and type(old) is dict:
            change = _changes(old, value, depth - 1)
            if change:
                inside[key] = change
        elif type(old) is not type(value) or old != value:  # True == 1, but not in JSON
            told[key] = value
    out: dict[str, Any] = {"set": told} if told else {}
    gone = [key for key in before if key not in now]
    if gone:
        out["drop"] = gone
    if inside:
        out["in"] = inside
    return out


class _Pieces:
    """The JSON of the lists and dicts in the events of one telling (a game's event number),
    by identity. The Table tells each view its own Event, but what the views see alike (the
    island, the pieces, the boats, the legal moves...) is the same objects in all of them, and
    read-only: encoded once, not once per view (a snapshot's JSON is most of a stream's work).
    Only the latest telling's are kept; a stream behind the others starts them afresh, which
    costs it the sharing, never the right bytes (each piece is kept with its object, so that
    its identity is not taken by another while it is)."""

    _latest: _Pieces | None = None

    def __init__(self, telling: tuple[int, int]) -> None:
        self.telling = telling
        self._json: dict[int, tuple[Any, str]] = {}

    @classmethod
    def of(cls, game: int, seq: int) -> _Pieces:
        latest = cls._latest  # read once: other streams' threads replace it
        if latest is None or latest.telling != (game, seq):
            latest = cls._latest = cls((game, seq))
        return latest

    def json(self, value: Any, depth: int = 2) -> str:
        """`value` as `_one_line` writes it: in the dicts of its first `depth` levels, each list or
        dict written once; what lies between them (numbers, words, None) a run at a time."""
        if not (depth and type(value) is dict and all(type(k) is str for k in value)):
            return _one_line(value)
        parts: list[str] = []
        run: dict[str, Any] = {}
        for key, item in value.items():
            if not isinstance(item, (dict, list)) or not item:
                run[key] = item
                continue
            if run:
                parts.append(_one_line(run)[1:-1])
                run = {}
            kept = self._json.get(id(item))
            if kept is None:
                kept = self._json[id(item)] = (item, self.json(item, depth - 1))
            parts.append(f"{_STRING(key)}:{kept[1]}")
        if run:
            parts.append(_one_line(run)[1:-1])
        return f"{{{','.join(parts)}}}"


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
    phone = access.phone_id(create=False)
    seat = (game_id, view) if game_id is not None and isinstance(view, int) else None
    if access.is_local():
        rank = TABLE
    elif seat is not None and access.seat_in(game_id) == view:
        rank = SEATED
    else:
        rank = WATCHER if phone is not None else ANONYMOUS
    address = serving.address_key(request.remote_addr or "")
    shows = (game_id, view, following)
    slot = registry.open(address, phone, rank, seat if rank == SEATED else None, shows)
    if slot is None:
        busy = sse("busy", BUSY, retry=BUSY_RETRY_MS)
        return Response([busy], mimetype="text/event-stream", headers=HEADERS)
    inbox = slot.inbox
    table = the_table()
    held = access.seats() if slot.seat is not None and phone is not None else None
    lagging = threading.Event()
    # waitress tells when the phone hung up (serving sets channel_request_lookahead for it),
    # and its connection is where the stream's bytes go.
    gone = request.environ.get("waitress.client_disconnected")
    line = _Line.of(gone, request.environ) if request.method == "GET" else None  # HEAD: no body

    def deliver(event: Event) -> None:
        # On the Table's thread: write it (a send that never waits) or queue it; never wait.
        if line is not None and line.told(event):
            return
        if inbox.qsize() > BACKLOG:
            lagging.set()
        else:
            inbox.put(event)

    subscriber = Subscriber(None if following else game_id, view, deliver)
    closed = threading.Lock()

    def close() -> None:
        # Runs when the response is closed (the phone left, the stream ended, the server
        # stops) — even if the body was never iterated, where a generator's `finally` would not.
        if not closed.acquire(blocking=False):
            return
        registry.close(slot)
        if held is not None and slot.seat is not None and phone is not None:
            held.streaming(phone, *slot.seat, -1)
        with contextlib.suppress(Refused, TimeoutError):  # the Table is stopping: they go too
            table.unsubscribe(subscriber)

    if held is not None and slot.seat is not None and phone is not None:
        held.streaming(phone, *slot.seat, +1)
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
    timing = Timing(float(config["SSE_PING"]), ends, gone)
    body = _events(inbox, lagging, snapshot, view, timing, line)
    response = Response(body, mimetype="text/event-stream", headers=HEADERS)
    response.call_on_close(close)
    return response


@dataclass(frozen=True)
class Timing:
    """When a stream pings, when it ends by itself, and how it learns its phone hung up."""

    ping: float
    ends: float | None
    gone: Callable[[], bool] | None

    def wait(self, next_ping: float) -> float:
        """Seconds to wait for an event now (0 or less: the stream's time is up)."""
        now = time.monotonic()
        if self.ends is not None and now >= self.ends:
            return 0.0
        until = next_ping if self.ends is None else min(next_ping, self.ends)
        if self.gone is not None:
            until = min(until, now + CHECK)
        return max(until - now, 0.001)

    def over(self) -> bool:
        if self.ends is not None and time.monotonic() >= self.ends:
            return True
        return self.gone is not None and bool(self.gone())


def _snapshot(table: Table, game_id: int | None, view: View) -> dict[str, Any]:
    try:
        return table.snapshot(game_id, view)
    except Refused:
        if game_id is not None:
            raise
        return {"game": None, "seq": 0, "status": dict(table.status)}


def _waiting(inbox: queue.SimpleQueue[Any], timing: Timing) -> Iterator[Any]:
    """What comes to a stream's queue, and `PING` whenever a ping is due; it ends when the
    stream's time is up or its phone hung up (the slot is freed then)."""
    next_ping = time.monotonic() + timing.ping
    while not timing.over():
        try:
            yield inbox.get(timeout=timing.wait(next_ping))
        except queue.Empty:
            if time.monotonic() >= next_ping and not timing.over():
                yield PING
                next_ping = time.monotonic() + timing.ping


def _events(
    inbox: queue.SimpleQueue[Any],
    lagging: threading.Event,
    snapshot: dict[str, Any],
    view: View,
    timing: Timing,
    line: _Line | None = None,
) -> Iterator[bytes]:
    """The body: the snapshot, then the events after it, pings in between. (It runs outside the
    request: everything it needs is handed in.) On waitress, from the snapshot on, the events
    are written to the connection by whoever tells them (`_Line`)."""
    told = _Told(snapshot.get("game"), int(snapshot.get("seq", 0)), view)
    yield sse("snapshot", snapshot, told.seq - 1, retry=RETRY_MS)
    if line is not None:  # the snapshot is written: from here on the line writes
        line.run(told, inbox, lagging, timing)
        return
    for item in _waiting(inbox, timing):
        if item is PING:
            yield PING
            continue
        # What else is already waiting goes out with it, in one write: a command's events
        # reach a phone in one send, not one each (each a wake-up and a system call).
        frames: list[bytes] = []
        while item is not None:
            if lagging.is_set() and item is not _MADE_ROOM:
                item = _END
            said = told.frame(item)
            if said is None:
                break
            frames.append(said)
            try:
                item = inbox.get_nowait()
            except queue.Empty:
                item = None
        if frames:
            yield b"".join(frames)
        if item is not None:
            if item is _MADE_ROOM:
                yield sse("busy", BUSY, retry=BUSY_RETRY_MS)
            return


class _Told:
    """Where a stream is: the game it shows and the first event not yet in its snapshot."""

    def __init__(self, game: Any, seq: int, view: View) -> None:
        self.game, self.seq, self.view = game, seq, view
        self.whole: Event | None = None
        """The last whole snapshot sent as an event (not the first: it is the stream's own),
        which the phone holds: the next may be sent as what changed since."""

    def frame(self, item: Any) -> bytes | None:
        """What the stream sends of `item` (b"" for nothing); None when the stream ends
        with it (it is told ``busy`` when the item is `_MADE_ROOM`)."""
        if item is _MADE_ROOM or item is _END:
            return None
        if isinstance(item, Notice):
            return sse(item.kind, item.data)
        if item.kind == "status":
            return sse("status", item.data)
        if item.game != self.game:
            if isinstance(self.view, int):
                return None  # the table moved on: a seat of the old game sees nothing of the new
            self.game, self.seq = item.game, 0
        elif item.seq < self.seq:
            return b""  # happened between subscribing and the snapshot: already in it
        if item.whole:
            held, self.whole = self.whole, item
            if held is not None and (held.game, held.seq) == (item.game, item.before):
                return changed(item, held)
        return frame(item)  # the Table projected it for this view


LAG_BYTES = 1 << 20
"""Bytes a stream's connection may hold unsent before the stream is ended (a phone that reads
too slowly: it reconnects to a fresh snapshot)."""


class _Line:
    """A stream's waitress connection, written to by the thread that tells an event (the
    Table's, for table events): one system call on a thread already running, where handing each
    event to the stream's own thread woke every stream's thread after every command, and each
    then had to get the interpreter twice (to take the event, and back from sending it). The
    stream's thread writes the rest (pings, notices, the end). Until `run` takes over, events
    go to the stream's queue (the snapshot is not written yet)."""

    def __init__(self, channel: Any, chunked: bool) -> None:
        self._channel = channel
        self._chunked = chunked
        self._lock = threading.Lock()
        self._told: _Told | None = None
        """Set once the line writes: what the stream has said so far."""
        self._ended: Any = None
        """What ended it (`_END`, `_MADE_ROOM`), put on its queue for its thread too."""
        self._inbox: queue.SimpleQueue[Any] | None = None

    @classmethod
    def of(cls, gone: Any, environ: dict[str, Any]) -> _Line | None:
        """The line of a request served by waitress (its `client_disconnected` is a method
        of the connection), else None: the stream's thread writes everything."""
        channel = getattr(gone, "__self__", None)
        if not (hasattr(channel, "write_soon") and hasattr(channel, "total_outbufs_len")):
            return None  # not waitress's connection as this was written for
        # waitress answers HTTP/1.1 without a length in chunks (its task frames what the body
        # yields); what is written past it is framed here the same way.
        return cls(channel, environ.get("SERVER_PROTOCOL") == "HTTP/1.1")

    def told(self, item: Any) -> bool:
        """Write `item` now if the line writes (False: queue it for the stream's thread)."""
        with self._lock:
            if self._told is None:
                return False
            try:
                self._say(item)
            except Exception:  # on the Table's thread: a fault here ends this stream alone
                log.exception("could not write an event to a stream")
                self._end(_END)
            return True

    def _say(self, item: Any) -> None:
        if self._ended is not None:
            return
        if item is PING:
            said: bytes | None = PING
        else:
            said = self._told.frame(item) if self._told is not None else None
        if said is None:
            self._end(_MADE_ROOM if item is _MADE_ROOM else _END)
        elif said and not self._write(said):
            self._end(_END)

    def _end(self, why: Any) -> None:
        self._ended = why
        if why is _MADE_ROOM:
            self._write(sse("busy", BUSY, retry=BUSY_RETRY_MS))
        if self._inbox is not None:
            self._inbox.put(why)

    def _write(self, data: bytes) -> bool:
        channel = self._channel
        if channel.total_outbufs_len > LAG_BYTES:
            return False
        if self._chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        try:
            channel.write_soon(data)
        except Exception:  # the phone is gone (ClientDisconnected): the stream ends
            return False
        return True

    def run(
        self, told: _Told, inbox: queue.SimpleQueue[Any], lagging: threading.Event, timing: Timing
    ) -> None:
        """On the stream's thread once its snapshot is written: what was queued meanwhile is
        written, then the line writes every event; this thread pings, and returns when the
        stream ends."""
        with self._lock:
            self._told, self._inbox = told, inbox
            while self._ended is None:
                try:
                    item = inbox.get_nowait()
                except queue.Empty:
                    break
                self._say(_END if lagging.is_set() and item is not _MADE_ROOM else item)
        try:
            for item in _waiting(inbox, timing):
                with self._lock:
                    self._say(item)
                if self._ended is not None:
                    return
        finally:
            with self._lock:  # nothing is written after the body's end
                self._ended = self._ended or _END
