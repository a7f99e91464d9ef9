"""Flotilla F-1, the dive: the dice gathered, and every result resolved (companion/flotilla/dive.py).

The seed's dive rules: one die per skiff on a non-depleted tile (the tile's depth picks the
kind) plus the Delver card's; barrels to skiffs, at most four each; toxicity on the upper
tracker; a depletion marker for each depletion result beyond the first; the survivor disc; and
sonar counting as the sonar track's current icon(s). Faces are entered as the icons they show,
so these tests do not depend on the placeholder faces of the shipped data file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.flotilla import DiveDie, Skiff, dive, dive_dice
from tests.flotilla_support import edited_box, refused

BARREL, TOX, DEPLETION, SURVIVOR, SONAR = (
    ["barrel"],
    ["toxicity"],
    ["depletion"],
    ["survivor"],
    ["sonar"],
)


def test_F_1_one_die_per_skiff_on_a_non_depleted_tile_by_depth_plus_the_cards() -> None:
    """F-1: the dice are the Delver card's plus one per skiff on a non-depleted tile, of the kind
    set by that tile's depth; a skiff on a depleted tile rolls nothing."""
    skiffs = [
        Skiff("A", 1, "red"),
        Skiff("B", 3, "blue", barrels=2),
        Skiff("C", 2, "green", depleted=True),
        Skiff("B", 3, "blue"),  # two skiffs on one tile: two dice
    ]
    assert dive_dice(skiffs, card_dice=[2, 1]) == (
        DiveDie(1, 0),
        DiveDie(3, 1),
        DiveDie(3, 3),
        DiveDie(2, None),
        DiveDie(1, None),
    )
    assert dive_dice([Skiff("C", 2, "green", depleted=True)]) == ()


def test_F_1_one_face_per_die_rolled() -> None:
    """F-1: every die gathered is rolled: as many faces as dice, no more, no fewer."""
    skiffs = [Skiff("A", 1, "red")]
    refused("F-1", "2 dive dice are rolled, 1 faces", dive, skiffs, [2], [], [BARREL])
    refused("F-1", "dive dice show", dive, skiffs, [], [], [["treasure"]])


def test_F_1_barrel_goes_to_the_skiff_and_has_its_tiles_colour() -> None:
    """F-1: a barrel result adds a barrel of the tile's resource colour to a skiff on a
    non-depleted tile; with one such skiff there is nothing to choose."""
    skiffs = [Skiff("A", 2, "red", barrels=1), Skiff("C", 1, "green", depleted=True)]
    d = dive(skiffs, [], [], [["barrel", "barrel"]])
    assert d.barrels == 2 and d.barrel_options == ((2, 0),)
    assert d.barrels_placed == (2, 0) and d.gained == {"red": 2}
    assert d.complete and d.skiffs is not None
    assert [s.barrels for s in d.skiffs] == [3, 0]


def test_F_1_a_skiff_holds_at_most_four_barrels() -> None:
    """F-1 (seed: 'cada esquife no puede contener más de cuatro recursos a la vez'): barrels
    beyond a skiff's room are lost, and a fifth barrel on a skiff is refused."""
    skiffs = [Skiff("A", 3, "blue", barrels=3)]
    d = dive(skiffs, [2], [], [["barrel", "barrel"], BARREL])
    assert d.barrel_room == (1,) and d.barrels_placed == (1,) and d.barrels_lost == 2
    assert d.skiffs is not None and d.skiffs[0].barrels == 4
    err = refused("F-1", "at most 4 barrels", dive, skiffs, [2], [], [BARREL, BARREL], barrels=[2])
    assert "skiff 1 has 3" in err.message
    refused("F-1", "at most 4 barrels", dive_dice, [Skiff("A", 1, "red", barrels=5)])


