"""Properties of the Flotilla helpers, with hypothesis choosing the rolls, choices and tallies
(bounded and derandomised, so the file runs in a few seconds and cannot flake)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.flotilla import (
    BOX,
    RuleBroken,
    Skiff,
    Tally,
    dive,
    dive_dice,
    final_score,
    research,
    research_options,
)
from companion.flotilla.box import DIVE_ICONS

BOUNDED = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)

research_faces = st.sampled_from(["wild", "breakthrough", "currency:1", "currency:3", *BOX.colours])
rolls = st.lists(research_faces, max_size=BOX.research_dice)


@st.composite
def wild_choices(draw: st.DrawFn) -> tuple[list[str], dict[str, list[int]]]:
    """A roll and a player's assignment of its wild dice to colours: a legal one (each wild die
    at most once), then, half the time, one fault: a wild die given again (to the same or
    another colour), a die that is not wild, a die not rolled, or a colour that is no guild's."""
    faces = draw(st.lists(st.just("wild") | research_faces, max_size=BOX.research_dice))
    wilds = [i for i, f in enumerate(faces) if f == "wild"]
    wild: dict[str, list[int]] = {}
    for i in draw(st.permutations(wilds)):
        colour = draw(st.sampled_from([*BOX.colours, None]))
        if colour is not None:
            wild.setdefault(colour, []).append(i)
    fault = draw(st.sampled_from(["none", "again", "not wild", "not rolled", "colour"]))
    colour = draw(st.sampled_from(BOX.colours))
    if fault == "again" and wild:
        given = draw(st.sampled_from([i for dice in wild.values() for i in dice]))
        wild.setdefault(colour, []).append(given)
    elif fault == "not wild" and len(wilds) < len(faces):
        others = [i for i, f in enumerate(faces) if f != "wild"]
        wild.setdefault(colour, []).append(draw(st.sampled_from(others)))
    elif fault == "not rolled":
        wild.setdefault(colour, []).append(draw(st.sampled_from([-1, len(faces)])))
    elif fault == "colour":
        wild["green"] = draw(st.lists(st.sampled_from(wilds), max_size=1)) if wilds else []
    return faces, wild


@BOUNDED
@given(case=wild_choices())
def test_F_2_a_wild_die_never_counts_twice_or_for_two_colours(
    case: tuple[list[str], dict[str, list[int]]],
) -> None:
    """F-2: whatever assignment is asked for, either it is refused naming F-2, or every wild die
    counts at most once, for one colour, and no other die is counted as a colour it is not."""
    faces, wild = case
    try:
        r = research(faces, wild)
    except RuleBroken as err:
        assert err.rule == "F-2"
        return
    used = [i for dice in r.wild.values() for i in dice]
    assert len(used) == len(set(used))
    assert all(faces[i] == "wild" for i in used)
    assert sorted(used + list(r.wild_unused)) == [i for i, f in enumerate(faces) if f == "wild"]
    natural = {c: faces.count(c) for c in BOX.colours}
    for colour in BOX.colours:
        assert r.colours.get(colour, 0) == natural[colour] + len(r.wild.get(colour, ()))
    assert sum(r.colours.values()) <= len(faces)


@BOUNDED
@given(faces=rolls, artifacts=st.lists(st.integers(0, 3), min_size=4, max_size=4))
def test_F_2_every_offered_assignment_is_legal_and_the_best_pays_most(
    faces: list[str], artifacts: list[int]
) -> None:
    """F-2: each option offered is a legal assignment (each wild die once, one colour) that
    yields what it says; the best pays at least as many artifacts as any alternative."""
    placed = dict(zip(BOX.guilds, artifacts, strict=True))
    opts = research_options(faces, placed)
    for option in (opts.best, *opts.alternatives):
        assert research(faces, option.wild, placed) == option
        assert option.artifacts <= opts.best.artifacts
    yields = [frozenset(s.colour for s in o.sets) for o in (opts.best, *opts.alternatives)]
    assert len(yields) == len(set(yields))


