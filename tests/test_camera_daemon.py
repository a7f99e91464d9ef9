"""A camera is optional: a `companion serve` whose camera libraries cannot be imported starts,
says on the status what to install, and a whole game is played through HTTP all the same."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.daemon_support import (
    environment,
    free_port,
    running,
    stop,
    wait_http_200,
    write_config,
)

# Installed as `sitecustomize` on the child's PYTHONPATH: every import of OpenCV or picamera2
# fails there as it does on a Pi without python3-opencv and python3-picamera2.
HIDE = """
import sys

class Hidden:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("cv2", "picamera2"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Hidden())
"""


def call(base: str, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data, {"Content-Type": "application/json"}, method=method
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def play_to_the_end(base: str, game: int) -> int:
    """As the table itself (loopback): whoever decides takes their first legal choice, the table
    draws its own decisions. The number of commands sent."""
    sent = 0
    while True:
        snap = call(base, "GET", f"/api/games/{game}?view=referee")
        state = snap["state"]
        if state["phase"] == "over":
            return sent
        if snap.get("legal"):
            command = {"seat": state["actor"] + 1, "action": snap["legal"][0]}
        else:
            command = {"seat": None, "intent": "draw"}
        sent += 1
        reply = call(
            base, "POST", f"/api/games/{game}/commands", {"request_id": f"r{sent}", **command}
        )
        assert reply["accepted"], reply
        assert sent < 5000, "the game does not end"


@pytest.mark.rule("B-9")
def test_B_9_without_opencv_and_picamera2_the_daemon_says_what_to_install_and_plays_a_game(
    tmp_path: Path,
) -> None:
    """B-9: every tile is removed by a tap when the camera cannot run: a daemon configured with
    a camera whose libraries are missing starts, reports the camera unavailable with what to
    install, and a whole game is played through its HTTP API."""
    hide = tmp_path / "hide"
    hide.mkdir()
    (hide / "sitecustomize.py").write_text(HIDE, encoding="utf-8")
    port = free_port()
    cfg = write_config(tmp_path, port, '\n[camera]\nsource = "picamera2"\n')
    env = environment(tmp_path, PYTHONPATH=str(hide))
    base = f"http://127.0.0.1:{port}"
    with running(["serve", "--config", str(cfg)], env) as proc:
        _, body = wait_http_200(base, ("/api/health",), timeout=20)
        camera = json.loads(body)["status"]["camera"]
        assert camera.startswith("unavailable: cv2 cannot be imported"), camera
        assert "python3-opencv" in camera
        game = call(
            base, "POST", "/api/games",
            {"players": [{"name": "Ana"}, {"name": "Ben"}], "seed": 3, "mode": "digital"},
        )["game"]  # fmt: skip
        assert play_to_the_end(base, game) > 40
        games = call(base, "GET", "/api/games")["games"]
        assert games[-1]["id"] == game and games[-1]["ended_at"] is not None
        status, out, err = stop(proc)
    assert status == 0, err
    assert "camera:    picamera2: unavailable: cv2 cannot be imported" in out
    assert "Traceback" not in err
