"""The 5-6 player kit: people put back in the box, boats per seat, placing order (P-1 ... P-3).

Setups are played through the public face: the engine deals the island, then each placement is
chosen by the test.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine import (
    REFEREE,
    Game,
    IllegalAction,
    Rules,
    RulesError,
    board,
    parse,
    violations,
)
from companion.engine.data import COLOURS
from companion.engine.setup import OUTER_COAST
from companion.engine.state import LAND, LOST, SAVED
from tests.position import Position, hx


def laid(players: int, modules: str = "base", seed: int = 1, mode: str = "digital") -> Game:
    """A game whose island the engine has just dealt: the first person is about to be placed."""
    game = Game.new(Rules.parse(modules), players=players, seed=seed, mode=mode)
    while game.is_chance():
        game.apply(game.draw())
    return game


def place_all(game: Game) -> tuple[list[int], list[int]]:
    """Place every person and boat (the first legal choice each time); the seats in order."""
    people, boats = [], []
    while game.phase in ("place", "boat"):
        seat = game.actor
        assert seat is not None
        (people if game.phase == "place" else boats).append(seat)
        game.apply(game.legal_actions()[0])
        assert violations(game) == []
    return people, boats


def values_placed(game: Game, seat: int) -> list[int]:
    s = game.state
    return sorted(v for p in s.people_of(seat) if (v := s.p_value[p]) is not None)


# -- which rules, for how many ------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_P_1_P_2_five_or_six_players_imply_the_kit(players: int) -> None:
    """P-1, P-2: 5 or 6 players play with the 5-6 player kit, asked for or not; the stored rules
    say so."""
    for modules in ("base", "base,five-six", "five-six"):
        game = Game.new(Rules.parse(modules), players=players)
        assert "five-six" in game.state.rules.modules
        assert "five-six" in game.view(None)["rules"]["modules"]
    assert "five-six" not in Game.new(Rules(), players=4).state.rules.modules


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_1_the_kit_is_refused_with_fewer_than_five_players(players: int) -> None:
    """P-1: the 5-6 player kit is for 5 or 6 players; with 2 to 4 it is refused, saying why."""
    with pytest.raises(RulesError, match="P-1") as info:
        Game.new(Rules(("base", "five-six")), players=players)
    assert "five-six" in str(info.value) and str(players) in str(info.value)


def test_P_2_the_kit_adds_orange_and_white() -> None:
    """P-2: six players need six colours; the kit adds orange and white to the box's four."""
    assert len(COLOURS) == 6
    assert {"orange", "white"} <= set(COLOURS)


# -- P-1: five players ----------------------------------------------------------------------


def test_P_1_five_players_each_put_back_a_1_and_a_3() -> None:
    """P-1: with 5 players each has 8 people, values 1,1,2,2,3,4,5,6: a second 3 or a third 1
    cannot be placed."""
    game = laid(5)
    s = game.state
    assert all(len(s.people_of(seat)) == 8 for seat in range(5))
    assert {a[2] for a in game.legal_actions()} == {1, 2, 3, 4, 5, 6}
    tiles = iter(board.LAND)
    game.apply(("place", next(tiles), 3))  # seat 1's only 3
    for _ in range(4):
        game.apply(("place", next(tiles), 3))  # the others place their 3 too
    assert game.actor == 0
    assert 3 not in {a[2] for a in game.legal_actions()}
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", next(tiles), 3))
    assert info.value.rule == "B-5"
    while game.phase == "place":
        game.apply(game.legal_actions()[-1])  # the highest value left, each time
    for seat in range(5):
        assert values_placed(game, seat) == [1, 1, 2, 2, 3, 4, 5, 6]


