"""The camera reads a frame only when it shows something new at rest (`companion.vision.still`):
on real OpenCV over synthetic photos, a board at rest is read once however noisy its frames, a
person moved or a tile lifted is read once the board rests again, a hand moving over it is not
read at all, and a camera whose frames never match is read every frame; the turn tracker reaches
the same verdict from the readings that stand as from frames read anew."""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion.camera import Camera
from companion.commands import Command
from companion.table import Table
from companion.vision import synth
from companion.vision.markers import load as load_markers
from companion.vision.recognise import Observation, Recogniser
from companion.vision.sources import Frame
from companion.vision.still import (
    NOISE,
    REST_WAIT,
    RESTING,
    SETTLED,
    Look,
    Stillness,
    patience,
    thumbnail,
)
from companion.vision.watch import Link, Stopped, Watcher
from tests.playing import mirror, new_game, play_until
from tests.test_vision_tracker import after_sinking, photos, recogniser, tracker_at_rest
from tests.test_vision_tracker import table as board


def _jpeg(image: np.ndarray) -> Frame:
    """`image` as a webcam's MJPEG or a JPEG file hands it to the camera: not yet decoded."""
    import cv2

    return Frame(jpeg=cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())


@pytest.mark.parametrize("jpeg", [False, True], ids=["pixels", "jpeg"])
@pytest.mark.parametrize("size", [(1280, 960), (640, 480)])
def test_a_board_at_rest_is_read_once_and_a_moved_person_a_lifted_tile_or_a_hand_at_once(
    size: tuple[int, int], jpeg: bool
) -> None:
    """No rule: new noise, focus and JPEG in every frame are not news; the smallest piece moved
    half a hex is, read from the second frame that shows it (the first is unlike the frame
    before it: something may still be moving). The same from JPEGs judged by their blocks'
    means as decoded at an eighth of the size (`Frame`) as from their pixels."""
    rng = np.random.default_rng(11)
    tiles = synth.random_layout(rng)
    colours = synth.board_colours(rng)
    camera = synth.random_camera(rng, size, load_markers().extent())
    light = synth.lighting(rng, size, "normal", {})

    def frames(
        positions: dict[int, str], pieces: list[synth.Piece], n: int
    ) -> list[np.ndarray | Frame]:
        view = synth.scene(rng, positions, pieces, size, "normal", None, colours, camera)
        images = [synth.photo(rng, view, light, still=True).image for _ in range(n)]
        return [_jpeg(i) if jpeg else i for i in images]

    pieces = synth.random_pieces(rng, tiles)
    still = Stillness(patience=8)
    same, read, moving = Look.SAME, Look.READ, Look.MOVING
    assert [still.look(f) for f in frames(tiles, pieces, 6)] == [read] + [same] * 5

    person = next(i for i, p in enumerate(pieces) if p.kind == "person")
    pieces[person] = dataclasses.replace(pieces[person], x=pieces[person].x + 0.5)
    assert [still.look(f) for f in frames(tiles, pieces, 2)] == [moving, read]

    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    assert [still.look(f) for f in frames(now, pieces, 2)] == [moving, read]
    view = synth.scene(rng, now, pieces, size, "normal", None, colours, camera)
    hand = synth.photo(rng, view, light, arm_over=gone).image
    assert still.look(_jpeg(hand) if jpeg else hand) is moving


