"""The camera's exposure set from the board (issue 18, "glare and over-exposure are handled on
tiles"): a lamp's reflection that clips the board white lowers the exposure until the tiles
under it show their colour again, and the rendered camera honours the control as a real one
does. Real OpenCV on the renderer's photos."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion.engine import board
from companion.vision import exposure, geometry, synth, tracker
from companion.vision.exposure import Exposure
from companion.vision.recognise import Observation, Recogniser
from companion.vision.register import Registration
from companion.vision.sample import CLIPPED
from companion.vision.sources import CaptureSource, ImageFiles

SIZE = (640, 480)


def _glared_table(
    seed: int,
) -> tuple[dict[int, str], synth.Scene, tuple[np.ndarray, np.ndarray | None], np.ndarray]:
    """A table whose lamp's reflection clips the island white under the camera's own
    exposure: its layout, scene, that light, and a setup photo under even light."""
    rng = np.random.default_rng(seed)
    tiles = synth.random_layout(rng)
    view = synth.scene(rng, tiles, [], SIZE, "glare")
    setup = synth.photo(rng, view, synth.lighting(rng, SIZE, "nominal", {})).image
    light = synth.lighting(rng, SIZE, "glare", {})
    return tiles, view, light, setup


def test_a_lamp_that_clips_the_board_lowers_the_exposure_until_the_tiles_under_it_show() -> None:
    tiles, view, light, setup = _glared_table(3)
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(setup, tiles)
    controls, control = synth.Controls(), Exposure()
    rng = np.random.default_rng(4)
    seen = []
    for _ in range(5):
        shot = synth.photo(rng, view, light, still=True, controls=controls)
        observation = recogniser.observe(shot.image)
        assert observation.ok and observation.levels is not None
        seen.append(observation)
        controls.exposure_bias = control.update(observation)
    first, last = seen[0], seen[-1]
    assert first.levels is not None and last.levels is not None
    assert first.levels[1] >= CLIPPED  # the camera's own exposure clips the board
    assert last.levels[1] < CLIPPED and control.bias < 0
    assert control.bias >= exposure.LOWEST

    def hidden(o: Observation) -> list[int]:
        return [h for h, v in o.positions.items() if v.hidden]

    def wrong(o: Observation) -> list[str]:
        return [
            board.name(h) for h, v in o.positions.items() if not v.hidden and v.label != tiles[h]
        ]

    # the reflection hid tiles; exposed for the board, they show (and none reads wrong)
    assert len(hidden(last)) < len(hidden(first)), (hidden(first), hidden(last))
    assert not wrong(last)


def _observed(levels: tuple[float, float] | None) -> Observation:
    registration = Registration(None, (), (), 0.0, None if levels else "not found")
    return Observation(registration, {}, True, None, levels)


def test_the_exposure_goes_down_for_clipped_highlights_and_no_lower_than_the_shadows_allow() -> (
    None
):
    control = Exposure()
    assert control.update(_observed((80.0, 255.0))) == -exposure.DOWN  # clipped: a full stop
    # the shadows at the floor: clipped or not, no lower
    assert control.update(_observed((exposure.DARKEST, 255.0))) == -exposure.DOWN
    # room in the highlights: back up, a step at most, never beyond the camera's own choice
    assert control.update(_observed((60.0, 100.0))) == -exposure.DOWN + exposure.UP
    assert control.update(_observed((60.0, 50.0))) == 0.0
    assert control.update(_observed((60.0, 50.0))) == 0.0
    # a little below the target is left alone (each change costs the tracker a frame)
    control.bias = -1.0
    assert control.update(_observed((60.0, exposure.TARGET * 0.9))) == -1.0
    # a frame that does not register (too dark to find the markers?) gives a step back
    assert control.update(_observed(None)) == -1.0 + exposure.UP
    control.bias = exposure.LOWEST
    assert control.update(_observed((200.0, 255.0))) == exposure.LOWEST


def test_the_renderers_camera_exposes_as_the_control_asks() -> None:
    _, view, light, _ = _glared_table(3)
    means = []
    for bias in (0.0, -1.0):
        rng = np.random.default_rng(7)  # the same photo but for the exposure
        shot = synth.photo(rng, view, light, still=True, controls=synth.Controls(bias))
        means.append(float(np.median(shot.image)))
        assert shot.truth.params.get("exposure_bias", 0.0) == bias
    assert means[1] == pytest.approx(means[0] / 2, rel=0.15)


def test_sources_that_cannot_set_the_exposure_say_so(tmp_path: Path) -> None:
    frame = np.full((48, 64, 3), 128, np.uint8)
    still = tmp_path / "frame.png"
    cv2.imwrite(str(still), frame)
    assert ImageFiles([still]).set_exposure_bias(-1.0) is False
    video = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 5, (64, 48))
    for _ in range(3):
        writer.write(frame)
    writer.release()
    with CaptureSource(str(video)) as source:
        assert source.set_exposure_bias(-1.0) is False  # a video was exposed when it was taken
        assert source.read() is not None


def test_a_hex_in_a_lamps_reflection_says_how_much_white_lies_on_it() -> None:
    """The tracker trusts sea read in glare less (`tracker.GLARE`): the verdicts must say
    where the reflection lies, and not where it does not."""
    tiles, view, light, setup = _glared_table(3)
    assert light[1] is not None
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(setup, tiles)
    assert max(v.glare for v in recogniser.observe(setup).positions.values()) < tracker.GLARE
    rng = np.random.default_rng(4)
    shot = synth.photo(rng, view, light, still=True, controls=synth.Controls(-1.0))
    observation = recogniser.observe(shot.image)
    assert observation.ok and observation.registration.homography is not None
    # the white the renderer added at each position's centre, relative to its light
    centres = geometry.centres(geometry.LAND)
    px = cv2.perspectiveTransform(
        centres.reshape(-1, 1, 2), observation.registration.homography
    ).reshape(-1, 2)
    added = light[1][
        np.clip(px[:, 1].astype(int), 0, SIZE[1] - 1), np.clip(px[:, 0].astype(int), 0, SIZE[0] - 1)
    ].max(axis=1)
    glare = np.array([observation.positions[h].glare for h in geometry.LAND])
    strong, faint = added > np.percentile(added, 75), added < np.percentile(added, 25)
    assert (glare[strong] >= tracker.GLARE).all(), glare[strong]
    assert glare[strong].mean() > 3 * glare[faint].mean()
