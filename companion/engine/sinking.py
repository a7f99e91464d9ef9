"""Step 3 of a turn: a land tile is removed and its back resolved (B-20 ... B-23, B-33 ... B-37).

The 1986 island sinks ring by ring instead of terrain by terrain (E-5, see `rings`).

The back is a fact of the table: a player tells it (physical tiles) or the engine draws it from
the tiles left of that terrain (digital tiles). A red back told privately, or not told at all
until it is played, stays out of every other view.
"""

from __future__ import annotations

from collections import Counter
from math import floor
from typing import Final

from . import board, chance, overpopulated, pieces, rings
from .data import BACKS_1986, DECK, NOTHING, PIECES, RED, TERRAINS, VOLCANO_TERRAIN_1986
from .errors import IllegalAction
from .events import Event, Events
from .state import CHANCE, OFF, Action, State, person_name


def current_terrain(s: State) -> str | None:
    """B-20: beaches go first, then forests, then mountains."""
    standing = s.standing
    for t in TERRAINS:
        if standing[t]:
            return t
    return None


def candidates(s: State) -> list[int]:
    """B-21: tiles of the current terrain touching the sea; if none does, any of that terrain."""
    for t in TERRAINS:  # `current_terrain`, without its call (asked at every removal)
        tiles = s.standing[t]  # in `board.LAND`'s order
        if tiles:
            near = s.sea_near
            coastal = [h for h in tiles if near[h]]  # a sea neighbour
            return coastal or list(tiles)
    return []  # no land tile left (C-2, C-4: the game goes on to the die or ends)


def legal_sink(s: State) -> list[Action]:
    return [("sink", h) for h in _sinkable(s)]


def random_sink(s: State, draw: chance.Draw) -> Action:
    """`chance.pick` of `legal_sink` (the same draw of the same list), without an action
    built for every tile."""
    tiles = rings.candidates(s) if s.is_1986 else candidates(s)  # `_sinkable`, without its call
    return ("sink", tiles[floor(draw() * len(tiles))])  # `chance.choose`, without its call


def _sinkable(s: State) -> list[int]:
    """The tiles that may be removed now (B-21; E-5 on the 1986 rings)."""
    return rings.candidates(s) if s.is_1986 else candidates(s)


def apply_sink(s: State, action: Action, ev: Events) -> None:
    h: int = action[1]  # typed, as in movement.apply_step
    t = s.terrain[h]
    assert t is not None
    s.terrain[h] = None
    s.occupants[h] -= 1  # sea now: the tile no longer stands there
    s.standing[t].remove(h)
    near = s.sea_near
    for n, bit in board.BIT_BESIDE[h]:  # h is sea now, beside each of its neighbours
        near[n] = near[n] | bit  # not |=: compiled, that is a generic call
    s.sunk[t] += 1
    people = list(s.land_people[h])
    if ev is not None:
        ev.append(
            Event(
                "sunk",
                {
                    "seat": s.turn,
                    "hex": board.name(h),
                    "terrain": t,
                    "people": [person_name(p) for p in people],
                },
            )
        )
    if people:  # (most tiles are empty by the time they go: no calls then)
        pieces.swim(s, people, h, ev, by_choice=False)  # B-22: no creature can be there yet
        overpopulated.note_sunk(s, people)  # P-5: their point comes after the back resolves
    s.ctx = {"hex": h, "terrain": t}
    s.phase, s.actor = "back", CHANCE


def left(s: State, t: str, back: str) -> int:
    """Tiles of terrain t with this back that are not yet known to be elsewhere."""
    return DECK[t].get(back, 0) - s.known[t].get(back, 0)


def kept_backs(s: State) -> frozenset[str]:
    """Backs that go into the remover's hand: the red ones, except the dolphin's when the dive
    dice are played (a dolphin tile is shown at once and puts a dolphin out, D-2); none in the
    1986 ruleset, where nobody holds tiles (E-4)."""
    if s.is_1986:
        return NONE_KEPT
    return RED_BUT_DOLPHIN if "dive-dice" in s.rules.modules else RED


DECK_ITEMS: Final = {t: tuple(backs.items()) for t, backs in DECK.items()}
"""Each terrain's (back, tiles) pairs, as `DECK` lists them."""
DECK_TOTAL: Final = {t: sum(backs.values()) for t, backs in DECK.items()}
"""Each terrain's number of tiles."""
NONE_KEPT: Final[frozenset[str]] = frozenset()
RED_BUT_DOLPHIN: Final = RED - {"dolphin"}


