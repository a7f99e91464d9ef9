"""A real table's geometry: markers laid by hand and a lens that bends, measured once and undone.

No rule of the game: these pin the camera's registration. The photos come from the renderer's
``markers`` and ``distortion`` conditions (`synth.CONDITIONS`), a few per condition.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion import config, doctor
from companion.vision import geometry, synth
from companion.vision.calibrate import dumps, load
from companion.vision.lens import Lens
from companion.vision.recognise import Recogniser
from companion.vision.register import MAX_SHIFT, project


@cache
def table(condition: str, size: tuple[int, int] = (1280, 960)) -> synth.Island:
    return next(synth.islands(31, 3, condition, size, per_island=3))


def _hex_error(recogniser: Recogniser, shot: synth.Shot) -> float:
    """The worst hex centre, in pixels of the photo, between the camera's registration and the
    truth (the true plane through the true lens)."""
    registration = recogniser.register(shot.image)
    assert registration.ok, registration.reason
    centres = geometry.centres()
    h, w = shot.image.shape[:2]
    truth = Lens.ideal((w, h), shot.truth.params["k1"]).distort(
        project(np.array(shot.truth.homography), centres)
    )
    return float(np.linalg.norm(registration.to_image(centres) - truth, axis=1).max())


def _pixels_per_unit(shot: synth.Shot) -> float:
    h = np.array(shot.truth.homography)
    a, b = project(h, np.array([[0.0, 0.0], [1.0, 0.0]]))
    return float(np.linalg.norm(b - a))


def test_the_leave_one_out_limit_is_what_the_sampled_disc_tolerates() -> None:
    """Half the gap between the sampled disc (0.6) and the hex's side (inradius √3/2)."""
    assert pytest.approx((np.sqrt(3) / 2 - 0.6) / 2) == MAX_SHIFT
    assert pytest.approx(geometry.INRADIUS) == geometry.SAMPLE_RADIUS + 2 * MAX_SHIFT


@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_markers_laid_by_hand_two_millimetres_off_are_accepted_and_measured(
    size: tuple[int, int],
) -> None:
    island = table("markers", size)
    recogniser = Recogniser()
    calibration = recogniser.calibrate(island.setup.image, island.layout)
    # each measured marker lies where the renderer laid it, not where the sheet prints it
    printed = {m.id: np.array(m.corners()) for m in recogniser.markers.markers}
    off = [np.abs(calibration.laid[i] - printed[i]).max() for i in printed]
    assert max(off) > 0.03  # laid by hand: really off the sheet
    for shot in island.shots:
        observation = recogniser.observe(shot.image)
        assert observation.ok, observation.registration.reason
        # within a tenth of a hex of the truth, wherever the photo was taken from
        assert _hex_error(recogniser, shot) < 0.1 * _pixels_per_unit(shot)


@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_a_barrel_lens_is_estimated_from_the_board_and_undone(size: tuple[int, int]) -> None:
    island = table("distortion", size)
    true_k1 = island.setup.truth.params["k1"]
    assert true_k1 < -0.03  # a lens that bends visibly
    recogniser = Recogniser()
    calibration = recogniser.calibrate(island.setup.image, island.layout)
    assert calibration.lens is not None
    assert calibration.lens.dist[0] == pytest.approx(true_k1, abs=0.02)
    for shot in island.shots:
        assert recogniser.observe(shot.image).ok
        assert _hex_error(recogniser, shot) < 0.1 * _pixels_per_unit(shot)
    # without undoing it, the hexes are sampled further from where they lie
    straight = Recogniser()
    straight.calibration = calibration
    assert straight.measured is not None
    straight.measured = type(straight.measured)(None, calibration.laid, 0.0)
    for shot in island.shots:
        if straight.register(shot.image).ok:
            assert _hex_error(straight, shot) > 1.5 * _hex_error(recogniser, shot)


def test_the_calibration_file_keeps_the_lens_and_the_laid_markers(tmp_path: Path) -> None:
    island = table("distortion")
    calibration = Recogniser().calibrate(island.setup.image, island.layout)
    path = tmp_path / "calibration.json"
    path.write_text(dumps(calibration), encoding="utf-8")
    again = load(path)
    assert again.lens is not None and calibration.lens is not None
    assert np.allclose(again.lens.dist, calibration.lens.dist, atol=1e-5)
    assert set(again.laid) == set(calibration.laid)
    # a restarted camera registers with them straight away, no measuring frame needed
    fresh = Recogniser(calibration=again)
    assert fresh.measured is not None and fresh.register(island.shots[0].image).ok
    # the doctor says what the file holds
    cfg = config.parse({"camera": {"source": "usb:0", "calibration": str(path)}})
    check = doctor.calibration(cfg)
    assert check.status == "ok" and "barrel" in check.text and "measured where laid" in check.text
    # an old file without them still loads, and the doctor asks for a new calibration
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["lens"], data["markers_laid"]
    path.write_text(json.dumps(data), encoding="utf-8")
    old = doctor.calibration(cfg)
    assert old.status == "warn" and "no lens model" in old.text
    assert "companion vision calibrate" in old.advice


