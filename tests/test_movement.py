"""Step 2 in detail: people walking, boarding and swimming, boats sailing, and what they meet.

B-12 ... B-19 and the options `swimmer_after_swim` and `boarding_in_danger`.
"""

from __future__ import annotations

import pytest

from companion.engine import Game, IllegalAction, notation, parse
from companion.engine.state import BOAT, LOST, OFF, SAVED, SEA
from tests.position import Position, at, hx, kinds

DONE = ("done",)


def offered(game: Game) -> set[str]:
    return {notation(a) for a in game.legal_actions()}


def moves_of(game: Game, who: str) -> set[str]:
    """The offered actions that move the person (``A1``) or the boat (``b1``) named."""
    return {text for text in offered(game) if text.split()[1:2] == [who]}


def refused(game: Game, text: str) -> str:
    """Apply `text`, which must be refused leaving the game as it was; the rule it cites."""
    before = game.to_json()
    with pytest.raises(IllegalAction) as error:
        game.apply(parse(text))
    assert game.to_json() == before
    return error.value.rule


# -- B-12: from land ------------------------------------------------------------------------


def test_B_12_from_land_a_person_walks_boards_or_swims_to_an_adjacent_space() -> None:
    """B-12: land -> adjacent land, -> a boat with room next to it, -> adjacent sea as a swimmer."""
    pos = Position()
    pos.land(0, "5.2")
    pos.boat("4.1", [pos.passenger(1)])
    game = pos.game("move")
    assert moves_of(game, "A1") == {
        "move A1 5.3",  # land
        "move A1 6.2",  # land
        "board A1 b1",  # the boat on 4.1 has room
        "move A1 4.1",  # into the sea, even where a boat lies
        "move A1 4.2",
        "move A1 5.1",
        "move A1 6.1",
    }
    assert refused(game, "move A1 5.4") == "B-12"  # not adjacent
    assert refused(game, "move A1 2.4") == "B-12"


def test_B_12_land_holds_any_number_of_people() -> None:
    """B-12: no stacking limit on land: a fourth person walks onto a tile holding three."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    others = [pos.land(0, "5.3"), pos.land(1, "5.3"), pos.land(1, "5.3")]
    game = pos.game("move")
    assert "move A1 5.3" in offered(game)
    events = game.apply(parse("move A1 5.3"))
    assert kinds(events) == ["moved"]
    assert sorted(game.state.land_people[hx("5.3")]) == sorted([*others, a1])


def test_B_12_stepping_into_the_sea_makes_a_swimmer() -> None:
    """B-12: land -> adjacent sea space: the person swims there."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    game.apply(parse("move A1 5.1"))
    assert (game.state.p_kind[a1], game.state.p_at[a1]) == (SEA, hx("5.1"))
    assert at(game, "5.1") == [f"swim:{a1}"]
    assert at(game, "5.2") == []


