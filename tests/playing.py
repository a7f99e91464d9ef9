"""Playing a game through the Table in tests: a mirror of the stored game says what is legal.

    game = mirror(table, game_id)        # the engine's game replayed from the store
    action = first(game, "move")         # its first legal move

The mirror is built from the store through the Table's thread, so it is what the Table holds.
"""

from __future__ import annotations

from typing import Any

from companion.commands import Command
from companion.engine import Action, Game, Rules, replay
from companion.table import Table

PLAYERS = [{"name": "Ana", "colour": "red"}, {"name": "Bo", "colour": "blue"}]
SETUP = ("place", "boat")
"""Phases in which the players lay out their pieces (the island itself is dealt by the Table)."""


def new_game(table: Table, seed: int = 1, **args: Any) -> int:
    reply = table.call(
        Command("cli", intent="new_game", args={"players": PLAYERS, "seed": seed, **args})
    )
    assert reply.accepted, reply.message
    assert reply.game is not None
    return reply.game


def mirror(table: Table, game_id: int) -> Game:
    record, rows = table.read(lambda: (table._store.game(game_id), table._store.log(game_id)))
    rules = Rules.from_json(record.rules)
    return replay(rules, len(record.players), record.seed, record.mode, [r.action for r in rows])


def first(game: Game, verb: str) -> Action:
    return next(a for a in game.legal_actions() if a[0] == verb)


def play_setup(table: Table, game_id: int) -> None:
    """Every seat places its people and boats (the first legal choice each time)."""
    game = mirror(table, game_id)
    while game.phase in SETUP:
        action = game.legal_actions()[0]
        reply = table.call(Command("cli", seat=game.actor, game=game_id, action=list(action)))
        assert reply.accepted, reply.message
        game.apply(action)


def play_until(table: Table, game_id: int, phase: str) -> Game:
    """Play the first legal action of whoever decides until the game reaches `phase`."""
    game = mirror(table, game_id)
    while game.phase != phase:
        action = game.legal_actions()[0]
        reply = table.call(Command("cli", seat=game.actor, game=game_id, action=list(action)))
        assert reply.accepted, reply.message
        game = mirror(table, game_id)  # the Table may have drawn what followed
    return game
