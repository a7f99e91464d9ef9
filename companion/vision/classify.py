"""Per-position verdicts: sea, beach, forest or mountain, with a probability and a confidence.

A hex's colour is compared with the sea around it (the median of its nearest clear sea
hexes), so light that changes across the board, a colour cast and a smooth shadow cancel out:
they multiply every colour alike. Glare does not multiply, it adds white; because the printed
sea is strongly blue, the white added to the sea nearby can be measured (``glare``) and taken
off before the comparison. The classes are Gaussians in that relative colour, learnt from a
setup frame (`Calibration`), widened where the frame is noisier than the setup frame was.
Without a calibration only land against sea is decided, from the frame's own sea.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..engine import board
from . import geometry
from .lens import Lens
from .model import CLASSES, ColourModel, Gaussian, robust_gaussian
from .sample import BLACK_OFFSET, HexSamples

HIDDEN = "hidden"
"""The label of a hex the camera cannot see (unsure is a verdict, not a guess)."""

REFERENCES = 3
"""Sea hexes whose median colour is a hex's reference: one would follow a piece on it, many
would reach into other light."""

BLOCKED = 0.3
"""A permanent sea hex whose colour is this far (log units, any channel) from the sea around
it holds a boat or a creature, and is no reference. Boats start right beside the island (B-6),
exactly where the island's references lie."""

MIN_CLEAR = 24
"""At least this many references (a quarter of the permanent sea), however busy the sea."""

SURE_SEA = 0.95
"""A land position called sea this surely (and mostly unoccluded) becomes a reference too, in a
second pass: it brings the reference closer to the island's inner hexes."""


NEAREST_KEPT = 16
"""Sets of references whose nearest hexes a `Normaliser` keeps (`Normaliser.nearest`)."""


class Normaliser:
    """Each hex's reference colour: the median of the nearest reference hexes (itself never)."""

    def __init__(self, hexes: tuple[int, ...] = geometry.HEXES) -> None:
        c = geometry.centres(hexes)
        d = np.linalg.norm(c[:, None, :] - c[None, :, :], axis=2)
        np.fill_diagonal(d, np.inf)
        self.hexes = hexes
        self.order = np.argsort(d, axis=1, kind="stable")[:, :-1]
        self.permanent = _permanent(hexes)
        self._nearest: dict[tuple[bytes, int], np.ndarray] = {}

    def reference(
        self, median: np.ndarray, reference: np.ndarray, k: int = REFERENCES
    ) -> np.ndarray:
        """(hexes, 3) reference colours; `reference` (hexes,) marks the hexes that are sea."""
        out: np.ndarray = np.median(median[self.nearest(reference, k)], axis=1)
        return out

    def nearest(self, reference: np.ndarray, k: int) -> np.ndarray:
        """(hexes, k) each hex's `k` nearest among the hexes marked in `reference`. A frame
        asks for the same few sets again (each pass's colours and noise; the same clear sea
        frame after frame), so the last `NEAREST_KEPT` are kept."""
        key = (reference.tobytes(), k)
        idx = self._nearest.get(key)
        if idx is None:
            chosen = reference[self.order]
            take = chosen & (np.cumsum(chosen, axis=1) <= k)  # the first k references per row
            idx = self.order[take].reshape(len(self.hexes), k)
            if len(self._nearest) >= NEAREST_KEPT:
                del self._nearest[next(iter(self._nearest))]
            self._nearest[key] = idx
        return idx

    def clear_sea(self, samples: HexSamples) -> np.ndarray:
        """The permanent sea hexes fit to be references: no boat or creature on them.

        Judged by colour only (the share of agreeing samples falls with noise in a dark frame,
        where every hex is still a fine reference), and never fewer than `MIN_CLEAR`: in the
        worst frame the least unusual sea hexes are the best references there are.
        """
        local = self.reference(samples.median, self.permanent, 6)
        off = np.where(self.permanent, np.abs(samples.median - local).max(axis=1), np.inf)
        clear: np.ndarray = off < BLOCKED
        if clear.sum() < MIN_CLEAR:
            clear = np.zeros_like(clear)
            clear[np.argsort(off, kind="stable")[:MIN_CLEAR]] = True
        return clear


