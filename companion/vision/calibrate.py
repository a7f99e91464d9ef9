"""Learning the board's colours from a setup frame: all 40 tiles on the island.

With the layout known (people entered it, or confirmed a proposal), each terrain's colour is
fitted from its tiles. With the layout unknown, the 40 land colours are split into three groups
of exactly 16, 16 and 8 (the box's counts, B-2) — a k-means whose assignment step keeps the
counts — and the groups are named: the group of 8 is mountain, and of the two groups of 16 the
brighter is beach. The result is a proposal, with a margin per position, for people to confirm.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np

from ..engine import board
from ..engine.data import TERRAIN_COUNT, TERRAINS
from . import geometry
from .classify import OVEREXPOSED, Calibration, Normaliser, setup_relative
from .model import CLASSES, ColourModel
from .sample import HexSamples


def _rows(hexes: tuple[int, ...]) -> dict[int, int]:
    return {h: k for k, h in enumerate(hexes)}


def fit_known(
    samples: HexSamples,
    normaliser: Normaliser,
    layout: dict[int, str],
    confirmed: bool = True,
    source: str = "",
) -> Calibration:
    """The calibration for a setup frame whose layout (land position → terrain) is known."""
    missing = [h for h in geometry.LAND if h not in layout]
    if missing or any(layout[h] not in TERRAINS for h in geometry.LAND):
        raise ValueError("the layout must give beach, forest or mountain for all 40 positions")
    rel, clear = setup_relative(samples, normaliser)
    rows = _rows(samples.hexes)
    lit = samples.clipped <= OVEREXPOSED  # a clipped hex shows the lamp, not its colour
    classes = {"sea": rel.pixels[clear & lit] if (clear & lit).any() else rel.pixels[clear]}
    for t in TERRAINS:
        tiles = [rows[h] for h in geometry.LAND if layout[h] == t]
        seen = [k for k in tiles if lit[k]]
        classes[t] = rel.pixels[seen or tiles]
    return Calibration(
        ColourModel.fit(classes),
        {h: layout[h] for h in geometry.LAND},
        confirmed,
        np.median(rel.noise[clear], axis=0),
        {},
        source,
    )


def _assign(cost: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Improve a labelling with fixed group sizes by swapping pairs while any swap lowers the
    total cost; sizes never change, so the counts always hold."""
    labels = labels.copy()
    n = len(labels)
    idx = np.arange(n)
    while True:
        own = cost[idx, labels]
        # gain[i, j]: what swapping the labels of i and j saves
        gain = (
            own[:, None]
            + own[None, :]
            - cost[idx[:, None], labels[None, :]]
            - cost[idx[None, :], labels[:, None]]
        )
        i, j = np.unravel_index(int(np.argmax(gain)), gain.shape)
        if gain[i, j] <= 1e-9:
            return labels
        labels[i], labels[j] = labels[j], labels[i]


def group(x: np.ndarray, counts: tuple[int, ...], seed: int = 0) -> tuple[np.ndarray, float]:
    """Split (n, d) points into groups of exactly `counts` sizes, minimising the squared
    distance to each group's mean (size-constrained k-means, several starts).

    Starts: every order of the groups along each principal axis, then a few random ones.
    """
    best, best_cost = np.zeros(0, np.intp), np.inf
    for labels, total in _descents(x, counts, seed):
        if total < best_cost - 1e-12:
            best, best_cost = labels, total
    return best, best_cost


def groupings(x: np.ndarray, counts: tuple[int, ...], seed: int = 0) -> list[np.ndarray]:
    """Every distinct grouping that `group`'s starts end in, the best first: a grouping of
    medians that is not the best may be the one the samples themselves support (`propose`)."""
    out: list[np.ndarray] = []
    for labels, _ in sorted(_descents(x, counts, seed), key=lambda d: d[1]):
        if not any(_same(labels, other) for other in out):
            out.append(labels)
    return out


