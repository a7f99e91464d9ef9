"""Per-position verdicts on small synthetic batches, and calibration with the layout known or not
(B-2: 16 beach, 16 forest, 8 mountain)."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("cv2")

import numpy as np

from companion.engine import board
from companion.vision import geometry
from companion.vision.calibrate import dumps, group, load, parse_layout
from companion.vision.classify import PIECE_RING, Calibration, HexVerdict, land_shift
from companion.vision.model import ColourModel
from companion.vision.recognise import Observation, Recogniser

from .vision_support import batch, observed


def _accuracy(mode: str) -> tuple[float, float, int]:
    """(land/sea per position, terrain per tile, frames refused)."""
    right = total = tiles_right = tiles = refused = 0
    for shot, observation in observed(mode):
        if not observation.ok:
            refused += 1
            continue
        for h, verdict in observation.positions.items():
            truth = shot.truth.positions[h]
            total += 1
            right += verdict.land == (truth != "sea")
            if truth != "sea":
                tiles += 1
                tiles_right += verdict.label == truth
    return right / total, tiles_right / tiles, refused


def test_normal_light_land_sea_and_terrain_are_read_right() -> None:
    land_sea, terrain, refused = _accuracy("normal")
    assert refused == 0
    assert land_sea >= 0.995  # the bench's goal is 0.999 on 200 photos
    assert terrain >= 0.99  # the bench's goal is 0.995


def test_harsh_light_land_and_sea_are_still_read_right() -> None:
    land_sea, terrain, refused = _accuracy("harsh")
    assert refused <= 2
    assert land_sea >= 0.98  # the bench's goal is 0.99 on 200 photos
    assert terrain >= 0.9


def test_every_verdict_is_a_distribution_with_a_confidence() -> None:
    for _, observation in observed("normal")[:3]:
        assert len(observation.positions) == 40 and len(observation.hexes) == 133
        for verdict in observation.hexes.values():
            assert set(verdict.probabilities) == {"sea", "beach", "forest", "mountain"}
            assert sum(verdict.probabilities.values()) == pytest.approx(1.0, abs=1e-5)
            if verdict.hidden:  # unsure is a verdict: no confidence in any label
                assert verdict.confidence == 0.0 and not verdict.land
                continue
            assert 0.0 <= verdict.confidence <= verdict.probabilities[verdict.label] + 1e-9
        data = observation.to_json()
        assert data["ok"] and len(data["positions"]) == 40
        assert {p["hex"] for p in data["positions"]} == {board.name(h) for h in geometry.LAND}


def test_pieces_on_a_tile_lower_the_confidence_not_the_verdict() -> None:
    clear: list[float] = []
    covered: list[float] = []
    for shot, observation in observed("normal"):
        occupied = {board.parse(n) for n in shot.truth.params["occupied"]}
        for h, verdict in observation.positions.items():
            if shot.truth.positions[h] == "sea":
                continue
            assert verdict.label == shot.truth.positions[h]
            (covered if h in occupied else clear).append(verdict.confidence)
    assert len(covered) > 50 and len(clear) > 50
    assert np.mean(covered) < np.mean(clear) - 0.1
    assert np.mean(clear) > 0.9


def test_an_unknown_layout_is_proposed_in_the_boxs_counts() -> None:
    """B-2: grouping the setup photo's 40 tiles under 16/16/8 finds the layout; in harsh light
    (a shadow edge across the island) a few may swap, and those are among the least clear,
    for people to check before confirming."""
    for mode, most_wrong in (("normal", 0), ("harsh", 4)):
        for island in batch(mode):
            proposal = Recogniser().calibrate(island.setup.image)
            assert not proposal.confirmed
            counts = Counter(proposal.layout.values())
            assert counts == {"beach": 16, "forest": 16, "mountain": 8}
            wrong = [h for h in geometry.LAND if proposal.layout[h] != island.layout[h]]
            assert len(wrong) <= most_wrong, [board.name(h) for h in wrong]
            assert set(proposal.margins) == set(geometry.LAND)
            clearest = sorted(geometry.LAND, key=lambda h: -proposal.margins[h])[:20]
            assert not set(wrong) & set(clearest)


def test_grouping_keeps_the_counts_whatever_the_points() -> None:
    rng = np.random.default_rng(3)
    centres = np.array([[0.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 2.0, 1.0]])
    truth = np.repeat([0, 1, 2], [16, 16, 8])
    points = centres[truth] + rng.normal(0, 0.15, (40, 3))
    labels, _ = group(points, (16, 16, 8))
    assert np.bincount(labels).tolist() == [16, 16, 8]
    assert (labels == truth).mean() == 1.0
    # points that do not fall into such groups still come out in the counts
    labels, _ = group(rng.normal(size=(40, 3)).astype(np.float32), (16, 16, 8))
    assert np.bincount(labels).tolist() == [16, 16, 8]


def test_a_calibration_round_trips_through_its_file(tmp_path: Path) -> None:
    island = batch("normal")[0]
    recogniser = Recogniser()
    calibration = recogniser.calibrate(island.setup.image, island.layout)
    assert calibration.confirmed and calibration.layout == island.layout
    path = tmp_path / "cal.json"
    path.write_text(dumps(calibration), encoding="utf-8")
    again = load(path)
    assert isinstance(again, Calibration) and again.layout == calibration.layout
    assert np.allclose(again.model.means, calibration.model.means, atol=1e-4)
    shot = island.shots[0]
    first = Recogniser(calibration=calibration).observe(shot.image)
    second = Recogniser(calibration=again).observe(shot.image)
    assert {h: v.label for h, v in first.hexes.items()} == {
        h: v.label for h, v in second.hexes.items()
    }


def test_a_layout_written_by_people_is_checked() -> None:
    layout = {board.name(h): t for h, t in batch("normal")[0].layout.items()}
    assert len(parse_layout(layout)) == 40
    with pytest.raises(ValueError, match="lacks 1 land positions"):
        parse_layout({k: v for k, v in list(layout.items())[1:]})
    with pytest.raises(ValueError, match="not a land position"):
        parse_layout({**layout, "6.5": "beach"})
    first = next(iter(layout))
    flipped = {**layout, first: "mountain" if layout[first] != "mountain" else "beach"}
    with pytest.raises(ValueError, match="the box has"):
        parse_layout(flipped)
    json.dumps(layout)  # the file's form is plain JSON


def test_without_a_calibration_land_and_sea_are_told_apart_from_the_frames_own_sea() -> None:
    right = total = 0
    for island in batch("normal"):
        recogniser = Recogniser()
        for shot in island.shots[:4]:
            observation = recogniser.observe(shot.image)
            assert not observation.calibrated
            for h, verdict in observation.positions.items():
                assert verdict.label in ("sea", "land")
                total += 1
                right += verdict.land == (shot.truth.positions[h] != "sea")
    assert right / total >= 0.97


def test_hexes_under_a_sleeve_are_hidden_not_guessed() -> None:
    """No rule: unsure is a verdict. A purple patch over a band of hexes (a sleeve, a phone's
    case) leaves them 'hidden', with no confidence, while the rest are judged as before.
    (A skin-coloured arm is caught by other means: see the tests below.)"""
    import cv2

    from companion.vision.register import project

    from .vision_support import batch

    def cover(
        image: np.ndarray, h: list[list[float]], corners: list[tuple[float, float]]
    ) -> np.ndarray:
        out = image.copy()
        quad = project(np.array(h), np.array(corners, np.float64))
        cv2.fillConvexPoly(out, np.round(quad).astype(np.int32), (130, 40, 90))
        return out

    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = island.shots[0]
    band = [(-4.0, -1.2), (4.0, -1.2), (4.0, 1.2), (-4.0, 1.2)]  # across the island's middle
    observation = recogniser.observe(cover(shot.image, shot.truth.homography or [], band))
    under = [h for h in geometry.LAND if abs(geometry.centre(h)[1]) < 0.8
             and abs(geometry.centre(h)[0]) < 3.2]  # fmt: skip
    assert under
    hidden = [h for h in under if observation.positions[h].hidden]
    assert len(hidden) >= len(under) - 1
    assert all(observation.positions[h].confidence == 0.0 for h in hidden)
    clear = recogniser.observe(shot.image)
    assert sum(v.hidden for v in clear.positions.values()) <= 1


def test_sunk_positions_become_sea_references_for_the_second_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under harsh light an inner position whose tile is gone is judged against sea seen under
    the same light: positions surely sea after a first pass join the references, and a second
    pass reads more positions right than the first alone."""
    from companion.vision import classify

    def right() -> int:
        count = 0
        for island in batch("harsh"):
            recogniser = Recogniser()
            recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
            for shot in island.shots:
                recogniser.forget()  # the island's photos are unrelated moments of a game
                seen = recogniser.observe(shot.image)
                count += sum(
                    v.land == (shot.truth.positions[h] != "sea") for h, v in seen.positions.items()
                )
        return count

    with_second = right()
    monkeypatch.setattr(classify, "SURE_SEA", 2.0)  # no probability passes it: one pass only
    assert with_second > right()