@dataclass(frozen=True)
class HexVerdict:
    """What the camera makes of one hex in one frame."""

    hex: int
    label: str
    """sea, beach, forest or mountain; ``land`` when no calibration says which terrain;
    ``hidden`` when an arm, a phone or a heap of pieces covers it, a piece stands in the sea
    there (`PIECE_RING`) or a lamp's white leaves a colour that says otherwise (`WASHED`):
    nothing is guessed."""
    probabilities: dict[str, float]
    """Over sea and the terrains (or sea and land), summing to 1, before any game knowledge."""
    confidence: float
    """0..1: the label's probability times the share of the sample that agreed, times the share
    of the hex inside the frame (a piece on the hex lowers it; a verdict with low confidence is
    one to ask about)."""
    agreement: float
    """Share of the hex's samples that its label explains (the rest: pieces, glare)."""
    sea_share: float = 0.0
    """Share of the hex's samples that look like sea: around a boat or a creature on a sunk
    position the sea still shows; around people on a tile it does not."""
    glare: float = 0.0
    """White light added at the hex, as the sea around it shows it, relative to the light
    the sea itself reflects there (`Relative.glare` / `Relative.light`): 0 without glare."""
    rim: float = 0.0
    """Land positions: share of the ring between the sampled disc and the hex's border
    (`sample.RING_RADIUS`) that looks like sea. A tile fills its hex, so where it stands the
    ring shows the tile or the people on it; where it sank, the sea around whatever stands
    there (0 in a lamp's reflection, like `sea_share`)."""
    washed: float = 0.0
    """Land positions: white light the hex itself shows, relative to the light the sea around
    it reflects (`washed`): a lamp's reflection is brightest in its middle, where the sea
    around a hex (`glare`) shows less of it than the hex does."""
    sea_fit: float = 0.0
    """Land positions: how much better the sea than the position's own tile explains the hex's
    colour once any white is allowed on top (`washed`; log of the ratio of misfits, > 0: sea
    fits better; the tile's fit under the markers' white where that is better). What a tile
    in a lamp's reflection still tells: the sea is blue under any white added, a beach
    yellow, a forest green."""
    sea_misfit: float = 0.0
    """Land positions: what the sea's colour under the best gain and white leaves unexplained
    of the hex's median (`washed`), grey levels per channel (root mean square): small where
    the hex shows the sea however lit, large under a sleeve or a piece of another colour,
    however much better than the tile the sea fits."""

    @property
    def land(self) -> bool:
        return self.label not in ("sea", HIDDEN)

    @property
    def hidden(self) -> bool:
        """Nothing can be said: an arm, a phone or glare covers the hex."""
        return self.label == HIDDEN

    def to_json(self) -> dict[str, Any]:
        return {
            "hex": board.name(self.hex),
            "label": self.label,
            "land": self.land,
            "confidence": round(self.confidence, 4),
            "agreement": round(self.agreement, 4),
            "probabilities": {k: round(v, 4) for k, v in self.probabilities.items()},
        }


