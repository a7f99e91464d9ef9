"""The camera's acceptance on the renderer at full size (issue 18's "Done when"), for
`make check-long`: every condition at 1280×960 and 640×480, 40 photos each, and one whole
game per game condition. The same figures as `companion bench vision --json`.

Each test checks a group of goals and, when any is missed, fails once naming every figure of
the group against its goal: the run says how far off the camera is, not only that it is."""

from __future__ import annotations

import operator
from collections.abc import Callable

import pytest

pytest.importorskip("cv2")

from companion.vision import bench, synth

SINGLE = [c for c in synth.CONDITIONS if c != "all"]

Goal = tuple[str, Callable[[float, float], bool], str, float]
AT_LEAST: tuple[Callable[[float, float], bool], str] = (operator.ge, "≥")
AT_MOST: tuple[Callable[[float, float], bool], str] = (operator.le, "≤")


@pytest.fixture(scope="module")
def figures() -> dict[str, float]:
    return bench.conditions()


def _check(figures: dict[str, float], goals: list[Goal], what: str) -> None:
    """Fail naming each figure of `goals` (missed ones marked) when any is missed."""
    lines, missed = [], 0
    for name, holds, sign, goal in goals:
        value = figures.get(name, float("nan"))
        ok = holds(value, goal)  # NaN (a figure not made) holds no goal
        missed += not ok
        lines.append(f"{'  ' if ok else '✗ '}{name} = {value} (goal {sign} {goal})")
    if missed:
        pytest.fail(f"{what}: {missed} of {len(goals)} goals missed\n" + "\n".join(lines))


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
def test_every_condition_is_registered_and_read_as_the_issue_asks(
    figures: dict[str, float], width: int
) -> None:
    goals: list[Goal] = []
    for c in SINGLE:
        goals += [
            (f"vision.setup_accepted_{c}_{width}", *AT_LEAST, 0.95),
            (f"vision.frames_registered_{c}_{width}", *AT_LEAST, 0.95),
            (f"vision.land_sea_{c}_{width}", *AT_LEAST, 0.995),
            (f"vision.terrain_{c}_{width}", *AT_LEAST, 0.99),
        ]
    goals += [
        (f"vision.setup_accepted_all_{width}", *AT_LEAST, 0.90),
        (f"vision.frames_registered_all_{width}", *AT_LEAST, 0.90),
        (f"vision.land_sea_all_{width}", *AT_LEAST, 0.995),
        (f"vision.terrain_all_{width}", *AT_LEAST, 0.99),
    ]
    _check(figures, goals, f"photos at {width} wide")


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
def test_under_an_arm_nothing_wrong_is_said_surely(figures: dict[str, float], width: int) -> None:
    _check(figures, [(f"vision.arm_wrong_sure_{width}", *AT_MOST, 0.005)], f"arm at {width}")


@pytest.mark.slow
@pytest.mark.parametrize("width", [1280, 640])
@pytest.mark.parametrize("condition", bench.GAME_CONDITIONS)
def test_whole_games_with_pieces_on_sunk_hexes(
    figures: dict[str, float], width: int, condition: str
) -> None:
    goals: list[Goal] = [
        (f"vision.turn_accuracy_{condition}_{width}", *AT_LEAST, 0.995),
        (f"vision.question_rate_{condition}_{width}", *AT_MOST, 0.05),
    ]
    _check(figures, goals, f"whole {condition} game at {width} wide")
