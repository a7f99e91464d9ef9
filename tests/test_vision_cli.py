"""``companion vision detect|calibrate`` on recorded frames, the recorded-frames format, and the
bench's ``vision`` section (and its skip when OpenCV is missing)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("cv2")

from companion import bench, cli
from companion.engine import board
from companion.vision import geometry, recorded
from companion.vision.recognise import Recogniser

from .vision_support import batch, cover, over_marker

FIXTURES = Path(__file__).parent / "fixtures" / "vision"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def frames(tmp_path: Path) -> Path:
    """One synthetic island's photos written as recorded frames."""
    island = batch("normal")[0]
    folder = tmp_path / "frames"
    recorded.save(folder, "s0-000", island.setup.image, island.setup.truth, "s0", setup=True)
    for k, shot in enumerate(island.shots[:3], 1):
        recorded.save(folder, f"s0-{k:03d}", shot.image, shot.truth, "s0")
    return folder


def test_recorded_frames_round_trip_with_their_truth(frames: Path) -> None:
    loaded = recorded.load(frames)
    assert [f.image_path.name for f in loaded] == [f"s0-00{k}.png" for k in range(4)]
    groups = recorded.sequences(loaded)
    setup, rest = groups["s0"]
    assert setup is not None and setup.setup and len(rest) == 3
    assert setup.truth.positions == batch("normal")[0].layout
    assert rest[0].image().shape == (960, 1280, 3)


def test_calibrate_then_detect_from_the_command_line(
    frames: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    config = tmp_path / "companion.toml"
    calibration = tmp_path / "cal.json"
    config.write_text(f'[camera]\ncalibration = "{calibration}"\n', encoding="utf-8")
    setup, rest = recorded.sequences(recorded.load(frames))["s0"]
    assert setup is not None
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps(setup.truth.to_json()["positions"]), encoding="utf-8")

    # without a layout: the camera's proposal, 16/16/8, not confirmed
    status, out, _ = run(
        capsys, "vision", "calibrate", "--config", str(config), "--image", str(setup.image_path)
    )
    assert status == 0 and "proposal" in out
    proposal = json.loads(calibration.read_text(encoding="utf-8"))
    assert not proposal["confirmed"]
    assert sorted(proposal["layout"].values()).count("mountain") == 8

    status, out, _ = run(
        capsys,
        "vision", "calibrate", "--config", str(config),
        "--image", str(setup.image_path), "--layout", str(layout), "--json",
    )  # fmt: skip
    assert status == 0 and json.loads(out)["confirmed"]

    frame = rest[0]
    status, out, _ = run(
        capsys,
        "vision",
        "detect",
        "--config",
        str(config),
        "--image",
        str(frame.image_path),
        "--json",
    )
    assert status == 0
    result = json.loads(out)
    assert result["ok"] and result["calibrated"] and len(result["markers"]) == 8
    labels = {p["hex"]: p["label"] for p in result["positions"]}
    assert labels == frame.truth.to_json()["positions"]

    status, out, _ = run(
        capsys, "vision", "detect", "--config", str(config), "--image", str(frame.image_path)
    )
    assert status == 0 and "calibrated" in out and out.count("\n") >= 8


def test_detect_says_why_a_frame_was_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import cv2

    from companion.vision.markers import load

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    shot = batch("normal")[0].shots[4]
    image = shot.image
    for marker in load().markers[:6]:
        image = cover(image, shot.truth.homography or [], over_marker(marker))
    path = tmp_path / "hidden.png"
    cv2.imwrite(str(path), image)
    status, _, err = run(capsys, "vision", "detect", "--image", str(path))
    assert status == 1 and "too few markers: 2 of 8 found" in err
    status, out, _ = run(capsys, "vision", "detect", "--image", str(path), "--json")
    assert status == 1 and json.loads(out)["reason"].startswith("too few markers")
    status, _, err = run(capsys, "vision", "detect", "--image", str(tmp_path / "no.png"))
    assert status == 1 and "does not exist" in err


