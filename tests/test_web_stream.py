"""The event stream (companion.web.stream): a snapshot first, then each event in order with its
id, pings, the phone's own view, a phone that leaves, and streams that never starve the API."""

from __future__ import annotations

import itertools
import json
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from waitress.channel import HTTPChannel
from werkzeug.test import TestResponse

from companion.bench_web import Reader
from companion.commands import Command, Event
from companion.engine import Game, Rules, notation
from companion.store import Store
from companion.table import Subscriber, Table
from companion.web import create_app, end_streams
from companion.web import stream as sse_stream
from tests.playing import PLAYERS, first, mirror, play_setup
from tests.test_hidden import random_log
from tests.web_support import (
    Stream,
    patched,
    phone,
    self_drawn,
    sender,
    served,
    table_config,
    wait_for,
)

WHOLE = ("snapshot", "state", "new_game", "undone", "corrected")
"""The events whose data is the viewer's whole snapshot (``SNAPSHOTS`` in stream.js)."""


def make_app(table: Table, **settings: Any) -> Flask:
    return create_app(table, table_config(), test_config={"TESTING": True, **settings})


@pytest.fixture
def app(table: Table) -> Flask:
    return make_app(table)


@pytest.fixture
def game(app: Flask, table: Table) -> int:
    r = phone(app).post("/api/games", json={"players": PLAYERS, "seed": 1})
    game_id: int = r.json["game"]  # type: ignore[index]
    play_setup(table, game_id)
    return game_id


class Events:
    """An SSE response of the test client, read event by event (a chunk holds whole events:
    those that were waiting together are sent in one)."""

    def __init__(self, response: TestResponse) -> None:
        self.response = response
        self.chunks = iter(response.response)
        self.waiting: list[str] = []
        self.whole: tuple[int | None, Any] = (None, None)
        """The id and data of the last whole snapshot: a later one may come as a change of it."""
        self.changes = 0
        """Whole snapshots that came as what changed."""

    def next(self) -> tuple[str, Any, int | None]:
        """(event, data, id); ("ping", None, None) for a ping; StopIteration at the end."""
        while not self.waiting:
            self.waiting = [e for e in next(self.chunks).decode().split("\n\n") if e.strip()]
        chunk = self.waiting.pop(0)
        if chunk.startswith("event: ping"):
            return "ping", None, None
        fields = dict(line.split(": ", 1) for line in chunk.strip().split("\n"))
        seq = int(fields["id"]) if "id" in fields else None
        data = json.loads(fields["data"])
        if isinstance(data, dict) and "delta" in data:
            assert data["delta"] == self.whole[0], "a change of a snapshot the phone has not"
            data = patched(self.whole[1], data)
            self.changes += 1
        if fields["event"] in WHOLE:
            self.whole = (seq, data)
        return fields["event"], data, seq

    def until(self, kind: str) -> list[tuple[str, Any, int | None]]:
        seen = []
        while True:
            event = self.next()
            seen.append(event)
            if event[0] == kind:
                return seen

    def close(self) -> None:
        self.response.close()


def stream(client: FlaskClient, path: str, **kw: Any) -> Events:
    r = client.get(path, buffered=False, **kw)
    assert r.status_code == 200, r.data
    assert r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache" and r.headers["X-Accel-Buffering"] == "no"
    return Events(r)


def subscribers(table: Table) -> int:
    return int(table.read(lambda: len(table.subscribers)))


def seat_and_watcher(app: Flask, game: int) -> tuple[FlaskClient, FlaskClient, Events, Events]:
    """Seat 1's phone and a watcher's, each with the game's stream open."""
    ana, watcher = phone(app, game, 1), phone(app)
    path = f"/api/games/{game}/stream"
    return ana, watcher, stream(ana, path), stream(watcher, path)


# -- what a stream says -----------------------------------------------------------------------