def _paint(frame: np.ndarray, observation: Observation, h: int, colour: np.ndarray) -> None:
    """Fill position `h` of `frame` (as `observation` registered it) with one BGR colour."""
    import cv2

    corners = observation.registration.to_image(geometry.outline(*geometry.centre(h), 0.95))
    cv2.fillConvexPoly(frame, np.round(corners).astype(np.int32), colour.tolist())


def _colour_at(frame: np.ndarray, observation: Observation, h: int) -> np.ndarray:
    """The median BGR of a small patch at the centre of position `h`."""
    x, y = np.round(observation.registration.to_image(np.array([geometry.centre(h)]))[0])
    patch = frame[int(y) - 3 : int(y) + 4, int(x) - 3 : int(x) + 4].reshape(-1, 3)
    return np.median(patch, axis=0).astype(int)


def test_a_position_showing_another_terrain_than_its_tile_is_hidden() -> None:
    """B-2: the island is laid once and a tile keeps its terrain. With the layout confirmed, a
    forest position showing a beach's colour holds something else there (an arm's skin passes
    for a beach), so it is hidden rather than called beach; with only a proposal of the layout
    the camera says what it sees."""
    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = next(s for s in island.shots if {"beach", "forest"} <= set(s.truth.positions.values()))
    seen = recogniser.observe(shot.image)
    truth = shot.truth.positions
    forest = next(h for h in geometry.LAND if truth[h] == "forest" == seen.positions[h].label)
    beach = next(h for h in geometry.LAND if truth[h] == "beach" == seen.positions[h].label)
    frame = shot.image.copy()
    _paint(frame, seen, forest, _colour_at(shot.image, seen, beach))
    recogniser.forget()
    assert recogniser.observe(frame).positions[forest].hidden
    assert not recogniser.observe(shot.image).positions[forest].hidden
    assert recogniser.calibration is not None
    recogniser.calibration = dataclasses.replace(recogniser.calibration, confirmed=False)
    assert recogniser.observe(frame).positions[forest].label == "beach"


