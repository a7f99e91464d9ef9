"""The camera's geometry: hex centres from `plane()`, the markers file, the renderer's truth, and
the printable marker sheet drawn from OpenCV's dictionary."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("cv2")

import cv2
import numpy as np

from companion import cli
from companion.engine import board
from companion.vision import geometry, synth
from companion.vision.aruco import MarkerDetector, marker_bits
from companion.vision.markers import MarkersError, load, parse
from companion.vision.register import project
from companion.vision.sheet import sheets

SVG = "{http://www.w3.org/2000/svg}"


def test_every_expected_hex_centre_is_plane_of_its_row_and_column() -> None:
    assert len(geometry.HEXES) == 133  # spec §2: 133 sea/island hexes, safe islands apart
    assert len(geometry.LAND) == 40 and len(geometry.PERMANENT_SEA) == 93
    assert board.LAGOON in geometry.PERMANENT_SEA
    for i, (x, y) in zip(geometry.HEXES, geometry.centres(), strict=True):
        assert (x, y) == board.plane(*board.CELLS[i])
    points = geometry.sample_points()
    # every sample lies inside its own hex's inscribed circle, clear of the edge
    offsets = points - geometry.centres()[:, None, :]
    assert np.linalg.norm(offsets, axis=2).max() <= geometry.SAMPLE_RADIUS < np.sqrt(3) / 2


def test_the_centres_are_planed_once_and_each_caller_gets_its_own_copy(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every frame asks for them (`classify.hidden`); planing 133 hexes cost a tenth of a
    millisecond each time."""
    planed = []

    def centre(i: int) -> tuple[float, float]:
        planed.append(i)
        return float(i), 0.0

    monkeypatch.setattr(geometry, "centre", centre)
    hexes = (5, 6, 7)  # not asked for elsewhere in the run
    first = geometry.centres(hexes)
    first[0] = (-1.0, -1.0)  # the caller's to change
    assert geometry.centres(hexes).tolist() == [[5.0, 0.0], [6.0, 0.0], [7.0, 0.0]]
    assert planed == [5, 6, 7]


def test_the_markers_file_keeps_every_marker_and_its_margin_off_the_hexes() -> None:
    layout = load()
    assert not layout.verified  # until measured on a real board (spec §2)
    assert sorted(m.id for m in layout.markers) == list(range(8))
    for m in layout.markers:
        half = m.size / 2 + layout.quiet_zone(m)
        for i in geometry.HEXES:
            corners = geometry.outline(*geometry.centre(i))
            inside = (np.abs(corners[:, 0] - m.x) < half) & (np.abs(corners[:, 1] - m.y) < half)
            assert not inside.any(), f"marker {m.id} covers hex {board.name(i)}"


def test_a_bad_markers_file_names_what_is_wrong() -> None:
    good = {"scale_mm_per_unit": 23.0, "quiet_zone_cells": 1.5}
    markers = [{"id": k, "size": 2.0, "x": float(k), "y": 0.0} for k in range(4)]
    assert len(parse({**good, "marker": markers}).markers) == 4
    with pytest.raises(MarkersError, match="at least 4"):
        parse({**good, "marker": markers[:3]})
    with pytest.raises(MarkersError, match="share an id"):
        parse({**good, "marker": [*markers, markers[0]]})
    with pytest.raises(MarkersError, match="size must be a number"):
        parse({**good, "marker": [{**markers[0], "size": "big"}, *markers[1:]]})


def test_the_renderer_draws_tiles_and_markers_where_plane_and_markers_toml_put_them() -> None:
    rng = np.random.default_rng(5)
    tiles = synth.sink(rng, synth.random_layout(rng), 12)
    colours = synth.board_colours(rng)
    shot = synth.render(rng, tiles, [], (1280, 960), "clean", colours=colours)
    h = np.array(shot.truth.homography)
    # the colour at each land position's centre, as the truth homography places it
    centres = project(h, np.array([geometry.centre(p) for p in geometry.LAND]))
    for p, (x, y) in zip(geometry.LAND, centres, strict=True):
        patch = shot.image[int(y) - 2 : int(y) + 3, int(x) - 2 : int(x) + 3].reshape(-1, 3)
        seen = np.median(patch, axis=0)
        nearest = min(colours, key=lambda t: float(np.linalg.norm(colours[t] - seen)))
        assert nearest == tiles[p], board.name(p)
    # and each marker's corners where markers.toml says, through the same homography
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    found = dict(zip(*reversed(MarkerDetector().detect(gray)), strict=True))
    layout = load()
    assert sorted(found) == sorted(m.id for m in layout.markers)
    for m in layout.markers:
        expected = project(h, np.array(m.corners()))
        assert np.abs(found[m.id] - expected).max() < 1.0, m.id


