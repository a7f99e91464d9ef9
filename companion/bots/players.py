"""The bots' levels, and the two simple policies they are measured against.

Every level decides on `knowledge(state, seat)` only and weighs actions on determinised samples
of it (see `knowledge`):

- *easy*: the best action by the evaluation on one sample, but a third of its decisions at
  random;
- *normal*: the action with the best evaluation one step ahead, averaged over a few samples;
- *strong*: in a turn's own steps, normal's best few, each played on to the end of the turn —
  the dice and tile backs drawn, its own later decisions taken as normal would — on as many
  samples as its time budget allows, all candidates on the same sample and draws; normal's
  choice stands unless another did better by more than the samples' own spread says chance
  could (at setup, where a turn's end is a whole round of others' placements away, strong
  places as normal does).

The baselines of `companion bench bots`: *random* picks uniformly among the legal actions;
*greedy* rescues its highest values first and attacks the leader, one step ahead, with no
sampling of what it cannot see.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Game
from ..engine.state import BOAT, LAND, SAVED, SEA, Action, State
from . import evaluate
from .knowledge import determinise, knowledge

LEVELS = ("easy", "normal", "strong")
BASELINES = ("random", "greedy")
STRONG_BUDGET_S = 0.5
"""The strong level's default time for one decision (the phone waits at most about this)."""
NORMAL_SAMPLES = 4
STRONG_CANDIDATES = 3
SEARCHED = frozenset({"tile", "effect", "move", "sink", "creature"})
"""The phases of a seat's own turn, which strong plays on to the turn's end."""
SURE = 1.0
"""How many standard errors a candidate's mean gain over normal's choice must clear."""
ROLLOUT_DECISIONS = 40  # a turn never needs more; a safety net against a long interrupt chain


@dataclass(frozen=True)
class Decision:
    """What a bot chose, and why, in one line."""

    action: Action
    why: str
    gain: float
    """Its evaluation gain over doing nothing better: expected points, own less best other."""
    reason: str = "best"
    """Why, as a word a page can put in its own language: ``only`` (the only legal action),
    ``told`` (a fact for the table to tell), ``whim`` (easy's random pick) or ``best``."""
    options: int = 0
    """How many legal actions it chose among."""


def decide(
    game: Game,
    seat: int,
    level: str,
    rng: random.Random,
    *,
    budget_s: float = STRONG_BUDGET_S,
    clock: Callable[[], float] = time.perf_counter,
) -> Decision:
    """The decision of a bot of `level` for `seat`, which must be the seat to act now."""
    if level not in LEVELS:
        raise ValueError(f"a bot's level is one of {', '.join(LEVELS)}, not {level!r}")
    if game.actor != seat:
        raise ValueError(f"seat {seat + 1} is not to act now")
    known = knowledge(game.state, seat)
    legal = _knowingly(known, seat, Game(known).legal_actions())
    if len(legal) == 1:
        return Decision(legal[0], "the only legal action", 0.0, "only", 1)
    if game.phase == "reveal":
        # a fact, not a choice: the value under a saved piece is the table's to tell (B-31)
        return Decision(rng.choice(legal), "the value is told by the table", 0.0, "told")
    if level == "easy":
        if rng.random() < 1 / 3:
            return Decision(rng.choice(legal), "played on a whim (easy level)", 0.0, "whim")
        ranked = _rank(known, seat, legal, rng, samples=1)
    else:
        ranked = _rank(known, seat, legal, rng, samples=NORMAL_SAMPLES)
    if level == "strong" and known.phase in SEARCHED:
        ranked = _search(known, seat, ranked[:STRONG_CANDIDATES], rng, budget_s, clock)
    best_value, best = ranked[0]
    base = evaluate.score(known, seat)
    gain = best_value - base
    return Decision(best, _why(level, len(legal), gain), gain, "best", len(legal))


def _knowingly(known: State, seat: int, legal: list[Action]) -> list[Action]:
    """`legal` without playing a red tile whose back the seat does not know: at a physical
    table a bot's kept tile is untold until a person tells it, and the engine then lists a
    play of every back it could be (a sample would pick one, and a person could not make it)."""
    backs = {tile[1] for tile in known.hands[seat] if tile[1] is not None}
    return [a for a in legal if a[0] != "play" or a[1] in backs]


def _rank(
    known: State, seat: int, legal: list[Action], rng: random.Random, samples: int
) -> list[tuple[float, Action]]:
    """Every action with its evaluation one step ahead, averaged over `samples` determinised
    games, best first (ties kept in the engine's order, so a fixed seed decides alike).

    One step of the seat's own never depends on a hidden value or another seat's tile, so each
    action is played once, on the first sample, and weighed with every sample's values."""
    games = [determinise(known, seat, rng) for _ in range(samples)]
    first = Game(games[0])
    first.listen = False  # a look-ahead reads no events (its copies inherit this)
    # the sample's own list: when `legal` is all of it, its actions go on copies unchecked
    listed = first.legal_actions()
    weigh = evaluate.Weighing(first.state, seat, [g.p_value for g in games])
    ranked = []
    for i, action in enumerate(listed if listed == legal else legal):
        after = first.copy()
        after.apply(action)
        ranked.append((weigh(after.state), -i))
    ranked.sort(reverse=True)
    return [(value, legal[-i]) for value, i in ranked]


