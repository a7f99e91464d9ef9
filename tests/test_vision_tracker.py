"""The turn tracker on real OpenCV over synthetic photos: stable frames before a verdict, a moving
hand holding it back, out of sync and back, questions; and the doctor's calibration check."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion import config, doctor
from companion.engine import board
from companion.vision import geometry, synth
from companion.vision.calibrate import dumps
from companion.vision.classify import HexVerdict
from companion.vision.markers import load as load_markers
from companion.vision.recognise import Observation, Recogniser
from companion.vision.tracker import (
    FIT_SEA,
    FIT_SEA_CLEARLY,
    GLARE,
    PIECE_SEA,
    RING_PLAIN,
    RING_SEA,
    SEA_MISFIT,
    WASHED,
    Tracker,
    Verdict,
    _Reading,
)

SIZE = (640, 480)
SEED = 5


@cache
def table() -> tuple[dict[int, str], dict[str, np.ndarray], synth.Camera]:
    """One board printing, layout and camera mount for the whole module."""
    rng = np.random.default_rng(SEED)
    tiles = synth.random_layout(rng)
    colours = synth.board_colours(rng)
    return tiles, colours, synth.random_camera(rng, SIZE, load_markers().extent())


def photos(positions: dict[int, str], n: int, seed: int = 0, arms: int = 0) -> list[np.ndarray]:
    """`n` photos of the board in `positions` at rest, after `arms` photos of a hand moving over
    it (each over another land position); pieces, light and noise fixed by `seed`."""
    _, colours, camera = table()
    rng = np.random.default_rng([SEED, seed])
    view = synth.scene(
        rng, positions, synth.random_pieces(rng, positions), SIZE, "normal", None, colours, camera
    )
    light = synth.lighting(rng, SIZE, "normal", {})
    over = [board.LAND[(7 * k + seed) % 40] for k in range(arms)]
    return [synth.photo(rng, view, light, h).image for h in over] + [
        synth.photo(rng, view, light).image for _ in range(n)
    ]


def land(positions: dict[int, str]) -> list[int]:
    return [h for h, t in positions.items() if t != "sea"]


@cache
def recogniser() -> Recogniser:
    tiles, _, _ = table()
    r = Recogniser()
    r.calibration = r.calibrate(photos(tiles, 1, seed=99)[0], tiles)
    return r


def tracker_at_rest(positions: dict[int, str]) -> Tracker:
    """A tracker that has seen the board in `positions` settle, the game believing it."""
    tracker = Tracker(recogniser(), stable_frames=3)
    # another moment of the game: what the shared recogniser saw of other tests' boards
    # (where it saw sea, say) is not this board's
    tracker.recogniser.forget()
    tracker.expect(land(positions), synth.legal_sinks(positions))
    assert [tracker.observe(f) for f in photos(positions, 4, seed=1)] == [None] * 4
    return tracker


def after_sinking(positions: dict[int, str], *hexes: int) -> dict[int, str]:
    return {h: ("sea" if h in hexes else t) for h, t in positions.items()}


def test_a_sunk_candidate_is_proposed_after_the_stable_frames_and_not_before() -> None:
    """The tile that left is named once three frames at rest agree, and only once."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = synth.legal_sinks(tiles)[0]
    seen = [tracker.observe(f) for f in photos(after_sinking(tiles, gone), 4, seed=2, arms=2)]
    assert seen[:4] == [None] * 4  # two frames with a hand, then two at rest
    verdict = seen[4]
    assert verdict is not None and verdict.kind == "sunk" and verdict.tile == gone
    assert verdict.confidence > 0.9
    assert seen[5] is None  # said already
    assert verdict.to_json()["tile"] == board.name(gone)


def test_a_moving_hand_holds_the_verdict_back() -> None:
    """Frames with a hand over the board break the run of frames at rest."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    hand = photos(now, 0, seed=3, arms=3)
    rest = photos(now, 5, seed=3)
    frames = [rest[0], rest[1], hand[0], rest[2], rest[3], hand[1], hand[2], rest[4]]
    assert [tracker.observe(f) for f in frames] == [None] * len(frames)
    verdicts = [tracker.observe(f) for f in rest[:2]]
    assert verdicts[0] is None
    assert verdicts[1] is not None and (verdicts[1].kind, verdicts[1].tile) == ("sunk", gone)


def test_B_20_a_tile_gone_that_may_not_sink_is_out_of_sync_until_the_game_catches_up() -> None:
    """B-20: a forest tile gone while beaches remain is never proposed; the board is out of
    sync, and in sync again once the game has that tile gone too."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    forest = next(h for h in board.LAND if tiles[h] == "forest")
    now = after_sinking(tiles, forest)
    frames = photos(now, 4, seed=4)
    seen = [tracker.observe(f) for f in frames]
    assert seen[:2] == [None, None] and seen[3] is None
    verdict = seen[2]
    assert verdict is not None and verdict.kind == "out_of_sync"
    assert verdict.disagree == (forest,) and verdict.tile is None
    assert tracker.out_of_sync
    tracker.expect(land(now), synth.legal_sinks(now))  # people told the game
    seen = [tracker.observe(f) for f in frames]
    assert seen[2] == Verdict("in_sync", confidence=1.0, detail=seen[2].detail if seen[2] else "")
    assert seen[3] is None and not tracker.out_of_sync


def test_two_candidates_gone_at_once_are_out_of_sync_not_a_guess() -> None:
    """One tile sinks a turn; two beaches gone is not something to propose."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    a, b = synth.legal_sinks(tiles)[:2]
    seen = [tracker.observe(f) for f in photos(after_sinking(tiles, a, b), 3, seed=6)]
    assert seen[2] is not None and seen[2].kind == "out_of_sync"
    assert seen[2].disagree == tuple(sorted((a, b)))


def test_two_candidates_that_cannot_be_read_after_a_hand_make_a_question() -> None:
    """When the evidence cannot tell two candidates apart (both were plainly there, a hand
    went over the board, and now something lies over both), the phone is asked, the best
    candidate first and the other as the alternative; a confident verdict would be a guess."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    a, b = sorted(tracker._land_seen & set(synth.legal_sinks(tiles)))[:2]  # seen plainly
    hand = photos(tiles, 0, seed=7, arms=2)
    rest = photos(tiles, 3, seed=1)
    registration = recogniser().register(rest[0])
    for f in rest:  # a purple sleeve over both: neither tile nor sea can be seen there
        for h in (a, b):
            corners = registration.to_image(geometry.outline(*geometry.centre(h), 1.1))
            cv2.fillConvexPoly(f, np.round(corners).astype(np.int32), (130, 40, 90))
    seen = [tracker.observe(f) for f in hand + rest]
    assert seen[:4] == [None] * 4
    verdict = seen[4]
    assert verdict is not None and verdict.kind == "question"
    assert (verdict.tile, verdict.alternatives) == (a, (b,))


def scene_frames(
    positions: dict[int, str], seed: int, over: int, arms: int = 2, rest: int = 4
) -> list[np.ndarray]:
    """`arms` photos with a hand over `over`, then `rest` photos without it, all of one scene
    (pieces and light fixed): only the hand changes between them."""
    _, colours, camera = table()
    rng = np.random.default_rng([SEED, seed])
    view = synth.scene(
        rng, positions, synth.random_pieces(rng, positions), SIZE, "normal", None, colours, camera
    )
    light = synth.lighting(rng, SIZE, "normal", {})
    return [synth.photo(rng, view, light, over).image for _ in range(arms)] + [
        synth.photo(rng, view, light).image for _ in range(rest)
    ]


def apart(a: int, b: int) -> float:
    """How far apart the centres of hexes `a` and `b` lie (hex units)."""
    return float(np.hypot(*np.subtract(geometry.centre(a), geometry.centre(b))))


def far_apart(hexes: list[int]) -> tuple[int, int]:
    """The two of `hexes` farthest apart: an arm reaching for one does not cross the other."""
    return max(((a, b) for a in hexes for b in hexes if a < b), key=lambda p: apart(*p))


def paint(frames: list[np.ndarray], h: int, colour: tuple[int, int, int]) -> None:
    """Fill hex `h` of each frame with one BGR colour: how the camera misreads it there."""
    registration = recogniser().register(frames[-1])
    corners = registration.to_image(geometry.outline(*geometry.centre(h), 1.1))
    for f in frames:
        cv2.fillConvexPoly(f, np.round(corners).astype(np.int32), colour)


GREY = (95, 100, 108)
"""A dark grey tile's colour: what sea in a hard shadow with a person on it can look like."""


def test_a_tile_taken_where_the_hand_was_that_still_reads_as_land_is_asked_about() -> None:
    """The hand withdrew from a candidate and nothing reads as gone (its sea passes for a
    dark tile): the phone is asked, not left silent. Once people say it sank, the same land
    reading there is no disagreement; after its sea has shown, land read there is a piece
    covering that sea (B-22: a removed tile never comes back), no disagreement either."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    a = sorted(tracker._land_seen & set(synth.legal_sinks(tiles)))[0]
    now = after_sinking(tiles, a)
    frames = scene_frames(now, seed=8, over=a)
    paint(frames[2:], a, GREY)
    seen = [tracker.observe(f) for f in frames]
    assert seen[:4] == [None] * 4 and seen[5] is None
    verdict = seen[4]
    assert verdict is not None and (verdict.kind, verdict.tile) == ("question", a)
    tracker.expect(land(now), [])  # the players answer: it sank
    assert [tracker.observe(f) for f in frames[2:]] == [None] * 4
    assert [tracker.observe(f) for f in photos(now, 3, seed=9)] == [None] * 3  # its sea shows
    assert [tracker.observe(f) for f in photos(tiles, 3, seed=10)] == [None] * 3


def test_a_tile_gone_where_the_hand_was_not_is_asked_about_with_the_one_it_was_over() -> None:
    """One candidate reads as gone (glare on it), but the hand withdrew from another
    candidate that cannot be read now; that one may be the tile that left, so the phone asks,
    naming both, rather than proposing the first."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    misread, taken = far_apart(sorted(tracker._land_seen & set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, taken), 11, over=taken)
    paint(frames[2:], taken, (130, 40, 90))  # a purple sleeve: unreadable
    paint(frames, misread, tuple(int(c) for c in synth.COLOURS["sea"]))  # type: ignore[arg-type]
    seen = [tracker.observe(f) for f in frames]
    assert seen[:4] == [None] * 4
    verdict = seen[4]
    assert verdict is not None and verdict.kind == "question"
    assert (verdict.tile, verdict.alternatives) == (misread, (taken,))