def weights_1986(s: State) -> list[tuple[str, int]]:
    """E-4, E-5: each back the 1986 tile just removed may show, weighted by its chance. The
    volcano lies under one of the tiles of its terrain; the 39 other backs lie over any tile."""
    table = s.rules.option("backs_1986")
    counts, under = BACKS_1986[table], VOLCANO_TERRAIN_1986[table]
    shown = Counter[str]()
    for known in s.known.values():
        shown.update(known)
    pool = {k: n - shown[k] for k, n in counts.items() if k != "volcano" and n > shown[k]}
    total = sum(pool.values())
    volcano = counts.get("volcano", 0) > shown["volcano"]
    if s.ctx["terrain"] != under or not volcano:
        return list(pool.items())
    # The volcano is under this tile or under one of the others of its terrain still standing.
    others = sum(1 for h in board.LAND if s.terrain[h] == under)
    return [("volcano", total or 1)] + [(k, n * others) for k, n in pool.items() if others]


def red_room(s: State, t: str) -> int:
    """How many more red tiles of terrain t can still be unaccounted for."""
    deck, known = DECK[t], s.known[t]  # `left` of each kept back, its dicts looked up once
    room = -s.unknown_red[t]
    for k in kept_backs(s):
        room += deck.get(k, 0) - known.get(k, 0)
    return room


def possible_backs(s: State) -> list[str]:
    """Backs the tile just removed may have; ``red`` is a red back not told (physical tiles)."""
    if s.is_1986:
        return [k for k, n in weights_1986(s) if n > 0]
    t = s.ctx["terrain"]
    room = red_room(s, t)
    kept = kept_backs(s)
    backs = [k for k in DECK[t] if left(s, t, k) > 0 and (k not in kept or room > 0)]
    if s.mode == "physical" and room > 0:
        backs.append("red")
    return backs


def possible_backs_seen_by(s: State, seat: int) -> list[str]:
    """The backs `seat` can tell the tile may have, knowing only what it may know: the backs
    shown or played, and its own tiles — not what other seats told the companion privately
    (offering only `possible_backs` would tell it which red tiles the others keep, spec §9)."""
    if s.is_1986:
        return possible_backs(s)  # nobody holds tiles (E-4): nothing is private
    t = s.ctx["terrain"]
    kept = kept_backs(s)
    private = Counter(
        k for other, hand in enumerate(s.hands) if other != seat for tt, k in hand if tt == t and k
    )
    seen = {k: left(s, t, k) + private[k] for k in DECK[t]}
    room = sum(seen[k] for k in kept if k in seen) - s.unknown_red[t] - sum(private.values())
    backs = [k for k in DECK[t] if seen[k] > 0 and (k not in kept or room > 0)]
    if s.mode == "physical" and room > 0:
        backs.append("red")
    return backs


def back_weights(s: State) -> list[tuple[str, int]]:
    """Digital tiles: each back weighted by how many tiles of the terrain still hide it."""
    if s.is_1986:
        return [(k, n) for k, n in weights_1986(s) if n > 0]
    t = s.ctx["terrain"]
    known = s.known[t]
    out: list[tuple[str, int]] = []
    for kn in DECK_ITEMS[t]:  # `left` of each back (asked at every draw of a back)
        k = kn[0]
        if k in known:  # `in`, not a call of `get`; most backs are not known yet
            n = kn[1] - known[k]
            if n > 0:
                out.append((k, n))
        else:
            out.append(kn)  # the deck's own pair: none of these is known elsewhere
    untold = s.unknown_red[t]
    if untold <= 0:
        return out  # no red tile unaccounted for: every kept back still hidden may be this one
    kept = kept_backs(s)
    room = -untold  # `red_room`
    for k, n in out:
        if k in kept:
            room += n
    if room > 0:
        return out  # a red tile may still be under this one
    return [(k, n) for k, n in out if k not in kept]


def drawn_back(s: State, pick: float) -> str | None:
    """The back that `Game.draw`'s number `pick` (in [0, 1)) falls on among `back_weights`: the
    same walk over the same weights in the same order, without listing them (a list of pairs
    at every back drawn, then a loop adding them up, were three quarters of a draw's Python).

    None where the weights are not simply the deck's less the known backs (a red tile untold,
    whose room may leave the kept backs out; the 1986 backs): `back_weights` is asked then."""
    t = s.ctx["terrain"]
    if s.is_1986 or s.unknown_red[t] > 0:
        return None
    known = s.known[t]
    # every tile still hidden, counted without a walk: no back is known more often than the
    # deck holds it (position.read refuses such a position; the engine never makes one)
    total = DECK_TOTAL[t] - sum(known.values())
    for k, n in DECK_ITEMS[t]:
        if k in known:  # `in`, not a call of `get`: most backs are not known yet
            n -= known[k]
            if n <= 0:
                continue  # not among the weights
        pick -= n / total  # as `Game.draw` walks them: the very same floats
        if pick < 0:
            return k
    return back_weights(s)[-1][0]  # rounding left the number past the end: the last weight's


