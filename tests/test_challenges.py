"""The challenge rules of the base game, C-1 ... C-4, and which rule modules go together.

C-1 is played through the public face (the setup); C-2 ... C-4 in positions built by hand
(tests/position.py).
"""

from __future__ import annotations

import random

import pytest

from companion.engine import Game, IllegalAction, Rules, RulesError, board, parse, violations
from companion.engine.setup import OUTER_COAST
from companion.engine.state import LOST, SAVED
from tests.position import Position, hx, kinds

CHALLENGES = ("densely-populated", "leave-no-one-behind", "all-equal", "atlantis-is-gone")
MOUNTAIN = "4.6"  # a mountain of the test island, with land all around it


def laid(players: int, modules: tuple[str, ...], seed: int = 1) -> Game:
    game = Game.new(Rules(("base", *modules)), players=players, seed=seed)
    while game.is_chance():
        game.apply(game.draw())
    return game


def refusal(game: Game, action: tuple[object, ...]) -> IllegalAction:
    before = game.to_json()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert game.to_json() == before
    return info.value


# -- which modules go together --------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_C_1_C_4_challenges_combine_freely_with_each_other_and_the_kit(players: int) -> None:
    """C-1 ... C-4 (and P-4 with 5 or 6 players): the kits let these modules be played in any
    combination; a whole random game with all of them keeps every invariant."""
    modules = CHALLENGES + (("overpopulated",) if players >= 5 else ())
    game = Game.new(Rules(("base", *modules)), players=players, seed=players)
    rng = random.Random(players)
    while not game.over:
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
        assert violations(game) == []
    result = game.result()
    assert result is not None and result["ended_by"] in ("C-2", "C-4")


def test_combinations_the_rules_forbid_are_refused_saying_why() -> None:
    """Q-7: squid variant #1 needs the squid; E-7: the 1986 ruleset takes no other module."""
    with pytest.raises(RulesError, match=r"squid-variant-1.*needs squid"):
        Rules(("base", "squid-variant-1"))
    for others in (("base",), ("all-equal",), ("five-six",)):
        with pytest.raises(RulesError, match=r"escape-1986.*alone") as info:
            Rules(("escape-1986", *others))
        assert others[0] in str(info.value)


# -- C-1: Densely Populated -----------------------------------------------------------------


def test_C_1_outer_coast_is_the_22_tiles_touching_open_sea() -> None:
    """C-1: the outer coast is the 22 land positions that touch a sea space other than the
    lagoon; the 18 others touch only land or the lagoon."""
    names = {board.name(h) for h in OUTER_COAST}
    assert names == {
        "3.4", "3.5", "3.6", "3.7", "4.3", "4.7", "5.2", "5.3", "5.8", "5.9", "6.2",
        "6.8", "7.2", "7.3", "7.8", "7.9", "8.3", "8.7", "9.4", "9.5", "9.6", "9.7",
    }  # fmt: skip
    for h in board.LAND:
        open_sea = any(n not in board.LAND and n != board.LAGOON for n in board.NEIGHBOURS[h])
        assert open_sea == (h in OUTER_COAST)


