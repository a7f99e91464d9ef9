"""Green tile backs resolved as the tile is removed: shark, whale, boat, whirlpool (B-33 … B-36)."""

from __future__ import annotations

import random

from companion.engine import REFEREE, Game, Rules, parse, sinking
from companion.engine import board as board_
from companion.engine.state import BOAT, LAND, LOST
from tests.position import LAYOUT, SAVED, SEA, TERRAIN, Position, at, kinds, refused


def tiles_of(terrain: str) -> list[str]:
    return [
        board_.name(h)
        for h, letter in zip(board_.LAND, LAYOUT, strict=True)
        if TERRAIN[letter] == terrain
    ]


def boat_where(game: Game, boat: int) -> str | None:
    return game.view(REFEREE)["boats"][boat]["at"]


def reveal(game: Game, tile: str, back: str) -> list:
    """Sink `tile` and tell its back; the events of both."""
    return game.apply(parse(f"sink {tile}")) + game.apply(parse(f"back {back}"))


# -- B-33: shark --------------------------------------------------------------------------------


def test_B_33_shark_back_puts_a_shark_there_and_it_eats_the_swimmers() -> None:
    """B-33: the people of the removed tile are swimming there; the shark eats them all."""
    pos = Position()
    a1 = pos.land(0, "3.4")
    b1 = pos.land(1, "3.4")
    neighbour = pos.swimmer(1, "2.4")  # next to the tile: not eaten
    game = pos.game("sink")
    events = reveal(game, "3.4", "shark")
    assert kinds(events) == ["sunk", "revealed", "creature_placed", "eaten"]
    eaten = next(e for e in events if e.kind == "eaten")
    assert sorted(eaten.data["people"]) == ["A1", "B1"] and eaten.data["by"] == "shark"
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == LOST
    assert at(game, "3.4") == ["shark"]
    assert game.state.p_kind[neighbour] == SEA
    assert game.phase == "roll"


def test_B_33_shark_back_with_no_shark_left_in_the_supply() -> None:
    """B-33: the shark comes from the supply; when all six are on the board none comes."""
    pos = Position()
    for name in ("0.2", "0.3", "0.4", "0.5", "0.6", "0.7"):
        pos.creature("shark", name)
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    events = reveal(game, "3.4", "shark")
    assert "no_piece" in kinds(events) and "eaten" not in kinds(events)
    assert at(game, "3.4") == [f"swim:{a1}"]


# -- B-34: whale --------------------------------------------------------------------------------


def test_B_34_whale_back_puts_a_whale_there_and_swimmers_survive() -> None:
    """B-34, B-26: a whale appears on the space; whales ignore swimmers."""
    pos = Position()
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    events = reveal(game, "3.4", "whale")
    placed = next(e for e in events if e.kind == "creature_placed")
    assert placed.data == {"creature": "whale1", "hex": "3.4"}
    assert "eaten" not in kinds(events)
    assert sorted(at(game, "3.4")) == sorted([f"swim:{a1}", "whale"])
    assert game.phase == "roll"


# -- B-35: boat ---------------------------------------------------------------------------------


def test_B_35_boat_back_brings_a_boat_and_up_to_three_swimmers_board() -> None:
    """B-35: a boat from the supply; with three or fewer swimmers there, all board it."""
    pos = Position()
    a1 = pos.land(0, "3.4")
    b1 = pos.land(1, "3.4")
    game = pos.game("sink")
    events = reveal(game, "3.4", "boat")
    assert kinds(events)[-2:] == ["boat_arrived", "boarded_all"]
    arrived = next(e for e in events if e.kind == "boat_arrived")
    assert arrived.data["from"] is None  # from the supply
    boat = game.state.boat_at[board_.parse("3.4")]
    assert game.state.b_people[boat] == [a1, b1]
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == BOAT
    assert game.phase == "roll"


def test_B_35_with_more_than_three_swimmers_the_revealer_picks_three() -> None:
    """B-35: four swimmers, room for three: the revealer (even for others' people) picks."""
    pos = Position()
    pos.land(0, "3.4")
    a2 = pos.land(0, "3.4")
    b1 = pos.land(1, "3.4")
    b2 = pos.land(1, "3.4")
    game = pos.game("sink")
    reveal(game, "3.4", "boat")
    assert game.phase == "pick" and game.actor == 0
    assert len(game.legal_actions()) == 4
    assert refused(game, "pick B5").rule == "B-35"  # not on that space
    game.apply(parse("pick B2"))
    game.apply(parse("pick A2"))
    assert game.phase == "pick"
    assert ("pick", b2) not in game.legal_actions()  # already aboard
    events = game.apply(parse("pick B1"))
    assert kinds(events) == ["boarded"]
    boat = game.state.boat_at[board_.parse("3.4")]
    assert sorted(game.state.b_people[boat]) == sorted([a2, b1, b2])
    assert at(game, "3.4") == ["swim:0", f"boat:{boat}"]  # A1 is left swimming
    assert game.phase == "roll"


