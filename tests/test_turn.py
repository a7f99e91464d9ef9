"""A turn: play a red tile, move, remove a land tile, roll and move a creature (B-7 ... B-11)."""

from __future__ import annotations

import pytest

from companion.engine import Game, IllegalAction, board, notation, parse
from tests.position import Position, hx

DONE = ("done",)


def offered(game: Game) -> set[str]:
    return {notation(a) for a in game.legal_actions()}


def turn_begins(pos: Position, seat: int) -> tuple[Game, list[str]]:
    """The game as `seat`'s turn begins: the seat before it ends its turn (no creature to move)."""
    before = (seat - 1) % pos.s.players
    game = pos.game("creature", turn=before, kind="shark", creature=None, steps=0)
    assert game.legal_actions() == [DONE]
    events = game.apply(DONE)
    return game, [e.kind for e in events]


def test_B_7_to_B_10_the_four_steps_come_in_order() -> None:
    """B-7, B-8, B-9, B-10: red tile, then movement, then a land tile, then the creature die."""
    pos = Position()
    pos.land(0, "5.2")
    pos.boat("4.1")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    phases = [game.phase]
    assert {"play winds", "done"} <= offered(game)
    game.apply(DONE)  # step 1: no tile played
    phases.append(game.phase)
    game.apply(parse("move A1 5.3"))
    game.apply(DONE)  # step 2: one point used, the rest given up
    phases.append(game.phase)
    assert "sink 3.4" in offered(game)
    game.apply(parse("sink 3.4"))  # step 3: a beach on the coast comes off
    phases.append(game.phase)
    assert game.is_chance()
    game.apply(parse("back whale"))  # its back: a whale on 3.4
    phases.append(game.phase)
    assert game.is_chance()
    game.apply(parse("roll whale"))  # step 4
    phases.append(game.phase)
    assert game.actor == 0
    events = game.apply(DONE)  # the roller declines to move the whale
    assert phases == ["tile", "move", "sink", "back", "roll", "creature"]
    assert [e.data for e in events if e.kind == "turn"] == [{"seat": 1}]


def test_B_7_the_red_tile_is_optional_and_kept_when_declined() -> None:
    """B-7: a player holding a turn tile may go on to step 2 without playing it."""
    pos = Position()
    pos.land(0, "5.2")
    pos.boat("4.1")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    assert "done" in offered(game)
    game.apply(DONE)
    assert game.phase == "move"
    assert game.state.hands[0] == [["beach", "winds"]]


def test_B_7_at_most_one_red_tile_is_played_per_turn() -> None:
    """B-7: after one turn tile is played, step 2 begins; a second tile cannot follow."""
    pos = Position()
    pos.land(0, "5.2")
    pos.boat("4.1")
    pos.creature("whale", "2.4")
    pos.hold(0, "beach", "winds")
    pos.hold(0, "beach", "move-whale")
    game = pos.game("tile")
    assert {"play winds", "play move-whale"} <= offered(game)
    game.apply(parse("play move-whale"))
    game.apply(parse("put whale1 0.4"))
    assert game.phase == "move"
    assert not any(a[0] == "play" for a in game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("play winds"))
    assert refused.value.rule == "B-7"  # step 1 is over: one tile a turn
    assert game.state.hands[0] == [["beach", "winds"]]


def test_B_8_three_movement_points_then_step_3() -> None:
    """B-8: each point moves one person one space; after the third, the tile removal comes."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    for step, to in enumerate(("5.3", "5.4", "5.5"), start=1):
        assert game.phase == "move"
        game.apply(parse(f"move A1 {to}"))
        assert game.state.p_at[a1] == hx(to)
        assert game.state.points == 3 - step or game.phase == "sink"
    assert game.phase == "sink" and game.actor == 0
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("move A1 5.6"))  # no fourth point
    assert refused.value.rule == "B-8"
    assert game.state.p_at[a1] == hx("5.5")


def test_B_8_points_may_be_shared_between_people_and_boats() -> None:
    """B-8: a point may move a person, the next a boat the player may move."""
    pos = Position()
    pos.clear_serpents()
    pos.land(0, "5.2")
    b = pos.boat("4.1")
    game = pos.game("move")
    game.apply(parse("move A1 5.3"))
    game.apply(parse("sail b1 3.1"))
    assert game.phase == "move" and game.state.points == 1
    game.apply(parse("sail b1 2.1"))
    assert game.state.b_pos[b] == hx("2.1")
    assert game.phase == "sink"


def test_B_8_fewer_than_three_points_may_be_used() -> None:
    """B-8: `done` ends step 2 with points left (even none used); the points are not kept."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    game.apply(parse("move A1 5.3"))
    game.apply(DONE)
    assert game.phase == "sink"
    assert game.state.p_at[a1] == hx("5.3")

    pos = Position()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    game.apply(DONE)
    assert game.phase == "sink" and game.state.p_at[a1] == hx("5.2")


