"""tools/tracker_games.py: whole games through the tracker, replayed from kept photos."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np

from companion.vision import bench, synth
from companion.vision.markers import load as load_markers

TOOL = Path(__file__).resolve().parents[1] / "tools" / "tracker_games.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tracker_games", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["tracker_games"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_short_game_adds_up_and_replays_as_it_played(tmp_path: Path) -> None:
    tool = _tool()
    game = tool.Game("test", 3101, 640)
    live = tool.play(game, None, turns=2)
    assert live["right"] + live["asked"] + live["wrong"] == 2
    assert len(live["notes"]) == live["asked"] + live["wrong"]
    kept = tool.play(game, tmp_path, turns=2)  # rendered and kept
    assert any(tmp_path.rglob("*.jpg")) and any(tmp_path.rglob("index.json"))
    replayed = tool.play(game, tmp_path, turns=2)  # from the kept photos
    assert live == kept == replayed


def test_a_photo_asked_at_another_exposure_is_rendered_from_the_seed(tmp_path: Path) -> None:
    """The renderer is deterministic only given the exposure asked before each photo: a
    replay asked a bias it has not kept renders that photo anew, the photos before it at the
    biases they were taken, and gives what a live game asked the same would."""
    tool = _tool()
    size = (640, 480)
    first = tool.Replay(3101, size, tmp_path)
    controls = synth.Controls()
    for k, _ in enumerate(first(controls)):
        if k == 2:
            break  # frames 0-2 kept at bias 0
    biases = [0.0, 0.0, -1.5]  # frames 0 and 1 replayed, 2 rendered after them
    replay = tool.Replay(3101, size, tmp_path)
    controls = synth.Controls()
    replayed = []
    for k, item in enumerate(replay(controls)):
        replayed.append(item[2].image)
        if k == 2:
            break
        controls.exposure_bias = biases[k + 1]
    controls = synth.Controls()
    truth = []
    photos = synth.game(
        3101, "all", size, bench.STILL_FRAMES, load_markers(), bench.HAND_FRAMES, controls
    )
    for k, item in enumerate(photos):
        truth.append(item[2].image)
        if k == 2:
            break
        controls.exposure_bias = biases[k + 1]
    assert np.array_equal(replayed[0], truth[0])  # kept at bias 0
    at_zero = tool.Replay(3101, size, tmp_path)._kept(2, 0.0)
    assert at_zero is not None and not np.array_equal(replayed[2], at_zero[2].image)
    for a, b in zip(replayed, truth, strict=True):
        assert np.array_equal(a, b)
    # and kept at the bias asked, for the next replay
    assert tool.Replay(3101, size, tmp_path)._kept(2, -1.5) is not None