def test_C_1_two_people_of_any_colours_share_an_inner_tile_at_any_time() -> None:
    """C-1: while empty tiles remain, a second person — of another colour or of one's own —
    may join an inner tile; a third is refused, citing C-1."""
    game = laid(2, ("densely-populated",))
    inner, other = hx("4.4"), hx("5.5")
    assert inner not in OUTER_COAST and other not in OUTER_COAST
    game.apply(("place", inner, 1))  # seat 1
    game.apply(("place", inner, 1))  # seat 2 joins it: any colours
    s = game.state
    assert [p // 10 for p in s.land_people[inner]] == [0, 1]
    assert refusal(game, ("place", inner, 1)).rule == "C-1"
    game.apply(("place", other, 2))  # seat 1
    game.apply(("place", hx("5.4"), 2))  # seat 2
    game.apply(("place", other, 3))  # seat 1 again, with its own person there
    assert [p // 10 for p in s.land_people[other]] == [0, 0]


def test_C_1_the_outer_coast_takes_one_person() -> None:
    """C-1: a tile of the outer coast holds one person; a second is refused, citing C-1."""
    game = laid(2, ("densely-populated",))
    coast = hx("3.4")
    game.apply(("place", coast, 1))
    why = refusal(game, ("place", coast, 1))
    assert why.rule == "C-1" and "outer coast" in why.message
    assert coast not in {a[1] for a in game.legal_actions()}


def test_C_1_a_whole_setup_respects_the_limits() -> None:
    """C-1: a whole 4-player setup, people doubled up wherever allowed, ends with at most one
    person on each outer-coast tile and at most two elsewhere."""
    game = laid(4, ("densely-populated",), seed=5)
    s = game.state
    while game.phase == "place":
        legal = game.legal_actions()
        doubled = [a for a in legal if s.land_people[a[1]]]
        game.apply((doubled or legal)[0])
    assert game.phase == "boat"
    for h in board.LAND:
        assert len(s.land_people[h]) <= (1 if h in OUTER_COAST else 2)
    assert sum(len(s.land_people[h]) == 2 for h in board.LAND) > 0
    assert violations(game) == []


# -- C-2: Leave No One Behind -------------------------------------------------------------


def no_one_behind(players: int = 2) -> Position:
    return Position(players=players, modules=("leave-no-one-behind",))


def test_C_2_the_game_ends_at_once_when_the_last_person_is_saved() -> None:
    """C-2: in the middle of step 2, the last person reaching a safe island ends the game at
    once, on that seat's turn; one person left on the board is not enough."""
    pos = no_one_behind()
    pos.saved(1, "SE", 3)
    pos.swimmer(0, "2.0", 2)
    pos.swimmer(0, "2.0", 5)
    pos.s.turns_taken = [4, 4]
    game = pos.game("move", turn=0)
    game.apply(parse("move A1 NW"))
    assert not game.over and game.phase == "move"
    events = game.apply(parse("move A2 NW"))
    assert game.over
    over = next(e for e in events if e.kind == "game_over")
    assert over.data["rule"] == "C-2" and over.data["seat"] == 0
    assert "turn" not in kinds(events)
    result = game.result()
    assert result is not None
    assert result["ended_by"] == "C-2" and result["ended_on_seat"] == 0
    assert game.state.turns_taken == [5, 4]
    assert result["winners"] == [0]  # 2 + 5 against 3


def test_C_2_the_last_person_eaten_by_the_creature_ends_the_game_on_that_turn() -> None:
    """C-2: at step 4 a serpent eats the last swimmer: the game ends on the roller's turn,
    which counts as taken, and the turn does not pass."""
    pos = no_one_behind()
    pos.saved(0, "NW", 1)
    pos.swimmer(0, "1.2", 6)
    pos.s.turns_taken = [6, 5]
    game = pos.game("roll", turn=1)
    game.apply(parse("roll serpent"))
    events = game.apply(parse("creature serpent2 1.2"))  # the serpent of 1.1
    assert "eaten" in kinds(events) and "turn" not in kinds(events)
    assert game.over
    result = game.result()
    assert result is not None
    assert result["ended_by"] == "C-2" and result["ended_on_seat"] == 1
    assert game.state.turns_taken == [6, 6]


def test_C_2_the_volcano_is_played_as_a_whirlpool() -> None:
    """C-2: the volcano does not end the game: it removes what moves on its space and around."""
    pos = no_one_behind()
    pos.sea(MOUNTAIN, "3.6")
    swimmer = pos.swimmer(0, "3.6", 4)
    pos.land(1, "5.2", 2)
    game = pos.game("back", turn=0, hex=hx(MOUNTAIN), terrain="mountain")
    events = game.apply(parse("back volcano"))
    assert "whirlpool" in kinds(events) and "game_over" not in kinds(events)
    assert not game.over and game.phase == "roll"
    assert game.state.p_kind[swimmer] == LOST


def test_C_2_with_no_land_tile_left_step_3_is_passed_over() -> None:
    """C-2: once every land tile is gone (the volcano did not end the game), step 3 has
    nothing to remove: the turn goes on to the creature die."""
    pos = no_one_behind()
    pos.sea(*(board.name(h) for h in board.LAND))
    pos.swimmer(0, "2.4", 4)
    game = pos.game("move", turn=0)
    game.apply(parse("done"))
    assert game.phase == "roll" and game.is_chance()


def test_C_2_only_with_the_challenge() -> None:
    """C-2 is a challenge rule: without it the last person saved does not end the game."""
    pos = Position()
    pos.swimmer(0, "2.0", 2)
    game = pos.game("move", turn=0)
    game.apply(parse("move A1 NW"))
    assert not game.over


# -- C-3: All Equal! ------------------------------------------------------------------------


def test_C_3_the_score_is_the_number_of_people_saved() -> None:
    """C-3: each saved person scores 1, whatever its value: two 1s beat a 6."""
    pos = Position(players=2, modules=("all-equal",))
    pos.saved(0, "NW", 6)
    pos.saved(1, "SE", 1)
    pos.saved(1, "SE", 1)
    pos.sea(MOUNTAIN)
    game = pos.game("back", turn=0, hex=hx(MOUNTAIN), terrain="mountain")
    game.apply(parse("back volcano"))
    result = game.result()
    assert result is not None
    assert result["winners"] == [1]
    points = {e["seat"]: (e["points"], e["value"]) for e in result["ranking"]}
    assert points == {0: (1, 6), 1: (2, 2)}
    assert result["reasons"][0]["rule"] == "C-3"
    assert "C-3" in result["note"]


# -- C-4: Atlantis is Gone ------------------------------------------------------------------


def gone(players: int = 2) -> Position:
    return Position(players=players, modules=("atlantis-is-gone",))


def test_C_4_the_game_ends_at_once_when_the_last_land_tile_is_removed() -> None:
    """C-4: the last land tile removed ends the game before its back is looked at; the people
    on it are lost."""
    pos = gone()
    pos.sea(*(board.name(h) for h in board.LAND if board.name(h) != MOUNTAIN))
    on_it = pos.land(0, MOUNTAIN, 6)
    pos.saved(1, "SE", 1)
    pos.s.turns_taken = [3, 2]
    game = pos.game("sink", turn=1)
    events = game.apply(parse(f"sink {MOUNTAIN}"))
    assert game.over and "revealed" not in kinds(events)
    over = next(e for e in events if e.kind == "game_over")
    assert over.data["rule"] == "C-4" and over.data["lost"] == ["A1"]
    assert game.state.p_kind[on_it] == LOST
    result = game.result()
    assert result is not None
    assert result["ended_by"] == "C-4" and result["ended_on_seat"] == 1
    assert result["winners"] == [1]


def test_C_4_the_volcano_is_played_as_a_whirlpool() -> None:
    """C-4: the volcano does not end the game while land tiles remain."""
    pos = gone()
    pos.sea(MOUNTAIN)
    pos.land(0, "5.2", 2)
    game = pos.game("back", turn=0, hex=hx(MOUNTAIN), terrain="mountain")
    events = game.apply(parse("back volcano"))
    assert "whirlpool" in kinds(events) and not game.over


def test_C_4_the_game_goes_on_with_nobody_left_on_the_board() -> None:
    """C-4 (without C-2): everyone saved or lost does not end the game; the tiles still sink."""
    pos = gone()
    pos.saved(0, "NW", 2)
    game = pos.game("move", turn=0)
    game.apply(parse("done"))
    assert game.phase == "sink" and not game.over
    assert game.state.p_kind[0] == SAVED
