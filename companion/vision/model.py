"""Colour classes in relative log colour, and how a hex's samples are weighed against them.

Each class (sea, beach, forest, mountain) is a Gaussian over single samples' relative colours,
fitted with outliers trimmed so that pieces in the setup frame do not pull it. A hex is judged
on all its samples at once under a contaminated model: each sample is either the class's
colour or an occluder of any colour. So a red person covering most of a beach leaves the beach
samples to speak, where a median of the mixture would name some third colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

CLASSES: tuple[str, ...] = ("sea", "beach", "forest", "mountain")

FLOOR = 0.03
"""Smallest spread per channel (log units, 3 %): a class seen on few, very even tiles must
still allow for the next frame's noise and JPEG."""

INLIER = 0.6
"""Prior share of a hex's samples that show the hex itself rather than a piece."""

LOG_OUTLIER = -3.0
"""Log density of an occluder's colour: flat over about 20 cubic log units. A sample further
than about 4 standard deviations from a class counts as occluder for that class."""
_LOG_INLIER = np.float32(np.log(INLIER))
_LOG_OCCLUDER = np.float32(LOG_OUTLIER + np.log(1 - INLIER))
"""A sample's weights as the hex itself (added to a class's density) and as an occluder."""
_EXP_MAX = np.float32(80.0)
"""Below float32's overflow of exp (88.7)."""

TEMPERATURE = 8.0
"""Neighbouring samples are not independent (blur, texture, JPEG blocks): the summed evidence
is divided by this before it becomes a probability, as if from about 8 independent samples."""

_CHI2_3_975 = 9.35
"""97.5 % point of χ² with 3 degrees of freedom: beyond it a sample is trimmed as an outlier."""


@dataclass(frozen=True)
class Gaussian:
    mean: np.ndarray
    cov: np.ndarray

    def mahalanobis(self, x: np.ndarray) -> np.ndarray:
        d = x - self.mean
        out: np.ndarray = np.einsum("ni,ij,nj->n", d, np.linalg.inv(self.cov), d)
        return out


def robust_gaussian(x: np.ndarray, floor: float = FLOOR) -> Gaussian:
    """Mean and covariance of (n, 3) samples, trimming outliers (a hex under a boat, say).

    Starts from the median and the median absolute deviation, then refits twice on the samples
    within the 97.5 % ellipsoid.
    """
    mean = np.median(x, axis=0)
    mad = 1.4826 * np.median(np.abs(x - mean), axis=0)
    cov = np.diag(np.maximum(mad, floor) ** 2)
    for _ in range(3):
        keep = x[Gaussian(mean, cov).mahalanobis(x) < _CHI2_3_975]
        if len(keep) < 4:
            break
        mean = keep.mean(axis=0)
        # Trimming at 97.5 % shrinks a Gaussian's spread by about 0.84 in each direction.
        cov = np.cov(keep.T) / 0.84**2 + np.eye(3) * floor**2
    return Gaussian(np.asarray(mean, np.float64), np.asarray(cov, np.float64))


