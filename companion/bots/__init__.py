"""Bot seats: a player the companion plays, from its seat's knowledge only.

>>> import random
>>> from companion.engine import Game, Rules
>>> from companion.bots import decide
>>> game = Game.new(Rules(), players=4, seed=1)
>>> while game.is_chance():
...     _ = game.apply(game.draw())
>>> decide(game, game.actor, "normal", random.Random(1)).action[0]
'place'
"""

from .knowledge import determinise, knowledge
from .players import BASELINES, LEVELS, Decision, decide
from .say import hexes, said, sentence

__all__ = [
    "BASELINES",
    "LEVELS",
    "Decision",
    "decide",
    "determinise",
    "knowledge",
    "hexes",
    "said",
    "sentence",
]
