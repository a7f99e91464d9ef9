"""The renderer's printed art and other printings (`synth.Conditions.art`, `.palette`), and the
camera reading them: real tiles are drawn (trees with dark outlines, rock with white
highlights, sand grains and surf, a dark outline and a light bevel round each tile; waves and
serpents on the sea), and an older printing uses other inks. The classes are learnt from the
setup photo, so either must be read as well as the plain colours are (B-2: 16 beach, 16
forest, 8 mountain, whatever they look like)."""

from __future__ import annotations

from functools import cache

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion.vision import geometry, synth
from companion.vision.recognise import Recogniser

SIZE = (640, 480)


@cache
def _island(condition: str, frames: int = 1) -> synth.Island:
    return next(synth.islands(7, frames, condition, SIZE, per_island=frames))


def _spread(condition: str) -> dict[str, float]:
    """Per terrain, the median over its tiles of the sampled disc's spread (log units, the
    widest channel) on the setup photo."""
    island = _island(condition)
    recogniser = Recogniser()
    registration = recogniser.register(island.setup.image)
    assert registration.ok and registration.homography is not None
    samples = recogniser.sampler.sample(
        island.setup.image, registration.homography, registration.lens
    )
    rows = {h: k for k, h in enumerate(samples.hexes)}
    out = {}
    for terrain in ("beach", "forest", "mountain"):
        tiles = [rows[h] for h in geometry.LAND if island.layout[h] == terrain]
        out[terrain] = float(np.median(np.sqrt(samples.spread[tiles].max(axis=1))))
    return out


def test_the_printed_art_is_opt_in_and_draws_the_same_scene() -> None:
    """Off unless a condition asks; with it the same island, pose and light are drawn (the art
    has random numbers of its own), so a comparison with the plain render is paired."""
    assert not synth.Conditions().art and synth.Conditions().palette == "anniversary"
    plain, art = _island("nominal"), _island("art")
    assert plain.layout == art.layout
    assert plain.setup.truth.homography == art.setup.truth.homography
    assert not np.array_equal(plain.setup.image, art.setup.image)


def test_printed_tiles_are_far_less_even_than_the_plain_colours() -> None:
    plain, art = _spread("nominal"), _spread("art")
    for terrain in plain:
        assert art[terrain] > 2.5 * plain[terrain], (terrain, plain, art)


def test_the_1986_printing_lies_further_off_than_one_print_runs_drift() -> None:
    """`board_colours` moves each channel by up to 6 %; another printing's inks lie further off
    in some channel of every surface (log units)."""
    for surface, ink in synth.PALETTES["1986"].items():
        off = np.abs(np.log(np.array(ink) / np.array(synth.COLOURS[surface])))
        assert off.max() > 2 * np.log(1.06), surface


@pytest.mark.parametrize("condition", ["art", "art1986"])
def test_the_camera_reads_printed_tiles_of_either_printing(condition: str) -> None:
    """Calibrated on the setup photo with its layout known, every later photo registers and
    every position judged is read right; few are left unread."""
    island = _island(condition, 4)
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    judged = right = tiles = tiles_right = hidden = 0
    for shot in island.shots:
        recogniser.forget()
        observation = recogniser.observe(shot.image)
        assert observation.ok
        for h, verdict in observation.positions.items():
            truth = shot.truth.positions[h]
            if verdict.hidden:
                hidden += 1
                continue
            judged += 1
            right += verdict.land == (truth != "sea")
            if truth != "sea":
                tiles += 1
                tiles_right += verdict.label == truth
    assert right == judged and tiles_right == tiles
    assert hidden <= 0.03 * (judged + hidden)


@pytest.mark.parametrize("island", [6, 7])
def test_B_2_a_layout_is_proposed_right_from_printed_tiles(island: int) -> None:
    """B-2: with no layout given, the camera groups the 40 tiles 16/16/8 itself. The median
    of a printed tile's disc jumps between its inks (a forest's dark outlines and light
    crowns, a mountain's shadows and white tops) with the share each covers there, so
    grouped by medians alone these two setup photos mixed 16 and 19 forests and mountains
    up; grouped on all the samples, none."""
    shot = next(synth.islands(2024, 1, "art", SIZE, per_island=1, first=island))
    proposal = Recogniser().calibrate(shot.setup.image)
    wrong = [h for h in geometry.LAND if proposal.layout[h] != shot.layout[h]]
    assert not wrong, f"{len(wrong)} positions proposed wrong"


def test_the_bench_counts_the_proposals_right_on_printed_tiles() -> None:
    """The bench's ``vision.proposed_C_W``: every land position of each island's setup photo,
    as the camera proposes it with no layout given (B-2), against the truth. Grouped by
    medians alone these two islands had 6 of 80 wrong."""
    from companion.vision.bench import tally_photos

    photos = tally_photos("art", 2, seed=2024, size=SIZE, per_island=1)
    assert photos.proposed == 2 * len(geometry.LAND)
    assert photos.proposal == 1.0
