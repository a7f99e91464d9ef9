"""The lens: how a real camera bends straight lines, and how to undo it for the few points used.

A Pi Camera Module 3 (wide) or a cheap USB webcam bends the board's straight edges outwards
(barrel distortion), which no homography can follow: registration would refuse the frame, or
sample beside the hexes. The frame itself is never unbent (a whole-frame remap costs more than
the rest of a frame's work); instead the markers' corners are unbent before the homography is
fitted (`undistort`), and the sample points are bent after it (`distort`).

The model is OpenCV's (k1, k2, p1, p2, k3). Where it comes from:

- ``board``: estimated from the markers around the board in the calibration photo
  (`from_board`): the radial terms that make the printed layout fit best. Needs no print; the
  principal point is taken as the frame's centre.
- ``charuco``: OpenCV's camera calibration on photos of the ChArUco board that
  ``companion vision markers --charuco`` prints (`from_charuco`): the full model, for a lens the
  board alone cannot pin (a very wide one); ``companion vision calibrate --lens-photos`` stores
  it in the calibration file instead of the board's estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

_ITER: Any = getattr(cv2, "undistortPointsIter", None)

K_RANGE = (-0.3, 0.15)
"""The k1 searched from the board (focal length = the half-diagonal): from a strong barrel to a
mild pincushion."""

MIN_MARKERS = 6
"""Fewer markers than this do not spread far enough to tell a bend from a tilt: no estimate."""


@dataclass(frozen=True)
class Lens:
    """A camera matrix and distortion coefficients for frames of `size` (w, h)."""

    matrix: np.ndarray
    dist: np.ndarray
    size: tuple[int, int]
    source: str = "board"

    @classmethod
    def ideal(cls, size: tuple[int, int], k1: float = 0.0, k2: float = 0.0) -> Lens:
        """The board's model: focal length the half-diagonal, centre the frame's."""
        w, h = size
        f = math.hypot(w, h) / 2
        matrix = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
        return cls(matrix, np.array([k1, k2, 0.0, 0.0, 0.0]), size)

    @property
    def straight(self) -> bool:
        return not np.any(self.dist)

    def for_size(self, size: tuple[int, int]) -> Lens:
        """The same lens for frames of another size (the sensor scaled, not cropped)."""
        if size == self.size:
            return self
        sx, sy = size[0] / self.size[0], size[1] / self.size[1]
        matrix = np.diag([sx, sy, 1.0]) @ self.matrix
        return Lens(matrix, self.dist, size, self.source)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Pixels as photographed (..., 2) → where a straight lens would have put them."""
        if self.straight:
            return points
        flat = np.asarray(points, np.float64).reshape(-1, 1, 2)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 20, 1e-6)
        if _ITER is not None:  # OpenCV 4.x names the iterating form apart
            out = _ITER(flat, self.matrix, self.dist, None, self.matrix, criteria)
        else:
            out = cv2.undistortPoints(
                flat, self.matrix, self.dist, None, None, self.matrix, criteria
            )
        return np.asarray(out, np.float64).reshape(np.shape(points))

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Pixels of a straight lens (..., 2) → where this lens puts them (OpenCV's model)."""
        if self.straight:
            return points
        # coordinate by coordinate: thousands of sample points a frame, and arrays of
        # pairs cost several times more per operation
        fx, fy, cx, cy = self.matrix[0, 0], self.matrix[1, 1], self.matrix[0, 2], self.matrix[1, 2]
        points = np.asarray(points, np.float64)
        x, y = (points[..., 0] - cx) / fx, (points[..., 1] - cy) / fy
        k1, k2, p1, p2, k3 = self.dist[:5]
        r2 = x * x + y * y
        radial = 1 + r2 * (k1 + r2 * (k2 + r2 * k3))
        xy = x * y
        out = np.empty(points.shape)
        out[..., 0] = (x * radial + (2 * p1 * xy + p2 * (r2 + 2 * (x * x)))) * fx + cx
        out[..., 1] = (y * radial + (p1 * (r2 + 2 * (y * y)) + 2 * p2 * xy)) * fy + cy
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "size": list(self.size),
            "matrix": self.matrix.round(4).tolist(),
            "dist": self.dist.round(6).tolist(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Lens:
        matrix = np.array(data["matrix"], np.float64)
        dist = np.array(data["dist"], np.float64).ravel()
        size = tuple(int(v) for v in data["size"])
        if matrix.shape != (3, 3) or len(dist) < 4 or len(size) != 2:
            raise ValueError("a lens needs a 3x3 matrix, 4 or more coefficients and a size")
        dist = np.concatenate([dist, np.zeros(max(0, 5 - len(dist)))])
        return cls(matrix, dist, (size[0], size[1]), str(data.get("source", "board")))

    def describe(self) -> str:
        k1, k2 = self.dist[:2]
        w, h = self.size
        edge = self.distort(np.array([[float(w), float(h)]]))[0]
        pull = 1 - np.linalg.norm(edge - self.matrix[:2, 2]) / np.linalg.norm(
            np.array([w, h]) - self.matrix[:2, 2]
        )
        kind = "barrel" if pull > 0 else "pincushion"
        return (
            f"{self.source} lens model for {w}x{h}: k1 {k1:+.3f}, k2 {k2:+.3f} "
            f"({kind}, the corners {abs(pull) * 100:.1f} % {'in' if pull > 0 else 'out'})"
        )


def _golden(f: Callable[[float], float], lo: float, hi: float, steps: int = 30) -> float:
    """The minimum of a unimodal `f` on [lo, hi]."""
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(steps):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def from_board(
    image: np.ndarray, board: np.ndarray, size: tuple[int, int], markers: int
) -> Lens | None:
    """The radial distortion that lets the printed layout fit best: `image` (n, 2) corners as
    photographed, `board` (n, 2) where they are printed (hex units). None with too few markers.

    A homography maps a flat board exactly through a straight lens, so what a homography cannot
    follow is the lens's bend (or markers laid off their place, which scatter at random and do
    not look like a bend). k1 is found on a coarse grid and refined; k2 is left at 0, which the
    board's span cannot tell apart from k1 (a ChArUco calibration can).
    """
    if markers < MIN_MARKERS:
        return None
    src = board.reshape(-1, 1, 2)

    def misfit(k1: float) -> float:
        lens = Lens.ideal(size, k1)
        ideal = lens.undistort(image)
        h, _ = cv2.findHomography(src, ideal.reshape(-1, 1, 2), 0)
        if h is None:
            return float("inf")
        q = board @ h[:2, :2].T + h[:2, 2]
        w = board @ h[2, :2] + h[2, 2]
        return float(np.mean(np.sum((q / w[:, None] - ideal) ** 2, axis=1)))

    grid = np.linspace(*K_RANGE, 19)
    scores = [misfit(float(k)) for k in grid]
    best = int(np.argmin(scores))
    lo = float(grid[max(0, best - 1)])
    hi = float(grid[min(len(grid) - 1, best + 1)])
    return Lens.ideal(size, _golden(misfit, lo, hi))


CHARUCO_SQUARES = (7, 5)
"""Squares across and down on the printed ChArUco board (an A4 sheet in landscape)."""

CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM = 36.0, 27.0

MIN_VIEWS, MIN_CORNERS = 3, 8
"""Photos, and chessboard corners found in each, that OpenCV's calibration needs to pin the
model: fewer views cannot tell the focal length from the board's distance."""


def charuco_board() -> Any:
    """The ChArUco board: its markers from DICT_5X5_100, a dictionary the board's own markers
    (DICT_4X4_50) do not share, so neither detector mistakes one for the other."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_100)
    return cv2.aruco.CharucoBoard(CHARUCO_SQUARES, CHARUCO_SQUARE_MM, CHARUCO_MARKER_MM, dictionary)


def charuco_image(dpi: int = 150) -> np.ndarray:
    """The board to print at 100 %, grey uint8, with a white margin of one square."""
    px = dpi / 25.4
    cols, rows = CHARUCO_SQUARES
    margin = round(CHARUCO_SQUARE_MM * px)
    size = (round(cols * CHARUCO_SQUARE_MM * px) + 2 * margin,
            round(rows * CHARUCO_SQUARE_MM * px) + 2 * margin)  # fmt: skip
    out: np.ndarray = charuco_board().generateImage(size, marginSize=margin)
    return out


def from_charuco(photos: list[np.ndarray]) -> Lens:
    """The full lens model from photos (BGR or grey, one size) of the printed ChArUco board at
    several angles; ValueError saying what is missing when they cannot pin it."""
    board = charuco_board()
    detector = cv2.aruco.CharucoDetector(board)
    objects, images = [], []
    sizes = set()
    for photo in photos:
        gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY) if photo.ndim == 3 else photo
        sizes.add((gray.shape[1], gray.shape[0]))
        corners, ids, _, _ = detector.detectBoard(gray)
        if ids is None or len(ids) < MIN_CORNERS:
            continue
        obj, img = board.matchImagePoints(corners, ids)
        objects.append(obj.astype(np.float32))
        images.append(img.astype(np.float32))
    if len(sizes) > 1:
        raise ValueError("the ChArUco photos must all be of one size")
    if len(objects) < MIN_VIEWS:
        raise ValueError(
            f"the ChArUco board was found in {len(objects)} of {len(photos)} photos, "
            f"{MIN_VIEWS} needed (at least {MIN_CORNERS} corners each, at several angles)"
        )
    size = sizes.pop()
    # k3 left at 0: photos rarely reach the frame's corners, where k3 would be extrapolated
    flags = cv2.CALIB_FIX_K3
    _, matrix, dist, _, _ = cv2.calibrateCamera(objects, images, size, None, None, flags=flags)
    return Lens(np.asarray(matrix, np.float64), np.asarray(dist, np.float64).ravel()[:5],
                size, "charuco")  # fmt: skip
