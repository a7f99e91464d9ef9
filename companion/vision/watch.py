"""The camera's own process: frames in, proposals out, as commands through a pipe to the Table.

`companion.camera` starts this module in a process of its own (``multiprocessing``'s spawn),
so that OpenCV and numpy work, and the Python around them, never hold the daemon's interpreter
lock while a phone's press waits for it. The process reads frames from ``[camera] source``
(picamera2, ``usb:N``, ``files:PATH``), asks what the game expects (`Link.ask`: the daemon
reads the Table's snapshot for the view ``camera``) when the game has changed, unless it keeps
changing faster than the camera looks (`Watcher._settled`), hands that to the vision `Tracker`,
and passes each verdict on as a command from source ``camera``:

- ``sunk`` or ``question`` → its action is the sink it saw; the Table shows it to every phone as
  a proposal, and a player's tap carries it out;
- ``out_of_sync`` or ``in_sync`` → intent ``sync``: a banner on every phone naming the hexes
  where the board and the game disagree; no proposal can be confirmed meanwhile.

While an island is laid by hand (phase ``terrain``), once every position has looked covered for
a few frames, it reads the terrains (`Recogniser.calibrate` without a layout: the colours split
16/16/8) and proposes them all as one command (action ``terrain``, ``args.layout``), for the
players to correct and confirm on a phone.

The colours are learnt (`Recogniser.calibrate`) from each new game's whole island, taking the
game's layout as the truth, and kept in the calibration file for a restart in mid-game.
"""

from __future__ import annotations

import logging
import os
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..engine import board
from ..security import atomic_write
from .exposure import Exposure
from .recognise import Observation, Recogniser
from .sources import Frame, FrameSource, pixels
from .still import Stillness, patience
from .tracker import Tracker, Verdict

log = logging.getLogger("companion.camera")

RETRY = 10.0
"""Seconds before a camera that failed is opened again."""
STABLE = 3
"""Frames in a row an island must look whole before the camera reads its layout."""


class Stopped(Exception):
    """The daemon asked the camera's process to end."""


class Link:
    """The camera process's end of the pipe: every question waits for the daemon's answer, so
    a command is in force (or refused) before the next frame is looked at."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def ask(self, *message: Any) -> Any:
        try:
            self.conn.send(message)
            reply = self.conn.recv()
        except (EOFError, OSError):  # the daemon is gone (or closed its end as it stopped)
            raise Stopped from None
        if reply == ("stop",):
            raise Stopped
        return reply[1]

    def wait(self, seconds: float) -> None:
        """Sleep, or end at once when the daemon says stop."""
        try:
            if self.conn.poll(seconds):
                self.conn.recv()  # only ever ("stop",) between questions
                raise Stopped
        except EOFError:
            raise Stopped from None


NICENESS = 10
"""How much lower than the daemon the camera's process runs (`os.nice`)."""


def main(conn: Connection, source: str, calibration: str, interval: float) -> None:
    """The process's entry point (spawned by `companion.camera.Camera`)."""
    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    # Below the daemon: when both want the CPU, a player's press goes first, the frame waits.
    os.nice(NICENESS)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        # Linux: run only on a core nothing else wants. Niceness alone still gives the camera
        # a tenth of a busy core, which a press waiting behind it feels (measured on 2 cores).
        try:
            os.sched_setscheduler(0, idle, os.sched_param(0))
        except OSError:
            logging.getLogger(__name__).warning("the camera could not take the idle class")
    # One thread for OpenCV too: a frame has half a second, so a pool's speed-up is worth
    # nothing here, while the pool keeps every core busy as a press comes. Measured with 8
    # phones and a stand-in process doing OpenCV work at the camera's duty (both idle class):
    # with the pool a press's p99 went from 13-14 ms to 23-25 ms, with one thread it stayed 11-13.
    cv2.setNumThreads(1)
    watcher = Watcher(Link(conn), source, Path(calibration), interval)
    try:
        watcher.run()
    except Stopped:
        pass
    finally:
        conn.close()