def test_B_12_boarding_a_boat_from_land() -> None:
    """B-12: land -> the boat on an adjacent sea space: the person is aboard, the boat stays."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    b = pos.boat("4.1")
    game = pos.game("move")
    events = game.apply(parse("board A1 b1"))
    assert kinds(events) == ["boarded"]
    assert game.state.p_kind[a1] == BOAT and game.state.b_people[b] == [a1]
    assert game.state.b_pos[b] == hx("4.1")
    assert game.state.points == 2


def test_B_12_a_boat_not_next_to_the_person_cannot_be_boarded() -> None:
    """B-12: a boat two spaces away is not offered and is refused."""
    pos = Position()
    pos.land(0, "5.2")
    pos.boat("3.1")
    game = pos.game("move")
    assert "board A1 b1" not in offered(game)
    assert refused(game, "board A1 b1") == "B-12"


def test_B_12_a_swimmer_never_returns_to_land() -> None:
    """B-12: once off the island a person never returns to land, swimming or from a boat."""
    pos = Position()
    pos.swimmer(0, "5.1")
    pos.boat("4.1", [pos.passenger(0)])
    game = pos.game("move")
    assert moves_of(game, "A1") == {
        "move A1 4.0",
        "move A1 4.1",
        "move A1 5.0",
        "move A1 6.0",
        "move A1 6.1",
    }
    assert refused(game, "move A1 5.2") == "B-12"  # swimmer -> land
    assert "move A2 5.2" not in offered(game)
    assert refused(game, "move A2 5.2") == "B-12"  # passenger -> land


def test_B_12_walking_off_and_back_in_one_turn_is_refused() -> None:
    """B-12: a person who stepped into the sea this turn cannot step back onto the tile."""
    pos = Position()
    pos.land(0, "5.2")
    pos.land(0, "7.5")  # someone else to move: step 2 goes on
    game = pos.game("move")
    game.apply(parse("move A1 5.1"))
    assert game.phase == "move"
    assert refused(game, "move A1 5.2") == "B-12"
    assert moves_of(game, "A1") == set()


# -- B-13: boats ----------------------------------------------------------------------------


def test_B_13_a_boat_carries_three_people_of_any_colours() -> None:
    """B-13: a boat holding two people of another colour still takes a third person."""
    pos = Position()
    a1 = pos.land(0, "5.2")
    b = pos.boat("4.1", [pos.passenger(1), pos.passenger(1)])
    game = pos.game("move")
    game.apply(parse("board A1 b1"))
    assert len(game.state.b_people[b]) == 3 and a1 in game.state.b_people[b]


def test_B_13_a_full_boat_is_not_offered() -> None:
    """B-13: a boat with 3 people aboard takes nobody else: not from land, a boat or the sea."""
    pos = Position()
    pos.land(0, "5.2")
    pos.swimmer(0, "4.1")
    pos.boat("4.1", [pos.passenger(1), pos.passenger(0), pos.passenger(1)])
    pos.boat("3.1", [pos.passenger(0)])
    game = pos.game("move")
    assert not any(text.startswith("board") and text.endswith("b1") for text in offered(game))
    assert refused(game, "board A1 b1") == "B-13"  # from land
    assert refused(game, "board A2 b1") == "B-13"  # swimmer in the boat's space
    assert refused(game, "board A4 b1") == "B-13"  # from the boat next to it


def test_B_13_one_boat_per_sea_space() -> None:
    """B-13: a boat may not sail into a space that already holds a boat."""
    pos = Position()
    pos.boat("4.1")
    pos.boat("3.1")
    game = pos.game("move")
    assert moves_of(game, "b1") == {"sail b1 3.2", "sail b1 4.0", "sail b1 4.2", "sail b1 5.1"}
    assert refused(game, "sail b1 3.1") == "B-13"


def test_B_13_a_boat_never_sails_onto_land_and_moves_one_space_a_point() -> None:
    """B-13: land is refused; each space sailed costs one point; a two-space jump is refused."""
    pos = Position()
    b = pos.boat("4.1", [pos.passenger(0)])
    game = pos.game("move")
    assert refused(game, "sail b1 5.2") == "B-13"  # land
    assert refused(game, "sail b1 2.1") == "B-13"  # two spaces
    game.apply(parse("sail b1 4.0"))
    assert game.state.points == 2 and game.state.b_pos[b] == hx("4.0")
    assert game.state.p_kind[0] == BOAT and game.state.p_at[0] == b  # the passenger came along


def test_B_13_a_boat_may_sail_where_a_tile_has_sunk() -> None:
    """B-13: 'never onto land' means a tile still lying there; a sunk position is sea."""
    pos = Position()
    pos.sea("5.2")
    b = pos.boat("4.1", [pos.passenger(0)])
    game = pos.game("move")
    assert "sail b1 5.2" in offered(game)
    game.apply(parse("sail b1 5.2"))
    assert game.state.b_pos[b] == hx("5.2")
    assert "sail b1 5.3" not in offered(game)  # 5.3 still holds its tile
    assert refused(game, "sail b1 5.3") == "B-13"


# -- B-14: who may sail a boat --------------------------------------------------------------


@pytest.mark.parametrize("seat", [0, 1])
def test_B_14_an_empty_boat_may_be_moved_by_anyone(seat: int) -> None:
    """B-14: an empty boat is offered to whichever seat is moving."""
    pos = Position()
    pos.land(0, "5.2")
    pos.land(1, "5.3")
    pos.boat("4.1")
    game = pos.game("move", turn=seat)
    assert "sail b1 4.0" in offered(game)
    game.apply(parse("sail b1 4.0"))
    assert at(game, "4.0") == ["boat:0"]


def test_B_14_the_majority_aboard_controls_the_boat() -> None:
    """B-14: with two of seat 2's people and one of seat 1's aboard, only seat 2 may sail it."""
    pos = Position()
    pos.boat("4.1", [pos.passenger(0), pos.passenger(1), pos.passenger(1)])
    game = pos.game("move", turn=0)
    assert not any(text.startswith("sail b1") for text in offered(game))
    assert refused(game, "sail b1 4.0") == "B-14"
    # the minority passenger may still leave the boat
    assert "move A1 4.1" in offered(game)

    pos = Position()
    pos.boat("4.1", [pos.passenger(0), pos.passenger(1), pos.passenger(1)])
    game = pos.game("move", turn=1)
    game.apply(parse("sail b1 4.0"))
    assert game.state.b_pos[0] == hx("4.0")


@pytest.mark.parametrize("seat", [0, 1])
def test_B_14_on_a_tie_each_tied_player_may_sail(seat: int) -> None:
    """B-14: one person each of seats 1 and 2 aboard: either may move the boat on their turn."""
    pos = Position(players=3)
    pos.boat("4.1", [pos.passenger(0), pos.passenger(1)])
    game = pos.game("move", turn=seat)
    assert "sail b1 4.0" in offered(game)
    game.apply(parse("sail b1 4.0"))
    assert game.state.b_pos[0] == hx("4.0")


def test_B_14_a_player_with_nobody_aboard_may_not_sail_an_occupied_boat() -> None:
    """B-14: seat 3, with nobody aboard a boat seats 1 and 2 share, may not move it."""
    pos = Position(players=3)
    pos.land(2, "5.3")
    pos.boat("4.1", [pos.passenger(0), pos.passenger(1)])
    game = pos.game("move", turn=2)
    assert moves_of(game, "b1") == set()
    assert refused(game, "sail b1 4.0") == "B-14"


def test_B_14_a_three_way_tie_lets_all_three_sail() -> None:
    """B-14: one person each of three seats aboard: every one of them controls the boat."""
    for seat in range(3):
        pos = Position(players=3)
        pos.boat("4.1", [pos.passenger(0), pos.passenger(1), pos.passenger(2)])
        game = pos.game("move", turn=seat)
        assert "sail b1 4.0" in offered(game), seat


# -- B-15: from a boat ----------------------------------------------------------------------


def test_B_15_a_passenger_may_step_into_a_boat_next_to_it_with_room() -> None:
    """B-15: boat -> the boat on an adjacent space (room permitting); a full one is refused."""
    pos = Position()
    a1 = pos.passenger(0)
    pos.boat("4.1", [a1])
    b2 = pos.boat("3.1")
    pos.boat("4.0", [pos.passenger(1), pos.passenger(1), pos.passenger(1)])
    game = pos.game("move")
    assert moves_of(game, "A1") == {"board A1 b2", "move A1 4.1"}
    assert refused(game, "board A1 b3") == "B-13"
    game.apply(parse("board A1 b2"))
    assert game.state.b_people[b2] == [a1]
    assert game.state.b_people[0] == []


def test_B_15_a_passenger_may_go_over_the_side_into_the_boats_own_space() -> None:
    """B-15: boat -> its own space as a swimmer (and only that space)."""
    pos = Position()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    b = pos.boat("4.1", [a1, b1])
    game = pos.game("move")
    assert refused(game, "move A1 4.0") == "B-15"  # an adjacent space, not the boat's own
    events = game.apply(parse("move A1 4.1"))
    assert kinds(events) == ["moved"]
    assert (game.state.p_kind[a1], game.state.p_at[a1]) == (SEA, hx("4.1"))
    assert game.state.b_people[b] == [b1]  # B1 stays aboard


def test_B_15_from_a_boat_on_an_access_hex_to_the_safe_island() -> None:
    """B-15: each passenger of a boat on an access hex reaches the safe island for 1 point."""
    pos = Position()
    a1, a2 = pos.passenger(0), pos.passenger(0)
    b = pos.boat("2.0", [a1, a2])
    game = pos.game("move")
    assert "move A1 NW" in offered(game) and "move A2 NW" in offered(game)
    events = game.apply(parse("move A1 NW"))
    assert kinds(events) == ["moved", "saved"]
    assert events[1].data == {"person": "A1", "island": "NW"}
    assert game.state.points == 2
    game.apply(parse("move A2 NW"))
    assert game.state.points == 1
    assert [game.state.p_kind[p] for p in (a1, a2)] == [SAVED, SAVED]
    assert game.state.b_people[b] == [] and game.state.b_pos[b] == hx("2.0")
    # counted as saved, no longer aboard (movement sizes its draw from the count)
    assert (game.state.tally[0][SAVED], game.state.tally[0][BOAT]) == (2, 0)


def test_B_15_no_safe_island_from_a_boat_off_its_access_hexes() -> None:
    """B-15: a boat on 2.1 (beside 2.0 and 1.1, not beside NW) lands nobody on NW."""
    pos = Position()
    pos.clear_serpents()
    pos.boat("2.1", [pos.passenger(0)])
    game = pos.game("move")
    assert not any(text.endswith("NW") for text in offered(game))
    assert refused(game, "move A1 NW") == "B-15"


# -- B-16: swimmers -------------------------------------------------------------------------


def test_B_16_a_swimmer_moves_one_sea_space_per_turn() -> None:
    """B-16: a swimmer is offered its adjacent sea spaces, then nothing more this turn."""
    pos = Position()
    a1 = pos.swimmer(0, "2.4")
    pos.land(0, "7.5")  # someone else to move: step 2 goes on
    game = pos.game("move")
    assert moves_of(game, "A1") == {"move A1 1.4", "move A1 1.5", "move A1 2.3", "move A1 2.5"}
    game.apply(parse("move A1 1.4"))
    assert game.phase == "move" and game.state.points == 2
    assert moves_of(game, "A1") == set()
    assert refused(game, "move A1 0.4") == "B-16"
    assert game.state.p_at[a1] == hx("1.4")


def test_B_16_leaving_land_is_the_swimmers_move() -> None:
    """B-16: a person who stepped off land into the sea may swim no further this turn."""
    pos = Position()
    pos.land(0, "5.2")
    pos.land(0, "7.5")
    game = pos.game("move")
    game.apply(parse("move A1 5.1"))
    assert refused(game, "move A1 4.0") == "B-16"


def test_B_16_leaving_a_boat_is_the_swimmers_move() -> None:
    """B-16: a passenger who went over the side may not swim on, nor climb back aboard."""
    pos = Position()
    pos.boat("4.1", [pos.passenger(0)])
    game = pos.game("move")
    game.apply(parse("move A1 4.1"))
    assert moves_of(game, "A1") == set()
    assert refused(game, "move A1 4.0") == "B-16"
    assert refused(game, "board A1 b1") == "B-16"


def test_B_16_a_swimmer_boards_only_a_boat_in_its_own_space() -> None:
    """B-16: the boat in the swimmer's space may be boarded, one next to it may not."""
    pos = Position()
    a1 = pos.swimmer(0, "2.4")
    own = pos.boat("2.4")
    pos.boat("2.5")
    game = pos.game("move")
    assert "board A1 b1" in offered(game)
    assert "board A1 b2" not in offered(game)
    assert refused(game, "board A1 b2") == "B-16"
    game.apply(parse("board A1 b1"))
    assert game.state.b_people[own] == [a1]