@dataclass(frozen=True)
class ColourModel:
    """One Gaussian per class. All classes weigh the same (the game's own knowledge, such as
    which terrain can sink next, belongs to the tracker)."""

    classes: tuple[str, ...]
    means: np.ndarray
    covs: np.ndarray

    @classmethod
    def fit(cls, samples: dict[str, np.ndarray]) -> ColourModel:
        names = tuple(c for c in CLASSES if c in samples)
        fitted = [robust_gaussian(samples[c].reshape(-1, 3)) for c in names]
        return cls(names, np.array([g.mean for g in fitted]), np.array([g.cov for g in fitted]))

    def shifted(self, shift: np.ndarray) -> ColourModel:
        """The model with every class but sea moved by `shift` (3,) (`classify.land_shift`)."""
        means = self.means + np.where(np.array(self.classes)[:, None] == "sea", 0.0, shift)
        return ColourModel(self.classes, means, self.covs)

    def precision(self, extra: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per class and hex, the six distinct entries of the inverse covariance (6, classes,
        hexes: 00, 11, 22, 01, 02, 12) and log |Σ| (classes, hexes), each hex's classes
        widened by the `extra` (hexes, 3) variance its sea shows beyond the setup frame's.

        The extra is noise measured on the sea, in log units; on a class brighter by
        exp(mean) the same grey levels are a smaller share, so it widens by exp(-2 mean) of it.
        A symmetric 3x3 matrix is inverted by its cofactors, written out: on hundreds of them
        that is several times faster than LAPACK's batched inverse and determinant.
        """
        widen = extra[None, :, :] * np.exp(-2 * self.means)[:, None, :]  # (classes, hexes, 3)
        c = self.covs[:, None, :, :]
        a, e, i = (
            c[..., 0, 0] + widen[..., 0],
            c[..., 1, 1] + widen[..., 1],
            c[..., 2, 2] + widen[..., 2],
        )
        b, g, f = c[..., 0, 1], c[..., 0, 2], c[..., 1, 2]
        # cofactors of [[a, b, g], [b, e, f], [g, f, i]]
        c00, c01, c02 = e * i - f * f, g * f - b * i, b * f - g * e
        det = a * c00 + b * c01 + g * c02
        entries = np.stack([c00, a * i - g * g, a * e - b * b, c01, c02, b * g - a * f]) / det
        return entries.astype(np.float32), np.log(det).astype(np.float32)

    def _log_density(
        self, x: np.ndarray, inv: np.ndarray, logdet: np.ndarray, scale: float = 1.0
    ) -> np.ndarray:
        """(classes, samples, hexes) log densities of (hexes, samples, 3) relative colours,
        covariances times `scale`; `inv` and `logdet` as `precision` gives them. The quadratic
        form is written out, class by class, on planes of samples by hexes: on arrays of
        3-vectors that is several times faster than batched matrix products of tiny matrices,
        or than broadcasting over a last axis of 4 classes; and each hex's precision spreads
        along a plane's rows at the cost of a plain product, where along rows of one hex's
        samples numpy buffers it (twice the cost of the whole form)."""
        xt = x.transpose(2, 1, 0).copy()  # (3, samples, hexes)
        d0, d1, d2 = (
            xt[None, k] - self.means[:, k, None, None].astype(np.float32) for k in range(3)
        )  # (classes, samples, hexes) each
        a00, a11, a22, a01, a02, a12 = inv[:, :, None, :]
        q = a00 * d0 * d0 + a11 * d1 * d1 + a22 * d2 * d2
        q += 2 * (a01 * d0 * d1 + a02 * d0 * d2 + a12 * d1 * d2)
        const = logdet + np.float32(3 * np.log(2 * np.pi * scale))
        if scale != 1.0:  # a division by 1 leaves every number as it was
            q /= np.float32(scale)
        q += const[:, None, :]
        q *= np.float32(-0.5)
        return q

    def densities(self, pixels: np.ndarray, extra: np.ndarray) -> np.ndarray:
        """(hexes, samples, classes) log densities of single samples (hexes, samples, 3), each
        hex's classes widened by its `extra` noise (`precision`)."""
        return self._log_density(pixels, *self.precision(extra)).transpose(2, 1, 0)

    @staticmethod
    def explains(density: np.ndarray) -> np.ndarray:
        """Whether a class of these log densities explains a sample rather than an occluder
        of any colour does (as `judge` counts them)."""
        out: np.ndarray = density + _LOG_INLIER > _LOG_OCCLUDER
        return out

    def judge(
        self, pixels: np.ndarray, median: np.ndarray, extra: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """For (hexes, samples, 3) relative colours, their (hexes, 3) medians and the extra
        noise (hexes, 3) around each hex: the class probabilities (hexes, classes) and the
        share of samples each class explains (hexes, classes).

        The samples' evidence is summed under the contaminated model; the median adds one weak
        vote from a widened class, which decides only when no class explains any sample (a hex
        all under pieces, or in light the setup frame never saw).
        """
        inv, logdet = self.precision(extra)
        density = self._log_density(pixels, inv, logdet)  # (classes, samples, hexes)
        summed = self._summed(density)
        vote = self._log_density(median[:, None, :].astype(np.float32), inv, logdet, 16.0)
        evidence = (summed / TEMPERATURE + vote[:, 0, :]).T
        evidence -= evidence.max(axis=1, keepdims=True)
        p = np.exp(evidence)
        probs: np.ndarray = p / p.sum(axis=1, keepdims=True)
        # a count of samples, exact in any order
        explained: np.ndarray = self.explains(density).mean(axis=1).T
        return probs, explained

    @staticmethod
    def _summed(density: np.ndarray) -> np.ndarray:
        """(classes, hexes) each hex's samples' log likelihoods under the contaminated model
        (each the class's colour or an occluder's), summed, from (classes, samples, hexes)
        log densities."""
        # log(inlier · density + occluder): the density is bounded (every class is at least
        # `FLOOR` wide), so its exponential cannot overflow; this is logaddexp's value
        # without its cost. log(1 + x) rather than log1p: numpy's float32 log is vectorised,
        # its log1p is not (7 times slower), and an x too small for 1 + x to hold it would
        # be lost anyway once the occluder's weight (about -3.9) is added.
        mixed = np.exp(np.minimum(density + (_LOG_INLIER - _LOG_OCCLUDER), _EXP_MAX))
        mixed += 1
        mixed = np.log(mixed, out=mixed) + _LOG_OCCLUDER
        # each hex's samples summed along a row of their own, as numpy's pairwise sum adds
        # them (a sum across rows adds them in another order: other roundings)
        out: np.ndarray = mixed.transpose(0, 2, 1).copy().sum(axis=2)
        return out

    def likelihood(self, pixels: np.ndarray) -> np.ndarray:
        """(hexes, classes) the log likelihood of each hex's (hexes, samples, 3) relative
        colours under each class, as `judge` sums them (before its temperature and vote)."""
        inv, logdet = self.precision(np.zeros((len(pixels), 3)))
        return self._summed(self._log_density(pixels, inv, logdet)).T

    def to_json(self) -> dict[str, Any]:
        return {
            c: {"mean": self.means[k].round(5).tolist(), "cov": self.covs[k].round(7).tolist()}
            for k, c in enumerate(self.classes)
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        names = tuple(c for c in CLASSES if c in data)
        if set(names) != set(data) or "sea" not in names:
            raise ValueError(f"colour classes must be among {CLASSES} and include sea")
        return cls(
            names,
            np.array([data[c]["mean"] for c in names], np.float64),
            np.array([data[c]["cov"] for c in names], np.float64),
        )
