"""The camera on the phones: a camera fed photos from a file (synthetic renders of the game's
own island) sees the removed tile, every phone shows the proposal, the remover's tap makes it
the game's sink, and a board that no longer matches the game puts a banner on every phone."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest
from playwright.sync_api import Browser

from companion.camera import Camera
from companion.engine import board
from companion.vision import synth
from tests.page_support import (
    Live,
    lay_out,
    no_page_errors,
    no_small_targets,
    same_seq,
    seated,
)

pytest_plugins = ["tests.page_fixtures"]
pytestmark = pytest.mark.page


def photograph(path: Path, rng: np.random.Generator, colours: dict[str, np.ndarray],
               positions: dict[int, str]) -> None:  # fmt: skip
    """A photo of the board as `positions` lay, put in place at once (the camera may be
    reading the old one)."""
    shot = synth.render(rng, positions, [], colours=colours)
    fresh = path.with_name("fresh.png")
    assert cv2.imwrite(str(fresh), shot.image)
    os.replace(fresh, path)


def wait(condition: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {timeout} s: {what}")
        time.sleep(0.05)


@pytest.mark.rule("B-9")
def test_B_9_the_camera_proposes_the_removed_tile_a_tap_confirms_it_and_out_of_sync_shows(
    browser: Browser, live: Live, tmp_path: Path
) -> None:
    """B-9: the tile removed in step 3 reaches the game through one tap on the remover's phone;
    when the board differs from the game every phone says where."""
    game_id = live.new_game(mode="physical", seed=11)
    game = lay_out(live, game_id)
    while game.phase != "sink":  # the first movement ends at once
        game = live.play(game_id, ["done"])
    positions = {h: game.state.terrain[h] or "sea" for h in board.LAND}
    tile = next(a[1] for a in game.legal_actions() if a[0] == "sink")
    elsewhere = next(h for h in board.LAND if positions[h] == "mountain")
    rng = np.random.default_rng(4)
    colours = synth.board_colours(rng)
    photo = tmp_path / "board.png"
    photograph(photo, rng, colours, positions)
    calibration = tmp_path / "camera-calibration.json"
    camera = Camera(live.table, f"files:{photo}", calibration, interval=0.1)
    camera.start()
    try:
        wait(calibration.exists, "the camera learns the colours of the whole island")
        ana, ben = seated(browser, live.url, "Ana", "Ben")
        same_seq([ana, ben])
        assert ana.page.locator("[data-camera]").count() == 0

        # Ana lifts the tile off the island: the camera proposes it on every phone.
        positions[tile] = "sea"
        photograph(photo, rng, colours, positions)
        for phone in (ana, ben):
            phone.page.wait_for_selector("[data-camera=proposal]", timeout=20_000)
        name = board.name(tile)
        assert ana.page.locator(f"[data-confirm='{name}']").count() == 1
        assert ben.page.locator("[data-confirm]").count() == 0  # not his tile to remove
        assert ben.page.locator(f".hex.proposed[data-name='{name}']").count() == 1
        ana.shot("camera-proposal")
        ben.shot("camera-proposal-waiting")

        ana.tap(f"[data-confirm='{name}']")
        same_seq([ana, ben])
        for phone in (ana, ben):
            assert phone.page.locator(f".hex.sunk[data-name='{name}']").count() == 1
            assert phone.page.locator("[data-camera=proposal]").count() == 0
        assert ana.phase == "back"  # the game went on from the confirmed sink

        # A mountain disappears as well, which the game cannot allow: every phone says where.
        positions[elsewhere] = "sea"
        photograph(photo, rng, colours, positions)
        for phone in (ana, ben):
            phone.page.wait_for_selector("[data-camera=out-of-sync]", timeout=20_000)
            banner = phone.page.locator("[data-camera=out-of-sync]")
            assert banner.get_attribute("data-hexes") == board.name(elsewhere)
            assert (
                phone.page.locator(f".hex.disagree[data-name='{board.name(elsewhere)}']").count()
                == 1
            )
        ben.shot("camera-out-of-sync")
        ben.tap("[data-camera=ignore]")
        same_seq([ana, ben])
        assert ana.page.locator("[data-camera=out-of-sync]").count() == 0
        no_small_targets(ana, ben)
        no_page_errors(ana, ben)
    finally:
        camera.stop()


@pytest.mark.rule("B-2")
def test_B_2_the_camera_reads_the_island_a_player_corrects_two_positions_and_confirms(
    browser: Browser, live: Live, tmp_path: Path
) -> None:
    """B-2: an island laid by hand is read by the camera; every phone sees the reading, a
    player turns two positions to other terrains (keeping the box's counts) and one tap lays
    the whole island."""
    game_id = live.new_game(mode="physical", layout="table", seed=3)
    rng = np.random.default_rng(6)
    truth = synth.random_layout(rng)
    photo = tmp_path / "board.png"
    photograph(photo, rng, synth.board_colours(rng), truth)
    camera = Camera(live.table, f"files:{photo}", tmp_path / "calibration.json", interval=0.1)
    camera.start()
    try:
        (ana,) = seated(browser, live.url, "Ana")
        ana.page.wait_for_selector("[data-camera=proposal][data-kind=layout]", timeout=20_000)
        proposal = live.table.snapshot(game_id, "spectator")["camera"]["proposal"]
        read = proposal["layout"]
        assert len(read) == 40
        assert ana.page.locator("[data-position]").count() == 40
        assert ana.page.locator(".hex.proposed").count() == 40  # drawn on the board too
        beach = next(name for name, t in read.items() if t == "beach")
        forest = next(name for name, t in read.items() if t == "forest")
        page = ana.page
        page.click(f"[data-position='{beach}']")  # beach → forest: one forest too many
        assert page.get_attribute("[data-right]", "data-right") == "no"
        page.click(f"[data-position='{forest}']")  # forest → mountain
        page.click(f"[data-position='{forest}']")  # mountain → beach: the counts hold again
        assert page.get_attribute("[data-right]", "data-right") == "yes"
        ana.shot("camera-island")
        ana.tap("[data-confirm=layout]")
        page.wait_for_selector("body[data-phase=place]")
        game = live.mirror(game_id)
        laid = {board.name(h): game.state.terrain[h] for h in board.LAND}
        assert laid == {**read, beach: "forest", forest: "beach"}
        assert page.locator("[data-camera]").count() == 0
        no_small_targets(ana)
        no_page_errors(ana)
    finally:
        camera.stop()
