"""A robust colour sample of every hex of a registered frame.

Each hex is read at fixed points of an inner disc (`geometry.disc_offsets`), mapped into the
frame by the homography: no warp of the whole frame, so a 1280×960 frame costs no more than a
small one. Colours are taken as log(BGR): a lamp's brightness, its colour and a smooth shadow
multiply each channel, which a logarithm turns into an offset that the comparison with nearby
sea (in `classify`) subtracts away. The median over the disc ignores a piece that covers less
than half of it; the share of samples near that median says how much of the hex agreed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from . import geometry
from .lens import Lens
from .register import project

BLACK_OFFSET = 4.0
"""Added before the logarithm so that the darkest, noisiest pixels do not dominate."""

AGREEMENT = 0.18
"""A sample agrees with its hex's median when every channel is within this (log units, about
±20 % in brightness): texture and noise stay inside, a piece of another colour falls outside."""

CLIPPED = 250
"""A sample with any channel at or above this grey level is clipped: a lamp's reflection or
over-exposure, with no colour of the hex left in it."""

HIGHLIGHTS = 0.05
"""The share of the board's samples that may clip (a lamp's hot centre on a few hexes, which
are then hidden): the camera's exposure is set so that the rest does not (`exposure`). Less
(0.5 % and 2 % were tried on the renderer's games) lowers the exposure further for a few
more hexes and leaves more of the board dark and noisy: more turns read wrong."""

SHADOWS = 0.02
"""The share of the board's samples that may be darker than the exposure's floor: a corner
in deep shadow, under a piece (`exposure.DARKEST`)."""

RING_RADIUS = 0.74
"""The ring each land position is also read at (hex units): outside the sampled disc
(`geometry.SAMPLE_RADIUS`) and inside a tile's edge (a tile fills its hex: inradius 0.87 less
a few millimetres of play and of being laid by hand). Where a tile stands, the ring shows the
tile (its top or, seen at a tilt, its raised side) or pieces on it; where it sank, the sea
around a piece standing there, which covers the disc but not the ring's whole length."""

RING_SAMPLES = 24
"""Points on the ring, evenly spread: a piece covers a stretch of them, never the whole ring."""

_LOG = np.log(np.arange(256, dtype=np.float32) + BLACK_OFFSET)


@dataclass(frozen=True)
class HexSamples:
    """The samples of one frame, one row per hex of `hexes`."""

    hexes: tuple[int, ...]
    values: np.ndarray
    """(hexes, samples, 3) float32 BGR as read, 0..255."""
    pixels: np.ndarray
    """(hexes, samples, 3) float32 log BGR."""
    median: np.ndarray
    """(hexes, 3) the per-channel median of `pixels`."""
    spread: np.ndarray
    """(hexes, 3) robust variance of `pixels` about `median` (texture, noise and pieces)."""
    agreement: np.ndarray
    """(hexes,) share of samples that agree with the median: 1 on a clear hex, lower under a piece."""
    visible: np.ndarray
    """(hexes,) share of sample points inside the frame."""
    ring: np.ndarray | None = None
    """(land positions, `RING_SAMPLES`, 3) float32 BGR as read on each land position's ring
    (`RING_RADIUS`), in `geometry.LAND` order; None when not sampled."""

    @functools.cached_property
    def brightest(self) -> np.ndarray:
        """(hexes, samples) each sample's brightest channel (a maximum over the last axis of
        3 is several times slower than two elementwise ones)."""
        v = self.values
        out: np.ndarray = np.maximum(np.maximum(v[..., 0], v[..., 1]), v[..., 2])
        return out

    @property
    def clipped(self) -> np.ndarray:
        """(hexes,) share of samples that are clipped (`CLIPPED`)."""
        out: np.ndarray = (self.brightest >= CLIPPED).mean(axis=1)
        return out

    def levels(self) -> tuple[float, float]:
        """The grey levels (each sample's brightest channel) that the darkest `SHADOWS` and
        the brightest `HIGHLIGHTS` of all samples reach: how far the exposure may go down
        and how far it must."""
        brightest = self.brightest.ravel()
        n = len(brightest) - 1
        lo, hi = int(n * SHADOWS), int(n * (1 - HIGHLIGHTS))
        part = np.partition(brightest, (lo, hi))
        return float(part[lo]), float(part[hi])


class Sampler:
    """Samples the same hexes of every frame; build once, use for each frame."""

    def __init__(self, hexes: tuple[int, ...] = geometry.HEXES) -> None:
        self.hexes = hexes
        self.points = geometry.sample_points(hexes)
        angles = np.arange(RING_SAMPLES) * (2 * np.pi / RING_SAMPLES)
        ring = RING_RADIUS * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        self.ring = geometry.centres(geometry.LAND)[:, None, :] + ring[None, :, :]
        # the disc and the ring are read in one pass: the homography and the lens once
        self._all = np.concatenate([self.points.reshape(-1, 2), self.ring.reshape(-1, 2)])

    def sample(
        self, frame: np.ndarray, homography: np.ndarray, lens: Lens | None = None
    ) -> HexSamples:
        """`frame` BGR uint8; `homography` board → straight-lens pixels; `lens` bends them
        as the camera did."""
        read, seen = _read(frame, homography, lens, self._all)
        disc = self.points.shape[0] * self.points.shape[1]
        raw = read[:disc].reshape(*self.points.shape[:2], -1)
        inside = seen[:disc].reshape(self.points.shape[:2])
        pixels = _LOG[raw]
        # the median of the logarithms is that of the grey levels, looked up
        low, high = _middle(raw)
        median = (_LOG[low] + _LOG[high]) * np.float32(0.5)
        off = np.abs(pixels - median[:, None, :])
        close = (off[..., 0] < AGREEMENT) & (off[..., 1] < AGREEMENT) & (off[..., 2] < AGREEMENT)
        low, high = _middle(off)
        spread = (1.4826 * ((low + high) * np.float32(0.5))) ** 2
        return HexSamples(
            self.hexes,
            raw.astype(np.float32),
            pixels,
            median,
            spread,
            close.mean(axis=1),
            inside.mean(axis=1),
            read[disc:].reshape(*self.ring.shape[:2], -1).astype(np.float32),
        )


def _middle(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The two middle values (hexes, channels) of (hexes, samples, channels) over the samples
    (the middle one twice for an odd number): their mean is `np.median`'s, found along rows of
    one channel's samples rather than across the channels' axis (several times faster)."""
    low, high = (x.shape[1] - 1) // 2, x.shape[1] // 2
    rows = np.partition(x.transpose(0, 2, 1), sorted({low, high}), axis=2)
    return rows[..., low], rows[..., high]


def _read(
    frame: np.ndarray, homography: np.ndarray, lens: Lens | None, points: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The frame's pixels at board `points` (..., 2), and which of them lie inside it."""
    h, w = frame.shape[:2]
    px = project(homography, points)
    if lens is not None:
        px = lens.distort(px)
    xi = np.rint(px[..., 0]).astype(np.intp)
    yi = np.rint(px[..., 1]).astype(np.intp)
    inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
    # A point off the frame reads the nearest edge pixel; `visible` lets callers discount it.
    np.clip(xi, 0, w - 1, out=xi)
    np.clip(yi, 0, h - 1, out=yi)
    return frame[yi, xi], inside
