"""Where the camera expects each hex: centres, outlines and sample points, all from `plane()`.

Everything here is in the engine's hex units (circumradius 1, x right, y down, the lagoon at
0, 0; spec §2), so the board the phone draws and the hexes the camera samples cannot drift
apart. Millimetres appear only in ``hardware/markers.toml``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..engine import board

HEXES: tuple[int, ...] = tuple(i for i in range(board.SIZE) if not board.IS_SAFE[i])
"""The 133 sea/island hexes (engine numbers); the safe islands are printed, never sampled."""

LAND: tuple[int, ...] = board.LAND
"""The 40 land positions, in the engine's order."""

PERMANENT_SEA: tuple[int, ...] = tuple(i for i in HEXES if i not in set(LAND))
"""The 93 hexes that are sea for the whole game (the lagoon among them): the colour reference."""

INRADIUS = math.sqrt(3) / 2
"""A hex's inradius (centre to the middle of a side) in hex units."""

SAMPLE_RADIUS = 0.6
"""The sampled disc, in hex units. The inradius is 0.87: the margin keeps the sample on the tile
when a tile lies a few millimetres off its place or its raised top shifts with the camera's tilt
(6 mm at 35° is 0.19 units at 22 mm per unit)."""

SAMPLES_PER_HEX = 64


def centre(i: int) -> tuple[float, float]:
    """Hex i's centre in hex units."""
    return board.plane(*board.CELLS[i])


def centres(hexes: tuple[int, ...] = HEXES) -> np.ndarray:
    """(len(hexes), 2) float64 centres (a copy: the caller may change it)."""
    return _centres(hexes).copy()


@functools.cache
def _centres(hexes: tuple[int, ...]) -> np.ndarray:
    # asked for on every frame (`classify.hidden`): a copy costs a hundredth of the planing
    return np.array([centre(i) for i in hexes], dtype=np.float64)


def outline(x: float, y: float, radius: float = 1.0, turn: float = 0.0) -> np.ndarray:
    """The 6 corners of a pointy-top hex at (x, y); `turn` rotates it (radians)."""
    angles = np.radians(30.0 + 60.0 * np.arange(6)) + turn
    return np.stack([x + radius * np.cos(angles), y + radius * np.sin(angles)], axis=1)


def disc_offsets(n: int = SAMPLES_PER_HEX, radius: float = SAMPLE_RADIUS) -> np.ndarray:
    """n points spread evenly over a disc (a sunflower spiral), (n, 2) in hex units.

    Even spacing makes every sample count the same in the median; a spiral has no preferred
    direction, so a piece covers about the same share of samples whichever way it lies.
    """
    k = np.arange(n) + 0.5
    r = radius * np.sqrt(k / n)
    theta = k * math.pi * (3.0 - math.sqrt(5.0))
    return np.stack([r * np.cos(theta), r * np.sin(theta)], axis=1)


def sample_points(hexes: tuple[int, ...] = HEXES) -> np.ndarray:
    """(len(hexes), SAMPLES_PER_HEX, 2) points to sample, in hex units."""
    return centres(hexes)[:, None, :] + disc_offsets()[None, :, :]


def nearest(targets: tuple[int, ...], pool: tuple[int, ...], k: int) -> np.ndarray:
    """For each target, the indices (into `pool`) of its k nearest pool hexes, itself excluded."""
    t = centres(targets)
    p = centres(pool)
    d = np.linalg.norm(t[:, None, :] - p[None, :, :], axis=2)
    same = np.array(targets)[:, None] == np.array(pool)[None, :]
    d[same] = np.inf
    return np.argsort(d, axis=1, kind="stable")[:, :k]
