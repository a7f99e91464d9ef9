"""One frame in, one observation out: registration, sampling and verdicts in a single call."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from ..engine import board
from . import geometry
from .aruco import MarkerDetector
from .calibrate import fit_known, propose
from .classify import Calibration, HexVerdict, Normaliser, classify
from .markers import MarkerLayout
from .markers import load as load_markers
from .register import Measured, Registration, measure, register
from .sample import Sampler


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
        self.sampler = Sampler()
        self.normaliser = Normaliser()
        self.measured: Measured | None = None
        """Where the markers lie and how the lens bends, from the calibration or else measured
        on the first frame whose markers allow it."""
        self.calibration = calibration

    @property
    def calibration(self) -> Calibration | None:
        return self._calibration

    @calibration.setter
    def calibration(self, calibration: Calibration | None) -> None:
        self._calibration = calibration
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
        return register(gray, self.markers, self.detector, measured=self.measured)

    def observe(self, frame: np.ndarray, registration: Registration | None = None) -> Observation:
        """Verdicts for a BGR uint8 frame; pass `registration` to skip finding the markers."""
        registration = registration or self.register(frame)
        if not registration.ok or registration.homography is None:
            return Observation(registration, {}, self.calibration is not None)
        samples = self.sampler.sample(frame, registration.homography, registration.lens)
        verdicts = classify(samples, self.normaliser, self.calibration)
        return Observation(registration, verdicts, self.calibration is not None, samples.median)

    def calibrate(
        self, frame: np.ndarray, layout: dict[int, str] | None = None, source: str = ""
    ) -> Calibration:
        """A calibration from a setup frame (all 40 tiles laid). With `layout` it is confirmed;
        without, the layout is the camera's proposal (16/16/8), to be confirmed by people."""
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        measured = measure(gray, self.markers, self.detector)  # the markers as laid now
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
