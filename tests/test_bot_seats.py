"""Bot seats at the Table: chosen at setup, deciding outside the Table's thread from their seat's
knowledge, acting at once in a digital game and waiting for a person's NEXT at a physical one."""

from __future__ import annotations

import random
import time

from companion.bots.seat import BotSeats
from companion.commands import Command
from companion.table import Table
from tests.playing import mirror

FOUR = [
    {"name": "Ana", "colour": "red"},
    {"name": "Blue bot", "colour": "blue", "bot": "normal"},
    {"name": "Cy", "colour": "green"},
    {"name": "Yellow bot", "colour": "yellow", "bot": "easy"},
]
BOTS = {1, 3}


def start(table: Table, mode: str, seed: int = 4) -> int:
    reply = table.call(
        Command("cli", intent="new_game", args={"players": FOUR, "seed": seed, "mode": mode})
    )
    assert reply.accepted, reply.message
    assert reply.game is not None
    return reply.game


def test_setup_refuses_a_bot_level_that_does_not_exist(table: Table) -> None:
    players = [{"name": "Ana"}, {"name": "Bot", "bot": "genius"}]
    reply = table.call(Command("cli", intent="new_game", args={"players": players, "seed": 1}))
    assert not reply.accepted
    assert "easy, normal, strong" in reply.message and "'genius'" in reply.message


def test_two_bots_and_two_people_play_a_whole_digital_game(table: Table) -> None:
    """Two people (their phones) and two bots (an edge on its own thread) play to the end; a
    bot never waits for a confirmation in a digital game, and every bot action is stored as
    its seat's, from the bot."""
    game_id = start(table, "digital")
    seats = BotSeats(table, budget_s=0.05, seed=1)
    seats.start()
    rng = random.Random(2)
    try:
        deadline = time.monotonic() + 480
        while time.monotonic() < deadline:
            game = mirror(table, game_id)
            if game.over:
                break
            seat = game.state.turn if game.is_chance() else game.actor
            if seat is None or seat in BOTS:
                time.sleep(0.02)  # the bot thread is deciding, or rolling its die
                continue
            if game.is_chance():
                table.call(Command("phone", seat=seat, game=game_id, intent="roll"))
                continue
            action = rng.choice(game.legal_actions())
            table.call(Command("phone", seat=seat, game=game_id, action=list(action)))
        assert mirror(table, game_id).over
    finally:
        seats.stop()
    rows = table.read(lambda: table._store.log(game_id))
    by_bot = [r for r in rows if r.source == "bot"]
    assert by_bot and {r.seat for r in by_bot} == BOTS
    assert all(r.seat not in BOTS for r in rows if r.source == "phone")


def test_a_phone_cannot_act_as_a_bot_and_a_bot_command_only_comes_for_a_bot_seat(
    table: Table,
) -> None:
    game_id = start(table, "digital")
    game = mirror(table, game_id)
    assert game.actor == 0  # a person's seat
    action = list(game.legal_actions()[0])
    reply = table.call(Command("bot", seat=0, game=game_id, action=action))
    assert not reply.accepted and "only a bot seat" in reply.message


def test_at_a_physical_table_the_bot_move_waits_for_a_person_and_every_phone_reads_it(
    table: Table,
) -> None:
    """The bot's decision is shown on every phone as a sentence and done only when a person
    has made it on the board and pressed NEXT (or tapped)."""
    game_id = start(table, "physical")
    seats = BotSeats(table, budget_s=0.05, seed=1)  # stepped by hand: no thread
    game = mirror(table, game_id)
    while game.actor not in BOTS:  # the people place until a bot is asked
        assert game.actor is not None
        action = list(game.legal_actions()[0])
        assert table.call(Command("phone", seat=game.actor, game=game_id, action=action)).accepted
        game = mirror(table, game_id)
    bot = game.actor
    before = len(table.read(lambda: table._store.log(game_id)))
    assert seats.step()
    assert not seats.step()  # it waits for its move to be made: no second decision
    for view in (0, 1, 2, 3, "spectator"):
        shown = table.snapshot(game_id, view)["bot_move"]
        assert shown["seat"] == bot
        assert shown["sentence"].startswith(f"Bot {FOUR[bot]['colour'].capitalize()} places")
    assert len(table.read(lambda: table._store.log(game_id))) == before  # nothing done yet
    reply = table.call(Command("gpio", intent="next", game=game_id))
    assert reply.accepted, reply.message
    rows = table.read(lambda: table._store.log(game_id))
    assert len(rows) == before + 1 and rows[-1].seat == bot and rows[-1].action[0] == "place"
    assert table.snapshot(game_id, 0)["bot_move"] is None
