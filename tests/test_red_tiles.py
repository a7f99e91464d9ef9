"""Red turn tiles played at step 1: dolphin, winds, move-a-creature (B-7, B-22, B-38 … B-42)."""

from __future__ import annotations

import pytest

from companion.engine import REFEREE, Game, parse
from companion.engine import board as board_
from companion.engine.state import BOAT, LOST
from tests.position import SAVED, SEA, Position, at, hx, kinds, refused


def plays(game: Game) -> set[str]:
    return {a[1] for a in game.legal_actions() if a[0] == "play"}


def hand_count(game: Game, seat: int) -> int:
    return game.view(None)["hands"][seat]["count"]


# -- B-38: dolphin -------------------------------------------------------------------------------


def test_B_38_dolphin_moves_own_swimmer_three_spaces_and_keeps_its_swim() -> None:
    """B-38, B-16: the dolphin carries one of your swimmers 1–3 sea spaces at step 1; the
    swimmer may still make its own one-space swim at step 2."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.swimmer(0, "1.3")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    assert plays(game) == {"dolphin"}
    events = game.apply(parse("play dolphin"))
    assert kinds(events) == ["played"] and events[0].data == {"seat": 0, "back": "dolphin"}
    assert hand_count(game, 0) == 0
    assert game.phase == "effect"
    assert ("done",) not in game.legal_actions()  # at least one space
    assert refused(game, "done").rule == "B-38"
    for to in ("1.4", "1.5"):
        game.apply(parse(f"move A1 {to}"))
        assert game.phase == "effect"
    assert refused(game, "move A1 1.7").rule == "B-38"  # not next to 1.5
    game.apply(parse("move A1 1.6"))
    assert game.phase == "move" and game.state.points == 3
    assert at(game, "1.6") == [f"swim:{a1}"]
    assert game.view()["swam"] == []
    assert ("move", a1, hx("1.7")) in game.legal_actions()
    game.apply(parse("move A1 1.7"))
    assert at(game, "1.7") == [f"swim:{a1}"]


def test_B_38_dolphin_may_stop_after_one_space() -> None:
    """B-38: after the first space the player may stop the dolphin."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.swimmer(0, "1.3")
    pos.swimmer(0, "1.8")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    game.apply(parse("move A1 2.3"))
    # Only A1 goes on: the other swimmer is not offered any more.
    movers = {a[1] for a in game.legal_actions() if a[0] == "move"}
    assert movers == {a1}
    game.apply(parse("done"))
    assert game.phase == "move"
    assert at(game, "2.3") == [f"swim:{a1}"]


@pytest.mark.parametrize("killer", ["shark", "serpent"])
def test_B_38_dolphin_entering_a_shark_or_serpent_space_is_fatal(killer: str) -> None:
    """B-38, B-17: the dolphin's swimmer entering a shark's or serpent's space is eaten."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.swimmer(0, "1.3")
    pos.land(0, "3.4")
    pos.creature(killer, "1.4")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    events = game.apply(parse("move A1 1.4"))
    assert kinds(events) == ["moved", "eaten"]
    assert events[1].data["by"] == killer
    assert game.state.p_kind[a1] == LOST
    assert game.phase == "move"  # the tile's move is over


def test_B_38_dolphin_not_onto_a_safe_island_or_into_a_boat_by_default() -> None:
    """B-38 (dolphin_to_safety=no): from an access space, with a boat in the same space, the
    dolphin may neither land the swimmer on the safe island nor put it into the boat."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "1.1")
    boat = pos.boat("1.1")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    assert ("move", 0, hx("NW")) not in game.legal_actions()
    assert ("board", 0, boat) not in game.legal_actions()
    assert refused(game, "move A1 NW").rule == "B-38"
    assert refused(game, f"board A1 b{boat + 1}").rule == "B-38"
    # Sea spaces are fine, and a sea space with a boat is a sea space.
    assert ("move", 0, hx("1.2")) in game.legal_actions()


@pytest.mark.parametrize("target", ["NW", "boat"])
def test_B_38_dolphin_to_safety_option_allows_island_and_boat(target: str) -> None:
    """B-38 (dolphin_to_safety=yes): the dolphin may carry the swimmer onto the safe island
    or into the boat in its space, which ends its move."""
    pos = Position(dolphin_to_safety="yes")
    pos.clear_serpents()
    a1 = pos.swimmer(0, "1.1")
    pos.land(0, "3.4")
    boat = pos.boat("1.1")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    if target == "NW":
        events = game.apply(parse("move A1 NW"))
        assert "saved" in kinds(events)
        assert game.state.p_kind[a1] == SAVED
    else:
        game.apply(parse(f"board A1 b{boat + 1}"))
        assert game.state.p_kind[a1] == BOAT and game.state.b_people[boat] == [a1]
    assert game.phase == "move"


