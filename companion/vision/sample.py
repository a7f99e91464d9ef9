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
from dataclasses import dataclass, field

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

PAPER_SAMPLES = 8
"""Points read along each side of a marker's white margin (`paper_points`)."""

PAPER_DARK = 24.0
"""A marker whose margin reads darker than this (grey levels, its brightest channel) is in
too deep a shadow to tell a colour from the sensor's noise: it says nothing of the white."""

PAPER_LIT = 0.8
"""Markers whose margin reads at least this share of the brightest one's level lie in the
room's direct light with it (a hard shadow takes a third or more away; the renderer's
shade is bluer than the light, as a window's sky is beside a lamp)."""

_LOG = np.log(np.arange(256, dtype=np.float32) + BLACK_OFFSET)


def paper_points(corners: dict[int, np.ndarray], margin: float) -> np.ndarray:
    """(markers, 4 · `PAPER_SAMPLES`, 2) board points (hex units) along the middle of each
    marker's white margin, `margin` wide, from its (4, 2) black square's corners as laid:
    halfway between the black and the table, so that a marker a little off its place, blur
    or the camera's tilt still leave them on the paper."""
    out = []
    for c in corners.values():
        middle = c.mean(axis=0)
        side = []
        for a, b in zip(c, np.roll(c, -1, axis=0), strict=True):
            mid = (a + b) / 2
            normal = (mid - middle) / max(float(np.linalg.norm(mid - middle)), 1e-9)
            t = (np.arange(PAPER_SAMPLES) + 0.5)[:, None] / PAPER_SAMPLES
            side.append(a + t * (b - a) + normal * margin / 2)
        out.append(np.concatenate(side))
    return np.array(out, np.float64).reshape(len(out), 4 * PAPER_SAMPLES, 2)


def white(read: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """(3,) the colour in which this frame shows white light, brightest channel 1, from the
    (markers, points, 3) margins of the markers as read (`seen`: inside the frame). The
    paper is white, so its colour is what the camera's white balance leaves of the light on
    it: a lamp's reflection on the board is that light too, and adds this colour, not grey (a
    camera balancing the blue board and a brown table to grey tints every white blue). The
    paper in the room's direct light shows it, paper in a shadow shows the other light filling
    the shade (bluer under a window): so the median over the markers within `PAPER_LIT` of the
    brightest, each in the frame, neither clipped (a channel at `CLIPPED` says nothing of the
    colour) nor in deep shadow (`PAPER_DARK`). Grey when none is left."""
    colours, levels = [], []
    whole = np.asarray(seen.all(axis=1), bool)
    # a marker wholly in the frame (most are) is read with the others in one median
    medians = np.median(read[whole], axis=1) if whole.any() else read[:0, 0]
    brightest = medians.max(axis=1).tolist()
    taken = iter(zip(medians, brightest, strict=True))
    for points, inside, all_in in zip(read, seen, whole, strict=True):
        if all_in:
            colour, level = next(taken)
        elif inside.mean() < 0.5:
            continue
        else:
            colour = np.median(points[inside], axis=0)
            level = float(colour.max())
        if CLIPPED > level >= PAPER_DARK:
            colours.append(colour / level)
            levels.append(level)
    if not colours:
        return np.ones(3)
    lit = np.array(levels) >= PAPER_LIT * max(levels)
    out: np.ndarray = np.median(np.array(colours)[lit], axis=0)
    return out / out.max()


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
    white: np.ndarray = field(default_factory=lambda: np.ones(3))
    """(3,) the colour white light shows in this frame (`white`), brightest channel 1: grey
    when no marker's margin was read."""
    level: np.ndarray | None = None
    """(hexes, 3) float32 the per-channel median of `values` (grey levels); None: not kept."""

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

    def __init__(
        self, hexes: tuple[int, ...] = geometry.HEXES, paper: np.ndarray | None = None
    ) -> None:
        """`paper`: (markers, points, 2) board points on the markers' white margins
        (`paper_points`), read for the frame's white; None: not read (grey)."""
        self.hexes = hexes
        self.points = geometry.sample_points(hexes)
        angles = np.arange(RING_SAMPLES) * (2 * np.pi / RING_SAMPLES)
        ring = RING_RADIUS * np.stack([np.cos(angles), np.sin(angles)], axis=1)
        self.ring = geometry.centres(geometry.LAND)[:, None, :] + ring[None, :, :]
        self.paper = paper
        # the disc, the ring and the paper are read in one pass: the homography and the lens once
        parts = [self.points.reshape(-1, 2), self.ring.reshape(-1, 2)]
        self._all = np.concatenate(parts if paper is None else [*parts, paper.reshape(-1, 2)])

    def sample(
        self, frame: np.ndarray, homography: np.ndarray, lens: Lens | None = None
    ) -> HexSamples:
        """`frame` BGR uint8; `homography` board → straight-lens pixels; `lens` bends them
        as the camera did."""
        read, seen = _read(frame, homography, lens, self._all)
        disc = self.points.shape[0] * self.points.shape[1]
        raw = read[:disc].reshape(*self.points.shape[:2], -1)
        inside = seen[:disc].reshape(self.points.shape[:2])
        # Each hex's channel as a row of its samples (hexes, 3, samples): the medians (order
        # statistics) and the comparisons with them run along rows, several times faster
        # than across the channels' axis; every number is the same either way.
        rows = raw.transpose(0, 2, 1).copy()
        logs = np.take(_LOG, rows)
        # the median of the logarithms is that of the grey levels, looked up
        low, high = _middle(rows)
        median = (_LOG[low] + _LOG[high]) * np.float32(0.5)
        level = (low.astype(np.float32) + high) * np.float32(0.5)
        off = np.abs(logs - median[:, :, None])
        close = (off[:, 0] < AGREEMENT) & (off[:, 1] < AGREEMENT) & (off[:, 2] < AGREEMENT)
        low, high = _middle(off, in_place=True)
        spread = (1.4826 * ((low + high) * np.float32(0.5))) ** 2
        rings = disc + self.ring.shape[0] * self.ring.shape[1]
        light = np.ones(3)
        if self.paper is not None:
            shape = self.paper.shape[:2]
            light = white(
                read[rings:].reshape(*shape, 3).astype(np.float64), seen[rings:].reshape(shape)
            )
        return HexSamples(
            self.hexes,
            rows.astype(np.float32).transpose(0, 2, 1),
            logs.transpose(0, 2, 1),
            median,
            spread,
            close.mean(axis=1),
            inside.mean(axis=1),
            read[disc:rings].reshape(*self.ring.shape[:2], -1).astype(np.float32),
            light,
            level,
        )


def _middle(rows: np.ndarray, in_place: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The two middle values (...) of each row of (..., samples) (the middle one twice for
    an odd number): their mean is `np.median`'s. `in_place`: partition `rows` itself."""
    n = rows.shape[-1]
    low, high = (n - 1) // 2, n // 2
    kth = sorted({low, high})
    if in_place:
        rows.partition(kth, axis=-1)
    else:
        rows = np.partition(rows, kth, axis=-1)
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
    # one index into the frame's rows of pixels: `take` copies whole pixels, several times
    # faster than indexing by two arrays
    yi *= w
    yi += xi
    pixels = frame.reshape(h * w, *frame.shape[2:])
    return np.take(pixels, yi, axis=0), inside
