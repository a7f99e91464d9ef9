"""The only types that cross between the edges (phones, buttons, camera, CLI) and the Table.

A `Command` asks for something: an engine action, or a table intent (``roll``, ``next``, ``undo``,
``correct``, ``new_game``, ...) that the Table turns into an action for the current step. The
sender gets a `Reply`; everyone listening gets `Event`s, each projected for its viewer.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any

SOURCES = ("phone", "gpio", "serial", "sim", "camera", "cli", "table", "bot")
INTENTS = (
    "new_game",  # args: players [{name, colour, bot?}], modules, options, seed, mode, layout
    "roll",  # the creature die, drawn by the companion
    "draw",  # any table decision (a tile back, a terrain) drawn by the companion
    "next",  # go on: end movement, keep no tile, stop or leave the creature
    "undo",  # take back the current player's last move of this turn
    "correct",  # args: seq, action — a fact mis-entered (a die face, a tile back)
    "sync",  # the camera only — args: disagree, the hexes where the board differs from the game
    "status",  # the camera only — args: status, how it is (watching, error, ...)
    "confirm_proposal",
    "reject_proposal",
)
SPECTATOR = "spectator"
REFEREE = "referee"


@dataclass(frozen=True)
class Command:
    source: str
    seat: int | None = None
    """The sender's seat (0-based); None for the table itself, the referee or a spectator."""
    request_id: str = ""
    game: int | None = None
    """The game asked about; None means the table's current game."""
    action: list[Any] | None = None
    intent: str | None = None
    args: dict[str, Any] = field(default_factory=dict)
    view: int | str | None = None
    """Whom the reply is written for (a seat, SPECTATOR or REFEREE): the Table projects its
    events and sentence for that view. None: the seat's own, or the referee's for a command
    without a seat (the table itself)."""
    at: int | None = None
    """The game's version (`Table` snapshot's ``version``) the sender saw when it decided: a
    command made on another board is refused as stale. None: not checked (buttons, tools)."""
    expires: float | None = None
    """The table's clock time (epoch seconds) after which the sender no longer waits for it:
    arriving later (the table was frozen, the queue long) it is refused as stale, never
    carried out unseen. None: no limit."""

    def __post_init__(self) -> None:
        if self.source not in SOURCES:
            raise ValueError(
                f"unknown command source {self.source!r}; sources: {', '.join(SOURCES)}"
            )
        if (self.action is None) == (self.intent is None):
            raise ValueError("a command carries either an action or an intent")
        if self.intent is not None and self.intent not in INTENTS:
            raise ValueError(f"unknown intent {self.intent!r}; intents: {', '.join(INTENTS)}")


@dataclass(frozen=True, slots=True)  # slots: a frozen reply is made in half the time
class Reply:
    """To the sender only: accepted (with the stored action's number) or refused (with why)."""

    request_id: str
    accepted: bool
    game: int | None = None
    seq: int | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    rule: str | None = None
    message: str = ""
    stale: bool = False
    """Refused because it was made on a board that has changed since (`Command.at`,
    ``expires``): no rule was broken, the sender shows the board as it is now."""
    key: str | None = None
    """A refusal as data, with `params` (seats, pieces, hexes by their ids): a page words it in
    its own language (`message` is English, for logs and the command line)."""
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        # The fields as they are (read them, never change them): asdict's deep copy of every
        # event cost a tenth of a command's time on the Table's thread, which keeps each reply.
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Event:
    """Something that happened in a game, as one viewer may see it."""

    game: int
    seq: int
    kind: str
    data: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def whole(self) -> bool:
        """Is `data` the viewer's whole snapshot (a ``state``, an ``undone``...)?"""
        return "_before" in self.__dict__

    @property
    def before(self) -> int | None:
        """For a `whole` event, the id of the same view's whole snapshot told just before it
        (None: none was): a stream that sent that one may send this one as what changed
        since (`web.stream`)."""
        before: int | None = self.__dict__.get("_before")
        return before

    @classmethod
    def whole_after(
        cls, game: int, seq: int, kind: str, data: dict[str, Any], before: int | None
    ) -> Event:
        """A `whole` event, told after the event `before` (an attribute, not a field: an Event
        stays frozen and equal to another with the same fields). Its attributes are written at
        once: the frozen dataclass's `__init__` sets each through `object.__setattr__`, and a
        command makes one of these for every view (it cost as much as the rest of the telling)."""
        event = object.__new__(cls)
        event.__dict__.update(game=game, seq=seq, kind=kind, data=data, _before=before)
        return event
