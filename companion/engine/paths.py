"""Whole moves: one piece's path of several spaces as one action, checked as one.

The engine decides a move one space at a time and ends it by itself at its limit (three
points, a shark's two spaces, the die's number), so a step past the limit would otherwise be
read as the next decision's action. A path names every space at once and is refused as a whole,
under the rule that limits that move, when it goes further than the move may:

    go A1 5.3 4.2             a person in step 2 (B-8), with a dolphin tile (B-38), or its P-5 point
    sail b2 1.5 1.6           a boat in step 2 (B-8, B-13), with the winds (B-39), on the dive dice (D-4)
    creature shark1 1.6 1.7   the creature of the die (B-24 ... B-26, D-4, Q-3, Q-5; E-1 in 1986)
    ride A3 4.5 4.6 4.7       a 1986 swimmer riding a dolphin (E-3), or one space with its dolphin (D-8)

``go`` picks each space's step as a player means it: where a boat with room waits (not the
person's own) the person boards it, else walks, swims or lands on a safe island.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction
from .events import Event
from .movement import BOAT_CAPACITY
from .state import BOAT, LAND, OFF, SAVED, SEA, Action, State, creature_name, person_name

if TYPE_CHECKING:
    from .game import Game

STEP = {"go": "move", "sail": "sail", "creature": "creature", "ride": "ride"}


def is_path(action: Action) -> bool:
    """A whole move rather than a single step (which the engine lists as legal)."""
    return action[0] == "go" or (action[0] in STEP and len(action) > 3)


def step(s: State, legal: set[Action], verb: str, piece: int, h: int) -> Action:
    """The single step that takes the piece into space h."""
    if verb == "go":
        b = s.boat_at[h]
        own = s.p_kind[piece] == BOAT and s.p_at[piece] == b
        if b != OFF and not own and len(s.b_people[b]) < BOAT_CAPACITY:
            board = ("board", piece, b)
            if board in legal:
                return board
    return (STEP[verb], piece, h)


def apply(game: Game, action: Action) -> list[Event]:
    """Make the whole path happen, or refuse it leaving the game as it was."""
    from .game import Game  # the face this module serves; imported late to avoid a cycle

    verb, piece, path = action[0], action[1], action[2:]
    trial = Game(game.state.copy())
    s = trial.state
    start = _moment(s, verb, piece)
    began = (s.phase, s.ctx.get("dist"))
    events: list[Event] = []
    last: list[Event] = []
    for i, h in enumerate(path):
        if i and _moment(s, verb, piece) != start:
            raise _beyond(s, verb, piece, i, began, last)
        one = step(s, set(trial.legal_actions()), verb, piece, h)
        try:
            last = trial.apply(one)
        except IllegalAction as e:
            if i == 0:
                raise
            raise IllegalAction(e.rule, f"space {i + 1} of the path: {e.message}") from None
        events += last
    game.state = s
    game.forget_legal()
    return events


def _moment(s: State, verb: str, piece: int) -> tuple[object, ...]:
    """What must stay the same for a path to go on: the decision, its seat and its piece."""
    mover = s.ctx.get("creature") if verb == "creature" else None
    if verb == "creature" and mover is None:
        mover = piece  # its first step chooses it
    return (s.phase, s.turn, s.actor, mover, s.ctx.get("back"), _still(s, verb, piece))


def _still(s: State, verb: str, piece: int) -> bool:
    """Is the piece still where a move can take it further?"""
    if verb == "sail":
        return s.b_pos[piece] != OFF
    if verb == "creature":
        return s.c_pos[piece] != OFF
    return s.p_kind[piece] in (LAND, BOAT, SEA)


def _beyond(
    s: State, verb: str, piece: int, done: int, began: tuple[str, object], last: list[Event]
) -> IllegalAction:
    """The refusal of a path that goes on after its move ended after `done` spaces."""
    if verb == "sail":
        name = f"b{piece + 1}"
    elif verb == "creature":
        name = creature_name(s.c_kind, piece)
    else:
        name = person_name(piece)
    if not _still(s, verb, piece):
        if verb == "creature":
            rule = "B-29"  # a repellent removed it on its way
        elif verb == "sail":
            rule = "B-18"
        else:
            rule = "B-19" if s.p_kind[piece] == SAVED else "B-17"
        return IllegalAction(rule, f"{name} cannot go on after space {done}: it left the board")
    if verb == "creature":
        rule, why = _creature_limit(s, piece, done, began[1], last)
    else:
        rule, why = _piece_limit(s, verb, piece, began[0])
    return IllegalAction(rule, f"{name} stops after space {done}: {why}")


STOPS = {"serpent": "B-24", "shark": "B-25", "whale": "B-26", "squid": "Q-3", "dolphin": "D-6"}


def _creature_limit(
    s: State, c: int, done: int, dist: object, last: list[Event]
) -> tuple[str, str]:
    """Why a creature's move ended after `done` spaces: its limit, or an attack on its way."""
    from .creatures import limit  # creatures imports nothing of this module

    kind = s.c_kind[c]
    if s.is_1986:
        return "E-1", "it goes exactly as far as spun, stopping early only to attack"
    if dist == "D":
        return "D-4", "a diving creature goes straight to one space"
    most = int(str(dist)) if dist is not None else limit(s, kind)
    if done < most:
        if any(e.kind == "squid_removed" for e in last):
            return "Q-5", "a whale stops where it enters a squid's space"
        rule = "D-5" if dist is not None and kind != "dolphin" else STOPS[kind]
        return rule, "a creature stops where it enters something it can attack"
    if dist is not None:
        return "D-4", f"die 2 showed {dist}"
    return STOPS[kind], f"a {kind} moves at most {most} spaces"


