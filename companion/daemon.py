"""The daemon: wires the store, the Table, the secrets and the web server, and tells systemd.

Start order is the order of dependence: the store (the game log must open before anything can
happen), the PIN and secret, the Table's thread, the web app, the listening socket — then
``READY=1`` and the watchdog. A stop (SIGTERM from systemd, Ctrl+C) runs the same way back:
``STOPPING=1``, the web server's threads, the Table, the store.
"""

from __future__ import annotations

import dataclasses
import errno
import gc
import io
import logging
import signal
import sys
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

from . import integrity, notify, security, urls
from .bots.seat import BotSeats
from .camera import Camera
from .commands import Command
from .config import Config
from .panel import Panel, PanelError, open_panel, sim
from .store import Store, StoreError
from .table import Table

if TYPE_CHECKING:
    from .voice.announcer import Announcer

log = logging.getLogger(__name__)

DEMO_PLAYERS = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"}]


class StartError(Exception):
    """The daemon cannot start; the message says why and what to do."""


class Stopped(SystemExit):
    """Raised by the signal handler in the main thread. A SystemExit, because waitress's
    `run()` catches exactly that to shut its worker threads down cleanly."""


def web_app(table: Table, config: Config) -> Any:
    """The WSGI app served (companion.web); imported here so that only the commands that serve
    pay for importing Flask."""
    from .web import create_app

    return create_app(table, config)


def with_security(config: Config, sec: security.Security) -> Config:
    """The config with the PIN and secret in force, so the web app finds them in one place."""
    values = {section: dict(keys) for section, keys in config.values.items()}
    values["security"].update(pin=sec.pin, secret=sec.secret)
    return dataclasses.replace(config, values=values)


def terminal_qr(url: str) -> str:
    """`url` (or any text) as a QR code of Unicode half blocks (segno's compact terminal output): no colour
    codes, so it reads the same on a terminal and in the journal. Empty if it cannot be made."""
    try:
        import segno

        out = io.StringIO()
        segno.make(url, error="m").terminal(out=out, compact=True)
        return out.getvalue()
    except Exception:  # a QR code is a convenience; never stop the start for it
        log.debug("no QR code", exc_info=True)
        return ""


def join_block(keeper: Any) -> str:
    """How a phone joins the table's own network: the Wi-Fi QR code, then the page's."""
    network = keeper.network
    if not keeper.active:
        return "The table's hotspot is down: phones join the Pi on its usual network."
    lines = [
        f"The table is its own Wi-Fi network now: {network.ssid}, password {network.password}.",
        "Scan to join the network:",
        terminal_qr(network.qr_data()).rstrip("\n"),
        f"then scan to open {keeper.page_url} (or {keeper.name_url}):",
        terminal_qr(keeper.page_url).rstrip("\n"),
    ]
    return "\n".join(line for line in lines if line)


YOUNG = 10_000
"""Objects made and not yet freed after which the garbage collector looks at the young ones.
Python's 700 was reached within one command by what it makes and drops again (its views'
snapshots, its events): a pass of 0.1-0.2 ms in one command of 40, and every tenth of those a
pass over the older ones of 0.7-1.4 ms, all inside commands a player waits for (the table
bench's p99 is its one slowest in a hundred). With 10,000 none in 2,000 commands; what only
the collector can free (cycles) waits for as many objects at most."""