def test_a_stream_opens_with_the_snapshot_then_each_event_in_order_with_its_id(
    app: Flask, table: Table, game: int
) -> None:
    ana, _watcher, mine, theirs = seat_and_watcher(app, game)
    kind, snap, seq = mine.next()
    assert kind == "snapshot" and snap["state"]["viewer"] == 0 and "legal" in snap
    assert seq == snap["seq"] - 1  # the last event the snapshot holds
    kind, watched, _ = theirs.next()
    assert kind == "snapshot" and watched["state"]["viewer"] == "spectator"
    assert "legal" not in watched  # not the spectator's decision
    move = first(mirror(table, game), "move")
    r = ana.post(f"/api/games/{game}/commands", json={"request_id": "m", "action": notation(move)})
    assert r.status_code == 200
    events = mine.until("state")
    assert [k for k, _, _ in events] == ["moved", "state"]
    assert [s for _, _, s in events] == [snap["seq"], snap["seq"] + 1]
    assert events[0][1]["kind"] == "moved"
    assert events[1][1]["state"] == ana.get(f"/api/games/{game}").json["state"]  # type: ignore[index]
    assert [k for k, _, _ in theirs.until("state")] == ["moved", "state"]
    for s in (mine, theirs):
        s.close()
    assert wait_for(lambda: subscribers(table) == 0, what="the streams unsubscribed")


def test_after_a_whole_snapshot_a_stream_sends_what_changed_and_the_page_makes_it_whole(
    app: Flask, table: Table, game: int
) -> None:
    ana, watcher, mine, theirs = seat_and_watcher(app, game)
    for s in (mine, theirs):
        s.next()
    for n in range(3):  # the first state is whole (the stream's snapshot is its own), then not
        move = first(mirror(table, game), "move")
        r = ana.post(
            f"/api/games/{game}/commands", json={"request_id": f"m{n}", "action": notation(move)}
        )
        assert r.status_code == 200
        for s, client in ((mine, ana), (theirs, watcher)):
            state = s.until("state")[-1][1]
            assert state == client.get(f"/api/games/{game}").json
    assert mine.changes == theirs.changes == 2
    for s in (mine, theirs):
        s.close()


def test_a_whole_event_made_at_once_is_an_event_like_one_made_by_its_fields() -> None:
    data = {"state": {"phase": "movement"}}
    made = Event.whole_after(7, 12, "state", data, 9)
    plain = Event(7, 12, "state", data)
    assert made == plain and repr(made) == repr(plain) and made.data is data
    assert (made.whole, made.before) == (True, 9) and not plain.whole
    assert Event.whole_after(7, 12, "state", data, None).whole  # the view's first whole one
    with pytest.raises(AttributeError):  # frozen, as any Event
        made.seq = 13  # type: ignore[misc]
    assert sse_stream.frame(made) == sse_stream.frame(plain)


def test_the_events_of_one_command_reach_a_phone_in_one_write(
    app: Flask, table: Table, game: int
) -> None:
    """The Table hands a command's events to the streams once it is done with it, and a stream
    sends what is waiting together: one write (one wake-up, one system call) per command."""
    ana = phone(app, game, 1)
    mine = stream(ana, f"/api/games/{game}/stream")
    assert mine.next()[0] == "snapshot" and not mine.waiting
    move = first(mirror(table, game), "move")
    r = ana.post(f"/api/games/{game}/commands", json={"request_id": "m", "action": notation(move)})
    assert r.status_code == 200
    chunk = next(mine.chunks).decode()
    assert [line for line in chunk.split("\n") if line.startswith("event: ")] == [
        "event: moved",
        "event: state",
    ]
    mine.close()


def test_a_reconnection_with_last_event_id_gets_a_fresh_snapshot_first(
    app: Flask, table: Table, game: int
) -> None:
    watcher = phone(app)
    again = stream(watcher, f"/api/games/{game}/stream", headers={"Last-Event-ID": "3"})
    kind, snap, seq = again.next()
    assert kind == "snapshot" and seq == snap["seq"] - 1 > 3
    assert snap == {**watcher.get(f"/api/games/{game}").json, "seq": snap["seq"]}  # type: ignore[dict-item]
    again.close()


def test_an_idle_stream_pings_and_a_limited_one_ends(table: Table, game: int) -> None:
    app = make_app(table, SSE_PING=0.05, STREAM_SECONDS=0.3)
    events = stream(phone(app), f"/api/games/{game}/stream")
    assert events.next()[0] == "snapshot"
    started = time.monotonic()
    assert events.next()[0] == "ping"
    kinds = []
    with pytest.raises(StopIteration):
        while True:
            kinds.append(events.next()[0])
    assert set(kinds) == {"ping"} and 0.2 < time.monotonic() - started < 2
    events.close()