def test_B_16_a_swimmer_on_an_access_hex_reaches_the_safe_island() -> None:
    """B-16: swimmer on an access hex -> the safe island; elsewhere the island is refused."""
    pos = Position()
    a1 = pos.swimmer(0, "2.0")
    pos.swimmer(0, "2.1")
    game = pos.game("move")
    assert "move A1 NW" in offered(game)
    assert refused(game, "move A2 NW") == "B-16"
    events = game.apply(parse("move A1 NW"))
    assert kinds(events) == ["moved", "saved"]
    assert game.state.p_kind[a1] == SAVED


def test_B_16_swimmer_after_swim_no_no_boarding_after_swimming() -> None:
    """B-16, swimmer_after_swim=no (default): a swimmer that swam into a boat's space stays out."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "2.4")
    pos.boat("2.5")
    pos.swimmer(0, "3.1")
    game = pos.game("move")
    game.apply(parse("move A1 2.5"))
    assert "board A1 b1" not in offered(game)
    assert refused(game, "board A1 b1") == "B-16"
    game.apply(parse("move A2 2.0"))  # onto an access hex of NW
    assert "move A2 NW" not in offered(game)
    assert refused(game, "move A2 NW") == "B-16"


def test_B_16_swimmer_after_swim_yes_boarding_and_landing_after_swimming() -> None:
    """B-16, swimmer_after_swim=yes: after its swim a swimmer may still board or reach safety."""
    pos = Position(swimmer_after_swim="yes")
    pos.clear_serpents()
    a1 = pos.swimmer(0, "2.4")
    b = pos.boat("2.5")
    a2 = pos.swimmer(0, "3.1")
    game = pos.game("move")
    game.apply(parse("move A1 2.5"))
    assert "board A1 b1" in offered(game)
    assert refused(game, "move A1 2.6") == "B-16"  # still one sea space per turn
    game.apply(parse("board A1 b1"))
    assert game.state.b_people[b] == [a1]
    game.apply(parse("move A2 2.0"))
    assert game.phase == "sink"  # three points spent: A2 must wait for its next turn
    assert game.state.p_kind[a2] == SEA

    pos = Position(swimmer_after_swim="yes")
    a1 = pos.swimmer(0, "3.1")
    game = pos.game("move")
    game.apply(parse("move A1 2.0"))
    assert "move A1 NW" in offered(game)
    game.apply(parse("move A1 NW"))
    assert game.state.p_kind[a1] == SAVED


def test_B_16_becoming_a_swimmer_unwillingly_leaves_the_move_unused() -> None:
    """B-16: a passenger thrown in the sea by a wreck (B-18) may still swim this turn."""
    pos = Position()
    a1 = pos.passenger(0)
    pos.boat("2.4", [a1])
    pos.creature("whale", "2.5")
    game = pos.game("move")
    game.apply(parse("sail b1 2.5"))
    assert game.state.p_kind[a1] == SEA
    assert "move A1 1.5" in offered(game)
    game.apply(parse("move A1 1.5"))
    assert game.state.p_at[a1] == hx("1.5")


def test_B_16_the_swim_allowance_returns_next_turn() -> None:
    """B-16: 'one sea space per turn': on the player's next turn the swimmer moves again."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "2.4")
    pos.land(0, "7.5")
    pos.land(1, "5.3")
    game = pos.game("move")
    game.apply(parse("move A1 1.4"))
    game.apply(DONE)
    game.apply(parse("sink 3.4"))
    game.apply(parse("back whale"))
    game.apply(parse("roll shark"))  # no shark on the board: the turn passes at once
    assert game.state.turn == 1
    game.apply(DONE)
    game.apply(parse("sink 3.5"))
    game.apply(parse("back whale"))
    game.apply(parse("roll shark"))
    assert game.phase == "move" and game.actor == 0
    assert "move A1 0.4" in offered(game)


