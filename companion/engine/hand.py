"""Red tiles in hand: which a player may hold, and step 1, playing one (B-7, B-22, B-38 ... B-42).

In physical mode the companion may not know a held tile's back. A tile named when played is
accepted when that hand may hold it: a tile already told, or an untold one whose terrain still
has such a back unaccounted for.
"""

from __future__ import annotations

from typing import Final

from . import board, chance, movement, pieces, squid
from .data import TURN_TILES
from .errors import IllegalAction
from .events import Event, Events
from .sinking import kept_backs, left
from .state import OFF, SEA, Action, State, person_name

CREATURE_OF: Final = {"move-serpent": "serpent", "move-shark": "shark", "move-whale": "whale"}


def find(s: State, seat: int, back: str) -> int | None:
    """Index in seat's hand of a tile that is, or may be, `back`; None if there is none.

    A told tile is used first; among untold ones, the terrain with most such backs left.
    """
    if back not in kept_backs(s):
        return None  # a dolphin tile never stays in hand with the dive dice (D-2)
    hand = s.hands[seat]
    for i, (_, k) in enumerate(hand):
        if k == back:
            return i
    best, most = None, 0
    for i, (t, k) in enumerate(hand):
        if k is None:
            assert t is not None
            n = left(s, t, back)
            if n > most:
                best, most = i, n
    return best


def may_seem_to_hold(s: State, seat: int, back: str) -> bool:
    """Could seat hold `back`, as far as everyone at the table knows?

    Only public facts count: each held tile's terrain, and the backs revealed or played. What
    a player told the companion privately does not, so asking this reveals nothing (spec §9).
    """
    told: dict[str, int] = {}
    for hand in s.hands:
        for t, k in hand:
            if k == back:
                assert t is not None
                told[t] = told.get(t, 0) + 1
    return any(t is not None and left(s, t, back) + told.get(t, 0) > 0 for t, _ in s.hands[seat])


def take(s: State, seat: int, i: int, back: str) -> None:
    """Tile i leaves seat's hand as `back` (played, so now public)."""
    t, k = s.hands[seat].pop(i)
    assert t is not None
    if k is None:
        s.unknown_red[t] -= 1
        s.known[t][back] = s.known[t].get(back, 0) + 1


def dolphin_moves(s: State, out: list[Action], first: bool = False) -> None:
    """B-38: one of your swimmers, one sea space at a time (1-3 in all). `first`: stop after
    the first swimmer with a move (whether there is one is all that is asked)."""
    p = s.ctx.get("person")
    people = [p] if p is not None else s.seat_people[s.turn]  # `people_of`, without a call
    safety = s.rules.options["dolphin_to_safety"] == "yes"  # the option, without a call
    for q in people:
        if s.p_kind[q] != SEA:
            continue
        h = s.p_at[q]
        for n in board.PICKED[h][s.sea_near[h]]:
            out.append(("move", q, n))
        if safety:
            b = s.boat_at[h]
            if b != OFF and len(s.b_people[b]) < movement.BOAT_CAPACITY:
                out.append(("board", q, b))
            if h in s.access:
                out.append(("move", q, s.access[h]))
        if first and out:
            return


def winds_moves(s: State, out: list[Action], first: bool = False) -> None:
    """B-39: a boat you control, one space at a time (1-3 in all). `first`: stop after the
    first boat with a move."""
    b = s.ctx.get("boat")
    empty_ok = s.rules.options["winds_empty_boat"] == "allowed"  # the option, without a call
    boats = [b] if b is not None else range(len(s.b_pos))
    for x in boats:
        if s.b_pos[x] == OFF or (not s.b_people[x] and not empty_ok):
            continue
        if s.controls(s.turn, x):
            movement.boat_moves(s, x, out)
            if first and out:
                return


def tile_creatures(s: State, back: str) -> list[int]:
    """What a move-creature tile may move: that kind on the board — and for the whale's tile
    a squid too, even with no whale in play (Q-3, Q-7)."""
    kind = CREATURE_OF[back]
    found = s.on_board(kind) if kind in s.in_play else []
    if kind == "whale" and "squid" in s.in_play:
        found += s.on_board("squid")
    return found


def put_moves(s: State, back: str, out: list[Action]) -> None:
    """B-40 ... B-42: a creature of that kind already on the board, to any vacant sea space;
    a squid may also stay where it is, which counts as its move (Q-3)."""
    creatures = tile_creatures(s, back)
    if creatures:
        vacant = s.vacant_spaces()
        for c in creatures:
            for h in vacant:  # a plain loop: a generator costs twice as much per move
                out.append(("put", c, h))
            if s.c_kind[c] == "squid":
                out.append(("put", c, s.c_pos[c]))


def effect_moves(s: State, back: str, first: bool = False) -> list[Action]:
    """The tile's moves; with `first`, only as many as show that there is one (a dolphin or
    winds tile: the moves of its first swimmer or boat that has any)."""
    out: list[Action] = []
    if back == "dolphin":
        dolphin_moves(s, out, first)
    elif back == "winds":
        winds_moves(s, out, first)
    else:
        put_moves(s, back, out)
    return out


