"""Step 4: the creature die and the creature's move and attack (B-10, B-24 … B-28)."""

from __future__ import annotations

import pytest

from companion.engine import Game, MalformedAction, parse
from companion.engine import board as board_
from companion.engine.state import BOAT, LOST
from tests.position import SEA, Position, at, kinds, refused


def steps(game: Game) -> set[str]:
    """Where the creature may step next."""
    return {board_.name(a[2]) for a in game.legal_actions() if a[0] == "creature"}


def name(game: Game, c: int) -> str:
    kinds_ = game.state.c_kind
    return f"{kinds_[c]}{c - kinds_.index(kinds_[c]) + 1}"


def rolled(pos: Position, face: str, turn: int = 0) -> Game:
    """The game at `turn`'s step 4 with the die showing `face`."""
    game = pos.game("roll", turn=turn)
    assert game.is_chance()
    game.apply(parse(f"roll {face}"))
    assert game.phase == "creature" and game.actor == turn
    return game


def turn_passed(game: Game, events: list, to: int = 1) -> bool:
    return "turn" in kinds(events) and game.state.turn == to and game.actor == to


def open_sea() -> Position:
    """Two players, no serpents out: a clear stretch of sea along row 1 (1.2 … 1.10)."""
    pos = Position()
    pos.clear_serpents()
    pos.land(1, "3.4")  # seat 2 still has people, so its turn has a step 2
    return pos


# -- B-24: sea serpent ---------------------------------------------------------------------------


def test_B_24_serpent_moves_exactly_one_space() -> None:
    """B-24: one space, then the turn passes; it is not offered a second step."""
    pos = open_sea()
    c = pos.creature("serpent", "1.5")
    game = rolled(pos, "serpent")
    assert steps(game) == {"0.4", "0.5", "1.4", "1.6", "2.4", "2.5"}
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert kinds(events)[0] == "creature_moved"
    assert events[0].data == {"creature": "serpent1", "from": "1.5", "to": "1.6"}
    assert turn_passed(game, events)
    assert at(game, "1.6") == ["serpent"]


def test_B_24_serpent_destroys_an_occupied_boat_with_its_passengers_and_eats_swimmers() -> None:
    """B-24: the boat and everyone aboard are lost, and so are the swimmers there."""
    pos = open_sea()
    c = pos.creature("serpent", "1.5")
    a1, b1 = pos.passenger(0), pos.passenger(1)
    boat = pos.boat("1.6", [a1, b1])
    b2 = pos.swimmer(1, "1.6")
    game = rolled(pos, "serpent")
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert kinds(events) == ["creature_moved", "sunk_boat", "eaten", "turn"]
    assert sorted(events[1].data["people"]) == ["A1", "B2"]  # B1 is on land
    assert events[2].data["people"] == ["B3"] and events[2].data["by"] == "serpent"
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == game.state.p_kind[b2] == LOST
    assert game.view(None)["boats"][boat]["at"] is None  # back in the supply
    assert at(game, "1.6") == ["serpent"]


def test_B_24_serpent_leaves_an_empty_boat_unharmed() -> None:
    """B-24: an empty boat survives the serpent (the swimmer beside it does not)."""
    pos = open_sea()
    c = pos.creature("serpent", "1.5")
    boat = pos.boat("1.6")
    b2 = pos.swimmer(1, "1.6")
    game = rolled(pos, "serpent")
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert "sunk_boat" not in kinds(events) and "wrecked" not in kinds(events)
    assert game.state.p_kind[b2] == LOST
    assert sorted(at(game, "1.6")) == sorted([f"boat:{boat}", "serpent"])


# -- B-25: shark -------------------------------------------------------------------------------


def test_B_25_shark_moves_one_or_two_spaces() -> None:
    """B-25: after one space the shark may stop or go on; after two the turn passes. One
    creature moves, not two."""
    pos = open_sea()
    c = pos.creature("shark", "1.5")
    other = pos.creature("shark", "12.4")
    game = rolled(pos, "shark")
    assert {"1.6", "12.5"} <= steps(game)  # either shark may be the one
    game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert game.phase == "creature"
    assert ("done",) in game.legal_actions()
    assert steps(game) == {"0.5", "0.6", "1.5", "1.7", "2.5", "2.6"}
    assert refused(game, f"creature {name(game, other)} 12.5").rule == "B-10"
    events = game.apply(parse(f"creature {name(game, c)} 1.7"))
    assert turn_passed(game, events)
    assert at(game, "1.7") == ["shark"]


def test_B_25_shark_may_stop_after_one_space() -> None:
    """B-25: a shark moves 1–2 spaces: the roller may stop it after the first."""
    pos = open_sea()
    c = pos.creature("shark", "1.5")
    game = rolled(pos, "shark")
    game.apply(parse(f"creature {name(game, c)} 1.6"))
    events = game.apply(parse("done"))
    assert turn_passed(game, events)
    assert at(game, "1.6") == ["shark"]