# -- B-17: swimmers meet creatures ----------------------------------------------------------


@pytest.mark.parametrize("kind", ["serpent", "shark"])
def test_B_17_a_swimmer_entering_a_serpent_or_shark_space_is_eaten(kind: str) -> None:
    """B-17: a swimmer moving into a serpent's or shark's space is eaten."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.swimmer(0, "2.4")
    pos.creature(kind, "2.5")
    game = pos.game("move")
    events = game.apply(parse("move A1 2.5"))
    assert kinds(events) == ["moved", "eaten"]
    assert events[1].data == {"hex": "2.5", "by": kind, "people": ["A1"]}
    assert game.state.p_kind[a1] == LOST
    assert at(game, "2.5") == [kind]


def test_B_17_stepping_from_land_into_the_lagoons_serpent_is_fatal() -> None:
    """B-17: a person leaving land into the lagoon, where the serpent lies, is eaten."""
    pos = Position()
    a1 = pos.land(0, "5.5")
    game = pos.game("move")
    events = game.apply(parse("move A1 6.5"))
    assert [e.data["by"] for e in events if e.kind == "eaten"] == ["serpent"]
    assert game.state.p_kind[a1] == LOST


def test_B_17_going_over_the_side_beside_a_shark_is_fatal() -> None:
    """B-17: a boat may share a space with a shark; a passenger jumping out there is eaten."""
    pos = Position()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    b = pos.boat("4.1", [a1, b1])
    pos.creature("shark", "4.1")
    game = pos.game("move")
    events = game.apply(parse("move A1 4.1"))
    assert kinds(events) == ["moved", "eaten"]
    assert game.state.p_kind[a1] == LOST
    assert game.state.b_people[b] == [b1]


def test_B_17_whales_ignore_swimmers() -> None:
    """B-17: a swimmer entering a whale's space swims on unharmed."""
    pos = Position()
    a1 = pos.swimmer(0, "2.4")
    pos.creature("whale", "2.5")
    a2 = pos.land(0, "5.2")
    pos.creature("whale", "5.1")
    game = pos.game("move")
    assert kinds(game.apply(parse("move A1 2.5"))) == ["moved"]
    assert kinds(game.apply(parse("move A2 5.1"))) == ["moved"]
    assert (game.state.p_kind[a1], game.state.p_at[a1]) == (SEA, hx("2.5"))
    assert at(game, "5.1") == [f"swim:{a2}", "whale"]


