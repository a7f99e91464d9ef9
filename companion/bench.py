"""`companion bench`: the figures this machine reaches, as one flat JSON object.

Every key of ``figures`` has one fixed meaning (architecture brief, "Benchmarks"); ``meta`` says
which machine, software and commit produced them. A section that cannot run here says why in
``meta.skipped`` and adds no figures.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import queue
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

from . import compiled
from .commands import REFEREE, SPECTATOR, Command, Event
from .config import state_directory
from .daemon import settle
from .engine import Game, Rules
from .mounts import filesystem, memory_folder
from .store import Store
from .table import Subscriber, Table

SECTIONS = ("engine", "table", "web", "panel", "vision", "bots", "voice")


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith(("model name", "Model")):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            timeout=5,
            cwd=os.path.dirname(__file__),
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _versions() -> dict[str, str]:
    out = {}
    for name in (
        "atlantis-companion",
        "flask",
        "waitress",
        "pyserial",
        "gpiozero",
        "numpy",
        "opencv-python-headless",
    ):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def meta() -> dict[str, Any]:
    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "versions": _versions(),
        "commit": _commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "skipped": {},
    }


ALL_KITS = Rules(("base", "five-six", "overpopulated", "dive-dice", "squid"))
"""The heaviest table: 6 players with every kit of the mini-expansion box."""
ESCAPE_1986 = Rules(("escape-1986",))


def playouts(rules: Rules, players: int, seconds: float) -> tuple[float, float]:
    """Uniform random games for about `seconds` on one core: (games per second, decisions a game)."""
    rng = random.Random(1)
    games = decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds or games < 20:
        decisions += Game.new(rules, players, seed=games).playout(rng)
        games += 1
    return games / (time.perf_counter() - start), decisions / games


def engine(seconds: float = 4.0) -> dict[str, float]:
    """The engine imported here, then (when this one is pure and `make compiled` built it) the
    compiled engine in a process of its own: its figures end in ``_compiled``."""
    figures = engine_here(seconds)
    folder = compiled.build()
    if compiled.running() or folder is None:
        return figures
    out = subprocess.run(
        [sys.executable, "-c", _COMPILED_RUN, str(seconds)],
        cwd=folder,  # python -c puts the current folder first: the compiled package
        env=compiled.environment(folder),
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(out.stdout)
    if not report["compiled"]:
        raise RuntimeError(f"bench engine: {folder} did not import the compiled engine")
    figures.update({f"{k}_compiled": v for k, v in report["figures"].items()})
    return figures


_COMPILED_RUN = """
import json, sys
from companion import bench, compiled
figures = bench.engine_here(float(sys.argv[1]))
print(json.dumps({"compiled": compiled.running(), "figures": figures}))
"""


def engine_here(seconds: float = 4.0) -> dict[str, float]:
    """Uniform random playouts of the base game with 4 players, on one core."""
    rules = Rules()
    per_s, per_game = playouts(rules, 4, seconds)
    all_kits, _ = playouts(ALL_KITS, 6, seconds)
    escape_1986, _ = playouts(ESCAPE_1986, 4, seconds)
    # One apply plus the legal_actions that follows it, timed per decision.
    rng = random.Random(1)
    samples: list[float] = []
    seed = 10_000
    while len(samples) < 10_000:
        game = Game.new(rules, 4, seed=seed)
        seed += 1
        while not game.over:
            action = game.draw() if game.is_chance() else rng.choice(game.legal_actions())
            t0 = time.perf_counter()
            game.apply(action)
            game.legal_actions()
            samples.append(time.perf_counter() - t0)
    samples.sort()
    return {
        "engine.playouts_per_s": round(per_s, 1),
        "engine.decisions_per_game": round(per_game, 1),
        "engine.action_p99_ms": round(1000 * samples[int(0.99 * len(samples))], 4),
        "engine.playouts_per_s_all_kits": round(all_kits, 1),
        "engine.playouts_per_s_1986": round(escape_1986, 1),
    }


def store_path() -> Path:
    """Where the `table` section keeps its store: beside the real one, on the same filesystem.

    The state directory when it exists (the companion's own, on the Pi the SD card), else the
    current directory; a folder of its own, removed afterwards.
    """
    base = state_directory()
    if not (base.is_dir() and os.access(base, os.W_OK)):
        base = Path.cwd()
    return base / f"companion-bench-{os.getpid()}" / "games.db"


def _p(samples: list[float], q: float) -> float:
    samples = sorted(samples)
    return round(1000 * samples[min(len(samples) - 1, int(q * len(samples)))], 3)


def table(commands: int = 2000, fsyncs: int = 300) -> dict[str, float]:
    """A started Table on a real store on disk, played as a table of four plays a digital game,
    with a phone open for each seat, a watcher's and the table's own (referee) view.

    ``table.command_p99_ms``: one command (a move, or ROLL/DRAW when the game waits for chance),
    from `submit` until the sender has its Reply — by then every one of the six subscribers of
    distinct views holds every event the command caused, the new state among them (the Table
    delivers before it answers): checked, stored with ``synchronous=FULL`` together with the
    tile backs the Table draws after it, published; random legal moves of 4-player digital
    games, ``commands`` samples, game starts not counted. ``table.fsyncs_per_command``: the
    store's COMMITs per command (in WAL mode with ``synchronous=FULL`` each is one fsync of the
    log; a checkpoint's now and then aside). ``table.cpu_per_command_ms``: the CPU time of the
    Table's thread over the run (game starts included) per command timed — what a busy machine
    changes least. ``store.fsync_p99_ms``: ``os.fsync`` after a
    64-byte append to a file beside that store, ``fsyncs`` samples.

    ``table.command_p99_ms_tmpfs``: the same commands again with the store in memory (tmpfs,
    where an fsync returns at once), when there is one: what the Table's work and the machine's
    scheduling take without the disk, so that the disk's share of the first figure shows. Never
    a figure of the companion's own store, which is on a disk.

    ``table.steal_percent``: of the CPU time that passed during the commands on disk, the share
    a virtual machine's host took for others (/proc/stat's "steal"; 0 on a Pi): a core taken
    away for milliseconds stalls whatever ran on it, which no code or scheduler here can avoid,
    so a p99 measured with it is the host's.
    """
    path = store_path()
    path.parent.mkdir(parents=True)
    try:
        before = _cpu_ticks()
        figures = _commands(path, commands)
        after = _cpu_ticks()
        figures.update(_fsyncs(path.parent / "fsync-probe", fsyncs))
    finally:
        shutil.rmtree(path.parent, ignore_errors=True)
    if before is not None and after is not None and after[1] > before[1]:
        stolen = 100 * (after[0] - before[0]) / (after[1] - before[1])
        figures["table.steal_percent"] = round(stolen, 2)
    memory = memory_folder()
    if memory is not None:
        with tempfile.TemporaryDirectory(prefix="companion-bench-", dir=memory) as folder:
            in_memory = _commands(Path(folder) / "games.db", commands)
        figures["table.command_p99_ms_tmpfs"] = in_memory["table.command_p99_ms"]
    return figures


def _cpu_ticks() -> tuple[int, int] | None:
    """(stolen, all) CPU time since boot, in ticks, from /proc/stat; None where it is not
    there."""
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            ticks = [int(n) for n in f.readline().split()[1:9]]
    except (OSError, ValueError):
        return None
    return (ticks[7], sum(ticks)) if len(ticks) == 8 else None


VIEWS: tuple[int | str, ...] = (0, 1, 2, 3, SPECTATOR, REFEREE)
"""The bench's subscribers: each seat's phone, a watcher, the table's own view."""


