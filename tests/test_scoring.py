"""The end of the game and the score: B-30, B-31, B-32 (with the P-6 tie-break chain).

End positions are built by hand: people saved where the test says, the game at step 3 of the
seat whose turn it is, a mountain tile just removed, and the table telling its back: a volcano.
"""

from __future__ import annotations

import itertools
import random

import pytest

from companion.engine import Game, IllegalAction, Rules, parse
from companion.engine.state import LOST, SAVED
from tests.position import Position, hx

MOUNTAIN = "4.6"  # a mountain position of the test island (tests/position.py LAYOUT)


def round_of(players: int, turn: int, rounds: int) -> list[int]:
    """Turns taken by each seat while seat `turn` plays its turn of round `rounds` (1-based)."""
    return [rounds if seat < turn else rounds - 1 for seat in range(players)]


def volcano(pos: Position, turn: int = 0, rounds: int = 5) -> Game:
    """The game at `turn`'s step 3, a mountain just removed; its back is the volcano."""
    pos.sea(MOUNTAIN)
    pos.s.turns_taken = round_of(pos.s.players, turn, rounds)
    game = pos.game("back", turn=turn, hex=hx(MOUNTAIN), terrain="mountain")
    assert ("back", "volcano") in game.legal_actions()
    game.apply(parse("back volcano"))
    return game


def places(game: Game) -> dict[int, int]:
    result = game.result()
    assert result is not None
    return {entry["seat"]: entry["place"] for entry in result["ranking"]}


def reasons(game: Game, criterion: str) -> list[dict]:
    result = game.result()
    assert result is not None
    return [r for r in result["reasons"] if criterion in r["criterion"]]


# -- B-30: the volcano ends the game --------------------------------------------------------


def test_B_30_volcano_loses_everyone_not_on_a_safe_island() -> None:
    """B-30, B-37: at the volcano, people on land, swimming or in a boat are lost; the saved stay
    saved, and only they score (B-31)."""
    pos = Position()
    on_land = pos.land(0, "5.2", 6)
    swimming = pos.swimmer(0, "1.3", 5)
    aboard = pos.passenger(0, 4)
    pos.boat("1.5", [aboard])
    saved = pos.saved(0, "NW", 1)
    other = pos.land(1, "5.3", 3)
    game = volcano(pos)
    state = game.state
    assert game.over and game.phase == "over"
    for p in (on_land, swimming, aboard, other):
        assert state.p_kind[p] == LOST
    assert state.p_kind[saved] == SAVED
    view = game.view(None)
    assert [e["where"] for e in view["people"] if e["id"] in ("A1", "A2", "A3", "B1")] == [
        "lost"
    ] * 4
    assert game.legal_actions() == []
    result = game.result()
    assert result is not None
    points = {e["seat"]: e["points"] for e in result["ranking"]}
    assert points == {0: 1, 1: 0}  # the lost 6, 5, 4 and 3 count nothing


def test_B_30_B_23_volcano_ends_at_once_without_the_creature_step() -> None:
    """B-23, B-30: the volcano's tile ends the game: no die, no further action is possible."""
    pos = Position()
    pos.saved(0, "NW", 2)
    game = volcano(pos)
    assert game.phase == "over" and game.actor is None and not game.is_chance()
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("roll shark"))
    assert info.value.rule == "B-23"
    with pytest.raises(IllegalAction):
        game.draw()


def test_B_30_events_name_the_lost_and_give_the_result() -> None:
    """B-30: the events of the volcano say who was lost, then carry the result."""
    pos = Position()
    pos.land(0, "5.2", 6)
    pos.saved(1, "SE", 2)
    pos.sea(MOUNTAIN)
    game = pos.game("back", turn=1, hex=hx(MOUNTAIN), terrain="mountain")
    events = game.apply(parse("back volcano"))
    kinds = [e.kind for e in events]
    assert kinds[0] == "revealed" and kinds[-1] == "result"
    over = next(e for e in events if e.kind == "game_over")
    assert over.data["lost"] == ["A1"] and over.data["seat"] == 1
    assert events[-1].data == game.result()


# -- B-31: the score ------------------------------------------------------------------------


def test_B_31_score_is_the_sum_of_saved_values_highest_wins() -> None:
    """B-31: each score is the sum of the player's saved values; the highest wins, whatever
    the number of people saved."""
    pos = Position(players=3)
    pos.saved(0, "NW", 3)
    pos.saved(0, "SE", 4)
    pos.saved(1, "NE", 6)
    for value in (1, 1, 2, 2):
        pos.saved(2, "SW", value)
    game = volcano(pos, turn=2)
    result = game.result()
    assert result is not None
    assert [(e["seat"], e["points"], e["saved"]) for e in result["ranking"]] == [
        (0, 7, 2),
        (2, 6, 4),
        (1, 6, 1),
    ]
    assert result["winners"] == [0]
    # seats 2 and 3 tie on 6 points: seat 3 saved more people and takes second place (P-6)
    assert places(game) == {0: 1, 2: 2, 1: 3}


