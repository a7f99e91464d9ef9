"""One frame in, one observation out: registration, sampling and verdicts in a single call."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ..engine import board
from . import geometry, sharpness
from .aruco import MarkerDetector
from .calibrate import fit_known, propose
from .classify import HIDDEN, SURE_SEA, UNCLIPPED, Calibration, HexVerdict, Normaliser, classify
from .lens import Lens
from .markers import MarkerLayout
from .markers import load as load_markers
from .register import Measured, Registration, Steady, find, fit_found, measure
from .sample import BLACK_OFFSET, Sampler, paper_points

MOVED = 0.5
"""A hex whose median colour changes by more than this from one frame to the next (log units,
about 65 %, after any change of the whole frame's exposure) has something moving over it, or
lost its tile. Noise and blur alone moved a median by at most 0.31 in harsh synthetic light at
1280×960 and 0.45 at 640×480; a tile taken away moves it by more."""

CLIPPED = math.log(UNCLIPPED + BLACK_OFFSET)
"""A hex's median log colour (`sample`) at or above this in a channel is clipped there, or
nearly (the median of pixels demosaiced from clipped ones, `classify.UNCLIPPED`): the light
was that much or more."""


PIECE_RIM = 0.05
"""Least share of a hidden position's samples that must look like sea for the sea to count as
seen there (`Recogniser._recall`): a boat, a creature or swimmers standing on a sunk position
leave a rim of sea in view, a tile under people shows next to none (on the renderer's arm photos,
hidden positions at rest: 97 % of the sunk ones showed this much sea, 13 % of the tiles)."""


PIECE_SEA = 0.2
"""Share of a position's samples looking like sea beyond which land read there is a piece
standing in the sea (a boat the colour of sand read as beach): a tile, people on it or not,
shows next to none (`tracker.BACK_SEA`). On the renderer's arm photos (dev seeds 11-14, both
sizes), land verdicts showing this much sea: 27 of the 56 on sunk positions, 97 of 32,019 on
tiles (a tile in a hard shadow). Such a tile is only hidden while something moves over the
board, and leaves the memory once read at rest without sea."""


def changed(median: np.ndarray, before: np.ndarray, stir: float = 0.0) -> frozenset[int]:
    """The hexes of `geometry.HEXES` whose median log colour (hexes, 3) moved since `before`:
    by more than `MOVED` in a channel after the whole frame's change of exposure, and with
    `stir`, by more than that many grey levels in the same channel too. A channel at the clip
    level (`CLIPPED`) in a frame says only that its light was at least that much."""
    after = before + np.median(median - before, axis=0)  # the camera's exposure, not motion
    rise, levels = median - after, np.exp(median) - np.exp(after)  # levels: rise's sign
    up, down = (rise > MOVED) & (levels > stir), (rise < -MOVED) & (levels < -stir)
    # A channel clipped before cannot follow the exposure down, one clipped now cannot show
    # how far it rose: in a lamp's reflection a dozen hexes "moved" by the exposure alone
    # (the renderer's game with a lamp over the island; the board never came to rest).
    moved = (up & (before < CLIPPED)) | (down & (median < CLIPPED))
    rows = np.flatnonzero(moved.any(axis=1))
    return frozenset(geometry.HEXES[k] for k in rows)


def _sea_shown(v: HexVerdict) -> bool:
    """The position shows sea (its tile gone): plainly, or around a piece standing on it."""
    if v.hidden:  # a boat or a creature on the sunk position: its rim of sea still shows
        return v.sea_share >= PIECE_RIM
    # or a piece read as land (or sea, unsurely), standing in more sea than a tile shows
    return v.probabilities.get("sea", 0.0) > SURE_SEA or v.sea_share >= PIECE_SEA


class NotRegistered(Exception):
    """The frame could not be registered; the message is the Registration's reason."""