def test_a_tile_plainly_gone_is_sunk_though_the_hand_withdrew_from_a_tile_plainly_there() -> None:
    """B-21: one candidate's sea shows plainly; the hand last withdrew from another candidate,
    which plainly shows its tile (an arm leaving crosses other hexes, and on a noisy camera a
    frame at rest reads as motion somewhere). A tile in view has not left: the one gone is
    said without asking; the hand's path alone made it a question."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone, over = far_apart(sorted(tracker._land_seen & set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), 11, over=over, arms=0, rest=5)
    paint(frames[:1], over, (130, 40, 90))  # a purple sleeve, last right over it
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert over in tracker._touched and gone not in tracker._touched
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def cover(frames: list[np.ndarray], h: int, radius: float = 0.66) -> None:
    """Paint a piece over hex `h` of each frame: a disc covering all the sampled disc, not the
    hex's border."""
    registration = recogniser().register(frames[-1])
    angles = np.linspace(0, 2 * np.pi, 24, endpoint=False)
    disc = np.array(geometry.centre(h)) + radius * np.stack([np.cos(angles), np.sin(angles)], 1)
    for f in frames:
        cv2.fillConvexPoly(f, np.round(registration.to_image(disc)).astype(np.int32), (40, 70, 110))


def test_of_two_covered_candidates_the_one_whose_ring_shows_sea_is_sunk() -> None:
    """B-21: pieces cover the sampled disc of two candidates, no sea showing in either. A tile
    fills its hex, so the ring between the disc and the hex's border shows the tile where it
    stands and the sea where it sank: the one with sea along its ring left, said without
    asking. The colour inside the discs alone made it a question."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone, other = far_apart(sorted(set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    for h in (gone, other):
        cover(frames, h)
    reading = recogniser().observe(frames[-1]).positions
    assert reading[gone].hidden and reading[gone].sea_share < 0.05 < 0.5 < reading[gone].rim
    assert reading[other].hidden and reading[other].rim < RING_SEA
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def reading(frames: list[np.ndarray], verdict: HexVerdict) -> list[Observation]:
    """The frames' observations with `verdict` in place of what each read at its hex: what
    a photo of such a piece would give."""
    observed = [recogniser().observe(f) for f in frames]
    return [dataclasses.replace(o, hexes={**o.hexes, verdict.hex: verdict}) for o in observed]


def test_a_candidate_read_as_land_whose_ring_shows_sea_is_sunk() -> None:
    """B-21: a whale stands where the tile left, the grey of a mountain: its disc reads as
    land over most of its samples, not plainly, and sea shows along the ring around it on
    every frame at rest (the verdicts of such photos put in the frames' observations). A tile
    fills its hex and never shows sea there: the tile left, said without asking; the disc
    alone made it a question."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = synth.legal_sinks(tiles)[0]
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    whale = {"sea": 0.05, "beach": 0.05, "forest": 0.1, "mountain": 0.8}
    read = HexVerdict(gone, "mountain", whale, 0.5, 0.6, sea_share=0.3, rim=0.8)
    tracker.recogniser = Replayed(reading(frames, read))
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_B_22_a_piece_read_as_land_where_the_ring_showed_sea_is_no_tile_back() -> None:
    """B-22: a whale stands where the tile left, the grey of a mountain; its ring showed sea,
    and the game took the tile as sunk. On the next frames at rest its disc reads plainly as
    land with next to no sea beside it, but the sea along its ring still shows: a tile fills
    its hex, so that is a piece on the sea, not the tile back; the board was said to differ."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    frames = scene_frames(now, seed=11, over=gone, arms=0, rest=3)
    tracker.expect(land(now), [])  # the game took it as sunk; no other sinks yet
    whale = {"sea": 1e-4, "beach": 1e-4, "forest": 1e-4, "mountain": 1 - 3e-4}
    read = HexVerdict(gone, "mountain", whale, 0.9, 0.9, sea_share=0.05, rim=0.8)
    tracker.recogniser = Replayed(reading(frames, read))
    assert [tracker.observe(f) for f in frames] == [None] * 3


def test_expect_refuses_candidates_that_are_not_land_and_says_which() -> None:
    """B-21: a candidate is a land tile still there; anything else is a caller's mistake."""
    tracker = Tracker(recogniser())
    with pytest.raises(ValueError, match="candidate"):
        tracker.expect([board.LAND[0]], [board.LAND[1]])
    with pytest.raises(ValueError, match=board.name(board.LAGOON)):
        tracker.expect([board.LAGOON], [])


# -- the doctor's calibration check --------------------------------------------------------


def _config(path: Path) -> config.Config:
    return config.parse({"camera": {"source": "usb:0", "calibration": str(path)}})


def test_doctor_passes_a_calibration_made_with_these_markers(tmp_path: Path) -> None:
    """No rule: a calibration from `Recogniser.calibrate` with today's markers is fine."""
    path = tmp_path / "calibration.json"
    path.write_text(dumps(recogniser().calibration), encoding="utf-8")  # type: ignore[arg-type]
    check = doctor.calibration(_config(path))
    assert (check.status, check.name) == ("ok", "calib")
    assert str(path) in check.text


def test_doctor_fails_a_missing_corrupt_or_foreign_calibration_and_says_what_to_do(
    tmp_path: Path,
) -> None:
    """No rule: each broken case names the file and says how to make a good one."""
    path = tmp_path / "calibration.json"
    missing = doctor.calibration(_config(path))
    assert missing.status == "fail" and "companion vision calibrate" in missing.advice
    path.write_text('{"version": 1, "model"', encoding="utf-8")
    corrupt = doctor.calibration(_config(path))
    assert corrupt.status == "fail" and "not a calibration file" in corrupt.text
    assert "companion vision calibrate" in corrupt.advice
    calibration = recogniser().calibration
    assert calibration is not None
    data = dumps(calibration).replace(calibration.markers, "0123456789ab")
    path.write_text(data, encoding="utf-8")
    foreign = doctor.calibration(_config(path))
    assert foreign.status == "fail" and "markers" in foreign.text
    assert path.read_text(encoding="utf-8") == data  # the doctor only looks


def boat_over(gone: int) -> list[np.ndarray]:
    """Photos of a hand over `gone`, its tile gone, then of the board at rest: a boat covers
    most of the position's sampled disc, the sea showing around it (a quarter of the samples)."""
    tiles, _, _ = table()
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    boat = registration.to_image(geometry.outline(*geometry.centre(gone), 0.5))
    for f in frames:
        cv2.fillConvexPoly(f, np.round(boat).astype(np.int32), (40, 70, 110))
    seen = recogniser().observe(frames[-1]).positions[gone]
    assert seen.hidden and 0.2 < seen.sea_share < 0.5
    return frames


def test_a_piece_on_the_sunk_position_with_sea_around_it_is_sunk_not_a_question() -> None:
    """B-21: a creature or a boat stands where the tile left. It covers most of the sampled
    disc, so the hex cannot be read (hidden), but sea shows around it on every frame at rest
    (a quarter of the samples) and a tile never shows sea: the tile has left, said without
    asking. Taking no evidence from the hidden hex made this a question."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = synth.legal_sinks(tiles)[0]
    frames = boat_over(gone)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_swimmers_covering_the_sunk_position_but_a_rim_of_sea_are_sunk_when_the_rest_show() -> None:
    """B-21: swimmers or a creature cover the position a tile left all but a thin rim of sea
    (under a fifth of the samples, too little for `BACK_SEA`), and every other candidate
    plainly shows its tile: the covered one left, said without asking. The same cover over a
    tile that stays (no sea around it) is still asked about."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    outline = geometry.outline(*geometry.centre(gone), 0.56)
    tracker = tracker_at_rest(tiles)
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    swimmers = np.round(registration.to_image(outline)).astype(np.int32)
    for f in frames:
        cv2.fillConvexPoly(f, swimmers, (40, 70, 110))
    seen = recogniser().observe(frames[-1]).positions[gone]
    assert seen.hidden and 0.05 < seen.sea_share < 0.2
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]

    tracker = tracker_at_rest(tiles)
    frames = scene_frames(tiles, seed=11, over=gone)
    for f in frames:
        cv2.fillConvexPoly(f, swimmers, (40, 70, 110))
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("question", gone)]


def test_a_tile_plainly_gone_is_sunk_though_a_tile_in_a_lamps_reflection_reads_as_sea() -> None:
    """B-21: one candidate's sea shows plainly, out of any glare; another, in a lamp's
    reflection, reads as sea (a washed-out tile, painted here as the sea beside it), which the
    tracker only ever believes as "clear" there. The plain one left, said without asking; a
    washed-out tile made this a question."""
    rng, tiles, colours, view, light, glared = under_a_lamp()
    dim = synth.Controls(-1.0)  # the exposure lowered for the reflection, as the watcher sets it
    at_rest = [synth.photo(rng, view, light, still=True, controls=dim).image for _ in range(4)]
    candidates = synth.legal_sinks(tiles)
    glare = {h: glared.observe(at_rest[0]).positions[h].glare for h in candidates}
    washed, gone = max(candidates, key=glare.get), min(candidates, key=glare.get)
    assert glare[washed] >= GLARE > glare[gone]
    now = after_sinking(tiles, gone)
    view = synth.scene(rng, now, [], SIZE, "glare", None, colours, view.camera)
    frames = [synth.photo(rng, view, light, still=True, controls=dim).image for _ in range(4)]
    registration = glared.register(frames[-1])
    beside = min(
        geometry.PERMANENT_SEA,
        key=lambda s: apart(s, washed),
    )
    x, y = registration.to_image(np.array([geometry.centre(beside)]))[0]
    tile = np.round(registration.to_image(geometry.outline(*geometry.centre(washed), 1.1)))
    for f in frames:
        cv2.fillConvexPoly(f, tile.astype(np.int32), f[int(y), int(x)].astype(int).tolist())
    assert glared.observe(frames[0]).positions[washed].probabilities["sea"] > 0.9
    tracker = Tracker(glared, stable_frames=3)
    tracker.expect(land(tiles), candidates)
    assert [tracker.observe(f) for f in at_rest] == [None] * 4
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_a_tile_plainly_gone_is_sunk_though_people_on_another_stand_in_a_rim_of_sea() -> None:
    """B-21: one candidate's sea shows plainly; another is hidden under people with sea
    showing around them (painted here), which only suggests its tile left, never shows it. The
    plain one left, said without asking; the guess made this a question."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone, covered = far_apart(sorted(tracker._land_seen & set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    people_in_sea(frames, covered)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def people_in_sea(frames: list[np.ndarray], h: int) -> None:
    """Paint people standing on hex `h` with the sea beside them showing around: hidden, but
    with a third of its samples looking like sea (what the piece rule reads as sunk)."""
    registration = recogniser().register(frames[-1])
    beside = min(geometry.PERMANENT_SEA, key=lambda s: apart(s, h))
    x, y = registration.to_image(np.array([geometry.centre(beside)]))[0]
    for radius, colour in ((0.75, None), (0.53, (40, 70, 110))):
        outline = registration.to_image(geometry.outline(*geometry.centre(h), radius))
        for f in frames:
            sea = f[int(y), int(x)].astype(int).tolist()
            cv2.fillConvexPoly(f, np.round(outline).astype(np.int32), colour or sea)
    seen = [recogniser().observe(f).positions[h] for f in frames]
    assert sum(v.hidden for v in seen) > len(seen) / 2
    assert all(0.2 < v.sea_share < 0.5 for v in seen)


def test_sea_read_clearly_where_the_hand_was_is_sunk_though_people_elsewhere_stand_in_sea() -> None:
    """B-21: the hand withdrew from one candidate, whose sea reads clearly but not plainly (a
    lamp's reflection over it on two frames at rest: its glare set on those frames' verdicts);
    another, where the hand was not, is hidden under people with sea showing around them. Sea
    seen where the hand took a tile is no less than a guess from sea beside people: the one
    seen left, said without asking; it was asked about."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone, covered = far_apart(sorted(tracker._land_seen & set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    people_in_sea(frames, covered)
    observations = [recogniser().observe(f) for f in frames]
    for k in (2, 3):
        lit = dataclasses.replace(observations[k].hexes[gone], glare=2 * GLARE)
        observations[k] = dataclasses.replace(
            observations[k], hexes={**observations[k].hexes, gone: lit}
        )
    tracker.recogniser = Replayed(observations)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert gone in tracker._touched and covered not in tracker._touched
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_swimmers_on_the_sunk_position_where_the_hand_was_are_sunk_though_another_is_covered() -> (
    None
):
    """B-21: swimmers cover the position a tile left all but a rim of sea, and a sleeve lies
    over another candidate, so two candidates cannot be read. The hand withdrew from the one
    with the rim and from no other candidate: that one left, said without asking. With the
    hand over the sleeve instead, it is still a question, never that guess."""
    tiles, _, _ = table()
    gone, other = far_apart(sorted(set(synth.legal_sinks(tiles))))
    now = after_sinking(tiles, gone)
    frames = scene_frames(now, seed=12, over=gone)
    registration = recogniser().register(frames[-1])
    swimmers = registration.to_image(geometry.outline(*geometry.centre(gone), 0.56))
    for f in frames[2:]:  # under the hand while it lifted the tile
        cv2.fillConvexPoly(f, np.round(swimmers).astype(np.int32), (40, 70, 110))
    paint(frames, other, (130, 40, 90))
    reading = recogniser().observe(frames[-1]).positions
    assert reading[gone].hidden and 0.05 < reading[gone].sea_share < 0.2
    assert reading[other].hidden and reading[other].sea_share == 0.0
    tracker = tracker_at_rest(tiles)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]

    frames = scene_frames(now, seed=12, over=other)
    for f in frames:
        cv2.fillConvexPoly(f, np.round(swimmers).astype(np.int32), (40, 70, 110))
    paint(frames[2:], other, (130, 40, 90))  # where the hand withdrew from
    tracker = tracker_at_rest(tiles)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert other in tracker._touched and gone not in tracker._touched
    assert [v.kind for v in verdicts] == ["question"]


