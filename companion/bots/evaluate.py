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

from functools import cache

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


def shares(s: State) -> list[tuple[int, float]]:
    """Each person still counting (saved, or in play) with the share of its value it promises."""
    dist = safety_distance(tuple(sorted(s.access)))
    shark_near, serpent_near, whale_near = _reach(s)
    out = []
    for p, kind in s.p_kind.items():
        if kind == SAVED:
            share = 1.0
        elif kind == LAND:
            h = s.p_at[p]
            share = ON_LAND - PER_STEP * dist[h] + TERRAIN_BONUS.get(s.terrain[h] or "", 0.0)
        elif kind == BOAT:
            h = s.b_pos[s.p_at[p]]
            share = ON_BOAT - PER_STEP * dist[h]
            share += OWN_BOAT if p // 10 in s.controllers(s.p_at[p]) else -OTHERS_BOAT
            if h in whale_near:
                share -= WHALE_NEAR
            if h in serpent_near:
                share -= SERPENT_NEAR
        elif kind == SEA:
            h = s.p_at[p]
            share = IN_SEA - PER_STEP * dist[h]
            if h in shark_near:
                share -= SHARK_NEAR
            if h in serpent_near:
                share -= SERPENT_NEAR
        else:
            continue  # unplaced, or lost
        out.append((p, max(share, 0.02)))
    return out


@cache
def within(h: int, steps: int) -> frozenset[int]:
    """The hexes at most `steps` steps from h."""
    return frozenset(n for n in range(board.SIZE) if board.distance(h, n) <= steps)


def _reach(s: State) -> tuple[set[int], set[int], set[int]]:
    """The hexes a shark, a sea serpent or a whale on the board can reach with its next move
    (B-10: 2, 1 and 3 spaces)."""
    near: dict[str, set[int]] = {"shark": set(), "serpent": set(), "whale": set()}
    for c, h in enumerate(s.c_pos):
        kind = s.c_kind[c]
        hexes = near.get(kind)
        if hexes is not None and h >= 0:
            hexes.update(within(h, STEPS[kind]))
    return near["shark"], near["serpent"], near["whale"]


def expectations(
    s: State,
    values: dict[int, int | None] | None = None,
    counted: list[tuple[int, float]] | None = None,
) -> list[float]:
    """Each seat's expected points as the position stands (values: as the evaluator believes
    them; a None value counts the mean, and every person counts 1 in the 1986 ruleset)."""
    vals = s.p_value if values is None else values
    mean = mean_value(s)
    out = [0.0] * s.players
    for p, share in shares(s) if counted is None else counted:
        v = 1 if s.is_1986 else vals[p]
        out[p // 10] += (mean if v is None else v) * share
    return out


def score(
    s: State,
    seat: int,
    values: dict[int, int | None] | None = None,
    counted: list[tuple[int, float]] | None = None,
) -> float:
    """The position for `seat`: its expectation less the best other seat's (a won game is worth
    more than any position, a lost one less)."""
    if s.result is not None:
        winners = s.result["winners"]
        if seat in winners:
            return 100.0 / len(winners)
        return -100.0
    exp = expectations(s, values, counted)
    mine = exp[seat]
    others = [e for i, e in enumerate(exp) if i != seat]
    return mine - LEADER_WEIGHT * max(others) - (1 - LEADER_WEIGHT) * sum(others) / len(others)
