"""The camera reads a frame only when it shows something new (`companion.vision.still`): on
real OpenCV over synthetic photos, a board at rest is read once however noisy its frames, while
a person moved, a tile lifted or a hand over the board is read at once; and the turn tracker
reaches the same verdict from the readings that stand as from frames read anew."""

from __future__ import annotations

import dataclasses
import multiprocessing
from pathlib import Path

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion.camera import Camera
from companion.table import Table
from companion.vision import synth
from companion.vision.markers import load as load_markers
from companion.vision.recognise import Observation, Recogniser
from companion.vision.still import NOISE, Stillness
from companion.vision.watch import Link, Stopped, Watcher
from tests.playing import new_game
from tests.test_vision_tracker import after_sinking, photos, recogniser, tracker_at_rest
from tests.test_vision_tracker import table as board


@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_a_board_at_rest_is_read_once_and_a_moved_person_a_lifted_tile_or_a_hand_at_once(
    size: tuple[int, int],
) -> None:
    """No rule: new noise, focus and JPEG in every frame are not news; the smallest piece moved
    half a hex is."""
    rng = np.random.default_rng(11)
    tiles = synth.random_layout(rng)
    colours = synth.board_colours(rng)
    camera = synth.random_camera(rng, size, load_markers().extent())
    light = synth.lighting(rng, size, "normal", {})

    def frames(positions: dict[int, str], pieces: list[synth.Piece], n: int) -> list[np.ndarray]:
        view = synth.scene(rng, positions, pieces, size, "normal", None, colours, camera)
        return [synth.photo(rng, view, light, still=True).image for _ in range(n)]

    pieces = synth.random_pieces(rng, tiles)
    still = Stillness()
    assert [still.same(f) for f in frames(tiles, pieces, 6)] == [False] + [True] * 5

    person = next(i for i, p in enumerate(pieces) if p.kind == "person")
    pieces[person] = dataclasses.replace(pieces[person], x=pieces[person].x + 0.5)
    assert [still.same(f) for f in frames(tiles, pieces, 2)] == [False, True]

    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    assert [still.same(f) for f in frames(now, pieces, 2)] == [False, True]
    view = synth.scene(rng, now, pieces, size, "normal", None, colours, camera)
    assert not still.same(synth.photo(rng, view, light, arm_over=gone).image)


def test_a_slow_drift_is_read_once_it_adds_up() -> None:
    """No rule: each frame is compared with the last one read, not with the one before it, so
    light that changes a little at a time (a lamp warming up) is read once the change is real."""
    frame = photos(board()[0], 1, seed=4)[0]
    still = Stillness()
    brighter = [np.clip(frame.astype(np.int16) + 4 * k, 0, 255).astype(np.uint8) for k in range(6)]
    seen = [still.same(f) for f in brighter]
    assert 4 * 3 <= NOISE < 4 * 4  # the steps below assume it
    assert seen == [False, True, True, True, False, True]
    still.forget()
    assert not still.same(brighter[-1])


def test_the_tracker_proposes_the_sunk_tile_from_readings_that_stand_for_still_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B-21: frames at rest that are not read count as frames at rest: the tile that left is
    proposed after the same frames as when each is read, from one reading of the board."""
    tiles, _, _ = board()
    tracker = tracker_at_rest(tiles)
    reads: list[Observation] = []
    observe = recogniser().observe
    monkeypatch.setattr(recogniser(), "observe", lambda f: reads.append(observe(f)) or reads[-1])
    gone = synth.legal_sinks(tiles)[0]
    still = Stillness()
    frames = photos(after_sinking(tiles, gone), 4, seed=2, arms=2)
    seen = [tracker.observe(f, again=still.same(f)) for f in frames]
    assert seen[:4] == [None] * 4  # two frames with a hand, then two at rest
    verdict = seen[4]
    assert verdict is not None and (verdict.kind, verdict.tile) == ("sunk", gone)
    assert seen[5] is None  # said already
    assert len(reads) == 3  # the two hands and the first frame at rest


class _Camera:
    """A camera that takes every exposure it is asked for (as picamera2 and V4L2 do)."""

    def __init__(self) -> None:
        self.asked: list[float] = []

    def set_exposure_bias(self, ev: float) -> bool:
        self.asked.append(ev)
        return True


def test_after_an_exposure_change_or_new_colours_the_next_frame_is_read(tmp_path: Path) -> None:
    """No rule: a reading taken at another exposure would ask for the same change again and
    again (the bias running to its end), and one taken with the colours of the last game reads
    this game's board with the wrong ones: after either, the next frame is read."""
    tiles, _, _ = board()
    frame = photos(tiles, 1, seed=6)[0]
    watcher = Watcher(Link(multiprocessing.Pipe()[0]), "files:x", tmp_path / "c.json", 0.5)
    camera = _Camera()
    watcher._frames = camera  # type: ignore[assignment]
    still = watcher._still
    clipping = dataclasses.replace(recogniser().observe(frame), levels=(60.0, 255.0))
    assert [still.same(frame), still.same(frame)] == [False, True]
    watcher._expose(clipping)
    assert camera.asked == [-1.0]
    assert not still.same(frame)

    watcher._recogniser, watcher.status = Recogniser(), "watching (files:x)"
    assert still.same(frame)
    assert watcher._calibrated(frame, {"tiles": tiles, "game": 1})
    assert not still.same(frame)


def test_a_camera_over_a_board_at_rest_reads_it_once(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: the camera's loop with the daemon's side of its pipe, over a photo it sees again
    and again (a camera over a board at rest): the colours are learnt from the first frame,
    the board read from it, and no frame after it is read again."""
    import threading

    import cv2

    from companion.engine import board as engine_board

    new_game(table, seed=5, mode="physical")
    rng = np.random.default_rng(3)
    photo = tmp_path / "board.jpg"
    image = synth.render(rng, {h: "beach" for h in engine_board.LAND}, []).image
    assert cv2.imwrite(str(photo), image)
    reads: list[int] = []
    observe = Recogniser.observe
    monkeypatch.setattr(
        Recogniser, "observe", lambda r, f, g=None: reads.append(1) or observe(r, f, g)
    )
    camera = Camera(table, f"files:{photo}", tmp_path / "c.json", interval=0.0)
    ours, theirs = multiprocessing.Pipe()

    class Process:  # the camera's process is this test's own thread
        exitcode = None

        def is_alive(self) -> bool:
            return True

    camera._process, camera._conn = Process(), ours
    serving = threading.Thread(target=camera._serve, daemon=True)
    serving.start()
    watcher = Watcher(Link(theirs), f"files:{photo}", tmp_path / "c.json", 0.0)
    looked = 0
    look = watcher._look

    def counted(frame: np.ndarray) -> None:
        nonlocal looked
        looked += 1
        if looked == 12:
            camera._stop.set()
        look(frame)

    monkeypatch.setattr(watcher, "_look", counted)
    with pytest.raises(Stopped):
        watcher.run()
    serving.join(5)
    assert looked >= 12 and watcher._learnt is not None
    assert len(reads) == 1
