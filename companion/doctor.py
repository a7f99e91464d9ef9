"""`companion doctor`: what works on this machine, and what to do about what does not.

Each check ends ``ok``, ``warn`` (missing, but nothing the configuration asks for) or ``fail``
(broken, or missing while the configuration needs it: a GPIO panel with no pin factory, a
camera source that cannot open, a game log that fails its integrity check). Only ``fail``
changes the exit status, so a development PC without GPIO is healthy.
"""

from __future__ import annotations

import glob
import importlib
import os
import shutil
import socket
import sqlite3
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .config import SEARCH, Config
from .mounts import filesystem

PICO = (0x2E8A, 0x0005)
"""USB vendor:product of a Raspberry Pi Pico running MicroPython."""
FRAGILE_FS = {
    "vfat": "FAT loses data at a power cut; keep the game log on ext4",
    "exfat": "exFAT loses data at a power cut; keep the game log on ext4",
    "ntfs": "NTFS is not a good home for SQLite on Linux; keep the game log on ext4",
    "tmpfs": "tmpfs is in memory: every game is lost at reboot",
    "overlay": "an overlay file system (raspi-config's overlay?) forgets every game at reboot",
}


@dataclass(frozen=True)
class Check:
    name: str
    status: str  # ok | warn | fail
    text: str
    advice: str = ""


def board_model() -> str | None:
    try:
        return Path("/proc/device-tree/model").read_text(errors="replace").rstrip("\0\n")
    except OSError:
        return None


# -- GPIO ---------------------------------------------------------------------------------


def gpio(config: Config) -> Check:
    needed = config["panel.kind"] == "gpio"
    bad = "fail" if needed else "warn"
    on_pi = board_model() is not None and "Raspberry Pi" in (board_model() or "")
    install = (
        "install it: sudo apt install python3-lgpio, in a venv made with --system-site-packages"
    )
    try:
        from gpiozero import Device
    except Exception as e:
        return Check("gpio", bad, f"gpiozero cannot be imported: {e}", "pip install gpiozero")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            Device.ensure_pin_factory()
            factory = Device.pin_factory
        except Exception as e:
            # gpiozero warns once per factory it tried ("Falling back from lgpio: ...").
            tried = [str(w.message).removeprefix("Falling back from ") for w in caught]
            why = "; ".join(tried) or str(e)
            advice = install if on_pi else "no GPIO on this machine (not a Raspberry Pi)"
            if not on_pi:
                advice += f"; on a Pi, {install}"
            return Check("gpio", bad, f"no pin factory ({why})", advice)
    name = type(factory).__name__
    try:
        factory.close()
    finally:
        Device.pin_factory = None
    fallback = "; ".join(str(w.message) for w in caught)
    if name in ("MockFactory", "NativeFactory") or fallback:
        return Check("gpio", "warn", f"pin factory {name} ({fallback or 'by request'})", install)
    return Check("gpio", "ok", f"pin factory {name}")


# -- panel --------------------------------------------------------------------------------


def panel(config: Config) -> Check:
    """Which panel [panel] kind names, and for GPIO its pins from the pinout file."""
    kind = config["panel.kind"]
    if kind == "none":
        return Check("panel", "ok", "none ([panel] kind = none): the game is played from phones")
    if kind == "sim":
        return Check("panel", "ok", "simulated: keys r/n/u on the terminal, /panel in a browser")
    if kind == "serial":
        port = config["panel.port"]
        return Check("panel", "ok", f"a Pico on USB serial, port {port} (see the serial check)")
    from .panel import pinout

    path = pinout.find(config["panel.pinout"])
    try:
        pins = pinout.load(path)
    except pinout.PinoutError as e:
        return Check("panel", "fail", str(e), "fix the pinout file, or set [panel] pinout")
    text = f"GPIO on the 40-pin header: {pins.summary()} (from {path})"
    clashes = pins.clashes()
    if clashes:
        return Check("panel", "warn", text, "; ".join(clashes) + ": fine if nothing else needs it")
    return Check("panel", "ok", text)


# -- serial -------------------------------------------------------------------------------


