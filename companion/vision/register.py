"""Registration: from the markers found in a frame to the board→image homography, or a reason.

The board is flat, so a homography from hex units to pixels is all the geometry the camera
needs; no camera calibration or pose (research §3.2). It is fitted to every corner of every
marker found, and a frame is refused rather than guessed at when too few markers are seen or
the corners disagree with the printed layout.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from . import geometry
from .aruco import MarkerDetector
from .markers import MarkerLayout

MIN_MARKERS = 4
"""With 3 markers the homography extrapolates into the missing corner: errors of several
millimetres there (research §3.2). Four spread markers pin the whole board."""

MAX_ERROR = 0.15
"""Largest accepted RMS corner residual in hex units (3.5 mm at 23 mm per unit): a marker that
misses by more is misread or bent. Corner noise at 640×480 alone reaches about 0.08, and most
of it averages out over 16-32 corners, so this is a check for gross misfits only."""

MAX_SHIFT = 0.05
"""Largest accepted move of any hex centre (hex units, 1.2 mm) when the fit is repeated
without any one of its markers. It says directly how well the hexes are pinned: a frame with
four markers bunched on one side fails it, a noisy but well-spread one passes."""

_CENTRES = geometry.centres()


@dataclass(frozen=True)
class Registration:
    """The outcome for one frame: a homography, or the reason there is none."""

    homography: np.ndarray | None
    """3x3, board (hex units) → image pixels; None when refused."""
    markers: tuple[int, ...]
    """Ids of the markers the fit used."""
    seen: tuple[int, ...]
    """Ids of the layout's markers that were found (a marker dropped as an outlier included)."""
    error: float
    """RMS residual of the used corners, in hex units (infinite when refused for too few)."""
    reason: str | None = None
    """Why the frame was refused; None when it was accepted."""
    shift: float = float("inf")
    """The largest move of a hex centre when one marker is left out (hex units)."""

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Board points (..., 2) in hex units → pixel coordinates (..., 2)."""
        if self.homography is None:
            raise ValueError(f"the frame was not registered: {self.reason}")
        return project(self.homography, points)


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to (..., 2) points."""
    flat = points.reshape(-1, 2)
    q = flat @ h[:, :2].T + h[:, 2]
    return (q[:, :2] / q[:, 2:3]).reshape(points.shape)


def _fit(board: np.ndarray, image: np.ndarray) -> np.ndarray | None:
    h, _ = cv2.findHomography(board.reshape(-1, 1, 2), image.reshape(-1, 1, 2), 0)
    return None if h is None else np.asarray(h, dtype=np.float64)


def _residuals(h: np.ndarray, board: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Per-corner distance in hex units between the printed corner and the found one mapped
    back onto the board: an error measured where the hexes are, whatever the resolution."""
    back = project(np.linalg.inv(h), image)
    return np.asarray(np.linalg.norm(back - board, axis=-1))


def _shift(h: np.ndarray, board: np.ndarray, image: np.ndarray) -> float:
    """Leave-one-marker-out: how far the hex centres move, at most (hex units)."""
    back = np.linalg.inv(h)
    worst = 0.0
    for k in range(len(board)):
        rest = np.delete(np.arange(len(board)), k)
        other = _fit(board[rest], image[rest])
        if other is None:
            return float("inf")
        moved = project(back, project(other, _CENTRES))
        worst = max(worst, float(np.linalg.norm(moved - _CENTRES, axis=1).max()))
    return worst


def register(
    gray: np.ndarray,
    layout: MarkerLayout,
    detector: MarkerDetector,
    min_markers: int = MIN_MARKERS,
    max_error: float = MAX_ERROR,
    max_shift: float = MAX_SHIFT,
) -> Registration:
    """Find the layout's markers in a grey frame and fit the homography, or say why not."""
    corners, ids = detector.detect(gray)
    known = layout.by_id()
    found: dict[int, np.ndarray] = {}
    for c, i in zip(corners, ids, strict=True):
        if i in known and i not in found:  # a second copy of an id is a stray print: ignore it
            found[i] = c
    seen = tuple(sorted(found))
    if len(found) < min_markers:
        return Registration(
            None,
            (),
            seen,
            float("inf"),
            f"too few markers: {len(found)} of {len(known)} found, {min_markers} needed",
        )
    use = list(seen)
    while True:
        board = np.array([known[i].corners() for i in use], dtype=np.float64)
        image = np.array([found[i] for i in use], dtype=np.float64)
        h = _fit(board, image)
        if h is None:
            return Registration(None, (), seen, float("inf"), "the markers' corners are degenerate")
        per_marker = _residuals(h, board, image).mean(axis=1)
        worst = int(np.argmax(per_marker))
        # One misread or bent marker must not spoil a frame that has enough others.
        if per_marker[worst] > max_error and len(use) > min_markers:
            del use[worst]
            continue
        break
    error = float(np.sqrt(np.mean(_residuals(h, board, image) ** 2)))
    if error > max_error:
        return Registration(
            None,
            tuple(use),
            seen,
            error,
            f"reprojection error {error:.3f} hex units, limit {max_error}",
        )
    shift = _shift(h, board, image)
    if shift > max_shift:
        return Registration(
            None,
            tuple(use),
            seen,
            error,
            f"markers do not pin the board: leaving one out moves a hex {shift:.3f} hex units, "
            f"limit {max_shift}",
            shift,
        )
    return Registration(h, tuple(use), seen, error, None, shift)