def test_B_25_shark_stops_on_swimmers_and_eats_them_all() -> None:
    """B-25: entering a space with swimmers (of any players), the shark eats them all and stops."""
    pos = open_sea()
    c = pos.creature("shark", "1.5")
    a1 = pos.swimmer(0, "1.6")
    b2 = pos.swimmer(1, "1.6")
    game = rolled(pos, "shark")
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert kinds(events) == ["creature_moved", "eaten", "turn"]
    assert sorted(events[1].data["people"]) == ["A1", "B2"] and events[1].data["by"] == "shark"
    assert game.state.p_kind[a1] == game.state.p_kind[b2] == LOST
    assert turn_passed(game, events)


def test_B_25_shark_ignores_boats() -> None:
    """B-25: a shark entering a space with an occupied boat does nothing to it and may go on."""
    pos = open_sea()
    c = pos.creature("shark", "1.5")
    b2 = pos.passenger(1)
    boat = pos.boat("1.6", [b2])
    game = rolled(pos, "shark")
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert kinds(events) == ["creature_moved"]
    assert game.phase == "creature" and "1.7" in steps(game)
    game.apply(parse(f"creature {name(game, c)} 1.7"))
    assert game.state.p_kind[b2] == BOAT and at(game, "1.6") == [f"boat:{boat}"]


# -- B-26: whale -------------------------------------------------------------------------------


def test_B_26_whale_moves_up_to_three_spaces_and_ignores_swimmers() -> None:
    """B-26: the whale swims past swimmers without harm and may take three spaces."""
    pos = open_sea()
    c = pos.creature("whale", "1.3")
    b2 = pos.swimmer(1, "1.4")
    game = rolled(pos, "whale")
    whale = name(game, c)
    events = game.apply(parse(f"creature {whale} 1.4"))
    assert kinds(events) == ["creature_moved"]
    assert game.state.p_kind[b2] == SEA
    game.apply(parse(f"creature {whale} 1.5"))
    assert game.phase == "creature" and "1.6" in steps(game)
    events = game.apply(parse(f"creature {whale} 1.6"))
    assert turn_passed(game, events)
    assert at(game, "1.6") == ["whale"] and at(game, "1.4") == [f"swim:{b2}"]


def test_B_26_whale_ignores_an_empty_boat() -> None:
    """B-26: only an occupied boat stops the whale."""
    pos = open_sea()
    c = pos.creature("whale", "1.3")
    boat = pos.boat("1.4")
    game = rolled(pos, "whale")
    events = game.apply(parse(f"creature {name(game, c)} 1.4"))
    assert kinds(events) == ["creature_moved"]
    assert game.phase == "creature"
    assert sorted(at(game, "1.4")) == sorted([f"boat:{boat}", "whale"])


def test_B_26_B_27_whale_stops_at_an_occupied_boat_and_capsizes_it() -> None:
    """B-26, B-27: with a space still to go, the whale stops at the first occupied boat; the
    boat is gone and its passengers swim there (whales do not eat them)."""
    pos = open_sea()
    c = pos.creature("whale", "1.3")
    a1, b2 = pos.passenger(0), pos.passenger(1)
    boat = pos.boat("1.5", [a1, b2])
    game = rolled(pos, "whale")
    game.apply(parse(f"creature {name(game, c)} 1.4"))
    events = game.apply(parse(f"creature {name(game, c)} 1.5"))
    assert kinds(events) == ["creature_moved", "wrecked", "turn"]
    assert events[1].data["by"] == "whale" and sorted(events[1].data["people"]) == ["A1", "B2"]
    assert game.state.p_kind[a1] == game.state.p_kind[b2] == SEA
    assert sorted(at(game, "1.5")) == sorted([f"swim:{a1}", f"swim:{b2}", "whale"])
    assert game.view(None)["boats"][boat]["at"] is None
    assert turn_passed(game, events)


def test_B_26_whale_capsizes_a_boat_in_a_shark_space_and_the_passengers_are_eaten() -> None:
    """B-26: a whale capsizes an occupied boat in a space that also holds a shark: the
    passengers become swimmers there and the shark eats them at once."""
    pos = open_sea()
    c = pos.creature("whale", "1.3")
    pos.creature("shark", "1.4")
    b2, b3 = pos.passenger(1), pos.passenger(1)
    pos.boat("1.4", [b2, b3])
    game = rolled(pos, "whale")
    events = game.apply(parse(f"creature {name(game, c)} 1.4"))
    assert kinds(events) == ["creature_moved", "wrecked", "eaten", "turn"]
    assert events[2].data["by"] == "shark" and sorted(events[2].data["people"]) == ["B2", "B3"]
    assert game.state.p_kind[b2] == game.state.p_kind[b3] == LOST
    assert sorted(at(game, "1.4")) == ["shark", "whale"]


# -- B-27: through the sea, sharing spaces, stopping where it attacks ----------------------------


