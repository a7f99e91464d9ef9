"""Recorded frames: photos with their truth, so real boards can join the synthetic tests.

A folder holds image files (``.jpg``, ``.jpeg`` or ``.png``) and, beside each, a JSON file
of the same name with what the photo shows::

    frames/
      game1-000-setup.jpg   game1-000-setup.json
      game1-001.jpg         game1-001.json

    {"sequence": "game1",           # frames of one board under one camera share a sequence
     "setup": true,                 # the setup photo: all 40 tiles laid, used to calibrate
     "positions": {"3.4": "beach", "3.5": "sea", ...},   # all 40 land positions, by row.col
     "homography": null,            # optional: board (hex units) -> pixels, 3x3
     "hidden_marker": null, "mode": "recorded", "params": {}}

To add real photos: ``companion vision record --game N --output DIR`` takes frames from the
camera and labels each from the game's log as it stands; put the folder under
``tests/fixtures/vision/`` and the tests pick it up. ``--synthetic SEED`` records a rendered
game instead, marked ``"mode": "synthetic"`` (the one shipped so far is such). Synthetic frames
are written in the same form (`save`), which is also how a bench run can be inspected.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .synth import Truth

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")


@dataclass(frozen=True)
class Recorded:
    """One recorded frame: where its image is, and its truth."""

    image_path: Path
    truth: Truth
    sequence: str
    setup: bool

    def image(self) -> np.ndarray:
        """The photo as BGR uint8."""
        image = cv2.imread(str(self.image_path), cv2.IMREAD_COLOR)
        if image is None:
            raise OSError(f"cannot read the image {self.image_path}")
        return np.asarray(image)


def save(
    folder: Path,
    name: str,
    image: np.ndarray,
    truth: Truth,
    sequence: str = "",
    setup: bool = False,
    suffix: str = ".png",
) -> Path:
    """Write `name` + suffix and `name`.json into `folder`; returns the image's path.
    PNG by default: a synthetic photo has had its JPEG damage already."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}{suffix}"
    if not cv2.imwrite(str(path), image):
        raise OSError(f"cannot write {path}")
    data: dict[str, Any] = {"sequence": sequence, "setup": setup, **truth.to_json()}
    (folder / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return path


def load(folder: Path) -> list[Recorded]:
    """Every frame in `folder` and its subfolders (one recording each) that has both an image
    and its JSON, in path order."""
    frames = []
    for meta in sorted(folder.rglob("*.json")):
        images = [meta.with_suffix(s) for s in IMAGE_SUFFIXES if meta.with_suffix(s).is_file()]
        if not images:
            continue
        data = json.loads(meta.read_text(encoding="utf-8"))
        frames.append(
            Recorded(
                images[0],
                Truth.from_json(data),
                str(data.get("sequence", "")),
                bool(data.get("setup", False)),
            )
        )
    return frames


def sequences(frames: list[Recorded]) -> dict[str, tuple[Recorded | None, list[Recorded]]]:
    """Frames grouped by sequence: (its setup frame or None, the other frames)."""
    out: dict[str, tuple[Recorded | None, list[Recorded]]] = {}
    for f in frames:
        setup, rest = out.get(f.sequence, (None, []))
        if f.setup and setup is None:
            setup = f
        else:
            rest.append(f)
        out[f.sequence] = (setup, rest)
    return out