def test_the_phone_asks_only_for_views_it_may_see(app: Flask, game: int) -> None:
    ana = phone(app, game, 1)
    for view, status in (("2", 403), ("referee", 403), ("spectator", 200), ("9", 400)):
        r = ana.get(f"/api/games/{game}/stream?view={view}", buffered=False)
        assert r.status_code == status, view
        r.close()
    assert phone(app).get("/api/games/99/stream").status_code == 404
    local = stream(app.test_client(), f"/api/games/{game}/stream?view=referee")
    assert "seed" in local.next()[1]["state"]  # the referee's
    local.close()


def test_an_undone_placement_tells_no_one_the_value(app: Flask, table: Table) -> None:
    """The Table names an undone action as each viewer may read it; the reply is masked too."""
    watcher = phone(app)
    game = watcher.post("/api/games", json={"players": PLAYERS, "seed": 1}).json["game"]  # type: ignore[index]
    ana = phone(app, game, 1)
    theirs = stream(watcher, f"/api/games/{game}/stream")
    referee = stream(app.test_client(), f"/api/games/{game}/stream?view=referee")
    place = first(mirror(table, game), "place")
    assert place[2] is not None  # a digital game: the value is chosen on the phone
    r = ana.post(f"/api/games/{game}/commands", json={"request_id": "p", "action": list(place)})
    assert r.status_code == 200
    r = ana.post(f"/api/games/{game}/commands", json={"request_id": "u", "intent": "undo"})
    assert r.status_code == 200 and r.json["message"].endswith("=?")  # type: ignore[index]
    said = theirs.until("undone")[-1][1]["action"]
    told = referee.until("undone")[-1][1]["action"]
    assert told == notation(place) and said == notation(place).rsplit("=", 1)[0] + "=?"
    theirs.close()
    referee.close()


# -- the current game -------------------------------------------------------------------------


def test_the_current_stream_follows_the_table_to_its_next_game_but_not_a_seat(
    app: Flask, table: Table
) -> None:
    watcher = phone(app)
    events = stream(watcher, "/api/stream")
    assert events.next()[1]["game"] is None  # no game yet: the snapshot says so
    first_game = watcher.post("/api/games", json={"players": PLAYERS, "seed": 1}).json["game"]  # type: ignore[index]
    kind, data, seq = events.next()
    assert (kind, data["game"], seq) == ("new_game", first_game, 0)
    ana = phone(app, first_game, 1)
    hers = stream(ana, "/api/stream")
    assert hers.next()[1]["state"]["viewer"] == 0
    second = watcher.post("/api/games", json={"players": PLAYERS, "seed": 2}).json["game"]  # type: ignore[index]
    assert events.until("new_game")[-1][1]["game"] == second
    with pytest.raises(StopIteration):  # her seat was in the old game: the stream ends ...
        hers.until("never")
    again = stream(ana, "/api/stream")  # ... and reconnects as a spectator of the new one
    assert again.next()[1]["state"]["viewer"] == "spectator"
    for s in (events, hers, again):
        s.close()


# -- threads: streams never starve the API ----------------------------------------------------


def test_ten_open_streams_leave_the_api_answering(table: Table, game: int) -> None:
    app = make_app(table, SSE_PING=0.2)  # [web] threads = 16 (the default): 12 streams at most
    with served(app, threads=16) as port:
        streams = [Stream(port, f"/api/games/{game}/stream").start() for _ in range(10)]
        wait_for(lambda: all(s.events for s in streams), what="every snapshot read")
        t0 = time.monotonic()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
            assert r.status == 200 and json.loads(r.read())["ok"] is True
        assert time.monotonic() - t0 < 1.0
        assert subscribers(table) == 10
        for s in streams:
            s.close()
        wait_for(lambda: subscribers(table) == 0, 10, "the streams of phones that left")


