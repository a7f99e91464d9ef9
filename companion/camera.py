"""The camera at the table: frames in, proposals out, through the Table like every other edge.

One thread reads frames from ``[camera] source`` (picamera2, ``usb:N``, ``files:PATH``), asks the
Table what the game expects (`Table.expected_board`, a read on the Table's thread), hands that
to the vision `Tracker` whenever the game has changed, and passes each verdict on:

- ``sunk`` or ``question`` → a `Command` from source ``camera`` whose action is the sink it saw;
  the Table shows it to every phone as a proposal, and a player's tap carries it out;
- ``out_of_sync`` or ``in_sync`` → `Table.camera_sync`: a banner on every phone naming the hexes
  where the board and the game disagree; no proposal can be confirmed meanwhile.

While an island is laid by hand (phase ``terrain``), once every position has looked covered for
a few frames, it reads the terrains (`Recogniser.calibrate` without a layout: the colours split
16/16/8) and proposes them all as one command (action ``terrain``, ``args.layout``), for the
players to correct and confirm on a phone.

The camera never changes the game itself. OpenCV, numpy and picamera2 are imported only here,
when the camera starts: a companion without them runs on, and its camera status says
``unavailable: ...`` and what to install.

The colours are learnt (`Recogniser.calibrate`) from each new game's whole island, taking the
game's layout as the truth, and kept in the calibration file for a restart in mid-game.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .commands import Command
from .engine import board
from .security import atomic_write
from .table import Table

if TYPE_CHECKING:  # the vision modules need OpenCV: imported when the camera starts
    import numpy as np

    from .vision.recognise import Recogniser
    from .vision.sources import FrameSource
    from .vision.tracker import Tracker, Verdict

log = logging.getLogger(__name__)

INTERVAL = 0.5
"""Seconds between frames looked at: the tracker wants a few at rest, the Pi's CPU the rest."""
RETRY = 10.0
"""Seconds before a camera that failed is opened again."""
STABLE = 3
"""Frames in a row an island must look whole before the camera reads its layout."""


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


