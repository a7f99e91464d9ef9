"""How good a position is for a seat: each seat's expected points, by where its people are.

A saved person counts its whole value, a lost one nothing; one still out counts a share that
shrinks with its distance from a safe island and with the creatures that can reach it next
(sharks eat swimmers, whales capsize boats, serpents take both: B-25 ... B-27). Aboard, it
matters who steers (B-14): a boat its seat steers goes where its people need, one the others
steer goes where theirs do. A bot wants its own expectation high and the best other seat's low
(the game is won by points, B-30; by people saved in the 1986 ruleset, E-8). The numbers were
tuned by `companion bench bots`.
"""

from __future__ import annotations

from functools import cache, lru_cache

from ..engine import board
from ..engine.data import STEPS
from ..engine.fivesix import people_values
from ..engine.state import BOAT, LAND, SAVED, SEA, State

# How much of a person's value each place promises, before distance and danger.
ON_LAND = 0.5
ON_BOAT = 0.55
IN_SEA = 0.55
PER_STEP = 0.1  # each hex still to go to safety
TERRAIN_BONUS = {"beach": -0.04, "forest": 0.0, "mountain": 0.03}  # beaches sink first (B-20)
SHARK_NEAR = 0.1  # a swimmer a shark can reach
SERPENT_NEAR = 0.08  # anything at sea beside a sea serpent
WHALE_NEAR = 0.08  # a boat with people a whale can reach
LEADER_WEIGHT = 1.0  # how much the best other seat counts against the mean of the others
OWN_BOAT = 0.1  # aboard a boat its seat steers (B-14): it can sail it to safety
OTHERS_BOAT = 0.1  # aboard a boat other seats steer: they sail it where it suits them


@cache
def safety_distance(access: tuple[int, ...]) -> tuple[int, ...]:
    """For every hex, the steps to the nearest way onto a safe island (its access hexes)."""
    return tuple(
        min(board.distance(h, a) for a in access) + 1 if not board.IS_SAFE[h] else 0
        for h in range(board.SIZE)
    )


def mean_value(s: State) -> float:
    if s.is_1986:
        return 1.0
    values = people_values(s.rules, s.players)
    return sum(values) / len(values)


Promises = tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]
"""Per hex, the share promised on land, aboard and at sea, before terrain, steering and danger."""


def promises(s: State) -> Promises:
    """This game's `Promises` (its safe islands' access hexes never change)."""
    return _promises(tuple(sorted(s.access)))


@cache
def _promises(access: tuple[int, ...]) -> Promises:
    dist = safety_distance(access)
    return (
        tuple(ON_LAND - PER_STEP * d for d in dist),
        tuple(ON_BOAT - PER_STEP * d for d in dist),
        tuple(IN_SEA - PER_STEP * d for d in dist),
    )


def shares(s: State, promised: Promises | None = None) -> list[tuple[int, float]]:
    """Each person still counting (saved, or in play) with the share of its value it promises
    (`promised`: `promises(s)`, when the caller already has it)."""
    on_land, on_boat, in_sea = promises(s) if promised is None else promised
    shark_near, serpent_near, whale_near = _reach(s)
    p_kind, p_at, terrain, b_pos = s.p_kind, s.p_at, s.terrain, s.b_pos
    out = []
    for p in s.p_owner:
        kind = p_kind[p]
        if kind == LAND:
            h = p_at[p]
            share = on_land[h] + TERRAIN_BONUS.get(terrain[h] or "", 0.0)
        elif kind == SAVED:
            share = 1.0
        elif kind == BOAT:
            h = b_pos[p_at[p]]
            share = on_boat[h]
            share += OWN_BOAT if p // 10 in s.controllers(p_at[p]) else -OTHERS_BOAT
            if h in whale_near:
                share -= WHALE_NEAR
            if h in serpent_near:
                share -= SERPENT_NEAR
        elif kind == SEA:
            h = p_at[p]
            share = in_sea[h]
            if h in shark_near:
                share -= SHARK_NEAR
            if h in serpent_near:
                share -= SERPENT_NEAR
        else:
            continue  # unplaced, or lost
        out.append((p, 0.02 if share < 0.02 else share))  # max(share, 0.02), without a call
    return out


@cache
def within(h: int, steps: int) -> frozenset[int]:
    """The hexes at most `steps` steps from h."""
    return frozenset(n for n in range(board.SIZE) if board.distance(h, n) <= steps)


