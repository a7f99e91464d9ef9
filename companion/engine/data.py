"""The box's contents as data: tile backs, the creature die, people and pieces (``data/*.json``).

Each file carries a ``source`` and whether it is verified, so the phone can say which numbers
are not (spec: unknown facts are not invented).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Final


def _load(name: str) -> dict[str, Any]:
    text = resources.files(__package__).joinpath(f"data/{name}.json").read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DECK_DATA = _load("deck")
DIE_DATA = _load("die")
BOX_DATA = _load("box")
DIVE_DATA = _load("dive_dice")
SPINNER_DATA = _load("spinner")
BACKS_1986_DATA = _load("backs_1986")

TERRAINS: Final[tuple[str, ...]] = ("beach", "forest", "mountain")
"""In the order they sink (B-20)."""

BACKS: tuple[str, ...] = tuple(DECK_DATA["backs"])
GREEN: frozenset[str] = frozenset(
    k for k, v in DECK_DATA["backs"].items() if v["border"] == "green"
)
RED: Final[frozenset[str]] = frozenset(BACKS) - GREEN
TURN_TILES: Final[frozenset[str]] = frozenset(
    k for k, v in DECK_DATA["backs"].items() if v.get("use") == "turn"
)
DEFENCE_TILES: frozenset[str] = frozenset(
    k for k, v in DECK_DATA["backs"].items() if v.get("use") == "defence"
)
DECK: Final[dict[str, dict[str, int]]] = {
    t: {k: v[t] for k, v in DECK_DATA["backs"].items() if v[t]} for t in TERRAINS
}
"""terrain -> back -> how many tiles of that terrain have that back."""
TERRAIN_COUNT: Final[dict[str, int]] = dict(DECK_DATA["terrains"])

DIE_FACES: tuple[str, ...] = tuple(DIE_DATA["faces"])
DIVE_KINDS: tuple[str, ...] = tuple(DIVE_DATA["kind_faces"])
DIVE_DISTANCES: tuple[str, ...] = tuple(DIVE_DATA["distance_faces"])
WILD: Final = "starfish"
"""Die 1's wild face: any one of the five things the die can name (D-3)."""
PEOPLE_VALUES: tuple[int, ...] = tuple(BOX_DATA["people_values"])
PIECES: Final[dict[str, int]] = dict(BOX_DATA["pieces"])
BOATS_PER_PLAYER: int = BOX_DATA["boats_per_player"]
COLOURS: tuple[str, ...] = tuple(BOX_DATA["colours"])

SPIN_KINDS: tuple[str, ...] = ("serpent", "shark", "whale", "dolphin")
"""What the 1986 spinner names (E-1): sea monsters are the serpent pieces."""
SPIN_MOVES: tuple[str, ...] = ("1", "2", "3", "dive")
SPINNER_SECTORS: dict[str, dict[tuple[str, str], int]] = {
    name: {(s["kind"], s["move"]): s["weight"] for s in data["sectors"]}
    for name, data in SPINNER_DATA["sets"].items()
}
"""Option spinner_sectors -> (creature, move) -> how many sectors of the spinner show it."""

NOTHING = "nothing"
"""E-4: a 1986 tile back that brings nothing into the tile's place."""
BACKS_1986: dict[str, dict[str, int]] = {
    name: dict(data["backs"]) for name, data in BACKS_1986_DATA["sets"].items()
}
"""Option backs_1986 -> back -> how many of the 40 tiles show it (E-4)."""
VOLCANO_TERRAIN_1986: dict[str, str] = {
    name: data["volcano_terrain"] for name, data in BACKS_1986_DATA["sets"].items()
}
"""Option backs_1986 -> the terrain the volcano lies under (E-5)."""

STEPS: Final = {"serpent": 1, "shark": 2, "whale": 3}
"""How far each creature may move on the red die (B-24, B-25, B-26)."""

UNVERIFIED: dict[str, str] = {
    name: data["source"]
    for name, data in (
        ("deck", DECK_DATA),
        ("die", DIE_DATA),
        ("box", BOX_DATA),
        ("dive_dice", DIVE_DATA),
        ("spinner", SPINNER_DATA),
        ("backs_1986", BACKS_1986_DATA),
    )
    if not data["verified"]
}
"""Data the sources do not settle, with where each number comes from."""
