"""Flotilla F-5 final scoring and F-6 the winner, with every tie-break and its reasons
(companion/flotilla/scoring.py, seals.py)."""

from __future__ import annotations

from typing import Any

from companion.flotilla import BOX, GuildAward, Reason, Tally, final_score, guild_award
from tests.flotilla_support import refused


def tally(seat: int, **kw: Any) -> Tally:
    """A captain with nothing but what the test says; the penalty is entered as 0 VP."""
    base: dict[str, Any] = dict(vp=0, currency=0, resources=0, toxicity=0, crew=6, penalty_vp=0)
    base.update(kw)
    return Tally(seat=seat, **base)


def award(
    seals: dict[int, int], toxicity: dict[int, int] | None = None, second_ties: str = "toxicity"
) -> GuildAward:
    """The Delvers' award; toxicity 0 for all unless the test says."""
    return guild_award("delvers", seals, toxicity or dict.fromkeys(seals, 0), second_ties)


def criteria(reasons: tuple[Reason, ...]) -> list[str]:
    return [r.criterion for r in reasons]


# -- F-5: the final score -----------------------------------------------------------------


def test_F_5_currency_resources_and_the_toxicity_penalty() -> None:
    """F-5: +1 VP per 5 currency left, +1 VP per 2 resources left, and the VP gained or lost by
    the toxicity penalty marker."""
    result = final_score(
        [
            tally(0, vp=30, currency=14, resources=5, penalty_vp=-4),
            tally(1, vp=30, currency=4, resources=1, penalty_vp=2),
            tally(2, vp=10),
        ]
    )
    first, second, _ = result.scores
    assert (first.currency, first.resources, first.toxicity, first.total) == (2, 2, -4, 30)
    assert (second.currency, second.resources, second.toxicity, second.total) == (0, 0, 2, 32)
    assert first.toxicity_verified and result.unverified == ()


def test_F_5_penalty_from_the_data_file_is_flagged_unverified() -> None:
    """F-5: the penalty may be looked up by the marker's space in the data file, whose values are
    placeholders: the result says so."""
    space = 5
    result = final_score([tally(0, penalty_vp=None, penalty_space=space), tally(1), tally(2)])
    assert result.scores[0].toxicity == BOX.toxicity_penalty[space]
    assert not result.scores[0].toxicity_verified and result.unverified
    refused("F-5", "one", final_score, [tally(0, penalty_space=1), tally(1), tally(2)])
    refused(
        "F-5",
        "spaces 0..",
        final_score,
        [tally(0, penalty_vp=None, penalty_space=99), tally(1), tally(2)],
    )


def test_F_5_most_seals_10_vp_second_most_5_vp() -> None:
    """F-5 (seed: 'el jugador con más sellos en un gremio ganará 10 y el segundo más ganará 5')."""
    a = award({0: 4, 1: 2, 2: 1})
    assert (a.most, a.second, a.friendly) == ((0,), (1,), False)
    assert [a.vp(s) for s in range(3)] == [10, 5, 0]
    result = final_score([tally(0, seals={"delvers": 4}), tally(1, seals={"delvers": 2}), tally(2)])
    assert [s.guilds for s in result.scores] == [{"delvers": 10}, {"delvers": 5}, {}]


def test_F_5_no_seals_no_score() -> None:
    """F-5 (seed: 'No puedes puntuar para un gremio si no tienes sellos en ese gremio'): a lone
    seal holder takes 10 and nobody is second with none."""
    a = award({0: 1, 1: 0, 2: 0})
    assert (a.most, a.second) == ((0,), ())
    assert "no seals" in criteria(a.reasons)
    nobody = award({0: 0, 1: 0, 2: 0})
    assert (nobody.most, nobody.second) == ((), ())


def test_F_5_tie_for_most_broken_by_lower_toxicity() -> None:
    """F-5: a tie for most seals is broken by lower toxicity; the other tied captain is second."""
    a = award({0: 4, 1: 4, 2: 2}, {0: 5, 1: 2, 2: 0})
    assert (a.most, a.second, a.friendly) == ((1,), (0,), False)
    tox = next(r for r in a.reasons if r.criterion == "lower toxicity")
    assert tox.rule == "F-5" and tox.numbers == {"0": 5, "1": 2} and tox.decided


def test_F_5_friendly_tie_for_most_gives_everyone_10_and_no_second_place() -> None:
    """F-5: a tie for most seals that toxicity does not break is friendly: all tied get 10 VP
    and no second place is given."""
    a = award({0: 4, 1: 4, 2: 3}, {0: 2, 1: 2, 2: 0})
    assert (a.most, a.second, a.friendly) == ((0, 1), (), True)
    assert criteria(a.reasons) == ["seals", "lower toxicity", "friendly tie"]
    assert "no second place" in a.reasons[-1].text


