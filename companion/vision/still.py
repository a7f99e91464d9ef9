"""Whether a frame shows anything the last frame read did not.

At a table the board is at rest most of the time, and reading a frame (markers, samples,
colours) is nearly all the camera's CPU: on a Pi that CPU is shared with the Table a player's
press waits for. A frame that matches the last one read, within a camera's noise, is not read
again: its reading stands (`Tracker.observe`'s ``again``).

The comparison is of thumbnails, each pixel the mean of a 16 × 16 block: a sensor's noise
mostly averages out there, while a tile lifted, a hand or a piece moved changes whole blocks.
It is made against the last frame *read*, not the previous one, so a slow drift (a cloud, a
lamp warming up) is read once it adds up to a change.
"""

from __future__ import annotations

import cv2
import numpy as np

BLOCK = 16
"""Pixels across a thumbnail's pixel."""
NOISE = 12
"""Levels (of 255) a thumbnail's pixel may move by in a frame showing the same board. Between
two photos of one board at rest (the renderer's `synth.photo`: new noise, focus blur and JPEG
each) blocks moved by 8 at most; a person (the smallest piece) moved by half a hex changed one
by 18 or more at 640 × 480, 31 or more at 1280 × 960. A camera whose exposure or white balance
jumps from frame to frame moves every block by more than this: each of its frames is read."""


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """The frame's block means (int16, so differences do not wrap)."""
    height, width = frame.shape[:2]
    size = (max(1, width // BLOCK), max(1, height // BLOCK))
    return cv2.resize(frame, size, interpolation=cv2.INTER_AREA).astype(np.int16)


class Stillness:
    """Remembers the last frame read; `same` says whether a new one shows the same board."""

    def __init__(self) -> None:
        self._read: np.ndarray | None = None

    def same(self, frame: np.ndarray) -> bool:
        """True when `frame` matches the last frame read (it need not be read); otherwise it
        becomes the frame read and False is the answer."""
        thumb = thumbnail(frame)
        last = self._read
        if last is not None and last.shape == thumb.shape and np.abs(thumb - last).max() <= NOISE:
            return True
        self._read = thumb
        return False

    def forget(self) -> None:
        """The next frame is read whatever it shows (a new source, a new game's expectation)."""
        self._read = None
