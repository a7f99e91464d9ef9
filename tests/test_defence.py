"""The defensive window: shark and whale repellents played during another's move (B-29, B-43)."""

from __future__ import annotations

import pytest

from companion.engine import REFEREE, Game, IllegalAction, parse
from companion.engine.state import BOAT, LOST
from tests.position import SEA, Position, at, kinds


def hand_count(game: Game, seat: int) -> int:
    return game.view(None)["hands"][seat]["count"]


def creature_gone(game: Game, creature: str) -> bool:
    entry = next(c for c in game.view(None)["creatures"] if c["id"] == creature)
    return entry["gone"] and entry["at"] is None


def shark_attack(players: int = 2, mode: str = "digital", **options: str) -> Position:
    """shark1 on 1.5, about to be moved into 1.6."""
    pos = Position(players=players, mode=mode, **options)
    pos.clear_serpents()
    pos.creature("shark", "1.5")
    return pos


def roll_and_move(pos: Position, face: str, steps: list[str], mover: int = 0) -> Game:
    game = pos.game("roll", turn=mover)
    game.apply(parse(f"roll {face}"))
    creature = f"{face}1"
    for to in steps:
        game.apply(parse(f"creature {creature} {to}"))
    return game


# -- shark repellent ---------------------------------------------------------------------------


