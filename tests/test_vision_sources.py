"""Frame sources from the ``[camera] source`` string: files, a folder, a video, USB, picamera2."""

from __future__ import annotations

import sys
import types
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion.vision.sources import Frame, SourceError, open_source


def _image(value: int) -> np.ndarray:
    image = np.zeros((48, 64, 3), np.uint8)
    image[:] = (value, 255 - value, 40)
    return image


def test_files_an_image_a_folder_in_name_order_and_a_video(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "b.png"), _image(200))
    cv2.imwrite(str(tmp_path / "a.png"), _image(100))
    (tmp_path / "notes.txt").write_text("not an image", encoding="utf-8")
    with open_source(f"files:{tmp_path / 'a.png'}") as one:
        first = one.read()
        assert first is not None and first[0, 0, 0] == 100
        assert one.read() is None
    folder = open_source(f"files:{tmp_path}")
    frames = [folder.read() for _ in range(3)]
    assert [None if f is None else int(f[0, 0, 0]) for f in frames] == [100, 200, None]
    video = tmp_path / "replay.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter.fourcc(*"MJPG"), 5, (64, 48))
    for value in (30, 130, 230):
        writer.write(_image(value))
    writer.release()
    replay = open_source(f"files:{video}")
    frames = [replay.read() for _ in range(4)]
    replay.close()
    assert [f is None for f in frames] == [False, False, False, True]
    assert [int(f[0, 0, 0]) for f in frames[:3] if f is not None] == pytest.approx(
        [30, 130, 230], abs=12
    )


def test_a_jpeg_file_is_taken_as_it_is_and_decoded_whole_only_for_its_pixels(
    tmp_path: Path,
) -> None:
    """No rule: a JPEG is taken undecoded, its eighth decoded at once (a file that is no JPEG
    says so, as one OpenCV cannot read did); a PNG, a video or a camera give pixels."""
    cv2.imwrite(str(tmp_path / "a.jpg"), _image(100))
    cv2.imwrite(str(tmp_path / "b.png"), _image(200))
    (tmp_path / "c.jpg").write_bytes(b"not a jpeg")
    folder = open_source(f"files:{tmp_path}")
    jpeg, png = folder.take(), folder.take()
    assert isinstance(jpeg, Frame) and jpeg.jpeg is not None and jpeg._image is None
    assert jpeg.eighth().shape == (6, 8, 3) and jpeg._image is None
    assert jpeg.pixels().shape == (48, 64, 3) and abs(int(jpeg.pixels()[0, 0, 0]) - 100) <= 3
    assert isinstance(png, Frame) and png.jpeg is None and int(png.pixels()[0, 0, 0]) == 200
    assert int(png.eighth()[0, 0, 0]) == 200 and png.eighth().shape == (6, 8, 3)
    with pytest.raises(SourceError, match="cannot read the image"):
        folder.take()
    assert folder.take() is None


def test_sources_that_cannot_open_say_why(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="none"):
        open_source("none")
    with pytest.raises(SourceError, match="does not exist"):
        open_source(f"files:{tmp_path / 'missing.jpg'}")
    with pytest.raises(SourceError, match="no images"):
        open_source(f"files:{tmp_path}")
    with pytest.raises(SourceError, match="not a camera source"):
        open_source("webcam")
    if not Path("/dev/video97").exists():
        with pytest.raises(SourceError, match="cannot open 97"):
            open_source("usb:97")


def test_picamera2_is_imported_only_when_used_and_asked_for_rgb888(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """picamera2's "RGB888" is B, G, R in memory: OpenCV's order (research §4)."""
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(SourceError, match="apt install python3-picamera2"):
        open_source("picamera2")

    calls: dict[str, Any] = {}

    class FakeCamera:
        def __init__(self, number: int) -> None:
            calls["number"] = number

        def create_preview_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
            return {"main": main}

        def configure(self, config: dict[str, Any]) -> None:
            calls["config"] = config

        def start(self) -> None:
            calls["started"] = True

        def capture_array(self, stream: str) -> np.ndarray:
            return np.full((960, 1280, 3), 7, np.uint8)

        def stop(self) -> None:
            calls["stopped"] = True

        def close(self) -> None:
            calls["closed"] = True

    module = types.ModuleType("picamera2")
    module.Picamera2 = FakeCamera  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    camera = open_source("picamera2")
    frame = camera.read()
    camera.close()
    assert calls["config"] == {"main": {"format": "RGB888", "size": (1280, 960)}}
    assert frame is not None and frame.shape == (960, 1280, 3) and frame.flags.c_contiguous
    assert calls["started"] and calls["stopped"] and calls["closed"]
