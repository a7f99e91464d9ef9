"""Whether a frame is worth reading: it shows something new, and the board has come to rest.

At a table the board is at rest most of the time, and reading a frame (markers, samples,
colours) is nearly all the camera's CPU: on a Pi that CPU is shared with the Table a player's
press waits for, and on a shared machine any CPU it takes delays a press whatever its priority.
So a frame is read only when it can tell the tracker something (`Stillness.look`):

- a frame that matches the last one read, within a camera's noise, is not read again: its
  reading stands (`Tracker.observe`'s ``again``);
- a frame that differs from the one before it shows something moving (a hand, a piece being
  set down): it waits, and the board is read once two frames in a row match. The tracker learns
  nothing from a hand it would not learn from the board after it: it decides on frames at rest.

Waiting is only for a camera whose frames match at rest: of its last `WINDOW` frames at least
a third (and `SETTLED`) were like the one before. A camera whose frames mostly differ (sensor
noise, an exposure that flickers) is read every frame, as before this check, and so is one
whose frames have differed for `PATIENCE` seconds in a row (the check never starves the tracker
for longer than that).

The comparison is of thumbnails, each pixel the mean of a 16 × 16 block: a sensor's noise
mostly averages out there, while a tile lifted, a hand or a piece moved changes whole blocks.
It is made against the last frame *read*, not the previous one, so a slow drift (a cloud, a
lamp warming up) is read once it adds up to a change. A JPEG frame's thumbnail comes from its
blocks' means as libjpeg decodes them (`sources.Frame`), its pixels only if it is read.

A board that has rested for a while is looked at less often (`Stillness.pause`): once the
tracker has had its frames at rest, more of the same frame tell it nothing, and every look
costs a decode on a CPU a player's press shares. The first look that is not like the last
read brings the camera back to its interval.
"""

from __future__ import annotations

import collections
import enum
import math
from collections.abc import Sequence

import cv2
import numpy as np

from .sources import Frame

BLOCK = 16
"""Pixels across a thumbnail's pixel."""
NOISE = 12
"""Levels (of 255) a thumbnail's pixel may move by in a frame showing the same board. Between
two photos of one board at rest (the renderer's `synth.photo`: new noise, focus blur and JPEG
each) blocks moved by 8 at most; a person (the smallest piece) moved by half a hex changed one
by 18 or more at 640 × 480, 31 or more at 1280 × 960. A camera whose exposure or white balance
jumps from frame to frame moves every block by more than this: each of its frames is read."""
WINDOW = 40
"""Frames over which a camera is judged steady (its frames match at rest) or restless. A look
after a longer pause (`Stillness.pause`) that finds the board as the look before it counts for
the frames the camera passed over: at rest it looks ten times less often, and counted as one
frame each, its looks at rest were outnumbered by a passing hand's (at the web bench's film, a
hand a third of the time, the camera was taken for a restless one and read every hand frame
whole)."""
SETTLED = 3
"""Frames like the one before, within the last `WINDOW`, before a camera may be steady. The
renderer's harshest camera (an exposure and white balance of its own each frame, `synth` mode
"all") showed 5 % of its frames like the one before, at times three in a row; a steady camera
shows every frame at rest like the one before (5 of 8 frames in a turn of the vision bench, 19
of 30 in the web bench's film, whose hand moves for 10)."""
PATIENCE = 4.0
"""Seconds of frames each unlike the one before after which a camera is taken for one whose
frames never match (or a hand that does not rest): then every frame is read until two match.
A hand sinking a tile or moving a boat pauses well within this."""
RESTING = 6
"""Looks like the last frame read before the camera looks less often: twice the frames at rest
the tracker decides on (its ``stable_frames``), so a turn's verdict is reached at the camera's
full interval. A hand passing over the board between them leaves the count: its frames are not
read (`Look.MOVING`), the tracker's run goes on from before it, and once the board is found as
it was read, more frames of it at the interval would tell the tracker nothing (the web bench's
film, a hand over an unchanged board every 3 s, took 6 such looks after each hand)."""
REST_WAIT = 1.0
"""The longest pause between looks at a board at rest, in seconds: what a change waits at most
before the camera sees it (a hand over the board, a tile sunk while it was not looking)."""


class Look(enum.Enum):
    SAME = "same"
    """As the last frame read: its reading stands."""
    READ = "read"
    """New, and at rest (or from a camera whose frames never match): read it."""
    MOVING = "moving"
    """Unlike the frame before it: something is moving; wait for the board to rest."""


def patience(interval: float) -> int:
    """`PATIENCE` in frames, for a camera that looks every `interval` seconds."""
    return max(2, math.ceil(PATIENCE / max(interval, 1e-3)))