def test_F_1_the_player_chooses_the_skiff_and_the_choice_is_checked() -> None:
    """F-1: with barrels for two skiffs that both have room, every split is offered; the chosen
    one is checked: all barrels that fit are taken, none on a depleted tile's skiff."""
    skiffs = [
        Skiff("A", 1, "red", barrels=3),
        Skiff("B", 2, "yellow"),
        Skiff("C", 1, "green", depleted=True),
    ]
    d = dive(skiffs, [], [], [BARREL, ["barrel", "barrel"]])
    assert d.barrels_placed is None and not d.complete
    assert d.barrel_options == ((1, 2, 0), (0, 3, 0))
    chosen = dive(skiffs, [], [], [BARREL, ["barrel", "barrel"]], barrels=[1, 2, 0])
    assert chosen.gained == {"red": 1, "yellow": 2}
    assert chosen.skiffs is not None and [s.barrels for s in chosen.skiffs] == [4, 2, 0]
    refused("F-1", "must be taken", dive, skiffs, [], [], [BARREL, BARREL], barrels=[0, 1, 0])
    refused("F-1", "depleted tile", dive, skiffs, [], [], [BARREL, BARREL], barrels=[0, 1, 1])
    refused("F-1", "each of the 3 skiffs", dive, skiffs, [], [], [BARREL, BARREL], barrels=[2])


def test_F_1_results_resolve_in_any_order_so_barrels_beat_depletion() -> None:
    """F-1: results are resolved in any order, so a barrel can be taken on a tile that the same
    roll then depletes."""
    skiffs = [Skiff("A", 1, "red")]
    d = dive(skiffs, [1, 1], [], [BARREL, DEPLETION, DEPLETION])
    assert d.barrels_placed == (1,) and d.depleted == ("A",)
    assert d.skiffs == (Skiff("A", 1, "red", depleted=True, barrels=1),)


def test_F_1_toxicity_and_survivor_results_are_tracker_steps() -> None:
    """F-1: each toxicity result moves the upper toxicity tracker one space; each survivor result
    moves the survivor disc one space clockwise."""
    skiffs = [Skiff("A", 3, "blue"), Skiff("B", 2, "red")]
    d = dive(skiffs, [1], [], [["toxicity", "toxicity"], SURVIVOR, TOX])
    assert (d.toxicity, d.survivor, d.barrels) == (3, 1, 0)
    assert d.complete and d.skiffs == tuple(skiffs)


@pytest.mark.parametrize(("results", "markers"), [(0, 0), (1, 0), (2, 1), (3, 2)])
def test_F_1_depletion_marker_only_beyond_the_first(results: int, markers: int) -> None:
    """F-1 (seed: 'Por cada icono de Agotamiento que obtengas más allá del primero'): the first
    depletion result costs nothing; each further one places a marker."""
    skiffs = [Skiff("A", 1, "red"), Skiff("B", 1, "red"), Skiff("C", 1, "red")]
    faces = [DEPLETION] * results + [[]] * (3 - results)
    d = dive(skiffs, [], [], faces, depleted=["A", "B", "C"][:markers])
    assert d.depletion.markers == markers
    assert d.skiffs is not None and sum(s.depleted for s in d.skiffs) == markers


def test_F_1_depletion_markers_on_skiff_tiles_first_then_any_other_tile() -> None:
    """F-1: markers go on non-depleted tiles where the diver has skiffs; only markers beyond
    those tiles go on any other non-depleted tile of theirs; a depleted tile is dived no more."""
    skiffs = [Skiff("A", 1, "red"), Skiff("B", 2, "red")]
    faces = [["depletion", "depletion"], ["depletion", "depletion"]]
    d = dive(skiffs, [], [], faces, other_tiles=["X", "Y"])
    assert d.depletion.markers == 3
    assert (d.depletion.on_skiff_tiles, d.depletion.on_other_tiles) == (2, 1)
    assert d.depletion.choice and d.depleted is None
    done = dive(skiffs, [], [], faces, depleted=["A", "B", "Y"], other_tiles=["X", "Y"])
    assert done.skiffs is not None and all(s.depleted for s in done.skiffs)
    assert dive_dice(done.skiffs) == ()
    refused(
        "F-1",
        "2 on tiles with your skiffs",
        dive,
        skiffs,
        [],
        [],
        faces,
        depleted=["A", "X", "Y"],
        other_tiles=["X", "Y"],
    )
    refused(
        "F-1",
        "not \\['Z'\\]",
        dive,
        skiffs,
        [],
        [],
        faces,
        depleted=["A", "B", "Z"],
        other_tiles=["X", "Y"],
    )