def test_B_31_nobody_saved_scores_zero() -> None:
    """B-31: a player with nobody on a safe island scores 0."""
    pos = Position()
    pos.saved(0, "NW", 1)
    pos.land(1, "5.2", 6)
    game = volcano(pos, turn=1)
    result = game.result()
    assert result is not None
    assert {e["seat"]: e["points"] for e in result["ranking"]} == {0: 1, 1: 0}
    assert result["winners"] == [0]
    # Only the points decided, and the explanation says so with the numbers compared.
    assert [(r["rule"], r["criterion"], r["numbers"], r["decided"]) for r in result["reasons"]] == [
        ("B-31", "points", {"0": 1, "1": 0}, True)
    ]


# -- B-32: ties -----------------------------------------------------------------------------


def test_B_32_tie_on_points_broken_by_most_people_saved() -> None:
    """B-32, P-6 (1): equal points, so the player who saved more people wins; the reason says
    so with the numbers compared, and the note says the kit's chain is used."""
    pos = Position()
    pos.saved(0, "NW", 6)
    for value in (1, 2, 3):
        pos.saved(1, "SE", value)
    game = volcano(pos, turn=1)
    result = game.result()
    assert result is not None
    assert result["winners"] == [1]
    assert places(game) == {1: 1, 0: 2}
    [why] = reasons(game, "people")
    assert why["rule"] == "P-6" and why["decided"] is True
    assert why["numbers"] == {"0": 1, "1": 3}
    assert sorted(why["seats"]) == [0, 1]
    assert "B-32" in result["note"] and "chain" in result["note"]


def test_B_32_tie_on_people_broken_by_fewer_turns() -> None:
    """B-32, P-6 (3): equal points and people; a seat after the one on whose turn the game
    ended had a turn fewer and wins the tie. The seat that ended it shares a step with seats
    before it."""
    pos = Position(players=4)
    pos.saved(0, "NW", 4)  # seat 1, before the volcano's seat: 5 turns
    pos.saved(1, "NE", 4)  # seat 2 revealed the volcano in its 5th turn
    pos.saved(3, "SE", 4)  # seat 4, after it: only 4 turns
    game = volcano(pos, turn=1, rounds=5)
    result = game.result()
    assert result is not None
    assert result["ended_on_seat"] == 1
    turns = {e["seat"]: e["turns"] for e in result["ranking"]}
    assert turns == {0: 5, 1: 5, 2: 4, 3: 4}
    assert result["winners"] == [3]
    assert places(game) == {3: 1, 0: 2, 1: 2, 2: 4}
    [people] = reasons(game, "people")
    assert people["rule"] == "P-6" and people["decided"] is False
    assert people["numbers"] == {"0": 1, "1": 1, "3": 1}
    [by_turns] = reasons(game, "turns")
    assert by_turns["rule"] == "P-6" and by_turns["decided"] is True
    assert by_turns["numbers"] == {"0": 5, "1": 5, "3": 4}
    [shared] = reasons(game, "shared")
    assert sorted(shared["seats"]) == [0, 1]


def test_B_32_nobody_saved_the_seat_after_the_volcano_wins_on_turns() -> None:
    """B-32, P-6 (3): nobody saved anybody; the game ended on seat 1's turn, so seat 2 had a
    turn fewer and wins."""
    pos = Position()
    game = volcano(pos, turn=0, rounds=7)
    result = game.result()
    assert result is not None
    assert result["winners"] == [1]
    [by_turns] = reasons(game, "turns")
    assert by_turns["numbers"] == {"0": 7, "1": 6}


def test_B_32_complete_tie_is_shared() -> None:
    """B-32, P-6 (4): equal in points, people and turns: the place is shared, and the next
    place is counted after both."""
    pos = Position(players=3)
    pos.saved(0, "NW", 5)
    pos.saved(1, "NE", 5)
    pos.saved(2, "SE", 1)
    game = volcano(pos, turn=1)  # seats 1 and 2 both had 5 turns
    result = game.result()
    assert result is not None
    assert sorted(result["winners"]) == [0, 1]
    assert places(game) == {0: 1, 1: 1, 2: 3}
    assert [r["decided"] for r in reasons(game, "people")] == [False]
    assert [r["decided"] for r in reasons(game, "turns")] == [False]
    [shared] = reasons(game, "shared")
    assert shared["rule"] == "P-6" and sorted(shared["seats"]) == [0, 1]