def thumbnail(frame: np.ndarray | Frame) -> np.ndarray:
    """The frame's block means (int16, so differences do not wrap)."""
    if isinstance(frame, Frame):
        eighth = frame.eighth()  # 8 × 8 block means: 2 × 2 of them make a block
        height, width = eighth.shape[:2]
        size = (max(1, width // (BLOCK // 8)), max(1, height // (BLOCK // 8)))
        return cv2.resize(eighth, size, interpolation=cv2.INTER_AREA).astype(np.int16)
    height, width = frame.shape[:2]
    size = (max(1, width // BLOCK), max(1, height // BLOCK))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.int16)


def _alike(a: np.ndarray | None, b: np.ndarray) -> bool:
    return a is not None and a.shape == b.shape and int(np.abs(a - b).max()) <= NOISE


def _steady(recent: Sequence[bool]) -> bool:
    """Of these last frames, enough were like the one before: frames unlike the one before
    show something moving, not the camera's noise."""
    alike = sum(recent)
    return alike >= SETTLED and 3 * alike >= len(recent)


class Stillness:
    """Remembers the last frame read and the one before this; `look` says what to do with a
    new frame. `patience`: frames in a row unlike each other before every frame is read."""

    def __init__(self, patience: int) -> None:
        self.patience = patience
        self._read: np.ndarray | None = None
        self._before: np.ndarray | None = None
        self._moving = 0
        """Frames in a row each unlike the one before it."""
        self._recent: collections.deque[bool] = collections.deque(maxlen=WINDOW)
        """Of the last frames, whether each was like the one before it."""
        self._same = 0
        """Looks like the last frame read since it was (frames moving between them aside)."""
        self._looked: Look | None = None
        """What the last look found."""
        self._last: tuple[np.ndarray | Frame, np.ndarray] | None = None
        """The last frame looked at and its thumbnail."""
        self._span = 1
        """Frames the next look stands for, if it is like the one before (`pause`)."""

    def look(self, frame: np.ndarray | Frame) -> Look:
        """What `frame` tells, from its thumbnail; a frame to read becomes the frame read."""
        thumb = self._thumbnail(frame)
        verdict, rested = self._judge(thumb)
        self._before = thumb
        self._moving = 0 if rested else self._moving + 1
        self._recent.extend([rested] * (self._span if rested else 1))
        self._span = 1
        if verdict is not Look.MOVING:
            self._same = self._same + 1 if verdict is Look.SAME else 0
        self._looked = verdict
        if verdict is Look.READ:
            self._read = thumb
        return verdict

    def moving(self, frame: np.ndarray | Frame) -> bool:
        """Whether `look` will find `frame` MOVING; nothing is remembered (`look` must still
        be asked), and the thumbnail is made once for both."""
        return self._judge(self._thumbnail(frame))[0] is Look.MOVING

    def _judge(self, thumb: np.ndarray) -> tuple[Look, bool]:
        """What a frame of thumbnail `thumb` is, and whether it is like the one before it;
        nothing is remembered (`look` remembers it, `moving` only asks)."""
        rested = _alike(self._before, thumb)
        if _alike(self._read, thumb):
            return Look.SAME, rested
        moving = 0 if rested else self._moving + 1
        if not rested and moving <= self.patience and _steady([*self._recent, rested][-WINDOW:]):
            return Look.MOVING, rested
        return Look.READ, rested

    def _thumbnail(self, frame: np.ndarray | Frame) -> np.ndarray:
        if self._last is None or self._last[0] is not frame:
            self._last = (frame, thumbnail(frame))
        return self._last[1]

    def pause(self, interval: float) -> float:
        """Seconds until the next look, for a camera that looks every `interval`: that, until
        the board has rested for `RESTING` looks; then twice as long with each look more like
        the last read, up to `REST_WAIT` (never shorter than `interval`), unless the last look
        found something moving. The next look, if like the one before, counts for every frame
        this pause passes over (`WINDOW`)."""
        beyond = self._same - RESTING
        if beyond <= 0 or self._looked is Look.MOVING:
            return interval
        pause = max(interval, min(REST_WAIT, interval * 2.0 ** min(beyond, 30)))
        self._span = max(1, round(pause / max(interval, 1e-3)))
        return pause

    def wake(self) -> None:
        """Look at the camera's interval again: the tracker has new frames at rest to take (a
        change of the game, not of the board)."""
        self._same = 0

    def forget(self) -> None:
        """The next frame at rest is read whatever the last reading was (a new source, a new
        game's colours, an exposure changed)."""
        self._read = None
        self._same = 0