def serial_ports(config: Config) -> Check:
    needed = config["panel.kind"] == "serial"
    try:
        from serial.tools import list_ports
    except Exception as e:
        return Check("serial", "fail" if needed else "warn", f"pyserial missing: {e}")
    ports = sorted(list_ports.comports(), key=lambda p: p.device)
    picos = [p.device for p in ports if (p.vid, p.pid) == PICO]
    described = [
        f"{p.device}"
        + (f" {p.vid:04X}:{p.pid:04X}" if p.vid is not None and p.pid is not None else "")
        + (" (Raspberry Pi Pico)" if p.device in picos else "")
        for p in ports
    ]
    listing = ", ".join(described) or "no serial ports"
    if not needed:
        return Check("serial", "ok", listing)
    wanted = config["panel.port"]
    how = "configured in [panel] port"
    if wanted == "auto":
        if not picos:
            return Check(
                "serial",
                "fail",
                f"no Pico (USB 2E8A:0005) found; {listing}",
                "plug the panel's Pico in, or set [panel] port to its device",
            )
        wanted, how = picos[0], "found by USB id 2E8A:0005"
    if not os.path.exists(wanted):
        return Check("serial", "fail", f"{wanted} does not exist; {listing}")
    if not os.access(wanted, os.R_OK | os.W_OK):
        return Check(
            "serial",
            "fail",
            f"{wanted} is not readable and writable by this user",
            "add the user to the dialout group (the service gets it from SupplementaryGroups=)",
        )
    return _serial_panel(wanted, f"{wanted} ({how})")


def _serial_panel(path: str, where: str) -> Check:
    """Ask the panel on `path` for its hello, as the companion does when it connects."""
    from serial import SerialException

    from .panel import serial as serial_panel
    from .panel.wire import PROTO

    try:
        hello = serial_panel.probe(path)
    except TimeoutError:  # before OSError, whose subclass it is
        return Check(
            "serial", "fail", f"{where}: no answer from the panel",
            "its firmware is not running: flash it (firmware/README.md), or press its reset",
        )  # fmt: skip
    except (SerialException, OSError) as e:
        if serial_panel.busy(e):
            return Check(
                "serial", "warn", f"{where} is held by another program, so it was not asked",
                "fine if the companion runs (`systemctl status companion`; its phones show "
                "the panel's state); otherwise close mpremote, Thonny or screen",
            )  # fmt: skip
        return Check("serial", "fail", f"{where} cannot be opened: {e}")
    text = f"panel on {where} answers: firmware {hello.firmware}, protocol {hello.proto}"
    if hello.proto != PROTO:
        return Check(
            "serial", "fail", f"{text}; this companion speaks protocol {PROTO}",
            "copy this version's firmware/pico onto the panel (firmware/README.md)",
        )  # fmt: skip
    return Check("serial", "ok", f"{text}, buttons {', '.join(hello.buttons)}")


# -- camera -------------------------------------------------------------------------------


def _importable(name: str) -> str | None:
    """The module's version if it imports, else None."""
    try:
        module = importlib.import_module(name)
    except Exception:
        return None
    return str(getattr(module, "__version__", "installed"))


def camera(config: Config) -> Check:
    source: str = config["camera.source"]
    picam = _importable("picamera2")
    cv2 = _importable("cv2")
    videos = sorted(glob.glob("/dev/video*"))
    found = (
        f"picamera2 {'importable' if picam else 'not importable'}, "
        f"OpenCV {cv2 or 'not importable'}, {', '.join(videos) or 'no /dev/video*'}"
    )
    if source == "none":
        return Check("camera", "ok", f"not used ([camera] source = none); {found}")
    if source == "picamera2" and not picam:
        return Check(
            "camera",
            "fail",
            found,
            "sudo apt install python3-picamera2, in a venv made with --system-site-packages",
        )
    if source.startswith("usb:") and f"/dev/video{source[4:]}" not in videos:
        return Check("camera", "fail", f"/dev/video{source[4:]} missing; {found}")
    if source.startswith("files:") and not os.path.exists(source[6:]):
        return Check("camera", "fail", f"{source[6:]} does not exist; {found}")
    if source != "picamera2" and not cv2:
        return Check("camera", "fail", found, "sudo apt install python3-opencv")
    return Check("camera", "ok", f"source {source}; {found}")