def legal_back(s: State) -> list[Action]:
    return [("back", k) for k in possible_backs(s)]


def apply_back(s: State, action: Action, ev: Events) -> None:
    back: str = action[1]  # typed, as in movement.apply_step
    h: int = s.ctx["hex"]
    t: str = s.ctx["terrain"]
    seat = s.turn
    s.ctx = {}
    if back == "red" or back in kept_backs(s):
        if back == "red":
            s.unknown_red[t] += 1
            s.hands[seat].append([t, None])
        else:
            s.known[t][back] = s.known[t].get(back, 0) + 1
            s.hands[seat].append([t, back])
        if ev is not None:
            secret = {} if back == "red" else {"back": back}
            ev.append(
                Event("kept", {"seat": seat, "hex": board.name(h), "terrain": t}, secret, seat)
            )
        s.phase, s.actor = "roll", CHANCE
        return
    s.known[t][back] = s.known[t].get(back, 0) + 1
    if ev is not None:
        ev.append(Event("revealed", {"seat": seat, "hex": board.name(h), "back": back}))
    s.phase, s.actor = "roll", CHANCE
    RESOLVE[back](s, h, ev)


def _shark(s: State, h: int, ev: Events) -> None:
    """B-33: a shark comes from the supply; swimmers on that space are eaten."""
    from . import creatures  # the defence window lives with the creatures

    c = _from_supply(s, "shark", h, ev)
    if c is None:
        return
    if s.swimmers[h]:
        if s.rules.option("repellent_vs_tiles") == "yes":
            creatures.attack(s, c, h, s.turn, ev, then="roll")
        else:
            pieces.eat(s, h, "shark", ev)


def _whale(s: State, h: int, ev: Events) -> None:
    """B-34: a whale comes from the supply onto that space; Q-1: a squid enters with it, where
    the revealer chooses (with variant #1, Q-7, the squid comes alone)."""
    if "whale" in s.in_play and _from_supply(s, "whale", h, ev) is None:
        return  # no whale came into play, so no squid comes with it
    if "squid" in s.in_play:
        squids = s.creatures_in_supply("squid")
        if squids:
            pieces.interrupt(s, {"kind": "squid", "actor": s.turn, "squid": squids[0]})
        else:
            if ev is not None:
                ev.append(Event("no_piece", {"piece": "squid", "hex": board.name(h)}))


def _from_supply(s: State, kind: str, h: int, ev: Events) -> int | None:
    """A creature of that kind from the supply onto h; None (and said so) if none is left."""
    supply = s.creatures_in_supply(kind)
    if not supply:
        if ev is not None:
            ev.append(Event("no_piece", {"piece": kind, "hex": board.name(h)}))
        return None
    pieces.put_creature(s, supply[0], h)
    if ev is not None:
        ev.append(
            Event(
                "creature_placed", {"creature": pieces.creature(s, supply[0]), "hex": board.name(h)}
            )
        )
    return supply[0]


def _dolphin(s: State, h: int, ev: Events) -> None:
    """D-2: shown at once, the tile leaves the game and a dolphin takes its space; of the people
    swimming there from the tile, the remover chooses the one it protects."""
    d = _from_supply(s, "dolphin", h, ev)
    if d is None or s.is_1986:  # E-3: the 1986 dolphin carries swimmers, it protects none
        return
    swimmers = list(s.swimmers[h])
    if len(swimmers) == 1:
        pieces.protect(s, d, swimmers[0], ev)
    elif swimmers:
        pieces.interrupt(s, {"kind": "guard", "actor": s.turn, "hex": h, "people": swimmers})


def _boat(s: State, h: int, ev: Events) -> None:
    """B-35: a boat from the supply; the swimmers there board it, the revealer choosing three."""
    supply = s.boats_left()
    if supply:
        _boat_arrives(s, supply[0], h, ev)
        return
    empties = unoccupied_boats(s)
    if s.rules.option("boat_supply_empty") == "none" or not empties:
        if ev is not None:
            ev.append(Event("no_piece", {"piece": "boat", "hex": board.name(h)}))
    elif len(empties) == 1:
        _boat_arrives(s, empties[0], h, ev)
    else:
        s.ctx = {"hex": h}
        s.phase, s.actor = "take", s.turn


def unoccupied_boats(s: State) -> list[int]:
    return [b for b, pos in enumerate(s.b_pos) if pos != OFF and not s.b_people[b]]