def test_recorded_fixtures_of_real_boards_are_read_right() -> None:
    """Real photos with their truth, when some have been added to tests/fixtures/vision
    (see companion/vision/recorded.py for the form)."""
    if not FIXTURES.is_dir() or not recorded.load(FIXTURES):
        pytest.skip("no recorded frames in tests/fixtures/vision yet")
    for name, (setup, rest) in recorded.sequences(recorded.load(FIXTURES)).items():
        assert setup is not None, f"island {name!r} has no setup frame"
        recogniser = Recogniser()
        recogniser.calibration = recogniser.calibrate(setup.image(), setup.truth.positions)
        for frame in rest:
            observation = recogniser.observe(frame.image())
            assert observation.ok, f"{frame.image_path.name}: {observation.registration.reason}"
            seen = [h for h in geometry.LAND if not observation.positions[h].hidden]
            wrong = [
                board.name(h)
                for h in seen
                if observation.positions[h].land != (frame.truth.positions[h] != "sea")
            ]
            assert not wrong, f"{frame.image_path.name}: land/sea wrong at {wrong}"
            assert len(seen) >= 38, f"{frame.image_path.name}: {40 - len(seen)} hidden"


def test_the_bench_vision_section_measures_the_promised_figures() -> None:
    from companion.vision import bench as vision_bench

    figures = vision_bench.accuracy("normal", frames=10, seed=5)
    assert set(figures) == {
        "vision.hex_accuracy_normal",
        "vision.terrain_accuracy_normal",
        "vision.frames_registered_normal",
    }
    assert figures["vision.hex_accuracy_normal"] >= 0.99
    assert figures["vision.frames_registered_normal"] == 1.0
    assert 0 < vision_bench.frame_ms((640, 480), frames=3, seed=5) < 1000


def test_without_opencv_the_bench_skips_the_vision_section(monkeypatch: pytest.MonkeyPatch) -> None:
    import companion.vision

    monkeypatch.setitem(sys.modules, "cv2", None)  # `import cv2` now raises ImportError
    monkeypatch.delitem(sys.modules, "companion.vision.bench", raising=False)
    monkeypatch.delattr(companion.vision, "bench", raising=False)
    report = bench.run(["vision"])
    assert report["figures"] == {}
    assert "OpenCV or numpy is not importable" in report["meta"]["skipped"]["vision"]


def test_without_opencv_the_vision_commands_say_how_to_get_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "cv2", None)
    status, _, err = run(capsys, "vision", "markers", "--output", str(tmp_path / "m.svg"))
    assert status == 1
    assert "OpenCV is not importable" in err and "apt install python3-opencv" in err
    assert not (tmp_path / "m.svg").exists()


def test_record_saves_a_labelled_sequence_that_the_recorded_reader_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No rule: `companion vision record --synthetic` writes frames in recorded.py's form, each
    marked synthetic, the first a setup photo with all 40 tiles; a camera recording needs the
    game whose log labels it, and a used folder is refused."""
    out = tmp_path / "rec"
    status, said, _ = run(capsys, "vision", "record", "--synthetic", "3", "--frames", "3",
                          "--small", "--output", str(out))  # fmt: skip
    assert status == 0 and "marked synthetic" in said
    frames = recorded.load(out)
    assert len(frames) == 3 and frames[0].setup and not frames[1].setup
    assert all(f.truth.mode == "synthetic" for f in frames)
    assert all(t != "sea" for t in frames[0].truth.positions.values())
    assert sum(t == "sea" for t in frames[2].truth.positions.values()) == 2  # a tile a turn
    assert frames[0].image().shape == (480, 640, 3)
    status, _, err = run(capsys, "vision", "record", "--synthetic", "3", "--output", str(out))
    assert status == 1 and "not empty" in err
    status, _, err = run(capsys, "vision", "record", "--output", str(tmp_path / "new"))
    assert status == 1 and "--game" in err
