"""What one seat knows of a game, and the whole games that agree with it (determinisation).

A bot decides from its seat's knowledge only: what its seat's view shows (the board, the tiles
sunk and shown, how many red tiles each seat holds and of which terrain) and what it did itself
(the values of the people it placed, the backs of the tiles it keeps). Everything else — the
other seats' values and the backs of the tiles they keep, the game's secret seed — is erased by
`knowledge`, and `determinise` fills it in again by sampling, consistently with what is known:
each seat's values are a permutation of its set (B-4, P-1, P-2), each hidden back one that its
terrain still has unaccounted for (B-22). A decision made on such samples cannot depend on a
fact the seat cannot see: the fairness test in tests/test_bots.py changes those facts and gets
the same decision.
"""

from __future__ import annotations

import random

from ..engine.data import DECK
from ..engine.fivesix import people_values
from ..engine.sinking import kept_backs
from ..engine.state import UNPLACED, State


def knowledge(state: State, seat: int) -> State:
    """A copy of `state` holding only what `seat` may know; the unknown facts are None."""
    s = state.copy()
    s.seed = 0  # the draws to come are not known to anyone
    # a value is known when the seat's view shows it (at the end, or its own under
    # own_values_visible), or when the seat chose it itself (placing, in a digital game)
    shown = s.phase in ("over", "reveal")
    own = s.mode == "digital" or s.rules.option("own_values_visible") == "yes"
    for p in s.p_owner:
        if not (shown or (own and p // 10 == seat)):
            s.p_value[p] = None
    s.recount_values()  # the values left to each seat, as far as this seat knows
    for other, hand in enumerate(s.hands):
        if other == seat:
            continue
        for tile in hand:
            t, back = tile
            if back is not None and t is not None:
                # a back told privately by another seat goes back among the unaccounted ones
                s.known[t][back] -= 1
                s.unknown_red[t] += 1
                tile[1] = None
    return s


def determinise(known: State, seat: int, rng: random.Random) -> State:
    """A whole game agreeing with `known` (from `knowledge`): unknown values and backs drawn at
    random among those still possible, a fresh seed for the draws to come. The mode stays, so
    the actions legal in the real game stay legal in the sample."""
    s = known.copy()
    s.seed = rng.getrandbits(48)
    if not s.is_1986:
        values = sorted(people_values(s.rules, s.players))
        p_value, p_kind = s.p_value, s.p_kind
        for people in s.seat_people:
            unknown = [p for p in people if p_value[p] is None and p_kind[p] != UNPLACED]
            if not unknown:
                continue
            pool = _left(values, [p_value[p] for p in people])
            rng.shuffle(pool)
            for p, v in zip(unknown, pool, strict=False):
                p_value[p] = v
        s.recount_values()
    kept = kept_backs(s)
    for hand in s.hands:
        for tile in hand:
            t = tile[0]
            if tile[1] is not None or t is None:
                continue
            room = {k: DECK[t].get(k, 0) - s.known[t].get(k, 0) for k in sorted(kept)}
            backs = [k for k, n in room.items() if n > 0]
            if not backs:
                continue  # nothing left to be: leave it untold, as the table left it
            back = rng.choices(backs, weights=[room[k] for k in backs])[0]
            tile[1] = back
            s.unknown_red[t] -= 1
            s.known[t][back] = s.known[t].get(back, 0) + 1
    return s


def _left(values: list[int], known: list[int | None]) -> list[int]:
    """The seat's `values` (sorted) not yet known, still sorted: each known value taken once
    (one known more often than the set holds it takes nothing more)."""
    pool = list(values)
    for v in known:
        if v is not None and v in pool:
            pool.remove(v)
    return pool