class Camera:
    """The camera's thread: `start` it after the Table's, `stop` it before."""

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
        self._recogniser: Recogniser | None = None
        self._tracker: Tracker | None = None
        self._expected: tuple[int, int] | None = None
        self._learnt: int | None = None
        """The game whose whole island the colours were learnt from."""
        self._whole = 0
        """Frames in a row in which every land position looked covered (an island being laid)."""
        self._island: tuple[int, int] | None = None
        """The game and last action at which an island was last proposed."""

    # -- starting and stopping -----------------------------------------------------------------

    def start(self) -> None:
        """Import the vision libraries and start watching; without them, say so and do not."""
        try:
            import cv2  # noqa: F401
            import numpy  # noqa: F401

            if self.source == "picamera2":
                import picamera2  # noqa: F401
        except ImportError as e:
            self._say(unavailable(e))
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def describe(self) -> str:
        return f"{self.source}: {self.status}"

    def _say(self, status: str) -> None:
        """Tell every phone how the camera is, when that changes."""
        if status != self.status:
            self.status = status
            log.info("camera: %s", status)
            self.table.set_status("camera", status)

    # -- the thread ----------------------------------------------------------------------------

    def _run(self) -> None:
        from .vision.calibrate import CalibrationError
        from .vision.calibrate import load as load_calibration
        from .vision.recognise import Recogniser
        from .vision.sources import SourceError, open_source
        from .vision.tracker import Tracker

        calibration = None
        if self.calibration_path.is_file():
            try:
                calibration = load_calibration(self.calibration_path)
            except CalibrationError as e:
                log.warning("camera: %s; the colours will be learnt again", e)
        self._recogniser = Recogniser(calibration=calibration)
        self._tracker = Tracker(self._recogniser)
        still = self._still_image()
        while not self._stop.is_set():
            try:
                with open_source(self.source) as frames:
                    if not self.status.startswith("watching"):
                        self._say(f"watching ({self.source})")
                    self._watch(frames)
            except SourceError as e:
                self._say(f"error: {e}; trying again in {RETRY:.0f} s")
                self._stop.wait(RETRY)
                continue
            if still:  # a photo stands for a camera that always sees it: look again
                continue
            if self.source.startswith("files:"):
                self._say(f"finished: every frame of {self.source[6:]} was seen")
                return
            self._say(f"error: {self.source} gave no frame; trying again in {RETRY:.0f} s")
            self._stop.wait(RETRY)

    def _still_image(self) -> bool:
        from .vision.sources import IMAGE_SUFFIXES

        if not self.source.startswith("files:"):
            return False
        path = Path(self.source[6:]).expanduser()
        return path.suffix.lower() in IMAGE_SUFFIXES and not path.is_dir()

    def _watch(self, frames: FrameSource) -> None:
        """Look at each frame until the source has no more (or the camera stops)."""
        while not self._stop.is_set():
            began = time.monotonic()
            frame = frames.read()
            if frame is None:
                return
            try:
                self._look(frame)
            except Exception:  # one bad frame or a busy Table must not end the camera
                log.exception("camera: a frame could not be used")
            self._stop.wait(max(0.0, self.interval - (time.monotonic() - began)))

    def _look(self, frame: np.ndarray) -> None:
        assert self._tracker is not None
        expected = self.table.expected_board()
        if expected is None:
            return
        if expected["phase"] == "terrain":
            self._read_island(frame, expected)
            return
        tiles: dict[int, str] = expected["tiles"]
        if not self._calibrated(frame, expected):
            return
        now = (expected["game"], expected["at"])
        if now != self._expected:
            self._tracker.expect(tiles, expected["candidates"])
            self._expected = now
        verdict = self._tracker.observe(frame)
        if verdict is not None:
            log.info("camera: %s", verdict.detail)
            self._tell(expected["game"], verdict)

    def _read_island(self, frame: np.ndarray, expected: dict[str, Any]) -> None:
        """While the island is laid: once every position has looked covered for a few frames
        in a row, propose the terrain of each (grouped 16/16/8 by colour) for one confirmation."""
        from .vision.cli import DOUBTFUL_MARGIN
        from .vision.recognise import NotRegistered

        recogniser = self._recogniser
        assert recogniser is not None
        if (expected["game"], expected["at"]) == self._island:
            return  # one reading per state of the game, so the phones' card stays put
        seen = recogniser.observe(frame)
        whole = seen.ok and all(v.label != "sea" for v in seen.positions.values())
        self._whole = self._whole + 1 if whole else 0
        if self._whole < STABLE:
            return
        try:
            reading = recogniser.calibrate(frame)  # unknown layout: a proposal
        except NotRegistered:
            return
        self._island = (expected["game"], expected["at"])
        laid = expected["tiles"]  # positions already entered by hand are not proposed again
        layout = {h: t for h, t in reading.layout.items() if h not in laid}
        doubtful = [h for h in layout if reading.margins.get(h, 0.0) < DOUBTFUL_MARGIN]
        args = {"layout": layout, "doubtful": doubtful}
        action = ["terrain", next(iter(layout.values()))]  # the args say the rest
        reply = self.table.call(Command("camera", None, "", expected["game"], action, args=args))
        if not reply.accepted:
            log.info("camera: the table did not take the island: %s", reply.message)

    def _calibrated(self, frame: np.ndarray, expected: dict[str, Any]) -> bool:
        """The recogniser knows the board's colours; a new game's whole island teaches them
        afresh (the light of this evening, not of the last)."""
        from .vision.calibrate import dumps
        from .vision.recognise import NotRegistered

        recogniser = self._recogniser
        assert recogniser is not None
        tiles, game = expected["tiles"], expected["game"]
        if len(tiles) < len(board.LAND) or game == self._learnt:
            if recogniser.calibration is None:
                self._say(f"watching ({self.source}): no calibration; lay a new island to make one")
            return recogniser.calibration is not None
        try:
            recogniser.calibration = recogniser.calibrate(frame, tiles, source="the game's layout")
        except NotRegistered as e:
            if recogniser.calibration is None:
                self._say(f"watching ({self.source}): the board is not in view ({e})")
            return recogniser.calibration is not None
        self._learnt = game
        self._say(f"watching ({self.source})")
        try:
            atomic_write(self.calibration_path, dumps(recogniser.calibration).encode(), mode=0o644)
        except OSError as e:  # kept in memory for this run all the same
            log.warning("camera: cannot keep the calibration in %s: %s", self.calibration_path, e)
        return True

    def _tell(self, game: int, verdict: Verdict) -> None:
        if verdict.kind in ("sunk", "question"):
            args: dict[str, Any] = {
                "alternatives": list(verdict.alternatives),
                "confidence": verdict.confidence,
            }
            command = Command("camera", None, "", game, action=["sink", verdict.tile], args=args)
            reply = self.table.call(command)
            if not reply.accepted:
                log.info("camera: the table did not take the proposal: %s", reply.message)
        else:
            disagree = verdict.disagree if verdict.kind == "out_of_sync" else ()
            self.table.camera_sync(game, disagree).result(30)