def _search(
    known: State,
    seat: int,
    candidates: list[tuple[float, Action]],
    rng: random.Random,
    budget_s: float,
    clock: Callable[[], float],
) -> list[tuple[float, Action]]:
    """Each candidate played on to the end of the turn on fresh samples, round after round,
    while the budget lasts. The first candidate (normal's choice) stays first unless another's
    mean gain over it, sample by sample, clears `SURE` standard errors: a lucky die on one
    sample must not outvote the one-step ranking."""
    deadline = clock() + budget_s
    results: list[list[float]] = [[] for _ in candidates]
    while not results[0] or clock() < deadline:
        first = Game(determinise(known, seat, rng))
        first.listen = False
        listed = first.legal_actions()
        seed = rng.getrandbits(32)
        for i, (_, action) in enumerate(candidates):
            game = first.copy()
            game.apply(listed[listed.index(action)])  # the sample's own object: not re-checked
            # the same draws for every candidate: their difference is theirs, not the dice's
            _play_out_turn(game, seat, random.Random(seed))
            results[i].append(evaluate.score(game.state, seat))
    best, best_gain = 0, 0.0
    for i in range(1, len(candidates)):
        gain, spread = _mean_and_error([a - b for a, b in zip(results[i], results[0], strict=True)])
        if gain > best_gain and gain > SURE * spread:
            best, best_gain = i, gain
    order = [best] + [i for i in range(len(candidates)) if i != best]
    return [(sum(results[i]) / len(results[i]), candidates[i][1]) for i in order]


def _mean_and_error(xs: list[float]) -> tuple[float, float]:
    """The mean of `xs` and its standard error (infinite from a single sample)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, float("inf")
    variance = sum((x - mean) ** 2 for x in xs) / (n - 1)
    return mean, (variance / n) ** 0.5


def _play_out_turn(game: Game, seat: int, rng: random.Random) -> None:
    """Play `game` on until the turn under way ends: draws from the sample's own seed, the
    seat's decisions one step ahead on this sample, another seat's answers (a repellent, a
    dolphin's protege) at random."""
    turn = game.state.turn
    for _ in range(ROLLOUT_DECISIONS):
        if game.over or game.state.turn != turn:
            return
        if game.is_chance():
            game.apply(game.draw())
        elif game.actor == seat:
            game.apply(_one_step(game, seat))
        else:
            game.apply(rng.choice(game.legal_actions()))


def _one_step(game: Game, seat: int) -> Action:
    legal = game.legal_actions()
    best, best_value = legal[0], float("-inf")
    for action in legal:
        after = game.copy()
        after.apply(action)
        value = evaluate.score(after.state, seat)
        if value > best_value:
            best, best_value = action, value
    return best


def _why(level: str, options: int, gain: float) -> str:
    sign = "+" if gain >= 0 else "−"
    return (
        f"best of {options} options for the {level} bot: {sign}{abs(gain):.1f} expected points "
        "against the best other seat"
    )


# -- the baselines ---------------------------------------------------------------------------


def random_player(game: Game, seat: int, rng: random.Random) -> Action:
    """Uniformly among the legal actions."""
    return rng.choice(game.legal_actions())


def greedy_player(game: Game, seat: int, rng: random.Random) -> Action:
    """Rescue the highest values first, attack the leader: one step ahead, by its own values
    and the public count of people saved, with no guess at what it cannot see."""
    known = Game(knowledge(game.state, seat))
    known.listen = False
    s, legal = known.state, known.legal_actions()
    leader = _leader(s, seat)
    best: list[Action] = []
    best_value = float("-inf")
    for action in legal:
        after = known.copy()
        after.apply(action)
        value = _greedy_value(after.state, seat, leader)
        if value > best_value + 1e-9:
            best, best_value = [action], value
        elif abs(value - best_value) <= 1e-9:
            best.append(action)
    return rng.choice(best)


def _leader(s: State, seat: int) -> int:
    """The other seat with most people saved (public), then most people still in play."""

    def standing(other: int) -> tuple[int, int]:
        kinds = [s.p_kind[p] for p in s.people_of(other)]
        return kinds.count(SAVED), sum(k in (LAND, BOAT, SEA) for k in kinds)

    others = [o for o in range(s.players) if o != seat]
    return max(others, key=standing)


def _greedy_value(s: State, seat: int, leader: int) -> float:
    dist = evaluate.safety_distance(tuple(sorted(s.access)))
    value = 0.0
    for p in s.people_of(seat):
        v = s.p_value[p] or 1
        kind = s.p_kind[p]
        if kind == SAVED:
            value += v * 30
        elif kind in (LAND, SEA):
            value += v * (20 - dist[s.p_at[p]])
        elif kind == BOAT:
            value += v * (21 - dist[s.b_pos[s.p_at[p]]])
    alive = sum(s.p_kind[p] in (LAND, BOAT, SEA, SAVED) for p in s.people_of(leader))
    return value - 40 * alive


PLAYERS: dict[str, Callable[[Game, int, random.Random], Action]] = {
    "random": random_player,
    "greedy": greedy_player,
}