def test_land_where_sea_was_seen_is_hidden_while_something_moves_over_the_board() -> None:
    """A sunk tile does not come back (B-21: sunk tiles leave the game). Where the camera saw
    sea, land read in a frame where something moves over the board is an arm's skin: hidden.
    The same reading on a board at rest is kept, for the tracker to report a tile put back."""
    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = next(
        s
        for s in island.shots
        if list(s.truth.positions.values()).count("sea") >= 3
        and "beach" in s.truth.positions.values()
    )
    seen = recogniser.observe(shot.image)
    sunk = [h for h in geometry.LAND if seen.positions[h].label == "sea"]
    beach = next(h for h in geometry.LAND if seen.positions[h].label == "beach")
    skin = _colour_at(shot.image, seen, beach)
    moving = shot.image.copy()
    _paint(moving, seen, sunk[0], skin)
    for h in (sunk[1], sunk[2]):  # a sleeve moving over two more
        _paint(moving, seen, h, np.array([130, 40, 90]))
    assert recogniser.observe(moving).positions[sunk[0]].hidden
    at_rest = recogniser.observe(moving).positions[sunk[0]]
    assert at_rest.label == "beach" and at_rest.confidence > 0.5


def _piece_on_a_sunk_beach(
    radius: float, colour: np.ndarray | None, sleeve: bool = True
) -> tuple[Recogniser, HexVerdict, HexVerdict, np.ndarray]:
    """A normal photo in which a piece of `colour` (None: the colour of sand), `radius` hex
    units wide, stands on a sunk beach position: the recogniser, having seen it at rest, and
    its verdicts for that position at rest and in the next photo, where an arm shows sand over
    the position (with `sleeve`, while a sleeve moves over two more); and that photo."""
    import cv2

    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = next(
        s
        for s in island.shots
        if sum(t == "sea" and island.layout[h] == "beach" for h, t in s.truth.positions.items())
        and list(s.truth.positions.values()).count("sea") >= 3
        and "beach" in s.truth.positions.values()
    )
    seen = recogniser.observe(shot.image)
    truth = shot.truth.positions
    sunk = next(h for h in geometry.LAND if truth[h] == "sea" and island.layout[h] == "beach")
    others = [h for h in geometry.LAND if truth[h] == "sea" and h != sunk]
    beach = next(h for h in geometry.LAND if seen.positions[h].label == "beach")
    sand = _colour_at(shot.image, seen, beach)
    at_rest = shot.image.copy()
    piece = seen.registration.to_image(geometry.outline(*geometry.centre(sunk), radius))
    paint = (sand if colour is None else colour).tolist()
    cv2.fillConvexPoly(at_rest, np.round(piece).astype(np.int32), paint)
    recogniser.forget()
    afloat = recogniser.observe(at_rest).positions[sunk]
    moving = at_rest.copy()
    _paint(moving, seen, sunk, sand)
    for h in others[:2] if sleeve else ():  # a sleeve moving over two more
        _paint(moving, seen, h, np.array([130, 40, 90]))
    return recogniser, afloat, recogniser.observe(moving).positions[sunk], moving


