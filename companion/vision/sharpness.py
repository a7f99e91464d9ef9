"""How smeared a frame is, measured on the markers' own edges in hex units.

Each marker's black square sits in a white margin: a step the printer made sharp. Across each
of its four sides the frame's grey level is read from the margin into the black border, and the
step's width is its contrast over its steepest slope (for a smear of length L that is L; for a
Gaussian blur of σ about 2.5 σ). A hand moving smears along one direction, so a marker's width is
that of its widest side; the frame's is the median over its markers (a marker under a finger
gives nonsense, most do not).
"""

from __future__ import annotations

import cv2
import numpy as np

from . import geometry
from .lens import Lens
from .register import project

MAX_BLUR = 2 * (geometry.INRADIUS - geometry.SAMPLE_RADIUS)
"""Widest smear (hex units) a frame may have and still be judged: 0.53. A smear of width w
mixes colours w/2 either side of an edge; the sampled disc (radius 0.6) keeps 0.27 from its
hex's side (inradius 0.87). At w/2 = 0.27 the disc's rim reads its neighbour half and half,
and the samples inside it less: the contaminated model (`model.ColourModel.judge`) still
takes those as outliers. Beyond it the frame is skipped, as a hand moving makes it; the camera
takes another within a second. Measured on rendered frames: a sharp frame reads 0.10–0.21 (the
lens's and the sensor's own blur), a smear of 10 pixels at 1280 wide about 0.31, and the marker
detector loses most markers beyond about 15 pixels (0.38), before this limit."""

_STEPS = 33
"""Points on each profile across a side."""


def _profiles(squares: np.ndarray, margin: float, inside: float) -> np.ndarray:
    """(markers, 4, _STEPS, 2) board points across each side of each square (markers, 4, 2),
    from `margin` outside the side to `inside` within it, at the side's middle."""
    centre = squares.mean(axis=1, keepdims=True)
    middles = (squares + np.roll(squares, -1, axis=1)) / 2
    out = middles - centre
    out /= np.linalg.norm(out, axis=2, keepdims=True)
    t = np.linspace(margin, -inside, _STEPS)
    profiles: np.ndarray = middles[:, :, None, :] + t[None, None, :, None] * out[:, :, None, :]
    return profiles


def width(
    gray: np.ndarray,
    homography: np.ndarray,
    squares: np.ndarray,
    module: float,
    lens: Lens | None = None,
) -> float:
    """The frame's smear in hex units (see the module's docstring). `squares` (markers, 4, 2)
    are the black squares' corners on the board, `module` one cell of a marker (hex units; the
    black border is one cell wide), `homography` board → straight-lens pixels, `lens` the bend."""
    if len(squares) == 0:
        return float("inf")
    points = _profiles(squares, 1.2 * module, 0.9 * module)
    px = project(homography, points.reshape(-1, 2))
    if lens is not None:
        px = lens.distort(px)
    maps = px.astype(np.float32).reshape(-1, 1, 2)
    grey = cv2.remap(gray, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR)
    values = np.asarray(grey, np.float64).reshape(points.shape[:3])
    step = 2.1 * module / (_STEPS - 1)
    contrast = values.max(axis=2) - values.min(axis=2)
    slope = np.abs(np.diff(values, axis=2)).max(axis=2) / step
    widths = np.where(contrast > 20, contrast / np.maximum(slope, 1e-9), np.inf)
    # never narrower than the profile can tell: one step
    return float(np.median(np.maximum(widths, step).max(axis=1)))


__all__ = ["MAX_BLUR", "width"]