def _commands(
    path: Path, commands: int, attach: Callable[[Table], Callable[[], None]] | None = None
) -> dict[str, float]:
    """`attach`, if given, adds a listener to the started Table (the voice) and returns what
    stops it."""
    store = Store(path)
    commits = 0

    def traced(statement: str) -> None:
        nonlocal commits
        commits += statement == "COMMIT"

    store.db.set_trace_callback(traced)
    tbl = Table(store)
    tbl.start()
    settle()  # as the daemon does once started
    detach = attach(tbl) if attach is not None else None
    inboxes: dict[int | str, queue.SimpleQueue[Event]] = {v: queue.SimpleQueue() for v in VIEWS}
    for view, inbox in inboxes.items():
        tbl.subscribe(Subscriber(None, view, inbox.put))
    rng = random.Random(1)
    samples: list[float] = []
    seed = during = 0
    cpu = tbl.read(time.thread_time)
    try:
        while len(samples) < commands:
            seed += 1
            args = {"players": [{}] * 4, "seed": seed, "mode": "digital", "layout": "random"}
            started = tbl.call(Command("cli", intent="new_game", args=args))
            state = _last_state(inboxes)
            while state["state"]["phase"] != "over" and len(samples) < commands:
                command = _next_command(state, started.game, rng)
                before = commits
                t0 = time.perf_counter()
                reply = tbl.submit(command).result(10)
                samples.append(time.perf_counter() - t0)
                during += commits - before
                if not reply.accepted:
                    raise RuntimeError(f"the Table refused {command}: {reply.message}")
                state = _last_state(inboxes)
        cpu = tbl.read(time.thread_time) - cpu
    finally:
        if detach is not None:
            detach()
        tbl.stop()
        store.close()
    return {
        "table.command_p50_ms": _p(samples, 0.5),
        "table.command_p99_ms": _p(samples, 0.99),
        "table.fsyncs_per_command": round(during / len(samples), 3),
        "table.cpu_per_command_ms": round(1000 * cpu / len(samples), 3),
    }