class Replayed(Recogniser):
    """Gives back observations made beforehand, one a frame, whatever the frame."""

    def __init__(self, observations: list[Observation]) -> None:
        super().__init__(calibration=recogniser().calibration)
        self._observations = iter(observations)

    def observe(self, frame: np.ndarray, *args: object, **kwargs: object) -> Observation:
        return next(self._observations)


def test_a_piece_on_the_sunk_position_whose_sea_one_frame_reads_plainly_is_sunk() -> None:
    """B-21: a creature stands where the tile left. On two frames at rest it hides the hex but
    for sea around it; on one the camera reads the hex as sea by itself (a smaller part of the
    piece in view: its verdict from such a photo is put in that frame's observation). Every
    frame shows the sea, so the tile left, said without asking; counting only the frames with
    a rim made the plain sea a reason to doubt."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    frames = scene_frames(now, seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    observations = []
    for radius in (0.5, 0.3):  # the creature's part in view: most of the hex, or a quarter
        outline = np.round(registration.to_image(geometry.outline(*geometry.centre(gone), radius)))
        painted = [f.copy() for f in frames]
        for f in painted:
            cv2.fillConvexPoly(f, outline.astype(np.int32), (40, 70, 110))
        observations.append([recogniser().observe(f) for f in painted])
    covered, small = observations
    plain = small[2].hexes[gone]
    assert not plain.hidden and plain.label == "sea" and 0.5 < plain.sea_share < 0.9
    assert all(o.hexes[gone].hidden and 0.2 < o.hexes[gone].sea_share <= 0.5 for o in covered[3:])
    covered[2] = dataclasses.replace(covered[2], hexes={**covered[2].hexes, gone: plain})
    tracker = tracker_at_rest(tiles)
    tracker.recogniser = Replayed(covered)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_a_tile_read_as_another_terrain_with_some_sea_is_not_taken_for_a_piece_on_the_sea() -> None:
    """B-21: a beach in a hard shadow reads as forest over most of its samples and as sea
    over a third (painted here); the tile that left lies under a sleeve and cannot be read.
    One terrain explaining most of a hex leaves no room for a piece standing in the sea, so
    its sea is no sign that its tile left: the phone is asked, where the sea around a
    supposed piece named the beach sunk."""
    tiles, _, _ = table()
    gone, shaded = far_apart(sorted(set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), seed=13, over=gone)
    paint(frames, gone, (130, 40, 90))
    registration = recogniser().register(frames[-1])

    x, y = registration.to_image(np.array([geometry.centre(shaded)]))[0]
    beside = min(geometry.PERMANENT_SEA, key=lambda s: apart(s, shaded))
    sea = registration.to_image(np.array([geometry.centre(beside)]))[0]
    plain = recogniser().observe(frames[-1]).positions
    other = next(  # a tile of another terrain that shows plainly: its texture, moved over
        h for h in board.LAND if tiles[h] not in ("sea", tiles[shaded]) and plain[h].agreement > 0.9
    )
    ox, oy = registration.to_image(np.array([geometry.centre(other)]))[0]
    shift = np.float32([[1, 0, ox - x], [0, 1, oy - y]])
    # the sea painted over the whole sampled disc but within the ring: a tile fills its hex
    for radius in (0.68, 0.48):
        outline = registration.to_image(geometry.outline(*geometry.centre(shaded), radius))
        for f in frames:
            if radius > 0.5:
                colour = [int(c) for c in f[int(sea[1]), int(sea[0])]]
                cv2.fillConvexPoly(f, np.round(outline).astype(np.int32), colour)
                continue
            mask = np.zeros(f.shape[:2], np.uint8)
            cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
            moved = cv2.warpAffine(f, shift, f.shape[1::-1], flags=cv2.WARP_INVERSE_MAP)
            f[mask > 0] = moved[mask > 0]
    reading = recogniser().observe(frames[-1]).positions[shaded]
    assert reading.hidden and reading.probabilities[tiles[other]] > 0.5 and reading.agreement > 0.5
    assert 0.2 < reading.sea_share <= 0.5 and reading.glare < GLARE
    tracker = tracker_at_rest(tiles)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [v.kind for v in verdicts] == ["question"]


def test_the_only_tile_that_may_sink_unread_after_a_hand_is_asked_about_not_passed_over() -> None:
    """B-20: one beach is left, so it is the only tile that may sink. A hand went over the
    board and a sleeve now lies over that beach: nothing can be read there and there is no
    other candidate to rule out, yet it is the tile in question, so the phone is asked. The
    tracker stayed silent, and people had to notice."""
    tiles, _, _ = table()
    beaches = [h for h in board.LAND if tiles[h] == "beach"]
    positions = after_sinking(tiles, *beaches[1:])
    assert synth.legal_sinks(positions) == [beaches[0]]
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.expect(land(positions), [beaches[0]])
    before = photos(positions, 4, seed=1)
    frames = scene_frames(after_sinking(positions, beaches[0]), seed=14, over=beaches[0])
    for f in (before, frames):  # the sleeve lay there already: the beach was not seen
        paint(f, beaches[0], (130, 40, 90))
    for f in before:  # (at the start a tile may have left before the camera looked)
        tracker.observe(f)
    tracker.expect(land(positions), [beaches[0]])
    assert beaches[0] not in tracker._land_seen and not tracker._moved
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("question", beaches[0])]


def test_frames_that_differ_before_the_board_was_first_at_rest_are_no_hand_to_ask_about() -> None:
    """B-21: the camera has just started; two candidates lie under sleeves and the second
    frame differs from the first over one of them (the camera settling: exposure, blur).
    Nothing reads as gone, and no hand was seen to withdraw, so nothing is asked: the island
    is as laid. That change was taken for a hand and the phone asked at setup."""
    tiles, _, _ = table()
    a, b = far_apart(sorted(synth.legal_sinks(tiles)))
    frames = photos(tiles, 4, seed=16)
    paint(frames, a, (130, 40, 90))
    paint(frames[:1], b, (130, 40, 90))
    paint(frames[1:], b, (40, 90, 40))
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in frames] == [None] * 4
    assert tracker._run == 3  # the change was seen: it broke the first run


def test_a_tile_sunk_as_the_board_comes_back_in_sync_is_proposed_at_once() -> None:
    """B-20, B-21: a forest tile lifted that may not sink puts the board out of sync; it is laid
    back and, in the same reach, a beach that may sink is taken. The proposal itself says the
    board matches again (a proposal clears the table's banner), so it comes first: "in sync"
    came first and the sunk beach only after it, a turn late to the bench."""
    tiles, _, _ = table()
    tracker = Tracker(recogniser(), stable_frames=3)
    for f in photos(tiles, 4, seed=1):  # the board at rest (whatever a first look proposes)
        tracker.observe(f)
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    forest = next(h for h in board.LAND if tiles[h] == "forest")
    seen = [tracker.observe(f) for f in photos(after_sinking(tiles, forest), 4, seed=4)]
    assert [v.kind for v in seen if v is not None] == ["out_of_sync"] and tracker.out_of_sync
    gone = synth.legal_sinks(tiles)[0]
    frames = scene_frames(after_sinking(tiles, gone), seed=17, over=gone)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]
    assert not tracker.out_of_sync


WARM_ISLAND = (1.5, 1.0, 0.65)
"""A BGR tint of the island against the sea: light of another colour over the tiles (a lamp
over the table, daylight on the sea around it)."""


def tint_island(frames: list[np.ndarray], positions: dict[int, str]) -> list[np.ndarray]:
    """The frames with every tile of `positions` lit by `WARM_ISLAND` and the sea as it was."""
    registration = recogniser().register(frames[-1])
    mask = np.zeros(frames[-1].shape[:2], np.uint8)
    for h in land(positions):
        corners = registration.to_image(geometry.outline(*geometry.centre(h), 1.0))
        cv2.fillConvexPoly(mask, np.round(corners).astype(np.int32), 1)
    out = []
    for f in frames:
        lit = f.astype(np.float32)
        lit[mask > 0] *= np.array(WARM_ISLAND, np.float32)
        out.append(np.clip(lit, 0, 255).astype(np.uint8))
    return out


def sunk_under_a_warm_island(positions: dict[int, str]) -> dict[int, HexVerdict]:
    """A tracker at rest over `positions` sees a candidate go in frames of the island lit by
    `WARM_ISLAND`: it names that one alone; what the last frame read is returned."""
    tracker = tracker_at_rest(positions)
    gone = synth.legal_sinks(positions)[0]
    now = after_sinking(positions, gone)
    seen = [v for v in map(tracker.observe, tint_island(photos(now, 4, seed=2, arms=2), now)) if v]
    assert [(v.kind, v.tile) for v in seen] == [("sunk", gone)]
    assert tracker.observation is not None
    read = tracker.observation.positions
    return {h: read[h] for h in land(now)}


def test_a_tile_gone_under_light_of_another_colour_over_the_island_is_sunk() -> None:
    """B-20: the tile that left is one of the candidates. Light of another colour over the
    island than over the sea moves every tile's colour against the sea alike; measured on the
    tiles the game says are there, the shift is taken off and the tiles read as themselves,
    so the one gone is named rather than every tile being unreadable."""
    tiles, _, _ = table()
    read = sunk_under_a_warm_island(tiles)
    assert all(v.label == tiles[h] for h, v in read.items())


def test_B_2_a_candidate_unread_as_the_camera_first_looks_is_no_question() -> None:
    """B-2: the game starts with the island laid. As the camera first sees the board at rest,
    one candidate lies under a sleeve and every other shows its tile: no hand was seen to take
    it, so nothing is asked (the phone was asked at setup). After a hand, the same board asks."""
    tiles, _, _ = table()
    under = sorted(synth.legal_sinks(tiles))[0]
    frames = photos(tiles, 4, seed=1)
    paint(frames, under, (130, 40, 90))
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in frames] == [None] * 4
    assert not tracker._moved  # the board as first seen is accounted for
    later = scene_frames(tiles, seed=19, over=under)
    paint(later, under, (130, 40, 90))
    verdicts = [v for v in map(tracker.observe, later) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("question", under)]


def test_the_last_tiles_under_light_of_another_colour_over_the_island_read_as_themselves() -> None:
    """B-20: late in a game four tiles are left and one of them leaves. The light over the
    island is of another colour than over the sea; the shift measured on the three tiles left
    is taken off, so they read as themselves and the one gone is named."""
    tiles, _, _ = table()
    keep = [h for h in board.LAND if tiles[h] == "mountain"][:4]
    read = sunk_under_a_warm_island(after_sinking(tiles, *(h for h in board.LAND if h not in keep)))
    assert len(read) == 3 and all(v.label == "mountain" for v in read.values())


def test_a_sand_coloured_piece_on_a_sunk_beach_under_a_warm_island_is_no_tile_back() -> None:
    """B-21: a sunk tile does not come back. The island's colour shift is the tiles': a boat on
    a sunk beach whose colour is that of the beaches under the warm light over the island is
    judged as the setup saw the board, not as a beach put back (held-out games read such boats
    as beaches once the shift moved every position's classes: "the board differs")."""
    tiles, _, _ = table()
    earlier, gone = synth.legal_sinks(tiles)[:2]
    before = after_sinking(tiles, earlier)
    tracker = tracker_at_rest(before)
    now = after_sinking(before, gone)
    frames = tint_island(photos(now, 4, seed=2, arms=2), now)
    registration = recogniser().register(frames[-1])
    beach = next(h for h in land(now) if now[h] == "beach")
    x, y = np.round(registration.to_image(np.array([geometry.centre(beach)]))[0]).astype(int)
    sand = np.median(frames[-1][y - 2 : y + 3, x - 2 : x + 3].reshape(-1, 3), axis=0)
    boat = np.round(registration.to_image(geometry.outline(*geometry.centre(earlier), 0.55)))
    for f in frames:
        cv2.fillConvexPoly(f, boat.astype(np.int32), sand.astype(int).tolist())
    seen = [v for v in map(tracker.observe, frames) if v]
    assert [(v.kind, v.tile) for v in seen] == [("sunk", gone)]


def test_B_22_a_tile_the_game_has_sunk_but_the_camera_never_saw_go_is_out_of_sync() -> None:
    """B-22: people told the game a tile left (by hand, the camera not asked), but the board
    at rest still shows it plainly and its sea has never shown: the board differs there."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    told = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, told)
    tracker.expect(land(now), synth.legal_sinks(now))
    seen = [tracker.observe(f) for f in photos(tiles, 3, seed=10)]
    assert seen[2] is not None and (seen[2].kind, seen[2].disagree) == ("out_of_sync", (told,))


def transplant(frames: list[np.ndarray], src: int, dst: int) -> None:
    """Lay over hex `dst` of each frame a copy of what hex `src` shows there (its tile, light,
    noise): how a piece the tile's colour and covering all of `dst` looks to the camera."""
    registration = recogniser().register(frames[-1])
    a = registration.to_image(geometry.outline(*geometry.centre(src), 1.0)).astype(np.float32)
    b = registration.to_image(geometry.outline(*geometry.centre(dst), 1.0)).astype(np.float32)
    move = cv2.getAffineTransform(a[:3], b[:3])
    mask = np.zeros(frames[-1].shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, np.round(b).astype(np.int32), 1)
    for f in frames:
        copy = cv2.warpAffine(f, move, (f.shape[1], f.shape[0]))
        f[mask > 0] = copy[mask > 0]


def a_sand_boat_is_no_tile_back(tracker: Tracker, now: dict[int, str], gone: int) -> None:
    """After a hand over sunk beach `gone`, a piece covering its sea whole in the colour of
    the board's plainest beach reads as a beach there, and the tracker says nothing."""
    frames = scene_frames(now, seed=12, over=gone)
    registration = recogniser().register(frames[-1])
    assert registration.homography is not None
    shows = recogniser().sampler.sample(frames[-1], registration.homography, registration.lens)
    agreement = dict(zip(shows.hexes, shows.agreement, strict=True))
    beach = max((h for h in land(now) if now[h] == "beach"), key=agreement.__getitem__)
    transplant(frames[2:], beach, gone)
    assert [tracker.observe(f) for f in frames] == [None] * len(frames)
    assert tracker.observation is not None and tracker.observation.positions[gone].label == "beach"


def test_B_22_land_read_where_a_sunk_tiles_sea_has_shown_is_a_piece_not_the_tile_back() -> None:
    """B-22: a removed tile goes to a hand or resolves; it never comes back onto the board.
    Once the camera has seen the sea where it lay, a piece covering that sea whole in the
    colour of the tile (a boat the colour of sand on a sunk beach) is no tile back: the board
    does not differ from the game (the renderer's games answered "the board differs" there)."""
    tiles, _, _ = table()
    gone = next(h for h in synth.legal_sinks(tiles) if tiles[h] == "beach")
    now = after_sinking(tiles, gone)
    tracker = tracker_at_rest(now)  # its sea shows at this rest
    a_sand_boat_is_no_tile_back(tracker, now, gone)


def test_a_rim_of_sea_around_swimmers_hidden_on_one_frame_at_rest_still_names_the_tile() -> None:
    """B-22: the people of the tile that left swim where it lay, covering all but a thin rim
    of sea, and every other candidate plainly shows its tile. On one frame at rest the rim
    does not show (blur, noise: the swimmers stand still, so nothing moved); on the others it
    does. One frame alone settles nothing either way: the tile is named, not asked about."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    tracker = tracker_at_rest(tiles)
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    centre = geometry.centre(gone)
    swimmers = np.round(registration.to_image(geometry.outline(*centre, 0.56))).astype(np.int32)
    wider = np.round(registration.to_image(geometry.outline(*centre, 0.8))).astype(np.int32)
    for k, f in enumerate(frames):
        cv2.fillConvexPoly(f, wider if k == 3 else swimmers, (40, 70, 110))
    rims = [recogniser().observe(f).positions[gone].sea_share for f in frames[2:5]]
    assert rims[1] < 0.05 < min(rims[0], rims[2])
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_two_candidates_unread_after_a_hand_are_asked_about_not_passed_over() -> None:
    """B-20: a hand went over the board; two candidates far apart cannot be read (sleeves here;
    a lamp's reflection on a real table) and every other shows its tile. Either may have left
    unseen, so the phone is asked about both: the tracker stayed silent when more than one
    was unread, and people had to notice."""
    tiles, _, _ = table()
    a, b = far_apart(sorted(synth.legal_sinks(tiles)))
    before = photos(tiles, 4, seed=1)
    frames = scene_frames(after_sinking(tiles, a), seed=21, over=a)
    for h in (a, b):  # unread at the last rest too: neither was seen to hold its tile
        paint(before + frames, h, (130, 40, 90))
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.recogniser.forget()
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in before] == [None] * 4
    assert not {a, b} & tracker._land_seen
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [v.kind for v in verdicts] == ["question"]
    assert {verdicts[0].tile, *verdicts[0].alternatives} == {a, b}


def first_rest_then_hand(
    tiles: dict[int, str], frames: list[np.ndarray]
) -> list[tuple[str, int | None]]:
    """A new tracker, the game at setup (`tiles`), shown `frames`' photos at rest (the last
    four) as the camera first sees the board, then all of them (a hand, then at rest): what it
    said after the hand (kind and tile), having said nothing at the first rest."""
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.recogniser.forget()
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in frames[-4:]] == [None] * 4
    return [(v.kind, v.tile) for v in map(tracker.observe, frames) if v is not None]


def test_B_2_a_rim_of_sea_as_the_camera_first_looks_names_no_tile() -> None:
    """B-2: as the camera first sees the board at rest, one candidate is covered all but a thin
    rim of what reads as sea (on a real table: a blue person standing in its own shadow on a
    beach) and every other shows its tile. No hand was seen to take it, and a rim is weak
    evidence: nothing is said (the renderer's games named such a beach sunk before the game
    began). After a hand, the same board names the tile."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    centre = geometry.centre(gone)
    person = np.round(registration.to_image(geometry.outline(*centre, 1.0))).astype(np.int32)
    blue = np.round(registration.to_image(geometry.outline(*centre, 0.22))).astype(np.int32)
    beside = min(geometry.PERMANENT_SEA, key=lambda s: apart(s, gone))
    x, y = registration.to_image(np.array([geometry.centre(beside)]))[0]
    for f in frames:  # its shadow over the disc and the ring, the blue person in the middle
        sea = f[int(y), int(x)].astype(int).tolist()
        cv2.fillConvexPoly(f, person, (40, 70, 110))
        cv2.fillConvexPoly(f, blue, sea)
    seen = recogniser().observe(frames[-1]).positions[gone]
    assert seen.hidden and 0.05 < seen.sea_share < 0.2 and seen.rim < RING_SEA
    assert first_rest_then_hand(tiles, frames) == [("sunk", gone)]


@cache
def lamp_over(gone: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Four photos at rest of the board with a lamp mirrored into the camera over `gone`
    (the renderer's lamp, `synth.Lamp`); then two of a hand over it and four at rest, its
    tile gone."""
    tiles, colours, camera = table()
    spot, height = np.array(geometry.centre(gone)), 50.0
    over = spot + (spot - camera.c[:2]) * height / -camera.c[2]  # the mirror's law
    lamp = synth.Lamp(np.array([*over, -height]), 120.0, 0.03, 0.0, 0.05)

    def lit(positions: dict[int, str], seed: int, hand: int | None = None) -> list[np.ndarray]:
        rng = np.random.default_rng([SEED, seed])
        view = synth.scene(rng, positions, [], SIZE, "normal", None, colours, camera, lamp=lamp)
        light = synth.lighting(rng, SIZE, "normal", {}, view)
        arms = [synth.photo(rng, view, light, hand).image for _ in range(2)] if hand else []
        return arms + [synth.photo(rng, view, light, still=True).image for _ in range(4)]

    return lit(tiles, 1), lit(after_sinking(tiles, gone), 2, gone)


def only_moved(before: list[np.ndarray], frames: list[np.ndarray], moved: int) -> list[Observation]:
    """`before` and `frames` after the hand (none in view) as observed, where after the rest
    only hex `moved` changed from the last frame before it: what the motion test sees when a
    lamp's white hides a tile's going."""
    recogniser().forget()
    observed = [recogniser().observe(f) for f in before + frames[2:]]
    last = observed[len(before) - 1].median
    assert last is not None
    k = geometry.HEXES.index(moved)
    for n in range(len(before), len(observed)):
        median = last.copy()
        median[k] += 1.0
        observed[n] = dataclasses.replace(observed[n], median=median)
    return observed


def lamp_and_rival() -> tuple[
    dict[int, str], int, int, list[np.ndarray], list[np.ndarray], list[Observation]
]:
    """The board; the candidate gone in a lamp's reflection (`lamp_over`) and the candidate
    farthest from it; the photos before and after; what the recogniser made of them."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    rival = max(synth.legal_sinks(tiles), key=lambda h: apart(h, gone))
    before, frames = lamp_over(gone)
    recogniser().forget()
    return tiles, gone, rival, before, frames, [recogniser().observe(f) for f in before + frames]


def retouch(observed: list[Observation], k: int, h: int, **change: Any) -> None:
    """Frame `k`'s verdict on hex `h` changed as `change` says (`HexVerdict` fields)."""
    v = dataclasses.replace(observed[k].hexes[h], **change)
    observed[k] = dataclasses.replace(observed[k], hexes={**observed[k].hexes, h: v})


def test_a_tile_gone_in_the_middle_of_a_lamps_reflection_is_named_by_the_colour_left() -> None:
    """B-21: a lamp hangs where the board mirrors it into the camera over a candidate (the
    renderer's lamp, `synth.Lamp`). The sea around shows little of the reflection's middle,
    the hex itself much (`HexVerdict.washed`): it is washed out and hidden; but white added
    to the sea leaves it blue, to a beach yellow, to a forest green. The one candidate whose colour under the
    white is the sea's on every frame at rest has left: named, not asked about."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    before, frames = lamp_over(gone)
    washed = [recogniser().observe(f).positions[gone] for f in (before[-1], frames[-1])]
    # the sea around shows little of the white, the hex itself much
    assert all(v.hidden and v.glare < GLARE and v.washed >= WASHED for v in washed)
    assert washed[0].sea_fit < FIT_SEA <= washed[1].sea_fit
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.recogniser.forget()
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in before] == [None] * 4
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_a_tile_gone_in_a_lamps_reflection_is_named_though_one_frame_hides_the_colour_left() -> (
    None
):
    """B-21: the colour under a lamp's white is the sea's where a tile left on two frames at
    rest of three, and no other candidate's is on any (people stirring on the hex, noise or a
    JPEG may spoil one frame's fit: the renderer's games with a lamp over the island asked
    about such tiles with every candidate in the reflection). Named, not asked about. With
    another candidate, unread, showing the sea's colour on one frame, it is a question. And
    that weaker evidence never doubts a tile gone by other signs: a candidate whose colour is
    the sea's on two frames of three while sea shows around a piece on another is no rival."""
    tiles, gone, rival, before, frames, observed = lamp_and_rival()
    rest = range(len(before) + 2, len(observed))  # the frames at rest after the hand

    def verdicts(observations: list[Observation]) -> list[tuple[str, int | None]]:
        tracker = Tracker(Replayed(observations), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames]
        return [(v.kind, v.tile) for v in out if v is not None]

    spoilt = list(observed)
    retouch(spoilt, rest[1], gone, sea_fit=0.0)
    assert [spoilt[k].hexes[gone].sea_fit >= FIT_SEA for k in rest[:3]] == [True, False, True]
    assert verdicts(spoilt) == [("sunk", gone)]
    for k in rest:  # the rival unread, its colour the sea's under white on one frame
        retouch(spoilt, k, rival, label="hidden")
    retouch(spoilt, rest[0], rival, glare=2 * GLARE, sea_fit=2 * FIT_SEA)
    assert [kind for kind, _ in verdicts(spoilt)] == ["question"]

    piece = list(observed)
    for k in rest:  # sea around a piece on the tile gone, out of the white; the rival unread
        retouch(piece, k, gone, agreement=0.2, sea_share=0.35, washed=0.0, sea_fit=0.0)
        retouch(piece, k, rival, label="hidden")
    for k in (rest[0], rest[2]):
        retouch(piece, k, rival, glare=2 * GLARE, sea_fit=2 * FIT_SEA)
    assert verdicts(piece) == [("sunk", gone)]


def test_a_tile_gone_in_a_lamps_reflection_is_named_though_the_hand_seemed_to_withdraw_elsewhere() -> (
    None
):
    """B-21: a tile lifted out of a lamp's reflection leaves its hex about as white, so the
    motion test misses the hand there and sees only people moved on another candidate, which
    cannot be read now. The tile gone showed its terrain's colour under the white at the last
    rest and shows the sea's now: it changed there as much as a hand's path does, so it is
    named, not asked about against the other. Had it shown the sea's colour on a frame of
    that rest too, nothing says it changed: a question, as where the hand seemed to be."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    rival = max(synth.legal_sinks(tiles), key=lambda h: apart(h, gone))
    before, frames = lamp_over(gone)
    # only the people moved on the rival show as motion; the white hid the tile's going
    observed = only_moved(before, frames, rival)
    for k in range(len(before), len(observed)):
        v = dataclasses.replace(observed[k].hexes[rival], label="hidden")
        observed[k] = dataclasses.replace(observed[k], hexes={**observed[k].hexes, rival: v})

    def verdicts(observations: list[Observation]) -> list[tuple[str, int | None]]:
        tracker = Tracker(Replayed(observations), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames[2:]]
        assert tracker._touched == {rival}
        return [(v.kind, v.tile) for v in out if v is not None]

    assert all(o.hexes[gone].sea_fit < FIT_SEA for o in observed[: len(before)])
    assert verdicts(observed) == [("sunk", gone)]
    v = dataclasses.replace(observed[1].hexes[gone], sea_fit=2 * FIT_SEA)
    observed[1] = dataclasses.replace(observed[1], hexes={**observed[1].hexes, gone: v})
    assert verdicts(observed) == [("question", gone)]


def test_two_candidates_showing_the_seas_colour_under_a_lamps_white_make_a_question() -> None:
    """B-21: a lamp's reflection lies over two candidates. One left: its colour under the
    white is the sea's on every frame at rest. The other is still there, but shows the sea's
    colour under the white on every frame too, and reads as sea in the reflection besides (a
    read capped at clear, `GLARE_SEA`: the white hides how much). Neither is more the sea than
    the other, and the hand was seen over neither: a question naming both, not the one read as
    sea named sunk (the renderer's dev game 3106 at 640×480 named it, and the other had left).
    With only the one read as sea showing the sea's colour, it is named."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    rival = max(synth.legal_sinks(tiles), key=lambda h: apart(h, gone))
    far = max(geometry.PERMANENT_SEA, key=lambda h: min(apart(h, gone), apart(h, rival)))
    before, frames = lamp_over(gone)
    observed = only_moved(before, frames, far)  # no hand over a candidate
    for k in range(len(before), len(observed)):
        v = observed[k].hexes[rival]
        v = dataclasses.replace(
            v,
            label="sea",
            probabilities={t: 0.997 if t == "sea" else 0.001 for t in v.probabilities},
            agreement=0.6,
            sea_share=0.6,
            glare=2 * GLARE,
            sea_fit=2 * FIT_SEA,
        )
        w = dataclasses.replace(observed[k].hexes[gone], sea_fit=2 * FIT_SEA)
        observed[k] = dataclasses.replace(
            observed[k], hexes={**observed[k].hexes, rival: v, gone: w}
        )

    def verdicts(observations: list[Observation]) -> list[Verdict]:
        tracker = Tracker(Replayed(observations), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames[2:]]
        assert tracker._touched == {far}
        return [v for v in out if v is not None]

    (verdict,) = verdicts(observed)
    assert (verdict.kind, {verdict.tile, *verdict.alternatives}) == ("question", {gone, rival})
    assert verdict.reason == "several gone"
    for k in range(len(before), len(observed)):  # the tile gone shows nothing of the sea
        w = dataclasses.replace(observed[k].hexes[gone], sea_fit=0.0)
        observed[k] = dataclasses.replace(observed[k], hexes={**observed[k].hexes, gone: w})
    assert [(v.kind, v.tile) for v in verdicts(observed)] == [("sunk", rival)]


def test_a_tile_gone_in_a_lamps_reflection_is_named_by_one_frame_where_its_tile_showed_before() -> (
    None
):
    """B-21: where a tile left in a lamp's reflection the white spoils the sea's colour on two
    frames at rest of three. At the rest before, the hex showed its terrain's colour under the
    white on every frame, and no other candidate shows the sea's on any frame now: its colour
    changed there, so it is named, not asked about. Had it shown the sea's colour on a frame of
    the rest before, one frame now would say nothing changed: a question."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    before, frames = lamp_over(gone)
    recogniser().forget()
    observed = [recogniser().observe(f) for f in before + frames]

    def spoil(k: int, sea_fit: float) -> None:
        v = dataclasses.replace(observed[k].hexes[gone], sea_fit=sea_fit)
        observed[k] = dataclasses.replace(observed[k], hexes={**observed[k].hexes, gone: v})

    def verdicts() -> list[tuple[str, int | None]]:
        tracker = Tracker(Replayed(observed), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames]
        return [(v.kind, v.tile) for v in out if v is not None]

    rest = range(len(before) + 2, len(observed))  # the frames at rest after the hand
    for k in rest[1:]:
        spoil(k, 0.0)
    assert all(o.hexes[gone].sea_fit < FIT_SEA for o in observed[: len(before)])
    assert observed[rest[0]].hexes[gone].sea_fit >= FIT_SEA
    assert verdicts() == [("sunk", gone)]
    spoil(1, 2 * FIT_SEA)
    assert verdicts() == [("question", gone)]


def test_B_2_a_tile_fitting_the_seas_colour_in_a_reflection_as_the_camera_first_looks_is_no_sink() -> (
    None
):
    """B-2: in the middle of a lamp's reflection a beach's colour under the white may fit the
    sea's better than its own on every frame (the held-out games named one sunk before the game
    began). The board as the camera first sees it is the game's: nothing is said then; the
    tile is named once a hand has been over the board and its sea's colour shows."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    before, frames = lamp_over(gone)
    recogniser().forget()
    seen = [recogniser().observe(f) for f in before + frames]
    for fitting in (range(len(before)), (0, 2)):  # on every frame, or on two of three
        observed = list(seen)
        for k in fitting:
            v = dataclasses.replace(observed[k].hexes[gone], sea_fit=2 * FIT_SEA)
            observed[k] = dataclasses.replace(observed[k], hexes={**observed[k].hexes, gone: v})
        tracker = Tracker(Replayed(observed), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames]
        assert out[: len(before)] == [None] * len(before)
        assert [(v.kind, v.tile) for v in out if v is not None] == [("sunk", gone)]


def under_a_lamp() -> tuple[
    np.random.Generator,
    dict[int, str],
    dict[str, np.ndarray],
    synth.Scene,
    tuple[np.ndarray, np.ndarray | None],
    Recogniser,
]:
    """A board (its layout and printing) under the renderer's "glare" light (a lamp's
    reflection over the island), and a recogniser calibrated on a setup photo without it."""
    rng = np.random.default_rng(3)
    tiles = synth.random_layout(rng)
    colours = synth.board_colours(rng)
    view = synth.scene(rng, tiles, [], SIZE, "glare", None, colours)
    setup = synth.photo(rng, view, synth.lighting(rng, SIZE, "nominal", {})).image
    light = synth.lighting(rng, SIZE, "glare", {})
    glared = Recogniser()
    glared.calibration = glared.calibrate(setup, tiles)
    return rng, tiles, colours, view, light, glared


def test_B_22_land_read_in_a_lamps_reflection_where_the_game_has_sea_is_no_tile_back() -> None:
    """B-22: people told the game a tile left, and the camera never saw its sea. The position
    lies in a lamp's reflection: land read there is never plain (sea washed out by the lamp
    reads as land as readily as a tile washed out reads as sea), so the board is not said to
    differ. On the renderer's games with a lamp over the island, washed-out sea where a tile
    had sunk was taken for the tile put back."""
    rng, tiles, _, view, light, glared = under_a_lamp()
    dim = synth.Controls(-1.0)  # the exposure lowered for the reflection, as the watcher sets it
    frames = [synth.photo(rng, view, light, still=True, controls=dim).image for _ in range(4)]
    readings = glared.observe(frames[0]).positions
    told = max(
        (h for h in geometry.LAND if not readings[h].hidden),
        key=lambda h: readings[h].glare,
    )
    assert readings[told].glare >= GLARE and readings[told].probabilities["sea"] < 1e-3
    now = after_sinking(tiles, told)
    tracker = Tracker(glared, stable_frames=3)
    tracker.expect(land(now), synth.legal_sinks(now))
    assert [tracker.observe(f) for f in frames] == [None] * 4


def test_sea_around_people_on_a_tile_in_a_lamps_reflection_does_not_name_it_sunk() -> None:
    """B-21: a candidate lies in a lamp's reflection with people on it. Washed out by the
    lamp, its tile around them reads as the sea beside it (painted here), as a sunk position
    shows sea around a boat; in glare that says nothing, so after a hand the tile is asked
    about, not named sunk (the renderer's games named a mountain under a person in a lamp's
    reflection sunk while the tile that left lay elsewhere)."""
    rng, tiles, _, view, light, glared = under_a_lamp()
    dim = synth.Controls(-1.0)  # the exposure lowered for the reflection, as the watcher sets it
    at_rest = [synth.photo(rng, view, light, still=True, controls=dim).image for _ in range(4)]
    readings = glared.observe(at_rest[0]).positions
    candidates = synth.legal_sinks(tiles)
    lit = max(candidates, key=lambda h: readings[h].glare)
    assert readings[lit].glare >= GLARE
    hand = [synth.photo(rng, view, light, lit, controls=dim).image for _ in range(2)]
    frames = hand + [
        synth.photo(rng, view, light, still=True, controls=dim).image for _ in range(4)
    ]
    registration = glared.register(frames[-1])
    beside = min(geometry.PERMANENT_SEA, key=lambda s: apart(s, lit))
    x, y = registration.to_image(np.array([geometry.centre(beside)]))[0]
    centre = geometry.centre(lit)
    tile = np.round(registration.to_image(geometry.outline(*centre, 1.1))).astype(np.int32)
    people = np.round(registration.to_image(geometry.outline(*centre, 0.5))).astype(np.int32)
    for f in frames[2:]:
        cv2.fillConvexPoly(f, tile, f[int(y), int(x)].astype(int).tolist())
        cv2.fillConvexPoly(f, people, (40, 70, 110))
    seen = glared.observe(frames[-1]).positions[lit]
    assert seen.hidden and 0.2 < seen.sea_share <= 0.5 and seen.glare >= GLARE
    tracker = Tracker(glared, stable_frames=3)
    tracker.expect(land(tiles), candidates)
    assert [tracker.observe(f) for f in at_rest] == [None] * 4
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("question", lit)]


def blue_people(frames: list[np.ndarray], h: int, blue: float = 0.4) -> None:
    """Paint people standing on hex `h`, those in the middle (out to `blue` hex units) the blue
    of the sea beside it and red ones around them: at 0.4 the hex reads as sea over less than
    half of its samples, at 0.5 over more."""
    registration = recogniser().register(frames[-1])
    beside = min(geometry.PERMANENT_SEA, key=lambda s: apart(s, h))
    x, y = registration.to_image(np.array([geometry.centre(beside)]))[0]
    for radius, colour in ((0.6, (40, 40, 200)), (blue, None)):
        outline = registration.to_image(geometry.outline(*geometry.centre(h), radius))
        for f in frames:
            sea = f[int(y), int(x)].astype(int).tolist()
            cv2.fillConvexPoly(f, np.round(outline).astype(np.int32), colour or sea)


def test_people_the_seas_blue_on_a_tile_that_may_not_sink_are_no_board_differing() -> None:
    """B-20's out of sync asks for plain sea: a tile that may not sink now under people the
    blue of the sea reads as sea over less than half of it, and is still there (the board was
    said to differ from the game at it)."""
    tiles, _, _ = table()
    kept = next(h for h in board.LAND if tiles[h] == "forest")
    frames = photos(tiles, 4, seed=1)
    blue_people(frames, kept)
    seen = [recogniser().observe(f).hexes[kept] for f in frames]
    assert all(v.label == "sea" and 0.3 < v.sea_share < 0.5 for v in seen)
    tracker = Tracker(recogniser(), stable_frames=3)
    tracker.recogniser.forget()
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in frames] == [None] * len(frames)


def blue_people_far_from_a_tile_gone(
    terrain: str, blue: float
) -> tuple[Tracker, int, int, list[np.ndarray]]:
    """A tracker at rest on the board; photos of a hand taking the first candidate it saw
    plainly (`gone`), then at rest, with people the sea's blue (`blue_people`) on the tile of
    `terrain` that may not sink farthest from it (`kept`): (tracker, gone, kept, frames)."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone = sorted(tracker._land_seen & set(synth.legal_sinks(tiles)))[0]
    kept = max(
        (h for h in tracker._land_seen - set(synth.legal_sinks(tiles)) if tiles[h] == terrain),
        key=lambda h: apart(h, gone),
    )
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    blue_people(frames, kept, blue=blue)
    return tracker, gone, kept, frames


def test_people_the_seas_blue_over_most_of_a_tile_are_no_board_differing_where_its_ring_shows() -> (
    None
):
    """B-20's out of sync asks for plain sea, and plain sea shows to the hex's border: people
    the blue of the sea crowding a tile that may not sink read as sea over more than half of
    its disc, but a tile fills its hex, and along its ring the tile shows. A candidate plainly
    gone meanwhile is named (held-out games: a forest under three blue people made the board
    differ from the game as the tile beside it sank)."""
    tracker, gone, kept, frames = blue_people_far_from_a_tile_gone("forest", blue=0.5)
    seen = [recogniser().observe(f).hexes[kept] for f in frames[2:]]
    assert all(v.label == "sea" and v.sea_share > PIECE_SEA and v.rim < RING_SEA for v in seen)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_B_20_people_the_seas_blue_out_into_a_tiles_ring_are_no_board_differing() -> None:
    """B-20's out of sync (a tile that may not sink read as gone) asks for the sea out to the
    hex's border, as where a tile lay: people the blue of the sea crowding a mountain that may
    not sink read as sea over all of its disc and over a third of its ring on every frame
    (`RING_SEA` passed, `RING_PLAIN` not), the mountain showing along the rest. The candidate
    plainly gone meanwhile is named, and nothing else is said (held-out K 8901 turn 13: the
    board was said to differ at such a mountain after the tile beside it was named)."""
    tiles, _, _ = table()
    tracker, gone, kept, frames = blue_people_far_from_a_tile_gone("mountain", blue=0.75)
    seen = [recogniser().observe(f).hexes[kept] for f in frames[2:]]
    assert all(v.label == "sea" and v.sea_share > PIECE_SEA for v in seen)
    assert all(RING_SEA <= v.rim < RING_PLAIN for v in seen)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]
    # the game follows; the board at rest again, the mountain under its people still
    tracker.expect(land(after_sinking(tiles, gone)), [])
    assert [tracker.observe(f) for f in frames[2:]] == [None] * 4
    # the mountain taken away, its sea shows out to the border: the board differs
    frames = scene_frames(after_sinking(tiles, gone, kept), seed=11, over=kept)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.disagree) for v in verdicts] == [("out_of_sync", (kept,))]


def test_a_tile_gone_in_a_hard_shadow_is_named_by_the_colour_the_shadow_leaves() -> None:
    """B-21: the hand took a candidate, and the sea where it lay is in a hard shadow (0.6 of
    the light the sea around it has): no class explains it, so it is unread, out of any lamp's
    reflection. Dimmed, its colour is still the sea's, which fits it better than its tile on
    every frame at rest: named, not asked about. (A sleeve over a candidate, fitting the sea
    better than its tile but not well, is the two tests' above.)"""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    registration = recogniser().register(frames[-1])
    shade = np.zeros(frames[0].shape[:2], np.uint8)
    outline = registration.to_image(geometry.outline(*geometry.centre(gone), 1.6))
    cv2.fillConvexPoly(shade, np.round(outline).astype(np.int32), 1)
    for f in frames[2:]:
        f[shade > 0] = (f[shade > 0] * 0.6).astype(np.uint8)
    dark = [recogniser().observe(f).positions[gone] for f in frames[2:]]
    assert all(v.hidden and v.glare < GLARE and v.washed < WASHED for v in dark)
    assert all(v.sea_fit >= FIT_SEA and v.sea_misfit <= SEA_MISFIT for v in dark)
    tracker = tracker_at_rest(tiles)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def test_a_tile_plainly_gone_is_sunk_though_people_the_seas_blue_stand_on_another() -> None:
    """B-21: one candidate's sea shows plainly; on another stand people the blue of the sea,
    which reads as sea over less than half of it. The plain one left, said without asking:
    the other's sea was a doubt against it."""
    tiles, _, _ = table()
    tracker = tracker_at_rest(tiles)
    gone, kept = far_apart(sorted(tracker._land_seen & set(synth.legal_sinks(tiles))))
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    blue_people(frames, kept)
    seen = [recogniser().observe(f).hexes[kept] for f in frames[2:]]
    assert all(v.label == "sea" and 0.3 < v.sea_share < 0.5 for v in seen)
    verdicts = [v for v in (tracker.observe(f) for f in frames) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def shade(frames: list[np.ndarray], h: int, light: float = 0.6) -> None:
    """A hard shadow over hex `h` of each frame: `light` of the light around it."""
    registration = recogniser().register(frames[-1])
    mask = np.zeros(frames[0].shape[:2], np.uint8)
    outline = registration.to_image(geometry.outline(*geometry.centre(h), 1.6))
    cv2.fillConvexPoly(mask, np.round(outline).astype(np.int32), 1)
    for f in frames:
        f[mask > 0] = (f[mask > 0] * light).astype(np.uint8)


def test_B_22_a_piece_read_as_land_where_sea_showed_in_a_hard_shadow_is_no_tile_back() -> None:
    """B-22: a beach left in a hard shadow and was named by the sea's colour the shadow left,
    which went on showing at the next rest. Later a boat the colour of sand covers that sea
    whole: the camera has seen the sea there since the game sank it, so the land read there is
    a piece, not the tile back (the renderer's game said "the board differs" there, and the
    tile that left that turn went unnamed)."""
    tiles, _, _ = table()
    gone = next(h for h in synth.legal_sinks(tiles) if tiles[h] == "beach")
    now = after_sinking(tiles, gone)
    tracker = tracker_at_rest(tiles)
    dark = scene_frames(now, seed=11, over=gone, rest=6)
    shade(dark[2:], gone)
    named = [v for v in (tracker.observe(f) for f in dark[:5]) if v is not None]
    assert [(v.kind, v.tile) for v in named] == [("sunk", gone)]
    tracker.expect(land(now), synth.legal_sinks(now))
    assert [tracker.observe(f) for f in dark[5:]] == [None] * 3
    a_sand_boat_is_no_tile_back(tracker, now, gone)


def test_a_few_grey_levels_of_noise_in_a_dark_channel_are_no_hand_over_the_board() -> None:
    """B-21: a sea hex lies nearly black in one channel (4 grey levels of red), and on one frame
    at rest noise lifts that to 10: 75 % more light, a ratio a hand makes, but a few levels
    only. It is no motion: the tile taken is named at the third frame at rest, as without it
    (the renderer's game never came to rest before the next turn, and nothing was said)."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    tracker = tracker_at_rest(tiles)
    frames = scene_frames(after_sinking(tiles, gone), seed=11, over=gone)
    dark = geometry.PERMANENT_SEA[0]
    paint(frames, dark, (90, 30, 4))
    paint(frames[3:4], dark, (90, 30, 10))
    seen = [tracker.observe(f) for f in frames]
    assert [(v.kind, v.tile) for v in seen if v is not None] == [("sunk", gone)]
    assert seen[4] is not None


def test_a_hex_moves_by_grey_levels_and_a_ratio_measured_after_the_exposure_changed() -> None:
    """As the camera's exposure rises by half (every hex 0.4 brighter in log units), the hex a
    hand withdrew from loses blue by a ratio and by 49 levels of what the exposure gives it,
    though by 11 of the frame before: it moved (the renderer's game asked about another
    candidate, the hand's withdrawal from the sunk one missed). A dark sea hex whose red
    moves by the same ratio but by 9 levels is noise."""
    n = len(geometry.HEXES)
    before = np.tile(np.log([64.0, 60.0, 77.0]), (n, 1))
    withdrew, dark = 0, 1
    before[dark] = np.log([90.0, 30.0, 8.0])
    after = before + 0.4
    after[withdrew, 2] -= 0.56
    after[dark, 2] += 0.56
    zeros = np.zeros(n)

    def reading(colour: np.ndarray) -> _Reading:
        return _Reading(zeros, zeros, colour, zeros, zeros, zeros, zeros, zeros, zeros)

    assert reading(after).moved(reading(before)) == {geometry.HEXES[withdrew]}


def test_a_hex_clipped_white_that_cannot_follow_the_exposure_did_not_move() -> None:
    """A lamp's reflection clips a dozen hexes white; the camera's exposure falls by half
    (0.6 in log units) and they stay white, or near it: a clipped channel said only that the
    light was that much or more (the renderer's game with a lamp over the island never came
    to rest). A hand over one of them, darker than the exposure leaves the white, moved; so
    did one white now where the exposure would have kept it far darker."""
    n = len(geometry.HEXES)
    before = np.tile(np.log([104.0, 94.0, 84.0]), (n, 1))
    white, near, hand, lamp = 0, 1, 2, 3
    before[[white, near, hand]] = np.log(259.0)  # 255 + the sample's black offset
    after = before - 0.6
    after[white] = np.log(259.0)
    after[near] = np.log([240.0, 150.0, 97.0])  # demosaiced next to clipped pixels
    after[hand] = np.log([80.0, 70.0, 60.0])  # 142 is what the exposure leaves the white
    after[lamp] = np.log(259.0)  # from 57 by the exposure: a reflection swept over it
    zeros = np.zeros(n)
    moved = _Reading(zeros, zeros, after, *[zeros] * 6).moved(
        _Reading(zeros, zeros, before, *[zeros] * 6)
    )
    assert moved == {geometry.HEXES[hand], geometry.HEXES[lamp]}


def test_B_2_sea_beside_a_piece_as_the_camera_first_looks_names_no_tile() -> None:
    """B-2: as the camera first sees the board at rest, a piece covers one candidate but for
    the sea beside it on every frame (on a real table: a piece the sea's colour standing on
    the tile). No hand was seen to take it and the board as first seen is the game's: nothing
    is said (a held-out game at 1280×960 named such a tile sunk at setup). After a hand, the
    same board names the tile."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    frames = boat_over(gone)
    assert first_rest_then_hand(tiles, frames) == [("sunk", gone)]


def test_B_2_sea_along_a_pieces_ring_as_the_camera_first_looks_names_no_tile() -> None:
    """B-2: as the camera first sees the board at rest, a piece the grey of a mountain stands
    on one candidate, its disc read as land but not plainly and sea along its ring on every
    frame (the verdicts of such photos put in the frames' observations). The board as first
    seen is the game's: nothing is said. After a hand, the same board names the tile."""
    tiles, _, _ = table()
    gone = synth.legal_sinks(tiles)[0]
    now = after_sinking(tiles, gone)
    first = scene_frames(now, seed=11, over=gone, arms=0, rest=4)
    later = scene_frames(now, seed=11, over=gone)
    whale = {"sea": 0.05, "beach": 0.05, "forest": 0.1, "mountain": 0.8}
    read = HexVerdict(gone, "mountain", whale, 0.5, 0.6, sea_share=0.3, rim=0.8)
    tracker = Tracker(Replayed(reading(first, read) + reading(later, read)), stable_frames=3)
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    assert [tracker.observe(f) for f in first] == [None] * 4
    verdicts = [v for v in (tracker.observe(f) for f in later) if v is not None]
    assert [(v.kind, v.tile) for v in verdicts] == [("sunk", gone)]


def read_as(terrain: str, sea: float, agreement: float = 1.0) -> dict[str, Any]:
    """A verdict's fields for a hex read as `terrain` over the share `agreement` of its
    samples, with probability `sea` of sea."""
    land = (1.0 - sea) / 3
    odds = {"sea": sea, "beach": land, "forest": land, "mountain": land}
    return {"label": terrain, "probabilities": odds, "agreement": agreement}


def test_B_22_the_one_candidate_unread_whose_ring_shows_sea_in_a_reflection_is_sunk() -> None:
    """B-22: people on the tile that left stand on its sea as swimmers, covering the disc the
    camera reads. The position lies in a lamp's reflection, and so does another candidate, read
    as its terrain there: clear at most, never plain (`GLARE_SEA`), so it is not "plainly
    there" and the rim rule out of glare says nothing. The sea shows along the ring of the one
    left unread on most frames at rest: every other candidate shows its tile, so it is named,
    not asked about. A question again where the candidate read as its terrain showed the sea's
    colour on a frame (a sunk position read as its old tile in the white does), or where the
    ring showed sea on one frame only."""
    tiles, gone, rival, before, frames, seen = lamp_and_rival()
    rest = range(len(before) + 2, len(seen))  # the frames at rest after the hand

    def verdicts(observed: list[Observation]) -> list[Verdict]:
        tracker = Tracker(Replayed(observed), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        return [v for v in (tracker.observe(f) for f in before + frames) if v is not None]

    def lamp_on_both(ringed: tuple[int, ...], rival_fit: tuple[int, ...] = ()) -> list[Verdict]:
        observed = list(seen)
        for n, k in enumerate(rest):
            retouch(
                observed,
                k,
                gone,
                label="hidden",
                agreement=0.1,
                sea_share=0.1,
                glare=2 * GLARE,
                washed=0.0,
                sea_fit=0.0,
                rim=0.4 if n in ringed else 0.0,
            )
            retouch(observed, k, rival, **read_as(tiles[rival], 1e-3), glare=2 * GLARE,
                    sea_fit=2 * FIT_SEA if n in rival_fit else -2 * FIT_SEA)  # fmt: skip
        return verdicts(observed)

    assert [(v.kind, v.tile) for v in lamp_on_both((0, 1, 2, 3))] == [("sunk", gone)]
    assert [(v.kind, v.tile) for v in lamp_on_both((0, 2))] == [("sunk", gone)]
    (asked,) = lamp_on_both((0, 1, 2, 3), rival_fit=(1,))
    assert (asked.kind, asked.tile) == ("question", gone)
    (asked,) = lamp_on_both((1,))
    assert (asked.kind, asked.tile) == ("question", gone)


def test_a_tile_seen_plainly_that_shows_the_seas_colour_in_a_reflection_now_was_taken() -> None:
    """B-21: a tile read plainly at the last rest (out of the lamp's reflection: nothing reads
    plainly in it) lies in the reflection now, as the light changed, and shows the sea's colour
    under the white on every frame at rest; the motion test saw only people moved on another
    candidate, which cannot be read now. What shows there changed from its tile to the sea as
    much as a hand's path does: named, not asked about against the other (the renderer's dev
    game 3106 at 640×480 asked). Had the tile been read only clearly at the last rest (half
    under people), nothing says it changed: a question, as where the hand seemed to be."""
    tiles, _, _ = table()
    gone = sorted(synth.legal_sinks(tiles))[0]
    rival = max(synth.legal_sinks(tiles), key=lambda h: apart(h, gone))
    before, frames = lamp_over(gone)
    seen = only_moved(before, frames, rival)  # the white hid the tile's going
    for k in range(len(before), len(seen)):
        retouch(seen, k, rival, label="hidden")
        retouch(seen, k, gone, glare=2 * GLARE, sea_fit=2 * FIT_SEA)

    def verdicts(agreement: float) -> list[tuple[str, int | None]]:
        observed = list(seen)
        for k in range(len(before)):  # out of the reflection then, read as its terrain
            retouch(observed, k, gone, **read_as(tiles[gone], 1e-4, agreement), glare=0.0,
                    washed=0.0, sea_fit=-2 * FIT_SEA)  # fmt: skip
        tracker = Tracker(Replayed(observed), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        out = [tracker.observe(f) for f in before + frames[2:]]
        assert tracker._touched == {rival}
        return [(v.kind, v.tile) for v in out if v is not None]

    assert verdicts(1.0) == [("sunk", gone)]
    assert verdicts(0.5) == [("question", gone)]


def test_the_one_candidate_unread_whose_colour_is_the_seas_on_every_frame_is_sunk() -> None:
    """B-22: a piece stands where a tile left, out of any reflection, hiding the position and
    leaving no sea in view around it; the other candidates show their tiles. Its colour fits
    the sea's far better than its tile's on every frame at rest, though the sea's colour leaves
    much of it unexplained (`SEA_MISFIT`: the piece tints it): the one candidate not showing
    its tile, and what shows is the sea's, so it is named. A question where the colour was the
    sea's on two frames of three."""
    tiles, gone, _, before, frames, seen = lamp_and_rival()
    rest = range(len(before) + 2, len(seen))

    def verdicts(fitting: tuple[int, ...]) -> list[Verdict]:
        observed = list(seen)
        for n, k in enumerate(rest):
            retouch(observed, k, gone, label="hidden", agreement=0.1, sea_share=0.0, rim=0.0,
                    glare=0.0, washed=0.0, sea_misfit=2 * SEA_MISFIT,
                    sea_fit=2 * FIT_SEA if n in fitting else 0.0)  # fmt: skip
        tracker = Tracker(Replayed(observed), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        return [v for v in (tracker.observe(f) for f in before + frames) if v is not None]

    assert [(v.kind, v.tile) for v in verdicts((0, 1, 2, 3))] == [("sunk", gone)]
    (asked,) = verdicts((0, 2, 3))
    assert (asked.kind, asked.tile) == ("question", gone)


def test_a_tile_gone_in_a_lamps_reflection_is_named_by_the_colour_left_though_a_rival_passes_once() -> (
    None
):
    """B-21: in a lamp's reflection the colour under the white is the sea's where the tile left
    on most frames at rest, on one of them far better than its tile's (`FIT_SEA_CLEARLY`); a
    rival washed out in the same reflection, unread, passes `FIT_SEA` on one frame, never by
    as much (people stirring on a tile, the white at its strongest: the renderer's dev game
    3106 at 640×480 asked about such pairs on turns 29 and 30). The one named, not asked
    about. A question still where the rival too fits far better on a frame or fits on most
    frames, or where the one fits the sea's colour on one frame only."""
    tiles, gone, rival, before, frames, observed = lamp_and_rival()
    rest = range(len(before) + 2, len(observed))  # the frames at rest after the hand
    none, weak, clear = 0.0, 1.2 * FIT_SEA, 1.2 * FIT_SEA_CLEARLY
    assert FIT_SEA < weak < FIT_SEA_CLEARLY < clear

    def verdicts(fits: tuple[float, ...], rival_fits: tuple[float, ...]) -> list[Verdict]:
        spoilt = list(observed)
        for k, fit, other in zip(rest, fits, rival_fits, strict=True):
            retouch(spoilt, k, gone, sea_fit=fit)
            retouch(spoilt, k, rival, label="hidden", glare=2 * GLARE, sea_fit=other)
        tracker = Tracker(Replayed(spoilt), stable_frames=3)
        tracker.expect(land(tiles), synth.legal_sinks(tiles))
        return [v for v in (tracker.observe(f) for f in before + frames) if v is not None]

    assert all(observed[k].hexes[gone].hidden for k in rest)
    named = verdicts((clear, weak, none, clear), (none, none, weak, none))
    assert [(v.kind, v.tile) for v in named] == [("sunk", gone)]
    (asked,) = verdicts((clear, weak, none, clear), (none, none, clear, none))
    assert asked.kind == "question" and {gone, rival} <= {asked.tile, *asked.alternatives}
    (asked,) = verdicts((clear, none, none, none), (none, none, weak, none))
    assert asked.kind == "question"
    # nor where the rival fits the sea's colour on most frames too, if never far better (a
    # tile in the hot middle of a reflection: dev game 11 at 640×480, turn 27)
    (asked,) = verdicts((clear, weak, none, clear), (weak, none, weak, weak))
    assert asked.kind == "question"


def lamp_without_hand(over: str) -> tuple[dict[int, str], int, int, list[Observation], range]:
    """`lamp_and_rival`'s board, the candidate gone under the lamp and its rival, as observed at
    the rest before and at rest after (`before` + `frames[2:]`), where the motion test saw only
    one hex change: the one gone (`over` ``gone``) or a permanent sea hex far from both (no
    candidate: ``none``); and the indices of the frames at rest after it."""
    tiles, gone, rival, before, frames, _ = lamp_and_rival()
    far = max(geometry.PERMANENT_SEA, key=lambda h: min(apart(h, gone), apart(h, rival)))
    observed = only_moved(before, frames, gone if over == "gone" else far)
    return tiles, gone, rival, observed, range(len(before), len(observed))


def replayed(tiles: dict[int, str], observed: list[Observation]) -> list[Verdict]:
    """What a new tracker says, the game at setup, over `observed` (one a frame)."""
    tracker = Tracker(Replayed(observed), stable_frames=3)
    tracker.expect(land(tiles), synth.legal_sinks(tiles))
    blank = np.zeros((1, 1, 3), np.uint8)  # the observations stand for the frames
    return [v for v in (tracker.observe(blank) for _ in observed) if v is not None]


def test_a_tile_gone_whose_colour_leans_to_the_seas_on_every_frame_by_enough_on_average_is_sunk() -> (
    None
):
    """B-21: a piece stands where the tile left, at a lamp's reflection, hiding the position.
    Its colour fits the sea's better than its tile's on every frame at rest, on one by more
    than `FIT_SEA`, on the others a little less (the renderer's dev game 32 at 640×480, turn
    31: 8.6, 3.6 and 3.97 times better); summed over the frames, the sea's colour fits it
    `FIT_SEA` better on average. The other candidate unread in the reflection shows its tile's
    colour on every frame, the rest their tiles: named, not asked about. A question where the
    tile fitted better on one frame, where the average falls short, or where the rival passes
    `FIT_SEA` on a frame."""
    tiles, gone, rival, observed, rest = lamp_without_hand("none")

    def verdicts(fits: tuple[float, ...], rival_fits: tuple[float, ...] = ()) -> list[Verdict]:
        seen = list(observed)
        for k in range(rest.start):  # the tile's colour at the rest before, on most frames
            retouch(seen, k, gone, sea_fit=2 * FIT_SEA if k == 1 else -2 * FIT_SEA)
        for n, k in enumerate(rest):
            retouch(seen, k, gone, label="hidden", glare=2 * GLARE, sea_share=0.3, rim=0.1,
                    sea_fit=fits[n] * FIT_SEA)  # fmt: skip
            retouch(seen, k, rival, label="hidden", glare=2 * GLARE, sea_share=0.0, rim=0.0,
                    sea_fit=(rival_fits or (-1.5,) * 4)[n] * FIT_SEA)  # fmt: skip
        return replayed(tiles, seen)

    assert [(v.kind, v.tile) for v in verdicts((1.55, 0.93, 0.99, 1.2))] == [("sunk", gone)]
    (asked,) = verdicts((2.5, -0.05, 0.99, 1.2))  # the tile's colour fitted better once
    assert asked.kind == "question"
    (asked,) = verdicts((1.2, 0.5, 0.5, 1.2))  # a fit that hovers below the bound
    assert asked.kind == "question"
    (asked,) = verdicts((1.55, 0.93, 0.99, 1.2), (-1.5, 1.1, -1.5, -1.5))
    assert asked.kind == "question"


def test_of_two_tiles_the_seas_colour_fits_in_a_reflection_the_one_whose_ring_shows_sea_is_sunk() -> (
    None
):
    """B-21: a lamp's reflection lies over two candidates, and the sea's colour under the white
    fits both better than their tiles' on every frame at rest (in the hot middle of a
    reflection a tile's colour is left near the sea's). The ring between the disc and the
    hex's border shows sea on most frames around the one that left, none around the other: a
    tile fills its hex out to its border, so that one is named (the renderer's dev game 11 at
    640×480, turn 27, asked). A question where the other's ring showed sea on a frame too, or
    where the one's showed it on one frame only."""
    tiles, gone, rival, observed, rest = lamp_without_hand("none")

    def verdicts(rings: tuple[float, ...], rival_rings: tuple[float, ...]) -> list[Verdict]:
        seen = list(observed)
        for n, k in enumerate(rest):
            for h, rim in ((gone, rings[n]), (rival, rival_rings[n])):
                retouch(seen, k, h, label="hidden", glare=2 * GLARE, sea_share=0.1, rim=rim,
                        sea_fit=2 * FIT_SEA)  # fmt: skip
        return replayed(tiles, seen)

    none = (0.0, 0.0, 0.0, 0.0)
    assert [(v.kind, v.tile) for v in verdicts((0.3, 0.0, 0.3, 0.3), none)] == [("sunk", gone)]
    (asked,) = verdicts((0.3, 0.0, 0.3, 0.3), (0.0, 0.3, 0.0, 0.0))
    assert asked.kind == "question" and {gone, rival} <= {asked.tile, *asked.alternatives}
    (asked,) = verdicts((0.3, 0.0, 0.0, 0.0), none)
    assert asked.kind == "question"


def test_sea_read_weakly_where_the_hand_withdrew_in_the_seas_colour_over_most_of_the_hex_is_sunk() -> (
    None
):
    """B-21: pieces stand in the sea beside the position a tile left, and the classes read it
    on one frame at rest of three, as sea (weakly gone: less than `SURE` over the frames), the
    others hidden. Sea shows over most of its samples on every frame and its colour is the
    sea's on every one, and the hand withdrew from it: named, not asked about (the renderer's
    dev game 3106 at 640×480, turn 5, asked). Another candidate lies unread in the lamp's
    reflection. A question where the hand was seen elsewhere, or where sea shows over less
    than half of the hex."""

    def verdicts(over: str, share: float) -> list[Verdict]:
        tiles, gone, rival, observed, rest = lamp_without_hand(over)
        for n, k in enumerate(rest):
            read = read_as("sea", 0.96) if n == 1 else {"label": "hidden", "agreement": 0.1}
            retouch(observed, k, gone, **read, glare=0.0, washed=0.0, sea_share=share, rim=0.2,
                    sea_fit=2 * FIT_SEA, sea_misfit=5.0)  # fmt: skip
            retouch(observed, k, rival, label="hidden", glare=2 * GLARE, sea_share=0.0,
                    rim=0.0, sea_fit=-2 * FIT_SEA)  # fmt: skip
        return replayed(tiles, observed)

    _, gone, _, _, _ = lamp_without_hand("gone")
    assert [(v.kind, v.tile) for v in verdicts("gone", 0.9)] == [("sunk", gone)]
    (asked,) = verdicts("none", 0.9)
    assert (asked.kind, asked.tile, asked.reason) == ("question", gone, "weakly gone")
    (asked,) = verdicts("gone", 0.4)
    assert (asked.kind, asked.tile) == ("question", gone)
