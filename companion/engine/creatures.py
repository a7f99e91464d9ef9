"""Step 4 of a turn: the creature die (or the two dive dice), a creature's move, its attack, and
the defence window.

B-10, B-24 ... B-29 with the red die; D-1, D-3 ... D-9 with the dive dice; Q-3 ... Q-5 for the
Giant Squid; E-1, E-2 with the 1986 spinner (its moves are in `spinner`). A move of several
spaces is one decision per space; a creature stops where it enters something it can attack,
and attacks there. Before a shark or whale moved by another
player attacks, the attacked players who may hold the matching repellent are asked (B-29, B-43).
When a move ends, the phase becomes ``end`` and the game passes the turn once any decision the
move raised (a dolphin's protege, a squid's prey) is taken.
"""

from __future__ import annotations

from math import floor
from typing import Final

from . import board, chance, hand, pieces, scoring, spinner, squid
from .data import DIE_FACES, DIVE_DISTANCES, DIVE_KINDS, PIECES, STEPS, WILD
from .errors import IllegalAction
from .events import Event, Events
from .state import CHANCE, CREATURE_KINDS, CREATURES, OF_KIND, OFF, Action, State, person_name

FACES = tuple(sorted(set(DIE_FACES)))
DIVES = tuple((k, d) for k in DIVE_KINDS for d in sorted(set(DIVE_DISTANCES)))
DIE_WEIGHTS: Final[list[tuple[Action, int]]] = [(("roll", f), DIE_FACES.count(f)) for f in FACES]
DIVE_WEIGHTS: Final[list[tuple[Action, int]]] = [
    (("dive", k, d), DIVE_KINDS.count(k) * DIVE_DISTANCES.count(d)) for k, d in DIVES
]
"""The creature die's faces (B-10) and the dive dice's pairs (D-3), as many as show each."""
DIE_TOTAL: Final = len(DIE_FACES)
DIVE_TOTAL: Final = len(DIVE_KINDS) * len(DIVE_DISTANCES)
"""`DIE_WEIGHTS`' and `DIVE_WEIGHTS`' totals: every face, every pair of faces."""
REPELLENT: Final = {"shark": "shark-repellent", "whale": "whale-repellent"}
WILD_KINDS: Final = frozenset({"serpent", "shark", "whale", "dolphin", "boat"})
SQUID_STEPS: Final = 3  # up to three spaces on the red die
BY_NAME: Final = tuple(sorted(CREATURE_KINDS))
"""The creature kinds in the order their first moves are listed (by name): the kinds moved
picked from it, not sorted anew at every creature move."""
STEP_TO: Final = tuple(
    tuple(("creature", c, h) for h in range(board.SIZE)) for c in range(len(CREATURES))
)
SAIL_TO: Final = tuple(
    tuple(("sail", b, h) for h in range(board.SIZE)) for b in range(PIECES["boat"])
)
"""STEP_TO[c][h]: creature c's move to h; SAIL_TO[b][h]: boat b's. Built once, so that listing
a creature's moves (every move of every creature of the kind rolled, at every die) builds no
tuple: building and freeing each was a third of the listing."""
OPEN_SEA: Final = tuple((1 << len(around)) - 1 for around in board.WATER_NEIGHBOURS)
STEPS_AROUND: Final = tuple(
    tuple(tuple(map(to.__getitem__, around)) for around in board.WATER_NEIGHBOURS) for to in STEP_TO
)
"""OPEN_SEA[h]: the `State.sea_near` mask of a hex with sea all round; STEPS_AROUND[c][h]:
creature c's steps from h to each neighbour, in `board.PICKED`'s order. Most creatures swim in
open sea: their steps are then added at once, not one by one (0.5 % of a random game; building
the 3,425 tuples costs the import, once, about what some 250 games save)."""


def dive_dice(s: State) -> bool:
    return "dive-dice" in s.rules.modules


def legal_roll(s: State) -> list[Action]:
    if s.is_1986:  # E-1: the spinner replaces the die
        return spinner.legal_spin(s)
    if dive_dice(s):  # D-1: the two dive dice replace the red die
        return [("dive", k, d) for k, d in DIVES]
    return [("roll", f) for f in FACES]


