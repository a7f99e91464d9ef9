"""Overpopulated! (challenge #5): a crowded island, and the immediate point when a tile sinks
(P-4, P-5).

The placement is played through the public face; the immediate point in positions built by
hand (tests/position.py): people on a beach tile of the test island, the tile removed at step 3
and its back told by the table.
"""

from __future__ import annotations

import pytest

from companion.engine import (
    Game,
    IllegalAction,
    Rules,
    RulesError,
    board,
    notation,
    parse,
    violations,
)
from companion.engine.state import LAND, LOST, SEA, person_name
from tests.position import Position, hx, kinds

VALUES = [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]
BEACH = "3.4"  # a beach on the test island's north coast: sea at 2.3, 2.4 and 3.3


def laid(players: int, seed: int = 1) -> Game:
    game = Game.new(Rules(("base", "overpopulated")), players=players, seed=seed)
    while game.is_chance():
        game.apply(game.draw())
    return game


def value(game: Game) -> int:
    """A value the seat placing still has."""
    v: int = game.legal_actions()[0][2]
    return v


def offered(game: Game) -> set[str]:
    return {notation(a) for a in game.legal_actions()}


# -- P-4: the crowd -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_P_4_needs_five_or_six_players(players: int) -> None:
    """P-4: Overpopulated! requires 5 or 6 players; with fewer it is refused, saying why."""
    with pytest.raises(RulesError, match="P-4") as info:
        Game.new(Rules(("base", "overpopulated")), players=players)
    assert "players" in str(info.value)


@pytest.mark.parametrize("players", [5, 6])
def test_P_4_everyone_keeps_ten_people_and_two_boats(players: int) -> None:
    """P-4: nobody puts people back (10 each, values 1,1,1,2,2,3,3,4,5,6) and each places two
    boats, in turn order."""
    game = laid(players)
    s = game.state
    assert "five-six" in s.rules.modules
    people, boats = [], []
    while game.phase in ("place", "boat"):
        (people if game.phase == "place" else boats).append(game.actor)
        game.apply(game.legal_actions()[-1])
    assert people == list(range(players)) * 10
    assert boats == list(range(players)) * 2
    for seat in range(players):
        assert sorted(s.p_value[p] for p in s.people_of(seat)) == VALUES  # type: ignore[type-var]
    assert sum(pos != -1 for pos in s.b_pos) == 2 * players
    assert violations(game) == []


