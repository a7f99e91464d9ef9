"""Sampling a registered frame: the robust statistics of each hex's disc, and the lens's bend."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion.vision import geometry, sample
from companion.vision.lens import Lens
from companion.vision.sample import AGREEMENT, CLIPPED, HIGHLIGHTS, SHADOWS, Sampler

SIZE = (1280, 960)
BOARD = np.array([[52.0, 3.0, 640.0], [-2.0, 51.0, 480.0], [0.0, 0.00005, 1.0]])
"""Board (hex units) → pixels: the island across most of the frame, a little turned."""


def _frame(seed: int) -> np.ndarray:
    """Blotches of colour with noise over them, some clipped white: hexes of every kind."""
    rng = np.random.default_rng(seed)
    coarse = rng.integers(0, 256, (24, 32, 3), dtype=np.uint8)
    frame = cv2.resize(coarse, SIZE, interpolation=cv2.INTER_NEAREST).astype(np.int16)
    frame += rng.integers(-30, 31, frame.shape, dtype=np.int16)
    return np.clip(frame, 0, 255).astype(np.uint8)


def test_each_hexs_statistics_are_the_robust_ones_of_its_samples() -> None:
    lens = Lens.ideal(SIZE, -0.18)
    samples = Sampler().sample(_frame(3), BOARD, lens)
    pixels = np.log(samples.values + sample.BLACK_OFFSET).astype(np.float32)
    assert np.array_equal(samples.pixels, pixels)
    median = np.median(pixels, axis=1)
    assert np.array_equal(samples.median, median)
    off = np.abs(pixels - median[:, None, :])
    assert np.array_equal(samples.spread, (1.4826 * np.median(off, axis=1)) ** 2)
    assert np.array_equal(samples.agreement, (off.max(axis=2) < AGREEMENT).mean(axis=1))
    brightest = samples.values.max(axis=2)
    assert np.array_equal(samples.clipped, (brightest >= CLIPPED).mean(axis=1))
    ordered = np.sort(brightest.ravel())
    n = len(ordered) - 1
    assert samples.levels() == (ordered[int(n * SHADOWS)], ordered[int(n * (1 - HIGHLIGHTS))])
    assert samples.clipped.max() > 0 and samples.levels()[0] < samples.levels()[1]


def test_a_frame_is_read_through_the_lens_in_one_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    """The disc of every hex and the ring of every land position: one homography and one
    bend for all their points, which is most of the sampling's cost."""
    lens = Lens.ideal(SIZE, -0.18)
    bends = []
    bend = Lens.distort

    def counted(self: Lens, points: np.ndarray) -> np.ndarray:
        bends.append(points.size // 2)
        return bend(self, points)

    monkeypatch.setattr(Lens, "distort", counted)
    samples = Sampler().sample(_frame(4), BOARD, lens)
    assert samples.ring is not None
    assert bends == [len(geometry.HEXES) * geometry.SAMPLES_PER_HEX + samples.ring.shape[0] * 24]


@pytest.mark.parametrize("dist", [(-0.2, 0.05, 0.001, -0.002, 0.01), (0.1, 0.0, 0.0, 0.0, 0.0)])
def test_the_lens_bends_points_as_opencvs_model_does(dist: tuple[float, ...]) -> None:
    matrix = np.array([[900.0, 0.0, 650.0], [0.0, 880.0, 470.0], [0.0, 0.0, 1.0]])
    lens = Lens(matrix, np.array(dist), SIZE)
    straight = np.random.default_rng(5).uniform((0, 0), SIZE, (200, 2))
    rays = np.concatenate([(straight - matrix[:2, 2]) / np.diag(matrix)[:2], np.ones((200, 1))], 1)
    opencv, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), matrix, np.array(dist))
    assert lens.distort(straight) == pytest.approx(opencv.reshape(-1, 2), abs=1e-6)
    assert lens.distort(straight.reshape(10, 20, 2)).shape == (10, 20, 2)


def test_the_frames_white_is_the_paper_of_the_markers_in_the_direct_light() -> None:
    """A lamp's reflection adds the colour the camera shows white light in, and the markers'
    margins are white paper: their colour is that light's (brightest channel 1). Paper in a
    hard shadow (bluer, lit by the rest of the room), clipped or too dark, or mostly out of
    the frame says nothing of it; no paper left: grey."""
    from companion.vision.sample import white

    rng = np.random.default_rng(1)
    lit = np.array([200.0, 178.0, 156.0])  # a camera's white balance left white bluish

    def margin(colour: list[float] | np.ndarray) -> np.ndarray:
        return np.asarray(colour) + rng.normal(0, 3, (32, 3))

    read = np.stack(
        [
            margin(lit),
            margin(0.9 * lit),
            margin([110.0, 90.0, 72.0]),  # in a shadow: bluer, and dimmer than PAPER_LIT
            margin([255.0, 255.0, 240.0]),  # in the lamp's reflection: clipped
            margin([12.0, 10.0, 9.0]),  # in deep shadow
            margin([90.0, 160.0, 220.0]),  # mostly out of the frame
        ]
    )
    seen = np.ones(read.shape[:2], bool)
    seen[5, :24] = False
    assert white(read, seen) == pytest.approx(lit / lit.max(), abs=0.02)
    assert np.array_equal(white(read[3:5], seen[3:5]), np.ones(3))


def test_a_recogniser_reads_the_white_on_the_markers_margins() -> None:
    """On a rendered photo the margins' points fall on the paper: tinting the whole photo as a
    white balance would tints the white read by as much."""
    from companion.vision import synth
    from companion.vision.recognise import Recogniser

    island = next(synth.islands(5, 1, "normal", (1280, 960), 1))
    recogniser = Recogniser()
    image = island.setup.image
    registration = recogniser.register(image)
    plain = recogniser.sampler.sample(image, registration.homography, registration.lens).white
    tint = np.array([1.0, 0.85, 0.7])
    tinted = np.clip(image * tint, 0, 255).astype(np.uint8)
    white = recogniser.sampler.sample(tinted, registration.homography, registration.lens).white
    assert plain.min() > 0.85  # the printed paper is white under the renderer's light
    assert white == pytest.approx(plain * tint / (plain * tint).max(), abs=0.03)