def full_supply_position(
    empty_boats: int, last: str = "12.6", **options: str
) -> tuple[Position, list[int]]:
    """All twelve boats on the board: the first `empty_boats` empty, the rest occupied by seats
    2 and 3; the twelfth boat lies at `last`."""
    pos = Position(players=3, **options)
    spaces = [f"0.{c}" for c in range(2, 9)] + [f"12.{c}" for c in range(2, 6)] + [last]
    boats = []
    for i, name in enumerate(spaces):
        people = [] if i < empty_boats else [pos.passenger(1 + i % 2)]
        boats.append(pos.boat(name, people))
    return pos, boats


def test_B_35_empty_supply_the_revealer_takes_an_unoccupied_boat_from_the_board() -> None:
    """B-35 (boat_supply_empty=take-from-board, the default): with no boat in the supply the
    revealer moves an unoccupied boat from the board; the swimmers there board it."""
    pos, boats = full_supply_position(empty_boats=2)
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    reveal(game, "3.4", "boat")
    assert game.phase == "take" and game.actor == 0
    assert sorted(game.legal_actions()) == [("take", boats[0]), ("take", boats[1])]
    assert refused(game, f"take b{boats[5] + 1}").rule == "B-35"  # occupied
    events = game.apply(parse(f"take b{boats[1] + 1}"))
    arrived = next(e for e in events if e.kind == "boat_arrived")
    assert arrived.data["from"] == "0.3" and arrived.data["hex"] == "3.4"
    assert boat_where(game, boats[1]) == "3.4"
    assert game.state.b_people[boats[1]] == [a1]
    assert at(game, "0.3") == []
    assert game.phase == "roll"


def test_B_35_empty_supply_a_single_unoccupied_boat_comes_by_itself() -> None:
    """B-35: with exactly one unoccupied boat on the board there is nothing to choose."""
    pos, boats = full_supply_position(empty_boats=1)
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    reveal(game, "3.4", "boat")
    assert game.phase == "roll"
    assert boat_where(game, boats[0]) == "3.4"
    assert game.state.b_people[boats[0]] == [a1]


def test_B_35_empty_supply_and_no_unoccupied_boat_brings_no_boat() -> None:
    """B-35: every boat on the board is occupied: no boat comes, the swimmers stay swimmers."""
    pos, _ = full_supply_position(empty_boats=0)
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    events = reveal(game, "3.4", "boat")
    assert "no_piece" in kinds(events)
    assert at(game, "3.4") == [f"swim:{a1}"]
    assert game.phase == "roll"


def test_B_35_empty_supply_option_none_brings_no_boat() -> None:
    """B-35 (boat_supply_empty=none): even with unoccupied boats on the board, none comes."""
    pos, boats = full_supply_position(empty_boats=2, boat_supply_empty="none")
    a1 = pos.land(0, "3.4")
    game = pos.game("sink")
    events = reveal(game, "3.4", "boat")
    assert "no_piece" in kinds(events) and "boat_arrived" not in kinds(events)
    assert at(game, "3.4") == [f"swim:{a1}"]
    assert boat_where(game, boats[0]) == "0.2" and boat_where(game, boats[1]) == "0.3"
    assert game.phase == "roll"


# -- B-36: whirlpool ----------------------------------------------------------------------------


def whirlpool_position() -> tuple[Position, dict[str, int]]:
    """Forest 4.3 about to go (beaches gone); its sea neighbours are 3.3, 3.4 and 4.2."""
    pos = Position()
    pos.sea(*tiles_of("beach"))
    pos.clear_serpents()
    p = {
        "on_tile": pos.land(0, "4.3"),
        "swimmer": pos.swimmer(1, "3.3"),
        "passenger": pos.passenger(0),
        "on_land": pos.land(0, "4.4"),
        "far_swimmer": pos.swimmer(1, "3.2"),
        "saved": pos.saved(1, "NW"),
    }
    p["boat"] = pos.boat("3.4", [p["passenger"]])
    p["empty_boat"] = pos.boat("4.2")
    p["far_boat"] = pos.boat("2.3")
    p["serpent"] = pos.creature("serpent", "3.3")
    p["shark"] = pos.creature("shark", "4.2")
    p["whale"] = pos.creature("whale", "3.4")
    p["far_shark"] = pos.creature("shark", "2.4")
    return pos, p