def test_P_4_a_second_person_only_once_the_island_is_full() -> None:
    """P-4: while a tile is empty, an occupied tile is refused; once every tile holds a person,
    a second may join one — never a tile with two, never one with a person of one's colour."""
    game = laid(6)
    s = game.state
    game.apply(("place", board.LAND[0], 1))
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", board.LAND[0], 1))  # seat 2: tiles are still empty
    assert info.value.rule == "P-4"
    while any(not s.land_people[h] for h in board.LAND):
        game.apply(game.legal_actions()[0])
    seat = game.actor
    assert seat is not None
    own = {s.p_at[p] for p in s.people_of(seat) if s.p_kind[p] == LAND}
    assert {a[1] for a in game.legal_actions()} == set(board.LAND) - own
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", next(iter(own)), value(game)))
    assert info.value.rule == "P-4" and "colour" in info.value.message
    target = next(h for h in board.LAND if h not in own)
    game.apply(("place", target, value(game)))
    assert len(s.land_people[target]) == 2
    with pytest.raises(IllegalAction) as info:
        game.apply(("place", target, value(game)))  # the next seat: that tile holds two
    assert info.value.rule == "P-4" and "two" in info.value.message
    while game.phase == "place":
        game.apply(game.legal_actions()[0])
    # all 60 placed: at most two a tile, never two of one colour
    assert game.phase == "boat"
    assert sum(len(s.land_people[h]) for h in board.LAND) == 60
    for h in board.LAND:
        here = [p // 10 for p in s.land_people[h]]
        assert 1 <= len(here) <= 2 and len(set(here)) == len(here)


# -- P-5: the immediate point ---------------------------------------------------------------


def crowded(*owners: int, turn: int = 2) -> tuple[Position, dict[int, int]]:
    """Six players, Overpopulated!; each owner has a person on BEACH; seat `turn` is at step 3."""
    pos = Position(players=6, modules=("overpopulated",))
    people = {seat: pos.land(seat, BEACH, 2) for seat in owners}
    return pos, people


def sink(pos: Position, back: str, turn: int = 2, terrain: str = "beach") -> tuple[Game, list[str]]:
    """Seat `turn` removes BEACH (of `terrain`: the beaches are gone if it is not one)."""
    if terrain != "beach":
        pos.sea(*(board.name(h) for h in board.LAND if pos.s.terrain[h] == "beach"))
        pos.terrain(BEACH, terrain)
    game = pos.game("sink", turn=turn)
    events = game.apply(parse(f"sink {BEACH}"))
    assert game.phase == "back"
    events += game.apply(parse(f"back {back}"))
    return game, kinds(events)


def test_P_5_each_owner_in_turn_order_from_the_sinker_gets_one_point() -> None:
    """P-5: the people of the sunk tile belong to seats 2, 3 (the sinker) and 5: after the back
    resolved (a whale came), seat 3 decides first, then 5, then 2 — each one point for its own
    person of that tile — and only then is the creature die rolled."""
    pos, people = crowded(1, 2, 4)
    game, events = sink(pos, "whale")
    assert events.index("creature_placed") < events.index("immediate_point")
    order = []
    while game.phase == "rush":
        order.append(game.actor)
        seat = game.actor
        assert seat is not None
        me = people[seat]
        assert {a[1] for a in game.legal_actions() if a[0] != "done"} == {me}
        name = person_name(me)
        assert offered(game) == {f"move {name} {h}" for h in ("2.3", "2.4", "3.3")} | {"done"}
        game.apply(parse(f"move {name} 2.3"))
    assert order == [2, 4, 1]
    assert game.phase == "roll" and game.is_chance()
    s = game.state
    assert all(s.p_at[p] == hx("2.3") and s.p_kind[p] == SEA for p in people.values())
    assert violations(game) == []


def test_P_5_the_point_is_only_for_the_people_of_the_sunk_tile() -> None:
    """P-5: an owner's other people may not use the point; the refusal cites P-5."""
    pos, _ = crowded(4)
    other = pos.swimmer(4, "1.5", 3)
    game, _ = sink(pos, "whale")
    assert game.phase == "rush" and game.actor == 4
    assert all(a[1] != other for a in game.legal_actions() if a[0] != "done")
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("move E2 1.6"))
    assert info.value.rule == "P-5"
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("move E1 3.5"))  # its own person, but onto land: a movement rule
    assert info.value.rule == "B-12"


def test_P_5_may_be_declined_and_is_never_saved() -> None:
    """P-5: `done` declines the point; the next seat's step 2 still has 3 points, no more."""
    pos, _ = crowded(3)
    pos.land(3, "5.2", 1)  # seat 4 has another person, to move in its own turn
    game, _ = sink(pos, "whale")
    assert game.phase == "rush" and game.actor == 3
    game.apply(parse("done"))
    assert game.phase == "roll"
    game.apply(parse("roll serpent"))
    while game.phase == "creature":
        game.apply(parse("done"))
    assert game.state.turn == 3
    while game.phase == "tile":
        game.apply(parse("done"))
    assert game.phase == "move" and game.state.points == 3


def test_P_5_eaten_by_the_tile_s_shark_the_point_is_lost() -> None:
    """P-5: a shark back eats the swimmers first: nobody gets a point; the die comes next."""
    pos, people = crowded(1, 4)
    game, events = sink(pos, "shark")
    assert "eaten" in events and "immediate_point" not in events
    assert game.phase == "roll" and game.is_chance()
    assert all(game.state.p_kind[p] == LOST for p in people.values())


def test_P_5_swept_by_a_whirlpool_the_point_is_lost() -> None:
    """P-5: a whirlpool back removes the swimmers: the point is lost."""
    pos, _ = crowded(1)
    game, events = sink(pos, "whirlpool", terrain="forest")
    assert "whirlpool" in events and "immediate_point" not in events
    assert game.phase == "roll"


def test_P_5_a_boat_back_takes_them_aboard_and_the_point_moves_them_from_it() -> None:
    """P-5: a boat back picks the swimmers up; the point may then move one of them out of the
    boat (over the side, or into a boat next to it)."""
    pos, _ = crowded(2)
    game, events = sink(pos, "boat")
    assert "boat_arrived" in events and game.phase == "rush" and game.actor == 2
    assert f"move C1 {BEACH}" in offered(game)  # over the side, into the boat's own space


def test_P_5_only_with_overpopulated() -> None:
    """P-5 is challenge #5's: in a plain 6-player game, people of a sunk tile get no point."""
    pos = Position(players=6)
    pos.land(1, BEACH, 2)
    game = pos.game("sink", turn=2)
    game.apply(parse(f"sink {BEACH}"))
    game.apply(parse("back whale"))
    assert game.phase == "roll"
