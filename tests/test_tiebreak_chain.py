"""The 5-6 player kit's tie-break chain, with All Equal!'s step (P-6, C-3).

(1) most people saved; (2) with C-3, the highest total value; (3) fewer turns — the players
seated after the one on whose turn the game ended had a turn fewer; (4) a shared victory.

End positions are built by hand (tests/position.py). The engine's seat 1 is always the start
player; a table whose first player is not the first name on its list is modelled by handing
the game its players in rotated order, and the winners are checked by name.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Game, board, parse
from companion.engine.state import person_name
from tests.position import Position, hx

MOUNTAIN = "4.6"  # a mountain of the test island (tests/position.py LAYOUT)
TABLE = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]  # clockwise round the table


def round_of(players: int, turn: int, rounds: int) -> list[int]:
    """Turns taken by each seat while seat `turn` plays its turn of round `rounds`."""
    return [rounds if seat < turn else rounds - 1 for seat in range(players)]


def end(pos: Position, ender: int, how: str = "volcano", rounds: int = 5) -> Game:
    """The game ends on seat `ender`'s turn: the volcano (B-30), the last person gone (C-2: the
    ender's swimmer swims into a shark), or the last land tile removed (C-4)."""
    pos.s.turns_taken = round_of(pos.s.players, ender, rounds)
    if how == "volcano":
        pos.sea(MOUNTAIN)
        game = pos.game("back", turn=ender, hex=hx(MOUNTAIN), terrain="mountain")
        game.apply(parse("back volcano"))
    elif how == "C-2":
        last = pos.swimmer(ender, "1.3", 1)
        pos.creature("shark", "1.4")
        game = pos.game("move", turn=ender)
        game.apply(parse(f"move {person_name(last)} 1.4"))  # eaten: nobody is left
    else:
        pos.sea(*(board.name(h) for h in board.LAND if board.name(h) != MOUNTAIN))
        game = pos.game("sink", turn=ender)
        game.apply(parse(f"sink {MOUNTAIN}"))
    assert game.over
    return game


def result(game: Game) -> dict[str, Any]:
    out = game.result()
    assert out is not None
    return out


def places(game: Game) -> dict[int, int]:
    return {e["seat"]: e["place"] for e in result(game)["ranking"]}


def steps(game: Game) -> list[tuple[str, str, list[int], dict[str, int], bool]]:
    """Each reason as (rule, criterion, seats, numbers, decided); shared places last."""
    return [
        (
            r["rule"],
            r["criterion"],
            sorted(r["seats"]),
            r.get("numbers", {}),
            r.get("decided", True),
        )
        for r in result(game)["reasons"]
    ]


MODULES = {"volcano": (), "C-2": ("leave-no-one-behind",), "C-4": ("atlantis-is-gone",)}


# -- (3) fewer turns, by name, round a table whose first player is not seat 1 -------------------


CASES = [
    (players, start, ender, how)
    for players, start in ((5, 2), (6, 4))
    for ender in range(players)
    for how in ("volcano", "C-2", "C-4")
]


@pytest.mark.parametrize(("players", "start", "ender", "how"), CASES)
def test_P_6_step_3_fewer_turns_follows_turn_order_from_the_start_player(
    players: int, start: int, ender: int, how: str
) -> None:
    """P-6 (3): all tied on points and people; the game ends on each seat's turn in turn (by the
    volcano, or by C-2 or C-4). The players after the ender in turn order — counted from the
    start player, who is not the first name at the table — had a turn fewer and share the win;
    when the ender is the last to play, everyone had as many turns and the victory is shared
    (P-6 (4))."""
    table = TABLE[:players]
    names = table[start:] + table[:start]  # the game's seat 1 is the table's start player
    pos = Position(players=players, modules=MODULES[how])
    for seat in range(players):
        pos.saved(seat, board.SAFE_NAMES[seat % 4], 4)
    game = end(pos, ender, how)
    out = result(game)
    assert out["ended_on_seat"] == ender
    assert out.get("ended_by", "B-30") == ("B-30" if how == "volcano" else how)

    # Who had a turn fewer, worked out from the table: those who play after the ender.
    def order(name: str) -> int:
        return (table.index(name) - start) % players

    ended_by = names[ender]
    fewer = {name for name in table if order(name) > order(ended_by)}
    winners = {names[seat] for seat in out["winners"]}
    assert winners == (fewer or set(table))
    turns = {names[e["seat"]]: e["turns"] for e in out["ranking"]}
    assert {name for name in table if turns[name] == 4} == fewer
    by_turns = [s for s in steps(game) if s[1] == "turns taken"]
    assert len(by_turns) == 1 and by_turns[0][0] == "P-6"
    assert by_turns[0][4] == bool(fewer)  # decided, unless everyone had as many turns
    shared = [{names[seat] for seat in s[2]} for s in steps(game) if s[1] == "shared"]
    if len(fewer or table) > 1:
        assert (fewer or set(table)) in shared
    else:
        assert all(not group & fewer for group in shared)


