"""Registration: from the markers found in a frame to the board→image homography, or a reason.

The board is flat, so a homography from hex units to pixels is all the geometry the camera
needs, once the lens's bend is undone (`lens`); no pose (research §3.2). It is fitted to every
corner of every marker found, and a frame is refused rather than guessed at when too few
markers are seen or the corners disagree with the layout.

Markers are cut out and laid by hand, a millimetre or two off the sheet's places. So the first
frame that registers measures where they actually lie (`measure`: the lens from the markers'
corners, then each marker's corners as the fit of all of them puts them), and later frames are
fitted to those measured corners; the calibration file keeps them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from . import geometry
from .aruco import MarkerDetector
from .lens import Lens, from_board
from .markers import MarkerLayout

MIN_MARKERS = 4
"""With 3 markers the homography extrapolates into the missing corner: errors of several
millimetres there (research §3.2). Four spread markers pin the whole board."""

MAX_ERROR = 0.15
"""Largest accepted RMS corner residual in hex units (3.5 mm at 23 mm per unit): a marker that
misses by more is misread or bent. Corner noise at 640×480 alone reaches about 0.08, and most
of it averages out over 16-32 corners, so this is a check for gross misfits only."""

MAX_SHIFT = (geometry.INRADIUS - geometry.SAMPLE_RADIUS) / 2
"""Largest accepted error of any hex centre (hex units, `PIN_SIGMAS` standard deviations, as
the fit's own scatter predicts it: `_shift`): 0.13, 3 mm. The sampled disc (radius 0.6) stays
on its hex (inradius 0.87) while the centre is off by less than 0.27; half of that is left to
the tiles themselves (laid a little off their place, their raised tops seen at a tilt), half
to the fit. Four markers bunched on one side fail it (the far hexes are extrapolated); noisy
corners of a 640×480 frame with five markers spread around pass, as the sampling does.

A first version refitted without each marker in turn and refused any frame whose centres then
moved more than 0.05: with five markers that move is several times the fit's real error
(0.2–0.8 against 0.07–0.14 measured on rendered 640×480 frames), so it refused good frames."""

MEASURE_ERROR = 0.25
"""Largest RMS residual (hex units, 6 mm) the frame that measures the markers may have against
the printed sheet once the lens is undone: markers laid by hand within a few millimetres, not
a marker on the wrong side of the board."""

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
    """How far off a hex centre may be, at worst (hex units, `PIN_SIGMAS` σ; `_shift`)."""
    lens: Lens | None = None
    """The lens whose bend was undone (None: taken as straight)."""
    smear: float = float("nan")
    """How smeared the frame is at its markers (hex units, `sharpness.width`; nan: not
    measured)."""

    @property
    def ok(self) -> bool:
        return self.reason is None

    def to_image(self, points: np.ndarray) -> np.ndarray:
        """Board points (..., 2) in hex units → pixel coordinates (..., 2)."""
        if self.homography is None:
            raise ValueError(f"the frame was not registered: {self.reason}")
        straight = project(self.homography, points)
        return straight if self.lens is None else self.lens.distort(straight)


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to (..., 2) points."""
    flat = points.reshape(-1, 2)
    q = flat @ h[:, :2].T
    if len(flat) < MANY_POINTS:
        q += h[:, 2]
        return (q[:, :2] / q[:, 2:3]).reshape(points.shape)
    # column by column: numpy's broadcasts along rows of 3 cost twice the whole projection
    for k in range(3):
        q[:, k] += h[k, 2]
    out = np.empty(flat.shape)
    np.divide(q[:, 0], q[:, 2], out=out[:, 0])
    np.divide(q[:, 1], q[:, 2], out=out[:, 1])
    return out.reshape(points.shape)


MANY_POINTS = 64
"""Points from which `project` goes column by column (its fixed cost is higher)."""


def _fit(board: np.ndarray, image: np.ndarray) -> np.ndarray | None:
    h, _ = cv2.findHomography(board.reshape(-1, 1, 2), image.reshape(-1, 1, 2), 0)
    return None if h is None else np.asarray(h, dtype=np.float64)


def _residuals(h: np.ndarray, board: np.ndarray, image: np.ndarray) -> np.ndarray:
    """Per-corner distance in hex units between the printed corner and the found one mapped
    back onto the board: an error measured where the hexes are, whatever the resolution."""
    back = project(np.linalg.inv(h), image)
    return np.asarray(np.linalg.norm(back - board, axis=-1))


def _jacobian(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 2, 8): how each projected point moves with the homography's 8 free entries
    (h33 fixed at 1)."""
    x, y = points[:, 0], points[:, 1]
    w = h[2, 0] * x + h[2, 1] * y + h[2, 2]
    u = (h[0, 0] * x + h[0, 1] * y + h[0, 2]) / w
    v = (h[1, 0] * x + h[1, 1] * y + h[1, 2]) / w
    one, zero = np.ones_like(x), np.zeros_like(x)
    du = np.stack([x, y, one, zero, zero, zero, -u * x, -u * y], axis=1) / w[:, None]
    dv = np.stack([zero, zero, zero, x, y, one, -v * x, -v * y], axis=1) / w[:, None]
    return np.stack([du, dv], axis=1)


PIN_SIGMAS = 3.0
"""How many standard deviations of a hex centre's predicted error must fit within the limit:
at 3, 99 % of frames put every centre inside it."""


def _shift(h: np.ndarray, board: np.ndarray, image: np.ndarray) -> float:
    """How far off the hex centres may be (hex units, `PIN_SIGMAS` standard deviations, the
    worst hex): the corners' own scatter about the fit, carried through the fit's geometry to
    each hex. Markers bunched on one side leave the far hexes loose; noisy corners (a low
    resolution, blur) loosen all of them; many spread markers pin them."""
    h = h / h[2, 2]
    markers = len(board)
    fitted = project(h, board)  # (markers, 4, 2)
    residual = image - fitted
    # A blurred marker shows a smaller (or larger) square about the same centre: that says
    # nothing of where it lies, so each marker's own scale is taken out of its residuals.
    arm = fitted - fitted.mean(axis=1, keepdims=True)
    scale = (residual * arm).sum(axis=(1, 2)) / (arm * arm).sum(axis=(1, 2))
    residual = residual - scale[:, None, None] * arm
    board = board.reshape(-1, 2)
    dof = 2 * len(board) - 8 - markers
    if dof <= 0:
        return float("inf")
    variance = float((residual**2).sum()) / dof
    a = _jacobian(h, board).reshape(-1, 8)  # board: (corners, 2)
    try:
        cov = variance * np.linalg.inv(a.T @ a)
    except np.linalg.LinAlgError:
        return float("inf")
    jc = _jacobian(h, _CENTRES)
    spread = (jc @ cov) @ jc.transpose(0, 2, 1)  # (hexes, 2, 2) pixels²
    # the larger eigenvalue of each symmetric 2x2, written out (LAPACK's batched call costs
    # more than the rest of this check)
    mean = (spread[:, 0, 0] + spread[:, 1, 1]) / 2
    half = (spread[:, 0, 0] - spread[:, 1, 1]) / 2
    worst = mean + np.sqrt(half * half + spread[:, 0, 1] * spread[:, 1, 0])
    # pixels per hex unit at each centre: the local scale of the homography
    step = project(h, _CENTRES + np.array([1.0, 0.0])) - project(h, _CENTRES)
    scale = np.linalg.norm(step, axis=1)
    return float((PIN_SIGMAS * np.sqrt(np.maximum(worst, 0.0)) / scale).max())


def find(gray: np.ndarray, layout: MarkerLayout, detector: MarkerDetector) -> dict[int, np.ndarray]:
    """The layout's markers found in a grey frame: id → (4, 2) corners as photographed."""
    known = layout.by_id()
    corners, ids = detector.detect(gray, layout.board())
    found: dict[int, np.ndarray] = {}
    for c, i in zip(corners, ids, strict=True):
        if i in known and i not in found:  # a second copy of an id is a stray print: ignore it
            found[i] = c
    return found


@dataclass(frozen=True)
class Measured:
    """Where the markers and the lens actually are, as one frame measured them."""

    lens: Lens | None
    corners: dict[int, np.ndarray]
    """Marker id → (4, 2) board corners (hex units) as laid; markers not seen keep the sheet's."""
    error: float
    """RMS residual against the printed sheet, lens undone (hex units): how far off by hand."""


def measure(
    gray: np.ndarray,
    layout: MarkerLayout,
    detector: MarkerDetector,
    min_markers: int = MIN_MARKERS,
    lens: Lens | None = None,
) -> Measured | str:
    """The lens and the markers' laid corners from one frame, or the reason it cannot tell.
    With `lens` (a ChArUco calibration) that lens is taken instead of the board's estimate."""
    found = find(gray, layout, detector)
    if len(found) < min_markers:
        total = len(layout.markers)
        return f"too few markers: {len(found)} of {total} found, {min_markers} needed"
    known = layout.by_id()
    ids = sorted(found)
    board = np.array([known[i].corners() for i in ids], np.float64).reshape(-1, 2)
    image = np.array([found[i] for i in ids], np.float64).reshape(-1, 2)
    h, w = gray.shape[:2]
    lens = from_board(image, board, (w, h), len(ids)) if lens is None else lens.for_size((w, h))
    ideal = image if lens is None else lens.undistort(image)
    fit = _fit(board, ideal)
    if fit is None:
        return "the markers' corners are degenerate"
    error = float(np.sqrt(np.mean(_residuals(fit, board, ideal) ** 2)))
    if error > MEASURE_ERROR:
        return (
            f"the markers lie {error:.2f} hex units (RMS) off the sheet's places, limit "
            f"{MEASURE_ERROR}: check each is where its label says"
        )
    seen = project(np.linalg.inv(fit), ideal).reshape(-1, 4, 2)
    corners = {m.id: np.array(m.corners(), np.float64) for m in layout.markers}
    for k, i in enumerate(ids):
        corners[i] = _rigid(np.array(known[i].corners(), np.float64), seen[k])
    return Measured(lens, corners, error)


def _rigid(printed: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """The printed square (4, 2) moved and turned onto the corners `seen` (4, 2), keeping its
    size: a marker is a stiff print, so only its place and turn are measured (a blurred photo
    shrinks the square it shows, which is the photo's fault, not the marker's)."""
    p = printed - printed.mean(axis=0)
    q = seen - seen.mean(axis=0)
    turn = np.arctan2((p[:, 0] * q[:, 1] - p[:, 1] * q[:, 0]).sum(), (p * q).sum())
    c, s = np.cos(turn), np.sin(turn)
    out: np.ndarray = p @ np.array([[c, s], [-s, c]]) + seen.mean(axis=0)
    return out


def register(
    gray: np.ndarray,
    layout: MarkerLayout,
    detector: MarkerDetector,
    min_markers: int = MIN_MARKERS,
    max_error: float = MAX_ERROR,
    max_shift: float = MAX_SHIFT,
    measured: Measured | None = None,
) -> Registration:
    """Find the layout's markers in a grey frame and fit the homography, or say why not. With
    `measured`, the lens is undone and the markers are where they were measured to lie."""
    found = find(gray, layout, detector)
    h, w = gray.shape[:2]
    return fit_found(found, (w, h), layout, min_markers, max_error, max_shift, measured)


def fit_found(
    found: dict[int, np.ndarray],
    size: tuple[int, int],
    layout: MarkerLayout,
    min_markers: int = MIN_MARKERS,
    max_error: float = MAX_ERROR,
    max_shift: float = MAX_SHIFT,
    measured: Measured | None = None,
    seen: tuple[int, ...] | None = None,
) -> Registration:
    """`register` for markers already found (id → (4, 2) corners as photographed) in a frame
    of `size` (w, h); `seen`: the ids found in this very frame, when `found` holds more
    (`Steady`)."""
    known = layout.by_id()
    lens = None if measured is None or measured.lens is None else measured.lens.for_size(size)
    if lens is not None and found:
        ids = list(found)  # all the markers' corners through the lens at once
        found = dict(zip(ids, lens.undistort(np.array([found[i] for i in ids])), strict=True))
    laid = layout.board()
    if measured is not None:
        laid.update(measured.corners)
    used = tuple(sorted(found))
    seen = used if seen is None else seen
    if len(found) < min_markers:
        return Registration(
            None,
            (),
            seen,
            float("inf"),
            f"too few markers: {len(found)} of {len(known)} found, {min_markers} needed",
        )
    steps: dict[tuple[int, ...], _Step] = {}
    first = _fit_markers(
        found, laid, list(used), min_markers, max_error, max_shift, seen, lens, steps
    )
    if first.ok or len(first.markers) == len(used) or first.homography is not None:
        return first
    # Dropping a marker that missed left the board less pinned than keeping it would: in a
    # noisy frame all markers miss alike, and one that misses a little more is no misread
    # (small far markers of a 640x480 frame miss most). The markers dropped are taken back,
    # the last dropped first, until a fit passes: each leaves off one drop fewer. Each retrace
    # drops the markers the first did, in its order, so their fits are taken from `steps`.
    for keep in range(len(first.markers) + 1, len(used) + 1):
        kept = _fit_markers(found, laid, list(used), keep, max_error, max_shift, seen, lens, steps)
        if kept.ok:
            return kept
    return first


STILL = 0.06
"""Largest move of a marker's corners between frames, as a share of its side, for the camera
to count as not moved: corner noise at 640×480 is a few hundredths of a side; a camera
knocked or a stand that sags moves them by more."""

KEEP = 6
"""Detections of each marker averaged while the camera stays still (a second or two)."""


class Steady:
    """The markers' corners over the frames of a camera that has not moved.

    A camera on a stand does not move between frames, so neither do the markers in its
    frames: averaging their corners over the last `KEEP` detections takes out the noise of
    each (sensor, JPEG, a hand's blur), and a marker a hand covers now is still where it was
    a moment ago. When the markers seen now have moved (`STILL`), the camera was moved: what
    was remembered is dropped."""

    def __init__(self) -> None:
        self._seen: dict[int, list[np.ndarray]] = {}

    def forget(self) -> None:
        self._seen.clear()

    def __call__(self, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
        """This frame's markers (id → (4, 2) corners) → the corners to fit: averaged with
        the remembered ones, and remembered markers not found now."""
        moves = {i: _moved(self._seen[i], c) for i, c in found.items() if i in self._seen}
        if not moves or float(np.median(list(moves.values()))) > STILL:
            self._seen = {i: [c] for i, c in found.items()}
            return dict(found)
        for i, c in found.items():
            if moves.get(i, 0.0) > 2 * STILL:
                continue  # this one misread, or a hand lifts it: keep what was seen
            kept = self._seen.setdefault(i, [])
            kept.append(c)
            del kept[:-KEEP]
        return {i: np.mean(kept, axis=0) for i, kept in self._seen.items()}


def _moved(kept: list[np.ndarray], corners: np.ndarray) -> float:
    """How far `corners` lie from the mean of the `kept` ones, as a share of a marker's side."""
    before = np.mean(kept, axis=0)
    side = float(np.linalg.norm(before[1] - before[0]))
    return float(np.abs(corners - before).max()) / max(side, 1.0)


def _apart(board: np.ndarray, image: np.ndarray, k: int) -> tuple[float, np.ndarray | None]:
    """How far marker `k` (of the (markers, 4, 2) corners) misses the fit of the others: its
    corners' mean residual, hex units (infinite when the others cannot be fitted); and that
    fit (None: degenerate)."""
    others = np.delete(np.arange(len(board)), k)
    h = _fit(board[others], image[others])
    if h is None:
        return float("inf"), None
    return float(_residuals(h, board[k : k + 1], image[k : k + 1]).mean()), h


def _normalising(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The similarity (3x3) taking (n, 2) points to mean 0 and mean distance √2 (Hartley's,
    for a well-conditioned direct fit), and its inverse."""
    centre = points.mean(axis=0)
    scale = math.sqrt(2) / max(float(np.linalg.norm(points - centre, axis=1).mean()), 1e-12)
    there = np.array([[scale, 0, -scale * centre[0]], [0, scale, -scale * centre[1]], [0, 0, 1]])
    back = np.array([[1 / scale, 0, centre[0]], [0, 1 / scale, centre[1]], [0, 0, 1]])
    return there, back


def _apart_estimates(board: np.ndarray, image: np.ndarray) -> np.ndarray:
    """`_apart` of every marker at once, from direct linear fits of the others (image →
    board): one batched eigen-solve instead of a refined fit per marker."""
    to_image, _ = _normalising(image.reshape(-1, 2))
    to_board, from_board = _normalising(board.reshape(-1, 2))
    i, b = project(to_image, image), project(to_board, board)
    x, y, u, v = i[..., 0], i[..., 1], b[..., 0], b[..., 1]
    one, zero = np.ones_like(x), np.zeros_like(x)
    rows = np.stack(
        [
            np.stack([x, y, one, zero, zero, zero, -u * x, -u * y, -u], axis=-1),
            np.stack([zero, zero, zero, x, y, one, -v * x, -v * y, -v], axis=-1),
        ],
        axis=2,
    ).reshape(len(board), 8, 9)  # each marker's 8 equations
    own = rows.transpose(0, 2, 1) @ rows
    _, vectors = np.linalg.eigh(own.sum(axis=0) - own)  # each: the fit of all the others
    fits = from_board @ vectors[:, :, 0].reshape(-1, 3, 3) @ to_image
    back = np.einsum("mij,mnj->mni", fits, np.concatenate([image, one[..., None]], axis=-1))
    with np.errstate(divide="ignore", invalid="ignore"):
        miss = np.linalg.norm(back[..., :2] / back[..., 2:] - board, axis=-1).mean(axis=1)
    out: np.ndarray = np.where(np.isfinite(miss), miss, np.inf)
    return out


ESTIMATE_SLACK = 0.5
"""Markers whose estimated miss (`_apart_estimates`) is under this share of the limit are not
refitted one by one (`_apart`): where either was under half the limit, the two differed by at
most 0.025 hex units on the vision bench's photos (every condition, both sizes; 0.0003 at the
median), far from the half left as slack. Misses above it are refitted, so which marker is
dropped is decided as before."""


def _worst(
    board: np.ndarray, image: np.ndarray, max_error: float
) -> tuple[int, dict[int, np.ndarray | None]]:
    """The marker (its position in the (markers, 4, 2) corners) that misses the fit of the
    others most, if by more than `max_error` (-1 when none does); and the fits of the others
    made on the way, by the marker left out.

    One misread or bent marker must not spoil a frame that has enough others. It is judged
    against the fit of the others: a fit to all of them bends towards it (a homography has 8
    degrees of freedom) and blames its neighbours instead."""
    apart = _apart_estimates(board, image)
    fits = {}
    for k in np.flatnonzero(apart > ESTIMATE_SLACK * max_error).tolist():
        apart[k], fits[k] = _apart(board, image, k)
    worst = int(np.argmax(apart))
    return (worst if apart[worst] > max_error else -1), fits


@dataclass
class _Step:
    """One set of markers on `_fit_markers`' way: its fit, and which of them it drops."""

    board: np.ndarray
    image: np.ndarray
    homography: np.ndarray | None
    drop: int | None = None
    """The position (in the set) of the marker dropped next, -1 for none; None: not judged."""
    without: dict[int, np.ndarray | None] = field(default_factory=dict)
    """The fits of the set less one marker (by its position) made while judging them."""


def _fit_markers(
    found: dict[int, np.ndarray],
    laid: dict[int, np.ndarray],
    use: list[int],
    min_markers: int,
    max_error: float,
    max_shift: float,
    seen: tuple[int, ...],
    lens: Lens | None,
    steps: dict[tuple[int, ...], _Step] | None = None,
) -> Registration:
    """The fit to the markers `use`, leaving out the worst while it misses by more than
    `max_error` and more than `min_markers` remain; then the error and pinning checks.
    `steps` keeps each set's fit and drop for a later call on the same markers (which
    marker a set drops does not depend on `min_markers`)."""
    steps = {} if steps is None else steps
    before: _Step | None = None  # the set before the last drop
    while True:
        step = steps.get(tuple(use))
        if step is None:
            board = np.array([laid[i] for i in use], dtype=np.float64)
            image = np.array([found[i] for i in use], dtype=np.float64)
            # the marker dropped was judged against this very fit (the same corners in the
            # same order): always made then, as only a refitted miss can exceed the limit
            dropped = -1 if before is None or before.drop is None else before.drop
            if before is not None and dropped in before.without:
                h = before.without[dropped]
            else:
                h = _fit(board, image)
            step = steps[tuple(use)] = _Step(board, image, h)
        board, image, h = step.board, step.image, step.homography
        if h is None:
            return Registration(None, (), seen, float("inf"), "the markers' corners are degenerate")
        if len(use) <= min_markers:
            break
        if step.drop is None:
            step.drop, step.without = _worst(board, image, max_error)
        if step.drop >= 0:
            del use[step.drop]
            before = step
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
            f"markers do not pin the board: a hex may be {shift:.3f} hex units off "
            f"({PIN_SIGMAS:.0f} σ), limit {max_shift:.3f}",
            shift,
            lens,
        )
    return Registration(h, tuple(use), seen, error, None, shift, lens)