# -- B-18: boats meet creatures -------------------------------------------------------------


def test_B_18_an_occupied_boat_sailing_into_a_whale_is_destroyed_and_its_people_swim() -> None:
    """B-18: the boat goes back to the supply; its passengers swim in the whale's space."""
    pos = Position()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    b = pos.boat("2.4", [a1, b1])
    pos.creature("whale", "2.5")
    game = pos.game("move")
    events = game.apply(parse("sail b1 2.5"))
    assert kinds(events) == ["sailed", "wrecked"]
    assert events[1].data["by"] == "whale"
    assert game.state.b_pos[b] == OFF and b in game.state.boats_left()
    assert sorted(game.state.swimmers[hx("2.5")]) == [a1, b1]
    assert game.state.n_whale[hx("2.5")] == 1


def test_B_18_an_occupied_boat_sailing_into_a_serpent_loses_its_people() -> None:
    """B-18: the boat is destroyed and its passengers, swimming with a serpent, are eaten."""
    pos = Position()
    a1 = pos.passenger(0)
    b = pos.boat("2.1", [a1])
    game = pos.game("move")
    events = game.apply(parse("sail b1 1.1"))  # a serpent starts on 1.1
    assert kinds(events) == ["sailed", "wrecked", "eaten"]
    assert events[2].data == {"hex": "1.1", "by": "serpent", "people": ["A1"]}
    assert game.state.b_pos[b] == OFF and game.state.p_kind[a1] == LOST
    assert at(game, "1.1") == ["serpent"]


