"""The camera's thread with real frames: a replayed folder of synthetic photos of the game's own
island makes the camera learn the colours, propose the tile that left, and say when the replay
is over; a source that cannot be opened is a status that says why, and the daemon starts it."""

from __future__ import annotations

import io
import multiprocessing
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion import config, daemon
from companion.camera import Camera
from companion.commands import SPECTATOR, Command
from companion.engine import board
from companion.table import CAMERA, Table
from companion.vision import synth
from companion.vision.calibrate import load as load_calibration
from companion.vision.watch import NICENESS, Link, Stopped
from tests.daemon_support import free_port
from tests.playing import new_game, play_until


def wait(condition: Callable[[], object], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.02)


@pytest.mark.rule("B-21")
def test_B_21_a_replayed_folder_is_learnt_from_the_game_and_its_sunk_tile_proposed(
    table: Table, tmp_path: Path
) -> None:
    """B-21: the camera proposes the tile that left only among those the rules let sink now,
    after it has learnt the board's colours from the game's whole island."""
    game_id = new_game(table, seed=5, mode="physical")
    game = play_until(table, game_id, "sink")
    positions = {h: game.state.terrain[h] or "sea" for h in board.LAND}
    tile = next(a[1] for a in game.legal_actions() if a[0] == "sink")
    rng = np.random.default_rng(8)
    colours = synth.board_colours(rng)
    frames = tmp_path / "frames"
    frames.mkdir()
    for n in range(8):  # the whole island, then the tile gone: each seen at rest
        if n == 3:
            positions[tile] = "sea"
        image = synth.render(rng, positions, [], colours=colours).image
        assert cv2.imwrite(str(frames / f"{n:02}.png"), image)
    calibration = tmp_path / "calibration.json"
    camera = Camera(table, f"files:{frames}", calibration, interval=0.0)
    camera.start()
    try:
        wait(lambda: camera.status.startswith("finished"), "the replay ends")
    finally:
        camera.stop()
    assert camera.status == f"finished: every frame of {frames} was seen"
    snapshot = table.snapshot(game_id, SPECTATOR)  # read in order after the camera's word
    assert snapshot["status"]["camera"] == camera.status  # every phone's bar says so
    proposal = snapshot["camera"]["proposal"]
    assert proposal["choices"][0]["hex"] == tile
    assert {c["hex"] for c in proposal["choices"]} <= {
        a[1] for a in game.legal_actions() if a[0] == "sink"
    }
    # What it learnt is kept, so that a restart mid-game still knows the colours.
    assert load_calibration(calibration).layout == {h: game.state.terrain[h] for h in board.LAND}


def test_a_source_that_cannot_be_opened_is_a_status_saying_why_and_the_daemon_starts(
    tmp_path: Path,
) -> None:
    """No rule: a camera pointed at files that are not there is reported, on the phones' bar and
    in the banner, and the companion serves all the same."""
    missing = tmp_path / "no-such-folder"
    cfg = config.parse({"web": {"port": free_port()}, "camera": {"source": f"files:{missing}"}})
    out = io.StringIO()
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, out=out, err=out)
    d.start()
    try:
        assert d.table is not None
        table = d.table
        wait(lambda: table.status["camera"].startswith("error"), "the camera's error")
        assert table.status["camera"] == (f"error: {missing} does not exist; trying again in 10 s")
    finally:
        d.stop()
    assert d.camera is None
    assert f"camera:    files:{missing}" in out.getvalue()