def can_take_effect(s: State, back: str) -> bool:
    """Could the tile move anything now? (A cheaper question than listing every move.)"""
    if back in CREATURE_OF:
        # a vacant space anywhere: a hex with nothing on it (`State.occupants`), found in C
        return bool(tile_creatures(s, back)) and 0 in s.occupants
    return bool(effect_moves(s, back, first=True))


def legal_play(s: State) -> list[Action]:
    """Step 1: at most one red turn tile that the hand may hold and that can take effect."""
    out: list[Action] = []
    hand = s.hands[s.turn]
    if hand:
        # a back neither told in the hand nor possible for an untold tile is not `find`'s to
        # look for (asked at every step 1 of a seat holding tiles)
        held = {k for _, k in hand}
        kept = kept_backs(s)
        for back in PLAYED_IN_ORDER:
            # a tile told is `find`'s first answer (a kept back: asked without its call)
            if (
                (back in held and back in kept)
                or (None in held and find(s, s.turn, back) is not None)
            ) and can_take_effect(s, back):
                out.append(("play", back))
    out.append(("done",))
    return out


PLAYED_IN_ORDER: Final = tuple(sorted(TURN_TILES))
"""The red tiles played at the start of a turn, in the order `legal_play` offers them."""


def apply_play(s: State, action: Action, ev: Events) -> None:
    if action[0] == "done":
        _to_movement(s)
        return
    back = action[1]
    i = find(s, s.turn, back)
    assert i is not None
    take(s, s.turn, i, back)
    if ev is not None:
        ev.append(Event("played", {"seat": s.turn, "back": back}))
    s.ctx = {"back": back, "steps": 0}
    s.phase = "effect"


def legal_effect(s: State) -> list[Action]:
    out = effect_moves(s, s.ctx["back"]) if s.ctx["steps"] < 3 else []
    if s.ctx["steps"]:
        out.append(("done",))
    return out


def random_effect(s: State, draw: chance.Draw) -> Action:
    """`chance.pick` of `legal_effect` (the very same draw of the same list), without listing
    a creature tile's hundreds of moves: the pick is found from the list's shape, which is
    each creature's vacant spaces in turn, then a squid's own space (`put_moves`)."""
    back = s.ctx["back"]
    if back not in CREATURE_OF or s.ctx["steps"]:
        return chance.choose(draw, legal_effect(s))  # a few moves: listing them is cheap
    creatures = tile_creatures(s, back)
    vacant = s.vacant_spaces()
    sizes = [len(vacant) + (1 if s.c_kind[c] == "squid" else 0) for c in creatures]
    k = chance.index(draw, sum(sizes))
    for i in range(len(creatures)):
        if k < sizes[i]:
            c = creatures[i]
            return ("put", c, vacant[k] if k < len(vacant) else s.c_pos[c])
        k -= sizes[i]
    raise AssertionError("chance.index draws below the number of moves")


def apply_effect(s: State, action: Action, ev: Events) -> None:
    verb = action[0]
    if verb == "done":
        _to_movement(s)
        return
    if verb == "put":
        _, c, h = action
        pieces.move_creature(s, c, h, ev)
        if s.c_kind[c] == "squid":
            squid.strikes(s, c, ev)  # Q-4 after any squid move
        _to_movement(s)
        return
    movement.apply_step(s, action, ev, uses_swim=False)  # B-16
    s.ctx["steps"] += 1
    x = action[1]
    if verb == "sail":
        s.ctx["boat"] = x
        still = s.b_pos[x] != OFF
    else:
        s.ctx["person"] = x
        still = s.p_kind[x] == SEA
    if not still or s.ctx["steps"] == 3:
        _to_movement(s)


def _to_movement(s: State) -> None:
    """On to step 2, skipped by a player with no people left on the board (B-11)."""
    # what the last turn's creature did stays known through step 2 (see creatures.end_turn)
    s.ctx = {"moved": s.ctx["moved"], "limit": s.ctx["limit"]} if "moved" in s.ctx else {}
    if s.has_people(s.turn):
        s.phase, s.points = "move", 3
    else:
        s.phase = "sink"


def explain(s: State, action: Action) -> IllegalAction:
    verb = action[0]
    if verb == "play":
        back = action[1]
        if back not in TURN_TILES:
            return IllegalAction("B-7", f"{back} is not a red tile played at the start of a turn")
        if find(s, s.turn, back) is None:
            return IllegalAction("B-22", f"seat {s.turn + 1} cannot be holding a {back} tile")
        return IllegalAction(RULE[back], f"the {back} tile has nothing it could move now")
    back = s.ctx["back"]
    if verb == "done":
        return IllegalAction(RULE[back], f"the {back} tile moves its piece at least one space")
    if verb == "move" and action[1] // 10 != s.turn:
        return IllegalAction("B-38", f"{person_name(action[1])} is not your swimmer")
    return IllegalAction(RULE[back], f"not a move the {back} tile allows")


RULE = {
    "dolphin": "B-38",
    "winds": "B-39",
    "move-serpent": "B-40",
    "move-shark": "B-41",
    "move-whale": "B-42",
}
