"""What each panel button does in each step of the game: one table, used by every panel.

A panel — GPIO buttons, the Pico on USB, the simulated one — only reports which button was
pressed and how (a short press or a hold). Here that becomes a table intent for the step the
game is in; the Table then turns the intent into the engine action of that step. A press that
means nothing in the step sends no command at all: the panel answers it with its error beep.

    >>> meaning(Press("roll"), "roll")
    Meaning(intent='roll', repeat=False)
    >>> meaning(Press("undo", HOLD), "move")
    Meaning(intent='undo', repeat=True)
    >>> meaning(Press("next"), "sink") is None      # a tile must be removed: nothing to skip
    True
"""

from __future__ import annotations

from dataclasses import dataclass

BUTTONS = ("roll", "next", "undo")
PRESS, HOLD = "press", "hold"
GESTURES = (PRESS, HOLD)


@dataclass(frozen=True)
class Press:
    """One press of a panel button, as a panel reports it: which button, short or held."""

    button: str
    gesture: str = PRESS

    def __post_init__(self) -> None:
        if self.button not in BUTTONS:
            raise ValueError(f"unknown button {self.button!r}; buttons: {', '.join(BUTTONS)}")
        if self.gesture not in GESTURES:
            raise ValueError(f"a button is pressed or held, not {self.gesture!r}")

    def __str__(self) -> str:
        return self.button.upper() + (" (held)" if self.gesture == HOLD else "")


@dataclass(frozen=True)
class Meaning:
    """The table intent a press sends."""

    intent: str
    repeat: bool = False
    """Send it again after each acceptance until the Table refuses. Holding UNDO takes the turn
    back to its start this way: one stored, announced undo per move, as if UNDO were pressed
    that many times (the Table stops undoing at the start of the turn)."""


# The game's steps (the engine's phases), grouped as the players see them.
TABLE_DRAWS = ("terrain", "back")
"""The companion waits for a fact of the table it can also draw itself: the next island tile
(an island laid by hand) or a removed tile's back (a physical game)."""
DIE = ("roll",)
"""Step 4: the creature die is awaited."""
GO_ON = ("tile", "effect", "move", "rush", "creature", "defence", "interrupt")
"""Steps a player may end or skip: play no red tile, end movement (or a sunk tile's people's
rush), stop the creature, play no defensive tile, decline a choice that a move raised."""
OWN_MOVES = (
    "place", "boat", "tile", "effect", "move", "rush", "sink", "take", "pick", "creature",
    "defence", "interrupt",
)  # fmt: skip
"""Steps in which the player's own last move of the turn may be taken back."""
QUIET = ("reveal", "over")
"""Steps no button does anything in: saved people's values are told, or the game is over."""

TABLE: tuple[tuple[str, str, tuple[str, ...], Meaning], ...] = (
    # button  gesture  in these steps  sends
    ("roll", PRESS, DIE, Meaning("roll")),
    ("roll", PRESS, TABLE_DRAWS, Meaning("draw")),
    # A big button leaned on a moment too long still rolls: a held ROLL is a ROLL.
    ("roll", HOLD, DIE, Meaning("roll")),
    ("roll", HOLD, TABLE_DRAWS, Meaning("draw")),
    ("next", PRESS, GO_ON, Meaning("next")),
    ("next", HOLD, GO_ON, Meaning("next")),
    ("undo", PRESS, OWN_MOVES, Meaning("undo")),
    ("undo", HOLD, OWN_MOVES, Meaning("undo", repeat=True)),
)

MEANINGS: dict[tuple[str, str, str], Meaning] = {}
for _button, _gesture, _steps, _meaning in TABLE:
    for _step in _steps:
        if (_button, _gesture, _step) in MEANINGS:  # a table with two answers is a typo
            raise AssertionError(f"{_button} {_gesture} in {_step} is defined twice")
        MEANINGS[_button, _gesture, _step] = _meaning


def meaning(press: Press, step: str | None) -> Meaning | None:
    """What `press` sends in `step` (None: no game yet); None when it means nothing there."""
    if step is None:
        return None
    return MEANINGS.get((press.button, press.gesture, step))


def steps() -> frozenset[str]:
    """Every step this table knows of (a test holds it equal to the engine's phases)."""
    return frozenset(TABLE_DRAWS + DIE + GO_ON + OWN_MOVES + QUIET)
