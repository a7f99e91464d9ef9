"""The legacy ArUco API: Debian's python3-opencv 4.6 (what Raspberry Pi OS ships) under the system
interpreter, with nothing but this repository on the path.

OpenCV 4.6 has only ``cv2.aruco.detectMarkers``/``DetectorParameters_create``/``drawMarker``; the
venv's wheel has only ``ArucoDetector``/``generateImageMarker``. The same adapter must serve both,
and the whole recogniser must run on Debian's numpy 1.24 as well.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion.vision import aruco
from companion.vision.markers import load as load_markers
from companion.vision.register import project

from .vision_support import batch, reprinted

REPO = Path(__file__).resolve().parents[1]
SYSTEM_PYTHON = "/usr/bin/python3"

_SCRIPT = r"""
import json, sys
import cv2, numpy as np
from companion.engine import board
from companion.vision import aruco
from companion.vision.recognise import Recogniser

folder = sys.argv[1]
spec = json.load(open(folder + "/spec.json"))
out = {
    "cv2": cv2.__version__,
    "cv2_file": cv2.__file__,
    "numpy": np.__version__,
    "modern": aruco.MODERN,
    "api": aruco.api(),
    "bits": {i: aruco.marker_bits(i).tolist() for i in range(8)},
    "frames": [],
}
recogniser = Recogniser()
layout = {board.parse(k): v for k, v in spec["layout"].items()}
recogniser.calibration = recogniser.calibrate(cv2.imread(folder + "/setup.png"), layout)
for name in spec["frames"]:
    recogniser.forget()  # unrelated moments of a game
    observation = recogniser.observe(cv2.imread(folder + "/" + name))
    r = observation.registration
    out["frames"].append({
        "ok": r.ok,
        "reason": r.reason,
        "markers": list(r.markers),
        "homography": None if r.homography is None else r.homography.tolist(),
        "labels": {board.name(h): v.label for h, v in observation.positions.items()},
    })
print(json.dumps(out))
"""


def _debian_opencv() -> None:
    """Debian's python3-opencv for the system interpreter: installed here if absent (as root,
    as `make test` does through the Makefile's APT_PACKAGES)."""
    check = [SYSTEM_PYTHON, "-c", "import cv2, cv2.aruco"]
    if not Path(SYSTEM_PYTHON).is_file():
        pytest.skip(f"no system interpreter at {SYSTEM_PYTHON}")
    if subprocess.run(check, capture_output=True, env=_env()).returncode == 0:
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.skip("python3-opencv is not installed and this is not root on Debian")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update"], check=True, capture_output=True, env=env, timeout=600)
    subprocess.run(
        ["apt-get", "install", "-y", "--no-install-recommends", "python3-opencv"],
        check=True,
        capture_output=True,
        env=env,
        timeout=900,
    )


def _env() -> dict[str, str]:
    """The system interpreter with only the repository on its path: no venv, no user site."""
    keep = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG", "TMPDIR")}
    return {**keep, "PYTHONPATH": str(REPO), "PYTHONNOUSERSITE": "1"}


def test_the_legacy_aruco_api_under_debians_opencv_46(tmp_path: Path) -> None:
    _debian_opencv()
    island = batch("normal")[1]
    shots = island.shots[:4]
    cv2.imwrite(str(tmp_path / "setup.png"), island.setup.image)
    names = []
    for k, shot in enumerate(shots):
        names.append(f"frame{k}.png")
        cv2.imwrite(str(tmp_path / names[-1]), shot.image)
    # marker 3 smudged (2 of its cells): found only where the others put it (`_refine`)
    cells = aruco.marker_bits(3)[1:5, 1:5].copy()
    cells[0, 1] ^= 1
    cells[2, 3] ^= 1
    smudged = reprinted(shots[0], load_markers().by_id()[3], cells)
    names.append("smudged.png")
    cv2.imwrite(str(tmp_path / names[-1]), cv2.cvtColor(smudged, cv2.COLOR_GRAY2BGR))
    from companion.engine import board

    spec = {"layout": {board.name(h): t for h, t in island.layout.items()}, "frames": names}
    (tmp_path / "spec.json").write_text(json.dumps(spec), encoding="utf-8")

    done = subprocess.run(
        [SYSTEM_PYTHON, "-c", _SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["cv2"].startswith("4.6"), out["cv2_file"]
    assert out["modern"] is False and "legacy detectMarkers" in out["api"]
    assert aruco.MODERN  # and the venv's wheel takes the other path
    # both generations draw the same markers from the same dictionary
    for ident, bits in out["bits"].items():
        assert np.array_equal(np.array(bits), aruco.marker_bits(int(ident)))
    assert 3 in out["frames"][-1]["markers"]
    assert out["frames"][-1]["homography"] is not None
    right = total = 0
    for shot, frame in zip(shots, out["frames"][:-1], strict=True):
        assert frame["ok"], frame["reason"]
        assert len(frame["markers"]) >= 7
        c = np.array([[x, y] for x, y in (board.plane(*board.CELLS[h]) for h in board.LAND)])
        truth = np.array(shot.truth.homography)
        moved = project(np.linalg.inv(truth), project(np.array(frame["homography"]), c))
        assert np.linalg.norm(moved - c, axis=1).max() < 0.03
        for name, label in frame["labels"].items():
            total += 1
            right += label == shot.truth.positions[board.parse(name)]
    assert right / total >= 0.99
