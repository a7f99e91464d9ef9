"""What happened: the events an action causes, and what each viewer may learn of them (spec §9).

An event has public data and, for a few kinds, a secret part (a person's value, the back of a red
tile kept in hand). The secret reaches the referee always, and one seat when that seat may know
it; everyone else gets the public part only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

REFEREE = "referee"
"""The view that sees everything."""

View = int | str | None
"""A seat (0-based), ``None`` for a spectator, or `REFEREE`."""


@dataclass(slots=True)
class Event:
    """One thing that happened. Not a frozen dataclass: its data is a dict anyway (an event was
    never hashable), and a frozen one costs three times as much to build, for every event of
    every game."""

    kind: str
    data: dict[str, Any]
    secret: dict[str, Any] = field(default_factory=dict)
    seen_by: int | None = None
    """The one seat that may see `secret` besides the referee (None: only the referee)."""

    def project(self, view: View) -> dict[str, Any]:
        """This event as `view` may see it."""
        out = {"kind": self.kind, **self.data}
        if self.secret and (view == REFEREE or (view is not None and view == self.seen_by)):
            out.update(self.secret)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "data": self.data,
            "secret": self.secret,
            "seen_by": self.seen_by,
        }