# -- (1) most people saved ------------------------------------------------------------------


def test_P_6_step_1_most_people_saved_breaks_a_tie_on_points() -> None:
    """P-6 (1): with 5 players, two seats score 6 — one person of 6 against a 2 and a 4: the
    one who saved more people wins, whatever the turns say."""
    pos = Position(players=5)
    pos.saved(4, "NW", 6)  # seat 5 had a turn fewer: it does not matter
    pos.saved(1, "SE", 2)
    pos.saved(1, "SE", 4)
    game = end(pos, ender=2)
    assert result(game)["winners"] == [1]
    assert places(game)[4] == 2
    assert steps(game)[1] == ("P-6", "people saved", [1, 4], {"1": 2, "4": 1}, True)
    assert "P-6" in result(game)["note"]


# -- (2) total value, with All Equal! --------------------------------------------------------


def test_P_6_step_2_highest_total_value_when_all_equal_is_played() -> None:
    """P-6 (2), C-3: under All Equal! two seats saved two people each; the higher total value
    (5 + 6 against 1 + 1) wins before turns are looked at."""
    pos = Position(players=6, modules=("all-equal",))
    pos.saved(0, "NW", 1)
    pos.saved(0, "NW", 1)
    pos.saved(5, "SE", 5)  # seat 6 had a turn fewer: it does not matter
    pos.saved(5, "SE", 6)
    game = end(pos, ender=2)
    assert result(game)["winners"] == [5]
    assert steps(game)[0][:2] == ("C-3", "points")
    assert [s for s in steps(game) if s[2] == [0, 5]] == [
        ("P-6", "people saved", [0, 5], {"0": 2, "5": 2}, False),
        ("P-6", "total value", [0, 5], {"0": 2, "5": 11}, True),
    ]


def test_P_6_step_2_is_not_in_the_chain_without_all_equal() -> None:
    """P-6 (2) applies only with C-3: without it, a tie on points and people goes to turns."""
    pos = Position(players=5)
    pos.saved(0, "NW", 1)
    pos.saved(0, "NW", 5)
    pos.saved(3, "SE", 2)
    pos.saved(3, "SE", 4)
    game = end(pos, ender=1)
    criteria = [s[1] for s in steps(game) if 0 in s[2]]
    assert "total value" not in criteria
    assert result(game)["winners"] == [3]  # seated after the ender: a turn fewer


def test_P_6_every_step_of_the_chain_decides_a_place() -> None:
    """P-6, C-3: six players, All Equal!; the score (people saved) places the first and the
    last, total value splits two seats, fewer turns two more — each step recorded with its rule
    and the numbers compared."""
    pos = Position(players=6, modules=("all-equal",))
    for value in (1, 1, 2):
        pos.saved(0, "NW", value)  # 3 saved
    pos.saved(1, "NE", 5)
    pos.saved(1, "NE", 6)  # 2 saved, value 11
    pos.saved(2, "SW", 3)
    pos.saved(2, "SW", 4)  # 2 saved, value 7
    pos.saved(3, "SE", 4)  # 1 saved, value 4: the game ends on its turn
    pos.saved(4, "SE", 4)  # 1 saved, value 4, a turn fewer
    game = end(pos, ender=3)
    assert places(game) == {0: 1, 1: 2, 2: 3, 4: 4, 3: 5, 5: 6}
    assert steps(game) == [
        ("C-3", "points", [0, 1, 2, 3, 4, 5],
         {"0": 3, "1": 2, "2": 2, "3": 1, "4": 1, "5": 0}, True),
        ("P-6", "people saved", [1, 2], {"1": 2, "2": 2}, False),
        ("P-6", "people saved", [3, 4], {"3": 1, "4": 1}, False),
        ("P-6", "total value", [1, 2], {"1": 11, "2": 7}, True),
        ("P-6", "total value", [3, 4], {"3": 4, "4": 4}, False),
        ("P-6", "turns taken", [3, 4], {"3": 5, "4": 4}, True),
    ]  # fmt: skip
    ranking = result(game)["ranking"]
    assert {e["seat"]: e["value"] for e in ranking} == {0: 4, 1: 11, 2: 7, 3: 4, 4: 4, 5: 0}


# -- (4) shared -----------------------------------------------------------------------------


def test_P_6_step_4_a_complete_tie_is_a_shared_victory() -> None:
    """P-6 (4): five players; two seats before the ender tie on points, people and turns: they
    rejoice in a shared victory, and the next place is counted after both."""
    pos = Position(players=5)
    pos.saved(0, "NW", 5)
    pos.saved(1, "NE", 5)
    pos.saved(4, "SE", 1)
    game = end(pos, ender=3)
    assert sorted(result(game)["winners"]) == [0, 1]
    assert places(game) == {0: 1, 1: 1, 4: 3, 2: 4, 3: 4}
    shared = [s for s in steps(game) if s[1] == "shared"]
    assert [(s[0], s[2]) for s in shared] == [("P-6", [0, 1]), ("P-6", [2, 3])]