@st.composite
def dives(draw: st.DrawFn) -> dict[str, Any]:
    """Up to four skiffs on up to three tiles, a roll for their dice, and a barrel choice."""
    tiles = {
        name: (
            draw(st.sampled_from([1, 2, 3])),
            draw(st.sampled_from(BOX.resources)),
            draw(st.booleans()),
        )
        for name in ("A", "B", "C")
    }
    skiffs = [
        Skiff(t, *tiles[t][:2], depleted=tiles[t][2], barrels=draw(st.integers(0, 4)))
        for t in draw(st.lists(st.sampled_from(sorted(tiles)), max_size=4))
    ]
    card = draw(st.lists(st.sampled_from([1, 2, 3]), max_size=3))
    n = len(dive_dice(skiffs, card))
    icons = st.lists(st.sampled_from(DIVE_ICONS), max_size=3)
    return {
        "skiffs": skiffs,
        "card": card,
        "faces": draw(st.lists(icons, min_size=n, max_size=n)),
        "sonar": draw(st.lists(st.sampled_from(["barrel", "survivor", "toxicity"]), max_size=2)),
        "barrels": draw(
            st.none() | st.lists(st.integers(0, 5), min_size=len(skiffs), max_size=len(skiffs))
        ),
    }


@BOUNDED
@given(case=dives())
def test_F_1_barrels_never_exceed_four_per_skiff(case: dict[str, Any]) -> None:
    """F-1: whatever is rolled and chosen, no option and no accepted choice puts more than four
    barrels on a skiff, nor any on a skiff on a depleted tile, and only what fits is lost."""
    skiffs = case["skiffs"]
    try:
        d = dive(skiffs, case["card"], case["sonar"], case["faces"], barrels=case["barrels"])
    except RuleBroken as err:
        assert err.rule == "F-1"
        return
    for option in d.barrel_options:
        for skiff, n in zip(skiffs, option, strict=True):
            assert skiff.barrels + n <= BOX.skiff_capacity
            assert n == 0 or not skiff.depleted
    if d.barrels_placed is not None:
        assert d.barrels_placed in d.barrel_options
        assert sum(d.barrels_placed) + d.barrels_lost == d.barrels
    if d.skiffs is not None:
        assert all(s.barrels <= BOX.skiff_capacity for s in d.skiffs)


seal_counts = st.integers(min_value=0, max_value=4)


@st.composite
def tallies(draw: st.DrawFn) -> list[Tally]:
    players = draw(st.integers(*BOX.players))
    return [
        Tally(
            seat=seat,
            vp=draw(st.integers(0, 60)),
            currency=draw(st.integers(0, 12)),
            resources=draw(st.integers(0, 5)),
            toxicity=draw(st.integers(0, 3)),
            crew=draw(st.integers(6, 8)),
            seals={g: draw(seal_counts) for g in BOX.guilds},
            penalty_vp=draw(st.integers(-3, 2)),
        )
        for seat in range(players)
    ]


@BOUNDED
@given(table=tallies(), second_ties=st.sampled_from(["toxicity", "friendly"]))
def test_F_5_guild_bonuses_never_without_a_seal(table: list[Tally], second_ties: str) -> None:
    """F-5: no seals, no score: a seat with no seals in a guild never gets that guild's 10 or 5,
    and whoever has the most seals is never scored below someone with fewer."""
    result = final_score(table, second_ties)
    for award in result.guilds:
        seals = {int(s): n for s, n in award.seals.items()}
        for seat in (*award.most, *award.second):
            assert seals[seat] > 0
        if award.most:
            assert min(seals[s] for s in award.most) == max(seals.values())
    for score in result.scores:
        t = table[score.seat]
        assert all(t.seals[g] > 0 for g in score.guilds)


@BOUNDED
@given(table=tallies(), second_ties=st.sampled_from(["toxicity", "friendly"]))
def test_F_5_a_friendly_tie_for_most_gives_no_second_place(
    table: list[Tally], second_ties: str
) -> None:
    """F-5: when several captains share the most seals (a friendly tie, toxicity not breaking
    it), all get 10 and nobody gets 5 for that guild; otherwise one captain gets the 10."""
    for award in final_score(table, second_ties).guilds:
        if len(award.most) > 1:
            assert award.friendly and award.second == ()
            assert len({table[s].toxicity for s in award.most}) == 1
        else:
            assert not award.friendly


@BOUNDED
@given(table=tallies())
def test_F_6_the_ranking_is_a_ranking(table: list[Tally]) -> None:
    """F-6: winners have the most VP; places follow totals; a shared place comes only after every
    tie-break is equal."""
    result = final_score(table)
    totals = {s.seat: s.total for s in result.scores}
    assert all(totals[w] == max(totals.values()) for w in result.winners)
    places = [(p.place, -p.total) for p in result.ranking]
    assert places == sorted(places)
    for w in result.winners[1:]:
        a, b = table[result.winners[0]], table[w]
        assert (a.toxicity, a.crew, a.currency) == (b.toxicity, b.crew, b.currency)
