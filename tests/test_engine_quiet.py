"""`Game.listen` off: a game whose events nobody reads (a random playout, a bot's look-ahead)
builds none, and plays exactly as a listened one.

Events are built only for someone who reads them; if turning them off changed anything but the
events (a rule that read its own event back, a draw that depended on one), random playouts and
bots would play differently from the Table: the states are compared after every action.
"""

from __future__ import annotations

import json
import random

import pytest

from companion.engine import Game, Rules

ALL_KITS = Rules(("base", "five-six", "overpopulated", "dive-dice", "squid"))
CHALLENGES = Rules(
    ("base", "densely-populated", "leave-no-one-behind", "all-equal", "atlantis-is-gone")
)
GAMES = [
    (Rules(), 4, "digital"),
    (ALL_KITS, 6, "digital"),
    (Rules(("escape-1986",)), 4, "digital"),
    (CHALLENGES, 3, "digital"),
    (Rules(), 4, "physical"),
]


@pytest.mark.parametrize(("rules", "players", "mode"), GAMES)
def test_a_quiet_game_builds_no_events_and_plays_as_a_listened_one(
    rules: Rules, players: int, mode: str
) -> None:
    for seed in (1, 2):
        heard, quiet = Game.new(rules, players, seed, mode), Game.new(rules, players, seed, mode)
        quiet.listen = False
        rng = random.Random(seed)
        events = 0
        while not heard.over:
            action = heard.draw() if heard.is_chance() else rng.choice(heard.legal_actions())
            events += len(heard.apply(action))
            assert quiet.apply(action) == []
            assert json.dumps(quiet.to_json()) == json.dumps(heard.to_json())
            assert quiet.legal_actions() == heard.legal_actions()
        assert quiet.over and events > 100  # the listened game did report what happened


def test_a_copy_listens_as_its_game_does() -> None:
    """The Table's copies keep their events; a look-ahead's copies build none."""
    game = Game.new(Rules(), 4, seed=3)
    assert game.copy().apply(game.draw())
    game.listen = False
    assert game.copy().apply(game.draw()) == []
