"""A refusal names the rule whose text forbids the action, not the rule of the step the engine
has gone on to; and the engine, told who acts, refuses an action out of turn with the rule
that gives the decision to its seat.

Each family of refusals has a case here asserting the exact id: movement limits, swimming,
boarding, creature moves, defence, the game over, each kit, and acting out of turn.
"""

from __future__ import annotations

import pytest

from companion.engine import Game, IllegalAction, MalformedAction, Rules, parse
from companion.engine import board as board_
from companion.engine.game import TABLE
from tests.position import Position, hx, refused

MOUNTAIN = "9.6"


def alone(modules: tuple[str, ...] = ("base",), **options: str) -> Position:
    """Two seats, no serpents; seat 2 keeps a person on 4.5 (inland), so its turns go on."""
    pos = Position(players=2, modules=modules, **options)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def by(game: Game, text: str, seat: int | str) -> IllegalAction:
    """The refusal of `text` acted by `seat`; the game must not change."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(parse(text), by=seat)
    assert game.to_json() == before
    return info.value


# -- movement limits ---------------------------------------------------------------------------


def test_B_8_a_fourth_movement_point_names_the_three_points() -> None:
    """B-8: after three points the engine has gone on to step 3; a fourth move is refused as
    movement being over (B-8), not as the removal now under way (B-9)."""
    pos = alone()
    pos.land(0, "5.2")
    game = pos.game("move")
    for to in ("5.3", "5.4", "5.5"):
        game.apply(parse(f"move A1 {to}"))
    assert game.phase == "sink"
    error = refused(game, "move A1 5.6")
    assert error.rule == "B-8" and "3 points" in error.message


def test_B_16_a_second_swim_names_the_swimming_rule() -> None:
    """B-16: a lone swimmer's one swim ends step 2 by itself; a second swim (or a boarding
    after it) is refused under B-16, not under the removal that follows."""
    pos = alone()
    pos.swimmer(0, "1.3")
    game = pos.game("move")
    game.apply(parse("move A1 1.4"))
    assert game.phase == "sink"
    assert refused(game, "move A1 1.5").rule == "B-16"
    assert "already swam" in refused(game, "move A1 1.3").message


def test_B_16_a_second_swim_while_points_remain() -> None:
    """B-16: with points left, a swimmer's second swim is still refused under B-16."""
    pos = alone()
    pos.swimmer(0, "1.3")
    pos.land(0, "5.2")
    pos.boat("1.5")
    game = pos.game("move")
    game.apply(parse("move A1 1.4"))
    assert game.phase == "move"
    assert refused(game, "move A1 1.5").rule == "B-16"
    game.apply(parse("sail b1 1.4"))
    assert refused(game, "board A1 b1").rule == "B-16"  # swimmer_after_swim=no


def test_B_13_boarding_a_full_boat() -> None:
    """B-13: a boat holds three people."""
    pos = alone()
    pos.land(0, "5.2")
    pos.boat("5.1", [pos.passenger(1) for _ in range(3)])
    assert refused(pos.game("move"), "board A1 b1").rule == "B-13"


# -- creature moves ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "path", "rule"),
    [
        ("serpent", ["1.6"], "B-24"),
        ("shark", ["1.6", "1.7"], "B-25"),
        ("whale", ["1.6", "1.7", "1.8"], "B-26"),
    ],
)
def test_a_step_past_the_creature_limit_names_that_creatures_rule(
    kind: str, path: list[str], rule: str
) -> None:
    """B-24, B-25, B-26: the move ends at the limit and the turn passes; one more step is
    refused under the creature's own limit, not under the next turn's step."""
    pos = alone()
    pos.creature(kind, "1.5")
    game = pos.game("roll")
    game.apply(parse(f"roll {kind}"))
    for to in path:
        game.apply(parse(f"creature {kind}1 {to}"))
    assert game.state.turn == 1 and game.phase == "move"
    error = refused(game, f"creature {kind}1 1.9")
    assert error.rule == rule and "at most" in error.message
    assert by(game, f"creature {kind}1 1.9", 0).rule == rule  # the roller's phone, too late


def test_D_4_a_step_past_die_2_names_the_dive_dice() -> None:
    """D-4: die 2 showed 1: a second step is refused under D-4."""
    pos = alone(("dive-dice",))
    pos.creature("whale", "1.5")
    game = pos.game("roll")
    game.apply(parse("dive whale 1"))
    game.apply(parse("creature whale1 1.6"))
    assert refused(game, "creature whale1 1.7").rule == "D-4"


def test_B_10_a_shark_staying_put_is_no_move() -> None:
    """B-10: a creature that moves goes at least one space (only a squid stays, Q-3); a shark
    'moving' to its own space is refused under B-10, not B-27."""
    pos = alone()
    pos.creature("shark", "1.5")
    game = pos.game("roll")
    game.apply(parse("roll shark"))
    assert refused(game, "creature shark1 1.5").rule == "B-10"