def apply_roll(s: State, action: Action, ev: Events) -> None:
    if action[0] == "spin":
        spinner.apply_spin(s, action, ev)
        return
    if action[0] == "dive":
        _, kind, dist = action
        s.roll = f"{kind} {dist}"
        if ev is not None:
            ev.append(Event("dived", {"seat": s.turn, "kind": kind, "distance": dist}))
    else:
        kind, dist = action[1], None
        s.roll = kind
        if ev is not None:
            ev.append(Event("rolled", {"seat": s.turn, "face": kind}))
    s.ctx = {"kind": kind, "dist": dist, "creature": None, "boat": None, "steps": 0}
    s.phase, s.actor = "creature", s.turn


def movers(s: State) -> frozenset[str]:
    """What the dice let the roller move: the kind rolled (the starfish: any, D-3), a squid
    instead of a whale (Q-3), and unoccupied boats only on the dive dice (D-5)."""
    key = (s.ctx["kind"], s.in_play)
    found = _MOVERS.get(key)
    if found is None:
        kind = key[0]
        kinds = set(WILD_KINDS) if kind == WILD else {kind}
        if "whale" in kinds:
            kinds.add("squid")
        found = _MOVERS[key] = frozenset(k for k in kinds if k in s.in_play or k == "boat")
    return found


_MOVERS: Final[dict[tuple[str, frozenset[str]], frozenset[str]]] = {}
"""`movers` of each roll under each set of kinds in play, found once: building the sets anew at
every creature phase was a fifth of listing its first moves (compiled)."""


def in_order(kinds: frozenset[str]) -> tuple[str, ...]:
    """The creature kinds of `movers`' set in `BY_NAME`'s order, found once per set: the die's
    listing walked all the kinds to find the one or two rolled."""
    found = _IN_ORDER.get(kinds)
    if found is None:
        found = _IN_ORDER[kinds] = tuple(k for k in BY_NAME if k in kinds)
    return found


_IN_ORDER: Final[dict[frozenset[str], tuple[str, ...]]] = {}


def limit(s: State, kind: str) -> int:
    """How many spaces one move may take: the red die's for the kind, or die 2's number."""
    dist = s.ctx.get("dist")
    if dist is not None:
        return int(dist)
    return LIMIT[kind]


LIMIT: Final = {**STEPS, "squid": SQUID_STEPS}
"""How far the red die moves each kind (B-24 ... B-26, Q-3)."""


def boat_steps(s: State, b: int, out: list[Action]) -> None:
    boat_at = s.boat_at
    h = s.b_pos[b]
    sail_to = SAIL_TO[b]
    for n in board.PICKED[h][s.sea_near[h]]:
        if boat_at[n] == OFF:
            out.append(sail_to[n])


def steps_from(s: State, c: int, at: int, out: list[Action]) -> None:
    """B-27: creature c's steps from `at` into the sea beside it (sharing it with anything)."""
    mask = s.sea_near[at]
    if mask == OPEN_SEA[at]:
        out.extend(STEPS_AROUND[c][at])  # sea all round (most creatures): every step at once
    else:
        step_to = STEP_TO[c]
        for n in board.PICKED[at][mask]:
            out.append(step_to[n])


def legal_creature(s: State) -> list[Action]:
    c, b = s.ctx["creature"], s.ctx.get("boat")
    out: list[Action] = []
    if c is None and b is None:
        if s.is_1986:
            spinner.first_moves(s, out)
        else:
            _first_moves(s, out)
        if not out or s.rules.options["creature_move"] == "optional":  # no call of `option`
            out.append(("done",))
        return out
    if s.is_1986:  # E-1: exactly as far as spun; the steps offered can always finish the move
        spinner.next_moves(s, out)
        return out
    dist = s.ctx.get("dist")  # `limit`, without its call (asked at every step of a creature)
    if s.ctx["steps"] < (
        LIMIT["boat" if c is None else s.c_kind[c]] if dist is None else int(dist)
    ):
        if c is not None:
            steps_from(s, c, s.c_pos[c], out)  # B-27: through sea spaces only, sharing them
        elif b is not None:
            boat_steps(s, b, out)
    out.append(("done",))
    return out


