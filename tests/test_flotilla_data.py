"""Flotilla's data file and values: every number has a source, placeholders say so, digital rolls
come from the file with a seeded generator and say whether they are verified, and every value
survives JSON exactly (companion/flotilla/box.py, dice.py, values.py)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.flotilla import (
    BOX,
    NOT_VERIFIED,
    DataError,
    Dive,
    DiveRoll,
    Ending,
    FinalScore,
    MalformedValue,
    Market,
    Research,
    ResearchOptions,
    ResearchRoll,
    Skiff,
    Supply,
    Take,
    Tally,
    Trade,
    dive,
    end_triggered,
    final_score,
    from_json,
    new_market,
    new_supply,
    research,
    research_options,
    roll_dive,
    roll_research,
    take_vp,
    to_json,
    trade,
)
from tests.flotilla_support import edited_box, shipped


def _unsourced(node: Any, path: str, sourced: bool) -> list[str]:
    """Paths of numbers and faces in the file with no enclosing entry that has a source."""
    if isinstance(node, dict):
        here = sourced or ("source" in node and "verified" in node) or "depth_source" in node
        return [p for k, v in node.items() for p in _unsourced(v, f"{path}.{k}", here)]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in _unsourced(v, f"{path}[{i}]", sourced)]
    if isinstance(node, int | float) and not isinstance(node, bool) and not sourced:
        return [path]
    return []


def test_every_number_in_the_data_file_has_a_source() -> None:
    """Spec flotilla.md: every number of the dice file carries a source (the format number
    aside), and every face, penalty and price sits in an entry saying whether it is verified."""
    raw = shipped()
    assert _unsourced({k: v for k, v in raw.items() if k != "format"}, "", False) == []
    for kind in raw["dive_dice"]["kinds"]:
        assert all("source" in f and "verified" in f for f in kind["faces"])
    assert all("source" in f for f in raw["research_die"]["faces"])


def test_what_the_seed_does_not_give_is_marked_unverified() -> None:
    """Spec flotilla.md, What is not known: the dive faces, research faces (the wild face aside),
    the guild colours, the toxicity penalties, the market track and the VP supply are unverified;
    the phone lists them with their sources."""
    assert not any(k.verified for k in BOX.dive_kinds)
    assert [f.face for f in BOX.research_faces if f.verified] == ["wild"]
    assert not BOX.research_verified
    names = {name for name, _ in BOX.unverified}
    for entry in ("toxicity_penalty", "market.prices", "market.start", "vp_supply_per_player"):
        assert entry in names and not BOX.is_verified(entry)
    assert all(f"guilds.list[{i}]" in names for i in range(4))
    assert BOX.colour_of("delvers") == "blue"  # the seed's research example
    assert all(source for _, source in BOX.unverified)
    # What the seed settles is verified.
    for entry in ("skiff_capacity", "skiffs_per_player", "research_dice_in_box", "players"):
        assert BOX.is_verified(entry)
    assert (BOX.skiff_capacity, BOX.skiffs_per_player, BOX.research_dice) == (4, 4, 7)


def test_a_corrected_file_is_read_and_a_missing_source_refused(tmp_path: Path) -> None:
    """A table owner corrects the file: a verified entry leaves the unverified list; an entry
    without a source, or with an unknown icon, is refused."""

    def correct(raw: dict[str, Any]) -> None:
        raw["toxicity_penalty"] = {
            "value": [0, -1, -2],
            "verified": True,
            "source": "test: counted on the board",
        }

    box = edited_box(tmp_path, correct)
    assert box.toxicity_penalty == (0, -1, -2) and box.is_verified("toxicity_penalty")

    def unsourced(raw: dict[str, Any]) -> None:
        del raw["vp_supply_per_player"]["source"]

    with pytest.raises(DataError, match="source"):
        edited_box(tmp_path, unsourced)

    def bad_icon(raw: dict[str, Any]) -> None:
        raw["dive_dice"]["kinds"][0]["faces"][0]["icons"] = ["treasure"]

    with pytest.raises(DataError, match="icons"):
        edited_box(tmp_path, bad_icon)


def test_digital_rolls_come_from_the_file_with_a_seeded_generator() -> None:
    """A digital roll draws each die's face from the file's faces with the caller's seeded
    generator (the same seed, the same faces) and says the distribution is not verified."""
    depths = [1, 2, 3, 3]
    roll = roll_dive(depths, random.Random(7))
    assert roll == roll_dive(depths, random.Random(7))
    assert not roll.verified and roll.note == NOT_VERIFIED
    for depth, face in zip(depths, roll.faces, strict=True):
        kind = BOX.dive_kind(depth)
        assert kind is not None and face in {f.icons for f in kind.faces}
    research_roll = roll_research(7, random.Random(7))
    assert len(research_roll.faces) == 7 and research_roll.note == NOT_VERIFIED
    faces = Counter(
        roll_research(7, random.Random(1)).faces + roll_research(7, random.Random(2)).faces
    )
    assert set(faces) <= {f.face for f in BOX.research_faces}


def test_a_verified_file_rolls_without_the_warning(tmp_path: Path) -> None:
    """When every face of the dice rolled is verified, the roll says so and carries no note."""

    def verify(raw: dict[str, Any]) -> None:
        for face in raw["dive_dice"]["kinds"][0]["faces"] + raw["research_die"]["faces"]:
            face["verified"] = True

    box = edited_box(tmp_path, verify)
    assert roll_dive([1, 1], random.Random(3), box=box).note == ""
    assert not roll_dive([1, 2], random.Random(3), box=box).verified
    assert roll_research(3, random.Random(3), box=box).verified


def values() -> list[Any]:
    """One of every value the helpers return or take."""
    skiffs = [Skiff("A", 1, "red"), Skiff("B", 3, "blue", barrels=2)]
    pending = dive(skiffs, [2], ["barrel", "survivor"], [["barrel"], ["sonar"], ["depletion"]])
    done = dive(skiffs, [2], ["barrel"], [["barrel"], ["depletion"], ["depletion"]], (1, 0), ["B"])
    tallies = [
        Tally(0, 40, 12, 3, 2, 7, {"delvers": 2}, penalty_space=3),
        Tally(1, 41, 2, 0, 5, 7, {"delvers": 2}, penalty_vp=-2),
        Tally(2, 38, 0, 9, 1, 6, {"founders": 1}, penalty_vp=1),
    ]
    supply = new_supply(3)
    faces = ["blue", "blue", "wild", "currency:2", "breakthrough"]
    return [
        pending,
        done,
        *skiffs,
        research(faces, {"blue": [2]}, {"delvers": 1}),
        research_options(faces),
        new_market(),
        trade(new_market(), buy={"red": 2}, sell={"blue": 1}, reserve={"blue": 1}),
        supply,
        take_vp(supply, 5),
        end_triggered(3, 0, 1),
        final_score(tallies),
        tallies[0],
        roll_dive([1, 2], random.Random(1)),
        roll_research(3, random.Random(1)),
    ]


@pytest.mark.parametrize("value", values(), ids=lambda v: type(v).__name__)
def test_values_survive_json_exactly(value: Any) -> None:
    """Every value serialises to JSON and parses back to an equal value of the same type."""
    text = json.dumps(to_json(value), sort_keys=True)
    back = from_json(type(value), json.loads(text))
    assert back == value and type(back) is type(value)
    assert json.dumps(to_json(back), sort_keys=True) == text


def test_every_kind_of_value_is_covered_by_the_round_trip() -> None:
    kinds = {type(v) for v in values()}
    expected = {Dive, Skiff, Research, ResearchOptions, Market, Trade, Supply, Take, Ending}
    assert expected | {FinalScore, Tally, DiveRoll, ResearchRoll} <= kinds


def test_malformed_json_is_refused() -> None:
    with pytest.raises(MalformedValue):
        from_json(Skiff, {"tile": "A", "depth": "deep", "resource": "red"})
    with pytest.raises(MalformedValue):
        from_json(Skiff, {"tile": "A", "depth": 1, "resource": "red", "colour": "x"})
    with pytest.raises(MalformedValue):
        from_json(Market, {"spaces": [1, 2]})