def test_B_38_dolphin_moves_only_your_own_swimmers() -> None:
    """B-38: another player's swimmer, or your own person on land or in a boat, is not moved."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.swimmer(0, "1.3")
    pos.land(0, "3.4")
    pos.boat("1.8", [pos.passenger(0)])
    pos.swimmer(1, "1.5")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    movers = {a[1] for a in game.legal_actions()}
    assert movers == {a1}
    assert refused(game, "move B1 1.6").rule == "B-38"
    assert refused(game, "move A2 3.3").rule == "B-38"


# -- B-39: winds ---------------------------------------------------------------------------------


def test_B_39_winds_moves_a_boat_you_control_up_to_three_spaces() -> None:
    """B-39, B-14: the winds move a boat you control 1–3 spaces (passengers ride along); a boat
    another player controls is not yours to blow."""
    pos = Position()
    pos.clear_serpents()
    mine = pos.boat("1.3", [pos.passenger(0)])
    theirs = pos.boat("1.8", [pos.passenger(1)])
    shared = pos.boat("12.4", [pos.passenger(0), pos.passenger(1)])  # a tie: both control it
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    game.apply(parse("play winds"))
    boats = {a[1] for a in game.legal_actions() if a[0] == "sail"}
    assert boats == {mine, shared}
    assert refused(game, f"sail b{theirs + 1} 1.9").rule == "B-39"
    for to in ("1.4", "1.5", "1.6"):
        game.apply(parse(f"sail b{mine + 1} {to}"))
    assert game.phase == "move" and game.state.points == 3
    assert at(game, "1.6") == [f"boat:{mine}"]
    assert game.state.b_people[mine] == [0]


@pytest.mark.parametrize("option", ["allowed", "forbidden"])
def test_B_39_winds_and_an_empty_boat(option: str) -> None:
    """B-39 (winds_empty_boat): an empty boat counts as anyone's unless the option forbids it."""
    pos = Position(winds_empty_boat=option)
    pos.clear_serpents()
    pos.land(0, "3.4")
    empty = pos.boat("1.3")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    if option == "allowed":
        game.apply(parse("play winds"))
        game.apply(parse(f"sail b{empty + 1} 1.4"))
        game.apply(parse("done"))
        assert at(game, "1.4") == [f"boat:{empty}"]
        assert game.phase == "move"
    else:
        # No boat it could move: the tile cannot be played now and stays in hand.
        assert game.legal_actions() == [("done",)]
        assert refused(game, "play winds").rule == "B-39"
        assert hand_count(game, 0) == 1
        pos2 = Position(winds_empty_boat=option)
        pos2.swimmer(0, "1.6")
        pos2.boat("1.3")
        pos2.hold(0, "beach", "winds")
        pos2.hold(0, "beach", "dolphin")
        game = pos2.game("tile")
        assert plays(game) == {"dolphin"}
        assert refused(game, "play winds").rule == "B-39"


def test_B_39_B_27_winds_boat_meets_the_entry_rules_at_every_space() -> None:
    """B-39, B-27, B-18: an occupied boat blown through a whale's space is wrecked there, not
    only where it would stop; its passenger swims there (whales ignore swimmers)."""
    pos = Position()
    pos.clear_serpents()
    a1 = pos.passenger(0)
    boat = pos.boat("1.3", [a1])
    pos.creature("whale", "1.4")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    game.apply(parse("play winds"))
    events = game.apply(parse(f"sail b{boat + 1} 1.4"))
    assert kinds(events) == ["sailed", "wrecked"]
    assert game.state.p_kind[a1] == SEA
    assert sorted(at(game, "1.4")) == sorted([f"swim:{a1}", "whale"])
    assert game.view(None)["boats"][boat]["at"] is None
    assert game.phase == "move"  # the boat is gone: the winds stop