def first_dive(s: State) -> bool:
    """Whether the move is yet to choose what dives (D-4: to any vacant sea space): a long
    list of first moves, counted rather than listed (`random_creature`). Not the 1986
    spinner's dive (E-1), whose moves `spinner` lists."""
    ctx = s.ctx
    return (
        ctx.get("dist") == "D" and not s.is_1986 and ctx["creature"] is None
        and ctx.get("boat") is None
    )  # fmt: skip


def random_creature(s: State, draw: chance.Draw) -> Action:
    """`chance.pick` of `legal_creature` (the same draw of the same list), a first dive's move
    counted, not listed, and built alone. (Other first moves are few: counting them twice
    cost more than listing them once.)"""
    if not first_dive(s):
        return chance.choose(draw, legal_creature(s))
    n = nth_dive(s, -1)
    assert isinstance(n, int)
    listed = n + 1 if n == 0 or s.rules.option("creature_move") == "optional" else n
    k = floor(draw() * listed)  # `chance.pick`'s draw
    if k == n:
        return ("done",)
    move = nth_dive(s, k)
    assert not isinstance(move, int)
    return move


def nth_dive(s: State, k: int) -> Action | int:
    """At a first dive, `_first_moves`' move number k, counted in the same order (keep the two
    in step) and built alone; when it has none of that number, how many it has past k (so
    k = -1 counts them all, and k = 0 answers "any move?" at the first found)."""
    start = k
    kinds = movers(s)
    vacant = s.vacant_spaces()
    dives = len(vacant)
    for kind in in_order(kinds):
        for c in s.on_board(kind):
            if 0 <= k < dives:
                return ("creature", c, vacant[k])
            k -= dives
            at = s.c_pos[c]
            if kind == "squid":
                if k == 0:
                    return ("creature", c, at)
                k -= 1
            if kind == "dolphin":
                guarded = s.guard.get(c)
                for p in s.swimmers[at]:
                    if p != guarded and s.guardian(p) is None:
                        if k == 0:
                            return ("protect", c, p)
                        k -= 1
    if "boat" in kinds:
        for b, pos in enumerate(s.b_pos):
            if pos != OFF and not s.b_people[b]:
                if 0 <= k < dives:
                    return ("sail", b, vacant[k])
                k -= dives
    return start - k


def _first_moves(s: State, out: list[Action]) -> None:
    # `nth_dive` counts a dive's in this order: keep the two in step
    kinds = movers(s)
    dive = s.ctx.get("dist") == "D"
    vacant = s.vacant_spaces() if dive else []
    order = _IN_ORDER.get(kinds)  # `in_order`, without its call (asked at every die)
    if order is None:
        order = in_order(kinds)
    c_pos, sea_near = s.c_pos, s.sea_near  # found once, asked of every creature of the kind
    for kind in order:
        for c in OF_KIND[kind]:
            at = c_pos[c]
            if at == OFF:
                continue  # B-28: none of that kind on the board, nothing to move
            if dive:  # D-4: it dives to any unoccupied sea space
                step_to = STEP_TO[c]
                for h in vacant:
                    out.append(step_to[h])
            else:  # B-27: a step into the sea beside it
                mask = sea_near[at]
                if mask == OPEN_SEA[at]:  # `steps_from`, without its call (asked at every die)
                    out.extend(STEPS_AROUND[c][at])
                else:
                    step_to = STEP_TO[c]
                    for h in board.PICKED[at][mask]:
                        out.append(step_to[h])
            if kind == "squid":  # staying put counts as its move
                out.append(STEP_TO[c][at])
            elif kind == "dolphin":  # D-9: or it turns to another swimmer where it is
                guarded = s.guard.get(c)
                out.extend(
                    ("protect", c, p)
                    for p in s.swimmers[at]
                    if p != guarded and s.guardian(p) is None
                )
    if "boat" in kinds:  # D-5: never an occupied boat
        for b, pos in enumerate(s.b_pos):
            if pos != OFF and not s.b_people[b]:
                if dive:
                    sail_to = SAIL_TO[b]
                    for h in vacant:
                        out.append(sail_to[h])
                else:
                    boat_steps(s, b, out)