def calibration(config: Config) -> Check:
    """The camera's calibration (`companion vision calibrate`): there, readable, and made with
    the markers now in use."""
    from .vision.cli import calibration_path

    configured = config["camera.calibration"]
    if config["camera.source"] == "none" and not configured:
        return Check("calib", "ok", "not needed ([camera] source = none)")
    path = calibration_path(config)
    make = "make it with `companion vision calibrate` from a photo of the laid-out board"
    if not path.is_file():
        return Check(
            "calib", "fail" if configured else "warn",
            f"no calibration at {path}: the camera can tell land from sea, not the terrain",
            make,
        )  # fmt: skip
    if not _importable("cv2"):
        return Check("calib", "warn", f"{path}: not checked, OpenCV is not importable")
    from .vision.calibrate import CalibrationError, load
    from .vision.markers import MarkersError
    from .vision.markers import default_path as default_markers
    from .vision.markers import load as load_markers

    try:
        made = load(path)
    except CalibrationError as e:
        return Check("calib", "fail", str(e), f"{make}; it replaces the file")
    try:
        markers = load_markers()
    except MarkersError as e:
        return Check("calib", "fail", str(e), f"fix {default_markers()}")
    if made.markers != markers.fingerprint():
        return Check(
            "calib", "fail",
            f"{path} was not made with the markers of {default_markers()}",
            f"lay the markers as that file says, then {make}",
        )  # fmt: skip
    if not made.confirmed:
        return Check(
            "calib", "warn", f"{path}: the terrain of each position is the camera's guess",
            "check it (companion vision calibrate shows it) and calibrate again with --layout",
        )  # fmt: skip
    lens = "no lens model (taken as straight)" if made.lens is None else made.lens.describe()
    laid = f"{len(made.laid)} markers measured where laid" if made.laid else "markers as printed"
    if made.lens is None or not made.laid:
        return Check(
            "calib", "warn", f"{path}: {lens}; {laid}",
            f"{make} again: it measures the lens and where the markers lie",
        )  # fmt: skip
    return Check(
        "calib", "ok", f"{path}, made from {made.source or 'a setup photo'}; {lens}; {laid}"
    )


# -- store --------------------------------------------------------------------------------


SERVICE_STATE = Path("/var/lib/companion")


def store(config: Config) -> Check:
    check = _store(config)
    # Run from a login shell, the companion looks in the user's folder, not the service's.
    path = config.store_path
    service = SERVICE_STATE / "games.db"
    if not os.environ.get("STATE_DIRECTORY") and path != service and SERVICE_STATE.exists():
        hint = (
            f"the service keeps its games in {SERVICE_STATE}: check that one with "
            f"sudo -u companion STATE_DIRECTORY={SERVICE_STATE} companion doctor"
        )
        advice = f"{check.advice}; {hint}" if check.advice else hint
        return Check(
            check.name, "warn" if check.status == "ok" else check.status, check.text, advice
        )
    return check


def unreadable(path: Path) -> str | None:
    """Why the game log at `path` cannot be read now, or None; opened read-only, never changed."""
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=2)
        try:
            check = db.execute("PRAGMA quick_check").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as e:
        return str(e)
    return None if check == "ok" else f"quick_check says {check}"


def _store(config: Config) -> Check:
    path = config.store_path
    mount, fstype = filesystem(path)
    where = f"{path} (on {mount}, {fstype})"
    fragile = FRAGILE_FS.get(fstype, "")
    if not path.exists():
        parent = path.parent
        while not parent.exists():
            parent = parent.parent
        if not os.access(parent, os.W_OK):
            return Check(
                "store", "fail", f"{where} cannot be created: {parent} is not writable", fragile
            )
        return Check(
            "store", "warn" if fragile else "ok", f"{where}: the first start creates it", fragile
        )
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            integrity = [r[0] for r in db.execute("PRAGMA integrity_check")]
            journal = db.execute("PRAGMA journal_mode").fetchone()[0]
            games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        finally:
            db.close()
    except sqlite3.Error as e:
        if not os.access(path, os.R_OK):
            return Check(
                "store", "warn", f"{where}: not readable by this user",
                "run doctor as the service's user: sudo -u companion companion doctor",
            )  # fmt: skip
        return Check(
            "store", "fail", f"{where}: {e}",
            "stop the companion; its next start moves the file aside and starts a new log",
        )  # fmt: skip
    if integrity != ["ok"]:
        return Check(
            "store", "fail", f"{where}: integrity_check says {'; '.join(integrity[:3])}",
            f"stop the companion; try `sqlite3 {path} .recover`; its next start moves it aside",
        )  # fmt: skip
    text = f"{where}: {games} game(s), integrity ok, journal {journal}"
    if journal != "wal":
        return Check("store", "warn", text, "the next start of the companion turns WAL on")
    return Check("store", "warn" if fragile else "ok", text, fragile)


# -- config and web -----------------------------------------------------------------------


def config_file(config: Config) -> Check:
    if config.source is None:
        return Check(
            "config", "ok", "no file: built-in defaults",
            f"to change them, write {SEARCH[0]} (or pass --config)",
        )  # fmt: skip
    return Check("config", "ok", f"{config.source}")


def web_port(config: Config) -> Check:
    host = config["web.host"] or "0.0.0.0"
    port = config["web.port"]
    try:
        with socket.create_server((host, port)):
            pass
    except OSError as e:
        return Check(
            "web", "warn", f"cannot listen on {host}:{port} now ({e.strerror})",
            "fine if the companion is running; otherwise set another [web] port",
        )  # fmt: skip
    return Check("web", "ok", f"{host}:{port} is free")


def hotspot(config: Config) -> Check:
    from .network import doctor

    return doctor.hotspot(config)