def test_land_where_a_piece_stood_in_the_sea_is_hidden_while_something_moves_over_it() -> None:
    """B-21: a sunk tile does not come back. A boat or swimmers on a sunk beach position hide it
    all but a rim of sea (hidden, yet sea is seen there); an arm reaching over it then shows a
    beach's colour while something moves over the board: hidden, not a beach. The same reading
    on a board at rest is kept, for the tracker to report a tile put back."""
    recogniser, covered, under_arm, moving = _piece_on_a_sunk_beach(0.56, np.array([40, 70, 110]))
    assert covered.hidden and 0.05 < covered.sea_share < 0.5
    assert under_arm.hidden
    still = recogniser.observe(moving).positions[under_arm.hex]
    assert still.label == "beach" and still.confidence > 0.5


def test_an_arm_that_changes_only_the_sunk_position_is_hidden_there_till_the_board_rests() -> None:
    """B-21: a sunk tile does not come back. An arm over a sunk beach position where sea was
    seen may change no other position by much (skin over beaches, a shadow on the sea): land
    read there in the frame it changed is hidden; read again on the board at rest, it is kept
    (a tile put back by mistake is the tracker's to report)."""
    recogniser, covered, under_arm, moving = _piece_on_a_sunk_beach(
        0.56, np.array([40, 70, 110]), sleeve=False
    )
    assert covered.hidden and covered.sea_share >= 0.05
    assert under_arm.hidden
    assert recogniser.observe(moving).positions[under_arm.hex].label == "beach"


def test_a_boat_the_colour_of_sand_in_the_sea_is_hidden_not_a_beach() -> None:
    """B-21: a sunk tile does not come back. A boat the colour of sand on a sunk beach position
    reads as beach on its disc, but the sea shows along the ring a tile would fill up to the
    hex's border: hidden at rest, not a beach (on the renderer's "all" photos of seeds 2024 and
    2025, 22 of the 31 sunk positions read as land, under swimmers, boats and creatures), and
    remembered as sea: an arm reaching over it then is hidden too."""
    _, afloat, under_arm, _ = _piece_on_a_sunk_beach(0.45, None)
    assert afloat.hidden and afloat.probabilities["beach"] > 0.5
    assert afloat.rim >= PIECE_RING and afloat.sea_share >= 0.2
    assert under_arm.hidden