def test_P_1_five_players_boats_seats_1_and_2_one_the_others_two() -> None:
    """P-1, P-3: seats 1 and 2 place one boat, seats 3 to 5 two; one at a time in turn order,
    seats with no boat left are passed over."""
    game = laid(5)
    people, boats = place_all(game)
    assert people == [0, 1, 2, 3, 4] * 8
    assert boats == [0, 1, 2, 3, 4, 2, 3, 4]
    s = game.state
    assert sum(pos != -1 for pos in s.b_pos) == 8
    assert game.phase == "move" and game.actor == 0


# -- P-2: six players -----------------------------------------------------------------------


def test_P_2_six_players_each_put_back_a_1_a_2_and_a_3() -> None:
    """P-2: with 6 players each has 7 people, values 1,1,2,3,4,5,6: a second 2 cannot be
    placed."""
    game = laid(6)
    s = game.state
    assert all(len(s.people_of(seat)) == 7 for seat in range(6))
    tiles = iter(board.LAND)
    for _ in range(6):
        game.apply(("place", next(tiles), 2))
    assert 2 not in {a[2] for a in game.legal_actions()}
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", next(tiles), 2))
    assert info.value.rule == "B-5"
    place_all(game)
    for seat in range(6):
        assert values_placed(game, seat) == [1, 1, 2, 3, 4, 5, 6]


def test_P_2_six_players_boats_seats_5_and_6_place_two() -> None:
    """P-2, P-3: seats 1 to 4 place one boat, seats 5 and 6 two; in turn order, one at a time."""
    game = laid(6)
    people, boats = place_all(game)
    assert people == [0, 1, 2, 3, 4, 5] * 7
    assert boats == [0, 1, 2, 3, 4, 5, 4, 5]
    assert sum(pos != -1 for pos in game.state.b_pos) == 8


def fill_to_last(game: Game, seat: int) -> None:
    """Place (first legal tile) until `seat` is about to place its last person."""
    s = game.state
    while not (game.actor == seat and sum(s.p_kind[p] != LAND for p in s.people_of(seat)) == 1):
        game.apply(game.legal_actions()[0])