def _charuco_photos(board: np.ndarray, dpi: int, truth: Lens) -> list[np.ndarray]:
    """The printed ChArUco board `board` photographed through `truth` from six poses (a
    pinhole of the lens's focal length, then its bend), as people hold it up to the camera."""
    import cv2

    from companion.vision.lens import CHARUCO_SQUARE_MM, CHARUCO_SQUARES

    w, h = truth.size
    per_mm = dpi / 25.4
    margin = round(CHARUCO_SQUARE_MM * per_mm)
    to_mm = np.array([[1 / per_mm, 0, -margin / per_mm], [0, 1 / per_mm, -margin / per_mm],
                      [0, 0, 1.0]])  # fmt: skip
    middle = np.array([*(np.array(CHARUCO_SQUARES) * CHARUCO_SQUARE_MM / 2), 0.0])
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float64)
    straight = truth.undistort(np.stack([xs, ys], axis=-1))
    straight = np.concatenate([straight, np.ones((h, w, 1))], axis=-1)
    photos = []
    poses = [(0.0, 0.0, 0.0, 260, 0, 0), (0.3, 0.0, 0.1, 250, -90, -60),
             (-0.3, 0.25, 0.0, 250, 90, 60), (0.0, -0.35, -0.1, 250, 90, -60),
             (0.25, 0.3, 0.2, 250, -90, 60), (0.1, 0.1, 0.5, 230, 0, 0)]  # fmt: skip
    for rx, ry, rz, distance, dx, dy in poses:
        r, _ = cv2.Rodrigues(np.array([rx, ry, rz], np.float64))
        t = np.array([dx, dy, distance]) - r @ middle
        to_photo = truth.matrix @ np.column_stack([r[:, 0], r[:, 1], t]) @ to_mm
        p = straight @ np.linalg.inv(to_photo).T
        mx, my = (
            (p[..., 0] / p[..., 2]).astype(np.float32),
            (p[..., 1] / p[..., 2]).astype(np.float32),
        )
        photos.append(cv2.remap(board, mx, my, cv2.INTER_LINEAR, borderValue=200))
    return photos


def test_a_printed_charuco_board_gives_the_lens_the_calibration_file_keeps(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`companion vision markers --charuco` prints a ChArUco board; photos of it through a
    barrel lens give OpenCV's model (undoing the bend within 2 pixels over the frame's inner 80 %); `vision calibrate
    --lens-photos` stores it instead of the board's estimate, and `companion doctor` names it.
    Too few views are refused with what is missing."""
    import cv2

    from companion import cli
    from companion.vision.lens import from_charuco

    printed = tmp_path / "charuco.png"
    assert cli.main(["vision", "markers", "--charuco", "--output", str(printed)]) == 0
    assert "ChArUco board of 7x5 squares" in capsys.readouterr().out
    board = cv2.imread(str(printed), cv2.IMREAD_GRAYSCALE)
    assert board is not None
    island = table("distortion", (640, 480))
    truth = Lens.ideal((640, 480), island.setup.truth.params["k1"])
    photos = _charuco_photos(board, 300, truth)
    lens = from_charuco(photos)
    assert lens.source == "charuco"
    # k1 and k2 trade off; what matters is where points land, over the frame the views covered
    inner = np.array([[x, y] for x in (64.0, 320.0, 576.0) for y in (48.0, 240.0, 432.0)])
    err = np.abs(lens.undistort(inner) - truth.undistort(inner)).max()
    assert err < 2.0  # pixels at 640×480: a tenth of a hex unit; a straight lens misses by 4×
    assert np.abs(inner - truth.undistort(inner)).max() > 4 * err
    with pytest.raises(ValueError, match="found in 2 of 2 photos, 3 needed"):
        from_charuco(photos[:2])
    names = []
    for k, photo in enumerate(photos):
        names.append(str(tmp_path / f"view{k}.png"))
        cv2.imwrite(names[-1], photo)
    setup = tmp_path / "setup.png"
    cv2.imwrite(str(setup), island.setup.image)
    layout = tmp_path / "layout.json"
    layout.write_text(json.dumps({board_name(h): t for h, t in island.layout.items()}))
    output = tmp_path / "calibration.json"
    argv = [
        "vision",
        "calibrate",
        "--image",
        str(setup),
        "--layout",
        str(layout),
        "--output",
        str(output),
    ]
    assert cli.main([*argv, "--lens-photos", *names]) == 0
    kept = load(output)
    assert kept.lens is not None and kept.lens.source == "charuco"
    assert Recogniser(calibration=kept).register(island.shots[0].image).ok
    cfg = config.parse({"camera": {"source": "usb:0", "calibration": str(output)}})
    assert "charuco lens model" in doctor.calibration(cfg).text


def board_name(h: int) -> str:
    from companion.engine import board

    return board.name(h)