def test_a_skin_coloured_arm_is_hidden_not_read_as_a_tile() -> None:
    """Unsure is a verdict: under the renderer's arm (skin, its band from the frame's edge, its
    shadow), at 640×480, no position is read wrong with confidence ≥ 0.5; many are hidden."""
    from companion.vision.bench import tally_photos

    photos = tally_photos("arm", 6, seed=3, size=(640, 480), per_island=3)
    assert photos.frames_registered == 6
    assert photos.hidden_under_arm > 10 and photos.judged_under_arm > 5
    assert photos.wrong_sure_under_arm == 0


def test_positions_clipped_white_by_glare_are_hidden() -> None:
    """Unsure is a verdict: a lamp's reflection that clips hexes to white leaves no colour of
    them (white, less the glare estimated from the sea, can pass for sea). In this rendered
    table (every impairment, 640×480) three tiles under the glare read as sea without it."""
    import itertools

    from companion.vision import synth

    frames = [shot for _, _, shot in itertools.islice(synth.game(8, "all", (640, 480), 2), 2)]
    truth = frames[0].truth.positions
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(frames[0].image, truth)
    seen = recogniser.observe(frames[1].image)
    assert frames[1].truth.params["glare"] > 100
    hidden = [h for h, v in seen.positions.items() if v.hidden]
    wrong = [h for h, v in seen.positions.items() if not v.hidden and v.land != (truth[h] != "sea")]
    assert hidden and not wrong


def test_a_hex_washed_out_whose_colour_under_the_white_says_otherwise_is_hidden() -> None:
    """Unsure is a verdict: on a photo of the renderer's "all" condition (seed 2025, 640×480,
    its eighth table) a lamp's reflection washes out position 8.6, where a beach sank (white
    0.38 of the light, measured on the hex itself: the sea around shows little of it). Its
    colour passes for a beach, but under the white the sea fits it far better than the beach
    that lay there: hidden, not land (it was the land/sea figure's one miss in a reflection)."""
    from companion.vision import synth
    from companion.vision.classify import WASH_FIT, WASHED

    island = next(synth.islands(2025, 5, "all", (640, 480), 5, first=7))
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = island.shots[2]
    # More white where the lamp's reflection lies: with the markers read better (more of them
    # at setup, a lens estimated a little differently) the photo's own white on 8.6 measures
    # 0.03, not 0.38, and the hex reads as beach. A reflection a little stronger (a spot of 70
    # grey levels) brings back the case this rule is for.
    here = board.parse("8.6")
    centre = recogniser.register(shot.image).to_image(np.array([board.plane(*board.CELLS[here])]))
    ys, xs = np.mgrid[0 : shot.image.shape[0], 0 : shot.image.shape[1]]
    spot = 70 * np.exp(-((xs - centre[0, 0]) ** 2 + (ys - centre[0, 1]) ** 2) / (2 * 12.0**2))
    image = np.clip(shot.image + spot[..., None], 0, 255).astype(np.uint8)
    recogniser.forget()
    positions = recogniser.observe(image).positions
    truth = shot.truth.positions
    washed = positions[here]
    assert truth[washed.hex] == "sea" and island.layout[washed.hex] == "beach"
    assert washed.washed >= WASHED and washed.sea_fit >= WASH_FIT
    assert washed.hidden and washed.probabilities["beach"] > 0.5
    wrong = [h for h, v in positions.items() if not v.hidden and v.land != (truth[h] != "sea")]
    assert not wrong