def portal(config: Config) -> Check:
    from .network import doctor

    return doctor.portal(config)


# -- the table screen and the voice -----------------------------------------------------------


def kiosk_screen(config: Config) -> Check:
    """Does the table screen's kiosk run (companion kiosk's user unit)?"""
    from . import kiosk

    unit = kiosk.DEFAULT_OUTPUT.expanduser()
    if not unit.is_file():
        return Check(
            "kiosk", "warn", "the table screen is not installed on this Pi's HDMI output",
            "companion kiosk, then systemctl --user enable --now companion-kiosk.service",
        )  # fmt: skip
    state = kiosk.state()
    if state == "active":
        return Check("kiosk", "ok", f"the table screen runs ({unit})")
    return Check(
        "kiosk", "warn", f"{unit} is installed but {state}",
        "systemctl --user enable --now companion-kiosk.service (in the desktop session)",
    )  # fmt: skip


def voice(config: Config) -> Check:
    """Can the table speak as ``[voice]`` asks: espeak-ng and its voice for the language?"""
    import shutil
    import subprocess

    outlet = config["voice.outlet"]
    lang = config["game.language"]
    if outlet == "none":
        return Check("voice", "ok", 'off ([voice] outlet = "none")')
    if outlet == "screen":
        return Check("voice", "ok", "the table screen speaks (tap it once to switch it on)")
    program = shutil.which("espeak-ng")
    if program is None:
        return Check(
            "voice", "fail", f"[voice] outlet = {outlet!r} but espeak-ng is missing",
            "sudo apt install espeak-ng",
        )  # fmt: skip
    listed = subprocess.run(
        [program, "--voices=" + lang], capture_output=True, text=True, timeout=10, check=False
    )
    if len(listed.stdout.strip().splitlines()) < 2:
        return Check(
            "voice", "fail", f"espeak-ng has no {lang!r} voice", "sudo apt install espeak-ng-data"
        )  # fmt: skip
    return Check("voice", "ok", f"espeak-ng speaks {lang} ({outlet}, {config['voice.verbosity']})")


def disk(config: Config) -> Check:
    """Free space where the game log lives: a full disk refuses every move."""
    from .table import storage_status

    path = config.store_path
    folder = path.parent
    while not folder.exists():
        folder = folder.parent
    status = storage_status(folder / path.name)
    free = shutil.disk_usage(folder).free // (1024 * 1024)
    text = f"{free} MB free on the disk of {path}"
    if status == "ok":
        return Check("disk", "ok", text)
    advice = "free some space (old logs, a full journal: journalctl --vacuum-size=50M)"
    return Check("disk", "fail" if status == "full" else "warn", text, advice)


def games(config: Config) -> Check:
    """Every stored game is as it was stored and still replays (`integrity`)."""
    from . import integrity
    from .store import Store

    path = config.store_path
    if not path.exists() or unreadable(path):
        return Check("games", "ok", "no game log to check (see the store check)")
    store = Store.reading(path)
    try:
        if store.pragma("user_version") < 2:
            return Check("games", "ok", "checked from the companion's next start (older log)")
        count = len(store.games())
        found = integrity.problems(store)
    finally:
        store.close()
    if not found:
        return Check("games", "ok", f"{count} game(s): each as stored, each replays")
    return Check(
        "games", "fail", "; ".join(f"game {d.game} from action {d.seq}: {d.text}" for d in found),
        "; ".join(f"companion repair {d.game}" for d in found)
        + ": each exports its game up to the last good action and goes on from there",
    )  # fmt: skip


CHECKS: tuple[Callable[[Config], Check], ...] = (
    config_file,
    store,
    disk,
    games,
    web_port,
    panel,
    gpio,
    serial_ports,
    camera,
    calibration,
    hotspot,
    portal,
    voice,
    kiosk_screen,
)


def run(config: Config) -> Iterator[Check]:
    for check in CHECKS:
        try:
            yield check(config)
        except Exception as e:  # a doctor that crashes tells nothing about the rest
            yield Check(check.__name__, "fail", f"the check itself failed: {e!r}")


def report(checks: list[Check]) -> str:
    lines = [f"machine: {board_model() or 'not a Raspberry Pi'}"]
    for c in checks:
        lines.append(f"{c.status:<5} {c.name:<7} {c.text}")
        if c.advice and c.status != "ok":
            lines.append(f"{'':14}-> {c.advice}")
    failed = [c.name for c in checks if c.status == "fail"]
    warned = [c.name for c in checks if c.status == "warn"]
    if failed:
        lines.append(f"broken: {', '.join(failed)}")
    else:
        lines.append("nothing is broken" + (f" (warnings: {', '.join(warned)})" if warned else ""))
    return "\n".join(lines)
