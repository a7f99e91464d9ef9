"""The engine plays whole games through its public face."""

from __future__ import annotations

import random

from companion.engine import Game, Rules, parse, violations
from tests.position import Position, at


def test_random_game_reaches_the_end() -> None:
    game = Game.new(Rules(), players=4, seed=3)
    rng = random.Random(3)
    while not game.over:
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
        assert violations(game) == []
    result = game.result()
    assert result is not None and len(result["ranking"]) == 4


def test_B_17_swimmer_entering_a_shark_space_is_eaten() -> None:
    """B-17: a person leaving land into a space with a shark is eaten at once."""
    pos = Position()
    person = pos.land(0, "5.2")
    pos.creature("shark", "5.1")
    game = pos.game("move")
    events = game.apply(parse("move A1 5.1"))
    assert [e.kind for e in events] == ["moved", "eaten"]
    assert game.state.p_kind[person] == 5  # LOST
    assert at(game, "5.1") == ["shark"]