def test_F_1_fewer_markers_than_skiff_tiles_the_player_picks_the_tile() -> None:
    """F-1: one marker and two skiff tiles: the player picks which; two markers on one tile are
    refused, and with no tile left a marker is simply not placed."""
    skiffs = [Skiff("A", 1, "red"), Skiff("B", 2, "green")]
    faces = [DEPLETION, DEPLETION]
    assert dive(skiffs, [], [], faces).depleted is None
    d = dive(skiffs, [], [], faces, depleted=["B"])
    assert d.skiffs is not None and [s.depleted for s in d.skiffs] == [False, True]
    refused(
        "F-1", "one depletion marker per tile", dive, skiffs, [], [], faces, depleted=["A", "A"]
    )
    lone = dive([Skiff("A", 1, "red")], [1, 1], [], [DEPLETION] * 3)
    assert lone.depleted == ("A",) and lone.depletion.unplaced == 1


def test_F_1_sonar_counts_as_the_sonar_tracks_current_icons() -> None:
    """F-1: every sonar result counts as the icon (or set of icons) of the sonar track's current
    space, so the same roll yields more as the track advances."""
    skiffs = [Skiff("A", 1, "red"), Skiff("B", 2, "blue")]
    early = dive(skiffs, [], ["survivor"], [SONAR, SONAR])
    assert early.survivor == 2 and early.barrels == 0 and early.icons == {"survivor": 2}
    later = dive(skiffs, [], ["barrel", "barrel"], [SONAR, BARREL], barrels=[2, 1])
    assert later.barrels == 3 and later.gained == {"blue": 1, "red": 2}
    assert dive(skiffs, [], [], [SONAR, SONAR]).icons == {}
    other = dive(skiffs, [], ["currency"], [SONAR, []])
    assert other.other == {"currency": 1}  # not a dive result: the table hands it out
    refused("F-1", "sonar track", dive, skiffs, [], ["sonar"], [SONAR, []])


def test_F_1_a_captain_has_four_skiffs() -> None:
    """F-1 with the setup: a captain has four skiffs, so a fifth cannot dive."""
    refused("F-1", "4 skiffs, not 5", dive_dice, [Skiff(str(i), 1, "red") for i in range(5)])
    refused("F-1", "depth 7", dive_dice, [Skiff("A", 7, "red")])
    refused("F-1", "colour", dive_dice, [Skiff("A", 1, "purple")])
    refused("F-1", "different tiles", dive_dice, [Skiff("A", 1, "red"), Skiff("A", 2, "red")])


def test_F_1_a_verified_die_refuses_a_face_it_does_not_have(tmp_path: Path) -> None:
    """F-1: faces are checked against a die only when the data file marks that die verified; a
    placeholder die never refuses what the table rolled."""
    skiffs = [Skiff("A", 1, "red")]
    assert dive(skiffs, [], [], [["survivor", "toxicity", "toxicity"]]).toxicity == 2

    def verify_shallow(raw: dict[str, Any]) -> None:
        for face in raw["dive_dice"]["kinds"][0]["faces"]:
            face["verified"] = True
            face["source"] = "counted on the test's die"

    box = edited_box(tmp_path, verify_shallow)
    assert box.dive_kinds[0].verified and not box.dive_kinds[1].verified
    assert dive(skiffs, [], [], [BARREL], box=box).barrels == 1
    refused("F-1", "has no face", dive, skiffs, [], [], [["survivor", "toxicity"]], box=box)


def test_F_1_very_many_ways_to_place_the_markers_are_listed_in_part_and_all_accepted() -> None:
    """F-1: with many other tiles named, the ways to place 14 markers run to billions; the game
    lists the first few hundred (a phone's buttons) at once, and still takes any valid choice."""
    from companion.flotilla.game import LISTED, FlotillaGame

    game = FlotillaGame.new(3)
    others = [f"T{k}" for k in range(40)]
    skiff = {"tile": "A7", "depth": 1, "resource": "red"}
    game.apply(["dive", {"skiffs": [skiff], "card_dice": [1] * 15, "other_tiles": others}])
    game.apply(["dive_faces", [["depletion"]] * 16])
    assert game.phase == "deplete"
    listed = game.legal_actions()
    assert len(listed) == LISTED and all(len(a[1]) == 15 for a in listed)
    unlisted = ["A7", *others[-14:]]
    assert ("deplete", unlisted) not in listed
    game.apply(["deplete", unlisted])
    assert game.phase == "turn" and game.state.last is not None
    assert game.state.last["depleted"] == unlisted