def apply_creature(s: State, action: Action, ev: Events) -> None:
    verb: str = action[0]  # typed, as in movement.apply_step
    if verb == "done":
        chosen = s.ctx["creature"]
        if chosen is not None and s.c_kind[chosen] == "squid":
            squid.strikes(s, chosen, ev)
        s.phase = "end"
        return
    if verb == "protect":  # D-9
        d: int = action[1]
        p: int = action[2]
        pieces.release(s, d, ev)
        pieces.protect(s, d, p, ev)
        s.phase = "end"
        return
    s.ctx["steps"] += 1
    if verb == "sail":
        b: int = action[1]
        h: int = action[2]
        if ev is not None:
            ev.append(Event("drifted", {"boat": f"b{b + 1}", "from": board.name(s.b_pos[b]),
                                        "to": board.name(h)}))  # fmt: skip
        pieces.boat_to(s, b, h, ev)
        s.ctx["boat"] = b
        if s.ctx.get("dist") == "D" or s.ctx["steps"] >= limit(s, "boat"):
            s.phase = "end"
        return
    c: int = action[1]
    h = action[2]
    ctx = s.ctx
    stays = h == s.c_pos[c]
    if "route" in ctx:  # E-1: the spinner's route, never twice through a space
        route = ctx["route"]
        if not route:  # the creature is chosen: what the spin allowed is settled
            route.append(s.c_pos[c])
            ctx.pop("may_move", None)
        route.append(h)
    pieces.move_creature(s, c, h, ev)
    ctx["creature"] = c
    kind = s.c_kind[c]
    dist = ctx.get("dist")
    # `limit`, without its call (asked at every step of a creature)
    last = dist == "D" or stays or ctx["steps"] >= (LIMIT[kind] if dist is None else int(dist))
    ARRIVE[kind](s, c, h, last, ev)


def _serpent(s: State, c: int, h: int, last: bool, ev: Events) -> None:
    """B-24: it destroys an occupied boat with its passengers and eats swimmers."""
    b = s.boat_at[h]
    occupied = b != OFF and bool(s.b_people[b])
    if occupied or _prey(s, h):
        if occupied:
            pieces.sink_boat(s, b, ev)
        pieces.eat(s, h, "serpent", ev)
        s.phase = "end"
    elif last:
        s.phase = "end"


def _shark(s: State, c: int, h: int, last: bool, ev: Events) -> None:
    """B-25: it stops on swimmers and eats them all (those no dolphin protects, D-5)."""
    if _prey(s, h):
        attack(s, c, h, s.turn, ev, then="end")
    elif last:
        s.phase = "end"


def _whale(s: State, c: int, h: int, last: bool, ev: Events) -> None:
    """B-26: it stops on an occupied boat and capsizes it; Q-5: it stops on a squid and
    removes it first."""
    # most whales meet no squid (none in play without the kit): the kept count says so at once
    squids = [x for x in s.on_board("squid") if s.c_pos[x] == h] if s.n_squid[h] else ()
    for x in squids:
        if ev is not None:
            ev.append(Event("squid_removed", {"squid": pieces.creature(s, x), "by": pieces.creature(s, c),
                                              "hex": board.name(h)}))  # fmt: skip
        pieces.remove_creature(s, x)
    b = s.boat_at[h]
    if b != OFF and s.b_people[b]:
        attack(s, c, h, s.turn, ev, then="end")
    elif squids or last:
        s.phase = "end"


def _squid(s: State, c: int, h: int, last: bool, ev: Events) -> None:
    """Q-3: it stops on an occupied boat, a whale, or next to land with people; Q-4 follows."""
    b = s.boat_at[h]
    if last or (b != OFF and s.b_people[b]) or s.n_whale[h] or _beside_people(s, h):
        squid.strikes(s, c, ev)
        s.phase = "end"


def _dolphin(s: State, c: int, h: int, last: bool, ev: Events) -> None:
    """D-6: it stops with swimmers and protects one of them, the mover choosing; a 1986 dolphin
    protects nobody and just moves (E-3)."""
    free = [] if s.is_1986 else [p for p in s.swimmers[h] if s.guardian(p) is None]
    if len(free) == 1:
        pieces.protect(s, c, free[0], ev)
    elif free:
        pieces.interrupt(s, {"kind": "guard", "actor": s.turn, "hex": h, "people": free})
    if free or last:
        s.phase = "end"