def test_the_camera_reaches_the_table_only_by_commands_and_snapshots() -> None:
    """No rule: the camera is an edge like the phones (issue 16): its daemon side calls no Table
    method but submitting commands and reading snapshots, and its work (OpenCV, the tracker)
    lives in a module that never touches the Table at all."""
    import ast

    import companion.camera
    import companion.vision.watch

    tree = ast.parse(Path(companion.camera.__file__).read_text(encoding="utf-8"))
    used = {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "table"
    }
    # `told`: the count of changes told, read before a snapshot so as not to read it unchanged
    assert used == {"call", "submit", "snapshot", "told"}
    watch = Path(companion.vision.watch.__file__).read_text(encoding="utf-8")
    assert "table" not in {
        n.module.split(".")[-1] for n in ast.walk(ast.parse(watch))
        if isinstance(n, ast.ImportFrom) and n.module
    }  # fmt: skip


def test_the_camera_reads_the_island_again_only_after_the_table_told_a_change(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B-21: the camera's process asks what the island should be after the Table told a change
    (`Watcher._settled`), and asking again without one costs nothing: the daemon's side answers
    from the last snapshot until the Table tells a change (a Table job per frame delayed the
    presses behind it), and the change itself is never missed."""
    game_id = new_game(table, seed=5, mode="physical")
    game = play_until(table, game_id, "sink")
    reads: list[object] = []
    snapshot = table.snapshot
    monkeypatch.setattr(table, "snapshot", lambda *a: reads.append(a) or snapshot(*a))
    camera = Camera(table, "files:none", Path("unused.json"))
    before = [camera._answer(("expected",)) for _ in range(5)]
    assert len(reads) == 1 and all(b == before[0] for b in before)
    assert camera._answer(("told",)) == table.told and len(reads) == 1  # a number, no snapshot
    tile = next(a[1] for a in game.legal_actions() if a[0] == "sink")
    assert before[0] is not None and tile in before[0]["tiles"]
    reply = table.call(Command("cli", seat=game.actor, game=game_id, action=["sink", tile]))
    assert reply.accepted, reply.message
    after = camera._answer(("expected",))
    assert len(reads) == 2 and after is not None and tile not in after["tiles"]
    assert after == table.snapshot(None, CAMERA)


def test_the_camera_works_in_a_process_of_its_own(table: Table, tmp_path: Path) -> None:
    """No rule: the frames are looked at outside the daemon's interpreter, so its lock is never
    held by the camera while a press waits, at a lower priority; stopping the camera ends that
    process."""
    import os

    new_game(table, seed=5, mode="physical")
    frames = tmp_path / "frames"
    frames.mkdir()
    rng = np.random.default_rng(3)
    image = synth.render(rng, {h: "beach" for h in board.LAND}, []).image
    assert cv2.imwrite(str(frames / "00.png"), image)
    camera = Camera(table, f"files:{frames / '00.png'}", tmp_path / "c.json", interval=0.2)
    camera.start()
    try:
        process = camera._process
        assert process is not None and process.pid != os.getpid()
        wait(lambda: camera.status.startswith("watching"), "the camera watching")
        assert process.is_alive()
        # and below the daemon's priority: a press goes first when both want the CPU
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        assert os.getpriority(os.PRIO_PROCESS, process.pid) == min(19, ours + NICENESS)
        if hasattr(os, "SCHED_IDLE"):  # Linux: only on a core nothing else wants
            assert os.sched_getscheduler(process.pid) == os.SCHED_IDLE
            # every thread of it, numpy's too: one at the daemon's priority runs beside a press
            for thread in os.listdir(f"/proc/{process.pid}/task"):
                assert os.getpriority(os.PRIO_PROCESS, int(thread)) == min(19, ours + NICENESS)
                assert os.sched_getscheduler(int(thread)) == os.SCHED_IDLE
    finally:
        camera.stop()
    assert not process.is_alive() and camera._process is None


def test_a_question_asked_as_the_daemon_closes_its_end_stops_the_camera_quietly() -> None:
    """The daemon closes its end of the pipe when the camera stops; a question the camera's
    process sends at that moment ends it (`Stopped`), not a logged error for a frame."""
    ours, theirs = multiprocessing.Pipe()
    ours.close()
    with pytest.raises(Stopped):
        Link(theirs).ask("expected")