def test_B_18_a_wreck_beside_a_whale_and_a_shark_feeds_the_shark() -> None:
    """B-18: destroyed by the whale, the passengers swim where a shark is and are eaten."""
    pos = Position()
    a1 = pos.passenger(0)
    pos.boat("2.4", [a1])
    pos.creature("whale", "2.5")
    pos.creature("shark", "2.5")
    game = pos.game("move")
    events = game.apply(parse("sail b1 2.5"))
    assert kinds(events) == ["sailed", "wrecked", "eaten"]
    assert events[2].data["by"] == "shark"
    assert game.state.p_kind[a1] == LOST


def test_B_18_sharks_ignore_boats() -> None:
    """B-18: an occupied boat may sail into a shark's space unharmed, its people safe aboard."""
    pos = Position()
    a1 = pos.passenger(0)
    b = pos.boat("2.4", [a1])
    pos.creature("shark", "2.5")
    game = pos.game("move")
    assert kinds(game.apply(parse("sail b1 2.5"))) == ["sailed"]
    assert game.state.b_pos[b] == hx("2.5") and game.state.b_people[b] == [a1]


@pytest.mark.parametrize(("kind", "where"), [("serpent", "1.1"), ("whale", "2.5")])
def test_B_18_an_empty_boat_is_unharmed(kind: str, where: str) -> None:
    """B-18: an empty boat sails into a serpent's or whale's space and stays afloat."""
    pos = Position()
    if kind == "whale":
        pos.creature("whale", where)
    b = pos.boat("2.1" if kind == "serpent" else "2.4")
    game = pos.game("move")
    assert kinds(game.apply(parse(f"sail b1 {where}"))) == ["sailed"]
    assert game.state.b_pos[b] == hx(where)
    assert kind in at(game, where)


