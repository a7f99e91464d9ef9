"""The rules engine of Survive: Escape from Atlantis! — pure: no I/O, threads or clocks.

>>> from companion.engine import Game, Rules
>>> game = Game.new(Rules(), players=4, seed=1)
>>> while game.is_chance():
...     _ = game.apply(game.draw())          # the island is laid
>>> game.phase
'place'
"""

from .actions import notation, parse
from .errors import EngineError, IllegalAction, MalformedAction, RulesError
from .events import REFEREE, Event
from .game import TABLE, Game, replay
from .invariants import violations
from .position import PositionError
from .rules import Rules
from .state import Action

__all__ = [
    "REFEREE",
    "TABLE",
    "Action",
    "EngineError",
    "Event",
    "Game",
    "IllegalAction",
    "MalformedAction",
    "PositionError",
    "Rules",
    "RulesError",
    "notation",
    "parse",
    "replay",
    "violations",
]