@dataclass(frozen=True)
class Observation:
    """What one frame shows: the registration and, when it succeeded, a verdict per hex."""

    registration: Registration
    hexes: dict[int, HexVerdict]
    """Every sampled hex (the 133 sea/island hexes) → its verdict; empty when refused."""
    calibrated: bool
    median: np.ndarray | None = None
    """(hexes, 3) the median log colour of each hex's sample, in `geometry.HEXES` order (None
    when refused): the tracker compares frames with it to tell a moving hand."""
    levels: tuple[float, float] | None = None
    """The grey levels of the board's darkest and brightest samples (`HexSamples.levels`):
    the brightest at `sample.CLIPPED` say the exposure clips the board (`exposure`). None
    when refused."""

    @property
    def ok(self) -> bool:
        return self.registration.ok

    @property
    def positions(self) -> dict[int, HexVerdict]:
        """The 40 land positions, the only hexes whose state changes in a game."""
        return {h: self.hexes[h] for h in geometry.LAND if h in self.hexes}

    def blocked_sea(self, threshold: float = 0.5) -> list[int]:
        """Permanent sea hexes that do not look like sea: pieces, or a hand over the board.
        Many of them in one frame mean the frame is best skipped."""
        return [
            h
            for h in geometry.PERMANENT_SEA
            if h in self.hexes and self.hexes[h].probabilities.get("sea", 0.0) < threshold
        ]

    def to_json(self) -> dict[str, Any]:
        r = self.registration
        return {
            "ok": r.ok,
            "reason": r.reason,
            "markers": list(r.markers),
            "markers_seen": list(r.seen),
            "error_hex_units": None if r.error == float("inf") else round(r.error, 4),
            "shift_hex_units": None if r.shift == float("inf") else round(r.shift, 4),
            "smear_hex_units": None if math.isnan(r.smear) else round(r.smear, 4),
            "calibrated": self.calibrated,
            "positions": [v.to_json() for v in self.positions.values()],
            "blocked_sea": [board.name(h) for h in self.blocked_sea()],
        }


