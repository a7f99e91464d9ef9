"""The 1986 spinner and the creature moves it allows (E-1, E-2).

The spinner names a creature kind and a move of 1, 2 or 3 spaces, or a dive. The roller moves one
creature of that kind exactly that far, by a route of their choice, and it stops early only where
it attacks; a diving creature appears on any sea space without people or boats. A route never
enters the same space twice (its start included): otherwise any creature with one sea space beside
it could finish any move by going to and fro, and "exactly" would say nothing.

Only a creature that can finish its move, or attack on the way, may be chosen, so every step
offered is one from which the move can still be finished. The spinner's sectors are data
(``data/spinner.json``, option ``spinner_sectors``); nobody counted them on a real spinner yet.
"""

from __future__ import annotations

from . import board, pieces
from .data import SPINNER_SECTORS
from .errors import IllegalAction
from .events import Event, Events
from .state import OFF, Action, State

DIVE = "D"
"""How a spun dive is kept in the creature step's context (as the dive dice's D)."""


def sectors(s: State) -> dict[tuple[str, str], int]:
    return SPINNER_SECTORS[s.rules.option("spinner_sectors")]


def weights(s: State) -> list[tuple[Action, int]]:
    """Each result the spinner can show, with how many of its sectors show it."""
    return [(("spin", kind, move), n) for (kind, move), n in sectors(s).items() if n > 0]


def legal_spin(s: State) -> list[Action]:
    return [spin for spin, _ in weights(s)]


def apply_spin(s: State, action: Action, ev: Events) -> None:
    """The spinner's result, with what it allows: which creatures may move, and how."""
    _, kind, move = action
    s.roll = f"{kind} {move}"
    s.ctx = {
        "kind": kind,
        "dist": DIVE if move == "dive" else move,
        "creature": None,
        "boat": None,
        "steps": 0,
        "route": [],
    }
    first: list[Action] = []
    first_moves(s, first)
    may = sorted({a[1] for a in first})
    s.ctx["may_move"] = may
    if ev is not None:
        ev.append(
            Event(
                "spun",
                {
                    "seat": s.turn,
                    "kind": kind,
                    "move": move,
                    "may_move": [pieces.creature(s, c) for c in may],
                },
            )
        )
    s.phase, s.actor = "creature", s.turn


def attacks(s: State, kind: str, h: int) -> bool:
    """E-2: a shark eats swimmers and ignores boats; a whale destroys an occupied boat; a sea
    monster does both; a dolphin attacks nothing (it never protects, E-3)."""
    if kind == "shark":
        return bool(s.swimmers[h])
    if kind == "dolphin":
        return False
    b = s.boat_at[h]
    occupied = b != OFF and bool(s.b_people[b])
    return occupied or (kind == "serpent" and bool(s.swimmers[h]))


def _onward(s: State, h: int, route: list[int]) -> list[int]:
    """Sea spaces next to h that the route has not entered."""
    return [n for n in board.PICKED[h][s.sea_near[h]] if n not in route]


def _may_enter(s: State, kind: str, n: int, left: int, route: list[int]) -> bool:
    """May a creature of `kind` enter n with `left` spaces to go (n included)? Only if it
    attacks there, or can go on from there to finish the move."""
    if attacks(s, kind, n) or left == 1:
        return True
    more = [*route, n]
    return any(_may_enter(s, kind, x, left - 1, more) for x in _onward(s, n, more))


def steps(s: State, c: int, route: list[int], left: int, out: list[Action]) -> None:
    """The next spaces creature c may enter with `left` spaces to go."""
    kind = s.c_kind[c]
    for n in _onward(s, s.c_pos[c], route):
        if _may_enter(s, kind, n, left, route):
            out.append(("creature", c, n))


def dive_spaces(s: State) -> list[int]:
    """E-1: a diving creature appears on a sea space without people or boats."""
    return [
        h for h in range(board.SIZE) if s.is_sea(h) and not s.swimmers[h] and s.boat_at[h] == OFF
    ]


def first_moves(s: State, out: list[Action]) -> None:
    """Every creature of the kind spun that can make the move, with its first step (or dive)."""
    kind, dist = s.ctx["kind"], s.ctx["dist"]
    spaces = dive_spaces(s) if dist == DIVE else []
    for c in s.on_board(kind):
        h = s.c_pos[c]
        if dist == DIVE:
            out.extend(("creature", c, x) for x in spaces if x != h)
        else:
            steps(s, c, [h], int(dist), out)


def next_moves(s: State, out: list[Action]) -> None:
    """The chosen creature's next step: it goes on until the move is done or it attacks."""
    c = s.ctx["creature"]
    steps(s, c, s.ctx["route"], int(s.ctx["dist"]) - s.ctx["steps"], out)


def explain(s: State, action: Action) -> IllegalAction:
    """Why a creature step is refused under the spinner."""
    _, c, h = action
    kind, dist, chosen = s.ctx["kind"], s.ctx["dist"], s.ctx["creature"]
    if s.c_kind[c] != kind:
        return IllegalAction("E-1", f"the spinner names {kind}: move one of them")
    if s.c_pos[c] == OFF:
        return IllegalAction("E-1", f"{pieces.creature(s, c)} is not on the board")
    if chosen is not None and c != chosen:
        return IllegalAction("E-1", "one creature moves, not two")
    if dist == DIVE:
        where = board.name(h)
        return IllegalAction(
            "E-1", f"a diving creature appears where no people or boats are, not {where}"
        )
    if not s.is_sea(h) or h not in board.NEIGHBOURS[s.c_pos[c]]:
        return IllegalAction(
            "B-27", f"creatures move to an adjacent sea space, not {board.name(h)}"
        )
    if h in (s.ctx["route"] or [s.c_pos[c]]):
        return IllegalAction("E-1", "a creature's route never enters the same space twice")
    return IllegalAction(
        "E-1",
        f"a {kind} moves exactly {dist} spaces, stopping early only to attack: from "
        f"{board.name(h)} it could not finish the move",
    )
