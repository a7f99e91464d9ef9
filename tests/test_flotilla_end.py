"""Flotilla F-4, the end of the game: the VP supply and reserve, the trigger, the rest of the
round and one final turn each (companion/flotilla/supply.py, ending.py)."""

from __future__ import annotations

import pytest

from companion.flotilla import BOX, end_triggered, new_supply, take_vp, turn_taken
from companion.flotilla.supply import Supply
from tests.flotilla_support import refused


def test_F_4_supply_counts_100_per_player_by_default_unverified() -> None:
    """F-4 (seed: 'Cuente 100 por jugador para establecer el suministro', the unit's icon lost):
    the supply is 100 per player by default, marked unverified; a table may set its own."""
    s = new_supply(4)
    assert (s.supply, s.per_player, s.verified, s.from_reserve) == (400, 100, False, 0)
    assert not BOX.is_verified("vp_supply_per_player")
    own = new_supply(3, per_player=60)
    assert (own.supply, own.verified) == (180, True)
    refused("F-4", "3-5 players", new_supply, 2)


def test_F_4_emptying_the_supply_triggers_the_end_then_the_reserve_pays() -> None:
    """F-4: when the supply runs out the end is triggered; points owed after it is empty come
    from the reserve."""
    s = Supply(supply=5)
    first = take_vp(s, 3)
    assert (first.from_supply, first.from_reserve, first.triggered) == (3, 0, False)
    second = take_vp(first.supply, 4)
    assert (second.from_supply, second.from_reserve, second.triggered) == (2, 2, True)
    assert second.supply.empty
    third = take_vp(second.supply, 2)
    assert (third.from_supply, third.from_reserve, third.triggered) == (0, 2, False)
    assert third.supply.from_reserve == 4
    refused("F-4", "not given back", take_vp, s, -1)


def test_F_4_finish_the_round_then_one_final_turn_each() -> None:
    """F-4: the supply runs out on seat 2's turn (first player seat 1): seats 3 and 4 finish the
    round, then everyone plays one final turn, from the first player."""
    e = end_triggered(players=4, first=0, seat=1)
    assert e.rest_of_round == (2, 3) and e.final_turns == (0, 1, 2, 3)
    assert e.turns_left == (2, 3, 0, 1, 2, 3) and e.still_to_play == (2, 3, 0, 1)
    for seat in e.turns_left:
        assert not e.over
        e = turn_taken(e, seat)
    assert e.over and e.next_seat is None and e.still_to_play == ()
    refused("F-4", "game is over", turn_taken, e, 0)


def test_F_4_trigger_on_the_rounds_last_seat_leaves_only_the_final_turns() -> None:
    """F-4: rounds begin with the first player; when the last seat of a round triggers the end,
    only the round of final turns remains."""
    e = end_triggered(players=4, first=2, seat=1)
    assert e.rest_of_round == () and e.turns_left == (2, 3, 0, 1)
    refused("F-4", "the next turn is seat 2's", turn_taken, e, 0)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_F_4_everyone_has_had_the_same_number_of_turns_at_the_end(players: int) -> None:
    """F-4: whoever triggers the end, when the last final turn is played every seat has had the
    same number of turns, one more than in the round under way."""
    for first in range(players):
        for seat in range(players):
            played = dict.fromkeys(range(players), 5)
            order = [(first + i) % players for i in range(players)]
            for s in order[: order.index(seat) + 1]:
                played[s] += 1  # this round's turns, the trigger's included
            e = end_triggered(players, first, seat)
            for s in e.turns_left:
                played[s] += 1
                e = turn_taken(e, s)
            assert set(played.values()) == {7}, (first, seat)


def test_F_4_seats_are_checked() -> None:
    """F-4: the trigger names a seat of the game."""
    refused("F-4", "seat 5 is not a seat", end_triggered, 4, 0, 5)
    refused("F-4", "first player", end_triggered, 4, -1, 0)