def test_B_32_tiebreak_shared_option_shares_ties_at_once() -> None:
    """B-32 (tiebreak=shared): equal points share the place, whatever people or turns say."""
    pos = Position(players=3, tiebreak="shared")
    pos.saved(0, "NW", 6)
    for value in (1, 2, 3):
        pos.saved(1, "SE", value)
    pos.saved(2, "NE", 2)
    game = volcano(pos, turn=0)  # seats 2 and 3 had a turn fewer: no matter
    result = game.result()
    assert result is not None
    assert sorted(result["winners"]) == [0, 1]
    assert places(game) == {0: 1, 1: 1, 2: 3}
    assert reasons(game, "people") == [] and reasons(game, "turns") == []
    [shared] = reasons(game, "shared")
    assert sorted(shared["seats"]) == [0, 1]
    assert "tiebreak=shared" in result["note"]
    assert "chain" not in result["note"]


def test_B_32_chain_is_the_default_and_applies_with_two_players() -> None:
    """B-32: the chain applies for every player count (here 2), without being asked for."""
    assert Rules().option("tiebreak") == "chain"
    pos = Position(players=2)
    pos.saved(0, "NW", 3)
    pos.saved(1, "SE", 1)
    pos.saved(1, "SE", 2)
    game = volcano(pos, turn=1)
    result = game.result()
    assert result is not None
    assert result["winners"] == [1]
    assert reasons(game, "people")[0]["rule"] == "P-6"


# -- physical mode: the values are told at the end ------------------------------------------


def physical_end() -> tuple[Game, list[int], list[int]]:
    pos = Position(players=2, mode="physical")
    mine = [pos.saved(0, "NW", None), pos.saved(0, "SE", None)]
    theirs = [pos.saved(1, "NE", None)]
    pos.land(1, "5.2", None)
    return volcano(pos, turn=1), mine, theirs


def test_B_31_physical_values_are_told_by_their_owners_then_scored() -> None:
    """B-31 (physical mode): the companion knows no value; each saved person's value is told,
    seat by seat, and only then is the result given."""
    game, mine, theirs = physical_end()
    assert game.phase == "reveal" and game.result() is None and not game.over
    assert game.actor == 0
    legal = game.legal_actions()
    assert {a[0] for a in legal} == {"reveal"} and {a[1] for a in legal} == {mine[0]}
    assert sorted(a[2] for a in legal) == [1, 2, 3, 4, 5, 6]
    events = game.apply(parse("reveal A1 =6"))
    assert [e.kind for e in events] == ["value_told"]
    game.apply(parse("reveal A2 =5"))
    assert game.phase == "reveal" and game.actor == 1
    assert {a[1] for a in game.legal_actions()} == {theirs[0]}
    events = game.apply(parse("reveal B1 =3"))
    assert game.over and events[-1].kind == "result"
    result = game.result()
    assert result is not None
    assert {e["seat"]: e["points"] for e in result["ranking"]} == {0: 11, 1: 3}
    assert result["winners"] == [0]


def test_B_31_physical_a_value_the_seat_no_longer_has_is_refused() -> None:
    """B-31: people have values 1,1,1,2,2,3,3,4,5,6; a second 6 cannot be told. The game is
    left as it was."""
    game, mine, _ = physical_end()
    game.apply(parse("reveal A1 =6"))
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("reveal A2 =6"))
    assert info.value.rule == "B-31"
    assert game.to_json() == before
    game.apply(parse("reveal A2 =1"))  # three 1s in the box: still possible
    assert game.state.p_value[mine[1]] == 1


def test_B_31_physical_only_saved_people_in_order_are_told() -> None:
    """B-31: a lost person's value is not asked for, and the values are told in order."""
    game, _, _ = physical_end()
    before = game.to_json()
    for text in ("reveal B2 =2", "reveal A2 =2", "reveal B1 =2"):
        with pytest.raises(IllegalAction) as info:
            game.apply(parse(text))
        assert info.value.rule == "B-31"
        assert game.to_json() == before


# -- whole games through the public face ----------------------------------------------------


@pytest.mark.parametrize(("players", "seed"), [(2, 11), (3, 12), (4, 13)])
def test_B_31_B_32_result_of_a_random_game_follows_the_chain(players: int, seed: int) -> None:
    """B-31, B-32: in a whole game, each score is the sum of that seat's saved values as the
    referee sees them, and places follow points, then people saved, then fewer turns."""
    game = Game.new(Rules(), players, seed)
    rng = random.Random(seed)
    while not game.over:
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
    result = game.result()
    assert result is not None
    people = game.referee_view()["people"]
    ranking = result["ranking"]
    for entry in ranking:
        saved = [e["value"] for e in people if e["seat"] == entry["seat"] and e["where"] == "saved"]
        assert entry["points"] == sum(saved) and entry["saved"] == len(saved)
    key = [(-e["points"], -e["saved"], e["turns"]) for e in ranking]
    assert key == sorted(key)
    for a, b in itertools.pairwise(ranking):
        same = (a["points"], a["saved"], a["turns"]) == (b["points"], b["saved"], b["turns"])
        assert (a["place"] == b["place"]) == same
    assert result["winners"] == [e["seat"] for e in ranking if e["place"] == 1]
