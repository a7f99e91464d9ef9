"""The normal bot's ranking weighs each action with `evaluate.Weighing`, which keeps what one
decision cannot change; it must give exactly the sums of `evaluate.score`, or a bot would
decide otherwise (a tie broken another way is another move)."""

from __future__ import annotations

import random

import pytest

from companion.bots import determinise, evaluate, knowledge
from companion.engine import Game, Rules

RULESETS = [
    (("base",), 4),
    (("five-six", "overpopulated", "dive-dice", "squid"), 6),
    (("densely-populated", "leave-no-one-behind", "all-equal", "atlantis-is-gone"), 4),
    (("escape-1986",), 4),
]


@pytest.mark.parametrize(("modules", "players"), RULESETS)
def test_weighing_gives_the_mean_of_each_samples_score_to_the_last_bit(
    modules: tuple[str, ...], players: int
) -> None:
    game = Game.new(Rules(modules=modules), players, seed=len(modules))
    rng = random.Random(players)
    weighed, phases = 0, set()
    while not game.over and weighed < 3000:
        if game.is_chance():
            game.apply(game.draw())
            continue
        seat = game.actor
        assert seat is not None
        # placements are most of the actions: weigh few of them, and every later phase
        chance = 0.02 if game.phase in ("place", "boat") else 0.2
        if len(game.legal_actions()) > 1 and rng.random() < chance:
            phases.add(game.phase)
            known = knowledge(game.state, seat)
            samples = [determinise(known, seat, rng) for _ in range(4)]
            first = Game(samples[0])
            weigh = evaluate.Weighing(first.state, seat, [g.p_value for g in samples])
            for action in first.legal_actions():
                after = first.copy()
                after.apply(action)
                own = {p: after.state.p_value[p] for p in after.state.people_of(seat)}
                values = [[own.get(p, v) for p, v in enumerate(g.p_value)] for g in samples]
                scores = [evaluate.score(after.state, seat, vals) for vals in values]
                assert weigh(after.state) == sum(scores) / len(scores)
                weighed += 1
        game.apply(rng.choice(game.legal_actions()))
    assert {"place", "move", "sink", "creature"} <= phases
