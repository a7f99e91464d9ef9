"""Synthetic photos of the board, with ground truth: for tests and the bench, never for play.

A board is drawn from `plane()` (flat terrain colours with texture, the printed sea, the
markers from OpenCV's dictionary), seen through a pinhole camera at a random pose, and damaged
as a phone or Pi camera damages a photo. Two modes (research §6):

- ``normal``: tilt up to 35°, the marked area filling 75–95 % of the short side, a smooth gain
  field, a colour cast, blur, noise, JPEG quality 60–95, pieces on about half the land.
- ``harsh``: the same, darker and less even (gain 0.35–1.2, cast ±25 %), plus a hard shadow
  edge, glare on 30 % of frames, stronger blur and noise, a hand over one marker on a quarter
  of the frames, and the tiles' thickness (beach 2, forest 4, mountain 6 mm) seen in parallax.

Conditions (`CONDITIONS`) add what a real table does beyond that; two of them draw the board
as printed rather than in flat colours (``art``: drawn trees, rock, sand and surf, each tile's
outline and bevel, the sea's waves and serpents) and in another printing's inks (``art1986``).

The truth of a frame is what lies on each land position and the board→image homography of the
table's plane; `recorded` stores frames with it so real photos can join the same tests.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from ..engine import board
from ..engine.data import TERRAIN_COUNT, TERRAINS
from ..engine.fivesix import for_players
from ..engine.rules import Rules
from ..engine.sinking import candidates, current_terrain
from ..engine.state import State
from . import geometry
from .aruco import marker_bits
from .markers import Marker, MarkerLayout
from .markers import load as load_markers

MODES = ("normal", "harsh")

# Printed colours, BGR. Approximations of the box's art; the recogniser never sees these
# numbers (it learns colours from a setup frame), so they only need to be plausible.
COLOURS: dict[str, tuple[float, float, float]] = {
    "sea": (148, 96, 38),
    "beach": (140, 196, 222),
    "forest": (52, 104, 58),
    "mountain": (108, 118, 128),
}
_TEXTURE = {"sea": 0.06, "beach": 0.07, "forest": 0.16, "mountain": 0.12}

PALETTES: dict[str, dict[str, tuple[float, float, float]]] = {
    # the 30th-anniversary printing: what `COLOURS` approximates
    "anniversary": COLOURS,
    # an older printing in other inks (guessed, not measured: the point is hues further off
    # than one run's drift, `board_colours`): a greener sea, orange sand, an olive forest and
    # brown rock
    "1986": {
        "sea": (160, 128, 46),
        "beach": (92, 172, 226),
        "forest": (48, 124, 98),
        "mountain": (82, 102, 138),
    },
}
"""Printings of the board (`Conditions.palette`), BGR: the recogniser learns whichever it sees
from the setup photo, so what matters is how far apart, and how far from the nominal, they lie."""
_TABLE = (55, 85, 120)
_WHITE = (232, 234, 235)
_BLACK = (28, 26, 26)
_TILE_SIDE = (170, 185, 200)
_ISLAND = (120, 170, 190)
THICKNESS_MM = {"beach": 2.0, "forest": 4.0, "mountain": 6.0}

# Pieces: footprint (length, width) and height in hex units, and colours (BGR).
# People in the six players' colours (box.json): red, blue, green, yellow, orange, white.
_PEOPLE_COLOURS = [
    (40, 40, 200),
    (180, 90, 30),
    (50, 150, 60),
    (40, 210, 230),
    (30, 130, 240),
    (225, 228, 230),
]
_PIECES: dict[str, tuple[float, float, float, tuple[int, int, int]]] = {
    "person": (0.5, 0.36, 0.8, (0, 0, 0)),  # colour per player
    "boat": (1.3, 0.6, 0.35, (70, 115, 165)),
    "shark": (0.9, 0.4, 0.5, (140, 140, 135)),
    "whale": (1.0, 0.6, 0.5, (85, 80, 75)),
    "serpent": (1.1, 0.35, 0.4, (70, 140, 80)),
}


@dataclass(frozen=True)
class Piece:
    """A wooden piece: an occluder, never recognised. (x, y) its centre in hex units."""

    kind: str
    x: float
    y: float
    angle: float
    colour: tuple[int, int, int]
    on: int
    """The hex it stands on (engine number)."""


@dataclass
class Truth:
    """What a synthetic (or recorded) frame shows."""

    positions: dict[int, str]
    """Each of the 40 land positions: beach, forest, mountain, or sea once its tile is gone."""
    homography: list[list[float]] | None = None
    """Board (hex units, table level) → image pixels, when known."""
    hidden_marker: int | None = None
    """The marker a hand covers, if any."""
    mode: str = "recorded"
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "positions": {board.name(h): t for h, t in sorted(self.positions.items())},
            "homography": self.homography,
            "hidden_marker": self.hidden_marker,
            "mode": self.mode,
            "params": self.params,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Truth:
        positions = {board.parse(k): v for k, v in data["positions"].items()}
        return cls(
            positions,
            data.get("homography"),
            data.get("hidden_marker"),
            data.get("mode", "recorded"),
            data.get("params", {}),
        )


@dataclass
class Controls:
    """What the pipeline may set on the camera, as on a real one (picamera2's
    ``ExposureValue``, a webcam's exposure through V4L2): read at the moment each photo is
    taken."""

    exposure_bias: float = 0.0
    """Exposure compensation in EV: 0 leaves the camera's auto exposure as it meters (the
    mean of the frame: the dark table pulls it up, so a lamp's reflection clips); −1 exposes
    half as long, and the board's highlights keep their colour."""


@dataclass
class Shot:
    image: np.ndarray
    """BGR uint8, as OpenCV reads a photo."""
    truth: Truth
    before: np.ndarray | None = None
    """With an arm in the photo: the same board a moment earlier, before the arm came over it
    (a camera watching a table always saw the board before a hand reached in)."""
    jpeg: bytes | None = None
    """The photo as the camera encoded it (`image` is its decoding): kept, a game's photos can
    be replayed without rendering them again (`tools/tracker_games.py`)."""


# -- what lies on the board ----------------------------------------------------------------


def random_layout(rng: np.random.Generator) -> dict[int, str]:
    """The 40 tiles shuffled onto the 40 land positions (B-2: 16 beach, 16 forest, 8 mountain)."""
    tiles = [t for t in TERRAINS for _ in range(TERRAIN_COUNT[t])]
    order = rng.permutation(len(tiles))
    return {h: tiles[int(k)] for h, k in zip(geometry.LAND, order, strict=True)}


def sink(rng: np.random.Generator, layout: dict[int, str], removed: int) -> dict[int, str]:
    """The layout after `removed` tiles have gone, in the order the rules sink them (beaches
    first, then forests, then mountains: B-20), each class in random order."""
    order: list[int] = []
    for terrain in TERRAINS:
        hexes = [h for h in geometry.LAND if layout[h] == terrain]
        order += [hexes[int(i)] for i in rng.permutation(len(hexes))]
    gone = set(order[:removed])
    return {h: ("sea" if h in gone else t) for h, t in layout.items()}


def random_pieces(
    rng: np.random.Generator,
    positions: dict[int, str],
    land_share: float = 0.5,
    creatures_on_positions: bool = False,
) -> list[Piece]:
    """People on about `land_share` of the land tiles, swimmers on a third of the sunk
    positions, and people, boats and creatures on a tenth of the permanent sea."""
    pieces: list[Piece] = []

    def put(kind: str, h: int, spread: float) -> None:
        x, y = geometry.centre(h)
        r, a = spread * math.sqrt(rng.uniform()), rng.uniform(0, 2 * math.pi)
        turn = float(rng.uniform(0, math.pi))
        colour = _PIECES[kind][3]
        if kind == "person":  # a player's colour
            colour = _PEOPLE_COLOURS[int(rng.integers(len(_PEOPLE_COLOURS)))]
        pieces.append(Piece(kind, x + r * math.cos(a), y + r * math.sin(a), turn, colour, h))

    for h, terrain in positions.items():
        if terrain != "sea" and rng.uniform() < land_share:
            for _ in range(int(rng.choice([1, 2, 3], p=[0.65, 0.25, 0.10]))):
                put("person", h, 0.45)
    for h in geometry.HEXES:
        if h in positions and positions[h] != "sea":
            continue
        if h in positions:
            # A sunk tile leaves its people swimming there. Boats and creatures would hide the
            # whole hex: no colour can tell what lies under them, and the tracker knows where
            # they are, so they are drawn on the permanent sea only (see `creatures_on_positions`).
            if rng.uniform() < 0.35:
                put("person", h, 0.35)
            if not creatures_on_positions or rng.uniform() >= 0.2:
                continue
        elif rng.uniform() >= 0.1:
            continue
        kind = str(rng.choice(["person", "boat", "shark", "whale", "serpent"]))
        put(kind, h, 0.3)
        if kind == "boat" and rng.uniform() < 0.5:
            put("person", h, 0.25)
    return pieces


# -- the camera ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Camera:
    """A pinhole camera: K, and the world→camera rotation R and centre C (world: hex units,
    x right, y down, z into the table, so a height h above the board is z = -h)."""

    k: np.ndarray
    r: np.ndarray
    c: np.ndarray
    tilt: float
    k1: float = 0.0
    """Radial distortion of the lens (OpenCV's model with the focal length set to the frame's
    half-diagonal; negative is barrel). `project` and `plane` are the ideal pinhole; `photo`
    bends the finished image."""

    def plane(self, height: float = 0.0) -> np.ndarray:
        """The homography board (x, y) → pixels for the plane `height` units above the table."""
        t = -self.r @ self.c
        m = np.column_stack([self.r[:, 0], self.r[:, 1], -height * self.r[:, 2] + t])
        h = self.k @ m
        return np.asarray(h / h[2, 2])

    def project(self, xyz: np.ndarray) -> np.ndarray:
        p = (xyz - self.c) @ self.r.T @ self.k.T
        return np.asarray(p[:, :2] / p[:, 2:3])


def _rot(axis: int, angle: float) -> np.ndarray:
    c, s = math.cos(angle), math.sin(angle)
    i, j = [(1, 2), (2, 0), (0, 1)][axis]
    m = np.eye(3)
    m[i, i] = m[j, j] = c
    m[i, j], m[j, i] = -s, s
    return m


def random_camera(
    rng: np.random.Generator,
    size: tuple[int, int],
    extent: tuple[float, float, float, float],
    max_tilt: float = 35.0,
    fill: tuple[float, float] = (0.75, 0.95),
) -> Camera:
    """A camera that sees the marked area filling `fill` of the short side at a tilt up to
    `max_tilt` degrees, the board turned a quarter turn at random and a little askew."""
    w, h = size
    f = (w / 2) / math.tan(math.radians(rng.uniform(55, 75)) / 2)
    tilt = math.radians(rng.uniform(0, max_tilt))
    yaw = math.radians(90 * int(rng.integers(4)) + rng.uniform(-10, 10))
    roll = math.radians(rng.uniform(-5, 5))
    r = _rot(2, roll) @ _rot(0, tilt) @ _rot(2, yaw)
    left, top, right, bottom = extent
    corners = np.array([[left, top, 0], [right, top, 0], [right, bottom, 0], [left, bottom, 0]])
    target = np.array([(left + right) / 2, (top + bottom) / 2, 0.0])
    goal = rng.uniform(*fill)
    distance = f * (right - left) / (goal * h)
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    for _ in range(4):  # perspective: the size is not quite 1/distance, so converge on it
        c = target - distance * (r.T @ np.array([0, 0, 1.0]))
        cam = Camera(k, r, c, math.degrees(tilt))
        p = cam.project(corners)
        span = max((p[:, 0].max() - p[:, 0].min()) / w, (p[:, 1].max() - p[:, 1].min()) / h)
        distance *= span / goal
    c = target - distance * (r.T @ np.array([0, 0, 1.0]))
    p = Camera(k, r, c, 0).project(corners)
    # Move the principal point so the board lies somewhere in the frame, not always centred.
    k = k.copy()
    for axis, length in ((0, w), (1, h)):
        lo, hi = p[:, axis].min(), p[:, axis].max()
        slack = max(0.0, length - (hi - lo))
        k[axis, 2] += slack * rng.uniform(0.05, 0.95) - lo
    return Camera(k, r, c, math.degrees(tilt))


# -- drawing -------------------------------------------------------------------------------

# What each pixel shows before texture, light and the sensor: a label, then a colour.
_TABLE_L, _SEA_L, _LINE_L, _ISLAND_L, _SIDE_L = 0, 1, 2, 3, 4
_TILE_L = {t: 5 + k for k, t in enumerate(TERRAINS)}
# The printed art (`Conditions.art`): per surface a dark, a light and a bright ink, the dark
# outline printed round each tile and the serpents printed on their start spaces.
_ROLES = ("dark", "light", "bright")
_ART_L = {
    (t, role): 5 + len(TERRAINS) + 3 * k + r
    for k, t in enumerate(("sea", *TERRAINS))
    for r, role in enumerate(_ROLES)
}
_OUTLINE_L = 5 + len(TERRAINS) + 3 * (1 + len(TERRAINS))
_SERPENT_L = _OUTLINE_L + 1
_LABELS = _SERPENT_L + 1
_ART_SHADE = {
    # each ink as a multiple of its surface's colour (`_ROLES`): drawn trees with dark
    # outlines and light crowns, rock with shadowed and lit faces and white highlights, sand
    # with darker grains and white surf; the sea's waves a little lighter or darker
    "sea": (0.72, 1.3, 1.55),
    "beach": (0.72, 1.12, 1.3),
    "forest": (0.42, 1.4, 1.9),
    "mountain": (0.5, 1.45, 2.0),
}
_OUTLINE = (40, 40, 44)
_SERPENT = (62, 96, 56)
_INK_MAX = 245.0
"""No ink is brighter than the paper it is printed on."""


def _noise(rng: np.random.Generator, shape: tuple[int, int], cells: float) -> np.ndarray:
    """Smooth unit noise with features about `cells` pixels across."""
    h, w = shape
    cells = max(cells, 1.0)
    small = rng.standard_normal((int(h / cells) + 3, int(w / cells) + 3)).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def _poly(points: np.ndarray) -> np.ndarray:
    return np.round(points * 16).astype(np.int32)  # for shift=4: 1/16 px precision


def _square(x: float, y: float, half: float) -> np.ndarray:
    return np.array(
        [[x - half, y - half], [x + half, y - half], [x + half, y + half], [x - half, y + half]]
    )


def _on(camera: Camera, points: np.ndarray, height: float = 0.0) -> np.ndarray:
    """Board points (n, 2) at `height` above the table → pixels."""
    return camera.project(np.column_stack([points, np.full(len(points), -height)]))


def _paint(
    rng: np.random.Generator,
    camera: Camera,
    size: tuple[int, int],
    positions: dict[int, str],
    heights: dict[str, float],
    ppu: float,
    art: bool = False,
) -> tuple[np.ndarray, dict[int, np.ndarray]]:
    """The label map of the table, the printed board and the tiles, and each tile's outline
    (laid by hand: a little off its hex and turned); with `art`, the printed art on the sea
    and on each tile (`_sea_art`, `_tile_art`)."""
    w, h = size
    labels = np.full((h, w), _TABLE_L, np.uint8)
    cv2.fillPoly(labels, [_poly(_on(camera, _square(0, 0, 1) * [11.3, 10.9]))], _SEA_L, shift=4)
    if art:
        _draw_art(labels, camera, _sea_art(), np.eye(3), 0.0, ppu)
    thick = max(1, round(0.03 * ppu))
    lines = [_poly(_on(camera, geometry.outline(*geometry.centre(i)))) for i in geometry.HEXES]
    cv2.polylines(labels, lines, True, _LINE_L, thick, cv2.LINE_8, 4)
    for i in board.SAFE_ISLANDS:
        island = _on(camera, geometry.outline(*geometry.centre(i), 0.95))
        cv2.fillPoly(labels, [_poly(island)], _ISLAND_L, shift=4)
    outlines: dict[int, np.ndarray] = {}
    for hx, terrain in positions.items():
        if terrain != "sea":
            x, y = geometry.centre(hx)
            dx, dy = rng.normal(0, 0.03, 2)
            outlines[hx] = geometry.outline(x + dx, y + dy, 0.96, float(rng.normal(0, 0.03)))
    for hx, poly in outlines.items():  # a raised tile shows its edge on the far side
        t = heights[positions[hx]]
        if t > 0:
            hull = cv2.convexHull(_poly(np.vstack([_on(camera, poly), _on(camera, poly, t)])))
            cv2.fillConvexPoly(labels, hull, _SIDE_L, cv2.LINE_8, 4)
    for hx in sorted(outlines, key=lambda k: heights[positions[k]]):  # thicker tiles on top
        terrain = positions[hx]
        top = _on(camera, outlines[hx], heights[terrain])
        cv2.fillPoly(labels, [_poly(top)], _TILE_L[terrain], shift=4)
        if art:  # the tile's own print, turned and moved with it, on its top only
            poly = outlines[hx]
            x, y = poly.mean(axis=0)
            turn = math.atan2(poly[0, 1] - y, poly[0, 0] - x) - math.radians(30)
            c, s = math.cos(turn), math.sin(turn)
            place = np.array([[c, -s, x], [s, c, y], [0, 0, 1.0]])
            prims = _tile_art(terrain, hx)
            _draw_art(labels, camera, prims, place, heights[terrain], ppu, top)
    return labels, outlines


# -- printed art ---------------------------------------------------------------------------

_Prim = tuple[int, np.ndarray, float]
"""One stroke of printed art: its label, its points (n, 2) in hex units and its width (hex
units; 0: the points are a filled polygon)."""

_TILE_RADIUS = 0.96
"""A tile's circumradius in hex units (`_paint` lays them a little inside their hex)."""


def _in_hex(points: np.ndarray, margin: float = 0.0) -> np.ndarray:
    """Which of `points` (n, 2) lie inside a tile at the origin, `margin` inside its edge."""
    inner = _TILE_RADIUS * math.sqrt(3) / 2 - margin
    normals = np.array([[1.0, 0.0], [0.5, math.sqrt(3) / 2], [-0.5, math.sqrt(3) / 2]])
    out: np.ndarray = (np.abs(points @ normals.T) <= inner).all(axis=1)
    return out


def _spots(rng: np.random.Generator, n: int, margin: float = 0.0) -> np.ndarray:
    """`n` points spread at random over a tile at the origin."""
    out = np.zeros((0, 2))
    while len(out) < n:
        p = rng.uniform(-_TILE_RADIUS, _TILE_RADIUS, (4 * n, 2))
        out = np.vstack([out, p[_in_hex(p, margin)]])
    return out[:n]


def _round(x: float, y: float, r: float) -> np.ndarray:
    return _ellipse(x, y, 2 * r, 2 * r, 0.0)


@functools.cache
def _tile_art(terrain: str, hx: int) -> tuple[_Prim, ...]:
    """The print on the tile of `terrain` at `hx`, in the tile's own frame (centred, pointy
    top): the same tile always shows the same art. Forests are drawn trees, each a dark
    outline round a light crown with a bright highlight; mountains are peaks with a lit and a
    shadowed face, white tops and dark strokes; beaches are sand with darker and lighter grains
    and a line of white surf along one side. Every tile has a light bevel inside its edge and
    a thin dark outline on it."""
    rng = np.random.default_rng([hx, TERRAINS.index(terrain), 1986])
    dark, light, bright = (_ART_L[terrain, role] for role in _ROLES)
    prims: list[_Prim] = []
    if terrain == "forest":
        trees = _spots(rng, 34)
        for x, y in trees[np.argsort(trees[:, 1])]:  # the nearer (lower) trees over the far
            r = float(rng.uniform(0.11, 0.17))
            prims.append((dark, _round(x, y, r), 0.0))
            prims.append((light, _round(x, y, r - 0.03), 0.0))
            prims.append((bright, _round(x - 0.3 * r, y - 0.3 * r, 0.4 * r), 0.0))
    elif terrain == "mountain":
        peaks = _spots(rng, 8, 0.1)
        for x, y in peaks[np.argsort(peaks[:, 1])]:
            half, tall = rng.uniform(0.2, 0.35), rng.uniform(0.3, 0.55)
            ridge = x + rng.uniform(-0.3, 0.3) * half
            apex, left, right = (
                (x, y - tall / 2),
                (x - half, y + tall / 2),
                (x + half, y + tall / 2),
            )
            foot = (ridge, y + tall / 2)
            prims.append((light, np.array([apex, left, foot]), 0.0))  # lit from the left
            prims.append((dark, np.array([apex, foot, right]), 0.0))
            cap = 0.3
            prims.append(
                (
                    bright,
                    np.array(
                        [
                            apex,
                            (x - cap * half, y - tall / 2 + cap * tall),
                            (x + cap * half, y - tall / 2 + cap * tall),
                        ]
                    ),
                    0.0,
                )
            )
            prims.append((dark, np.array([apex, foot]), 0.02))
        for x, y in _spots(rng, 12):  # cracks and scree
            a = rng.uniform(0, math.pi)
            d = rng.uniform(0.05, 0.12) * np.array([math.cos(a), math.sin(a)])
            at = np.array([x, y])
            prims.append((dark, np.array([at - d, at + d]), 0.018))
    else:  # beach
        for x, y in _spots(rng, 110):
            grain = dark if rng.uniform() < 0.7 else light
            prims.append((grain, _round(x, y, float(rng.uniform(0.015, 0.03))), 0.0))
        side = int(rng.integers(6))  # surf along one side: a wet band and white lines
        a = math.radians(60 * side)
        normal = np.array([math.cos(a), math.sin(a)])
        along = np.array([-normal[1], normal[0]])
        t = np.linspace(-0.6, 0.6, 25)[:, None]
        inner = _TILE_RADIUS * math.sqrt(3) / 2
        for depth, role, width in ((0.22, dark, 0.08), (0.16, bright, 0.035), (0.3, bright, 0.02)):
            wave = inner - depth + 0.025 * np.sin(t * 11 + depth * 20)
            prims.append((role, t * along + wave * normal, width))
    edge = geometry.outline(0.0, 0.0, _TILE_RADIUS)
    prims.append((light, np.vstack([edge * 0.93, edge[:1] * 0.93]), 0.045))  # the bevel
    prims.append((_OUTLINE_L, np.vstack([edge * 0.99, edge[:1] * 0.99]), 0.025))
    return tuple(prims)


@functools.cache
def _sea_art() -> tuple[_Prim, ...]:
    """The print on the sea, in board coordinates: short waves, lighter and darker, all
    running one way, and a serpent on each of its start spaces (B-3)."""
    rng = np.random.default_rng(1986)
    prims: list[_Prim] = []
    centres = rng.uniform([-11.3, -10.9], [11.3, 10.9], (900, 2))
    t = np.linspace(-0.5, 0.5, 9)
    for x, y in centres:
        length, a = rng.uniform(0.3, 0.6), rng.normal(0.0, 0.15)
        bend = 0.06 * np.sin(t * 2 * math.pi)
        local = np.stack([t * length, bend], axis=1)
        c, s = math.cos(a), math.sin(a)
        points = local @ np.array([[c, s], [-s, c]]) + (x, y)
        role = "light" if rng.uniform() < 0.7 else "dark"
        prims.append((_ART_L["sea", role], points, 0.04))
    for hx in board.SERPENT_START:
        x, y = geometry.centre(hx)
        t = np.linspace(-0.55, 0.55, 21)
        body = np.stack([t + x, 0.16 * np.sin(t * 2.6 * math.pi) + y], axis=1)
        prims.append((_OUTLINE_L, body, 0.17))
        prims.append((_SERPENT_L, body, 0.12))
        prims.append((_OUTLINE_L, _round(body[-1, 0], body[-1, 1], 0.12), 0.0))
        prims.append((_SERPENT_L, _round(body[-1, 0], body[-1, 1], 0.095), 0.0))
    return tuple(prims)


def _draw_art(
    labels: np.ndarray,
    camera: Camera,
    prims: tuple[_Prim, ...],
    place: np.ndarray,
    height: float,
    ppu: float,
    clip: np.ndarray | None = None,
) -> None:
    """Draw `prims` into `labels`, moved onto the board by `place` (3x3, their frame → hex
    units) at `height`; with `clip` (n, 2 pixels), only inside that polygon."""
    points = np.vstack([p for _, p, _ in prims])
    board_xy = points @ place[:2, :2].T + place[:2, 2]
    pixels = _on(camera, board_xy, height)
    h, w = labels.shape
    x0 = y0 = 0
    target = labels
    if clip is not None:  # a tile's top: drawn on a copy of its box, kept inside its outline
        x0, y0 = np.maximum(np.floor(clip.min(axis=0)).astype(int) - 1, 0)
        x1 = min(int(np.ceil(clip[:, 0].max())) + 2, w)
        y1 = min(int(np.ceil(clip[:, 1].max())) + 2, h)
        if x1 <= x0 or y1 <= y0:
            return
        target = labels[y0:y1, x0:x1].copy()
    pixels = pixels - (x0, y0)
    at = 0
    for label, p, width in prims:
        poly = _poly(pixels[at : at + len(p)])
        at += len(p)
        if width:
            thick = max(1, round(width * ppu))
            cv2.polylines(target, [poly], False, label, thick, cv2.LINE_8, 4)
        else:
            cv2.fillPoly(target, [poly], label, cv2.LINE_8, 4)
    if clip is not None:
        inside = np.zeros_like(target)
        cv2.fillPoly(inside, [_poly(clip - (x0, y0))], 1, cv2.LINE_8, 4)
        box = labels[y0 : y0 + target.shape[0], x0 : x0 + target.shape[1]]
        np.copyto(box, target, where=inside.astype(bool))


def _colour(
    rng: np.random.Generator, labels: np.ndarray, colours: dict[str, np.ndarray], ppu: float
) -> np.ndarray:
    """Labels → colours with printed texture (trees, rock, waves), as float32 BGR."""
    lut = np.zeros((_LABELS, 3), np.float32)
    amp = np.zeros(len(lut), np.float32)
    lut[_TABLE_L], amp[_TABLE_L] = _TABLE, 0.12
    lut[_SEA_L], amp[_SEA_L] = colours["sea"], _TEXTURE["sea"]
    lut[_LINE_L], amp[_LINE_L] = colours["sea"] * 1.18, _TEXTURE["sea"]
    lut[_ISLAND_L], amp[_ISLAND_L] = _ISLAND, 0.08
    lut[_SIDE_L], amp[_SIDE_L] = _TILE_SIDE, 0.03
    for t, k in _TILE_L.items():
        lut[k], amp[k] = colours[t], _TEXTURE[t]
    for (t, role), k in _ART_L.items():
        ink = colours[t] * _ART_SHADE[t][_ROLES.index(role)]
        lut[k], amp[k] = np.minimum(ink, _INK_MAX), _TEXTURE[t]
    lut[_OUTLINE_L], amp[_OUTLINE_L] = _OUTLINE, 0.05
    lut[_SERPENT_L], amp[_SERPENT_L] = _SERPENT, 0.08
    texture = 0.6 * _noise(rng, labels.shape, 0.1 * ppu) + 0.6 * _noise(
        rng, labels.shape, 0.4 * ppu
    )
    texture *= amp[labels]
    texture += 1
    image = lut[labels]
    image *= texture[..., None]
    return image


def _paste(dst: np.ndarray, patch: np.ndarray, h: np.ndarray) -> None:
    """Warp `patch` (float32) by `h` (patch pixel → image pixel) onto `dst`, touching only the
    pixels it covers (a whole-frame warp per marker would cost more than the frame)."""
    ph, pw = patch.shape[:2]
    corners = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], np.float64) - 0.5
    q = corners @ h[:, :2].T + h[:, 2]
    q = q[:, :2] / q[:, 2:3]
    x0, y0 = np.maximum(np.floor(q.min(axis=0)).astype(int) - 1, 0)
    x1 = min(int(np.ceil(q[:, 0].max())) + 2, dst.shape[1])
    y1 = min(int(np.ceil(q[:, 1].max())) + 2, dst.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1.0]]) @ h
    warped = cv2.warpPerspective(patch, shift, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    ones = np.ones((ph, pw), np.float32)
    alpha = cv2.warpPerspective(ones, shift, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
    roi = dst[y0:y1, x0:x1]
    roi *= 1 - alpha[..., None]
    roi += warped * alpha[..., None]


def _draw_markers(
    image: np.ndarray, camera: Camera, layout: MarkerLayout, turns: dict[int, float] | None = None
) -> None:
    """Each marker with its white margin, its cells from OpenCV's dictionary, turned by
    `turns` (radians, per id) about its centre when laid by hand."""
    px = 12  # patch pixels per cell
    for m in layout.markers:
        quiet = layout.quiet_zone_cells
        cells = marker_bits(m.id).astype(np.float32)
        patch_cells = np.kron(cells, np.ones((px, px), np.float32))
        pad = round(quiet * px)
        patch = np.pad(patch_cells, pad, constant_values=1.0)
        white, black = np.array(_WHITE, np.float32), np.array(_BLACK, np.float32)
        patch = np.where(patch[..., None] > 0.5, white, black).astype(np.float32)
        cell = m.size / 6
        s = cell / px
        left = m.x - m.size / 2 - pad * s
        top = m.y - m.size / 2 - pad * s
        to_board = np.array([[s, 0, left + s / 2], [0, s, top + s / 2], [0, 0, 1.0]])
        a = (turns or {}).get(m.id, 0.0)
        ca, sa = math.cos(a), math.sin(a)
        turn = np.array(
            [[ca, -sa, m.x - ca * m.x + sa * m.y], [sa, ca, m.y - sa * m.x - ca * m.y], [0, 0, 1]]
        )
        _paste(image, patch, camera.plane(0.0) @ turn @ to_board)


def _ellipse(x: float, y: float, length: float, width: float, angle: float) -> np.ndarray:
    t = np.linspace(0, 2 * math.pi, 14, endpoint=False)
    ca, sa = math.cos(angle), math.sin(angle)
    ex, ey = length / 2 * np.cos(t), width / 2 * np.sin(t)
    return np.stack([x + ca * ex - sa * ey, y + sa * ex + ca * ey], axis=1)


def _draw_pieces(
    image: np.ndarray, camera: Camera, pieces: list[Piece], base: dict[int, float]
) -> None:
    """Each piece a prism from its footprint up to its height, far ones first."""
    order = sorted(pieces, key=lambda p: -float(np.linalg.norm([p.x, p.y, 0.0] - camera.c)))
    for p in order:
        length, width, height, _ = _PIECES[p.kind]
        foot = _ellipse(p.x, p.y, length, width, p.angle)
        z = base.get(p.on, 0.0)
        bottom, top = _on(camera, foot, z), _on(camera, foot, z + height)
        hull = cv2.convexHull(_poly(np.vstack([bottom, top])))
        colour = np.array(p.colour, np.float32)
        cv2.fillConvexPoly(image, hull, (colour * 0.7).tolist(), cv2.LINE_8, 4)
        lit = np.minimum(colour * 1.1 + 10, 255).tolist()
        cv2.fillConvexPoly(image, _poly(top), lit, cv2.LINE_8, 4)


def _draw_hand(
    rng: np.random.Generator, image: np.ndarray, camera: Camera, marker: Marker, quiet: float
) -> None:
    """A hand reaching in from the nearest edge of the frame and resting on the marker."""
    square = _square(marker.x, marker.y, marker.size / 2 + quiet * 0.5)
    corners = _on(camera, square, 0.5)
    centre = corners.mean(axis=0)
    radius = float(np.linalg.norm(corners - centre, axis=1).max()) * rng.uniform(1.05, 1.25)
    _hand(rng, image, centre, radius)


ARM_COVERS = 0.1
"""A position counts as under the arm when its arm, hand or their shadow (darkening by a fifth
or more) covers this share of the disc the recogniser samples."""


def _draw_arm(rng: np.random.Generator, image: np.ndarray, camera: Camera, hx: int) -> list[int]:
    """A hand over hex `hx` (lifting its tile, moving a piece), its arm from the frame's edge.
    Returns the land positions it covers (`ARM_COVERS`): the truth the bench judges
    "hidden" against, the arm's whole band and shadow, not only the hand."""
    x, y = geometry.centre(hx)
    x, y = x + rng.normal(0, 0.3), y + rng.normal(0, 0.3)
    span = _on(camera, np.array([[x - 1.0, y], [x + 1.0, y]]), 2.0)
    radius = float(np.linalg.norm(span[1] - span[0])) / 2 * rng.uniform(0.9, 1.3)
    mask = _hand(rng, image, _on(camera, np.array([[x, y]]), 2.0)[0], radius, shadow=True)
    h, w = mask.shape
    px = np.rint(_on(camera, geometry.sample_points(geometry.LAND).reshape(-1, 2)))
    px = px.astype(np.intp).reshape(len(geometry.LAND), -1, 2)
    inside = (px[..., 0] >= 0) & (px[..., 0] < w) & (px[..., 1] >= 0) & (px[..., 1] < h)
    covered = mask[np.clip(px[..., 1], 0, h - 1), np.clip(px[..., 0], 0, w - 1)] & inside
    return [p for p, c in zip(geometry.LAND, covered.mean(axis=1), strict=True) if c >= ARM_COVERS]


def _hand(
    rng: np.random.Generator,
    image: np.ndarray,
    centre: np.ndarray,
    radius: float,
    shadow: bool = False,
) -> np.ndarray:
    """A palm of `radius` pixels at `centre`, fingers ahead, the arm back to the nearest edge;
    with `shadow`, the soft shadow it casts on the board beside it. Returns the (h, w) bool
    mask of what it changed: the arm and hand, and where the shadow darkens by a fifth or more."""
    h, w = image.shape[:2]
    skin = np.array([rng.uniform(90, 130), rng.uniform(130, 165), rng.uniform(180, 225)])
    edges = [(centre[0], 0.0), (centre[0], h - 1.0), (0.0, centre[1]), (w - 1.0, centre[1])]
    arm = min(edges, key=lambda e: math.hypot(e[0] - centre[0], e[1] - centre[1]))
    heading = math.atan2(centre[1] - arm[1], centre[0] - arm[0])
    c = (int(centre[0]), int(centre[1]))
    axes = (int(radius), int(radius * 0.85))
    tips = [
        (
            int(centre[0] + 1.6 * radius * math.cos(heading + math.radians(-30 + 20 * k))),
            int(centre[1] + 1.6 * radius * math.sin(heading + math.radians(-30 + 20 * k))),
        )
        for k in range(4)
    ]

    def draw(target: np.ndarray, arm_colour: Any, palm: Any, finger: Any) -> None:
        cv2.line(target, (int(arm[0]), int(arm[1])), c, arm_colour, int(radius * 1.1))
        cv2.ellipse(target, c, axes, math.degrees(heading), 0, 360, palm, -1)
        for tip in tips:  # fingers, spread ahead of the palm
            cv2.line(target, c, tip, finger, max(2, int(radius * 0.28)))

    if shadow:  # the lamp is off to one side: the shadow falls beside the arm, blurred
        mask = np.zeros((h, w), np.float32)
        draw(mask, 1.0, 1.0, 1.0)
        a = rng.uniform(0, 2 * math.pi)
        dx, dy = radius * rng.uniform(0.4, 1.0) * np.array([math.cos(a), math.sin(a)])
        move = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
        soft = cv2.GaussianBlur(cv2.warpAffine(mask, move, (w, h)), (0, 0), radius * 0.25)
        shade = rng.uniform(0.4, 0.65) * np.asarray(soft, np.float32)
        image *= (1 - shade)[..., None]
        covered = shade >= 0.2
    else:
        covered = np.zeros((h, w), bool)
    draw(image, (skin * 0.92).tolist(), skin.tolist(), (skin * 1.03).tolist())
    body = np.zeros((h, w), np.uint8)
    draw(body, 1, 1, 1)
    out: np.ndarray = covered | (body > 0)
    return out


# -- light and sensor ----------------------------------------------------------------------


@dataclass(frozen=True)
class Damage:
    gain: tuple[float, float]
    cast: float
    blur: tuple[float, float]
    noise: tuple[float, float]
    shadow: bool
    glare: float
    hand: float
    parallax: bool


DAMAGE = {
    "normal": Damage((0.75, 1.1), 0.08, (0.3, 1.0), (1.0, 4.0), False, 0.0, 0.0, False),
    "harsh": Damage((0.35, 1.2), 0.25, (0.8, 2.0), (4.0, 12.0), True, 0.3, 0.25, True),
    # not a bench mode: even light and a sharp, quiet sensor, for tests of the drawing itself
    "clean": Damage((1.0, 1.0), 0.0, (0.3, 0.3), (0.0, 0.0), False, 0.0, 0.0, False),
}


@dataclass(frozen=True)
class Conditions:
    """What a real table does to photos beyond `Damage`, each off unless a condition sets it."""

    markers_mm: float = 0.0
    """Markers laid by hand: each up to this far (mm, in x and y) off its printed place, and
    turned so that its corners move up to as far again."""
    lens: tuple[float, float] = (0.0, 0.0)
    """Barrel distortion: the lens's k1 drawn from this range (see `Camera.k1`). With the focal
    length set to the half-diagonal, k1 = −0.14 pulls the frame's corners in by 14 %: about
    as far as the model goes before the corners would need rays from behind the lens."""
    motion_px: tuple[float, float] = (0.0, 0.0)
    """Motion blur: a streak this long (pixels, at 1280 wide) at a random angle."""
    arm: float = 0.0
    """Share of photos with an arm and its shadow over the island."""
    glare: float = 0.0
    """Share of lights with a lamp's reflection over the island, strong enough to clip."""
    sensor: bool = False
    """A Bayer sensor (mosaic, noise, demosaic) with its own white balance and exposure every
    frame, under light of 2700–6500 K."""
    sunk_pieces: bool = False
    """Creatures and boats stand on sunk positions too, not only on the permanent sea."""
    lamp: bool = False
    """A lamp over the table (`Lamp`): the pieces cast soft shadows away from it, and its
    reflection lies where the board mirrors it into the camera (with the share `glare`, over
    the island) instead of a blob at random. It hangs there for the whole game."""
    art: bool = False
    """The board's printed art instead of flat colours (`_tile_art`, `_sea_art`): drawn trees
    with dark outlines and light crowns, rock with shadows and white highlights, sand grains
    and surf, each tile's dark outline and light bevel, the sea's waves and serpents."""
    palette: str = "anniversary"
    """The printing's inks (`PALETTES`), each drawn a little off as ever (`board_colours`)."""


_ALL = Conditions(2.0, (-0.14, -0.04), (2.0, 7.0), 0.5, 0.5, True, True, lamp=True)
CONDITIONS: dict[str, tuple[str, Conditions]] = {
    # condition → (the `Damage` it starts from, what it adds)
    "nominal": ("normal", Conditions()),
    "markers": ("normal", Conditions(markers_mm=2.0)),
    "distortion": ("normal", Conditions(lens=_ALL.lens)),
    "blur": ("normal", Conditions(motion_px=_ALL.motion_px)),
    "arm": ("normal", Conditions(arm=1.0, sunk_pieces=True)),
    "glare": ("normal", Conditions(glare=1.0)),
    "art": ("normal", Conditions(art=True)),
    "art1986": ("normal", Conditions(art=True, palette="1986")),
    "all": ("harsh", _ALL),
}
"""The bench's conditions. Each mode of `MODES` (and ``clean``) is also a condition: its
`Damage` alone."""


def _kind(mode: str) -> tuple[Damage, Conditions]:
    if mode in CONDITIONS:
        base, conditions = CONDITIONS[mode]
        return DAMAGE[base], conditions
    return DAMAGE[mode], Conditions()


@dataclass(frozen=True)
class Lamp:
    """A lamp hanging over the table."""

    position: np.ndarray
    """(x, y, z) in the camera's world (hex units, z = −height)."""
    reflection: float
    """Brightness the glossy print adds where it mirrors the lamp into the camera (levels)."""
    gloss: float
    """How far (radians) the surface's normal may lean off the mirror's before the reflection
    fades to 61 %: a glossy print reflects a small spot, a matt one a broad glow."""
    shade: float
    """Share of the light a piece's shadow takes away: the room's other light fills the rest."""
    penumbra: float
    """The soft edge of a shadow (hex units): the lamp is not a point."""


def random_lamp(
    rng: np.random.Generator, camera: Camera, conditions: Conditions, mm_per_unit: float
) -> Lamp:
    """A lamp 0.8–1.5 m over the table. With the share `conditions.glare` it hangs where the
    board mirrors it into the camera from over the island (a lamp over the table, a camera
    looking down on it); otherwise its reflection falls beyond the printed board."""
    height = rng.uniform(800, 1500) / mm_per_unit
    if rng.uniform() < conditions.glare:
        centre = np.array(geometry.centre(geometry.LAND[int(rng.integers(len(geometry.LAND)))]))
        spot = centre + rng.normal(0, 0.5, 2)
    else:
        a = rng.uniform(0, 2 * math.pi)
        spot = rng.uniform(12, 16) * np.array([math.cos(a), math.sin(a)])
    # the mirror's law: the lamp lies on the camera's ray through the spot, reflected by the
    # table, as far beyond the spot (in proportion) as it hangs higher than the camera
    camera_height = -float(camera.c[2])
    lamp_xy = spot + (spot - camera.c[:2]) * height / camera_height
    return Lamp(
        np.array([lamp_xy[0], lamp_xy[1], -height]),
        float(rng.uniform(120, 220)),
        float(rng.uniform(0.04, 0.09)),
        float(rng.uniform(0.35, 0.6)),
        float(rng.uniform(0.03, 0.08)),
    )


def _reflection(camera: Camera, lamp: Lamp, size: tuple[int, int]) -> np.ndarray:
    """The lamp's reflection on the table's plane (h, w) as the camera sees it: brightest
    where the plane's normal bisects the directions to the camera and to the lamp."""
    w, h = size
    step = 8  # the reflection is smooth: computed on a coarse grid, then resized
    nx, ny = w // step + 2, h // step + 2
    gx, gy = np.meshgrid(np.linspace(0, w - 1, nx), np.linspace(0, h - 1, ny))
    pixels = np.stack([gx, gy, np.ones_like(gx)], axis=-1)
    on_board = pixels @ np.linalg.inv(camera.plane(0.0)).T
    points = np.concatenate(
        [on_board[..., :2] / on_board[..., 2:3], np.zeros((ny, nx, 1))], axis=-1
    )
    to_camera = camera.c - points
    to_lamp = lamp.position - points
    half = to_camera / np.linalg.norm(to_camera, axis=-1, keepdims=True)
    half += to_lamp / np.linalg.norm(to_lamp, axis=-1, keepdims=True)
    lean = np.arccos(np.clip(-half[..., 2] / np.linalg.norm(half, axis=-1), -1.0, 1.0))
    glow = lamp.reflection * np.exp(-0.5 * (lean / lamp.gloss) ** 2)
    return np.asarray(
        cv2.resize(glow.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR), np.float32
    )


def _shadows(
    image: np.ndarray,
    camera: Camera,
    pieces: list[Piece],
    base: dict[int, float],
    lamp: Lamp,
    ppu: float,
) -> np.ndarray:
    """Darken `image` where the pieces stand between `lamp` and the board: each piece's
    shadow runs from its footprint to where the lamp casts its top. Returns the share of the
    lamp's light reaching each pixel (h, w): no reflection in a shadow either."""
    h, w = image.shape[:2]
    cast = np.zeros((h, w), np.float32)
    above = -float(lamp.position[2])
    for p in pieces:
        length, width, height, _ = _PIECES[p.kind]
        foot = _ellipse(p.x, p.y, length, width, p.angle)
        z = base.get(p.on, 0.0)
        reach = (above - z) / (above - z - height)
        tip = lamp.position[:2] + reach * (foot - lamp.position[:2])
        hull = cv2.convexHull(_poly(_on(camera, np.vstack([foot, tip]), z)))
        cv2.fillConvexPoly(cast, hull, 1.0, cv2.LINE_8, 4)
    cast = np.asarray(cv2.GaussianBlur(cast, (0, 0), max(0.5, lamp.penumbra * ppu)), np.float32)
    image *= (1 - lamp.shade * cast)[..., None]
    lit: np.ndarray = 1 - cast
    return lit


def _light(
    rng: np.random.Generator,
    size: tuple[int, int],
    damage: Damage,
    conditions: Conditions,
    params: dict[str, Any],
    view: Scene | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """The room's light over a frame of `size`: a gain per pixel and channel (h, w, 3), and
    the glare it adds (h, w, 3) or None. The same for every frame until people or lamps move.
    With `view`'s lamp, the glare is its reflection, shaded by the pieces' shadows."""
    w, h = size
    lo, hi = damage.gain
    grid = rng.uniform(lo, hi, (3, 3)).astype(np.float32)
    gain = np.clip(cv2.resize(grid, (w, h), interpolation=cv2.INTER_CUBIC), lo, hi)
    cast = rng.uniform(1 - damage.cast, 1 + damage.cast, 3).astype(np.float32)
    if conditions.sensor:  # a lamp's colour: the camera's white balance has to undo it
        kelvin = rng.uniform(2700, 6500)
        cast *= _temperature(kelvin)
        params["kelvin"] = round(float(kelvin))
    if damage.shadow:
        # A hard edge: a lamp behind a head or an arm. Shade is lit by the sky, a little bluer.
        angle = rng.uniform(0, 2 * math.pi)
        px, py = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        far = 4 * (w + h)
        d, n = (
            np.array([math.cos(angle), math.sin(angle)]),
            np.array([-math.sin(angle), math.cos(angle)]),
        )
        p0 = np.array([px, py])
        half = np.array(
            [p0 - far * n, p0 + far * n, p0 + far * n + far * d, p0 - far * n + far * d]
        )
        shade = np.zeros((h, w), np.float32)
        cv2.fillPoly(shade, [_poly(half)], 1.0, cv2.LINE_8, 4)
        shade = np.asarray(cv2.GaussianBlur(shade, (0, 0), rng.uniform(0.5, 2.0)), np.float32)
        depth = rng.uniform(0.45, 0.7)
        lit = gain[..., None] * cast
        shaded = lit * (depth * np.array([1.05, 1.0, 0.95], np.float32))
        light = lit + shade[..., None] * (shaded - lit)
        params["shadow_depth"] = round(float(depth), 3)
    else:
        light = gain[..., None] * cast
    if view is not None and view.lamp is not None:
        reflection = _reflection(view.camera, view.lamp, size)[..., None] * cast
        if view.lit is not None:
            reflection *= view.lit[..., None]
        params["glare"] = round(float(view.lamp.reflection), 1)
        return light, reflection
    glare = None
    strong = bool(conditions.glare) and rng.uniform() < conditions.glare
    if strong or rng.uniform() < damage.glare:
        # a strong one lies over the island and clips the brightest tiles white
        middle = (0.3, 0.7) if strong else (0.2, 0.8)
        gx, gy = rng.uniform(*middle) * w, rng.uniform(*middle) * h
        sigma = rng.uniform(0.06, 0.15) * min(w, h)
        amp = rng.uniform(120, 220) if strong else rng.uniform(50, 130)
        bx = np.exp(-((np.arange(w, dtype=np.float32) - gx) ** 2) / (2 * sigma**2))
        by = np.exp(-((np.arange(h, dtype=np.float32) - gy) ** 2) / (2 * sigma**2))
        # the lamp's own colour, like the light it sheds: the camera's white balance, made
        # for that light, shows its reflection white (a white reflection under a warm lamp
        # would come out blue)
        glare = (amp * np.outer(by, bx)).astype(np.float32)[..., None] * cast
        params["glare"] = round(float(amp), 1)
    return light, glare


def _expose(
    rng: np.random.Generator,
    image: np.ndarray,
    light: tuple[np.ndarray, np.ndarray | None],
    damage: Damage,
    params: dict[str, Any],
    camera: Camera | None = None,
    conditions: Conditions = Conditions(),
    bias: float = 0.0,
) -> tuple[np.ndarray, bytes]:
    """The photo the sensor makes of the scene `image` (float32 BGR, unlit) under `light`:
    the lens, blur, noise and JPEG drawn anew for each frame; `bias` the exposure
    compensation asked of the camera (EV, `Controls`). (Its pixels, its JPEG.)"""
    gain, glare = light
    lit = image * gain
    if glare is not None:
        lit += glare
    if bias and not conditions.sensor:  # without a sensor model the light is the exposure
        lit *= np.float32(2.0**bias)
    if camera is not None and camera.k1:
        lit = _bend(lit, camera)
    if conditions.motion_px != (0.0, 0.0):
        streak = rng.uniform(*conditions.motion_px) * lit.shape[1] / 1280
        lit = _streak(rng, lit, streak)
        params["motion_px"] = round(float(streak), 1)
    sigma = rng.uniform(*damage.blur)
    if conditions != Conditions():
        # the lens's blur is an angle: fewer pixels at a lower resolution (the modes of
        # `DAMAGE` alone keep their pixel figures, which their tests were written against)
        sigma = max(0.3, sigma * lit.shape[1] / 1280)
    blurred = np.asarray(cv2.GaussianBlur(lit, (0, 0), sigma), np.float32)
    noise_sigma = rng.uniform(*damage.noise)
    if conditions.sensor:
        out = _sensor(rng, blurred, noise_sigma, params, bias)
    else:
        noise = np.empty_like(blurred)
        # OpenCV's generator: several times faster than numpy's for a frame; seeded from ours.
        cv2.setRNGSeed(int(rng.integers(2**31)))
        cv2.randn(noise, np.zeros(3), np.full(3, noise_sigma))
        blurred += noise
        out = np.clip(blurred, 0, 255).astype(np.uint8)
    quality = int(rng.integers(60, 96))
    ok, jpeg = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    params.update(blur=round(float(sigma), 2), noise=round(float(noise_sigma), 2), jpeg=quality)
    if bias:
        params["exposure_bias"] = round(float(bias), 2)
    return np.asarray(cv2.imdecode(jpeg, cv2.IMREAD_COLOR)), jpeg.tobytes()


# -- a real table --------------------------------------------------------------------------


def lens(rng: np.random.Generator, camera: Camera, conditions: Conditions) -> Camera:
    """`camera` with a lens drawn from the conditions (unchanged, no draw, without one)."""
    if conditions.lens == (0.0, 0.0):
        return camera
    return dataclasses.replace(camera, k1=float(rng.uniform(*conditions.lens)))


def hand_laid(
    rng: np.random.Generator, layout: MarkerLayout, conditions: Conditions
) -> tuple[MarkerLayout, dict[int, float]]:
    """Where a person cutting out the printed markers lays them: each a little off its place
    and turned (the turns, radians, per id). Unchanged, no draw, when laid exactly."""
    if not conditions.markers_mm:
        return layout, {}
    off = conditions.markers_mm / layout.scale_mm_per_unit
    markers, turns = [], {}
    for m in layout.markers:
        dx, dy = rng.uniform(-off, off, 2)
        markers.append(dataclasses.replace(m, x=m.x + float(dx), y=m.y + float(dy)))
        # a corner (half a diagonal from the centre) moves up to `off` as it turns
        turns[m.id] = float(rng.uniform(-1, 1)) * off / (m.size / math.sqrt(2))
    return dataclasses.replace(layout, markers=tuple(markers)), turns


def lens_model(camera: Camera, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The lens of `camera` in OpenCV's terms for a frame of `size`: the camera matrix (focal
    length the half-diagonal, centre the frame's) and the distortion coefficients."""
    w, h = size
    f = math.hypot(w, h) / 2
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    return k, np.array([camera.k1, 0.0, 0.0, 0.0, 0.0])


def _bend(image: np.ndarray, camera: Camera) -> np.ndarray:
    """The image through the lens: each output pixel reads the ideal image where the lens
    bent its ray from."""
    h, w = image.shape[:2]
    k, dist = lens_model(camera, (w, h))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    pts = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    ideal = cv2.undistortPoints(pts, k, dist, P=k).reshape(h, w, 2)
    return np.asarray(
        # beyond the rendered frame lies more table: its mirror image stands in for it
        cv2.remap(
            image, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR, None, cv2.BORDER_REFLECT_101
        )
    )


def _streak(rng: np.random.Generator, image: np.ndarray, length: float) -> np.ndarray:
    """Motion blur: the image smeared along a line `length` pixels long at a random angle."""
    n = max(3, math.ceil(length) | 1)
    kernel = np.zeros((n, n), np.float32)
    a = rng.uniform(0, math.pi)
    c = (n - 1) / 2
    d = (length - 1) / 2
    cv2.line(
        kernel,
        (round(16 * (c - d * math.cos(a))), round(16 * (c - d * math.sin(a)))),
        (round(16 * (c + d * math.cos(a))), round(16 * (c + d * math.sin(a)))),
        1.0,
        1,
        cv2.LINE_AA,
        4,
    )
    kernel /= kernel.sum()
    return np.asarray(cv2.filter2D(image, -1, kernel))


def _temperature(kelvin: float) -> np.ndarray:
    """BGR of a lamp at `kelvin`, white at 6500 K (a fit of the black body's chromaticity
    good to a few per cent over 2700–6500 K)."""
    t = kelvin / 100
    red = 1.0
    green = (99.47 * math.log(t) - 161.12) / 255
    blue = (138.52 * math.log(t - 10) - 305.04) / 255
    at6500 = np.array([0.9987, 0.9741, 0.9953])  # the same formulas at 6500 K (b, g, r)
    return (np.array([blue, green, red]) / at6500).astype(np.float32)


def _sensor(
    rng: np.random.Generator,
    lit: np.ndarray,
    noise_sigma: float,
    params: dict[str, Any],
    bias: float = 0.0,
) -> np.ndarray:
    """A Bayer sensor: one colour per pixel (BGGR), noise that grows with the light, the
    camera's own white balance (grey world) and exposure for this frame, then demosaicing.
    `bias` is the exposure compensation asked of the camera (`Controls`): its auto exposure
    meters as ever, then exposes 2**bias times that."""
    h, w = lit.shape[:2]
    raw = np.empty((h, w), np.float32)
    raw[0::2, 0::2] = lit[0::2, 0::2, 0]  # blue
    raw[0::2, 1::2] = lit[0::2, 1::2, 1]
    raw[1::2, 0::2] = lit[1::2, 0::2, 1]
    raw[1::2, 1::2] = lit[1::2, 1::2, 2]  # red
    # auto white balance (grey world over the frame) and auto exposure, every frame anew
    means = [raw[0::2, 0::2].mean(), (raw[0::2, 1::2].mean() + raw[1::2, 0::2].mean()) / 2]
    means.append(raw[1::2, 1::2].mean())
    grey = float(np.mean(means))
    gains = [grey / max(m, 1.0) for m in means]
    exposure = 110 * rng.uniform(0.85, 1.15) / max(grey, 1.0) * 2.0**bias
    # noise as the finished photo shows it (the damage's figure), part of it growing with the
    # light (shot noise), before the exposure's gain: a shorter exposure keeps the same noise
    # on less signal
    shot = np.sqrt(np.maximum(raw * exposure, 0.0)) * 0.4
    sigma = (shot + noise_sigma) / exposure
    raw += rng.standard_normal(raw.shape).astype(np.float32) * sigma
    raw[0::2, 0::2] *= gains[0] * exposure
    raw[0::2, 1::2] *= gains[1] * exposure
    raw[1::2, 0::2] *= gains[1] * exposure
    raw[1::2, 1::2] *= gains[2] * exposure
    mosaic = np.clip(raw, 0, 255).astype(np.uint8)
    params["exposure"] = round(float(exposure), 3)
    # OpenCV names the pattern by the 2x2 block starting at pixel (1, 1): RG here
    return np.asarray(cv2.cvtColor(mosaic, cv2.COLOR_BayerRG2BGR))


# -- a whole photo -------------------------------------------------------------------------


def board_colours(rng: np.random.Generator, palette: str = "anniversary") -> dict[str, np.ndarray]:
    """One printing of the board: the `palette`'s colours (`PALETTES`), each a little off
    (print runs, paper)."""
    return {
        k: np.array(v, np.float32) * rng.uniform(0.94, 1.06, 3).astype(np.float32)
        for k, v in PALETTES[palette].items()
    }


@dataclass
class Scene:
    """The board as it lies at one moment, seen by one camera, before the light and the sensor:
    photos of it differ only in what `photo` draws anew (light, hand, noise)."""

    image: np.ndarray
    """float32 BGR, unlit."""
    camera: Camera
    mode: str
    truth: Truth
    lamp: Lamp | None = None
    lit: np.ndarray | None = None
    """With a lamp: the share of its light reaching each pixel (h, w), the pieces' shadows."""


def scene(
    rng: np.random.Generator,
    positions: dict[int, str],
    pieces: list[Piece],
    size: tuple[int, int] = (1280, 960),
    mode: str = "normal",
    layout: MarkerLayout | None = None,
    colours: dict[str, np.ndarray] | None = None,
    camera: Camera | None = None,
    laid: tuple[MarkerLayout, dict[int, float]] | None = None,
    lamp: Lamp | None = None,
) -> Scene:
    """The board in `positions` with `pieces` on it, from `camera` (default: a random pose), a
    hand resting on one marker as often as the mode says; under `lamp` (default: a random one
    where the conditions hang one), the pieces' shadows."""
    layout = layout or load_markers()
    damage, conditions = _kind(mode)
    colours = colours or board_colours(rng, conditions.palette)
    camera = camera or lens(rng, random_camera(rng, size, layout.extent()), conditions)
    laid = laid or hand_laid(rng, layout, conditions)
    # Pixels per hex unit at the board's centre: the scale of the printed texture.
    ppu = (
        float(np.linalg.norm(_on(camera, np.array([[0.5, 0.0]])) - _on(camera, np.zeros((1, 2)))))
        * 2
    )
    heights = {
        t: (THICKNESS_MM[t] / layout.scale_mm_per_unit if damage.parallax else 0.0)
        for t in TERRAINS
    }
    labels, outlines = _paint(rng, camera, size, positions, heights, ppu, conditions.art)
    image = _colour(rng, labels, colours, ppu)
    _draw_markers(image, camera, *laid)
    base = {hx: heights[positions[hx]] for hx in outlines}
    if conditions.lamp and lamp is None:
        lamp = random_lamp(rng, camera, conditions, layout.scale_mm_per_unit)
    lit = _shadows(image, camera, pieces, base, lamp, ppu) if lamp is not None else None
    _draw_pieces(image, camera, pieces, base)
    params: dict[str, Any] = {
        "tilt": round(camera.tilt, 1),
        "size": list(size),
        "k1": round(camera.k1, 3),
        "occupied": sorted({board.name(p.on) for p in pieces}),
    }
    hidden = None
    if rng.uniform() < damage.hand:
        marker = layout.markers[int(rng.integers(len(layout.markers)))]
        _draw_hand(rng, image, camera, marker, layout.quiet_zone(marker))
        hidden = marker.id
    truth = Truth(dict(positions), camera.plane(0.0).tolist(), hidden, mode, params)
    return Scene(image, camera, mode, truth, lamp, lit)


def photo(
    rng: np.random.Generator,
    scene: Scene,
    light: tuple[np.ndarray, np.ndarray | None],
    arm_over: int | None = None,
    still: bool = False,
    controls: Controls | None = None,
) -> Shot:
    """One photo of `scene` under `light` (`lighting`), with new blur, noise and JPEG; with
    `arm_over`, a hand over that hex (the truth's params say ``hand``); with `still`, no arm
    whatever the conditions say; exposed as `controls` ask at the moment it is taken."""
    params = dict(scene.truth.params)
    image = scene.image
    damage, conditions = _kind(scene.mode)
    if arm_over is None and not still and conditions.arm and rng.uniform() < conditions.arm:
        arm_over = geometry.LAND[int(rng.integers(len(geometry.LAND)))]
    if arm_over is not None:
        image = image.copy()
        covered = _draw_arm(rng, image, scene.camera, arm_over)
        params["hand"] = board.name(arm_over)
        params["under_arm"] = [board.name(h) for h in covered]
    bias = controls.exposure_bias if controls is not None else 0.0
    out, jpeg = _expose(rng, image, light, damage, params, scene.camera, conditions, bias)
    t = scene.truth
    truth = Truth(dict(t.positions), t.homography, t.hidden_marker, t.mode, params)
    return Shot(out, truth, jpeg=jpeg)


def lighting(
    rng: np.random.Generator,
    size: tuple[int, int],
    mode: str,
    params: dict[str, Any],
    view: Scene | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """A new light over the table for photos of `size` (noted in `params`), with the
    reflection of `view`'s lamp if it has one."""
    return _light(rng, size, *_kind(mode), params, view)


def render(
    rng: np.random.Generator,
    positions: dict[int, str],
    pieces: list[Piece],
    size: tuple[int, int] = (1280, 960),
    mode: str = "normal",
    layout: MarkerLayout | None = None,
    colours: dict[str, np.ndarray] | None = None,
) -> Shot:
    """One photo of the board in `positions` with `pieces` on it, from a random pose and light."""
    view = scene(rng, positions, pieces, size, mode, layout, colours)
    return photo(rng, view, lighting(rng, size, mode, view.truth.params, view))


@dataclass
class Island:
    """One island as laid on one board and seen by a table through a game: a setup photo and
    photos of later states."""

    layout: dict[int, str]
    colours: dict[str, np.ndarray]
    setup: Shot
    shots: list[Shot]
    retake: Callable[[], Shot] | None = None
    """Another setup photo of the same table (markers, lens), as people take one when the
    first is refused."""


def islands(
    seed: int,
    count: int,
    mode: str = "normal",
    size: tuple[int, int] = (1280, 960),
    per_island: int = 10,
    layout: MarkerLayout | None = None,
    first: int = 0,
) -> Iterator[Island]:
    """`count` photos, `per_island` of each island: each island a new board printing and
    layout, a setup photo with all 40 tiles, then random states of the game. Deterministic
    in `seed`; from island number `first` on (each island is drawn from the seed and its
    number alone, so one of a long series is rendered without those before it)."""
    layout = layout or load_markers()
    made = 0
    n = first
    while made < count:
        rng = np.random.default_rng([seed, n])
        n += 1
        tiles = random_layout(rng)
        _, conditions = _kind(mode)
        colours = board_colours(rng, conditions.palette)
        table = _Table(
            rng,
            size,
            mode,
            layout,
            colours,
            hand_laid(rng, layout, conditions),  # laid once for a table, then left alone
            lens(rng, Camera(np.eye(3), np.eye(3), np.zeros(3), 0.0), conditions).k1,
        )
        setup = table.shoot(tiles)
        shots = []
        for _ in range(min(per_island, count - made)):
            shots.append(table.shoot(sink(rng, tiles, int(rng.integers(0, 41)))))
        made += len(shots)
        yield Island(tiles, colours, setup, shots, functools.partial(table.shoot, tiles))


@dataclass(frozen=True)
class _Table:
    """One table of `islands`: its printing, its markers as laid and its camera's lens; the
    camera moves from photo to photo, the lens stays the same."""

    rng: np.random.Generator
    size: tuple[int, int]
    mode: str
    layout: MarkerLayout
    colours: dict[str, np.ndarray]
    laid: tuple[MarkerLayout, dict[int, float]]
    k1: float

    def shoot(self, state: dict[int, str]) -> Shot:
        rng, size, mode = self.rng, self.size, self.mode
        sunk = _kind(mode)[1].sunk_pieces
        pieces = random_pieces(rng, state, creatures_on_positions=sunk)
        camera = random_camera(rng, size, self.layout.extent())
        camera = dataclasses.replace(camera, k1=self.k1)
        view = scene(rng, state, pieces, size, mode, self.layout, self.colours, camera, self.laid)
        light = lighting(rng, size, mode, view.truth.params, view)
        shot = photo(rng, view, light)
        if "hand" in shot.truth.params:
            shot.before = photo(rng, view, light, still=True).image
        return shot


def legal_sinks(positions: dict[int, str]) -> list[int]:
    """The positions whose tile may sink next (B-20, B-21), as the engine decides it."""
    state = State(for_players(Rules(("base",), {}), 2), 2, seed=0, mode="physical")
    for h, terrain in positions.items():
        state.terrain[h] = None if terrain == "sea" else terrain
    state.reindex()  # the island's counts by terrain, which B-20's question reads
    return candidates(state) if current_terrain(state) else []


def game(
    seed: int,
    mode: str = "normal",
    size: tuple[int, int] = (1280, 960),
    frames_per_turn: int = 1,
    layout: MarkerLayout | None = None,
    hand_frames: int = 0,
    controls: Controls | None = None,
) -> Iterator[tuple[int | None, dict[int, str], Shot]]:
    """One game's photos turn by turn, for the turn tracker: (the hex whose tile sank this
    turn, or None for the setup photos; the board now; a photo).

    The camera stays where it was put for the whole game. Each turn one tile sinks, chosen at
    random among those the rules allow (`legal_sinks`); then `hand_frames` photos show a hand
    over the board (lifting the tile), and `frames_per_turn` photos the board at rest. The
    pieces and the light change from turn to turn (people move, and so do their shadows); the
    photos of one turn differ only in the hand, blur, noise and JPEG. Deterministic in `seed`
    and in what `controls` are set to as the photos are taken (the pipeline's exposure
    control sets them between photos; untouched, the camera exposes as its auto exposure
    meters).
    """
    layout = layout or load_markers()
    rng = np.random.default_rng([seed, 1_000_003])
    tiles = random_layout(rng)
    _, conditions = _kind(mode)
    colours = board_colours(rng, conditions.palette)
    camera = lens(rng, random_camera(rng, size, layout.extent()), conditions)
    laid = hand_laid(rng, layout, conditions)
    # the lamp hangs where it hangs for the whole game, as the camera stands
    lamp = (
        random_lamp(rng, camera, conditions, layout.scale_mm_per_unit) if conditions.lamp else None
    )
    state = dict(tiles)
    sunk: int | None = None
    while True:
        pieces = random_pieces(rng, state, creatures_on_positions=conditions.sunk_pieces)
        view = scene(rng, state, pieces, size, mode, layout, colours, camera, laid, lamp)
        light = lighting(rng, size, mode, view.truth.params, view)
        if sunk is not None:
            for _ in range(hand_frames):
                yield sunk, dict(state), photo(rng, view, light, sunk, controls=controls)
        for _ in range(frames_per_turn):  # at rest: the arms of the conditions are the hands'
            yield sunk, dict(state), photo(rng, view, light, still=True, controls=controls)
        legal = legal_sinks(state)
        if not legal:
            return
        sunk = legal[int(rng.integers(len(legal)))]
        state[sunk] = "sea"