def _boat_arrives(s: State, b: int, h: int, ev: Events) -> None:
    frm = s.b_pos[b]
    if frm != OFF:
        s.boat_at[frm] = OFF
        s.occupants[frm] -= 1
    s.b_pos[b] = h
    s.boat_at[h] = b
    s.occupants[h] += 1
    if frm == OFF:
        s.recontrol(b)  # from the supply (a boat taken from the board keeps its people)
    if ev is not None:
        ev.append(
            Event(
                "boat_arrived",
                {
                    "boat": f"b{b + 1}",
                    "hex": board.name(h),
                    "from": None if frm == OFF else board.name(frm),
                },
            )
        )
    swimmers = list(s.swimmers[h])
    if len(swimmers) <= 3:
        for p in swimmers:
            pieces.to_boat(s, p, b)
        if swimmers and ev is not None:
            ev.append(
                Event(
                    "boarded_all",
                    {"boat": f"b{b + 1}", "people": [person_name(p) for p in swimmers]},
                )
            )
    else:
        s.ctx = {"hex": h, "boat": b}
        s.phase, s.actor = "pick", s.turn


def legal_take(s: State) -> list[Action]:
    return [("take", b) for b in unoccupied_boats(s)]


def apply_take(s: State, action: Action, ev: Events) -> None:
    h = s.ctx["hex"]
    s.phase, s.actor = "roll", CHANCE
    s.ctx = {}
    _boat_arrives(s, action[1], h, ev)


def legal_pick(s: State) -> list[Action]:
    return [("pick", p) for p in s.swimmers[s.ctx["hex"]]]


def apply_pick(s: State, action: Action, ev: Events) -> None:
    p, b = action[1], s.ctx["boat"]
    pieces.to_boat(s, p, b)
    if ev is not None:
        ev.append(
            Event(
                "boarded",
                {"person": person_name(p), "boat": f"b{b + 1}", "from": board.name(s.ctx["hex"])},
            )
        )
    if len(s.b_people[b]) == 3:
        s.ctx = {}
        s.phase, s.actor = "roll", CHANCE


def _whirlpool(s: State, h: int, ev: Events) -> None:
    """B-36: everything that moves on that space and the sea spaces around it is removed."""
    people: list[int] = []
    boats: list[int] = []
    beasts: list[int] = []
    for x in (h, *board.WATER_NEIGHBOURS[h]):
        if not s.is_sea(x):
            continue
        people.extend(s.swimmers[x])
        b = s.boat_at[x]
        if b != OFF:
            people.extend(s.b_people[b])
            boats.append(b)
        beasts.extend(s.creatures_at(x))
    for p in people:
        pieces.lose(s, p)
    for b in boats:
        pieces.to_supply(s, b)
    for c in beasts:
        pieces.remove_creature(s, c)
    if ev is not None:
        ev.append(
            Event(
                "whirlpool",
                {
                    "hex": board.name(h),
                    "people": [person_name(p) for p in people],
                    "boats": [f"b{b + 1}" for b in boats],
                    "creatures": [pieces.creature(s, c) for c in beasts],
                },
            )
        )


def _volcano(s: State, h: int, ev: Events) -> None:
    """B-37, B-23: the game ends at once; step 4 is not played."""
    from . import scoring

    if scoring.volcano_is_whirlpool(s):  # C-2, C-4: the volcano is played as a whirlpool
        _whirlpool(s, h, ev)
        return
    scoring.end(s, ev)


def _nothing(s: State, h: int, ev: Events) -> None:
    """E-4: a 1986 tile whose back shows nothing: the space is simply sea."""


RESOLVE: Final = {
    NOTHING: _nothing,
    "shark": _shark,
    "whale": _whale,
    "boat": _boat,
    "whirlpool": _whirlpool,
    "volcano": _volcano,
    "dolphin": _dolphin,
}


def explain(s: State, action: Action) -> IllegalAction:
    verb = action[0]
    if verb == "sink":
        h = action[1]
        t = s.terrain[h]
        if t is None:
            return IllegalAction("B-9", f"{board.name(h)} holds no land tile")
        if s.is_1986:
            return rings.refusal(s, h)
        if t != current_terrain(s):
            return IllegalAction("B-20", f"all {current_terrain(s)} tiles go before any {t}")
        return IllegalAction(
            "B-21", f"{board.name(h)} does not touch the sea, and other {t} tiles do"
        )
    if verb == "back":
        t = s.ctx["terrain"]
        back = action[1]
        if back == "red" and s.mode != "physical":
            return IllegalAction("B-22", "digital tiles are dealt by the companion: name the back")
        if s.is_1986:
            return IllegalAction("E-4", f"no 1986 tile with a {back} back can remain here")
        if back == NOTHING:
            return IllegalAction("E-4", "only 1986 tiles show nothing")
        return IllegalAction("B-22", f"no {t} tile with a {back} back can remain")
    if verb == "take":
        return IllegalAction("B-35", "take an unoccupied boat that is on the board")
    return IllegalAction("B-35", "pick a swimmer on the new boat's space")


__all__ = ["PIECES"]
