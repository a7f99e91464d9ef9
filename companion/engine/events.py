"""What happened: the events an action causes, and what each viewer may learn of them (spec §9).

An event has public data and, for a few kinds, a secret part (a person's value, the back of a red
tile kept in hand). The secret reaches the referee always, and one seat when that seat may know
it; everyone else gets the public part only.
"""

from __future__ import annotations

from typing import Any

REFEREE = "referee"
"""The view that sees everything."""

View = int | str | None
"""A seat (0-based), ``None`` for a spectator, or `REFEREE`."""


class Event:
    """One thing that happened. A plain class rather than a dataclass: compiled by mypyc, a
    dataclass's generated __init__ still ran as Python (a tenth of a compiled game's cost, for
    events a playout never reads); its data is a dict, so an event was never hashable anyway."""

    __slots__ = ("kind", "data", "secret", "seen_by")

    def __init__(
        self,
        kind: str,
        data: dict[str, Any],
        secret: dict[str, Any] | None = None,
        seen_by: int | None = None,
    ) -> None:
        self.kind = kind
        self.data = data
        self.secret: dict[str, Any] = {} if secret is None else secret
        self.seen_by = seen_by
        """The one seat that may see `secret` besides the referee (None: only the referee)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Event) and self.to_json() == other.to_json()

    def __repr__(self) -> str:
        return (
            f"Event(kind={self.kind!r}, data={self.data!r}, secret={self.secret!r}, "
            f"seen_by={self.seen_by!r})"
        )

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


Events = list[Event] | None
"""Where a rule puts the events it causes: a list, or None when nobody listens (a random
playout's or a bot's look-ahead game, `Game.listen` off), and then no event is built at all."""