# -- the game over -----------------------------------------------------------------------------


def test_B_23_after_the_volcano_the_refusal_names_the_volcano() -> None:
    """B-23: the volcano ended the game; anything after is refused under B-23."""
    pos = Position(players=2)
    pos.saved(0, "NW", 3)
    pos.sea(MOUNTAIN)
    game = pos.game("back", hex=hx(MOUNTAIN), terrain="mountain")
    game.apply(parse("back volcano"))
    assert game.over
    assert refused(game, "roll shark").rule == "B-23"
    assert by(game, "done", 1).rule == "B-23"


def test_C_2_after_the_last_person_left_the_refusal_names_C_2() -> None:
    """C-2: the last person saved ended the game; what follows is refused under C-2."""
    pos = Position(players=2, modules=("leave-no-one-behind",))
    pos.swimmer(0, "2.0", 2)
    game = pos.game("move")
    game.apply(parse("move A1 NW"))
    assert game.over
    assert refused(game, "done").rule == "C-2"


def test_C_4_after_the_last_tile_the_refusal_names_C_4() -> None:
    """C-4: the last land tile removed ended the game; what follows is refused under C-4."""
    pos = Position(players=2, modules=("atlantis-is-gone",))
    pos.sea(*(board_.name(h) for h in board_.LAND if board_.name(h) != MOUNTAIN))
    pos.saved(1, "SE", 1)
    game = pos.game("sink", turn=1)
    game.apply(parse(f"sink {MOUNTAIN}"))
    assert game.over
    assert refused(game, "roll shark").rule == "C-4"


# -- the kits ----------------------------------------------------------------------------------


def test_Q_2_the_entering_squid_takes_only_from_land_next_to_it() -> None:
    """Q-2: on entry the squid takes a person from a land tile next to its space; another
    person is refused under Q-2, the entry rule, not Q-4."""
    pos = alone(("squid",))
    pos.land(1, "3.6")
    far = pos.land(0, "3.5")
    game = pos.game("sink")
    game.apply(parse("sink 3.4"))
    game.apply(parse("back whale"))
    game.apply(parse("put squid1 2.6"))
    assert game.phase == "interrupt"
    assert refused(game, f"grab A{far % 10 + 1}").rule == "Q-2"


# -- acting out of turn ------------------------------------------------------------------------


def placing(players: int) -> Game:
    game = Game.new(Rules(), players=players, seed=1)
    while game.is_chance():
        game.apply(game.draw())
    return game


@pytest.mark.parametrize(("players", "rule"), [(2, "B-5"), (5, "P-3")])
def test_placing_out_of_turn_names_the_placement_rule(players: int, rule: str) -> None:
    """B-5, P-3: people are placed one at a time in turn order: seat 2 placing while it is
    seat 1's turn is refused, naming whose decision it is."""
    game = placing(players)
    action = game.legal_actions()[0]
    with pytest.raises(IllegalAction) as info:
        game.apply(action, by=1)
    assert info.value.rule == rule and "seat 1's decision, not seat 2's" in info.value.message
    game.apply(action, by=0)
    assert game.actor == 1


def test_B_8_moving_in_another_seats_turn() -> None:
    """B-8: in seat 1's step 2, seat 2 may not move, even its own people, nor may the table."""
    pos = alone()
    pos.land(0, "5.2")
    game = pos.game("move")
    assert by(game, "move B1 4.4", 1).rule == "B-8"
    assert "not the table's" in by(game, "move A1 5.3", TABLE).message
    game.apply(parse("move A1 5.3"), by=0)


def test_B_29_a_defence_answered_by_another_seat() -> None:
    """B-29: the attacked player decides whether to play a repellent; the mover may not."""
    pos = alone()
    pos.creature("shark", "1.5")
    pos.swimmer(1, "1.6")
    pos.hold(1, "beach", "shark-repellent")
    game = pos.game("roll")
    game.apply(parse("roll shark"))
    game.apply(parse("creature shark1 1.6"))
    assert game.phase == "defence" and game.actor == 1
    assert by(game, "done", 0).rule == "B-29"


def test_a_table_decision_is_told_by_the_table_or_any_seat() -> None:
    """B-10: the die is the table's: any seat at it, or the table, may tell what it shows."""
    pos = alone()
    game = pos.game("roll")
    assert game.copy().apply(parse("roll shark"), by=TABLE)[0].kind == "rolled"
    assert game.apply(parse("roll shark"), by=1)[0].kind == "rolled"


def test_an_actor_that_is_no_seat_is_malformed() -> None:
    """Who acts must be a seat of this game or the table."""
    game = alone().game("move")
    for who in (2, -1, "seat 1", True):
        with pytest.raises(MalformedAction):
            game.apply(parse("done"), by=who)  # type: ignore[arg-type]
