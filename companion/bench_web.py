"""`companion bench web`: from a button on the GPIO panel to every phone's event stream.

A started Table on a store in a temporary folder, the GPIO panel on gpiozero's MockFactory with
the pins of ``hardware/pinout.toml``, the web app served by waitress on 127.0.0.1, and
`clients` phones reading real HTTP event streams (seats 1-4 and spectators, as on a table of
four). The phones run in a process of their own, as they are other devices: their reading does
not compete with the server for its interpreter lock (``perf_counter`` is the system's monotonic
clock, the same in both processes). A press is the release edge of a button driven on its mock
pin (a short press: the panel carries it out on release); it is timed from that edge until the
last event it caused has been read by every phone. Presses alternate NEXT (end movement:
``done``) and UNDO (take it back), so the game goes to and fro at seat 1's movement and every
press changes it.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import multiprocessing
import os
import queue
import selectors
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from . import config
from .commands import REFEREE, SPECTATOR, Command, Event
from .daemon import settle
from .engine import Game, Rules
from .mounts import memory_folder
from .store import Store
from .table import Subscriber, Table

PI_4 = "c03111"
"""The board revision the mock pins pretend to be."""


class Reader:
    """One phone's event stream: when each event id arrived whole. A phone with a session sends
    its cookie from an address of its own (127.0.0.2 and up). Asked in HTTP/1.0, so the body
    comes as the server writes it (no chunks to undo), and read by `phones`' one loop."""

    def __init__(self, port: int, path: str, cookie: str = "", source: str = "") -> None:
        self.sock = socket.create_connection(
            ("127.0.0.1", port), timeout=30, source_address=(source, 0) if source else None
        )
        head = f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        self.sock.sendall(f"{head}\r\n".encode("latin-1"))
        got = b""
        while b"\r\n\r\n" not in got:
            more = self.sock.recv(65536)
            if not more:
                raise RuntimeError(f"bench web: {path} closed before its headers")
            got += more
        header, self.body = got.split(b"\r\n\r\n", 1)
        status = header.split(b"\r\n", 1)[0]
        if status.split()[1:2] != [b"200"]:
            raise RuntimeError(f"bench web: {path} answered {status.decode('latin-1')}")
        self.sock.setblocking(False)
        self.arrived: dict[int, float] = {}
        self.open = True

    def feed(self, now: float) -> None:
        """Read what the socket holds; every event now whole arrived `now`."""
        try:
            more = self.sock.recv(65536)
        except BlockingIOError:
            return
        except OSError:
            more = b""
        if not more:
            self.open = False
            return
        self.body += more
        *events, self.body = self.body.split(b"\n\n")
        for event in events:
            for line in event.split(b"\n"):
                if line.startswith(b"id: "):
                    self.arrived[int(line[4:])] = now

    def close(self) -> None:
        with contextlib.suppress(OSError):  # already gone
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()


Phone = tuple[str, str, str]
"""A phone's stream: its path, its cookie, its address ("" for none: the table's own)."""


def phones(port: int, streams: list[Phone], conn: Connection) -> None:
    """The phones' process: read every stream; for each event id asked for, answer when the
    last phone had it whole (None if one had not within 5 s); None asked ends it.

    One thread reads every stream as each becomes readable (a selector), stamping an event when
    the bytes that complete it are read: phones are devices of their own, and threads of one
    interpreter taking turns for its lock would add their own waits to every press."""
    readers = [Reader(port, *stream) for stream in streams]
    choose = selectors.DefaultSelector()
    for reader in readers:
        choose.register(reader.sock, selectors.EVENT_READ, reader)
    choose.register(conn, selectors.EVENT_READ, None)
    conn.send("ready")
    wanted: int | None = None
    deadline = 0.0
    try:
        while True:
            for key, _ in choose.select(timeout=0.5 if wanted is None else 0.05):
                now = time.perf_counter()
                if key.data is not None:
                    key.data.feed(now)
                    if not key.data.open:
                        choose.unregister(key.fileobj)
                    continue
                asked = conn.recv()
                if asked is None:
                    return
                wanted, deadline = asked, now + 5.0
            if wanted is None:
                continue
            if all(wanted in r.arrived for r in readers):
                conn.send(max(r.arrived[wanted] for r in readers))
                wanted = None
            elif time.perf_counter() > deadline:
                conn.send(None)
                wanted = None
    finally:
        choose.close()
        for reader in readers:
            reader.close()


def _until(done: Any, what: str, timeout: float = 5.0) -> None:
    deadline = time.perf_counter() + timeout
    while not done():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"bench web: {what} did not happen in {timeout} s")
        time.sleep(0.0002)


def _p(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)