def test_one_stream_too_many_is_told_busy_and_the_api_still_answers(
    table: Table, game: int
) -> None:
    app = make_app(table, MAX_STREAMS=2)
    with served(app, threads=4) as port:
        held = [Stream(port, f"/api/games/{game}/stream").start() for _ in range(2)]
        wait_for(lambda: all(s.events for s in held))
        extra = Stream(port, f"/api/games/{game}/stream").start()
        assert extra.done.wait(5)
        assert [k for k, _, _ in extra.events] == ["busy"] and b"retry: 10000" in extra.body()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=2) as r:
            assert r.status == 200
        # The daemon stops: every open stream ends at once, not at its next ping.
        end_streams(app)
        assert all(s.done.wait(2) for s in held)
        for s in [*held, extra]:
            s.close()
    wait_for(lambda: subscribers(table) == 0)


def test_a_phone_that_leaves_is_unsubscribed(table: Table, game: int) -> None:
    app = make_app(table, SSE_PING=0.1)
    with served(app, threads=4) as port:
        gone = Stream(port, f"/api/games/{game}/stream").start()
        wait_for(lambda: gone.events)
        assert subscribers(table) == 1
        gone.close()  # the phone leaves; the server notices at its next ping
        wait_for(lambda: subscribers(table) == 0, 5, "the stream of a phone that left")
        assert app.extensions["companion.streams"].count() == 0