def test_a_jpeg_frames_thumbnail_from_its_eighth_is_that_of_its_pixels() -> None:
    """No rule: the blocks' means libjpeg decodes at an eighth of the size, averaged 2 × 2,
    are the thumbnail of the decoded frame within 2 levels of 255 (`NOISE` is 12), and no
    pixel is decoded for it."""
    image = photos(board()[0], 1, seed=4)[0]
    frame = _jpeg(image)
    small = thumbnail(frame)
    assert frame._image is None
    whole = thumbnail(frame.pixels())
    assert small.shape == whole.shape == (image.shape[0] // 16, image.shape[1] // 16, 3)
    assert int(np.abs(small - whole).max()) <= 2


def test_a_board_at_rest_is_looked_at_less_often_and_at_once_again_after_a_change() -> None:
    """No rule: once the tracker has had its frames at rest (`RESTING` looks like the last
    read), each further look at the same board waits twice as long, up to `REST_WAIT`; a look
    unlike the last read, or a change of the game (`wake`), brings back the camera's interval."""
    frame = photos(board()[0], 1, seed=4)[0]
    still = Stillness(patience=8)
    pauses = []
    for _ in range(RESTING + 6):
        still.look(frame)
        pauses.append(still.pause(0.1))
    assert pauses == [0.1] * (RESTING + 1) + [0.2, 0.4, 0.8, REST_WAIT, REST_WAIT]
    assert still.pause(0.5) == REST_WAIT and still.pause(2.0) == 2.0  # never below the interval
    assert still.look(_jumpy(frame, 2)[1]) is Look.MOVING
    assert still.pause(0.1) == 0.1
    for _ in range(RESTING + 3):
        still.look(frame)
    assert still.pause(0.1) > 0.1
    still.wake()
    assert still.pause(0.1) == 0.1


def test_after_a_hand_over_a_board_as_it_was_read_the_camera_pauses_as_before_the_hand() -> None:
    """No rule: a hand passing over a board at rest (frames moving, not read) leaves it as it
    was: the tracker has had its frames of it, and the camera's first look that finds it as
    read pauses as long as before the hand. A hand that comes before the tracker has had them
    leaves their count where it was, at the interval; a board changed under the hand is read,
    and looked at at the interval again."""
    frame = photos(board()[0], 1, seed=4)[0]
    changed = frame.copy()
    changed[400:480, 600:680] //= 2  # a tile gone: the sea below it, darker
    hand = _jumpy(frame, 4)[1:]  # each unlike the one before, and unlike the board
    still = Stillness(patience=8)
    for _ in range(RESTING + 5):
        still.look(frame)
        still.pause(0.1)
    assert still.pause(0.1) == REST_WAIT
    for moving in hand:
        assert still.look(moving) is Look.MOVING
        assert still.pause(0.1) == 0.1
    assert still.look(frame) is Look.SAME
    assert still.pause(0.1) == REST_WAIT

    still = Stillness(patience=8)
    for _ in range(SETTLED + 1):  # a read, then the camera's frames at rest begin
        still.look(frame)
    for moving in hand:
        still.look(moving)
    pauses = []
    for _ in range(RESTING - SETTLED + 2):
        assert still.look(frame) is Look.SAME
        pauses.append(still.pause(0.1))
    assert pauses == [0.1] * (RESTING - SETTLED) + [0.2, 0.4]

    for moving in hand:
        still.look(moving)
    assert [still.look(changed), still.look(changed)] == [Look.MOVING, Look.READ]
    assert still.pause(0.1) == 0.1


def test_a_steady_camera_looking_less_often_at_rest_does_not_read_a_passing_hands_frames() -> None:
    """No rule: at rest the camera looks ever less often (`pause`); each look that finds the
    board as before counts for the frames it passed over, so hands over the board half the
    time (1.5 s of every 3) do not make a steady camera look like a restless one whose every
    frame is read: after the first pass (the camera just started, nothing known of it) no
    frame of a hand is read. The board is read once after each change only: a tile lifted
    under the last hand is read as the board rests again, an unchanged board never."""
    rng = np.random.default_rng(1)
    board = rng.integers(60, 200, (240, 320, 3)).astype(np.int16)
    lifted = board.copy()
    lifted[100:140, 150:190] -= 50  # a tile gone: the sea below it, darker
    still = Stillness(patience(0.1))
    t, seen = 0.0, []
    while t < 30.0:
        cycle, phase = divmod(t, 3.0)
        frame = (lifted if cycle >= 9 else board) + rng.integers(-3, 4, board.shape)
        if phase < 1.5:  # a hand, somewhere else each frame
            y, x = rng.integers(0, 190), rng.integers(0, 270)
            frame[y : y + 50, x : x + 50] = 20
        look = still.look(np.clip(frame, 0, 255).astype(np.uint8))
        seen.append((int(cycle), phase < 1.5, look))
        t += 0.1 if look is Look.MOVING else still.pause(0.1)
    assert [c for c, hand, look in seen if hand and look is Look.READ and c > 0] == []
    assert [c for c, hand, look in seen if not hand and look is Look.READ] == [0, 9]
    assert len(seen) < 30.0 / 0.1  # and it paused at rest


def test_a_slow_drift_is_read_once_it_adds_up() -> None:
    """No rule: each frame is compared with the last one read, not with the one before it, so
    light that changes a little at a time (a lamp warming up) is read once the change is real."""
    frame = photos(board()[0], 1, seed=4)[0]
    still = Stillness(patience=8)
    brighter = [np.clip(frame.astype(np.int16) + 4 * k, 0, 255).astype(np.uint8) for k in range(6)]
    seen = [still.look(f) for f in brighter]
    assert 4 * 3 <= NOISE < 4 * 4  # the steps below assume it
    same, read = Look.SAME, Look.READ
    assert seen == [read, same, same, same, read, same]
    still.forget()
    assert still.look(brighter[-1]) is read


def _jumpy(frame: np.ndarray, n: int) -> list[np.ndarray]:
    """`frame` as a camera whose exposure creeps by more than its noise each frame shows it:
    never two alike."""
    steps = [(NOISE + 1) * k for k in range(n)]
    return [np.clip(frame.astype(np.int16) + s, 0, 255).astype(np.uint8) for s in steps]


def test_a_camera_whose_frames_never_match_is_read_every_frame() -> None:
    """No rule: a camera with a flickering exposure never shows two frames alike: waiting for
    the board to rest would starve the tracker, so each of its frames is read, from the first;
    and a camera that was at rest but then shows nothing alike for `patience` frames in a row is
    read every frame again (a flicker that began, or a hand that never rests)."""
    frame = photos(board()[0], 1, seed=4)[0]
    still = Stillness(patience=3)
    assert [still.look(f) for f in _jumpy(frame, 6)] == [Look.READ] * 6

    still = Stillness(patience=3)
    at_rest = [frame] * (SETTLED + 1)
    assert [still.look(f) for f in at_rest] == [Look.READ] + [Look.SAME] * SETTLED
    looks = [still.look(f) for f in _jumpy(frame, 7)[1:]]
    assert looks == [Look.MOVING] * 3 + [Look.READ] * 3
    assert [still.look(f) for f in at_rest] == [Look.READ] + [Look.SAME] * SETTLED  # at rest
    assert still.look(_jumpy(frame, 2)[1]) is Look.MOVING


def test_a_camera_whose_frames_match_now_and_then_is_read_every_frame() -> None:
    """No rule: a flickering camera whose frames happen to match now and then, even `SETTLED`
    times in a row, is not taken for one at rest while most of its frames differ: none waits."""
    frame = photos(board()[0], 1, seed=4)[0]
    jumpy = _jumpy(frame, 16)
    frames = jumpy[:8] + [jumpy[8]] * SETTLED + jumpy[8:]
    still = Stillness(patience=30)
    assert Look.MOVING not in [still.look(f) for f in frames]


def test_the_patience_is_a_few_seconds_of_frames() -> None:
    """No rule: a camera looking twice a second waits 8 frames, one looking ten times, 40."""
    assert (patience(0.5), patience(0.1), patience(0.0)) == (8, 40, 4000)


def test_the_tracker_proposes_the_sunk_tile_from_readings_that_stand_for_still_frames(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """B-21: frames at rest that are not read count as frames at rest, and frames with a hand
    moving are not read at all: the tile that left is proposed after three frames at rest, from
    one reading of the board."""
    tiles, _, _ = board()
    tracker = tracker_at_rest(tiles)
    reads: list[Observation] = []
    observe = recogniser().observe
    monkeypatch.setattr(recogniser(), "observe", lambda f: reads.append(observe(f)) or reads[-1])
    gone = synth.legal_sinks(tiles)[0]
    still = Stillness(patience=8)
    at_rest = photos(tiles, SETTLED + 1, seed=1)
    assert [still.look(f) for f in at_rest] == [Look.READ] + [Look.SAME] * SETTLED
    frames = photos(after_sinking(tiles, gone), 5, seed=2, arms=2)
    looks = [still.look(f) for f in frames]
    assert looks == [Look.MOVING] * 3 + [Look.READ] + [Look.SAME] * 3  # 2 hands, the tile put down
    pairs = zip(frames, looks, strict=True)
    seen = [tracker.observe(f, again=k is Look.SAME) for f, k in pairs if k is not Look.MOVING]
    assert seen[:2] == [None] * 2
    verdict = seen[2]
    assert verdict is not None and (verdict.kind, verdict.tile) == ("sunk", gone)
    assert seen[3] is None  # said already
    assert len(reads) == 1  # the board at rest, once


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
    assert [still.look(frame), still.look(frame)] == [Look.READ, Look.SAME]
    watcher._expose(clipping)
    assert camera.asked == [-1.0]
    assert still.look(frame) is Look.READ

    watcher._recogniser, watcher.status = Recogniser(), "watching (files:x)"
    assert still.look(frame) is Look.SAME
    assert watcher._calibrated(frame, {"tiles": tiles, "game": 1})
    assert still.look(frame) is Look.READ


def _watched(
    table: Table,
    source: Path,
    monkeypatch: pytest.MonkeyPatch,
    frames: int | None = None,
    interval: float = 0.0,
    pausing: Callable[[], None] = lambda: None,
) -> list[int]:
    """The camera's loop with the daemon's side of its pipe over `source` (its process is this
    test's own thread), for `frames` frames or until the source ends: the readings it took.
    `interval`: the camera's, its pauses kept in `paused` rather than slept (and in `taken`
    whether a frame came before each); `pausing`: called in each pause, before the next look."""
    import threading

    reads: list[int] = []
    observe = Recogniser.observe
    monkeypatch.setattr(
        Recogniser, "observe", lambda r, f, g=None: reads.append(1) or observe(r, f, g)
    )
    calibration = source.parent / "c.json"
    camera = Camera(table, f"files:{source}", calibration, interval=0.0)
    ours, theirs = multiprocessing.Pipe()

    class Process:
        exitcode = None

        def is_alive(self) -> bool:
            return True

    camera._process, camera._conn = Process(), ours
    serving = threading.Thread(target=camera._serve, daemon=True)
    serving.start()
    watcher = Watcher(Link(theirs), f"files:{source}", calibration, interval)
    looked = 0
    look, wait = watcher._look, watcher.link.wait
    paused.clear()
    taken.clear()

    def counted(frame: Frame) -> None:
        nonlocal looked
        looked += 1
        taken.append(True)
        if looked == frames:
            camera._stop.set()
        look(frame)

    def waited(seconds: float) -> None:
        paused.append(watcher._pause)
        taken.extend([] if len(taken) == len(paused) else [False])
        pausing()
        wait(0.0)

    monkeypatch.setattr(watcher, "_look", counted)
    monkeypatch.setattr(watcher.link, "wait", waited)
    with contextlib.suppress(Stopped):
        watcher.run()
    camera._stop.set()
    serving.join(5)
    assert looked >= (frames or 1) and watcher._learnt is not None
    return reads


paused: list[float] = []
"""The pauses `_watched`'s camera took after each look, in seconds."""
taken: list[bool] = []
"""Whether `_watched`'s camera took a frame before each pause (not when the game had just
changed: `Watcher._settled`)."""


def test_a_camera_over_a_board_at_rest_reads_it_once(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: over a photo it sees again and again (a camera over a board at rest), the
    colours are learnt from the first frame, the board read from it, and no frame after it is
    read again."""
    import cv2

    from companion.engine import board as engine_board

    new_game(table, seed=5, mode="physical")
    rng = np.random.default_rng(3)
    photo = tmp_path / "board.jpg"
    image = synth.render(rng, {h: "beach" for h in engine_board.LAND}, []).image
    assert cv2.imwrite(str(photo), image)
    assert len(_watched(table, photo, monkeypatch, frames=12)) == 1


def _board_photo(tmp_path: Path) -> Path:
    import cv2

    from companion.engine import board as engine_board

    rng = np.random.default_rng(3)
    photo = tmp_path / "board.jpg"
    image = synth.render(rng, {h: "beach" for h in engine_board.LAND}, []).image
    assert cv2.imwrite(str(photo), image)
    return photo


def test_a_camera_over_a_board_at_rest_decodes_one_whole_frame(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: a JPEG frame is judged from its blocks' means decoded at an eighth of its size;
    its every pixel is decoded only when it is read (here the first frame, once for both the
    colours and the reading): at a table at rest that halves the camera's CPU, shared with the
    presses."""
    import cv2

    new_game(table, seed=5, mode="physical")
    photo = _board_photo(tmp_path)
    whole: list[int] = []
    imread, imdecode = cv2.imread, cv2.imdecode

    def counted(image: np.ndarray | None) -> np.ndarray | None:
        whole.extend([1] if image is not None and image.shape[:2] == (960, 1280) else [])
        return image

    monkeypatch.setattr(cv2, "imread", lambda *a: counted(imread(*a)))
    monkeypatch.setattr(cv2, "imdecode", lambda *a: counted(imdecode(*a)))
    assert len(_watched(table, photo, monkeypatch, frames=12)) == 1
    assert len(whole) == 1


def test_a_camera_over_a_board_at_rest_looks_less_often_until_the_game_changes(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: over a board at rest, once the tracker has had its frames at rest, the camera
    pauses longer after each look, up to `REST_WAIT`. An action that leaves the land and the
    tiles that may sink as they were (a piece placed) leaves it so; one that changes them (a
    sinking now due) brings back its interval, for the tracker's frames at rest."""
    game_id = new_game(table, seed=5, mode="physical")
    photo = _board_photo(tmp_path)

    def act() -> None:  # in the pauses before the 14th and the 16th looks
        if len(paused) == 13:
            game = mirror(table, game_id)
            action = list(game.legal_actions()[0])
            reply = table.call(Command("cli", seat=game.actor, game=game_id, action=action))
            assert reply.accepted, reply.message
        if len(paused) == 15:
            play_until(table, game_id, "sink")

    _watched(table, photo, monkeypatch, frames=20, interval=0.1, pausing=act)
    assert paused[: RESTING + 1] == [0.1] * (RESTING + 1)
    assert paused[RESTING + 1 : 15] == [0.2, 0.4, 0.8] + [REST_WAIT] * 5
    assert paused[15:19] == [0.1] * 4
    assert all(taken)  # each change taken at the first look after it


def test_a_game_changing_between_every_two_looks_is_taken_once_it_stays_put(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: a change of the game is taken at the first look after it; while the game then
    changes again between every two looks (at the web bench, a button's done and undo by turns,
    20 a second), the camera takes no frame and asks no snapshot (a job on the Table's thread,
    in line with the presses): the tracker's run would restart at every look, so those frames
    would tell it nothing. Once the game has stayed put for a look, what it expects is asked
    once, and the camera looks at its interval for the tracker's frames at rest."""
    game_id = new_game(table, seed=5, mode="physical")
    game = mirror(table, game_id)
    while game.phase != "sink":
        actor, action = game.actor, list(game.legal_actions()[0])
        reply = table.call(Command("cli", seat=actor, game=game_id, action=action))
        assert reply.accepted, reply.message
        game = mirror(table, game_id)
    photo = _board_photo(tmp_path)
    film = tmp_path / "film"  # a camera's frames, not a photo taken again (each a look of its own)
    film.mkdir()
    for n in range(40):
        (film / f"{n:02}.jpg").write_bytes(photo.read_bytes())
    snapshots: list[object] = []
    snapshot = table.snapshot
    monkeypatch.setattr(table, "snapshot", lambda *a: snapshots.append(a) or snapshot(*a))
    flips = 0

    def flip() -> None:  # from the 11th pause, 22 times: the game ends at its sinking again
        nonlocal flips
        if len(paused) > 10 and flips < 22:
            if flips % 2 == 0:
                command = Command("cli", game=game_id, intent="undo")
            else:
                command = Command("cli", seat=actor, game=game_id, action=action)
            reply = table.call(command)
            assert reply.accepted, reply.message
            flips += 1

    _watched(table, film, monkeypatch, frames=16, interval=0.1, pausing=flip)
    assert taken[11] and taken[12:33] == [False] * 21 and all(taken[33:])
    assert len(snapshots) == 3  # at the first look, the first change, once the game stayed put
    assert paused[10:] == [REST_WAIT] + [0.1] * (len(paused) - 11)


def test_a_hand_passing_over_a_board_at_rest_is_not_read(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: frames of a hand moving over the board (each unlike the one before) are not
    read, and the board at rest after it, as it was, stands as read: one reading in all."""
    import cv2

    from companion.engine import board as engine_board

    new_game(table, seed=5, mode="physical")
    rng = np.random.default_rng(3)
    positions = {h: "beach" for h in engine_board.LAND}
    view = synth.scene(rng, positions, [])
    light = synth.lighting(rng, (1280, 960), "normal", {})
    over = [None] * 5 + list(engine_board.LAND[:4]) + [None] * 3
    folder = tmp_path / "frames"
    folder.mkdir()
    for n, hand in enumerate(over):
        shot = synth.photo(rng, view, light, arm_over=hand, still=hand is None)
        assert cv2.imwrite(str(folder / f"{n:02}.jpg"), shot.image)
    asked = []
    expected_now = Camera._expected_now

    def counted(camera: Camera) -> dict[str, Any] | None:
        asked.append(1)
        return expected_now(camera)

    monkeypatch.setattr(Camera, "_expected_now", counted)
    assert len(_watched(table, folder, monkeypatch)) == 1
    # and the daemon is asked what the game expects once: the game did not change after, and
    # the count of its changes (a number, no job on the Table's thread) says so at each frame
    assert len(asked) == 1


def test_a_frame_that_did_not_register_is_no_reading_for_the_frames_after_it(
    table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No rule: a board at rest whose frame did not register (markers hidden, glare) is read
    again on the next frame at rest: the failed reading stands for nothing, where it would
    otherwise stand until the board changed, and the tracker would wait for the whole turn."""
    import cv2

    from companion.engine import board as engine_board

    new_game(table, seed=5, mode="physical")
    rng = np.random.default_rng(3)
    positions = {h: "beach" for h in engine_board.LAND}
    view = synth.scene(rng, positions, [])
    light = synth.lighting(rng, (1280, 960), "normal", {})
    folder = tmp_path / "frames"
    folder.mkdir()
    for n in range(5):
        shot = synth.photo(rng, view, light, still=True)
        assert cv2.imwrite(str(folder / f"{n:02}.jpg"), shot.image)
    dark = np.zeros_like(shot.image)  # the lights went out: no marker to be found
    for n in range(5, 9):
        assert cv2.imwrite(str(folder / f"{n:02}.jpg"), dark)
    # the board once, then the dark frames: the first unlike the board (waits), then each read
    assert len(_watched(table, folder, monkeypatch)) == 1 + 3
