"""Setting up: the island laid, serpents out, then people and boats in turn order (B-2 ... B-6)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine import REFEREE, Game, IllegalAction, Rules, RulesError, board, notation, parse
from companion.engine.state import LAND

VALUES = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]


def laid(players: int = 2, seed: int = 1, mode: str = "digital") -> Game:
    """A game whose island the engine has just dealt: the first person is about to be placed."""
    game = Game.new(Rules(), players=players, seed=seed, mode=mode)
    while game.is_chance():
        game.apply(game.draw())
    return game


def placed(players: int = 2, seed: int = 1) -> Game:
    """A game whose people are all on the island: the first boat is about to be placed."""
    game = laid(players, seed)
    while game.phase == "place":
        game.apply(game.legal_actions()[0])
    return game


def offered(game: Game) -> set[str]:
    return {notation(a) for a in game.legal_actions()}


def test_B_2_digital_layout_deals_16_beach_16_forest_8_mountain() -> None:
    """B-2: the engine deals the 40 tiles onto the 40 land positions; the lagoon stays sea."""
    for seed in (1, 2, 3):
        game = Game.new(Rules(), players=3, seed=seed)
        assert game.phase == "terrain" and game.is_chance() and game.actor is None
        while game.is_chance():
            game.apply(game.draw())
        terrain = game.state.terrain
        assert Counter(terrain[h] for h in board.LAND) == {"beach": 16, "forest": 16, "mountain": 8}
        assert terrain[board.LAGOON] is None
        assert all(terrain[h] is None for h in range(board.SIZE) if h not in board.LAND)
    # the deal is shuffled: two seeds do not give the same island
    one, two = laid(seed=1).state.terrain, laid(seed=2).state.terrain
    assert one != two


def test_B_2_layout_told_from_the_table_refuses_an_exhausted_terrain() -> None:
    """B-2: the table may tell the layout; a ninth mountain is refused, citing B-2."""
    game = Game.new(Rules(), players=2, seed=0)
    for _ in range(8):
        game.apply(parse("terrain mountain"))
    assert "terrain mountain" not in offered(game)
    assert offered(game) == {"terrain beach", "terrain forest"}
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("terrain mountain"))
    assert refused.value.rule == "B-2"
    assert game.state.layout == 8
    for _ in range(16):
        game.apply(parse("terrain beach"))
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("terrain beach"))
    assert refused.value.rule == "B-2"
    assert offered(game) == {"terrain forest"}
    for _ in range(16):
        game.apply(parse("terrain forest"))
    # the table's layout is exactly what was told, position by position
    assert [game.state.terrain[h] for h in board.LAND] == (
        ["mountain"] * 8 + ["beach"] * 16 + ["forest"] * 16
    )
    assert game.phase == "place" and game.actor == 0


def test_B_3_serpents_start_on_the_five_serpent_spaces() -> None:
    """B-3: once the island is laid, a serpent lies on each serpent space, one in the lagoon."""
    game = laid()
    s = game.state
    serpents = [pos for c, pos in enumerate(s.c_pos) if s.c_kind[c] == "serpent"]
    assert sorted(board.name(h) for h in serpents) == sorted(
        ["6.5", "1.1", "2.10", "10.0", "11.10"]
    )
    assert s.n_serpent[board.LAGOON] == 1
    assert s.on_board("shark") == [] and s.on_board("whale") == []


@pytest.mark.parametrize("players", [0, 1, 7])
def test_B_4_base_game_refuses_a_player_count_outside_2_to_6(players: int) -> None:
    """B-4: the base game is for 2 to 4 players; 5 and 6 play with the 5-6 player kit
    (tests/test_five_six.py); no other count is possible."""
    with pytest.raises(RulesError, match="B-4"):
        Game.new(Rules(), players=players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_B_4_each_player_places_10_people_and_2_boats(players: int) -> None:
    """B-4: every player has 10 people (values 1,1,1,2,2,3,3,4,5,6) and 2 boats, all placed."""
    game = laid(players)
    people: Counter[int] = Counter()
    boats: Counter[int] = Counter()
    while game.phase in ("place", "boat"):
        seat = game.actor
        assert seat is not None
        (people if game.phase == "place" else boats)[seat] += 1
        game.apply(game.legal_actions()[0])
    assert people == {seat: 10 for seat in range(players)}
    assert boats == {seat: 2 for seat in range(players)}
    s = game.state
    for seat in range(players):
        assert sorted(s.p_value[p] for p in s.people_of(seat)) == VALUES
        assert all(s.p_kind[p] == LAND for p in s.people_of(seat))
    assert sum(pos != -1 for pos in s.b_pos) == 2 * players
    assert game.phase == "move" and game.actor == 0  # seat 1's first turn begins


def test_B_5_people_are_placed_one_at_a_time_in_turn_order() -> None:
    """B-5: from the start player, each seat places one person, then the next seat does."""
    game = laid(players=3)
    order = []
    while game.phase == "place":
        order.append(game.actor)
        game.apply(game.legal_actions()[0])
    assert order == [0, 1, 2] * 10


def test_B_5_placer_chooses_the_value_and_cannot_place_one_used_up() -> None:
    """B-5: a seat chooses which value to place; a value it has no person of left is refused."""
    game = laid()
    events = game.apply(parse("place 5.2 =6"))
    placed_event = next(e for e in events if e.kind == "placed")
    assert placed_event.project(REFEREE)["value"] == 6
    assert "value" not in placed_event.project(1)  # the other seat does not learn it
    game.apply(parse("place 5.3 =6"))  # seat 2 still has its own 6
    assert game.actor == 0
    assert not any(a[2] == 6 for a in game.legal_actions())
    assert {a[2] for a in game.legal_actions()} == {1, 2, 3, 4, 5}
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("place 5.4 =6"))
    assert refused.value.rule == "B-5"
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("place 5.4 =?"))  # digital: the value chosen must be said
    assert refused.value.rule == "B-5"
    assert game.state.land_people[board.parse("5.4")] == []
    # the three 1s are there to be chosen three times, and no more
    for tile in ("5.4", "5.5", "5.6"):
        game.apply(parse(f"place {tile} =1"))
        game.apply(game.legal_actions()[-1])  # seat 2 places anything
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("place 5.7 =1"))
    assert refused.value.rule == "B-5"


def test_B_5_a_person_goes_only_on_a_land_tile_with_no_person() -> None:
    """B-5: a tile with a person, the lagoon, and a safe island are all refused."""
    game = laid()
    assert {a[1] for a in game.legal_actions()} == set(board.LAND)
    game.apply(parse("place 5.2 =1"))
    assert not any(a[1] == board.parse("5.2") for a in game.legal_actions())
    for where in ("5.2", "6.5", "NW", "0.4"):
        with pytest.raises(IllegalAction) as refused:
            game.apply(parse(f"place {where} =1"))
        assert refused.value.rule == "B-5", where
    assert game.actor == 1
    assert len(game.state.land_people[board.parse("5.2")]) == 1


def test_B_5_the_tiles_offered_at_each_placement_are_those_with_nobody_on_them() -> None:
    """B-5: the tiles the engine keeps as empty (`State.empty_land`) are, at every placement,
    exactly the land tiles holding no person, in board order, also in a game read back from its
    position or copied mid-placement."""
    game = Game.new(Rules(), players=3, seed=4)
    rng = random.Random(4)
    while not game.over and game.phase in ("terrain", "place"):
        s = game.state
        empty = [h for h in board.LAND if s.terrain[h] is not None and not s.land_people[h]]
        assert s.empty_land == empty
        if game.phase == "place":
            assert sorted({a[1] for a in game.legal_actions()}) == sorted(empty)
            assert Game.from_position(game.position()).state.empty_land == empty
            assert game.copy().state.empty_land == empty
        game.apply(game.draw() if game.is_chance() else game.random_action(rng))
    assert game.phase == "boat" and game.state.empty_land == []


def test_B_5_physical_mode_placements_carry_no_value() -> None:
    """B-5: in physical mode the engine never learns the value; a placement naming one is refused."""
    game = laid(mode="physical")
    assert game.legal_actions() and all(a[2] is None for a in game.legal_actions())
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("place 5.2 =3"))
    assert refused.value.rule == "B-5"
    game.apply(parse("place 5.2 =?"))
    (person,) = game.state.land_people[board.parse("5.2")]
    assert game.state.p_value[person] is None


def test_B_6_boats_are_placed_one_at_a_time_in_turn_order_and_start_empty() -> None:
    """B-6: after the people, each seat in turn places one boat, two each; boats are empty."""
    game = placed(players=3)
    assert game.phase == "boat"
    order = []
    while game.phase == "boat":
        order.append(game.actor)
        events = game.apply(game.legal_actions()[0])
        assert events[0].kind == "boat_placed"
    assert order == [0, 1, 2, 0, 1, 2]
    s = game.state
    assert sum(pos != -1 for pos in s.b_pos) == 6
    assert all(people == [] for people in s.b_people)


def test_B_6_a_boat_goes_on_a_vacant_sea_space_next_to_land() -> None:
    """B-6: sea spaces touching a tile are offered; the lagoon (serpent), far sea and land are not."""
    game = placed()
    spaces = {a[1] for a in game.legal_actions()}
    for h in spaces:
        assert game.state.is_sea(h)
        assert any(n in board.LAND for n in board.NEIGHBOURS[h])
    assert board.parse("2.4") in spaces  # touches 3.4 and 3.5
    assert board.LAGOON not in spaces  # a serpent lies there: not vacant
    for where in ("6.5", "1.1", "1.5", "5.2", "NW"):
        with pytest.raises(IllegalAction) as refused:
            game.apply(parse(f"boat {where}"))
        assert refused.value.rule == "B-6", where
    game.apply(parse("boat 2.4"))
    assert game.actor == 1
    assert "boat 2.4" not in offered(game)  # one boat there already: not vacant
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("boat 2.4"))
    assert refused.value.rule == "B-6"