def test_P_2_last_person_of_seats_5_and_6_joins_another_colour() -> None:
    """P-2: the island is full when seats 5 and 6 place their last person; each goes onto a
    tile that holds a person, never one of its own colour; a tile that already holds two is
    not excluded."""
    game = laid(6)
    fill_to_last(game, 4)
    s = game.state
    assert all(len(s.land_people[h]) == 1 for h in board.LAND)
    own = {s.p_at[p] for p in s.people_of(4)}
    tiles = {a[1] for a in game.legal_actions()}
    assert tiles == set(board.LAND) - own
    mine = next(iter(own))
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", mine, 6))
    assert info.value.rule == "P-2"
    seat6 = {s.p_at[p] for p in s.people_of(5)}
    joined = next(h for h in board.LAND if h not in own and h not in seat6)
    game.apply(("place", joined, 6))
    assert len(s.land_people[joined]) == 2
    assert game.actor == 5
    assert joined in {a[1] for a in game.legal_actions()}  # two people there: still allowed
    game.apply(("place", joined, 6))
    assert [p // 10 for p in s.land_people[joined]][1:] == [4, 5]
    assert game.phase == "boat"
    assert violations(game) == []


def test_P_2_the_last_person_rule_holds_even_with_empty_tiles_left() -> None:
    """P-2 (with C-1, where two share a tile and the island is not full): the last person of
    seat 5 still goes onto an occupied tile of another colour, never onto an empty tile; seats
    1 to 4 place their last anywhere C-1 allows."""
    game = laid(6, "densely-populated")
    s = game.state
    inner = [h for h in board.LAND if h not in OUTER_COAST]
    # everyone doubles up on the inner tiles first, two per tile
    while game.phase == "place" and not (
        game.actor == 4 and sum(s.p_kind[p] != LAND for p in s.people_of(4)) == 1
    ):
        free = [h for h in inner if len(s.land_people[h]) < 2]
        where = free[0] if free else next(h for h in board.LAND if not s.land_people[h])
        game.apply(("place", where, game.legal_actions()[0][2]))
    empty = [h for h in board.LAND if not s.land_people[h]]
    assert empty  # the island is not full
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", empty[0], 1))
    assert info.value.rule == "P-2"
    tiles = {a[1] for a in game.legal_actions()}
    assert tiles == {
        h for h in board.LAND if s.land_people[h] and all(p // 10 != 4 for p in s.land_people[h])
    }


# -- P-3: placing order ---------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_P_3_people_then_boats_one_at_a_time_in_turn_order(players: int) -> None:
    """P-3: people one at a time in turn order from the start player, then boats the same way;
    a seat with fewer boats simply stops placing."""
    game = laid(players, seed=4)
    people, boats = place_all(game)
    n = 8 if players == 5 else 7
    assert people == list(range(players)) * n
    first = list(range(players))
    two = [2, 3, 4] if players == 5 else [4, 5]
    assert boats == first + two
    assert Counter(boats) == {seat: 2 if seat in two else 1 for seat in range(players)}


# -- people put back in the box are not in the game -------------------------------------------


@pytest.mark.parametrize(("players", "each"), [(5, 8), (6, 7)])
def test_P_1_P_2_people_put_back_are_in_no_view_and_never_lost(players: int, each: int) -> None:
    """P-1, P-2: the people put back in the box are not in the game: no view lists them, the
    result counts none of them, and the invariants agree."""
    game = laid(players)
    for viewer in (REFEREE, None, 0):
        ids = [e["id"] for e in game.view(viewer)["people"]]
        assert len(ids) == players * each
        assert f"A{each + 1}" not in ids and f"A{each}" in ids
    assert violations(game) == []
    place_all(game)
    s = game.state
    assert violations(game) == []
    # play on to the end: every person of the game ends saved or lost, and no one else
    rng = random.Random(3)
    while not game.over:
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
    assert sorted(Counter(p // 10 for p in s.p_owner).values()) == [each] * players
    assert all(s.p_kind[p] in (SAVED, LOST) for p in s.p_owner)
    lost = [e for e in game.referee_view()["people"] if e["where"] == "lost"]
    assert len(lost) <= players * each


@pytest.mark.parametrize(("players", "each"), [(5, 8), (6, 7)])
def test_P_1_P_2_invariants_flag_a_person_put_back(players: int, each: int) -> None:
    """P-1, P-2: a state holding a person who was put back in the box breaks an invariant."""
    pos = Position(players=players)
    s = pos.s
    extra = each  # seat 1's person number each + 1
    s.p_owner[extra], s.p_value[extra], s.p_kind[extra], s.p_at[extra] = 0, 3, LOST, -1
    broken = violations(s)
    assert any("seat 1 has" in b for b in broken)


def test_P_1_a_person_put_back_cannot_be_named() -> None:
    """P-1: with 5 players, A9 is not in the game: an action naming it is refused, not crashed."""
    pos = Position(players=5)
    pos.land(0, "5.2")
    game = pos.game("move", turn=0)
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("move A9 5.3"))
    assert info.value.rule == "P-1"
    assert "A9" in str(info.value)


def test_P_1_physical_values_told_at_the_end_are_the_games_values() -> None:
    """P-1 (physical mode): the values told at the end come from 1,1,2,2,3,4,5,6: a second 3
    is refused."""
    pos = Position(players=5, mode="physical")
    pos.saved(0, "NW", None)
    pos.saved(0, "SE", None)
    pos.sea("4.6")
    game = pos.game("back", turn=0, hex=hx("4.6"), terrain="mountain")
    game.apply(parse("back volcano"))
    assert game.phase == "reveal"
    game.apply(parse("reveal A1 =3"))
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("reveal A2 =3"))
    assert info.value.rule == "B-31"
    game.apply(parse("reveal A2 =2"))
    assert game.over