def test_B_36_whirlpool_removes_everything_that_moves_on_and_around_its_space() -> None:
    """B-36: swimmers, boats with their passengers, serpents, sharks and whales on the space and
    on every adjacent sea space are removed; land, safe islands and farther spaces are not."""
    pos, p = whirlpool_position()
    game = pos.game("sink")
    events = reveal(game, "4.3", "whirlpool")
    pool = next(e for e in events if e.kind == "whirlpool")
    assert sorted(pool.data["people"]) == ["A1", "A2", "B1"]
    assert sorted(pool.data["boats"]) == sorted([f"b{p['boat'] + 1}", f"b{p['empty_boat'] + 1}"])
    assert sorted(pool.data["creatures"]) == ["serpent1", "shark1", "whale1"]
    s = game.state
    for who in ("on_tile", "swimmer", "passenger"):
        assert s.p_kind[p[who]] == LOST
    assert s.p_kind[p["on_land"]] == LAND  # still on 4.4
    assert s.p_kind[p["far_swimmer"]] == SEA
    assert s.p_kind[p["saved"]] == SAVED
    for name in ("4.3", "3.3", "3.4", "4.2"):
        assert at(game, name) == []
    assert at(game, "2.3") == [f"boat:{p['far_boat']}"]
    assert at(game, "2.4") == ["shark"]
    creatures = {c["id"]: c for c in game.view(None)["creatures"]}
    assert creatures["shark1"]["gone"] and creatures["shark1"]["at"] is None
    assert creatures["serpent1"]["gone"] and creatures["whale1"]["gone"]
    assert not creatures["shark2"]["gone"]
    assert boat_where(game, p["boat"]) is None and boat_where(game, p["empty_boat"]) is None
    assert game.phase == "roll"


def test_B_36_boats_removed_by_a_whirlpool_return_to_the_supply() -> None:
    """B-36: with all twelve boats out, a whirlpool takes one back to the supply; the next boat
    back is served from the supply (no boat taken from the board)."""
    pos, boats = full_supply_position(empty_boats=0, last="4.2")  # 4.2 is next to forest 4.3
    pos.sea(*tiles_of("beach"))
    sailor = pos.s.b_people[boats[-1]][0]
    pos.land(0, "5.3")
    game = pos.game("sink")
    reveal(game, "4.3", "whirlpool")
    assert boat_where(game, boats[-1]) is None
    assert game.state.p_kind[sailor] == LOST
    game.apply(parse("roll whale"))  # no whale on the board: nothing moves (B-28)
    assert game.state.turn == 1
    while game.phase in ("tile", "move"):
        game.apply(parse("done"))
    assert game.phase == "sink"
    events = reveal(game, "5.3", "boat")
    arrived = next(e for e in events if e.kind == "boat_arrived")
    assert arrived.data["from"] is None
    assert arrived.data["boat"] == f"b{boats[-1] + 1}"
    assert game.state.b_people[boats[-1]] == [0]  # A1 was on 5.3


def test_B_22_a_drawn_back_is_one_the_tile_may_have_even_with_every_red_tile_accounted_for() -> (
    None
):
    """B-22, B-37: the engine draws a removed tile's back only among those it may have: when
    red tiles kept unseen (told only as "red") account for every red tile of the terrain
    still unplaced, no red back is drawn. The draw's weights offer exactly `possible_backs`
    (but the untold "red", which the table alone tells) at every removal of random games."""
    rng = random.Random(3)
    emptied = 0
    for seed in range(3):
        game = Game.new(Rules(), 4, seed=seed)
        while not game.over:
            if game.phase == "back":
                s = game.state
                t = s.ctx["terrain"]
                for unseen in range(4):  # the red tiles of t kept untold, as a physical table's
                    s.unknown_red[t] = unseen
                    drawn = [k for k, _ in sinking.back_weights(s)]
                    assert drawn == [k for k in sinking.possible_backs(s) if k != "red"]
                    emptied += sinking.red_room(s, t) <= 0 < sinking.red_room(s, t) + unseen
                s.unknown_red[t] = 0
            game.apply(game.draw() if game.is_chance() else game.random_action(rng))
    assert emptied >= 10  # the case where the red backs are left out came up