def _reach(s: State) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    """The hexes a shark, a sea serpent or a whale on the board can reach with its next move
    (B-10: 2, 1 and 3 spaces)."""
    return _reach_from(tuple(s.c_pos), tuple(s.c_kind))


@lru_cache(maxsize=256)
def _reach_from(
    c_pos: tuple[int, ...], c_kind: tuple[str, ...]
) -> tuple[frozenset[int], frozenset[int], frozenset[int]]:
    # Cached: most actions weighed in one decision move no creature, so they share the answer.
    near: dict[str, set[int]] = {"shark": set(), "serpent": set(), "whale": set()}
    for h, kind in zip(c_pos, c_kind, strict=True):
        hexes = near.get(kind)
        if hexes is not None and h >= 0:
            hexes.update(within(h, STEPS[kind]))
    return frozenset(near["shark"]), frozenset(near["serpent"]), frozenset(near["whale"])


def expectations(s: State, values: list[int | None] | None = None) -> list[float]:
    """Each seat's expected points as the position stands (values: as the evaluator believes
    them; a None value counts the mean, and every person counts 1 in the 1986 ruleset)."""
    vals = s.p_value if values is None else values
    mean = mean_value(s)
    out = [0.0] * s.players
    for p, share in shares(s):
        v = 1 if s.is_1986 else vals[p]
        out[p // 10] += (mean if v is None else v) * share
    return out


def score(s: State, seat: int, values: list[int | None] | None = None) -> float:
    """The position for `seat`: its expectation less the best other seat's (a won game is worth
    more than any position, a lost one less)."""
    if s.result is not None:
        return _final(s, seat)
    exp = expectations(s, values)
    others = [e for i, e in enumerate(exp) if i != seat]
    return _against(exp[seat], max(others), sum(others), len(others))


def _final(s: State, seat: int) -> float:
    winners = s.result["winners"] if s.result is not None else []
    if seat in winners:
        return 100.0 / len(winners)
    return -100.0


def _against(mine: float, best: float, total: float, n: int) -> float:
    """Own expectation less the best other seat's (and less the others' mean, as weighted)."""
    return mine - LEADER_WEIGHT * best - (1 - LEADER_WEIGHT) * total / n


class Weighing:
    """`score` of the positions one step from a seat's decision, averaged over samples' values
    (normal's ranking): the same sums, with what one decision cannot change worked out once.

    Within a decision the samples, the distances to safety and the mean value stay put, and
    most actions weighed leave the other seats' people where they were: their expectations,
    sample by sample, are kept by the shares they were summed from and not summed again."""

    def __init__(self, s: State, seat: int, samples: list[list[int | None]]) -> None:
        self.seat = seat
        self.players = s.players
        self.promised = promises(s)
        self.mean = mean_value(s)
        self.is_1986 = s.is_1986
        self.samples = samples
        self._theirs: dict[tuple[tuple[int, float], ...], list[tuple[float, float, int]]] = {}

    def __call__(self, after: State) -> float:
        """The mean over the samples of `score(after, seat, values)`, with the seat's own
        values as `after` holds them and the other seats' as each sample does."""
        seat, n = self.seat, len(self.samples)
        if after.result is not None:
            return sum([_final(after, seat) for _ in range(n)]) / n
        mine = 0.0
        theirs = []
        for p, share in shares(after, self.promised):
            if p // 10 == seat:
                v = 1 if self.is_1986 else after.p_value[p]
                mine += (self.mean if v is None else v) * share
            else:
                theirs.append((p, share))
        key = tuple(theirs)
        others = self._theirs.get(key)
        if others is None:
            others = self._theirs[key] = [self._others(values, theirs) for values in self.samples]
        return sum([_against(mine, best, total, k) for best, total, k in others]) / n

    def _others(
        self, values: list[int | None], theirs: list[tuple[int, float]]
    ) -> tuple[float, float, int]:
        """The other seats' expectations by one sample's values: the best, their sum, how many."""
        out = [0.0] * self.players
        for p, share in theirs:
            v = 1 if self.is_1986 else values[p]
            out[p // 10] += (self.mean if v is None else v) * share
        others = [e for i, e in enumerate(out) if i != self.seat]
        return max(others), sum(others), len(others)
