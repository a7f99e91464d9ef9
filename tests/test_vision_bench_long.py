"""The camera's acceptance on the renderer at full size (issue 18's "Done when"), for
`make check-long`: every condition at 1280×960 and 640×480, 40 photos each, and one whole
game per game condition. The same figures as `companion bench vision --json`."""

from __future__ import annotations

import pytest

pytest.importorskip("cv2")

from companion.vision import bench, synth

SINGLE = [c for c in synth.CONDITIONS if c != "all"]


@pytest.fixture(scope="module")
def figures() -> dict[str, float]:
    return bench.conditions()


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
def test_every_condition_is_registered_and_read_as_the_issue_asks(
    figures: dict[str, float], width: int
) -> None:
    for c in SINGLE:
        assert figures[f"vision.setup_accepted_{c}_{width}"] >= 0.95, c
        assert figures[f"vision.frames_registered_{c}_{width}"] >= 0.95, c
        assert figures[f"vision.land_sea_{c}_{width}"] >= 0.995, c
        assert figures[f"vision.terrain_{c}_{width}"] >= 0.99, c
    assert figures[f"vision.frames_registered_all_{width}"] >= 0.90
    assert figures[f"vision.land_sea_all_{width}"] >= 0.995
    assert figures[f"vision.terrain_all_{width}"] >= 0.99


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
def test_under_an_arm_nothing_wrong_is_said_surely(figures: dict[str, float], width: int) -> None:
    assert figures[f"vision.arm_wrong_sure_{width}"] <= 0.005


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
@pytest.mark.parametrize("condition", bench.GAME_CONDITIONS)
def test_whole_games_with_pieces_on_sunk_hexes(
    figures: dict[str, float], width: int, condition: str
) -> None:
    assert figures[f"vision.turn_accuracy_{condition}_{width}"] >= 0.995
    assert figures[f"vision.question_rate_{condition}_{width}"] <= 0.05