@dataclass
class Calibration:
    """What one board under one camera looks like: learnt from a setup frame (all 40 tiles)."""

    model: ColourModel
    layout: dict[int, str]
    """The terrain on each land position in the setup frame."""
    confirmed: bool
    """True when people gave the layout; False when it is the camera's proposal."""
    noise: np.ndarray = field(default_factory=lambda: np.zeros(3))
    """(3,) variance of single samples on the setup frame's sea (`Relative.noise`); a frame
    noisier than that widens the classes by the difference."""
    margins: dict[int, float] = field(default_factory=dict)
    """For a proposal: how clearly each position fell into its group (larger is surer)."""
    source: str = ""
    markers: str = ""
    """The fingerprint of the marker layout it was made with (`MarkerLayout.fingerprint`)."""
    lens: Lens | None = None
    """The camera's lens as measured (None: straight, or not measured)."""
    laid: dict[int, np.ndarray] = field(default_factory=dict)
    """Marker id → its (4, 2) corners on the board (hex units) as measured where laid."""

    def to_json(self) -> dict[str, Any]:
        return {
            "version": 1,
            "source": self.source,
            "markers": self.markers,
            "confirmed": self.confirmed,
            "layout": {board.name(h): t for h, t in sorted(self.layout.items())},
            "margins": {board.name(h): round(m, 4) for h, m in sorted(self.margins.items())},
            "noise": [round(float(v), 7) for v in self.noise],
            "model": self.model.to_json(),
            "lens": None if self.lens is None else self.lens.to_json(),
            "markers_laid": {str(i): c.round(4).tolist() for i, c in sorted(self.laid.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        if data.get("version") != 1:
            raise ValueError("not a version 1 calibration file")
        return cls(
            ColourModel.from_json(data["model"]),
            {board.parse(k): v for k, v in data["layout"].items()},
            bool(data["confirmed"]),
            np.array(data.get("noise", [0.0, 0.0, 0.0]), np.float64),
            {board.parse(k): float(v) for k, v in data.get("margins", {}).items()},
            str(data.get("source", "")),
            str(data.get("markers", "")),
            Lens.from_json(data["lens"]) if data.get("lens") else None,
            {int(i): _corners(c) for i, c in data.get("markers_laid", {}).items()},
        )


def _corners(data: Any) -> np.ndarray:
    corners = np.array(data, np.float64)
    if corners.shape != (4, 2):
        raise ValueError("a laid marker needs 4 corners of 2 coordinates")
    return corners


UNCLIPPED = 245.0
"""Grey levels below which a reference channel still measures light (`glare`)."""

GLARE_SLACK = 3.0
"""Estimated glare below this (grey levels) is taken as none: noise in the estimate, which
would otherwise darken every dark channel a little."""


def glare(reference: np.ndarray, sea: np.ndarray) -> np.ndarray:
    """(hexes,) white light added at each hex: the reference colours (hexes, 3) fitted as
    `gain · sea + glare` with `sea` (3,) the frame's typical sea colour (grey levels).

    A channel clipped in the reference or in the typical sea (the printed sea's blue in a
    bright frame) says nothing of either and is left out of that hex's fit: counted, its
    missing light would read as white added. A reference with fewer than two channels left
    is sea clipped where the frame's typical sea is not: glare, as much as can be told."""
    lit = (reference < UNCLIPPED) & (sea < UNCLIPPED)[None, :]
    w = lit.astype(np.float64)
    # per hex, weighted least squares of reference ≈ gain · sea + glare over its lit channels
    n = w.sum(axis=1)
    sx, sxx = w @ sea, w @ (sea * sea)
    sy, sxy = (w * reference).sum(axis=1), (w * reference) @ sea
    det = n * sxx - sx * sx
    solvable = (n >= 2) & (np.abs(det) > 1e-6)
    coef = np.where(solvable, (sxx * sy - sx * sxy) / np.where(solvable, det, 1.0), 0.0)
    g = np.clip(coef - GLARE_SLACK, 0.0, None)
    g = np.where(solvable, g, np.inf)  # sea nearly white: glare
    # never more than most of the darkest channel: what is left must stay a colour
    out: np.ndarray = np.minimum(g, 0.8 * reference.min(axis=1))
    return out


@dataclass(frozen=True)
class Relative:
    """A frame's samples relative to the sea around each hex, glare taken off."""

    pixels: np.ndarray
    """(hexes, samples, 3) relative log colours."""
    median: np.ndarray
    """(hexes, 3) relative log colour of each hex's median."""
    noise: np.ndarray
    """(hexes, 3) variance of single samples on the reference sea around each hex."""
    glare: np.ndarray
    """(hexes,) white light added at each hex (grey levels, `glare`), as the sea around it
    shows it."""
    light: np.ndarray
    """(hexes,) the brightest channel of the sea around each hex, glare taken off (grey
    levels): the light the board reflects there."""
    base: np.ndarray
    """(hexes, 3) log colour of the sea around each hex, glare taken off: what `pixels` are
    relative to."""


def relative(samples: HexSamples, normaliser: Normaliser, reference: np.ndarray) -> Relative:
    """Relative colours with the hexes marked in `reference` (hexes,) as the sea to compare with."""
    ref_log = normaliser.reference(samples.median, reference)
    offset = BLACK_OFFSET
    ref = np.exp(ref_log) - offset
    sea = np.exp(np.median(samples.median[reference], axis=0)) - offset
    g = glare(ref, sea)
    base = np.log(np.maximum(ref - g[:, None], 0.0) + offset)
    values = samples.values - g[:, None, None].astype(np.float32)
    pixels = np.log(np.maximum(values, 0.0) + offset) - base[:, None, :].astype(np.float32)
    median = np.log(np.maximum(np.exp(samples.median) - offset - g[:, None], 0.0) + offset)
    # Noise in log units grows as the glare is taken off (the same grey levels, on less light).
    stretch = np.exp(2 * (ref_log - base))
    noise = normaliser.reference(samples.spread, reference) * stretch
    light = np.maximum(ref - g[:, None], 0.0).max(axis=1)
    return Relative(pixels, median - base, noise, g, light, base)


def setup_relative(samples: HexSamples, normaliser: Normaliser) -> tuple[Relative, np.ndarray]:
    """The setup frame's relative colours (every land position holds its tile, so only the
    permanent sea is reference) and its clear sea."""
    clear = normaliser.clear_sea(samples)
    return relative(samples, normaliser, clear), clear


LOG_LAND = -1.0
"""Without a calibration, land is 'any colour but the sea's': a flat log density over the
colours land can take (about 3 cubic log units). A hex median about 4 standard deviations off
this frame's sea is then as likely land as sea."""


def _sea_or_land(x: np.ndarray, sea: Gaussian) -> np.ndarray:
    """(hexes, 2) probabilities of sea and land for (hexes, 3) relative medians."""
    _, logdet = np.linalg.slogdet(sea.cov)
    log_sea = -0.5 * (sea.mahalanobis(x) + logdet + 3 * math.log(2 * math.pi))
    p_sea = 1.0 / (1.0 + np.exp(np.clip(LOG_LAND - log_sea, -50, 50)))
    return np.column_stack([p_sea, 1 - p_sea])


WASH_GAINS = (0.75, 0.85, 1.0, 1.15, 1.3)
"""Gains the light on a hex may have against the sea around it (`washed`): the room's light is
not even, and a hex is a little off the sea it is compared with."""

WASH_NOISE = 25.0
"""Squared grey levels a misfit is counted from (`washed`): texture and noise in a median."""

_WASH_GAINS = np.array(WASH_GAINS)[:, None, None]


def washed(
    median: np.ndarray, sea: np.ndarray, tile: np.ndarray, white: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The white light at each hex, measured on the hex itself: its median colour (hexes, 3)
    fitted as `gain · colour + white light`, the colour the sea's (`sea`, (hexes, 3)) or its
    own tile's (`tile`), both as the light around it shows them, gain among `WASH_GAINS`, the
    white light ≥ 0 and of the colour `white` ((3,) or (hexes, 3), brightest channel 1:
    `sample.white`, `_island_white`; grey when None).
    A clipped channel only says the fit reaches `UNCLIPPED` there. Returns (hexes,) the least
    white that either colour needs (grey levels of its brightest channel), the log ratio of
    the tile's misfit to the sea's (> 0: the sea fits better), and the sea's misfit (RMS grey
    levels a channel). The white's colour matters: a lamp's reflection under a camera that
    balanced the board's blue to grey is bluish, and a beach or a forest under it fitted the
    sea under grey white better than itself (the renderer's 'all' game at 640×480)."""
    need, ratio, misfit = _white_needed(median, sea, tile, white)
    return np.minimum(need[0], need[1]), ratio, misfit


def _white_needed(
    median: np.ndarray, sea: np.ndarray, tile: np.ndarray, white: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`washed`'s fits: (2, hexes) the white the sea's colour and the tile's each need (grey
    levels of its brightest channel), the log ratio of their misfits, the sea's misfit."""
    w = np.ones(3) if white is None else white
    lit = median < UNCLIPPED
    n = lit.sum(axis=1)
    ww = np.where(lit, w * w, 0.0).sum(axis=1)
    # both colours and every gain at once: (colours, gains, hexes, 3)
    p = _WASH_GAINS * np.stack([sea, tile])[:, None]
    g = np.where(lit, (median - p) * w, 0.0).sum(axis=3) / np.maximum(ww, 1e-9)
    # every channel clipped: the least white that clips them all
    g = np.where(n > 0, g, ((UNCLIPPED - p) / w).max(axis=3))
    g = np.maximum(g, 0.0)
    fit = p + g[..., None] * w
    r = np.where(lit, median - fit, np.maximum(0.0, UNCLIPPED - fit))
    rss = (r * r).sum(axis=3)
    # per colour and hex the first gain that fits best (a misfit of nan never does; none:
    # no white)
    rss = np.where(np.isnan(rss), np.inf, rss)
    k = rss.argmin(axis=1)[:, None]
    misfit = np.take_along_axis(rss, k, axis=1)[:, 0]
    need = np.where(misfit < np.inf, np.take_along_axis(g, k, axis=1)[:, 0], 0.0)
    ratio = np.log((misfit[1] + WASH_NOISE) / (misfit[0] + WASH_NOISE))
    return need, ratio, np.sqrt(misfit[0] / 3)


HIDDEN_SHARE = 0.3
"""A hex whose best class explains less than this share of its samples shows mostly something
else: an arm, a phone, a sleeve's shadow, or a heap of pieces."""

OVEREXPOSED = 0.5
"""A hex with more than this share of its samples clipped (`sample.CLIPPED`) where the
sea around it shows glare is hidden: white, less the glare, can pass for any colour. Where the
sea shows none, the white is the tile's own (a beach in a bright frame): the sea in that light
is not white, so the hex is judged as it reads."""

WASHED = 0.3
"""A hex whose own colour shows white light this strong (`HexVerdict.washed`, relative to the
light the sea around it reflects) lies in a lamp's reflection, whatever the sea around it
shows. The middle of a reflection that washes a hex out adds 0.5 to 1.4 of the light.
Measured on the hex itself, a tile a little brighter than its terrain's colour or people
standing on it pass for white too: on a plain photo of the tracker's tests, 0.15 to 0.25 on
several tiles and 0.46 on one (so 0.1 took the plain land a test needs); at 0.5 the tracker's
dev games asked more. Washed out this much, a hex whose label the colour under the white
contradicts (`WASH_FIT`) is hidden: neither reading is to be trusted."""

WASH_FIT = math.log(4)
"""How much better (`HexVerdict.sea_fit`, log of the misfits' ratio) the colour under a
lamp's white must fit the sea than the position's tile (or the tile than the sea) to
contradict a hex read as land (or as sea) where it is washed out (`WASHED`): four times, as
the tracker asks of a candidate in glare. A forest under warm light over the island (the
tracker's tests) fitted the sea 3.6 times better under 0.34 of white and read as itself."""

WASH_FIT_CLEARLY = 2 * WASH_FIT
"""Sixteen times: how much better the sea's colour under a lamp's white must fit land read
where only the sea's fit needs that white (`WASHED`) for it to contradict the read. Four times
is too little there: people the sea's blue on a tile out of any reflection fitted the sea 5
to 7 times better (the renderer's game I 8702 at 640×480, turn 38: hidden, then
named sunk by that colour), a sunk position in a lamp's halo 80 to 100 times."""

PIECE_RING = 0.3
"""Share of a land position's ring (`HexVerdict.rim`) looking like sea from which land read on
its disc is a piece standing where the tile sank (a boat the colour of sand, a green serpent,
swimmers), not the tile: a tile fills its hex, so its ring shows the tile or the people on it.
On the renderer's photos of the arm, glare and all conditions (seeds 2024 and 2025, both
sizes) tiles read as land showed at most 0.17 of their ring as sea at 640×480 and 0.38 once at
1280×960, and a forest under warm light over the island 0.25 (the tracker's tests); of the 35
sunk positions read as land, 25 showed 0.3 to 1.0 (the rest 0.25 or less, 6 none: an arm's
skin over them). The position is hidden: what stands there covers it, and the sea it shows
says the tile is gone."""

HIDDEN_NEIGHBOURS = 3
"""A hex with this many of its 6 neighbours hidden lies under the same arm or phone (a piece
covers one hex; an arm covers a band of them), so it is hidden too: what shows through between
the fingers is not the hex's colour to trust."""

_RING: dict[tuple[int, ...], np.ndarray] = {}


def _ring(hexes: tuple[int, ...]) -> np.ndarray:
    """(hexes, 6) rows of each hex's 6 nearest among `hexes` (fewer at the edge: repeats)."""
    if hexes not in _RING:
        _RING[hexes] = geometry.nearest(hexes, hexes, 6)
    return _RING[hexes]


@functools.cache
def _near(hexes: tuple[int, ...]) -> np.ndarray:
    """(hexes, 6) which of `_ring`'s neighbours are next to the hex: one further than a hex
    away (the board's edge) does not count."""
    ring = _ring(hexes)
    centres = geometry.centres(hexes)
    out: np.ndarray = np.linalg.norm(centres[ring] - centres[:, None, :], axis=2) < 1.9
    return out


@functools.cache
def _permanent(hexes: tuple[int, ...]) -> np.ndarray:
    """(hexes,) which of `hexes` are permanent sea."""
    return np.isin(np.array(hexes), geometry.PERMANENT_SEA)


def hidden(
    explained_best: np.ndarray,
    hexes: tuple[int, ...],
    odd_sea: np.ndarray,
    foreign: np.ndarray | None = None,
) -> np.ndarray:
    """(hexes,) True where the camera cannot see the hex (see `HIDDEN_SHARE`); `odd_sea`
    (hexes,) marks permanent sea that does not read as sea: something lies over it (an arm, a
    boat), which counts towards hiding the hexes beside it. `foreign` (hexes,) marks hexes that
    cannot be what they read as: a position showing a terrain other than its own tile's (a
    tile never changes its terrain: an arm, a phone, a sleeve shows there), or one clipped
    white by glare (a lamp's reflection is brightest in its middle, so around hexes it clips
    it still adds more white than the sea further off shows)."""
    if foreign is None:
        foreign = np.zeros_like(odd_sea)
    unseen = (explained_best < HIDDEN_SHARE) | foreign
    low = unseen | odd_sea
    ring = _ring(hexes)
    around = (low[ring] & _near(hexes)).sum(axis=1)
    out: np.ndarray = unseen | (around >= HIDDEN_NEIGHBOURS)
    return out


def _verdicts(
    samples: HexSamples,
    probs: np.ndarray,
    explained: np.ndarray,
    classes: tuple[str, ...],
    hide: bool = True,
    own: np.ndarray | None = None,
    glare: np.ndarray | None = None,
    rims: dict[int, float] | None = None,
    lamp: tuple[np.ndarray, ...] | None = None,
) -> dict[int, HexVerdict]:
    """A verdict per hex; with `hide`, hexes the classes cannot explain are hidden (only with
    a calibration: without one, "land" explains any colour but the sea's). `own` (hexes,) is
    the column of each position's own tile in `classes` (−1: no tile known there); `glare`
    (hexes,) the white light the sea around each hex shows, relative to its light
    (`HexVerdict.glare`); `rims` each land position's ring of sea (`HexVerdict.rim`); `lamp`
    (hexes,) each hex's own white light, sea's fit and misfit (`HexVerdict.washed`,
    `.sea_fit`, `.sea_misfit`), and the white the sea's colour needs there."""
    best = probs.argmax(axis=1)
    share = explained[np.arange(len(best)), best]
    permanent = _permanent(samples.hexes)
    sea_column = classes.index("sea")
    odd_sea = permanent & (probs[:, sea_column] < 0.5)
    # glare that clipped most of a hex white leaves no colour to judge
    glared = samples.clipped > OVEREXPOSED
    if glare is not None:
        glared &= glare > 0
        # the lamp's halo: beside a hex it clipped, glare the sea shows is more than it measures
        ring = _ring(samples.hexes)
        glared |= (glare > 0) & glared[ring].any(axis=1)
    foreign = glared
    if own is not None:
        foreign = foreign | ((own >= 0) & (best != own) & (best != sea_column))
    unseen = hidden(share, samples.hexes, odd_sea, foreign) if hide else np.zeros(len(best), bool)
    # the loop below reads Python numbers (`tolist`): indexing arrays element by element
    # costs more than the rest of it
    n = len(best)
    rows = zip(
        samples.hexes,
        best.tolist(),
        share.tolist(),
        probs.tolist(),
        explained[:, sea_column].tolist(),
        glared.tolist(),
        unseen.tolist(),
        samples.visible.tolist(),
        [0.0] * n if glare is None else glare.tolist(),
        *([[0.0] * n] * 4 if lamp is None else [x.tolist() for x in lamp]),
        strict=True,
    )
    out = {}
    for h, k, agree, row, sea, glared_here, unseen_here, visible, white, *lit in rows:
        wash, fit, off, sea_wash = lit
        p = dict(zip(classes, row, strict=True))
        # sea seen around a piece is evidence; a lamp's white that passes for sea is not
        if glared_here:
            sea = 0.0
        rim = 0.0 if rims is None or glared_here else rims.get(h, 0.0)
        land = classes[k] != "sea"
        # a piece in the sea read as land; a lamp's white whose colour under it says otherwise.
        # Land is also contradicted where the white the sea needs is a reflection's and the
        # sea fits far better (`WASH_FIT_CLEARLY`), though its tile needs less: the island's
        # shift (`land_shift`) on a position the game holds brightens its tile, which then
        # needs little white while fitting far worse (the renderer's dev game 3106 at
        # 640×480, turn 20: a sunk forest position, lit by a lamp's halo, read as forest at
        # 0.06 of white while the sea explained it to 2 grey levels under 0.5, a hundred
        # times better).
        contradicted = (
            (land and rim >= PIECE_RING)
            or (wash >= WASHED and (fit if land else -fit) >= WASH_FIT)
            or (land and sea_wash >= WASHED and fit >= WASH_FIT_CLEARLY)
        )
        if unseen_here or contradicted:  # unsure is a verdict: nothing is guessed
            out[h] = _verdict(h, HIDDEN, p, 0.0, agree, sea, white, rim, wash, fit, off)
            continue
        confidence = row[k] * agree * visible
        out[h] = _verdict(h, classes[k], p, confidence, agree, sea, white, rim, wash, fit, off)
    return out


_VERDICT_FIELDS = tuple(f.name for f in fields(HexVerdict))


def _verdict(*values: Any) -> HexVerdict:
    """`HexVerdict(*values)`, every field given, without its frozen `__init__`: that sets each
    field through `object.__setattr__`, half the cost of a frame's verdict loop."""
    verdict: HexVerdict = object.__new__(HexVerdict)
    verdict.__dict__.update(zip(_VERDICT_FIELDS, values, strict=True))
    return verdict


def classify(
    samples: HexSamples,
    normaliser: Normaliser,
    calibration: Calibration | None,
    land: frozenset[int] | None = None,
) -> dict[int, HexVerdict]:
    """A verdict for every sampled hex. `land`: the positions the game says still hold a tile,
    on which the frame's shift of the island's colours is measured (`land_shift`) and which
    alone are judged with it; None: not known, no shift."""
    clear = normaliser.clear_sea(samples)
    rel = relative(samples, normaliser, clear)
    if calibration is None:
        # Land against sea only: how far each hex's median lies from this frame's own sea.
        probs = _sea_or_land(rel.median, robust_gaussian(rel.median[clear]))
        explained = np.repeat(samples.agreement[:, None], 2, axis=1)
        return _verdicts(samples, probs, explained, ("sea", "land"), hide=False)
    own = _own(samples, calibration)
    model = shifted = calibration.model
    held = np.zeros(len(samples.hexes), bool)
    shift = np.zeros(3)
    if own is not None and land is not None:
        held = np.isin(np.array(samples.hexes), list(land))
        shift = land_shift(rel.median, np.where(held, own, -1), model)
        shifted = model.shifted(shift)
    sea = model.classes.index("sea")

    def judge(r: Relative) -> tuple[np.ndarray, np.ndarray]:
        extra = np.maximum(0.0, r.noise - calibration.noise)
        if not held.any():
            return model.judge(r.pixels, r.median, extra)
        # The shift is the tiles': a piece on a sunk position (a boat the colour of sand)
        # moved with them would pass for a tile put back.
        probs, explained = model.judge(r.pixels[~held], r.median[~held], extra[~held])
        on_tiles = shifted.judge(r.pixels[held], r.median[held], extra[held])
        all_probs = np.empty((len(held), probs.shape[1]))
        all_explained = np.empty_like(all_probs)
        all_probs[~held], all_explained[~held] = probs, explained
        all_probs[held], all_explained[held] = on_tiles
        return all_probs, all_explained

    probs, explained = judge(rel)
    # Second pass: land positions that are surely sea now (their tile is gone) join the
    # references, so that an inner hex compares itself with sea under the same light.
    sure = (probs[:, sea] > SURE_SEA) & (explained[:, sea] > 0.6) & ~normaliser.permanent
    if sure.any():
        rel = relative(samples, normaliser, clear | sure)
        probs, explained = judge(rel)
    glare_at = rel.glare / np.maximum(rel.light, 1.0)
    rims = None
    if samples.ring is not None:
        rims = ring_sea(samples.ring, rel, samples.hexes, model, shifted, held, calibration.noise)
    lamp = None
    if own is not None:
        tiles = (own >= 0) & (own != sea)
        means = np.where(held[:, None], shifted.means[own], model.means[own])
        grey = np.exp(rel.base[tiles]) - BLACK_OFFSET
        level = samples.level
        args = (
            np.median(samples.values[tiles], axis=1) if level is None else level[tiles],
            np.exp(rel.base[tiles] + model.means[sea]) - BLACK_OFFSET,
            np.exp(rel.base[tiles] + means[tiles]) - BLACK_OFFSET,
        )
        need, fit, misfit = _white_needed(*args)
        # The white's colour is known only so well: the markers' paper shows the room's
        # light, a lamp's reflection is the lamp's own. Grey white leaves the sea's blue
        # under a bluish reflection (a camera that balanced the blue board to grey), the
        # paper's takes some of it away: so the sea fits a hex as grey white says, unless
        # under the paper's white its own tile fits clearly better, by `WASH_FIT` as the
        # tracker asks of a candidate in glare (the renderer's 'all' game at 640×480, seed
        # 2024: a beach and a forest in a reflection passed for the sea under grey, fitted
        # themselves under the paper's white; a sunk position in the brightest of a
        # reflection fitted its old tile there a little better, so any margin at all turned
        # right turns into questions).
        paper = washed(*args, _island_white(samples.white, shift, held[tiles]))[1]
        fit = np.where(paper <= -WASH_FIT, np.minimum(fit, paper), fit)
        lamp = tuple(np.zeros(len(own)) for _ in range(4))
        light = np.maximum(grey.max(axis=1), 1.0)
        lamp[0][tiles] = need.min(axis=0) / light
        lamp[1][tiles] = fit
        lamp[2][tiles] = misfit
        lamp[3][tiles] = need[0] / light
    return _verdicts(
        samples, probs, explained, model.classes, own=own, glare=glare_at, rims=rims, lamp=lamp
    )


def _island_white(white: np.ndarray, shift: np.ndarray, held: np.ndarray) -> np.ndarray:
    """(hexes, 3) the colour of the white light at each of the positions (`held` (hexes,):
    the game has a tile there), brightest channel 1: the frame's white (`sample.white`, the
    paper of the markers around the board), tinted where the game's tiles are by the light's
    colour over the island against the sea's (`land_shift`): a lamp that lights the island in
    another colour than the sea and the markers around it also reflects in that colour (a
    forest under warm light over the island fitted the sea under the markers' white five
    times better than itself, the tracker's tests)."""
    tinted = white * np.exp(shift)
    out: np.ndarray = np.where(held[:, None], tinted / tinted.max(), white)
    return out


def ring_sea(
    ring: np.ndarray,
    rel: Relative,
    hexes: tuple[int, ...],
    model: ColourModel,
    shifted: ColourModel,
    held: np.ndarray,
    noise: np.ndarray,
) -> dict[int, float]:
    """Each land position's share of ring samples (`HexSamples.ring`) that look like sea: the
    sea explains them, and explains them best of the classes. Relative to the same sea as the
    position's disc, glare taken off alike; the tiles the game holds judged with the island's
    shift (`land_shift`), as their discs are."""
    rows = _rows(hexes)
    g = rel.glare[rows]
    pixels = np.log(
        np.maximum(ring - g[:, None, None].astype(np.float32), 0.0) + BLACK_OFFSET
    ) - rel.base[rows][:, None, :].astype(np.float32)
    extra = np.maximum(0.0, rel.noise[rows] - noise)
    sea = model.classes.index("sea")
    out = np.zeros(len(rows))
    for judged, part in ((model, ~held[rows]), (shifted, held[rows])):
        if part.any():
            density = judged.densities(pixels[part], extra[part])
            best = density[..., sea] >= density.max(axis=2)
            out[part] = (best & judged.explains(density[..., sea])).mean(axis=1)
    return dict(zip(geometry.LAND, out.tolist(), strict=True))


@functools.cache
def _rows(hexes: tuple[int, ...]) -> np.ndarray:
    """The rows of `geometry.LAND` among `hexes`."""
    where = {h: k for k, h in enumerate(hexes)}
    return np.array([where[h] for h in geometry.LAND])


SEA_LIKE = 9.35
"""Squared Mahalanobis distance from the setup's sea (97.5 % of χ² with 3 degrees of freedom)
within which a position's colour is the sea's: its tile gone this turn, it says nothing of the
land's shift."""

MAX_SHIFT = 1.0
"""Largest shift of the land's colours against the sea's that a frame may show (log units, any
channel): a position further off its own terrain than this shows something else (a piece, an
arm), or the sea (every terrain of the calibrations seen lies 0.9 or more from it)."""

MIN_SHIFTED = 3
"""Least number of positions the shift is measured on: the median of three still stands if one
shows something else. Late in a game the few tiles left are as tinted as many were (dev game
seed 32, 'all', 1280×960: a mountain of the last three read as sea while the tile that left was
named, and the board was said to differ)."""


def land_shift(median: np.ndarray, own: np.ndarray, model: ColourModel) -> np.ndarray:
    """(3,) how far this frame moved the island's colours against the sea since the setup
    frame (relative log colour): the median difference between a position's colour and its own
    terrain's, over the positions given a terrain in `own` (hexes,) (−1: none), from (hexes, 3)
    relative medians. Light that is not one colour over the table tints the land against the
    sea around it, and every terrain moves alike. The caller gives only positions the game
    says hold a tile: sunk positions under pieces agree among themselves too, and would be
    taken for the island (at most this turn's tile is gone, and it reads as sea). Zero when
    fewer than `MIN_SHIFTED` positions can be measured."""
    sea = model.classes.index("sea")
    sea_like = Gaussian(model.means[sea], model.covs[sea]).mahalanobis(median) < SEA_LIKE
    rows = np.flatnonzero((own >= 0) & (own != sea) & ~sea_like)
    offsets = median[rows] - model.means[own[rows]]
    offsets = offsets[np.abs(offsets).max(axis=1) <= MAX_SHIFT]
    if len(offsets) < MIN_SHIFTED:
        return np.zeros(3)
    out: np.ndarray = np.median(offsets, axis=0)
    return out


def _own(samples: HexSamples, calibration: Calibration) -> np.ndarray | None:
    """(hexes,) the column of each position's own tile among the model's classes, −1 off the
    island; None when people have not confirmed the layout (a proposal may be wrong)."""
    if not calibration.confirmed:
        return None
    classes = calibration.model.classes
    return np.array(
        [
            classes.index(calibration.layout[h]) if calibration.layout.get(h) in classes else -1
            for h in samples.hexes
        ]
    )


__all__ = ["CLASSES", "Calibration", "HexVerdict", "Normaliser", "classify", "relative"]