def test_B_29_B_43_shark_repellent_removes_the_shark_and_saves_the_swimmers() -> None:
    """B-29, B-43: before the shark eats, the attacked player holding a shark repellent is asked;
    playing it removes the shark and every swimmer there lives."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.6")
    a1 = pos.swimmer(0, "1.6")
    pos.hold(1, "beach", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase == "defence" and game.actor == 1
    assert sorted(game.legal_actions()) == [("done",), ("repel",)]
    # Who is asked is private: it would tell who may hold a repellent (spec §9).
    assert game.view(None)["actor"] is None and game.view(0)["actor"] is None
    assert game.view(1)["actor"] == 1
    assert game.state.p_kind[b1] == SEA  # not eaten yet
    events = game.apply(parse("repel"))
    assert kinds(events)[0] == "repelled"
    assert events[0].data == {
        "seat": 1,
        "back": "shark-repellent",
        "creature": "shark1",
        "hex": "1.6",
    }
    assert "eaten" not in kinds(events)
    assert game.state.p_kind[b1] == game.state.p_kind[a1] == SEA
    assert creature_gone(game, "shark1") and "shark" not in at(game, "1.6")
    assert hand_count(game, 1) == 0
    assert "turn" in kinds(events) and game.state.turn == 1


def test_B_29_declining_the_repellent_lets_the_shark_eat() -> None:
    """B-29: the asked player may decline; the shark then eats and the tile stays in hand."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.6")
    pos.hold(1, "beach", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.actor == 1
    events = game.apply(parse("done"))
    assert kinds(events)[:1] == ["eaten"]
    assert game.state.p_kind[b1] == LOST
    assert hand_count(game, 1) == 1
    assert at(game, "1.6") == ["shark"]
    assert game.state.turn == 1


def test_B_29_players_are_asked_in_turn_order_from_the_mover() -> None:
    """B-29: seat 3 moves the shark onto swimmers of seats 1, 2 and 4, all holding repellents:
    seat 4 is asked first, then seat 1, then seat 2."""
    pos = shark_attack(players=4)
    swimmers = {seat: pos.swimmer(seat, "1.6") for seat in (0, 1, 3)}
    pos.hold(0, "beach", "shark-repellent")
    pos.hold(1, "forest", "shark-repellent")
    pos.hold(3, "mountain", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"], mover=2)
    assert game.phase == "defence" and game.actor == 3
    game.apply(parse("done"))
    assert game.phase == "defence" and game.actor == 0
    game.apply(parse("done"))
    assert game.phase == "defence" and game.actor == 1
    events = game.apply(parse("repel"))
    assert kinds(events)[0] == "repelled" and events[0].data["seat"] == 1
    assert all(game.state.p_kind[p] == SEA for p in swimmers.values())
    assert [hand_count(game, seat) for seat in range(4)] == [1, 0, 0, 1]
    assert game.state.turn == 3


def test_B_29_at_most_one_repellent_per_attack() -> None:
    """B-29: the first repellent played cancels the attack; nobody later in line is asked."""
    pos = shark_attack(players=3)
    pos.swimmer(1, "1.6")
    pos.swimmer(2, "1.6")
    pos.hold(1, "beach", "shark-repellent")
    pos.hold(2, "forest", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.actor == 1
    events = game.apply(parse("repel"))
    assert game.phase != "defence" and game.state.turn == 1
    assert kinds(events).count("repelled") == 1
    assert hand_count(game, 2) == 1


def test_B_29_a_player_who_cannot_hold_a_repellent_is_not_asked() -> None:
    """B-29: a player whose held tiles cannot be a shark repellent, as the whole table knows (the
    beach's only shark repellent was played openly), is not asked; the shark eats at once."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.6")
    pos.hold(1, "beach", "dolphin")
    pos.s.known["beach"]["shark-repellent"] = 1  # played in an earlier turn, face up
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase != "defence"
    assert game.state.p_kind[b1] == LOST
    assert hand_count(game, 1) == 1


def test_B_29_a_player_with_no_red_tile_is_not_asked() -> None:
    """B-29: nobody holding no red tile at all is asked."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.6")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase != "defence"
    assert game.state.p_kind[b1] == LOST


def test_B_29_a_holder_of_another_tile_is_asked_but_can_only_decline() -> None:
    """B-29 with §9: a player whose one beach tile is a dolphin looks, to everyone else, like a
    player who may hold the beach shark repellent; so they are asked too — with only 'no' to
    give — and the pause tells nobody which tile they hold."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.6")
    pos.hold(1, "beach", "dolphin")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase == "defence" and game.actor == 1
    assert game.legal_actions() == [("done",)]
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("repel"))
    assert refused.value.rule == "B-43"
    game.apply(parse("done"))
    assert game.state.p_kind[b1] == LOST
    assert hand_count(game, 1) == 1


def test_B_29_the_mover_is_not_asked_about_their_own_swimmers() -> None:
    """B-29: only a shark moved by another player can be repelled: the mover's own swimmer is
    eaten even when the mover holds a shark repellent."""
    pos = shark_attack()
    a1 = pos.swimmer(0, "1.6")
    pos.land(0, "3.4")
    pos.hold(0, "beach", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase != "defence"
    assert game.state.p_kind[a1] == LOST
    assert hand_count(game, 0) == 1


def test_B_29_B_43_untold_tile_that_may_be_a_repellent_physical_mode() -> None:
    """B-29, B-43 (physical tiles): a player holding an untold forest tile may hold a shark
    repellent, so is asked; playing it tells the companion what it was."""
    pos = shark_attack(mode="physical")
    b1 = pos.swimmer(1, "1.6")
    pos.hold(1, "forest", None)
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase == "defence" and game.actor == 1
    game.apply(parse("repel"))
    assert game.state.p_kind[b1] == SEA
    assert game.view(REFEREE)["known_backs"]["forest"]["shark-repellent"] == 1
    assert hand_count(game, 1) == 0


def test_B_29_untold_tile_that_cannot_be_the_repellent_can_only_decline() -> None:
    """B-29 (physical tiles): an untold forest tile cannot be a shark repellent once the only
    forest shark repellent was told to the companion by another player; the holder is still
    asked (the table does not know what was told privately) but may only decline."""
    pos = shark_attack(players=3, mode="physical")
    b1 = pos.swimmer(1, "1.6")
    pos.hold(1, "forest", None)
    pos.hold(2, "forest", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase == "defence" and game.actor == 1
    assert game.legal_actions() == [("done",)]
    game.apply(parse("done"))
    assert game.state.p_kind[b1] == LOST


# -- whale repellent ---------------------------------------------------------------------------


def whale_attack(passengers: list[int], mode: str = "digital") -> tuple[Position, int, list[int]]:
    """whale1 on 1.4 and a boat on 1.5 carrying people of the given seats (mover: seat 1)."""
    pos = Position(players=2, mode=mode)
    pos.clear_serpents()
    pos.creature("whale", "1.4")
    people = [pos.passenger(seat) for seat in passengers]
    boat = pos.boat("1.5", people)
    return pos, boat, people


def test_B_29_B_43_whale_repellent_saves_a_boat_you_control() -> None:
    """B-29, B-43: the whale is removed before it capsizes the boat its holder controls."""
    pos, boat, people = whale_attack([1, 1])
    pos.hold(1, "forest", "whale-repellent")
    game = roll_and_move(pos, "whale", ["1.5"])
    assert game.phase == "defence" and game.actor == 1
    events = game.apply(parse("repel"))
    assert kinds(events)[0] == "repelled" and events[0].data["back"] == "whale-repellent"
    assert "wrecked" not in kinds(events)
    assert creature_gone(game, "whale1")
    assert at(game, "1.5") == [f"boat:{boat}"]
    assert all(game.state.p_kind[p] == BOAT for p in people)


def test_B_29_declined_whale_repellent_lets_the_whale_capsize() -> None:
    """B-29: declining, the boat is capsized and its passengers swim."""
    pos, boat, people = whale_attack([1])
    pos.hold(1, "forest", "whale-repellent")
    game = roll_and_move(pos, "whale", ["1.5"])
    events = game.apply(parse("done"))
    assert "wrecked" in kinds(events)
    assert game.state.p_kind[people[0]] == SEA
    assert game.view(None)["boats"][boat]["at"] is None


@pytest.mark.parametrize(
    ("passengers", "asked"),
    [([0, 1], True), ([0, 0, 1], False)],
)
def test_B_29_whale_repellent_only_for_a_boat_you_control(
    passengers: list[int], asked: bool
) -> None:
    """B-29, B-14: with one person each the tie lets seat 2 control the boat, so it is asked;
    when the mover has more people aboard, seat 2 does not control it and is not asked."""
    pos, _, people = whale_attack(passengers)
    pos.hold(1, "mountain", "whale-repellent")
    game = roll_and_move(pos, "whale", ["1.5"])
    if asked:
        assert game.phase == "defence" and game.actor == 1
    else:
        assert game.phase != "defence"
        assert all(game.state.p_kind[p] == SEA for p in people)


def test_B_29_untold_beach_tile_may_be_shark_but_not_whale_repellent() -> None:
    """B-29 (physical tiles): beaches hide a shark repellent but no whale repellent, so the
    holder of an untold beach tile is asked about a shark, never about a whale."""
    pos, _, people = whale_attack([1], mode="physical")
    pos.hold(1, "beach", None)
    game = roll_and_move(pos, "whale", ["1.5"])
    assert game.phase != "defence"
    assert game.state.p_kind[people[0]] == SEA  # capsized

    pos = shark_attack(mode="physical")
    pos.swimmer(1, "1.6")
    pos.hold(1, "beach", None)
    game = roll_and_move(pos, "shark", ["1.6"])
    assert game.phase == "defence" and game.actor == 1


def test_B_29_B_43_repel_is_refused_outside_the_defensive_window() -> None:
    """B-29, B-43: a repellent is played only when asked during an attack; before the shark
    has moved, the refusal names the step under way (B-10)."""
    pos = shark_attack()
    pos.swimmer(1, "1.6")
    pos.hold(1, "beach", "shark-repellent")
    game = pos.game("roll")
    game.apply(parse("roll shark"))
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("repel"))
    assert info.value.rule == "B-10"
    assert hand_count(game, 1) == 1


# -- repellent_vs_tiles ------------------------------------------------------------------------


@pytest.mark.parametrize("option", ["no", "yes"])
def test_B_29_B_33_repellent_against_a_shark_from_a_tile(option: str) -> None:
    """B-29 (repellent_vs_tiles), B-33: a shark placed by a shark back can be repelled only when
    the option says so; then the swimmers of the removed tile live and step 4 follows."""
    pos = Position(repellent_vs_tiles=option)
    b1 = pos.land(1, "3.4")
    pos.hold(1, "forest", "shark-repellent")
    game = pos.game("sink")
    game.apply(parse("sink 3.4"))
    game.apply(parse("back shark"))
    if option == "no":
        assert game.phase == "roll"
        assert game.state.p_kind[b1] == LOST
        assert hand_count(game, 1) == 1
        return
    assert game.phase == "defence" and game.actor == 1
    events = game.apply(parse("repel"))
    assert kinds(events) == ["repelled"]
    assert game.state.p_kind[b1] == SEA and at(game, "3.4") == [f"swim:{b1}"]
    assert game.phase == "roll" and game.is_chance()


def test_B_29_B_33_declined_repellent_against_a_tile_shark() -> None:
    """B-29 (repellent_vs_tiles=yes), B-33: declining, the tile's shark eats the swimmers of the
    removed tile and step 4 follows; the revealer's own swimmer gives the revealer no say."""
    pos = Position(repellent_vs_tiles="yes")
    a1 = pos.land(0, "3.4")
    b1 = pos.land(1, "3.4")
    pos.hold(0, "beach", "shark-repellent")  # the revealer's: never asked
    pos.hold(1, "forest", "shark-repellent")
    game = pos.game("sink")
    game.apply(parse("sink 3.4"))
    game.apply(parse("back shark"))
    assert game.phase == "defence" and game.actor == 1
    events = game.apply(parse("done"))
    assert kinds(events) == ["eaten"]
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == LOST
    assert [hand_count(game, seat) for seat in (0, 1)] == [1, 1]
    assert game.phase == "roll"


def test_B_29_shark_attacking_at_its_second_space_is_repellable() -> None:
    """B-29, B-25: the window opens wherever the shark stops to attack, here after two spaces."""
    pos = shark_attack()
    b1 = pos.swimmer(1, "1.7")
    pos.hold(1, "beach", "shark-repellent")
    game = roll_and_move(pos, "shark", ["1.6", "1.7"])
    assert game.phase == "defence" and game.actor == 1
    game.apply(parse("repel"))
    assert game.state.p_kind[b1] == SEA
    assert creature_gone(game, "shark1")


def test_B_29_whale_attacking_at_its_third_space_is_repellable() -> None:
    """B-29, B-26: a whale reaching a boat on its third space is met by the whale repellent."""
    pos = Position()
    pos.clear_serpents()
    pos.creature("whale", "1.2")
    b1 = pos.passenger(1)
    boat = pos.boat("1.5", [b1])
    pos.hold(1, "forest", "whale-repellent")
    game = roll_and_move(pos, "whale", ["1.3", "1.4", "1.5"])
    assert game.phase == "defence" and game.actor == 1
    game.apply(parse("repel"))
    assert game.state.p_kind[b1] == BOAT and at(game, "1.5") == [f"boat:{boat}"]
    assert creature_gone(game, "whale1")