def web(
    presses: int = 2000,
    clients: int = 8,
    warmup: int = 10,
    seated: bool = False,
) -> dict[str, float]:
    """``web.button_to_sse_p50_ms``/``_p99_ms``: `presses` presses, each from the button's
    release edge on its mock pin until every one of `clients` event streams has read the last
    event the press caused; `warmup` presses before are not counted (`press_times`)."""
    samples = press_times(presses, clients, warmup, seated)
    return {
        "web.button_to_sse_p50_ms": _p(samples, 0.5),
        "web.button_to_sse_p99_ms": _p(samples, 0.99),
    }


def press_times(presses: int, clients: int, warmup: int = 10, seated: bool = False) -> list[float]:
    """The seconds of each press of `web`, from the release edge until the last phone read.

    `seated`: the streams are phones', as on a real table: each gives the PIN from an address
    of its own and follows the game through its session cookie — six in the seats of a
    six-player game, the others watching (a seat is held by one phone)."""
    with _rig(clients, seated) as rig:
        return rig.press(presses, warmup)


class Rig:
    """A served table at seat 1's movement, with its GPIO panel and phones (`_rig`)."""

    def __init__(
        self, tbl: Table, game: int, folder: Path, panel: Any, pins: Any, conn: Connection
    ) -> None:
        """`panel`: the GPIO panel on mock `pins`; `conn`: the phones' process (`phones`)."""
        from .panel.gestures import WINDOW

        self.tbl, self.game, self.folder = tbl, game, folder
        self._panel, self._pins, self._phones, self._hold = panel, pins, conn, WINDOW + 0.01
        self._pressed = 0
        # What a press caused, as a watcher is told it: no snapshot read while timing.
        self._told: queue.SimpleQueue[Event] = queue.SimpleQueue()
        tbl.subscribe(Subscriber(game, SPECTATOR, self._told.put))

    def press(self, presses: int, warmup: int) -> list[float]:
        """The seconds of each of `presses` presses, after `warmup` presses not counted."""
        from gpiozero import Device

        factory = Device.pin_factory  # the mock pins `_rig` set up
        assert factory is not None
        samples: list[float] = []
        for n in range(warmup + presses):
            # NEXT and UNDO by turns, over every call: the game goes to and fro.
            name = "next" if self._pressed % 2 == 0 else "undo"
            self._pressed += 1
            button = factory.pin(self._pins.buttons[name])
            button.drive_low()
            time.sleep(self._hold)  # held longer than the debounce window: a real press
            start = time.perf_counter()
            button.drive_high()
            if not self._panel.idle():
                raise RuntimeError("bench web: the panel did not carry a press out")
            last = -1
            while not self._told.empty():
                last = max(last, self._told.get().seq)
            if last < 0:
                raise RuntimeError("bench web: a press changed nothing (refused?)")
            self._phones.send(last)
            read = self._phones.recv() if self._phones.poll(10) else None
            if read is None:
                raise RuntimeError(f"bench web: a phone did not read event {last}")
            if n >= warmup:
                samples.append(read - start)
            # No wait for this button's lockout after the release: the next press is the
            # other button's, and its hold outlasts this one's lockout.
        return samples


