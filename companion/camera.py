"""The camera at the table: a process of its own, whose verdicts reach the Table as commands.

The camera's work (frames, OpenCV, the tracker: `companion.vision.watch`) runs in a separate
process, so that it never holds this interpreter's lock while a phone's press is on its way.
This module is the daemon's end: one thread that answers the process's questions, through the
Table's face like every other edge —

- ``told``: how many changes the Table has told (`Table.told`): no Table job, a number read;
  the process asks it before each frame, and what the game expects only after it moved;
- ``expected``: the Table's snapshot for the view ``camera`` (`table.CAMERA`): the island the
  game believes in, and the tiles that may sink now;
- ``command``: a `Command` from source ``camera`` (a proposal, or intent ``sync``), submitted
  and answered with whether it was taken;
- ``status``: how the camera is, as a command with intent ``status``: every phone shows it.

The camera never changes the game itself. OpenCV, numpy and picamera2 are imported only in the
camera's process: a companion without them runs on, and its camera status says
``unavailable: ...`` and what to install.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import multiprocessing
import os
import threading
from collections.abc import Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from .commands import Command
from .refusals import Refused
from .table import CAMERA, Table

log = logging.getLogger(__name__)

INTERVAL = 0.5
"""Seconds between frames looked at: the tracker wants a few at rest, the Pi's CPU the rest."""
STOP_WAIT = 10.0
"""Seconds the camera's process is given to end before it is terminated."""
ONE_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
"""The camera process's numpy works on its own thread. Its BLAS would start a pool of threads
on import, before the process lowers its priority (`watch.main` lowers the thread that calls
it): those threads stayed at the daemon's priority and policy, and ran (and spun waiting for
work) beside the presses on the other core."""


def unavailable(error: ImportError) -> str:
    """The status of a camera whose libraries are missing: what is missing and what to do."""
    missing = error.name or str(error)
    if missing.startswith("picamera2"):
        install = "sudo apt install python3-picamera2"
    else:
        install = "sudo apt install python3-opencv, or pip install 'atlantis-companion[vision]'"
    return (
        f"unavailable: {missing} cannot be imported: {install} (venv with --system-site-packages)"
    )


def _missing(source: str) -> ImportError | None:
    """The first library the camera's process would lack, without importing any here."""
    needed = ["numpy", "cv2"] + (["picamera2"] if source == "picamera2" else [])
    for name in needed:
        try:
            if importlib.util.find_spec(name) is None:
                return ImportError(f"No module named {name!r}", name=name)
        except ImportError as e:  # an import hook that refuses the name outright
            return e
    return None


@contextlib.contextmanager
def _environment(values: dict[str, str]) -> Iterator[None]:
    """`values` in this process's environment meanwhile (a spawned child inherits them)."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


class Camera:
    """The camera's process and the thread that speaks for it: `start` after the Table's,
    `stop` before."""

    def __init__(
        self, table: Table, source: str, calibration: Path, interval: float = INTERVAL
    ) -> None:
        self.table = table
        self.source = source
        self.calibration_path = calibration
        self.interval = interval
        self.status = "none"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._process: Any = None
        self._conn: Connection | None = None
        self._expected: tuple[int, dict[str, Any] | None] = (-1, None)
        """The last snapshot for the view camera, and the Table's `told` count it was read at."""

    def start(self) -> None:
        """Start the camera's process; without its libraries, say so and do not."""
        missing = _missing(self.source)
        if missing is not None:
            self._say(unavailable(missing))
            return
        from .vision import watch  # imports nothing heavy until the process runs it

        context = multiprocessing.get_context("spawn")  # a fresh interpreter, no copied threads
        ours, theirs = context.Pipe()
        args = (theirs, self.source, str(self.calibration_path), self.interval)
        self._process = context.Process(target=watch.main, args=args, name="companion-camera")
        self._stop.clear()
        with _environment(ONE_THREAD):  # the child's, read as it imports numpy
            self._process.start()
        theirs.close()
        self._conn = ours
        self._thread = threading.Thread(target=self._serve, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=STOP_WAIT)
            self._thread = None
        if self._process is not None:
            self._process.join(timeout=STOP_WAIT)
            if self._process.is_alive():
                self._process.terminate()
                self._process.join(timeout=STOP_WAIT)
            self._process = None

    @property
    def process_id(self) -> int | None:
        """The camera's process, while it runs (the web bench stops it between its turns)."""
        return None if self._process is None else int(self._process.pid)

    def describe(self) -> str:
        return f"{self.source}: {self.status}"

    def _say(self, status: str) -> None:
        """Tell every phone how the camera is, when that changes."""
        if status != self.status:
            self.status = status
            log.info("camera: %s", status)
            args = {"status": status[:300]}
            self.table.submit(Command("camera", None, "", None, intent="status", args=args))

    def _serve(self) -> None:
        """Answer the camera's process until it ends or the camera stops."""
        conn = self._conn
        assert conn is not None
        try:
            while not self._stop.is_set():
                if not conn.poll(0.1):
                    if not self._process.is_alive():
                        break
                    continue
                conn.send(("ok", self._answer(conn.recv())))
        except (EOFError, OSError):
            pass  # the process ended: its last word is in the status
        finally:
            with contextlib.suppress(OSError):
                conn.send(("stop",))
            conn.close()
            if self._process is not None and self._process.exitcode not in (None, 0):
                self._say(f"error: the camera's process ended (exit {self._process.exitcode})")

    def _answer(self, message: tuple[Any, ...]) -> Any:
        kind = message[0]
        if kind == "told":
            return self.table.told
        if kind == "expected":
            return self._expected_now()
        if kind == "status":
            self._say(message[1])
            return None
        if kind == "command":
            game, action, intent, args = message[1:]
            command = Command("camera", None, "", game, action=action, intent=intent, args=args)
            reply = self.table.call(command)
            return reply.accepted, reply.message
        raise ValueError(f"the camera's process asked {kind!r}")

    def _expected_now(self) -> dict[str, Any] | None:
        """The island the game expects, read again only when the Table has told a change since
        (the process asks before every frame: a Table job per frame delayed the presses queued
        behind it). The count is read before the snapshot: a change in between is read again
        at the next frame, never missed."""
        told = self.table.told
        if told != self._expected[0]:
            try:
                self._expected = (told, self.table.snapshot(None, CAMERA))
            except Refused:
                self._expected = (-1, None)
        return self._expected[1]