def _last_state(inboxes: dict[int | str, queue.SimpleQueue[Event]]) -> dict[str, Any]:
    """Empty every subscriber's inbox (each must have had a new state); the referee's state."""
    states: dict[int | str, dict[str, Any]] = {}
    for view, inbox in inboxes.items():
        while not inbox.empty():
            event = inbox.get()
            if event.kind in ("state", "new_game"):
                states[view] = event.data
        if view not in states:
            raise RuntimeError(f"bench table: the {view} view was told no new state")
    return states[REFEREE]


def _next_command(state: dict[str, Any], game: int | None, rng: random.Random) -> Command:
    """A random legal move of the seat deciding, or DRAW when the game waits for chance (the
    die; the Table draws tile backs by itself in a digital game)."""
    if "legal" in state:
        seat = state["state"]["actor"]
        return Command("phone", seat, "", game, action=rng.choice(state["legal"]))
    return Command("gpio", None, "", game, intent="draw")


def _fsyncs(probe: Path, count: int) -> dict[str, float]:
    samples: list[float] = []
    fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        for _ in range(count):
            os.write(fd, b"x" * 63 + b"\n")
            t0 = time.perf_counter()
            os.fsync(fd)
            samples.append(time.perf_counter() - t0)
    finally:
        os.close(fd)
    return {"store.fsync_p99_ms": _p(samples, 0.99)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="utf-8") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def daemon(idle: float = 1.0, timeout: float = 30.0) -> dict[str, float]:
    """`companion serve` started as systemd starts it, timed from the fork.

    ``daemon.ready_s``: until READY=1 reaches a notify socket (``$NOTIFY_SOCKET``);
    ``daemon.first_response_s``: until the first HTTP 200 from /api/games (polled from the
    start, so it does not wait for READY); ``daemon.rss_mb``: the process's VmRSS after
    `idle` seconds of rest following that first response.
    """
    executable = Path(sys.executable).parent / "companion"
    command = [str(executable)] if executable.is_file() else [sys.executable, "-m", "companion.cli"]
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        port = _free_port()
        config = Path(folder) / "companion.toml"
        config.write_text(
            f'[store]\npath = "{folder}/games.db"\n[web]\nhost = "127.0.0.1"\nport = {port}\n',
            encoding="utf-8",
        )
        env = {k: v for k, v in os.environ.items() if not k.startswith(("NOTIFY_", "WATCHDOG_"))}
        env.pop("COMPANION_CONFIG", None)
        ready: list[float] = []
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.bind(f"{folder}/notify")
            sock.settimeout(timeout)
            env.update(NOTIFY_SOCKET=f"{folder}/notify", STATE_DIRECTORY=folder)

            def listen() -> None:
                try:
                    while b"READY=1" not in sock.recv(4096):
                        pass
                except OSError:
                    return
                ready.append(time.perf_counter())

            listener = threading.Thread(target=listen, daemon=True)
            listener.start()
            start = time.perf_counter()
            proc = subprocess.Popen(
                [*command, "serve", "--config", str(config)],
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            try:
                first = _first_200(f"http://127.0.0.1:{port}/api/games", proc, start + timeout)
                listener.join(timeout)
                if not ready:
                    raise RuntimeError("the daemon answered HTTP but never sent READY=1")
                time.sleep(idle)  # let start-up garbage settle: the figure is the idle size
                rss = _rss_mb(proc.pid)
            finally:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
    return {
        "daemon.ready_s": round(ready[0] - start, 3),
        "daemon.first_response_s": round(first - start, 3),
        "daemon.rss_mb": round(rss, 1),
    }


def _first_200(url: str, proc: subprocess.Popen[bytes], deadline: float) -> float:
    while time.perf_counter() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"companion serve exited with status {proc.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                if r.status == 200:
                    return time.perf_counter()
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.005)
    raise RuntimeError(f"no HTTP 200 from {url} in time")