class Recogniser:
    """Holds what stays the same from frame to frame: the marker layout, the detector (one per
    thread), the sample points and the calibration."""

    def __init__(
        self, markers: MarkerLayout | None = None, calibration: Calibration | None = None
    ) -> None:
        self.markers = markers or load_markers()
        self.detector = MarkerDetector()
        self.normaliser = Normaliser()
        self._measured: Measured | None = None
        self.sampler = self._sampler()
        self._sea_seen: frozenset[int] = frozenset()
        """Land positions seen plainly as sea since the last calibration (or `forget`)."""
        self._last_median: np.ndarray | None = None
        """The last registered frame's median colour per hex: what moved since."""
        self.steady = Steady()
        """The markers as the last frames of a camera that did not move showed them."""
        self.land: frozenset[int] | None = None
        """The positions the game says still hold a tile (`Tracker.expect` tells it): the
        frame's shift of the island's colours is measured on them alone. None: not known."""
        self.calibration = calibration

    def _sampler(self) -> Sampler:
        """A sampler of the hexes and of the markers' white margins where they are laid (as
        measured, else as the sheet says)."""
        corners = self.markers.board()
        if self.measured is not None:
            corners.update(self.measured.corners)
        margin = min(self.markers.quiet_zone(m) for m in self.markers.markers)
        return Sampler(paper=paper_points(corners, margin))

    @property
    def measured(self) -> Measured | None:
        """Where the markers lie and how the lens bends, from the calibration or else measured
        on the first frame whose markers allow it."""
        return self._measured

    @measured.setter
    def measured(self, measured: Measured | None) -> None:
        self._measured = measured
        self.sampler = self._sampler()

    @property
    def calibration(self) -> Calibration | None:
        return self._calibration

    @calibration.setter
    def calibration(self, calibration: Calibration | None) -> None:
        self._calibration = calibration
        self.forget()
        if calibration is not None and calibration.laid:
            self.measured = Measured(calibration.lens, calibration.laid, 0.0)

    def register(self, frame: np.ndarray) -> Registration:
        """Registration of a BGR frame (a fixed camera may reuse one for many frames)."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        if self.measured is None:
            measured = measure(gray, self.markers, self.detector)
            if isinstance(measured, str):
                return Registration(None, (), (), float("inf"), measured)
            self.measured = measured
        found = find(gray, self.markers, self.detector)
        h, w = gray.shape[:2]
        registration = fit_found(
            self.steady(found),
            (w, h),
            self.markers,
            measured=self.measured,
            seen=tuple(sorted(found)),
        )
        if not registration.ok or registration.homography is None:
            return registration
        laid = {m.id: np.array(m.corners(), np.float64) for m in self.markers.markers}
        laid.update(self.measured.corners if self.measured else {})
        smear = sharpness.width(
            gray,
            registration.homography,
            np.array([laid[i] for i in registration.markers]),
            self.markers.markers[0].size / 6,  # a 4x4 marker is 6 cells wide
            registration.lens,
        )
        registration = dataclasses.replace(registration, smear=smear)
        if smear > sharpness.MAX_BLUR:
            return dataclasses.replace(
                registration,
                homography=None,
                reason=f"the frame is smeared ({smear:.2f} hex units, limit "
                f"{sharpness.MAX_BLUR:.2f}): something moved",
            )
        return registration

    def observe(self, frame: np.ndarray, registration: Registration | None = None) -> Observation:
        """Verdicts for a BGR uint8 frame; pass `registration` to skip finding the markers."""
        registration = registration or self.register(frame)
        if not registration.ok or registration.homography is None:
            return Observation(registration, {}, self.calibration is not None)
        samples = self.sampler.sample(frame, registration.homography, registration.lens)
        verdicts = classify(samples, self.normaliser, self.calibration, self.land)
        if self.calibration is not None:  # without one nothing is hidden (land is any colour)
            verdicts = self._recall(verdicts, samples.median)
        return Observation(
            registration,
            verdicts,
            self.calibration is not None,
            samples.median,
            samples.levels(),
        )

    def forget(self) -> None:
        """Drop what earlier frames showed: the next frame is of another moment of the game."""
        self._sea_seen = frozenset()
        self._last_median = None
        self.steady.forget()

    def _recall(self, verdicts: dict[int, HexVerdict], median: np.ndarray) -> dict[int, HexVerdict]:
        """Positions seen as sea (`_sea_shown`) that read as land while something moves over the
        board are hidden: a sunk tile does not come back, and an arm's skin can pass for a
        beach. On a board at rest such a position keeps its verdict (a tile put back by
        mistake is the tracker's to report), and leaves the memory."""
        # A tile put back by mistake is read at the next frame at rest (the tracker waits for
        # several anyway); a hand or an arm may change no other hex by much.
        moving = self._last_median is not None and bool(changed(median, self._last_median))
        self._last_median = median
        plain_sea = frozenset(h for h in geometry.LAND if h in verdicts and _sea_shown(verdicts[h]))
        out = dict(verdicts)
        for h in self._sea_seen:
            v = out.get(h)
            if v is not None and v.land and moving:
                out[h] = dataclasses.replace(v, label=HIDDEN, confidence=0.0)
        # a tile seen back on a board at rest: land, and no sea around it
        back = {h for h, v in out.items() if v.land and v.sea_share < PIECE_RIM}
        self._sea_seen = (self._sea_seen | plain_sea) - back
        return out

    def calibrate(
        self,
        frame: np.ndarray,
        layout: dict[int, str] | None = None,
        source: str = "",
        lens: Lens | None = None,
    ) -> Calibration:
        """A calibration from a setup frame (all 40 tiles laid). With `layout` it is confirmed;
        without, the layout is the camera's proposal (16/16/8), to be confirmed by people."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        # the markers as laid now; the lens given (ChArUco) or else estimated from them
        measured = measure(gray, self.markers, self.detector, lens=lens)
        if isinstance(measured, str):
            raise NotRegistered(measured)
        self.measured = measured
        registration = self.register(frame)
        if not registration.ok or registration.homography is None:
            raise NotRegistered(registration.reason)
        samples = self.sampler.sample(frame, registration.homography, registration.lens)
        if layout is None:
            calibration = propose(samples, self.normaliser, source)
        else:
            calibration = fit_known(samples, self.normaliser, layout, True, source)
        calibration.markers = self.markers.fingerprint()
        calibration.lens, calibration.laid = measured.lens, measured.corners
        return calibration
