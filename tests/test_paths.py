"""Whole moves: a path of several spaces is one action, checked as one, and refused under the
rule that limits that kind of move when it goes too far or breaks on the way. The single steps
stay as they were."""

from __future__ import annotations

import pytest

from companion.engine import Game, IllegalAction, MalformedAction, parse
from companion.engine.state import BOAT, LAND, LOST, SAVED, SEA
from tests.position import Position, at, hx, kinds


def alone(modules: tuple[str, ...] = ("base",), **options: str) -> Position:
    """Two seats, no serpents; seat 2 keeps a person on 4.5 (inland), so its turns go on."""
    pos = Position(players=2, modules=modules, **options)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def path_refused(game: Game, text: str) -> IllegalAction:
    """`text` is refused and the game is exactly as it was."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(parse(text))
    assert game.to_json() == before
    return info.value


# -- people ------------------------------------------------------------------------------------


def test_B_8_a_person_walks_three_spaces_in_one_action() -> None:
    """B-8: a path of three spaces uses the three points; the game goes on to step 3."""
    pos = alone()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    events = game.apply(parse("go A1 5.3 5.4 5.5"))
    assert [e.kind for e in events if e.kind == "moved"] == ["moved"] * 3
    assert game.state.p_at[a1] == hx("5.5") and game.phase == "sink"


def test_B_8_a_fourth_space_refuses_the_whole_path() -> None:
    """B-8: four spaces are refused as a whole, naming the three points; nothing moves."""
    pos = alone()
    pos.land(0, "5.2")
    error = path_refused(pos.game("move"), "go A1 5.3 5.4 5.5 5.6")
    assert error.rule == "B-8" and "3 movement points" in error.message


def test_B_12_B_16_a_path_broken_on_the_way_names_the_broken_step() -> None:
    """B-12, B-16: a path that jumps, or a swimmer's second sea space, is refused under the rule
    of the step that breaks, and the whole path undone."""
    pos = alone()
    pos.land(0, "5.2")
    pos.swimmer(0, "1.3")
    game = pos.game("move")
    assert path_refused(game, "go A1 5.3 5.5").rule == "B-12"
    error = path_refused(game, "go A2 1.4 1.5")
    assert error.rule == "B-16" and "space 2" in error.message


def test_B_12_B_15_go_boards_the_boat_on_its_way_and_lands_on_the_safe_island() -> None:
    """B-12, B-15, B-16: walking onto a boat's space boards it (a boat with room); a swimmer
    boards the boat in its own space and, the boat being on an access space, steps onto the
    safe island — each one action."""
    pos = alone()
    a1 = pos.land(0, "3.4")
    a2 = pos.swimmer(0, "2.0")
    b1, b2 = pos.boat("2.3"), pos.boat("2.0")
    game = pos.game("move")
    game.apply(parse("go A1 2.3"))
    assert game.state.p_kind[a1] == BOAT and game.state.p_at[a1] == b1
    game.apply(parse("go A2 2.0 NW"))
    assert game.state.p_kind[a2] == SAVED and not game.state.b_people[b2]
    assert game.phase == "sink"


def test_B_16_a_lone_swimmers_second_space_names_the_swimming_rule() -> None:
    """B-16: when the swimmer's one space ends step 2 by itself, a path of two is refused under
    B-16, not read as the next step's action."""
    pos = alone()
    pos.swimmer(0, "1.3")
    error = path_refused(pos.game("move"), "go A1 1.4 1.5")
    assert error.rule == "B-16"


def test_B_17_a_swimmer_eaten_on_the_way_goes_no_further() -> None:
    """B-17: a swimmer entering a shark's space is eaten; a path going on from there is
    refused (B-17) and nothing of it happens."""
    pos = alone()
    pos.land(0, "3.4")
    pos.creature("shark", "2.4")
    game = pos.game("move")
    assert path_refused(game, "go A1 2.4 2.5").rule == "B-17"
    game.apply(parse("go A1 2.4"))
    assert game.state.p_kind[0] == LOST


# -- boats -------------------------------------------------------------------------------------


def test_B_8_B_13_a_boat_sails_three_spaces_and_no_more() -> None:
    """B-8, B-13: a boat's path of three spaces is one action; a fourth is refused under B-8."""
    pos = alone()
    pos.land(0, "5.2")
    b = pos.boat("1.5")
    game = pos.game("move")
    assert path_refused(game, "sail b1 1.6 1.7 1.8 1.9").rule == "B-8"
    assert path_refused(game, "sail b1 1.6 3.4").rule == "B-13"  # onto land, on the way
    game.apply(parse("sail b1 1.6 1.7 1.8"))
    assert game.state.b_pos[b] == hx("1.8") and game.phase == "sink"


def test_B_39_the_winds_move_a_boat_at_most_three_spaces() -> None:
    """B-39: the winds tile's move is one path of up to three sea spaces."""
    pos = alone()
    pos.land(0, "5.2")
    b = pos.boat("1.5")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    game.apply(parse("play winds"))
    assert path_refused(game, "sail b1 1.6 1.7 1.8 1.9").rule == "B-39"
    game.apply(parse("sail b1 1.6 1.7 1.8"))
    assert game.state.b_pos[b] == hx("1.8") and game.phase == "move"