def settle() -> None:
    """After start-up: what was built to start (modules, the app, the games loaded) is kept out
    of the garbage collector's full passes, which otherwise walk it all every few hundred
    presses and hold a phone's update for tens of milliseconds; and the collector waits for
    more than a command's passing objects (`YOUNG`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, *gc.get_threshold()[1:])


class Daemon:
    def __init__(
        self,
        config: Config,
        host: str,
        store_path: Path,
        state_dir: Path,
        *,
        port: int | None = None,
        demo_seed: int | None = None,
        notes: tuple[str, ...] = (),
        out: TextIO | None = None,
        err: TextIO | None = None,
    ) -> None:
        self.config = config
        self.host = host
        self.port: int = config["web.port"] if port is None else port
        self.store_path = store_path
        self.state_dir = state_dir
        self.demo_seed = demo_seed
        self.notes = notes
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.store: Store | None = None
        self.table: Table | None = None
        self.bots: BotSeats | None = None
        self.server: Any = None
        self.watchdog: notify.Watchdog | None = None
        self.security: security.Security | None = None
        self.panel: Panel | None = None
        self.camera: Camera | None = None
        self.voice: Announcer | None = None
        self.panel_trouble = ""
        """Why the configured panel did not start (the companion runs without it)."""
        self.keyboard = sim.terminal() if config["panel.kind"] == "sim" else None
        """The terminal the simulated panel reads its keys from, if it runs in one."""
        self.urls: list[str] = []
        self.app: Any = None
        self.hotspot: Any = None
        """The hotspot's keeper (companion.network), unless [network] hotspot is off."""
        self.portal: Any = None
        self.portal_trouble = ""

    # -- starting -------------------------------------------------------------------------

    def start(self) -> None:
        """Everything up to a listening socket and READY=1; StartError if something cannot."""
        notify.notify("STATUS=opening the game log")
        try:
            self.store = Store(self.store_path)
        except (StoreError, OSError) as e:
            raise StartError(f"cannot open the game log {self.store_path}: {e}") from None
        if self.store.recovered:
            print(f"companion: {self.store.recovered}", file=self.err, flush=True)
            log.warning("game log recovered: %s", self.store.recovered)
        # A game still in play that lost rows or no longer replays: said now, not at its first
        # request (`companion doctor` checks the finished ones too).
        for damage in integrity.problems(self.store, unfinished_only=True):
            print(f"companion: {damage}", file=self.err, flush=True)
            log.warning("%s", damage)
        try:
            self.security = security.load(
                self.state_dir, self.config["security.pin"], self.config["security.secret"]
            )
        except OSError as e:
            raise StartError(
                f"cannot keep the table PIN in {self.state_dir}: {e.strerror}; the state "
                "directory must be writable by the user the companion runs as"
            ) from None
        self.table = Table(self.store)
        self.table.start()
        self.bots = BotSeats(self.table)
        self.bots.start()
        if self.demo_seed is not None:
            self._demo_game(self.demo_seed)
        self._start_panel()
        self._start_camera()
        from .web import serving
        from .web.seats import FILENAME, Seats

        self._start_voice()
        app = web_app(self.table, with_security(self.config, self.security))
        app.extensions["companion.voice"] = self.voice
        # Who holds which seat survives a restart, as the phones' cookies do.
        app.extensions["companion.seats"] = Seats(path=self.state_dir / FILENAME)
        if isinstance(self.panel, sim.SimPanel):
            from .web import panel as on_screen

            on_screen.register(app, self.panel.press_from_screen)
        try:
            # create_server binds and listens at once; connections wait in the backlog until
            # serve() runs the loop, so READY=1 after this line is true.
            # waitress with the limits of companion.web.serving (body size, connections per
            # address, idle timeout, forwarding headers passed on to the loopback guard).
            self.server = serving.make_server(app, self.host, self.port, self.config["web.threads"])
        except OSError as e:
            raise StartError(self._bind_error(e)) from None
        self.urls = urls.table_urls(self.host, self._bound_port())
        # The page shows the same address in its QR code as the banner does.
        app.config["TABLE_URLS"] = list(self.urls)
        self.app = app
        self._start_network(app)
        settle()
        status = f"serving on {self.urls[0]}"
        notify.notify("READY=1", f"STATUS={status}")
        interval = notify.watchdog_interval()
        if interval is not None:
            self.watchdog = notify.Watchdog(self.table, interval)
            self.watchdog.status = status
            self.watchdog.start()
        self._banner()

    def _bound_port(self) -> int:
        port = getattr(self.server, "effective_port", None)
        if port is None:  # several sockets (a host name with v4 and v6 addresses)
            port = self.server.effective_listen[0][1]
        return int(port)

    def _bind_error(self, e: OSError) -> str:
        where = f"{self.host}:{self.port}"
        if e.errno == errno.EADDRINUSE:
            return (
                f"port {self.port} is already in use on {self.host} (is another companion "
                "running?): stop it, or choose another port ([web] port, or --port for demo)"
            )
        if e.errno == errno.EACCES:
            return f"not allowed to listen on {where}: ports below 1024 need privileges"
        return f"cannot listen on {where}: {e.strerror or e}"

    def _start_network(self, app: Any) -> None:
        """The hotspot's keeper and the captive-portal port, unless [network] hotspot is off."""
        if self.config["network.hotspot"] == "off":
            return
        from .network import hotspot, listener

        port = self._bound_port()
        streams = app.extensions["companion.streams"]

        def changed(keeper: hotspot.Keeper) -> None:
            # Port 80 is the probes' port: held only while the table is its own network.
            if keeper.active and self.portal is None:
                self.portal, self.portal_trouble = listener.open_portal(
                    app, self.config, self.host, port
                )
            elif not keeper.active and self.portal is not None:
                self.portal.stop()
                self.portal = None
            print(join_block(keeper), file=self.out, flush=True)

        self.hotspot = hotspot.Keeper(
            self.config, self.state_dir, port, busy=lambda: streams.count() > 0, on_change=changed
        )
        app.extensions["companion.network"] = self.hotspot
        self.hotspot.start()

    def _start_panel(self) -> None:
        """The configured panel; one that cannot start is reported, and the table goes on
        without it (the phones can still play)."""
        assert self.table is not None
        kind = self.config["panel.kind"]
        try:
            self.panel = open_panel(self.config, self.table, keyboard=self.keyboard, out=self.out)
            if self.panel is not None:
                self.panel.start()
        except PanelError as e:
            self.panel = None
            self.panel_trouble = f"{kind} panel not started: {e}"
            print(f"companion: {self.panel_trouble}", file=self.err, flush=True)
            log.error("%s", self.panel_trouble)
            self.table.set_status("panel", f"{kind}: error: {e}")

    def _start_camera(self) -> None:
        """The configured camera; without OpenCV (or picamera2) its status says what to
        install, and the table plays on without it."""
        assert self.table is not None
        source = self.config["camera.source"]
        if source == "none":
            return
        from .vision.cli import calibration_path

        self.camera = Camera(self.table, source, calibration_path(self.config))
        self.camera.start()

    def _start_voice(self) -> None:
        """The table's voice, when ``[voice] outlet`` asks for one: a spectator of the Table."""
        if self.config["voice.outlet"] == "none" or self.table is None:
            return
        from .voice.announcer import Announcer

        self.voice = Announcer(
            self.table,
            self.config["game.language"],
            self.config["voice.outlet"],
            self.config["voice.verbosity"],
            self.config["voice.volume"],
        )
        self.voice.start()

    def _demo_game(self, seed: int) -> None:
        assert self.table is not None
        reply = self.table.call(
            Command(
                "cli",
                intent="new_game",
                args={"players": DEMO_PLAYERS, "seed": seed, "mode": "digital"},
            )
        )
        if not reply.accepted:
            log.warning("the demo game could not start: %s", reply.message)

    def _banner(self) -> None:
        assert self.security is not None and self.table is not None
        lines = ["Atlantis companion: the table is open."]
        lines += [f"  {url}" for url in self.urls]
        lines.append(f"  table PIN: {self.security.pin}")
        lines.append(f"  game log:  {self.store_path}")
        source = self.config.source
        lines.append(f"  config:    {source if source else 'no file, built-in defaults'}")
        if self.table.current is not None:
            lines.append(f"  current game: {self.table.current}")
        if self.panel is not None:
            lines.append(f"  panel:     {self.panel.describe()}")
        else:
            lines.append(f"  panel:     {self.panel_trouble or 'none ([panel] kind = none)'}")
        camera = self.camera.describe() if self.camera else "none ([camera] source = none)"
        lines.append(f"  camera:    {camera}")
        hotspot = self.hotspot.describe() if self.hotspot else "off ([network] hotspot = off)"
        lines.append(f"  hotspot:   {hotspot}")
        voice = self.config["voice.outlet"]
        lines.append(f"  voice:     {voice} ([voice] outlet); table screen: {self.urls[0]}table")
        if isinstance(self.panel, sim.SimPanel):
            lines.append(f"  panel page: {self.urls[0]}panel")
        lines += list(self.notes)
        lines.append("Stop with Ctrl+C (as a service: systemctl stop companion).")
        print("\n".join(lines), file=self.out, flush=True)
        qr = terminal_qr(self.urls[0])
        try:
            if qr:
                print(f"Scan to open {self.urls[0]}:", file=self.out)
                print(qr, file=self.out, end="", flush=True)
        except UnicodeEncodeError:  # an output that cannot show the blocks: the URL will do
            print("(no QR code: this output cannot show it)", file=self.out, flush=True)

    # -- running and stopping -------------------------------------------------------------

    def end_streams(self) -> None:
        """Ask the web app's open event streams to end now (safe in a signal handler: it only
        puts on their queues)."""
        if self.app is not None:
            from .web import end_streams

            end_streams(self.app)

    def serve(self) -> None:
        """Serve until a signal raises `Stopped` (waitress's run() catches it and returns)."""
        self.server.run()

    def stop(self) -> None:
        """Undo whatever `start` did, in reverse order; safe to call after a failed start."""
        notify.notify("STOPPING=1", "STATUS=stopping")
        if self.watchdog is not None:
            self.watchdog.stop()
        # The hotspot itself stays up: phones keep their network across a restart.
        if self.hotspot is not None:
            self.hotspot.stop()
        if self.portal is not None:
            self.portal.stop()
            self.portal = None
        if self.voice is not None:
            # Before the server: a table screen's wait for news holds one of its threads.
            self.voice.stop()
            self.voice = None
        if self.server is not None:
            self.end_streams()  # open event streams hold threads: end them first
            # run() already shut the worker threads down when a signal ended it; this also
            # covers a stop before run() started.
            self.server.task_dispatcher.shutdown(timeout=2)
            self.server.close()
            self.server = None
        if self.panel is not None:
            self.panel.stop()
            self.panel = None
        if self.camera is not None:
            self.camera.stop()
            self.camera = None
        if self.bots is not None:
            self.bots.stop()
            self.bots = None
        if self.table is not None:
            self.table.stop()
        if self.store is not None:
            self.store.close()


def run(daemon: Daemon) -> int:
    """Start, serve until SIGTERM or SIGINT, stop cleanly. The exit status: 0 after a clean stop,
    1 when the start failed."""
    received: list[int] = []
    stopping = False

    def on_signal(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        received.append(signum)
        if stopping:  # a second Ctrl+C must not break the clean-up under way
            return
        stopping = True
        # waitress's run() waits for its worker threads as soon as Stopped reaches it; an open
        # event stream holds one until its next ping (15 s): tell the streams to end first.
        daemon.end_streams()
        raise Stopped(128 + signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        try:
            daemon.start()
            daemon.serve()
        except StartError as e:
            print(f"companion: {e}", file=daemon.err, flush=True)
            notify.notify(f"STATUS=failed to start: {e}")
            return 1
        except Stopped:  # a signal during the start
            pass
        finally:
            stopping = True
            daemon.stop()
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
    if received:
        log.info("stopped by %s", signal.Signals(received[0]).name)
        return 0
    log.error("the web server stopped by itself")
    return 1


def setup_logging() -> None:
    # Under systemd stderr is the journal, which adds its own time stamps.
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
