"""The position notation: every state it writes reads back as the same game, an impossible
position is refused with the rule it breaks, and a seat's position tells no more than its view.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from companion.engine import (
    REFEREE,
    Game,
    IllegalAction,
    MalformedAction,
    PositionError,
    Rules,
    RulesError,
    board,
    parse,
)
from tests.position import Position

# Every ruleset: the base game, each kit, each challenge, physical mode, the 1986 box.
RULESETS: list[tuple[tuple[str, ...], int, str]] = [
    (("base",), 2, "digital"),
    (("base",), 4, "physical"),
    (("base",), 5, "digital"),
    (("overpopulated",), 6, "digital"),
    (("dive-dice",), 3, "digital"),
    (("squid",), 4, "physical"),
    (("squid", "squid-variant-1", "dive-dice"), 4, "digital"),
    (("densely-populated",), 3, "digital"),
    (("leave-no-one-behind",), 2, "digital"),
    (("all-equal",), 3, "digital"),
    (("atlantis-is-gone",), 2, "digital"),
    (("escape-1986",), 3, "digital"),
]


def states(modules: tuple[str, ...], players: int, mode: str, seed: int) -> Iterator[Game]:
    """Every state of one random game (random legal choices, the engine's own draws)."""
    game = Game.new(Rules(modules), players=players, seed=seed, mode=mode)
    rng = random.Random(seed)
    while True:
        yield game
        if game.over:
            return
        if game.is_chance():
            game.apply(game.draw())
        else:
            game.apply(rng.choice(game.legal_actions()))


def round_trip(games: int, every: int) -> int:
    """Write, read and compare every `every`-th state (and the last) of `games` games spread
    over every ruleset; the number of states checked."""
    checked = 0
    for n in range(games):
        modules, players, mode = RULESETS[n % len(RULESETS)]
        for i, game in enumerate(states(modules, players, mode, seed=n)):
            if i % every and not game.over:
                continue
            text = game.position()
            again = Game.from_position(text)
            assert again.referee_view() == game.referee_view(), text
            assert again.position() == text
            checked += 1
    return checked


def test_every_ruleset_round_trips_through_the_notation() -> None:
    """Write -> read gives the same referee view, over 120 games of every ruleset (states
    sampled; `make check-long` checks every state of 2,000 games)."""
    assert round_trip(games=120, every=37) > 120 * 5


@pytest.mark.slow
def test_every_state_of_2000_games_round_trips_through_the_notation() -> None:
    """Write -> read gives the same referee view for every state of 2,000 games."""
    assert round_trip(games=2000, every=1) > 2000 * 100


def test_a_game_goes_on_from_a_read_position_exactly_as_the_original() -> None:
    """A position read back plays on identically: same legal actions, same draws."""
    game = Game.new(Rules(("dive-dice",)), players=3, seed=5)
    rng = random.Random(5)
    for _ in range(150):
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
    copy = Game.from_position(game.position())
    for _ in range(100):
        if game.over:
            break
        assert copy.legal_actions() == game.legal_actions()
        action = game.draw() if game.is_chance() else rng.choice(game.legal_actions())
        assert (copy.draw() if copy.is_chance() else action) == action
        game.apply(action)
        copy.apply(action)
    assert copy.referee_view() == game.referee_view()


# -- impossible positions ------------------------------------------------------------------------


def base() -> str:
    """Seat A's step 2 with people on land, a swimmer, a boat and creatures."""
    pos = Position(players=2)
    pos.sea("3.4")  # the beach tile seat A holds
    pos.land(0, "5.2", 6)
    pos.swimmer(0, "1.3", 2)
    pos.land(1, "5.3", 3)
    pos.boat("1.5", [pos.passenger(1, 1)])
    pos.creature("shark", "1.8")
    pos.hold(0, "beach", "dolphin")
    return pos.game("move").position()


def edit(line: str, old: str, new: str) -> str:
    text = base()
    lines = text.splitlines()
    i = next(k for k, x in enumerate(lines) if x.startswith(line + " "))
    assert old in lines[i], (old, lines[i])
    lines[i] = lines[i].replace(old, new, 1)
    return "\n".join(lines) + "\n"


IMPOSSIBLE: list[tuple[str, str, str]] = [
    ("41 land positions", "B-2", edit("island", "/", "M/")),
    ("17 beach tiles", "B-2", edit("backs", "sunk=beach:1", "sunk=beach:2")),
    ("9 mountains", "B-2", edit("island", "BBBFFFMB/", "BBBFFFMM/")),
    ("the island laid out of order", "B-2", edit("island", "FFMMBBFF", "F-MMBBFF")),
    ("a person on a removed tile", "B-22", edit("island", "/F", "/.")),
    ("a person on the sea", "B-12", edit("people", "A1=6@5.2", "A1=6@6.5")),
    ("a swimmer on land", "B-16", edit("people", "A2=2@~1.3", "A2=2@~3.5")),
    ("a boat with four people", "B-13", edit("boats", "b1@1.5:B2", "b1@1.5:B2,A3,A4,A5")),
    ("a boat on land", "B-13", edit("boats", "b1@1.5", "b1@3.5")),
    ("two boats in one space", "B-13", edit("boats", "b2@-", "b2@1.5")),
    ("a creature on land", "B-27", edit("creatures", "shark1@1.8", "shark1@3.5")),
    ("a green back held", "B-22", edit("hands", "beach/dolphin", "beach/shark")),
    ("four beach dolphins known", "B-22", edit("backs", "beach/dolphin:1", "beach/dolphin:4")),
    (
        "a mountain boat known",
        "B-22",
        edit("backs", "beach/dolphin:1", "beach/dolphin:1,mountain/boat:1"),
    ),
    ("a seventh value", "B-4", edit("people", "A1=6@5.2", "A1=7@5.2")),
    ("a 7-player game", "B-4", edit("game", "players=2", "players=7")),
    ("seat B moving in seat A's turn", "B-8", edit("turn", "actor=A", "actor=B")),
    ("four movement points", "B-8", edit("turn", "points=3", "points=4")),
    ("a seat rolling the die", "B-10", edit("turn", "step=move", "step=roll")),
    (
        "a game over without a result",
        "B-30",
        edit("turn", "step=move actor=A", "step=over actor=-"),
    ),
    ("a person still to place mid-game", "B-5", edit("people", "A1=6@5.2", "A1=6@-")),
    ("a dolphin not in the game", "B-3", edit("creatures", "dolphin1@-", "dolphin1@1.4")),
]


@pytest.mark.parametrize(("text", "rule"), [pytest.param(t, r, id=why) for why, r, t in IMPOSSIBLE])
def test_an_impossible_position_is_refused_with_the_rule_it_breaks(text: str, rule: str) -> None:
    """B-2, B-3, B-4, B-5, B-8, B-10, B-12, B-13, B-16, B-22, B-27, B-30: each impossible
    position is refused naming its rule (B-22: a back known more often than the deck holds
    it, which the draw of a back relies on never happening)."""
    with pytest.raises((PositionError, RulesError)) as info:
        Game.from_position(text)
    assert getattr(info.value, "rule", None) == rule, str(info.value)


def test_the_impossible_cases_are_possible_without_their_one_change() -> None:
    """The position they are made from reads (so each refusal is its one change's doing)."""
    assert Game.from_position(base()).referee_view()["phase"] == "move"


@pytest.mark.parametrize(
    "junk", ["", "chess", "survive-position 1\nrules base\n", "survive-position 1\n" + "x y\n" * 9]
)
def test_a_text_that_is_no_position_is_malformed(junk: str) -> None:
    """A text that is not a position at all is MalformedAction, not a rules refusal."""
    with pytest.raises(MalformedAction):
        Game.from_position(junk)


# -- per view ----------------------------------------------------------------------------------


def test_a_seats_position_holds_only_what_the_seat_may_see() -> None:
    """Spec §9: a seat's position shows its own held tiles, nobody's values (by default), no
    seed and no backs known to the referee alone; a spectator's shows no tile at all."""
    text = base()
    game = Game.from_position(text)
    mine, theirs, spectator = game.position(0), game.position(1), game.position(None)
    assert "A:beach/dolphin" in text and "A1=6@" in text and "seed=" in text
    assert "A:beach/dolphin" in mine and "A1=?@" in mine and "B1=?@" in mine
    assert "dolphin" not in theirs.split("hands ")[1].split("\n")[0]
    assert "A:?/?" in theirs and "A:?/?" in spectator
    for view in (mine, theirs, spectator):
        assert "seed=" not in view and "known=" not in view
        assert "=6@" not in view and "=3@" not in view


def test_B_31_at_the_end_every_value_is_in_every_position() -> None:
    """B-31: once the game is over every value is public, in every view's position."""
    pos = Position(players=2)
    pos.saved(0, "NW", 3)
    pos.sea("9.6")
    game = pos.game("back", hex=board.parse("9.6"), terrain="mountain")
    assert "A1=?@NW" in game.position(1)
    game.apply(parse("back volcano"))
    assert game.over
    assert "A1=3@NW" in game.position(1) and "A1=3@NW" in game.position(None)


def test_setup_from_a_position_plays_on() -> None:
    """A position typed for a puzzle starts a game that takes the next move."""
    game = Game.from_position(base())
    game.apply(parse("go A1 6.2"))
    assert game.state.points == 2
    with pytest.raises(IllegalAction):
        game.apply(parse("move B1 5.4"), by=1)
    assert game.position(REFEREE).count("\n") >= 10
