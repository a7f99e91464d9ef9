"""The colour model's arithmetic: each hex's widened classes and the contaminated model's verdict,
against the textbook formulas written out hex by hex."""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.vision import model as model_module
from companion.vision.model import INLIER, LOG_OUTLIER, TEMPERATURE, ColourModel


def _model(rng: np.random.Generator) -> ColourModel:
    """Four classes with random (positive definite, correlated) covariances."""
    means = rng.normal(0.0, 0.6, (4, 3))
    root = rng.normal(0.0, 0.08, (4, 3, 3))
    covs = root @ root.transpose(0, 2, 1) + np.eye(3) * 0.03**2
    return ColourModel(("sea", "beach", "forest", "mountain"), means, covs)


def _gaussian(x: np.ndarray, mean: np.ndarray, cov: np.ndarray) -> np.ndarray:
    d = x - mean
    q = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d)
    return np.asarray(-0.5 * (q + np.linalg.slogdet(cov)[1] + 3 * math.log(2 * math.pi)))


def test_a_hexs_classes_are_judged_as_the_contaminated_model_says() -> None:
    rng = np.random.default_rng(7)
    model = _model(rng)
    hexes, samples = 5, 64
    pixels = (
        rng.normal(0.0, 0.7, (hexes, 1, 3)) + rng.normal(0.0, 0.1, (hexes, samples, 3))
    ).astype(np.float32)
    median = np.median(pixels, axis=1).astype(np.float64)
    extra = rng.uniform(0.0, 0.02, (hexes, 3))
    probs, explained = model.judge(pixels, median, extra)
    densities = model.densities(pixels, extra)
    for h in range(hexes):
        evidence = []
        for c in range(4):
            cov = model.covs[c] + np.diag(extra[h] * np.exp(-2 * model.means[c]))
            density = _gaussian(pixels[h].astype(np.float64), model.means[c], cov)
            assert densities[h, :, c] == pytest.approx(density, rel=1e-4, abs=1e-3)
            inlier = density + math.log(INLIER)
            occluder = LOG_OUTLIER + math.log(1 - INLIER)
            assert explained[h, c] == pytest.approx(np.mean(inlier > occluder))
            vote = _gaussian(median[h : h + 1], model.means[c], 16 * cov)[0]
            evidence.append(np.logaddexp(inlier, occluder).sum() / TEMPERATURE + vote)
        p = np.exp(np.array(evidence) - max(evidence))
        assert probs[h] == pytest.approx(p / p.sum(), abs=1e-5)


def test_a_frames_judgement_needs_no_lapack_nor_log1p(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hundreds of 3x3 inverses a frame: LAPACK's batched calls cost several times the closed
    form (`ColourModel.precision`), whose entries must be the inverse's; and tens of thousands
    of log(1 + x), which numpy's log1p computes one by one."""
    rng = np.random.default_rng(8)
    model = _model(rng)
    extra = rng.uniform(0.0, 0.02, (133, 3))
    inv, logdet = model.precision(extra)
    widened = model.covs[:, None] + (extra[None] * np.exp(-2 * model.means)[:, None])[
        ..., None
    ] * np.eye(3)
    full = np.linalg.inv(widened)
    rows, cols = [0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]
    assert inv == pytest.approx(np.moveaxis(full[..., rows, cols], -1, 0), rel=1e-5)
    assert logdet == pytest.approx(np.linalg.slogdet(widened)[1], rel=1e-5)

    def refused(*_: object, **__: object) -> None:
        raise AssertionError("a slow call in a frame's judgement")

    for name in ("inv", "slogdet", "det", "solve"):
        monkeypatch.setattr(model_module.np.linalg, name, refused)
    # nor numpy's float32 log1p, which is not vectorised (7 times its log)
    monkeypatch.setattr(model_module.np, "log1p", refused)
    pixels = rng.normal(0.0, 0.5, (133, 64, 3)).astype(np.float32)
    probs, _ = model.judge(pixels, np.median(pixels, axis=1).astype(np.float64), extra)
    assert probs.shape == (133, 4)