def test_served_streams_are_written_by_the_thread_that_tells_their_events(
    table: Table, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On waitress the Table's thread writes each event to every open stream's connection
    itself (its own thread is not woken for it), framed as the connection needs: in chunks
    over HTTP/1.1 (http.client undoes them), as they are over HTTP/1.0; every event whole, in
    order, on both; and the stream's own thread pings between them."""
    writers: list[str] = []
    real_write = HTTPChannel.write_soon

    def write_soon(channel: HTTPChannel, data: bytes) -> int:
        if b"\nid: " in data and b"event: snapshot" not in data:  # a table event's
            writers.append(threading.current_thread().name)
        return real_write(channel, data)

    monkeypatch.setattr(HTTPChannel, "write_soon", write_soon)
    app = make_app(table, SSE_PING=0.05)
    with served(app, threads=4) as port:
        chunked = Stream(port, f"/api/games/{game}/stream").start()
        plain = Reader(port, f"/api/games/{game}/stream")
        wait_for(lambda: chunked.events, what="the snapshot")
        played = mirror(table, game)
        for _ in range(3):
            move = first(played, "move")
            assert table.call(Command("cli", 0, "", game, action=list(move))).accepted
            played.apply(move)
        last = table.read(lambda: table._loaded[game].events) - 1
        wait_for(lambda: str(last) in [seq for _, _, seq in chunked.events], what="the events")
        wait_for(lambda: plain.feed(time.perf_counter()) or last in plain.arrived, what="plain")
        wait_for(lambda: chunked.events[-1][0] == "ping", what="a ping after the events")
        plain.close()
        chunked.close()
    kinds = [kind for kind, _, _ in chunked.events]
    assert kinds[0] == "snapshot" and kinds.count("state") == 3 and kinds.count("moved") == 3
    seqs = [int(seq) for _, _, seq in chunked.events[1:] if seq is not None]
    assert seqs == sorted(seqs) == list(plain.arrived)[1:] and seqs[-1] == last  # [0]: snapshot
    for _, data, _ in chunked.events:
        json.loads(data)
    assert writers and set(writers) == {"table"}


def test_a_served_stream_whose_phone_reads_too_slowly_is_ended(
    table: Table, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once more is unsent on a stream's connection than `LAG_BYTES`, the stream ends (its
    phone reconnects to a fresh snapshot) and the Table tells it nothing more."""
    app = make_app(table)
    with served(app, threads=4) as port:
        lagging = Stream(port, f"/api/games/{game}/stream").start()
        wait_for(lambda: lagging.events, what="the snapshot")
        monkeypatch.setattr(sse_stream, "LAG_BYTES", -1)  # every byte is too many now
        move = first(mirror(table, game), "move")
        assert table.call(Command("cli", 0, "", game, action=list(move))).accepted
        assert lagging.done.wait(5)
        assert [kind for kind, _, _ in lagging.events] == ["snapshot"]
        wait_for(lambda: subscribers(table) == 0, 5, "the ended stream's subscriber")
        lagging.close()


def test_a_fault_while_writing_a_served_stream_ends_that_stream_not_the_command(
    table: Table, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The Table's thread writes the streams after a command is stored: a fault in writing one
    ends that stream (its phone reconnects), and the command is answered as done."""
    app = make_app(table)
    with served(app, threads=4) as port:
        broken = Stream(port, f"/api/games/{game}/stream").start()
        wait_for(lambda: broken.events, what="the snapshot")

        def fault(told: Any, item: Any) -> bytes:
            raise RuntimeError("a bug in writing an event")

        monkeypatch.setattr(sse_stream._Told, "frame", fault)
        move = first(mirror(table, game), "move")
        assert table.call(Command("cli", 0, "", game, action=list(move))).accepted
        assert broken.done.wait(5)
        wait_for(lambda: subscribers(table) == 0, 5, "the ended stream's subscriber")
        broken.close()


def test_what_the_views_of_one_telling_share_is_written_once(
    table: Table, game: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a command each view gets its own state, but the island, the pieces, the boats
    are the same objects in all of them: each is written to JSON once for every view, and
    each view's bytes are still what `json.dumps` makes of its own state."""
    told: dict[Any, list[Event]] = {view: [] for view in (0, 1, 2, "spectator", "referee")}
    for view, box in told.items():
        table.subscribe(Subscriber(None, view, box.append))
    move = first(mirror(table, game), "move")
    assert table.call(Command("cli", 0, "", game, action=list(move))).accepted
    states = [[e for e in box if e.kind == "state"][-1] for box in told.values()]
    written: list[int] = []
    real_write = sse_stream._WRITE

    def counted(value: Any, level: int) -> Any:
        written.append(id(value))
        return real_write(value, level)

    monkeypatch.setattr(sse_stream, "_WRITE", counted)
    for event in states:
        body = json.dumps(event.data, separators=(",", ":"), ensure_ascii=False)
        assert (
            sse_stream.frame(event) == f"event: state\nid: {event.seq}\ndata: {body}\n\n".encode()
        )
    island = states[0].data["state"]["tiles"]
    assert all(e.data["state"]["tiles"] is island for e in states)  # one object for all
    assert written.count(id(island)) == 1


@pytest.mark.slow
def test_a_change_of_a_snapshot_applied_to_the_one_before_is_the_whole_one(
    tmp_path: Path,
) -> None:
    """Over whole digital games with undos, for every view: each whole snapshot after the first,
    sent as what changed since the one before (`changed`), made whole again as the page makes
    it, is that view's whole snapshot to the byte — it can carry nothing the view may not see
    — and it is shorter than the whole one."""
    views: list[Any] = [0, 1, 2, 3, "spectator", "referee"]
    for seed in (1, 2, 3):
        table = Table(Store(tmp_path / f"{seed}.db"))  # not started: each command at once
        told: dict[Any, list[Event]] = {view: [] for view in views}
        for view, box in told.items():
            table.subscribe(Subscriber(None, view, box.append))
        args = {"players": [{}] * 4, "seed": seed, "mode": "digital", "layout": "random"}
        game = table.call(Command("cli", intent="new_game", args=args)).game
        engine = Game.new(Rules(), 4, seed, "digital")
        for n, (action, _, _) in enumerate(random_log(seed, "digital", Rules())):
            if not self_drawn(engine, "digital", "random"):
                seat = sender(engine)
                command = Command("phone", seat, "", game, action=list(action))
                assert table.call(command).accepted
                if (
                    n % 7 == 0
                    and table.call(Command("phone", seat, "", game, intent="undo")).accepted
                ):
                    assert table.call(command).accepted  # and again: the game goes on as logged
            engine.apply(action)
        changes = 0
        for view, box in told.items():
            whole = [e for e in box if e.whole]
            for before, event in itertools.pairwise(whole):
                assert event.kind in WHOLE and event.before == before.seq
                data = json.loads(sse_stream.changed(event, before).split(b"data: ", 1)[1])
                assert data["delta"] == before.seq
                made = patched(before.data, data)
                assert _canonical(made) == _canonical(event.data), (view, event.seq)
                assert len(sse_stream.changed(event, before)) < len(sse_stream.frame(event))
                changes += 1
        assert changes > 6 * 150
        table._store.close()


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)