def test_F_5_tie_for_second() -> None:
    """F-5: a tie for second most is broken by lower toxicity as a tie for most is (the seed
    states it for most; `second_ties="friendly"` reads it as friendly at once); a tie that
    remains is friendly and all tied get 5."""
    seals, tox = {0: 5, 1: 3, 2: 3}, {0: 9, 1: 1, 2: 4}
    assert award(seals, tox).second == (1,)
    assert award(seals, tox, second_ties="friendly").second == (1, 2)
    even = award(seals, {0: 9, 1: 2, 2: 2})
    assert even.second == (1, 2) and even.reasons[-1].criterion == "friendly tie"
    refused("F-5", "second_ties", award, seals, tox, second_ties="coin")


def test_F_5_seals_in_unknown_guilds_and_negative_numbers_are_refused() -> None:
    """F-5: seals belong to one of the four guilds; counts are never negative."""
    refused("F-5", "no guild", final_score, [tally(0, seals={"pirates": 1}), tally(1), tally(2)])
    refused("F-5", "currency -1", final_score, [tally(0, currency=-1), tally(1), tally(2)])
    refused("F-5", "scored twice", final_score, [tally(0), tally(0), tally(2)])
    refused("F-5", "3-5 players", final_score, [tally(0), tally(1)])


# -- F-6: the winner ----------------------------------------------------------------------


def test_F_6_most_vp_wins() -> None:
    """F-6: the captain with the most VP wins."""
    result = final_score([tally(0, vp=40), tally(1, vp=52), tally(2, vp=47)])
    assert result.winners == (1,)
    assert [(p.seat, p.place) for p in result.ranking] == [(1, 1), (2, 2), (0, 3)]
    assert result.reasons[0].rule == "F-6" and result.reasons[0].numbers == {
        "0": 40,
        "1": 52,
        "2": 47,
    }


def test_F_6_tie_goes_to_lower_toxicity() -> None:
    """F-6: a tie for most VP goes to the lower toxicity."""
    result = final_score([tally(0, vp=50, toxicity=4), tally(1, vp=50, toxicity=2), tally(2)])
    assert result.winners == (1,)
    assert criteria(result.reasons) == ["most VP", "lower toxicity"]
    assert result.reasons[1].numbers == {"0": 4, "1": 2} and result.reasons[1].decided


def test_F_6_then_more_crew_cards() -> None:
    """F-6: still tied, more crew cards wins."""
    result = final_score([tally(0, vp=50, crew=8), tally(1, vp=50, crew=9), tally(2)])
    assert result.winners == (1,)
    assert criteria(result.reasons) == ["most VP", "lower toxicity", "more crew cards"]


def test_F_6_then_more_currency_left() -> None:
    """F-6: still tied, more currency left wins (9 and 5 currency both score 1 VP)."""
    result = final_score([tally(0, vp=50, currency=5), tally(1, vp=50, currency=9), tally(2)])
    assert result.winners == (1,)
    assert result.reasons[-1].criterion == "more currency left"
    assert result.reasons[-1].numbers == {"0": 5, "1": 9}


def test_F_6_still_tied_the_victory_is_shared() -> None:
    """F-6: tied on everything, the tied captains share the victory (and the place after them is
    third)."""
    result = final_score([tally(0, vp=50), tally(1, vp=50), tally(2, vp=10)])
    assert result.winners == (0, 1)
    assert [p.place for p in result.ranking] == [1, 1, 3]
    assert result.reasons[-1].criterion == "shared" and result.reasons[-1].seats == (0, 1)
    assert not any(
        r.decided for r in result.reasons if r.criterion != "most VP" and r.criterion != "shared"
    )


def test_F_5_F_6_guild_awards_count_in_the_total_that_decides() -> None:
    """F-5, F-6: guild seal VP enter the totals the winner is decided by."""
    result = final_score(
        [
            tally(0, vp=45, seals={"delvers": 2, "founders": 1}),
            tally(1, vp=55, seals={"delvers": 1}),
            tally(2, vp=50, seals={"founders": 1}, toxicity=3),
        ]
    )
    totals = {s.seat: s.total for s in result.scores}
    # delvers: seat 1 most (10), seat 2 second (5); founders: seats 1 and 3 tie on seals, seat 1
    # has lower toxicity (10), seat 3 second (5).
    assert totals == {0: 65, 1: 60, 2: 55}
    assert result.winners == (0,)