def _piece_limit(s: State, verb: str, piece: int, phase: str) -> tuple[str, str]:
    """Why a person's or boat's move ended: the points, the tile's spaces, the dice."""
    if phase == "creature":
        return "D-4", "the dive dice's number is used up"
    if phase == "effect":
        if verb == "sail":
            return "B-39", "the winds move a boat at most 3 sea spaces"
        return "B-38", "a dolphin tile moves a swimmer at most 3 sea spaces"
    if phase == "rush":
        return "P-5", "the people of a sunk tile have one immediate movement point"
    if verb == "ride":
        if s.is_1986:
            return "E-3", "a dolphin carries a swimmer at most 3 spaces a turn"
        return "D-8", "with its dolphin a swimmer still moves one space a turn"
    if verb == "go" and piece in s.swam and s.p_kind[piece] == SEA:
        return "B-16", "a swimmer moves one sea space a turn"
    return "B-8", "a turn has 3 movement points"


def reach(game: Game, verb: str, piece: int) -> dict[int, list[int]]:
    """Every space the piece can end a whole move on that is more than one space away, with
    the shortest path there (what a phone moves in one tap). Single steps are the legal
    actions already; the piece's own space is left out (tapping it puts the piece down)."""
    from .game import Game  # the face this module serves; imported late to avoid a cycle

    if verb not in STEP:
        return {}
    start = _moment(game.state, verb, piece)
    home = _space(game.state, verb, piece)
    found: dict[int, list[int]] = {}
    seen = {(home, _how(game.state, verb, piece))}
    frontier: list[tuple[Game, list[int]]] = [(game, [])]
    while frontier:
        further: list[tuple[Game, list[int]]] = []
        for here, path in frontier:
            legal = set(here.legal_actions())
            for h in _next_spaces(here.state, legal, verb, piece):
                trial = Game(here.state.copy())
                try:
                    trial.apply(step(trial.state, legal, verb, piece, h))
                except IllegalAction:
                    continue
                route = [*path, h]
                if len(route) > 1 and h != home:
                    found.setdefault(h, route)
                key = (h, _how(trial.state, verb, piece))
                if key not in seen and _moment(trial.state, verb, piece) == start:
                    seen.add(key)
                    further.append((trial, route))
        frontier = further
    return found


def _next_spaces(s: State, legal: set[Action], verb: str, piece: int) -> list[int]:
    """The spaces the piece's legal single steps lead to, in a stable order."""
    out: set[int] = set()
    for action in legal:
        if len(action) < 3 or action[1] != piece:
            continue
        if action[0] == STEP[verb]:
            out.add(action[2])
        elif verb == "go" and action[0] == "board":
            out.add(s.b_pos[action[2]])
    return sorted(out)


def _space(s: State, verb: str, piece: int) -> int:
    if verb == "sail":
        return s.b_pos[piece]
    if verb == "creature":
        return s.c_pos[piece]
    if s.p_kind[piece] == BOAT:
        return s.b_pos[s.p_at[piece]]
    return s.p_at[piece]


def _how(s: State, verb: str, piece: int) -> object:
    """How the piece stands where it is (a person walking, swimming or in a boat)."""
    return s.p_kind[piece] if verb in ("go", "ride") else None
