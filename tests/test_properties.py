"""Properties of whole random games, with hypothesis choosing the seed and the decisions.

Every invariant holds after every action; the stored (JSON) form round-trips exactly and the
restored game goes on exactly as the original; every legal action survives its text and JSON
forms; and a game's action log replays to the very same state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import Game, Rules, notation, parse, replay, violations
from companion.engine.actions import from_json, to_json
from companion.engine.rules import OPTIONS
from companion.engine.state import Action

BOUNDED = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
players = st.integers(min_value=2, max_value=4)
modes = st.sampled_from(["digital", "physical"])
choices = st.lists(st.integers(min_value=0, max_value=2**16), max_size=40)
rules = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, (values, _) in OPTIONS.items()}
).map(lambda options: Rules(options=options))


def choose(game: Game, rng: random.Random, picks: list[int], decisions: int) -> Action:
    """A player's decision: hypothesis's `picks` first, then the seeded generator."""
    legal = game.legal_actions()
    if decisions < len(picks):
        return legal[picks[decisions] % len(legal)]
    return rng.choice(legal)


def play(game: Game, seed: int, picks: list[int]) -> Iterator[Action]:
    """Play `game` to its end, yielding each action after it is applied."""
    rng = random.Random(seed)
    decisions = 0
    while not game.over:
        if game.is_chance():
            action = game.draw()
        else:
            action = choose(game, rng, picks, decisions)
            decisions += 1
        game.apply(action)
        yield action


def roundtrip(game: Game) -> Game:
    return Game.from_json(json.loads(json.dumps(game.to_json())))


@BOUNDED
@given(seed=seeds, n=players, mode=modes, picks=choices, rules=rules)
def test_random_games_keep_every_invariant(
    seed: int, n: int, mode: str, picks: list[int], rules: Rules
) -> None:
    """Every action of a whole game leaves a sound state (`violations` is empty), and the game
    ends with a result (B-30)."""
    game = Game.new(rules, n, seed, mode)
    assert violations(game) == []
    for action in play(game, seed, picks):
        assert violations(game) == [], notation(action)
    assert game.result() is not None


@BOUNDED
@given(seed=seeds, n=players, mode=modes, picks=choices, every=st.integers(7, 60))
def test_json_round_trip_is_exact_and_the_game_goes_on_alike(
    seed: int, n: int, mode: str, picks: list[int], every: int
) -> None:
    """At points along a game, the stored form reloads to the same stored form and the same
    legal actions; a reloaded copy then plays on exactly like the original."""
    game = Game.new(Rules(), n, seed, mode)
    copy: Game | None = None
    for k, action in enumerate(play(game, seed, picks)):
        if copy is not None:
            copy.apply(action)
        if k % every == 0:
            data = game.to_json()
            back = roundtrip(game)
            assert back.to_json() == data
            assert back.legal_actions() == game.legal_actions()
            assert back.is_chance() == game.is_chance() and back.actor == game.actor
            if game.is_chance():
                assert back.draw() == game.draw()
            if copy is None and not game.over:
                copy = back
    assert copy is not None
    assert copy.to_json() == game.to_json()
    assert copy.result() == game.result()


@BOUNDED
@given(seed=seeds, n=players, mode=modes, picks=choices, every=st.integers(3, 20))
def test_every_legal_action_round_trips_through_text_and_json(
    seed: int, n: int, mode: str, picks: list[int], every: int
) -> None:
    """`parse(notation(a)) == a` and the JSON list form reads back to `a`, for every legal
    action at points along a game (every phase is met in a whole game)."""
    game = Game.new(Rules(), n, seed, mode)
    rng = random.Random(seed)
    phases: set[str] = set()
    decisions = k = 0
    while not game.over:
        if k % every == 0 or game.phase not in phases:
            phases.add(game.phase)
            for action in game.legal_actions():
                text = notation(action)
                assert parse(text) == action, text
                listed: Any = json.loads(json.dumps(to_json(action)))
                assert isinstance(listed, list)
                assert from_json(listed) == action, text
        k += 1
        if game.is_chance():
            game.apply(game.draw())
        else:
            game.apply(choose(game, rng, picks, decisions))
            decisions += 1
    assert {"terrain", "place", "boat", "move", "sink", "back", "roll"} <= phases


@BOUNDED
@given(seed=seeds, n=players, mode=modes, picks=choices, rules=rules)
def test_replaying_the_log_reproduces_the_game(
    seed: int, n: int, mode: str, picks: list[int], rules: Rules
) -> None:
    """`replay(rules, players, seed, mode, log)` with the log as stored (JSON lists) gives the
    very same state, legal actions and result."""
    game = Game.new(rules, n, seed, mode)
    log = [to_json(a) for a in play(game, seed, picks)]
    stored = json.loads(json.dumps(log))
    again = replay(Rules.from_json(rules.to_json()), n, seed, mode, stored)
    assert again.to_json() == game.to_json()
    assert again.result() == game.result()
    half = replay(rules, n, seed, mode, stored[: len(stored) // 2])
    partial = Game.new(rules, n, seed, mode)
    for action in stored[: len(stored) // 2]:
        partial.apply(action)
    assert half.to_json() == partial.to_json()
    assert half.legal_actions() == partial.legal_actions()


@BOUNDED
@given(seed=seeds, n=players, picks=choices, at=st.integers(0, 400))
def test_draw_depends_on_the_state_only(seed: int, n: int, picks: list[int], at: int) -> None:
    """`draw()` gives the same outcome for the same state: a copy and a reloaded game draw
    alike, and drawing does not change the game."""
    game = Game.new(Rules(), n, seed)
    chance: Game | None = None
    for k, _ in enumerate(play(game, seed, picks)):
        if game.is_chance():
            chance = game.copy()
            if k >= at:
                break
    assert chance is not None
    before = chance.to_json()
    outcome = chance.draw()
    assert chance.to_json() == before
    assert chance.copy().draw() == outcome == roundtrip(chance).draw()
    assert outcome in chance.legal_actions()
    assert outcome in [a for a, _ in chance.chance_outcomes()]