class Skipped(Exception):
    """A measuring function that cannot run on this machine; the message says why."""


def panel(presses: int = 500, replugs: int = 3, unplugged: float = 1.6) -> dict[str, float]:
    """The serial panel: the Pico's firmware under CPython on a pty (`companion.panel.fakepico`)
    against the companion's `SerialPanel`, with a started Table on a store in a temporary folder.

    ``panel.serial_event_p50_ms``/``_p99_ms``: from the firmware writing the line that completes
    a short press (its ``release``) until the companion hands the press to the Table
    (``Table.submit_for_step``, which looks the game's step up on the Table's thread and carries
    out the command it means: `presses.carry_out`): the pty, pyserial, parsing. `presses`
    UNDO presses while people are placed (each one a table command, refused: nothing to undo);
    the firmware's debounce (10 ms) is not included, its clock runs ahead while a button is down.
    ``panel.reconnect_s``: the worst of `replugs` unplugs of `unplugged` seconds each (long enough
    for the companion's back-off to reach its cap), from a new pty with a started firmware until
    the Table hears ``serial: connected``.
    """
    from .panel.fakepico import FIRMWARE, FakePico
    from .panel.serial import SerialPanel

    if not (FIRMWARE / "main.py").is_file():
        raise Skipped(f"no firmware at {FIRMWARE}: run from a source checkout")

    class StampedTable(Table):
        """A Table that notes when each serial command reaches it."""

        def __init__(self, store: Store) -> None:
            super().__init__(store)
            self.stamps: list[float] = []

        def submit_for_step(self, choose: Any) -> Any:
            self.stamps.append(time.perf_counter())  # only the serial panel presses here
            return super().submit_for_step(choose)

    with tempfile.TemporaryDirectory(prefix="companion-bench-") as folder:
        store = Store(Path(folder) / "games.db")
        tbl = StampedTable(store)
        tbl.start()
        pico = FakePico()
        pico.plug()
        serial_panel = SerialPanel(tbl, find=lambda: pico.path)
        serial_panel.start()

        def until(done: Callable[[], bool], what: str, timeout: float = 5.0) -> float:
            deadline = time.perf_counter() + timeout
            while not done():
                if time.perf_counter() > deadline:
                    raise RuntimeError(f"bench panel: {what} did not happen in {timeout} s")
                time.sleep(0.0002)
            return time.perf_counter()

        def connected() -> bool:
            status: str = tbl.read(lambda: tbl.status["panel"])
            return status.startswith("serial: connected")

        try:
            until(connected, "the first connection")
            args = {"players": [{}] * 4, "seed": 1, "mode": "digital", "layout": "random"}
            tbl.call(Command("cli", intent="new_game", args=args))
            samples: list[float] = []
            for _ in range(presses):
                count, refused = len(tbl.stamps), serial_panel.counters.refused
                release = pico.press("undo")

                def answered(before: int = refused) -> bool:
                    return serial_panel.counters.refused > before

                until(answered, "the refusal of UNDO")
                if len(tbl.stamps) != count + 1:
                    raise RuntimeError("bench panel: a press did not make one table command")
                samples.append(tbl.stamps[-1] - release["_at"])
            waits: list[float] = []
            for _ in range(replugs):
                pico.unplug()
                until(lambda: not connected(), "noticing the unplug")
                time.sleep(unplugged)
                pico.plug()
                start = time.perf_counter()
                waits.append(until(connected, "the reconnection") - start)
        finally:
            serial_panel.stop()
            pico.unplug()
            tbl.stop()
            store.close()
    return {
        "panel.serial_event_p50_ms": _p(samples, 0.5),
        "panel.serial_event_p99_ms": _p(samples, 0.99),
        "panel.reconnect_s": round(max(waits), 3),
    }