class Watcher:
    """The camera's work, in its own process."""

    def __init__(self, link: Link, source: str, calibration: Path, interval: float) -> None:
        self.link = link
        self.source = source
        self.calibration_path = calibration
        self.interval = interval
        self.status = "none"
        self._recogniser: Recogniser | None = None
        self._tracker: Tracker | None = None
        self._exposure = Exposure()
        self._still = Stillness(patience(interval))
        self._frames: FrameSource | None = None
        self._expected: tuple[int, int] | None = None
        self._seen: int | None = None
        """The count of changes the Table had told (its ``told``) at the last look."""
        self._changing = False
        """Whether the last look found the game changed since the look before (`_settled`)."""
        self._asked: int | None = None
        """That count when the camera last asked what the game expects (`_expected_now`)."""
        self._expectation: dict[str, Any] | None = None
        """The daemon's last answer to what the game expects."""
        self._told: tuple[Any, Any] | None = None
        """The land and the candidates the tracker was last told."""
        self._learnt: int | None = None
        """The game whose whole island the colours were learnt from."""
        self._whole = 0
        """Frames in a row in which every land position looked covered (an island being laid)."""
        self._island: tuple[int, int] | None = None
        """The game and last action at which an island was last proposed."""
        self._pause = interval
        """Seconds from this look to the next (longer over a board at rest: `Stillness.pause`)."""

    def _say(self, status: str) -> None:
        """Tell every phone how the camera is, when that changes."""
        if status != self.status:
            self.status = status
            log.info("camera: %s", status)
            self.link.ask("status", status)

    def run(self) -> None:
        from .calibrate import CalibrationError
        from .calibrate import load as load_calibration
        from .sources import SourceError, open_source

        calibration = None
        if self.calibration_path.is_file():
            try:
                calibration = load_calibration(self.calibration_path)
            except CalibrationError as e:
                log.warning("camera: %s; the colours will be learnt again", e)
        self._recogniser = Recogniser(calibration=calibration)
        self._tracker = Tracker(self._recogniser)
        still = self._still_image()
        while True:
            try:
                with open_source(self.source) as frames:
                    if not self.status.startswith("watching"):
                        self._say(f"watching ({self.source})")
                    self._watch(frames)
            except SourceError as e:
                self._say(f"error: {e}; trying again in {RETRY:.0f} s")
                self.link.wait(RETRY)
                continue
            if still:  # a photo stands for a camera that always sees it: look again
                continue
            if self.source.startswith("files:"):
                self._say(f"finished: every frame of {self.source[6:]} was seen")
                return
            self._say(f"error: {self.source} gave no frame; trying again in {RETRY:.0f} s")
            self.link.wait(RETRY)

    def _still_image(self) -> bool:
        from .sources import IMAGE_SUFFIXES

        if not self.source.startswith("files:"):
            return False
        path = Path(self.source[6:]).expanduser()
        return path.suffix.lower() in IMAGE_SUFFIXES and not path.is_dir()

    def _watch(self, frames: FrameSource) -> None:
        """Look at each frame until the source has no more (or the camera stops)."""
        self._frames, self._exposure = frames, Exposure()
        while True:
            began = time.monotonic()
            self._pause = self.interval
            if self._settled():
                frame = frames.take()
                if frame is None:
                    return
                try:
                    self._look(frame)
                except Stopped:
                    raise
                except Exception:  # one bad frame or a busy Table must not end the camera
                    log.exception("camera: a frame could not be used")
            self.link.wait(max(0.0, self._pause - (time.monotonic() - began)))

    def _settled(self) -> bool:
        """Whether the game may be looked at: it has not changed since the last look, or it
        had not changed at the last look either. A game found changed at two looks in a row
        (buttons pressed faster than the camera looks: done and undo by turns) is looked at
        again after the interval, no frame taken, until a look finds it as the one before: each
        change would restart the tracker's run, so frames read against it tell the tracker
        nothing, and each change asked about is a snapshot, a job on the Table's thread in line
        with the presses. At a table the game changes once in a while: each change is taken at
        the first look after it, as soon as before."""
        told = self.link.ask("told")
        changed = self._seen is not None and told != self._seen
        settled = not (changed and self._changing)
        self._seen, self._changing = told, changed
        return settled

    def _expected_now(self) -> dict[str, Any] | None:
        """What the game expects, asked of the daemon only when the Table has told a change
        since it was last asked: at rest, a number (`_settled`) stands for the whole snapshot."""
        if self._asked is None or self._asked != self._seen:
            self._expectation = self.link.ask("expected")
            self._asked = self._seen
        return self._expectation

    def _look(self, frame: Frame) -> None:
        assert self._tracker is not None
        if self._expected is not None and self._still.moving(frame):
            # Not read: what the game expects is asked at the next frame that may be. Each
            # question after a change is a job on the Table's thread, in line with the presses.
            self._tracker.observe_at_rest(frame, self._still)
            return
        expected = self._expected_now()
        if expected is None:
            return
        if expected["phase"] == "terrain":
            self._read_island(frame.pixels(), expected)
            return
        tiles: dict[int, str] = expected["tiles"]
        if not self._calibrated(frame, expected):
            return
        now = (expected["game"], expected["at"])
        if now != self._expected:
            self._tracker.expect(tiles, expected["candidates"])
            self._expected = now
            told = (tiles, expected["candidates"])
            if told != self._told:
                # Something to decide: at the camera's interval. An action that changed
                # neither (a move, an undo of one) leaves the board to its pause.
                self._still.wake()
                self._told = told
        read, verdict = self._tracker.observe_at_rest(frame, self._still)
        self._pause = self._still.pause(self.interval)
        if not read:
            return  # read once the board is at rest again (`still`)
        self._expose(self._tracker.observation)
        if verdict is not None:
            log.info("camera: %s", verdict.detail)
            self._tell(expected["game"], verdict)

    def _expose(self, observation: Observation | None) -> None:
        """Set the camera's exposure from the board in the last frame (`exposure`)."""
        if observation is None or self._frames is None:
            return
        before = self._exposure.bias
        ev = self._exposure.update(observation)
        if ev == before:
            return
        if self._frames.set_exposure_bias(ev):
            # The next frame is read whatever it shows: the same reading again would ask for
            # the same change again, and the bias would run to its end.
            self._still.forget()
        else:
            self._exposure.bias = 0.0  # the camera exposes as it will

    def _read_island(self, frame: np.ndarray, expected: dict[str, Any]) -> None:
        """While the island is laid: once every position has looked covered for a few frames
        in a row, propose the terrain of each (grouped 16/16/8 by colour) for one confirmation."""
        from .cli import DOUBTFUL_MARGIN
        from .recognise import NotRegistered

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
        accepted, message = self.link.ask("command", expected["game"], action, None, args)
        if not accepted:
            log.info("camera: the table did not take the island: %s", message)

    def _calibrated(self, frame: np.ndarray | Frame, expected: dict[str, Any]) -> bool:
        """The recogniser knows the board's colours; a new game's whole island teaches them
        afresh (the light of this evening, not of the last)."""
        from .calibrate import dumps
        from .recognise import NotRegistered

        recogniser = self._recogniser
        assert recogniser is not None
        tiles, game = expected["tiles"], expected["game"]
        if len(tiles) < len(board.LAND) or game == self._learnt:
            if recogniser.calibration is None:
                self._say(f"watching ({self.source}): no calibration; lay a new island to make one")
            return recogniser.calibration is not None
        try:
            recogniser.calibration = recogniser.calibrate(
                pixels(frame), tiles, source="the game's layout"
            )
        except NotRegistered as e:
            if recogniser.calibration is None:
                self._say(f"watching ({self.source}): the board is not in view ({e})")
            return recogniser.calibration is not None
        self._learnt = game
        self._still.forget()  # the last reading was of the colours learnt before
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
            accepted, message = self.link.ask("command", game, ["sink", verdict.tile], None, args)
            if not accepted:
                log.info("camera: the table did not take the proposal: %s", message)
        else:
            disagree = list(verdict.disagree) if verdict.kind == "out_of_sync" else []
            self.link.ask("command", game, None, "sync", {"disagree": disagree})
