"""What both panels show of the game: the colour of the player whose turn it is on the RGB LED,
a beep when the die is cast, and two when a bot's move waits to be made on the board. The GPIO panel and the Pico on USB differ only in how they
light and sound (`show`, `beep`); what to show, and when, is decided here once.

The LED follows the events the panel subscribes to: a fresh state after every command (the
spectator's snapshot the Table tells everyone), a new game, an undo or a correction, the turn
passing, the game's end. The Table is asked for a snapshot only at start and after a panel
(re)connects.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..commands import SPECTATOR, Event
from ..table import Refused, Table

LED_COLOURS: dict[str, tuple[float, float, float]] = {
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    # An RGB LED's green outshines its red, so the mixed colours carry less green than CSS's.
    "yellow": (1.0, 0.6, 0.0),
    "orange": (1.0, 0.25, 0.0),
    "white": (1.0, 1.0, 1.0),
    "purple": (0.6, 0.0, 1.0),
}
SEAT_COLOURS = ("red", "blue", "green", "yellow", "orange", "white")
"""The colour shown for a seat whose player chose none (or one no LED can show)."""
OFF = (0.0, 0.0, 0.0)


def led_colour(name: Any, seat: int) -> tuple[float, float, float]:
    """The RGB LED's colour for a player's colour name; the seat's default if it has none."""
    if isinstance(name, str) and name.strip():
        key = name.strip().lower()
        if key in LED_COLOURS:
            return LED_COLOURS[key]
        try:
            # gpiozero's own dependency, which knows every CSS colour name (and has no types).
            from colorzero import Color  # type: ignore[import-untyped]

            red, green, blue = Color(key).rgb
            if (red, green, blue) != OFF:  # black would look like no game at all
                return (float(red), float(green), float(blue))
        except ValueError:
            pass
    return LED_COLOURS[SEAT_COLOURS[seat % len(SEAT_COLOURS)]]


def whose_colour(table: Table) -> tuple[list[dict[str, Any]], int | None] | None:
    """The current game's players and the seat whose colour a panel shows now (no game: no
    seat); None when the Table cannot say just now. Both panels light up from this."""
    try:
        if table.read(lambda: table.current, 5.0) is None:
            return [], None
        snapshot = table.snapshot(None, SPECTATOR)
    except (Refused, TimeoutError):
        return None
    return list(snapshot["players"]), current_seat(snapshot["state"])


def current_seat(state: dict[str, Any]) -> int | None:
    """The seat whose colour the LED shows: the player whose turn it is; during setup, the
    player placing; nobody while the island is laid or once the game is over."""
    phase = state.get("phase")
    if phase in ("terrain", "reveal", "over"):
        return None
    if phase in ("place", "boat") and isinstance(state.get("actor"), int):
        return int(state["actor"])
    turn = state.get("turn")
    return turn if isinstance(turn, int) else None


SNAPSHOTS = ("state", "new_game", "undone", "corrected")
"""Events that carry the viewer's fresh snapshot."""


class Lights:
    """The turn's colour and the die's beep, for a panel that can `show` a colour (0..1 RGB,
    `OFF` for none) and `beep` (``"roll"``, ``"bot"``)."""

    def __init__(
        self, show: Callable[[tuple[float, float, float]], None], beep: Callable[[str], None]
    ) -> None:
        self.show = show
        self.beep = beep
        self.players: list[dict[str, Any]] = []
        self.seat: int | None = None
        self.lit: tuple[float, float, float] | None = None
        """The colour shown last (None: to be shown again whatever it is). A colour is shown
        only when it changes: every command tells a state, and setting a PWM LED's three
        channels on gpiozero cost the panel's thread more than the rest of the event."""

    def sync(self, table: Table) -> None:
        """The LED from the current game as it is now (at start, after a reconnect)."""
        found = whose_colour(table)
        self.lit = None
        if found is not None:
            self.players, seat = found
            self.colour(seat)

    def event(self, event: Event) -> None:
        data = event.data
        if event.kind in SNAPSHOTS:
            self.players = list(data.get("players", self.players))
            self.colour(current_seat(data.get("state", {})))
        elif event.kind == "turn":
            self.colour(data.get("seat"))
        elif event.kind == "game_over":
            self.colour(None)
        elif event.kind in ("rolled", "dived"):  # the red die or the two dive dice
            self.beep("roll")
        elif event.kind == "bot" and data.get("waiting"):
            # A bot decided at a physical table: a person is to make its move on the board.
            # (A digital game's bot decisions are done at once: the phones show them.)
            self.beep("bot")

    def colour(self, seat: int | None) -> None:
        self.seat = seat
        lit = OFF
        if seat is not None:
            player = next((p for p in self.players if p.get("seat") == seat), {})
            lit = led_colour(player.get("colour"), seat)
        if lit != self.lit:
            self.lit = lit
            self.show(lit)