def vision() -> dict[str, float]:
    """Recognition on synthetic photos, and time per frame (`companion.vision.bench`)."""
    try:
        from .vision import bench as vision_bench
    except ImportError as e:
        raise Skipped(
            f"OpenCV or numpy is not importable ({e}): pip install '.[vision]', or on the Pi "
            "apt's python3-opencv"
        ) from None
    return vision_bench.run()


RUNNERS: dict[str, Callable[[], dict[str, float]]] = {
    "engine": engine,
    "panel": panel,
    "vision": vision,
}


def _chain(*runners: Callable[[], dict[str, float]]) -> Callable[[], dict[str, float]]:
    def run_all() -> dict[str, float]:
        figures: dict[str, float] = {}
        for runner in runners:
            figures.update(runner())
        return figures

    return run_all


# The `table` section gathers several measuring functions: the Table's own (`table`:
# table.command_*, store.fsync_p99_ms) and the daemon's (`daemon`: daemon.ready_s,
# daemon.first_response_s, daemon.rss_mb). A new one joins the chain rather than replacing it.
RUNNERS["table"] = _chain(table, daemon)


def web() -> dict[str, float]:
    """The `web` section: companion.bench_web (imported here: it needs Flask and gpiozero), 2000
    presses with 8 phones (``web.button_to_sse_*``) and with 16 (``..._16_phones``)."""
    from . import bench_web

    sixteen = bench_web.web(clients=16)
    return {
        **bench_web.web(clients=8),
        "web.button_to_sse_p50_ms_16_phones": sixteen["web.button_to_sse_p50_ms"],
        "web.button_to_sse_p99_ms_16_phones": sixteen["web.button_to_sse_p99_ms"],
    }


def web_phones() -> dict[str, float]:
    """The `web` section's phones: 30 that joined with the PIN, on streams of their own."""
    from . import bench_web

    return bench_web.phones_on_streams()


def web_camera() -> dict[str, float]:
    """The `web` section with the camera on (its own process); nothing without OpenCV."""
    from . import bench_web

    try:
        import cv2  # noqa: F401
    except ImportError:
        return {}
    return bench_web.with_camera()


RUNNERS["web"] = _chain(web, web_phones, web_camera)


def bots() -> dict[str, float]:
    """The `bots` section: companion.bench_bots (its games take minutes; see there)."""
    from . import bench_bots

    return bench_bots.bots()


RUNNERS["bots"] = bots


def voice() -> dict[str, float]:
    """The `voice` section: companion.voice.bench."""
    from .voice import bench as voice_bench

    return voice_bench.voice()


RUNNERS["voice"] = voice


def run(sections: list[str]) -> dict[str, Any]:
    info = meta()
    figures: dict[str, float] = {}
    for section in sections or SECTIONS:
        runner = RUNNERS.get(section)
        if runner is None:
            info["skipped"][section] = "not built yet in this version"
            continue
        if section == "engine":  # pure Python or compiled by mypyc (`make compiled`)
            info["engine.compiled"] = compiled.running()
        if section == "table":  # the figures depend on the disk: say which one
            info["store_path"] = str(store_path())
            info["store_fs"] = filesystem(store_path().parent.parent)[1]
        try:
            figures.update(runner())
        except Skipped as e:
            info["skipped"][section] = str(e)
    return {"meta": info, "figures": figures}
