"""Synthetic photos shared by the vision tests: rendered once per test run, fixed seeds.

A few dozen frames in all, so that the vision tests stay well under a minute on two cores.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from companion.vision import synth
from companion.vision.recognise import Observation, Recogniser

SIZE = (1280, 960)


@cache
def batch(mode: str, frames: int = 20, seed: int = 11) -> tuple[synth.Island, ...]:
    """`frames` photos on islands of 10 (each with its setup photo)."""
    return tuple(synth.islands(seed, frames, mode, SIZE))


@cache
def observed(mode: str) -> tuple[tuple[synth.Shot, Observation], ...]:
    """Each photo of `batch(mode)` with what a recogniser calibrated on its island's setup
    photo (layout known) makes of it."""
    out = []
    for island in batch(mode):
        recogniser = Recogniser()
        recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
        for shot in island.shots:
            recogniser.forget()  # the island's photos are unrelated moments of a game
            out.append((shot, recogniser.observe(shot.image)))
    return tuple(out)


def cover(
    image: np.ndarray, homography: list[list[float]], corners: list[tuple[float, float]]
) -> np.ndarray:
    """A copy of `image` with the board quadrilateral `corners` (hex units) painted skin-grey,
    as a hand or a sleeve would hide it."""
    import cv2

    from companion.vision.register import project

    out = image.copy()
    quad = project(np.array(homography), np.array(corners, np.float64))
    cv2.fillConvexPoly(out, np.round(quad).astype(np.int32), (120, 150, 190))
    return out


def over_marker(marker: object, margin: float = 0.3) -> list[tuple[float, float]]:
    """The board corners of a square a little larger than `marker`."""
    from companion.vision.markers import Marker

    assert isinstance(marker, Marker)
    h = marker.size / 2 + margin
    return [
        (marker.x - h, marker.y - h),
        (marker.x + h, marker.y - h),
        (marker.x + h, marker.y + h),
        (marker.x - h, marker.y + h),
    ]


def reprinted(shot: synth.Shot, marker: object, cells: np.ndarray) -> np.ndarray:
    """The grey photo with `marker`'s 4x4 inner `cells` (1 white, 0 black) painted over its
    own, in the photo's own black and white: a print smudged, or another one laid there."""
    import cv2

    from companion.vision.markers import Marker
    from companion.vision.register import project

    assert isinstance(marker, Marker)
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    cell = marker.size / 6
    h = np.array(shot.truth.homography)
    for (r, c), white in np.ndenumerate(cells):
        left = marker.x - marker.size / 2 + (c + 1) * cell  # inside the black border
        top = marker.y - marker.size / 2 + (r + 1) * cell
        square = np.array(
            [[left, top], [left + cell, top], [left + cell, top + cell], [left, top + cell]]
        )
        quad = np.round(project(h, square)).astype(np.int32)
        cv2.fillConvexPoly(gray, quad, 200 if white else 40)
    return gray