def test_B_38_a_dolphin_tile_moves_a_swimmer_at_most_three_spaces() -> None:
    """B-38: the dolphin tile's move is one path of up to three sea spaces, apart from the
    swimmer's own step-2 space (B-16)."""
    pos = alone()
    a1 = pos.swimmer(0, "1.3")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    assert path_refused(game, "go A1 1.4 1.5 1.6 1.7").rule == "B-38"
    game.apply(parse("go A1 1.4 1.5 1.6"))
    assert game.state.p_at[a1] == hx("1.6") and game.phase == "move"
    game.apply(parse("go A1 1.7"))  # its own swim is still to come
    assert game.state.p_at[a1] == hx("1.7")


# -- creatures -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "path", "rule"),
    [
        ("serpent", "1.6 1.7", "B-24"),
        ("shark", "1.6 1.7 1.8", "B-25"),
        ("whale", "1.6 1.7 1.8 1.9", "B-26"),
    ],
)
def test_a_creature_path_past_its_limit_names_its_rule(kind: str, path: str, rule: str) -> None:
    """B-24, B-25, B-26: one space too many is refused under the creature's own rule."""
    pos = alone()
    pos.creature(kind, "1.5")
    game = pos.game("roll")
    game.apply(parse(f"roll {kind}"))
    error = path_refused(game, f"creature {kind}1 {path}")
    assert error.rule == rule and "at most" in error.message
    game.apply(parse(f"creature {kind}1 {path.rsplit(' ', 1)[0]}"))
    assert game.state.turn == 1


def test_B_25_a_shark_stops_where_it_eats() -> None:
    """B-25: a shark entering swimmers stops there; a path through them is refused."""
    pos = alone()
    pos.creature("shark", "1.5")
    pos.swimmer(1, "1.6")
    game = pos.game("roll")
    game.apply(parse("roll shark"))
    error = path_refused(game, "creature shark1 1.6 1.7")
    assert error.rule == "B-25" and "stops where it enters" in error.message
    assert "eaten" in kinds(game.apply(parse("creature shark1 1.6")))


def test_B_26_Q_5_a_whale_stops_at_a_squid() -> None:
    """Q-5: a whale entering a squid's space stops and removes it; going on is refused (Q-5)."""
    pos = alone(("squid",))
    pos.creature("whale", "1.5")
    pos.creature("squid", "1.6")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    assert path_refused(game, "creature whale1 1.6 1.7").rule == "Q-5"


def test_Q_3_a_squid_moves_at_most_three_spaces() -> None:
    """Q-3: on the red die's whale a squid goes up to three spaces."""
    pos = alone(("squid",))
    pos.creature("squid", "1.5")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    assert path_refused(game, "creature squid1 1.6 1.7 1.8 1.9").rule == "Q-3"


def test_D_4_D_5_the_dive_dice_number_limits_the_path() -> None:
    """D-4: die 2's number limits a creature's or an unoccupied boat's path."""
    pos = alone(("dive-dice",))
    pos.creature("whale", "1.5")
    pos.boat("0.5")
    game = pos.game("roll")
    game.apply(parse("dive whale 2"))
    assert path_refused(game, "creature whale1 1.6 1.7 1.8").rule == "D-4"
    boat = pos.game("roll")
    boat.apply(parse("dive boat 1"))
    assert path_refused(boat, "sail b1 0.6 0.7").rule == "D-4"


def test_E_3_a_1986_dolphin_carries_a_swimmer_at_most_three_spaces() -> None:
    """E-3: riding a dolphin is one path of up to three sea spaces."""
    pos = Position(players=2, modules=("escape-1986",))
    pos.clear_serpents()
    pos.land(1, "4.5")
    a1 = pos.swimmer(0, "1.3")
    pos.creature("dolphin", "1.3")
    game = pos.game("move")
    assert path_refused(game, "ride A1 1.4 1.5 1.6 1.7").rule == "E-3"
    game.apply(parse("ride A1 1.4 1.5 1.6"))
    assert game.state.p_at[a1] == hx("1.6") and "dolphin" in at(game, "1.6")


# -- the form ----------------------------------------------------------------------------------


def test_a_path_names_at_least_one_space_and_only_spaces() -> None:
    """A path without spaces, or with a word among its spaces, is not an action."""
    game = alone().game("move")
    for junk in (("go", 0), ("sail", 0), ("go", 0, 58, "x"), ("creature", 1, *[14] * 9)):
        with pytest.raises(MalformedAction):
            game.apply(junk)


def test_B_8_a_single_step_is_still_a_single_step() -> None:
    """B-8: the single steps stay as they were: one point each, listed as legal."""
    pos = alone()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    assert ("move", a1, hx("5.3")) in game.legal_actions()
    game.apply(parse("move A1 5.3"))
    assert game.state.points == 2 and game.state.p_kind[a1] == LAND
    assert SEA != LAND
