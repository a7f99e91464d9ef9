"""The stored log as a phone may read it: the actions in force, each as its viewer may know it.

The log keeps every hidden value (a value placed, the back of a red tile kept). Whether a viewer
may know an action's hidden part is the engine's decision: the log is replayed, and an action
whose events this viewer sees other than the referee does is shown without its secret — a
placement without its value (``place 3.4 =?``), a tile's back as ``red`` (``back red``). Any
other action with a secret (none today) is left out rather than guessed at.

Rows undone, corrected or superseded are left out too: their hidden parts were never played,
so nothing would say what a viewer may know of them.
"""

from __future__ import annotations

import dataclasses

from ..engine import REFEREE
from ..engine.events import View
from ..kinds import game_of
from ..store import GameRecord, Row


def visible_rows(record: GameRecord, rows: list[Row], viewer: View) -> list[Row]:
    """The rows in force of `record`'s log as `viewer` (a seat, or None for a spectator) may
    see them."""
    game = game_of(record)
    shown = []
    for row in rows:
        if row.status != "ok":
            continue
        events = game.apply(row.action)
        if all(e.project(viewer) == e.project(REFEREE) for e in events):
            shown.append(row)
            continue
        verb = row.action[0]
        if verb == "place":
            shown.append(dataclasses.replace(row, action=[*row.action[:2], None]))
        elif verb == "back":
            shown.append(dataclasses.replace(row, action=["back", "red"]))
    return shown