@contextlib.contextmanager
def _rig(clients: int, seated: bool = False) -> Iterator[Rig]:
    """Everything `press_times` measures on, started, and stopped again on leaving."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from .panel import pinout
    from .panel.gpio import GpioPanel
    from .web import create_app, end_streams
    from .web.serving import end_server, make_server

    pins = pinout.load(pinout.default_path())
    threads = clients + 8
    saved = Device.pin_factory
    factory = MockFactory(revision=PI_4, pin_class=MockPWMPin)
    Device.pin_factory = factory
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        store = Store(Path(folder) / "games.db")
        tbl = Table(store)
        tbl.start()
        panel = GpioPanel(tbl, pins)
        settings = {"web": {"threads": threads}, "security": {"pin": PIN, "secret": PIN * 6}}
        app = create_app(tbl, config.parse(settings))
        server = make_server(app, "127.0.0.1", 0, threads)
        serving = threading.Thread(target=server.run, name="bench-waitress", daemon=True)
        context = multiprocessing.get_context("spawn")  # no fork of a process with threads
        ours, theirs = context.Pipe()
        process: Any = None
        try:
            panel.start()
            serving.start()
            game = _to_movement(tbl, SEATS if seated else 4)
            port = int(server.effective_port)
            if seated:
                streams = [
                    _join(port, game, n, n + 1 if n < SEATS else None) for n in range(clients)
                ]
            else:
                views = [f"view={seat}" for seat in range(1, 5)] + ["view=spectator"] * clients
                streams = [(f"/api/stream?{view}", "", "") for view in views[:clients]]
            spawned = context.Process(target=phones, args=(port, streams, theirs), daemon=True)
            spawned.start()
            process = spawned
            if not ours.poll(30) or ours.recv() != "ready":
                raise RuntimeError("bench web: the phones did not connect")

            rig = Rig(tbl, game, Path(folder), panel, pins, ours)
            settle()  # as the daemon does once started
            yield rig
        finally:
            if process is not None:
                with contextlib.suppress(OSError):
                    ours.send(None)
                process.join(5)
                if process.is_alive():
                    process.kill()
            end_streams(app)
            end_server(server, serving)
            panel.stop()
            tbl.stop()
            store.close()
            factory.reset()
            Device.pin_factory = saved


CAMERA_INTERVAL = 0.1
"""Seconds between the frames the camera looks at while the web is measured with it on."""
HAND_FRAMES, REST_FRAMES = 10, 20
"""What the camera sees, over and over: a hand moving over the board for this many frames,
then the board at rest for this many (a hand over the board a third of the time)."""


class _Film:
    """The frames a webcam over the table hands out while the web is measured: each a JPEG of
    its own (new noise, focus and compression, as a webcam's MJPEG are), put in place as the
    one photo the camera reads every `CAMERA_INTERVAL` (in memory, where a camera's frames are,
    so that they never meet the store's writes to the disk). It rolls between `start` and
    `stop`, as often as asked, and its folder goes with `close`."""

    def __init__(self, frames: list[bytes]) -> None:
        self._folder = tempfile.TemporaryDirectory(dir=memory_folder())
        self.frames, self.path = frames, Path(self._folder.name) / "table.jpg"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._put(frames[-1])

    def _put(self, frame: bytes) -> None:
        part = self.path.with_suffix(".part")
        part.write_bytes(frame)
        part.replace(self.path)  # whole frames only: the camera never reads half of one

    def start(self) -> None:
        self._stop.clear()
        self._thread = threading.Thread(target=self._roll, name="bench-film", daemon=True)
        self._thread.start()

    def _roll(self) -> None:
        n = 0
        while not self._stop.wait(CAMERA_INTERVAL):
            self._put(self.frames[n % len(self.frames)])
            n += 1

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def close(self) -> None:
        self.stop()
        self._folder.cleanup()


def _film(tbl: Table, game: int) -> _Film:
    """A film of `game`'s island (rendered, with OpenCV): `HAND_FRAMES` of a hand moving over
    it, then `REST_FRAMES` of it at rest. JPEGs, as a USB webcam's frames come (MJPEG): each
    frame costs the camera's process a decode, as at a table."""
    import cv2
    import numpy as np

    from .engine import board
    from .table import CAMERA
    from .vision import synth

    tiles = tbl.snapshot(game, CAMERA)["tiles"]  # what the camera itself will expect
    positions = {h: tiles.get(h, "sea") for h in board.LAND}
    rng = np.random.default_rng(5)
    size, mode = (1280, 960), "normal"
    view = synth.scene(rng, positions, synth.random_pieces(rng, positions), size, mode)
    light = synth.lighting(rng, size, mode, view.truth.params)
    over = rng.choice(board.LAND, HAND_FRAMES)
    shots = [synth.photo(rng, view, light, int(h)) for h in over]
    shots += [synth.photo(rng, view, light, still=True) for _ in range(REST_FRAMES)]
    quality = [cv2.IMWRITE_JPEG_QUALITY, 90]
    frames = [cv2.imencode(".jpg", shot.image, quality)[1].tobytes() for shot in shots]
    return _Film(frames)


def _watching(camera: Any) -> None:
    _until(lambda: camera.status.startswith("watching"), "the camera watching", 60.0)


def _written(path: Path) -> int:
    """When `path` was last written (0: not yet): the camera writes its calibration once it has
    learnt the island's colours."""
    try:
        return path.stat().st_mtime_ns
    except FileNotFoundError:
        return 0


def _state(process: int) -> str:
    """A process's state letter, as Linux shows it (T: stopped)."""
    stat = Path(f"/proc/{process}/stat").read_text()
    return stat.rsplit(")", 1)[1].split()[0]


def with_camera(presses: int = 4000, clients: int = 8, blocks: int = 20) -> dict[str, float]:
    """``web.button_to_sse_p99_ms_camera`` (and p50): `web` with the camera watching
    (`companion.camera.Camera`, its own process, a frame every `CAMERA_INTERVAL` seconds — more
    often than a Pi needs — of a film of the game's island), and the same presses without it
    (``..._camera_off``), half each, on one served table in `blocks` turns of off then on. This
    machine's speed drifts by tens of percent over minutes, and the p99 of a short run is its
    few worst presses: turns a few seconds long let both figures meet the same drift.

    One camera process serves the whole run, as at a table, where the camera starts once with
    the daemon and learns a game's colours once, as its island is laid: it is started and has
    learnt them before any press is timed. In the off turns its process is stopped
    (``SIGSTOP``: no CPU at all, as if there were no camera) and goes on where it was in the on
    turns. A process started for each on turn put its imports, its calibration and its first
    readings (a fresh process's every page touched for the first time) into each turn, which a
    table's camera never does between two presses. The film rolls through both turns: it stands
    for the world in front of the camera, and its frames are written from this process, so both
    figures bear its writes alike."""
    import signal

    from .camera import Camera

    off: list[float] = []
    on: list[float] = []
    each = presses // blocks
    with _rig(clients) as rig:
        film = _film(rig.tbl, rig.game)
        calibration = rig.folder / "calibration.json"
        watching = Camera(rig.tbl, f"files:{film.path}", calibration, CAMERA_INTERVAL)
        film.start()
        watching.start()
        try:
            _watching(watching)
            _until(lambda: _written(calibration) != 0, "the camera learning", 60.0)
            process = watching.process_id
            assert process is not None
            for block in range(blocks):
                if block % 2 == 1:
                    on += rig.press(each, 2)
                    continue
                os.kill(process, signal.SIGSTOP)
                try:
                    # Stopped once it takes the signal: in the idle class, when a core is free.
                    _until(lambda: _state(process) == "T", "the camera stopping", 60.0)
                    off += rig.press(each, 2)
                finally:
                    os.kill(process, signal.SIGCONT)
        finally:
            watching.stop()
            film.close()
    return {
        "web.button_to_sse_p50_ms_camera": _p(on, 0.5),
        "web.button_to_sse_p99_ms_camera": _p(on, 0.99),
        "web.button_to_sse_p50_ms_camera_off": _p(off, 0.5),
        "web.button_to_sse_p99_ms_camera_off": _p(off, 0.99),
    }


PIN = "135792"
SEATS = 6


def _join(port: int, game: int, n: int, seat: int | None) -> Phone:
    """Phone `n` gives the PIN from 127.0.0.(n+2) and takes `seat` (None: watches); its stream."""
    source = f"127.0.0.{n + 2}"
    cookie = token = ""
    for method, path, body in (
        ("GET", "/api/session", None),
        ("POST", "/api/session/pin", {"pin": PIN}),
        ("POST", "/api/session/seat", {"game": game, "seat": seat}),
    ):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
        headers = {"Cookie": cookie, "Content-Type": "application/json"}
        if method == "POST":
            headers["X-CSRF-Token"] = token
        conn.request(method, path, json.dumps(body) if body else None, headers)
        answer = conn.getresponse()
        data = json.loads(answer.read())
        conn.close()
        if answer.status != 200:
            raise RuntimeError(f"bench web: phone {n}: {path} answered {answer.status}: {data}")
        token = data["csrf"]
        set_cookie = answer.headers.get("Set-Cookie")
        if set_cookie:
            cookie = set_cookie.split(";", 1)[0]
    return (f"/api/games/{game}/stream", cookie, source)


def phones_on_streams(presses: int = 1000, clients: int = 30) -> dict[str, float]:
    """``web.press_to_sse_p99_ms_30_phones``: as `web`, with `clients` phones that joined the
    table with the PIN (6 seated, the rest watching), each on its own stream and address."""
    figures = web(presses=presses, clients=clients, warmup=20, seated=True)
    return {
        "web.press_to_sse_p50_ms_30_phones": figures["web.button_to_sse_p50_ms"],
        "web.press_to_sse_p99_ms_30_phones": figures["web.button_to_sse_p99_ms"],
    }


def _to_movement(tbl: Table, players: int = 4) -> int:
    """A digital game of `players`, played to seat 1's first movement point."""
    args = {"players": [{}] * players, "seed": 1, "mode": "digital", "layout": "random"}
    reply = tbl.call(Command("cli", intent="new_game", args=args))
    game_id = reply.game
    if game_id is None:
        raise RuntimeError(f"bench web: the game did not start: {reply.message}")
    game = Game.new(Rules(), players, 1, "digital")
    for row in tbl.log(game_id, REFEREE):
        game.apply(row["action"])
    while game.phase != "move":
        action = game.legal_actions()[0]
        answer = tbl.call(Command("cli", game.actor, "", game_id, action=list(action)))
        if not answer.accepted:
            raise RuntimeError(f"bench web: the setup move {action} was refused")
        game.apply(action)
    return game_id