def test_an_over_exposed_frame_without_glare_is_still_read() -> None:
    """No rule: unsure is a verdict, but only where nothing can be told. A frame exposed
    twice as long as the setup frame clips the beaches white and the sea's blue; the sea
    around shows no glare (clipped channels are left out of its estimate), so the white is
    the tiles' own and every position is judged, right. Counting the clipped blue as glare
    hid 16 of the 40."""
    from companion.vision.classify import glare

    island = batch("normal")[0]
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    shot = island.shots[0]
    bright = np.clip(shot.image.astype(np.float32) * 2.0, 0, 255).astype(np.uint8)
    positions = recogniser.observe(bright).positions
    truth = shot.truth.positions
    assert not [h for h, v in positions.items() if v.hidden]
    assert all(v.land == (truth[h] != "sea") for h, v in positions.items())
    # the estimate itself: blue clipped alike in the sea and its reference is no glare; a
    # reference clipped in two channels where the frame's sea is not is all glare
    sea = np.array([255.0, 140.0, 60.0])
    assert glare(np.array([[255.0, 140.0, 60.0]]), sea)[0] == 0.0
    assert glare(np.array([[255.0, 252.0, 190.0]]), np.array([230.0, 137.0, 57.0]))[0] > 100


def test_B_2_the_islands_colour_shift_is_measured_on_the_tiles_the_game_holds() -> None:
    """B-2: a tile keeps its terrain, so how far a frame moved the island's colours against the
    sea is each held tile's colour less its own terrain's. Sunk positions with pieces on them
    agree among themselves on another offset; measured on every position, 18 of them outvote
    16 tiles, measured on the positions the game holds they are left out."""
    classes = ("sea", "beach", "forest", "mountain")
    means = np.array([[0.0, 0.0, 0.0], [-1.2, 0.1, 0.5], [-0.9, 0.3, -0.6], [-0.5, -0.2, -0.2]])
    model = ColourModel(classes, means, np.array([np.eye(3) * 0.01] * 4))
    rng = np.random.default_rng(3)
    own = np.array([1 + k % 3 for k in range(34)])
    true, pieces = np.array([0.3, -0.05, -0.35]), np.array([0.6, -0.4, 0.2])
    median = means[own] + rng.normal(0, 0.05, (34, 3))
    median[:16] += true  # the tiles the game holds
    median[16:] += pieces  # sunk positions under boats, creatures, swimmers
    held = np.where(np.arange(34) < 16, own, -1)
    assert np.abs(land_shift(median, held, model) - true).max() < 0.1
    assert np.abs(land_shift(median, own, model) - true).max() > 0.2
    assert not land_shift(median[:2], own[:2], model).any()  # too few tiles to say


def test_the_white_a_lamp_adds_is_taken_in_the_frames_own_white() -> None:
    """A camera that balanced the blue board and a brown table to grey shows a lamp's
    reflection bluish. Measured as grey, the white on a beach in it left a colour the sea's
    fitted better than the beach's (the renderer's 'all' game, seed 2024 at 640×480: on two
    turns a tile in the reflection passed for the sea as well as the sunk position, and the
    phone asked); in the
    frame's white (`sample.white`), the beach fits, and the sea under that white still fits
    the sea. Where the island is lit in another colour than the markers, its tiles' white
    takes that colour too (`land_shift`)."""
    from companion.vision.classify import WASH_FIT, washed

    bluish = np.array([1.0, 0.85, 0.7])
    # a beach and the sea as the light around them shows them, under white 1.6 times that
    beach, sea = np.array([[42.0, 59.0, 67.0]]), np.array([[44.0, 29.0, 11.0]])
    lit_beach, lit_sea = beach + 160 * bluish, sea + 160 * bluish
    assert washed(lit_beach, sea, beach)[1][0] >= WASH_FIT  # grey white: the sea fits better
    white, fit, _ = washed(lit_beach, sea, beach, bluish)
    assert fit[0] <= -WASH_FIT and white[0] == pytest.approx(160)
    assert washed(lit_sea, sea, beach, bluish)[1][0] >= WASH_FIT