def _descents(x: np.ndarray, counts: tuple[int, ...], seed: int) -> list[tuple[np.ndarray, float]]:
    """From each of `group`'s starts, the size-constrained k-means's grouping and its cost."""
    # float64: in float32 a swap and its reverse can both look like gains of rounding size,
    # and the swapping never ends.
    x = np.asarray(x, np.float64)
    n = len(x)
    if sum(counts) != n:
        raise ValueError(f"{n} points cannot make groups of {counts}")
    centred = x - x.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    starts = []
    for axis in axes:
        ranked = np.argsort(centred @ axis, kind="stable")
        for order in itertools.permutations(range(len(counts))):
            labels = np.empty(n, np.intp)
            at = 0
            for g in order:
                labels[ranked[at : at + counts[g]]] = g
                at += counts[g]
            starts.append(labels)
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(len(counts)), counts)
    starts += [rng.permutation(base) for _ in range(8)]
    out = []
    for labels in starts:
        for _ in range(50):
            means = np.array([x[labels == g].mean(axis=0) for g in range(len(counts))])
            cost = ((x[:, None, :] - means[None, :, :]) ** 2).sum(axis=2)
            new = _assign(cost, labels)
            if np.array_equal(new, labels):
                break
            labels = new
        out.append((labels, float(cost[np.arange(n), labels].sum())))
    return out


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two groupings put the same points together (whatever the groups' numbers;
    only groups of the same size can swap numbers)."""
    return all(len(set(b[a == g].tolist())) == 1 for g in set(a.tolist())) and all(
        len(set(a[b == g].tolist())) == 1 for g in set(b.tolist())
    )


REGROUP_ROUNDS = 10
"""Most rounds of `regroup`: each refits the groups' colours and moves positions between them
(it settles in two to four on the renderer's setup photos)."""


def regroup(pixels: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, float]:
    """A grouping of positions by their (positions, samples, 3) relative colours, improved
    from `labels` with the group sizes kept: each group's colour fitted as the classes are
    (`ColourModel.fit`), each position moved to the group whose colour explains its samples
    best (`ColourModel.likelihood`), until none moves. Returns it and its log likelihood
    (larger is better). A printed tile is not one colour: trees with dark outlines and light
    crowns, rock with dark and white patches. The median of such a disc jumps between its
    inks with the share each covers there, so medians alone mix forests and mountains up;
    the samples as a whole keep them apart."""
    groups = range(int(labels.max()) + 1)
    total = -np.inf
    for _ in range(REGROUP_ROUNDS):
        model = ColourModel.fit({CLASSES[g]: pixels[labels == g].reshape(-1, 3) for g in groups})
        fit = model.likelihood(pixels.astype(np.float32)).astype(np.float64)
        total = float(fit[np.arange(len(labels)), labels].sum())
        new = _assign(-fit, labels)
        if np.array_equal(new, labels):
            break
        labels = new
    return labels, total


def propose(samples: HexSamples, normaliser: Normaliser, source: str = "") -> Calibration:
    """A calibration from a setup frame without a known layout: the layout is a proposal."""
    rel = setup_relative(samples, normaliser)[0]
    rows = [_rows(samples.hexes)[h] for h in geometry.LAND]
    land = rel.median[rows]
    # The box's counts in a fixed order: groups 0, 1 of 16 (beach, forest) and 2 of 8.
    sizes = tuple(TERRAIN_COUNT[t] for t in TERRAINS)
    # Grouped by the medians, then each grouping the medians end in improved on all the
    # samples (`regroup`); the one the samples support best is kept.
    pixels = rel.pixels[rows]
    found = [regroup(pixels, labels) for labels in groupings(land, sizes)]
    labels = max(found, key=lambda f: f[1])[0]
    means = np.array([land[labels == g].mean(axis=0) for g in range(3)])
    names = _name(means, sizes)
    layout = {h: names[int(labels[k])] for k, h in enumerate(geometry.LAND)}
    # Margin: how much closer each position is to its own group than to the next best.
    d = np.sqrt(((land[:, None, :] - means[None, :, :]) ** 2).sum(axis=2))
    own = d[np.arange(len(land)), labels]
    d[np.arange(len(land)), labels] = np.inf
    margins = {h: float(d[k].min() - own[k]) for k, h in enumerate(geometry.LAND)}
    calibration = fit_known(samples, normaliser, layout, confirmed=False, source=source)
    calibration.margins = margins
    return calibration


def _name(means: np.ndarray, sizes: tuple[int, ...]) -> dict[int, str]:
    """Group → terrain: the one group whose size is the mountains' count is mountain; the
    others by brightness (sum of log channels relative to the sea), brighter first = beach."""
    groups = list(range(len(sizes)))
    mountain = [g for g in groups if sizes[g] == TERRAIN_COUNT["mountain"]]
    if len(mountain) != 1:
        raise ValueError("the counts do not single out the mountains")
    rest = sorted((g for g in groups if g != mountain[0]), key=lambda g: -means[g].sum())
    return {mountain[0]: "mountain", rest[0]: "beach", rest[1]: "forest"}


class CalibrationError(Exception):
    """A calibration file that cannot be used; the message says why."""


def dumps(calibration: Calibration) -> str:
    return json.dumps(calibration.to_json(), indent=1) + "\n"


def load(path: Path) -> Calibration:
    try:
        return Calibration.from_json(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise CalibrationError(
            f"no calibration at {path}: make one with `companion vision calibrate`"
        ) from None
    except OSError as e:
        raise CalibrationError(f"cannot read {path}: {e.strerror}") from None
    except (ValueError, KeyError, TypeError) as e:
        raise CalibrationError(f"{path} is not a calibration file ({e})") from None


def parse_layout(data: dict[str, str]) -> dict[int, str]:
    """A layout written by people, ``{"3.4": "beach", ...}``, checked: all 40 land positions,
    each a terrain, in the box's counts (B-2)."""
    layout: dict[int, str] = {}
    for name, terrain in data.items():
        h = board.parse(name)
        if h not in geometry.LAND:
            raise ValueError(f"{name} is not a land position")
        if terrain not in TERRAINS:
            raise ValueError(f"{name}: {terrain!r} is not beach, forest or mountain")
        layout[h] = terrain
    missing = [board.name(h) for h in geometry.LAND if h not in layout]
    if missing:
        raise ValueError(f"the layout lacks {len(missing)} land positions, e.g. {missing[0]}")
    counts = {t: sum(1 for v in layout.values() if v == t) for t in TERRAINS}
    if counts != TERRAIN_COUNT:
        raise ValueError(f"the layout has {counts}; the box has {TERRAIN_COUNT}")
    return layout
