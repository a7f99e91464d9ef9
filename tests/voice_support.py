"""One example of every kind of announcement the table's voice makes (companion.voice.words),
as the events a spectator receives: for the tests that speak them and measure them."""

from __future__ import annotations

from typing import Any

from companion.voice.words import Announcement, Narrator

PLAYERS = [
    {"name": "Ana", "colour": "red", "seat": 0},
    {"name": "Bruno", "colour": "blue", "seat": 1},
    {"name": "Chloé", "colour": "green", "seat": 2},
]


def snapshot(
    kind: str = "survive", modules: tuple[str, ...] = ("base",), tiles: int = 31
) -> dict[str, Any]:
    state = {"rules": {"modules": list(modules)}, "tiles": {f"t{i}": "beach" for i in range(tiles)}}
    return {"game": 1, "kind": kind, "players": PLAYERS, "seq": 0, "state": state}


RESULT = {
    "winners": [2],
    "ranking": [
        {"seat": 2, "place": 1, "points": 14, "saved": 5, "turns": 9},
        {"seat": 0, "place": 2, "points": 9, "saved": 3, "turns": 9},
    ],
}
SHARED = {**RESULT, "winners": [2, 0], "ranking": [{**r, "points": 14} for r in RESULT["ranking"]]}
FLOTILLA_RESULT = {"winners": [1], "ranking": [{"seat": 1, "place": 1, "total": 21}]}

# announcement kind -> (the game's snapshot, the event's kind, its data)
SAMPLES: dict[str, tuple[dict[str, Any], str, dict[str, Any]]] = {
    "turn": (snapshot(), "turn", {"seat": 0}),
    "rolled": (snapshot(), "rolled", {"seat": 0, "face": "shark"}),
    "dived": (
        snapshot(modules=("base", "dive-dice")),
        "dived",
        {"seat": 1, "kind": "whale", "distance": "2"},
    ),
    "spun": (
        snapshot(modules=("escape-1986",)),
        "spun",
        {"seat": 0, "kind": "shark", "move": "2", "may_move": []},
    ),
    "whirlpool": (
        snapshot(),
        "whirlpool",
        {"hex": "6.4", "people": [], "boats": [], "creatures": []},
    ),
    "wrecked": (
        snapshot(),
        "wrecked",
        {"boat": "b3", "hex": "5.2", "by": "whale", "people": ["A1", "B2"]},
    ),
    "wrecked_of": (
        snapshot(),
        "wrecked",
        {"boat": "b3", "hex": "5.2", "by": "whale", "people": ["B1", "B2"]},
    ),
    "sunk_boat": (snapshot(), "sunk_boat", {"boat": "b4", "hex": "5.2", "people": ["A1", "C2"]}),
    "sunk_boat_of": (snapshot(), "sunk_boat", {"boat": "b4", "hex": "5.2", "people": ["C1"]}),
    "eaten": (snapshot(), "eaten", {"hex": "4.4", "by": "shark", "people": ["A3"]}),
    "saved": (snapshot(), "saved", {"person": "C4", "island": "NE"}),
    "creature_placed": (snapshot(), "creature_placed", {"creature": "whale2", "hex": "6.4"}),
    "sunk": (
        snapshot(tiles=12),
        "sunk",
        {"seat": 0, "hex": "6.4", "terrain": "forest", "people": []},
    ),
    "tiles_left": (
        snapshot(tiles=4),
        "sunk",
        {"seat": 0, "hex": "6.4", "terrain": "beach", "people": []},
    ),
    "game_over": (snapshot(), "game_over", {"seat": 1, "lost": []}),
    "winner": (snapshot(), "result", RESULT),
    "winners": (snapshot(), "result", SHARED),
    "end_triggered": (snapshot("flotilla"), "end_triggered", {"seat": 0, "turns_left": [1, 2]}),
    "undone": (snapshot(), "undone", {**snapshot(), "action": "move A1 5.2"}),
    "corrected": (
        snapshot(),
        "corrected",
        {**snapshot(), "was": "roll shark", "now": "roll whale", "dropped": []},
    ),
}


def sample(kind: str, lang: str) -> Announcement:
    """The announcement of `kind` in `lang`, made from its sample event."""
    shot, event, data = SAMPLES[kind]
    narrator = Narrator(lang)
    narrator.learn(shot)
    said = [a for a in narrator.narrate(event, data, 1) if a.kind == kind]
    assert len(said) == 1, (kind, lang, narrator.narrate(event, data, 1))
    return said[0]