def test_a_tile_in_a_bluish_reflection_is_not_taken_for_the_sea_under_it() -> None:
    """A camera that balances the frame to grey tints the whole photo, a lamp's reflection on
    the board with it (here bluish, as over a blue board and a brown table). Under grey white
    the beach at 4.3 in the reflection fitted the sea better than itself (`sea_fit` 4.3 with
    this tint); under the white the markers' paper shows, the beach fits clearly better
    (`WASH_FIT`). Where the beach sank, the sea under the same reflection still fits the sea."""
    from companion.vision import synth
    from companion.vision.classify import WASH_FIT

    island = next(synth.islands(11, 3, "normal", (1280, 960), 3))
    recogniser = Recogniser()
    recogniser.calibration = recogniser.calibrate(island.setup.image, island.layout)
    here = board.parse("4.3")

    def lit(image: np.ndarray) -> np.ndarray:
        """`image` with a lamp's reflection over 4.3, all tinted by the white balance."""
        centre = recogniser.register(image).to_image(np.array([board.plane(*board.CELLS[here])]))
        ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]]
        spot = 160 * np.exp(-((xs - centre[0, 0]) ** 2 + (ys - centre[0, 1]) ** 2) / 1800.0)
        tinted = (image + spot[..., None]) * np.array([1.0, 0.8, 0.65])
        return np.clip(tinted, 0, 255).astype(np.uint8)

    recogniser.land = frozenset(geometry.LAND)
    tile = recogniser.observe(lit(island.setup.image)).positions[here]
    assert island.layout[here] == "beach" and tile.washed > 1.0
    assert tile.sea_fit < WASH_FIT
    shot = island.shots[0]
    assert shot.truth.positions[here] == "sea"
    recogniser.forget()
    recogniser.land = frozenset(h for h, t in shot.truth.positions.items() if t != "sea") | {here}
    assert recogniser.observe(lit(shot.image)).positions[here].sea_fit >= WASH_FIT


def test_land_that_the_sea_under_a_lamps_white_explains_is_judged_by_the_white_the_sea_needs() -> (
    None
):
    """Unsure is a verdict. A position the game still holds is judged with the island's shift
    (`land_shift`), which brightens its tile's colour: where the tile left and a lamp's halo
    lies on the sea, that brightened tile needs little white to come near the hex, though the
    sea under half the light in white explains it a hundred times better (the renderer's dev
    game 3106 at 640×480, turn 20: a sunk forest position read as forest, 0.06 of white on
    the tile, the sea fitting to 2 grey levels). The white that tells a lamp's reflection is
    the sea's there: the hex is hidden, not land, when the sea fits sixteen times better
    (`WASH_FIT_CLEARLY`). Where the sea needs as little white as the tile, or fits only five
    times better, the forest read stands."""
    from companion.vision.classify import WASHED, _verdicts
    from companion.vision.sample import HexSamples

    hexes = geometry.HEXES
    n, here = len(hexes), board.parse("3.7")
    k = hexes.index(here)
    values = np.full((n, 8, 3), 100.0, np.float32)
    logs = np.log(values)
    samples = HexSamples(hexes, values, logs, logs[:, 0], np.zeros((n, 3)), np.ones(n), np.ones(n))
    classes = ("sea", "beach", "forest", "mountain")
    probs = np.zeros((n, 4))
    probs[:, 0] = 1.0
    probs[k] = (0.0, 0.0, 0.9, 0.1)
    own = np.full(n, -1)
    own[k] = classes.index("forest")

    def read(sea_white: float, fit: float = 4.6) -> HexVerdict:
        # least white (the tile's), the sea's fit (log of the misfits' ratio), its misfit,
        # and the white the sea needs
        lamp = tuple(np.zeros(n) for _ in range(4))
        for column, value in zip(lamp, (0.06, fit, 1.7, sea_white), strict=True):
            column[k] = value
        return _verdicts(samples, probs, probs * 0.9, classes, own=own, glare=np.zeros(n),
                         lamp=lamp)[here]  # fmt: skip

    assert read(0.5).hidden and read(0.5).washed < WASHED
    assert read(0.2).label == "forest"
    # and by far: four times better is what people the sea's blue on a tile reach
    assert read(0.5, fit=2.0).label == "forest"
