"""Flotilla F-2, research: currency, breakthroughs, guild sets and the wild die
(companion/flotilla/research.py).

Faces are entered as the table reads them: ``currency:N``, ``breakthrough``, ``wild`` or a guild
colour. Blue is the Delvers' colour (the seed's example); the other colours used here are the
data file's placeholders, which is all these tests need: a colour and its guild.
"""

from __future__ import annotations

import pytest

from companion.flotilla import BOX, research, research_options
from tests.flotilla_support import refused

RED_GUILD = BOX.guild_of("red")


def test_F_2_seed_example_three_blue_dice_pay_the_delvers_artifacts() -> None:
    """F-2 (seed: two Delver artifacts discovered, 'un conjunto de tres resultados de dados de
    investigación azules' pays both): three blue dice are a Delver set paying 2 artifacts."""
    r = research(["blue", "blue", "blue", "currency:1"], artifacts={"delvers": 2})
    assert [(s.guild, s.colour, s.dice, s.artifacts) for s in r.sets] == [("delvers", "blue", 3, 2)]
    assert r.artifacts == 2 and r.currency == 1


def test_F_2_currency_faces_are_gained() -> None:
    """F-2: a currency face gains the currency it shows."""
    r = research(["currency:2", "currency:1", "currency:2", "blue"])
    assert r.currency == 5 and r.sets == () and r.dial_raises == 0


@pytest.mark.parametrize(("breakthroughs", "raises"), [(2, 0), (3, 1), (5, 1), (6, 2)])
def test_F_2_three_breakthroughs_raise_a_guild_dial(breakthroughs: int, raises: int) -> None:
    """F-2: every three breakthrough results raise one guild dial by one; each die is used once,
    so a fourth and fifth breakthrough do nothing on their own."""
    r = research(["breakthrough"] * breakthroughs)
    assert (r.breakthroughs, r.dial_raises) == (breakthroughs, raises)


def test_F_2_three_or_more_of_one_colour_make_a_set_two_do_not() -> None:
    """F-2: three or more dice of one guild colour give that guild's reward (once); two give
    nothing."""
    assert research(["blue", "blue", "red", "red"]).sets == ()
    four = research(["red"] * 4 + ["blue"] * 3, artifacts={RED_GUILD: 1, "delvers": 3})
    assert [(s.colour, s.dice) for s in four.sets] == [("red", 4), ("blue", 3)]
    assert four.artifacts == 4


def test_F_2_the_wild_die_counts_as_the_colour_the_player_picks() -> None:
    """F-2: after the roll the player picks the colour a wild die counts as; left out, it counts
    for nothing."""
    faces = ["blue", "blue", "wild", "red"]
    assert research(faces).sets == ()
    r = research(faces, wild={"blue": [2]}, artifacts={"delvers": 2})
    assert r.colours == {"blue": 3, "red": 1} and r.artifacts == 2 and r.wild_unused == ()


def test_F_2_a_wild_die_counts_once_and_for_one_colour() -> None:
    """F-2 (seed: 'No puede contar como más de un color y no puede contarlo más de una vez'): a
    wild die counted twice, or as two colours, is refused; so is a die that is not wild."""
    faces = ["blue", "blue", "wild", "red", "red"]
    refused("F-2", "counted twice", research, faces, wild={"blue": [2, 2]})
    refused("F-2", "as blue and as red", research, faces, wild={"blue": [2], "red": [2]})
    refused("F-2", "not wild", research, faces, wild={"blue": [3]})
    refused("F-2", "no die at position 9", research, faces, wild={"blue": [9]})
    refused("F-2", "guild colour", research, faces, wild={"green": [2]})


def test_F_2_best_assignment_and_the_alternatives_with_their_yields() -> None:
    """F-2: the companion offers the assignment that pays most artifacts, and every other
    distinct yield the wild dice allow, each with the assignment that gets it."""
    faces = ["blue", "blue", "red", "red", "wild", "breakthrough"]
    opts = research_options(faces, artifacts={"delvers": 2})
    assert opts.wild_dice == (4,)
    assert opts.best.wild == {"blue": (4,)} and opts.best.artifacts == 2
    yields = [(tuple(s.colour for s in r.sets), r.artifacts) for r in opts.alternatives]
    assert yields == [(("red",), 0), ((), 0)]
    # More artifacts by the other guild's dial: the other set is best.
    assert research_options(faces, artifacts={RED_GUILD: 3, "delvers": 2}).best.wild == {
        "red": (4,)
    }
    # Each alternative is a legal choice and yields what it says.
    for option in (opts.best, *opts.alternatives):
        again = research(faces, wild=option.wild, artifacts={"delvers": 2})
        assert again == option


def test_F_2_two_wild_dice_can_make_two_sets_or_one() -> None:
    """F-2: each wild die picks its own colour; two wilds complete two sets of two."""
    faces = ["blue", "blue", "red", "red", "wild", "wild"]
    opts = research_options(faces)
    assert {c: len(d) for c, d in opts.best.wild.items()} == {"blue": 1, "red": 1}
    assert len(opts.best.sets) == 2


def test_F_2_faces_and_dice_count_are_checked() -> None:
    """F-2: the card's number of research dice is rolled (the box has 7), each showing a research
    face."""
    refused("F-2", "the card rolls 4", research, ["blue"] * 3, dice=4)
    refused("F-2", "box has 7", research_options, ["blue"] * 8)
    refused("F-2", "no research face", research, ["blue", "treasure"])
    refused("F-2", "no guild", research, ["blue"], artifacts={"pirates": 1})
