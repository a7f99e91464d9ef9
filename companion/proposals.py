"""What the camera proposes to a game, held beside it in the Table's memory: a sunk tile or an
island's layout waiting for a player's tap, and a board that disagrees with the game. None of it
is a game action, so none of it is stored: after a restart the camera says it again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import engine


@dataclass(frozen=True)
class Proposal:
    """What the camera saw, waiting for a player's tap: never an action by itself. Either a tile
    that left the island (several choices make it a question: "beach at 5.2 sunk?" or one of
    the others), or the terrain of every position of an island being laid."""

    id: int
    at: int
    """The last action in force when the camera proposed it: once the game moves on, it is stale."""
    choices: tuple[int, ...] = ()
    """The hexes whose tile may have left, best first."""
    confidence: float = 0.0
    layout: dict[int, str] | None = None
    """The island as the camera read it: each position still to lay → its terrain."""
    doubtful: tuple[int, ...] = ()
    """Positions of the layout the camera is least sure of."""

    @property
    def what(self) -> tuple[Any, ...]:
        return self.choices, tuple(sorted((self.layout or {}).items()))

    def to_json(self) -> dict[str, Any]:
        name = engine.board.name
        return {
            "id": self.id,
            "kind": "sink" if self.layout is None else "layout",
            "question": len(self.choices) > 1,
            "choices": [{"hex": h, "name": name(h)} for h in self.choices],
            "confidence": round(self.confidence, 3),
            "layout": None if self.layout is None else {name(h): t for h, t in self.layout.items()},
            "doubtful": [name(h) for h in self.doubtful],
        }


@dataclass
class CameraWatch:
    """What the camera says of one game, held in memory only: a restart loses it harmlessly (the
    camera says it again)."""

    proposal: Proposal | None = None
    out_of_sync: tuple[int, ...] = ()
    """Hexes where the board and the game disagree; the phones show them until resolved."""
    sync_id: int = 0
    ignored: tuple[int, ...] = ()
    """A disagreement the players chose to ignore: not shown again until the board changes."""
    rejected: tuple[int, tuple[Any, ...]] | None = None
    """(at, what) of a proposal the players turned down: not proposed again as it was."""
    ids: int = 0