def test_B_8_a_point_moves_only_your_own_people() -> None:
    """B-8: another seat's person is not offered and is refused."""
    pos = Position()
    pos.land(0, "5.2")
    b1 = pos.land(1, "5.4")
    game = pos.game("move")
    assert not any(a[0] == "move" and a[1] == b1 for a in game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("move B1 5.5"))
    assert refused.value.rule == "B-8"


def test_B_9_a_land_tile_must_be_removed() -> None:
    """B-9: step 3 offers only tiles to remove; it cannot be skipped."""
    pos = Position()
    pos.land(0, "5.2")
    game = pos.game("sink")
    assert game.legal_actions() and all(a[0] == "sink" for a in game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(DONE)
    assert refused.value.rule == "B-9"
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("sink 6.5"))  # the lagoon holds no tile
    assert refused.value.rule == "B-9"
    land = sum(game.state.terrain[h] is not None for h in board.LAND)
    game.apply(game.legal_actions()[0])
    assert sum(game.state.terrain[h] is not None for h in board.LAND) == land - 1
    assert game.phase == "back"


def test_B_10_the_die_names_the_creature_that_moves() -> None:
    """B-10: the die is rolled (a table decision), then one creature of that kind moves."""
    pos = Position()
    pos.creature("shark", "2.4")
    pos.creature("whale", "2.6")
    game = pos.game("roll")
    assert game.is_chance()
    odds = dict(game.chance_outcomes())
    assert odds == pytest.approx(
        {("roll", "serpent"): 1 / 3, ("roll", "shark"): 1 / 3, ("roll", "whale"): 1 / 3}
    )
    game.apply(parse("roll shark"))
    assert game.phase == "creature" and game.actor == 0
    movers = {a[1] for a in game.legal_actions() if a[0] == "creature"}
    assert {game.state.c_kind[c] for c in movers} == {"shark"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("creature whale1 1.6"))
    assert refused.value.rule == "B-10"
    game.apply(parse("creature shark1 1.4"))
    assert game.phase == "creature"  # a shark may go on one more space
    events = game.apply(parse("creature shark1 0.4"))
    assert [e.data for e in events if e.kind == "turn"] == [{"seat": 1}]


def test_B_11_a_player_without_people_skips_step_2_even_with_an_empty_boat() -> None:
    """B-11: a seat with nobody on the board still has a turn, but goes straight to step 3."""
    pos = Position()
    pos.clear_serpents()
    pos.land(1, "5.2")
    pos.boat("4.1")  # an empty boat anyone could otherwise sail
    game, events = turn_begins(pos, 0)
    assert "turn" in events
    assert game.phase == "sink" and game.actor == 0
    assert not any(a[0] == "sail" for a in game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("sail b1 3.1"))
    assert refused.value.rule == "B-11"
    assert game.state.b_pos[0] == hx("4.1")


def test_B_11_saved_people_do_not_count_as_people_left() -> None:
    """B-11: a seat whose people are all saved (or lost) skips step 2 too."""
    pos = Position()
    pos.clear_serpents()
    pos.saved(0, "NW")
    pos.land(1, "5.2")
    pos.boat("4.1")
    game, _ = turn_begins(pos, 0)
    assert game.phase == "sink" and game.actor == 0


def test_B_11_one_swimmer_left_is_enough_for_step_2() -> None:
    """B-11: a seat with a single swimmer does get step 2, empty boats included."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "2.4")
    pos.boat("4.1")
    game, _ = turn_begins(pos, 0)
    assert game.phase == "move" and game.actor == 0
    assert "sail b1 3.1" in offered(game)


def test_B_7_step_1_is_asked_of_a_seat_holding_red_tiles_and_passed_without() -> None:
    """B-7 (spec §9): a seat holding a red tile is asked at step 1 even when none can be
    played (passing it by would tell everyone its tiles cannot move anything); a seat
    holding none goes straight to movement."""
    pos = Position()
    pos.land(1, "5.2")
    pos.hold(1, "beach", "winds")  # no boat on the board: the winds move nothing
    game, _ = turn_begins(pos, 1)
    assert (game.phase, game.actor, game.legal_actions()) == ("tile", 1, [DONE])

    pos = Position()
    pos.land(1, "5.2")
    game, _ = turn_begins(pos, 1)
    assert (game.phase, game.actor) == ("move", 1)
