"""The sharpness gate: a frame smeared by a moving hand is measured on the markers' edges and
skipped beyond what the sampled discs tolerate, rather than judged."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion.vision import geometry, sharpness, synth
from companion.vision.recognise import Recogniser

from .vision_support import batch


def _smeared(image: np.ndarray, pixels: float) -> np.ndarray:
    """`image` with a streak of `pixels` (a hand moving while the shutter was open)."""
    if not pixels:
        return image
    streak = synth._streak(np.random.default_rng(4), image.astype(np.float32), pixels)
    return np.clip(streak, 0, 255).astype(np.uint8)


def _recogniser() -> tuple[Recogniser, np.ndarray]:
    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    return recogniser, island.shots[0].image


def test_the_limit_is_the_gap_between_the_sampled_disc_and_the_hex_side_either_way() -> None:
    gap = geometry.INRADIUS - geometry.SAMPLE_RADIUS
    assert abs(sharpness.MAX_BLUR - 2 * gap) < 1e-12


def test_the_smear_measured_grows_with_the_streak() -> None:
    recogniser, image = _recogniser()
    smears = [recogniser.register(_smeared(image, px)).smear for px in (0, 5, 10)]
    assert smears[0] < 0.15  # the lens's and the sensor's own blur
    assert smears[0] < smears[1] < smears[2]
    assert smears[2] > 0.22  # 10 pixels at about 55 pixels per hex unit, and the rest
    recogniser.forget()  # the frame alone, not averaged with the smeared ones' markers
    assert recogniser.observe(image).to_json()["smear_hex_units"] == round(smears[0], 4)


def test_a_frame_smeared_beyond_the_limit_is_skipped_not_judged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rendered markers are lost to a streak before it reaches the limit (0.53), so the limit
    is lowered here to show what happens past it: no verdicts, a reason that says why."""
    recogniser, image = _recogniser()
    monkeypatch.setattr(sharpness, "MAX_BLUR", 0.2)
    smeared = recogniser.observe(_smeared(image, 10))
    assert not smeared.ok and smeared.hexes == {}
    assert smeared.registration.reason is not None and "smeared" in smeared.registration.reason
    assert recogniser.observe(image).ok