def test_a_piece_under_the_lamp_casts_its_shadow_away_from_it() -> None:
    rng = np.random.default_rng(6)
    tiles = synth.random_layout(rng)
    size = (1280, 960)
    camera = synth.random_camera(rng, size, load().extent(), max_tilt=0.0)
    # a lamp 45 units (1 m) up and 30 to the left: a person's shadow falls to its right
    lamp = synth.Lamp(np.array([-30.0, 0.0, -45.0]), 0.0, 0.05, 0.5, 0.03)
    sea = next(h for h in geometry.HEXES if h not in tiles)
    x, y = geometry.centre(sea)
    person = synth.Piece("person", x, y, 0.0, (40, 40, 200), sea)

    def unlit(pieces: list[synth.Piece]) -> np.ndarray:
        rng = np.random.default_rng(1)  # the same print and texture with the piece or without
        view = synth.scene(rng, tiles, pieces, size, "clean", camera=camera, lamp=lamp)
        return view.image

    bare, lit = unlit([]), unlit([person])
    (rx, ry), (lx, ly) = project(camera.plane(0.0), np.array([[x + 0.5, y], [x - 0.5, y]]))
    right = lit[int(ry), int(rx)] / bare[int(ry), int(rx)]
    left = lit[int(ly), int(lx)] / bare[int(ly), int(lx)]
    assert np.allclose(right, 1 - lamp.shade, atol=0.05)
    assert np.allclose(left, 1.0, atol=0.01)


def test_the_lamps_reflection_lies_where_the_board_mirrors_it_into_each_camera() -> None:
    size = (1280, 960)
    rng = np.random.default_rng(7)
    tiles = synth.random_layout(rng)
    lamp = synth.Lamp(np.array([3.0, -2.0, -50.0]), 200.0, 0.05, 0.5, 0.05)
    spots = []
    for seed in (1, 2):
        camera = synth.random_camera(np.random.default_rng(seed), size, load().extent())
        view = synth.scene(rng, tiles, [], size, "clean", camera=camera, lamp=lamp)
        _, glare = synth.lighting(rng, size, "clean", {}, view)
        assert glare is not None
        y, x = np.unravel_index(np.argmax(glare[..., 1]), glare.shape[:2])
        # the mirror's law: the camera sees the lamp's image under the table through the spot
        under = lamp.position * [1, 1, -1]
        spot = camera.c + camera.c[2] / (camera.c[2] - under[2]) * (under - camera.c)
        expected = project(camera.plane(0.0), spot[None, :2])[0]
        assert np.hypot(x - expected[0], y - expected[1]) < 12
        spots.append(spot[:2])
    # a camera elsewhere sees the reflection on another part of the board
    assert np.linalg.norm(spots[0] - spots[1]) > 1.0


def test_the_marker_sheet_is_drawn_from_markers_toml_and_opencvs_dictionary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "markers.toml"
    toml.write_text(
        "scale_mm_per_unit = 20.0\nquiet_zone_cells = 2\n"
        + "".join(
            f'[[marker]]\nid = {k}\nsize = 2.5\nx = {x}\ny = {y}\nwhere = "spot {k}"\n'
            for k, (x, y) in zip(
                (3, 9, 17, 42), ((-12, -12), (12, -12), (12, 12), (-12, 12)), strict=True
            )
        ),
        encoding="utf-8",
    )
    status = cli.main(
        ["vision", "markers", "--markers", str(toml), "--output", str(tmp_path / "m.svg")]
    )
    assert status == 0 and "4 markers" in capsys.readouterr().out
    svg = ET.parse(tmp_path / "m.svg").getroot()
    assert svg.get("width") == "210mm" and svg.get("height") == "297mm"
    texts = " ".join(t.text or "" for t in svg.iter(f"{SVG}text"))
    for k in (3, 9, 17, 42):
        assert f"id {k}: spot {k}" in texts
    # each marker: a black square of size x scale = 50 mm, white cells where OpenCV's are white
    squares = [
        r for r in svg.iter(f"{SVG}rect") if r.get("fill") == "black" and r.get("width") == "50"
    ]
    paths = [p.get("d") or "" for p in svg.iter(f"{SVG}path")]
    assert len(squares) == len(paths) == 4
    for ident, square, d in zip((3, 9, 17, 42), squares, paths, strict=True):
        x0, y0 = float(square.get("x") or 0), float(square.get("y") or 0)
        cells = np.zeros((6, 6), np.uint8)
        for move in d.split("M")[1:]:
            x, y = (float(v) for v in move.split("h")[0].split())
            cells[round((y - y0) / (50 / 6)), round((x - x0) / (50 / 6))] = 1
        assert np.array_equal(cells, marker_bits(ident)), ident


def test_the_default_sheet_has_every_marker_of_the_hardware_file() -> None:
    pages = sheets(load())
    assert len(pages) == 2  # six to an A4 page
    text = "".join(pages)
    for m in load().markers:
        assert f"id {m.id}: {m.where}" in text