ARRIVE: Final = {
    "serpent": _serpent,
    "shark": _shark,
    "whale": _whale,
    "squid": _squid,
    "dolphin": _dolphin,
}


def _prey(s: State, h: int) -> bool:
    """Swimmers at h that a creature may attack (protected ones may not, D-5)."""
    return any(s.guardian(p) is None for p in s.swimmers[h]) if s.guard else bool(s.swimmers[h])


def _beside_people(s: State, h: int) -> bool:
    return any(s.land_people[n] for n in board.WATER_NEIGHBOURS[h])


def can_attack(s: State, kind: str, h: int) -> bool:
    """B-25: a shark attacks swimmers; B-26: a whale attacks an occupied boat."""
    if kind == "shark":
        return _prey(s, h)
    b = s.boat_at[h]
    return b != OFF and bool(s.b_people[b])


def attacked_seats(s: State, kind: str, h: int) -> set[int]:
    if kind == "shark":
        return {p // 10 for p in s.swimmers[h] if s.guardian(p) is None}
    return set(s.controllers(s.boat_at[h]))


def attack(s: State, c: int, h: int, mover: int, ev: Events, *, then: str) -> None:
    """Creature c is about to attack at h; first ask the defenders (B-29), then strike.

    `then` says what follows: ``end`` (the turn ends) or ``roll`` (a tile's shark: the die).
    """
    kind = s.c_kind[c]
    tile = REPELLENT[kind]
    n = s.players
    seats = attacked_seats(s, kind, h) - {mover}
    # Everyone attacked who, for all the table knows, may hold the repellent is asked — also one
    # the companion knows holds none — so that being asked tells the other players nothing.
    queue = sorted(
        (seat for seat in seats if hand.may_seem_to_hold(s, seat, tile)),
        key=lambda seat: (seat - mover) % n,
    )
    s.ctx = {"creature": c, "hex": h, "queue": queue, "then": then}
    if queue:
        s.phase, s.actor = "defence", queue[0]
    else:
        strike(s, ev)


def strike(s: State, ev: Events) -> None:
    c, h, then = s.ctx["creature"], s.ctx["hex"], s.ctx["then"]
    if s.c_kind[c] == "shark":
        pieces.eat(s, h, "shark", ev)
    else:
        pieces.wreck(s, s.boat_at[h], "whale", ev)  # B-26: capsized, passengers swim
    go_on(s, then)


def go_on(s: State, then: str) -> None:
    s.ctx = {}
    if then == "end":
        s.phase = "end"
    else:
        s.phase, s.actor = "roll", CHANCE


def legal_defence(s: State) -> list[Action]:
    tile = REPELLENT[s.c_kind[s.ctx["creature"]]]
    if hand.find(s, s.actor, tile) is None:
        return [("done",)]
    return [("repel",), ("done",)]


def apply_defence(s: State, action: Action, ev: Events) -> None:
    seat, c = s.actor, s.ctx["creature"]
    queue: list[int] = s.ctx["queue"]
    if action[0] == "repel":
        tile = REPELLENT[s.c_kind[c]]
        i = hand.find(s, seat, tile)
        assert i is not None
        hand.take(s, seat, i, tile)
        if ev is not None:
            ev.append(Event("repelled", {"seat": seat, "back": tile, "creature": pieces.creature(s, c),
                                         "hex": board.name(s.ctx["hex"])}))  # fmt: skip
        pieces.remove_creature(s, c)
        go_on(s, s.ctx["then"])
        return
    queue.pop(0)
    if queue:
        s.actor = queue[0]
    else:
        strike(s, ev)


def end_turn(s: State, ev: Events) -> None:
    """The turn passes to the next seat, who starts at step 1."""
    if s.ends_mid_turn and not s.pending and scoring.end_if_over(s, ev):
        return  # C-2: the last person left the board during this turn, which ends the game
    s.turns_taken[s.turn] += 1
    s.swam.clear()
    s.roll = None
    # The creature that just moved is remembered into the next turn, so that a step past its
    # limit is refused under the limit's rule (B-24 ...), not under the next turn's step.
    moved = s.ctx.get("creature")
    s.ctx = {} if moved is None else {"moved": moved, "limit": s.ctx.get("dist")}
    s.turn = (s.turn + 1) % s.players
    s.phase, s.actor = "tile", s.turn
    if ev is not None:
        ev.append(Event("turn", {"seat": s.turn}))


def past_limit(s: State, c: int) -> IllegalAction:
    """The refusal of a step by creature c after its move ended at the limit of its kind (or of
    the dice, or of the spinner)."""
    kind, dist = s.c_kind[c], s.ctx.get("limit")
    if s.is_1986:
        return IllegalAction("E-1", f"the {kind} went exactly as far as spun; its move is over")
    if dist is not None:
        return IllegalAction("D-4", f"die 2 showed {dist}: the {kind}'s move is over")
    rule = {"serpent": "B-24", "shark": "B-25", "whale": "B-26", "squid": "Q-3"}[kind]
    return IllegalAction(rule, f"a {kind} moves at most {limit(s, kind)} spaces; its move is over")


def explain(s: State, action: Action) -> IllegalAction:
    verb = action[0]
    if s.is_1986 and verb in ("roll", "dive"):
        return IllegalAction("E-1", "the 1986 ruleset uses the spinner: spin, e.g. spin shark 2")
    if verb == "spin":
        if s.is_1986:
            return IllegalAction("E-1", f"the spinner has no sector {action[1]} {action[2]}")
        return IllegalAction("E-1", "the spinner belongs to the 1986 ruleset: roll the die")
    if verb == "roll":
        if dive_dice(s):
            return IllegalAction(
                "D-1", "the red die is not used with the dive dice: roll both dive dice"
            )
        return IllegalAction("B-10", f"the creature die has no {action[1]} face")
    if verb == "dive":
        if not dive_dice(s):
            return IllegalAction("B-10", "the dive dice are not in this game: roll the red die")
        return IllegalAction("D-3", f"the dive dice have no faces {action[1]} and {action[2]}")
    if verb == "repel":
        tile = REPELLENT[s.c_kind[s.ctx["creature"]]]
        return IllegalAction("B-43", f"seat {s.actor + 1} cannot be holding a {tile}")
    if verb == "done":
        if s.is_1986 and s.ctx["creature"] is not None:
            return IllegalAction(
                "E-1", "the creature goes the whole move; it stops early only to attack"
            )
        return IllegalAction("B-10", "the rolled creature must move (creature_move=mandatory)")
    if s.is_1986 and verb == "creature":
        return spinner.explain(s, action)
    kinds, chosen = movers(s), s.ctx["creature"]
    if verb == "sail":
        if "boat" not in kinds:
            return IllegalAction(
                "D-5", "the dice name no boat: only the dive dice move unoccupied boats"
            )
        if s.b_people[action[1]]:
            return IllegalAction("D-5", "the dive dice never move an occupied boat")
        return IllegalAction("B-13", f"boat b{action[1] + 1} cannot go to {board.name(action[2])}")
    if verb == "protect":
        return IllegalAction("D-9", f"the dolphin can only turn to another swimmer in its own space, "
                                    f"not {person_name(action[2])}")  # fmt: skip
    _, c, h = action
    kind = s.c_kind[c]
    if kind not in kinds:
        return IllegalAction(
            "B-10", f"the dice name {s.ctx['kind']}: move one of {', '.join(sorted(kinds))}"
        )
    if s.c_pos[c] == OFF:
        return IllegalAction("B-28", f"{pieces.creature(s, c)} is not on the board")
    if chosen is not None and c != chosen:
        return IllegalAction("B-10", "one creature moves, not two")
    if s.ctx.get("dist") == "D":
        return IllegalAction(
            "D-4", f"a diving creature goes to an unoccupied sea space, not {board.name(h)}"
        )
    if h == s.c_pos[c]:  # B-10: a creature that moves moves; only a squid may stay
        return IllegalAction(
            "B-10", f"a {kind} that moves goes at least one space; it cannot stay where it is"
        )
    if chosen is not None and s.ctx["steps"] >= limit(s, kind):
        rule = {"serpent": "B-24", "shark": "B-25", "whale": "B-26"}.get(kind, "D-4")
        if s.ctx.get("dist") is not None:
            rule = "D-4"
        return IllegalAction(rule, f"a {kind} moves at most {limit(s, kind)} spaces here")
    return IllegalAction("B-27", f"creatures move to an adjacent sea space, not {board.name(h)}")