@pytest.mark.parametrize(
    ("kind", "start", "reachable", "forbidden"),
    [
        ("shark", "3.3", {"2.2", "2.3", "3.2", "4.2"}, "3.4"),  # 3.4 and 4.3 are land
        ("whale", "1.1", {"1.2", "2.0", "2.1"}, "NW"),  # the safe island is not sea
    ],
)
def test_B_27_creatures_move_through_sea_spaces_only(
    kind: str, start: str, reachable: set[str], forbidden: str
) -> None:
    """B-27, B-1: a creature never enters a land tile or a safe island."""
    pos = open_sea()
    c = pos.creature(kind, start)
    game = rolled(pos, kind)
    assert steps(game) == reachable
    assert refused(game, f"creature {name(game, c)} {forbidden}").rule == "B-27"


def test_B_27_creatures_share_spaces_with_each_other() -> None:
    """B-27: a shark may enter and pass spaces holding a whale and a serpent; nobody is hurt."""
    pos = open_sea()
    c = pos.creature("shark", "1.4")
    pos.creature("whale", "1.5")
    pos.creature("serpent", "1.6")
    game = rolled(pos, "shark")
    game.apply(parse(f"creature {name(game, c)} 1.5"))
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert kinds(events) == ["creature_moved", "turn"]
    assert sorted(at(game, "1.6")) == ["serpent", "shark"]
    assert at(game, "1.5") == ["whale"]


def test_B_27_shark_attacks_where_it_stops_and_stops_at_the_first_swimmers() -> None:
    """B-27: the shark stops in the first space with swimmers and attacks only there; the
    swimmers one space further are not reached."""
    pos = open_sea()
    c = pos.creature("shark", "1.5")
    near = pos.swimmer(1, "1.6")
    far = pos.swimmer(1, "1.7")
    game = rolled(pos, "shark")
    events = game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert not steps(game)
    assert game.state.p_kind[near] == LOST and game.state.p_kind[far] == SEA
    assert turn_passed(game, events)


# -- B-28 and B-10: nothing to move; may the roller decline? -----------------------------------


@pytest.mark.parametrize("option", ["optional", "mandatory"])
def test_B_28_none_of_the_rolled_kind_on_the_board_nothing_moves(option: str) -> None:
    """B-28: no whale on the board: the roll moves nothing and the turn passes at once."""
    pos = Position(creature_move=option)
    pos.land(1, "3.4")
    pos.creature("shark", "1.5")
    game = pos.game("roll")
    events = game.apply(parse("roll whale"))
    assert kinds(events)[:2] == ["rolled", "turn"]
    assert "creature_moved" not in kinds(events)
    assert turn_passed(game, events)
    assert at(game, "1.5") == ["shark"]


@pytest.mark.parametrize("option", ["optional", "mandatory"])
def test_B_28_B_10_a_creature_that_cannot_move_does_not_move(option: str) -> None:
    """B-28, B-10: the only shark is in the lagoon, ringed by land: nothing moves, even when
    the move is mandatory."""
    pos = Position(creature_move=option)
    pos.land(1, "3.4")
    pos.creature("shark", "6.5")
    game = pos.game("roll")
    events = game.apply(parse("roll shark"))
    assert "creature_moved" not in kinds(events)
    assert turn_passed(game, events)


def test_B_10_B_25_creature_move_optional_lets_the_roller_decline() -> None:
    """B-10, B-25 (creature_move=optional, the default): the roller may decline to move the
    shark at all."""
    pos = open_sea()
    pos.creature("shark", "1.5")
    game = rolled(pos, "shark")
    assert ("done",) in game.legal_actions()
    events = game.apply(parse("done"))
    assert turn_passed(game, events)
    assert at(game, "1.5") == ["shark"]


def test_B_10_B_25_creature_move_mandatory_removes_the_decline() -> None:
    """B-10, B-25 (creature_move=mandatory): no `done` before the first step; after it the
    shark may stop, since it moves 1–2 spaces."""
    pos = Position(creature_move="mandatory")
    pos.clear_serpents()
    pos.land(1, "3.4")
    c = pos.creature("shark", "1.5")
    game = rolled(pos, "shark")
    assert ("done",) not in game.legal_actions()
    assert refused(game, "done").rule == "B-10"
    game.apply(parse(f"creature {name(game, c)} 1.6"))
    assert ("done",) in game.legal_actions()
    events = game.apply(parse("done"))
    assert turn_passed(game, events)


def test_B_10_B_28_die_faces_and_the_rolled_kind() -> None:
    """B-10, B-28: the die shows shark, whale or serpent; only a creature of the rolled kind
    moves."""
    pos = open_sea()
    pos.creature("shark", "1.5")
    whale = pos.creature("whale", "1.8")
    game = pos.game("roll")
    assert sorted(a[1] for a in game.legal_actions()) == ["serpent", "shark", "whale"]
    with pytest.raises(MalformedAction):
        game.apply(parse("roll dolphin"))
    game.apply(parse("roll shark"))
    assert refused(game, f"creature {name(game, whale)} 1.9").rule == "B-10"
    assert at(game, "1.8") == ["whale"]