# -- B-40 … B-42: move a creature ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("back", "kind", "rule"),
    [
        ("move-serpent", "serpent", "B-40"),
        ("move-shark", "shark", "B-41"),
        ("move-whale", "whale", "B-42"),
    ],
)
def test_B_40_B_41_B_42_move_a_creature_to_any_vacant_sea_space(
    back: str, kind: str, rule: str
) -> None:
    """B-40, B-41, B-42: one creature of that kind, from anywhere, to any vacant sea space —
    not onto people, a boat, another creature, land or a safe island."""
    pos = Position()
    pos.clear_serpents()
    c = pos.creature(kind, "1.5")
    pos.land(0, "3.4")
    pos.swimmer(1, "2.5")
    pos.boat("0.4")
    pos.creature("whale" if kind != "whale" else "shark", "0.5")
    pos.hold(0, "forest", back)
    game = pos.game("tile")
    assert back in plays(game)
    game.apply(parse(f"play {back}"))
    targets = {board_.name(a[2]) for a in game.legal_actions() if a[0] == "put"}
    assert {"12.5", "0.6", "9.9", "6.5"} <= targets  # far away, the lagoon included
    assert not targets & {"1.5", "2.5", "0.4", "0.5", "3.4", "NW"}
    name = f"{kind}{c - game.state.c_kind.index(kind) + 1}"
    for bad in ("2.5", "0.4", "0.5", "3.4"):
        assert refused(game, f"put {name} {bad}").rule == rule
    events = game.apply(parse(f"put {name} 12.5"))
    assert kinds(events) == ["creature_moved"]
    assert events[0].data == {"creature": name, "from": "1.5", "to": "12.5"}
    assert at(game, "12.5") == [kind] and at(game, "1.5") == []
    assert game.phase == "move"


def test_B_40_move_creature_tile_needs_such_a_creature_on_the_board() -> None:
    """B-40: with no serpent on the board the move-serpent tile cannot be played."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "1.3")
    pos.hold(0, "beach", "move-serpent")
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    assert plays(game) == {"dolphin"}
    assert refused(game, "play move-serpent").rule == "B-40"


# -- B-7: at most one turn tile ---------------------------------------------------------------


def test_B_7_at_most_one_turn_tile_per_turn() -> None:
    """B-7: with two turn tiles in hand, once one is played no second may follow this turn."""
    pos = Position()
    pos.clear_serpents()
    pos.swimmer(0, "1.3")
    pos.boat("1.8", [pos.passenger(0)])
    pos.hold(0, "beach", "dolphin")
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    assert plays(game) == {"dolphin", "winds"}
    assert refused(game, "play shark-repellent").rule == "B-7"  # a defensive tile
    game.apply(parse("play dolphin"))
    game.apply(parse("move A1 1.4"))
    assert refused(game, "play winds").rule == "B-7"
    game.apply(parse("done"))
    assert game.phase == "move"
    assert not [a for a in game.legal_actions() if a[0] == "play"]
    assert refused(game, "play winds").rule == "B-7"  # step 1 is over: one tile a turn
    assert hand_count(game, 0) == 1  # the winds tile is still held


# -- B-22: a tile named when played (physical tiles) ---------------------------------------------


def test_B_22_physical_untold_beach_tile_may_be_played_as_winds() -> None:
    """B-22, B-39: an untold beach tile may be the winds (beaches hide two); once played it is
    known, and no longer unaccounted for."""
    pos = Position(mode="physical")
    pos.clear_serpents()
    boat = pos.boat("1.3", [pos.passenger(0)])
    pos.hold(0, "beach", None)
    game = pos.game("tile")
    assert "winds" in plays(game)
    game.apply(parse("play winds"))
    assert hand_count(game, 0) == 0
    assert game.view(REFEREE)["known_backs"]["beach"]["winds"] == 1
    game.apply(parse(f"sail b{boat + 1} 1.4"))
    assert at(game, "1.4") == [f"boat:{boat}"]


def test_B_22_physical_untold_mountain_tile_cannot_be_winds() -> None:
    """B-22: no mountain tile hides the winds, so an untold mountain tile is refused as winds."""
    pos = Position(mode="physical")
    pos.clear_serpents()
    pos.boat("1.3", [pos.passenger(0)])
    pos.swimmer(0, "1.6")
    pos.hold(0, "mountain", None)
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    assert plays(game) == {"dolphin"}
    error = refused(game, "play winds")
    assert error.rule == "B-22"
    assert hand_count(game, 0) == 2


def test_B_22_physical_untold_tile_cannot_be_a_back_already_accounted_for() -> None:
    """B-22: both beach winds tiles are told in another hand, so an untold beach tile can no
    longer be winds — but it can still be a dolphin."""
    pos = Position(mode="physical")
    pos.clear_serpents()
    pos.boat("1.3", [pos.passenger(0)])
    pos.swimmer(0, "1.6")
    pos.hold(1, "beach", "winds")
    pos.hold(1, "beach", "winds")
    pos.hold(0, "beach", None)
    game = pos.game("tile")
    assert "winds" not in plays(game) and "dolphin" in plays(game)
    assert refused(game, "play winds").rule == "B-22"
    game.apply(parse("play dolphin"))
    assert game.phase == "effect"