@pytest.mark.parametrize(("kind", "fate"), [("whale", SEA), ("serpent", LOST)])
def test_B_18_boarding_an_empty_boat_in_danger_wrecks_it_by_default(kind: str, fate: int) -> None:
    """B-18, boarding_in_danger=same-as-moving-in (default): boarding a boat that lies with a
    whale or serpent destroys it: the person swims there (eaten if a serpent is there)."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.land(0, "5.2")
    b = pos.boat("4.1")
    pos.creature(kind, "4.1")
    game = pos.game("move")
    assert "board A1 b1" in offered(game)
    events = game.apply(parse("board A1 b1"))
    assert kinds(events)[:2] == ["boarded", "wrecked"]
    assert events[1].data["by"] == kind
    assert game.state.b_pos[b] == OFF
    assert game.state.p_kind[a1] == fate
    if fate == SEA:
        assert game.state.p_at[a1] == hx("4.1")


def test_B_18_a_swimmer_boarding_an_empty_boat_beside_a_whale_capsizes_it() -> None:
    """B-18, default: a swimmer sharing a space with a whale and an empty boat boards: it capsizes."""
    pos = Position()
    a1 = pos.swimmer(0, "2.5")
    b = pos.boat("2.5")
    pos.creature("whale", "2.5")
    game = pos.game("move")
    events = game.apply(parse("board A1 b1"))
    assert kinds(events) == ["boarded", "wrecked"]
    assert game.state.b_pos[b] == OFF
    assert (game.state.p_kind[a1], game.state.p_at[a1]) == (SEA, hx("2.5"))


@pytest.mark.parametrize("kind", ["whale", "serpent"])
def test_B_18_boarding_in_danger_safe_lets_the_person_aboard(kind: str) -> None:
    """B-18, boarding_in_danger=safe: boarding an empty boat beside a whale or serpent is safe."""
    pos = Position(boarding_in_danger="safe")
    pos.clear_serpents()
    a1 = pos.land(0, "5.2")
    b = pos.boat("4.1")
    pos.creature(kind, "4.1")
    game = pos.game("move")
    events = game.apply(parse("board A1 b1"))
    assert kinds(events) == ["boarded"]
    assert game.state.b_pos[b] == hx("4.1") and game.state.b_people[b] == [a1]
    assert kind in at(game, "4.1")


def test_B_18_boarding_in_danger_only_concerns_empty_boats_reached_by_people() -> None:
    """B-18, boarding_in_danger=safe: sailing an occupied boat into a whale still destroys it."""
    pos = Position(boarding_in_danger="safe")
    a1 = pos.passenger(0)
    pos.boat("2.4", [a1])
    pos.creature("whale", "2.5")
    game = pos.game("move")
    assert kinds(game.apply(parse("sail b1 2.5"))) == ["sailed", "wrecked"]
    assert game.state.p_kind[a1] == SEA


def test_B_18_a_boat_moved_onto_swimmers_does_not_pick_them_up() -> None:
    """B-18: swimmers in the space a boat sails into stay swimmers; boarding costs their move."""
    pos = Position()
    a1 = pos.swimmer(0, "2.5")
    b1 = pos.swimmer(1, "2.5")
    a2 = pos.passenger(0)
    b = pos.boat("2.4", [a2])
    game = pos.game("move")
    game.apply(parse("sail b1 2.5"))
    assert game.state.b_people[b] == [a2]
    assert sorted(game.state.swimmers[hx("2.5")]) == [a1, b1]
    assert game.state.p_kind[a1] == SEA
    # the swimmer may now board with its own move
    game.apply(parse("board A1 b1"))
    assert sorted(game.state.b_people[b]) == [a1, a2]
    assert game.state.p_kind[b1] == SEA


# -- B-19: saved people ---------------------------------------------------------------------


def test_B_19_saved_people_never_move_again() -> None:
    """B-19: a person on a safe island is offered no move, and any move of theirs is refused."""
    pos = Position()
    pos.saved(0, "NW")
    pos.land(0, "5.2")
    pos.boat("2.0")
    game = pos.game("move")
    assert moves_of(game, "A1") == set()
    assert refused(game, "move A1 2.0") == "B-19"
    assert refused(game, "board A1 b1") == "B-19"


def test_B_19_a_person_saved_this_turn_stays_saved() -> None:
    """B-19: a swimmer who reaches a safe island with the first point is done for the game."""
    pos = Position()
    a1 = pos.swimmer(0, "2.0")
    pos.boat("2.0")
    game = pos.game("move")
    game.apply(parse("move A1 NW"))
    assert moves_of(game, "A1") == set()
    assert refused(game, "move A1 2.0") == "B-19"
    assert refused(game, "board A1 b1") == "B-19"
    assert (game.state.p_kind[a1], game.state.p_at[a1]) == (SAVED, hx("NW"))


def test_B_12_B_13_walk_to_the_coast_board_and_sail_in_one_turn() -> None:
    """B-12, B-13: walk to the coast, board, then sail: three points; the passenger sails along."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.land(0, "6.2")
    b = pos.boat("4.1")
    game = pos.game("move")
    game.apply(parse("move A1 5.2"))
    game.apply(parse("board A1 b1"))
    game.apply(parse("sail b1 3.1"))
    assert game.phase == "sink"
    assert game.state.b_pos[b] == hx("3.1") and game.state.b_people[b] == [a1]
    assert game.state.p_kind[a1] == BOAT
    assert game.state.land_people[hx("6.2")] == []
