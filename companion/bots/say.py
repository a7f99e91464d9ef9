"""A bot's decision as a sentence every phone shows, so that a person can carry it out on the
real board: "Bot Blue moves its person from 3.4 to 4.4". Values and kept backs stay out (spec
§9): the sentence is for everyone at the table."""

from __future__ import annotations

from ..engine import board
from ..engine.actions import CREATURES
from ..engine.state import BOAT, LAND, SEA, Action, State, person_name


def where(s: State, p: int) -> str:
    kind, at = s.p_kind[p], s.p_at[p]
    if kind == BOAT:
        return f"boat b{at + 1}"
    if kind in (LAND, SEA):
        return board.name(at)
    return "the box"


def sentence(s: State, name: str, action: Action) -> str:
    """What the bot called `name` does with `action`, in the state before it is done."""
    verb = action[0]
    who = f"Bot {name}"
    if verb == "place":
        return f"{who} places a person on {board.name(action[1])}"
    if verb == "boat":
        return f"{who} puts a boat on {board.name(action[1])}"
    if verb in ("move", "ride"):
        p, to = action[1], action[2]
        how = "rides a dolphin with" if verb == "ride" else "moves"
        return f"{who} {how} its person {person_name(p)} from {where(s, p)} to {board.name(to)}"
    if verb == "board":
        p, b = action[1], action[2]
        return f"{who} moves its person {person_name(p)} from {where(s, p)} into boat b{b + 1}"
    if verb == "sail":
        b, to = action[1], action[2]
        return f"{who} sails boat b{b + 1} from {board.name(s.b_pos[b])} to {board.name(to)}"
    if verb == "sink":
        return f"{who} removes the tile at {board.name(action[1])}"
    if verb in ("creature", "put"):
        c, to = action[1], action[2]
        kind = CREATURES[c]
        at = s.c_pos[c]
        start = "the supply" if at < 0 else board.name(at)
        return f"{who} moves a {kind} from {start} to {board.name(to)}"
    if verb == "play":
        return f"{who} plays its red tile: {action[1]}"
    if verb == "repel":
        return f"{who} plays a repellent"
    if verb == "protect":
        return f"{who} has a dolphin protect {person_name(action[2])}"
    if verb == "grab":
        return f"{who} lets the squid take {person_name(action[1])}"
    if verb == "pick":
        return f"{who} picks {person_name(action[1])} for the new boat"
    if verb == "take":
        return f"{who} takes boat b{action[1] + 1}"
    if verb == "done":
        return f"{who} goes on"
    return f"{who}: {verb}"
