"""Step 3, removing a land tile: terrain order, the coast, people on the tile, the back (B-20 … B-23)."""

from __future__ import annotations

import pytest

from companion.engine import REFEREE, Game, IllegalAction, MalformedAction, parse
from companion.engine import board as board_
from companion.engine.state import LOST
from tests.position import LAYOUT, SAVED, SEA, TERRAIN, Position, at, kinds, refused


def tiles_of(terrain: str) -> list[str]:
    """The positions where the test island (LAYOUT) has tiles of this terrain."""
    return [
        board_.name(h)
        for h, letter in zip(board_.LAND, LAYOUT, strict=True)
        if TERRAIN[letter] == terrain
    ]


def sinkable(game: Game) -> set[str]:
    return {board_.name(a[1]) for a in game.legal_actions() if a[0] == "sink"}


# -- B-20: the order of the terrains --------------------------------------------------------


def test_B_20_beaches_go_before_forests_and_forests_before_mountains() -> None:
    """B-20: while a beach is left only beaches may go; then forests; mountains last."""
    pos = Position()
    game = pos.game("sink")
    offered = sinkable(game)
    assert offered and offered <= set(tiles_of("beach"))
    error = refused(game, "sink 4.3")  # a coastal forest
    assert error.rule == "B-20"
    assert game.phase == "sink" and at(game, "4.3") == []  # nothing changed

    pos = Position()
    pos.sea(*tiles_of("beach"))
    game = pos.game("sink")
    offered = sinkable(game)
    assert offered and offered <= set(tiles_of("forest"))
    assert "4.3" in offered
    assert refused(game, "sink 4.6").rule == "B-20"  # a mountain touching the sea

    pos = Position()
    pos.sea(*tiles_of("beach"), *tiles_of("forest"))
    game = pos.game("sink")
    offered = sinkable(game)
    assert offered and offered <= set(tiles_of("mountain"))


def test_B_20_sinking_a_tile_that_is_not_land_is_refused() -> None:
    """B-20, B-9: only a land tile can be removed; the sea and the lagoon are not tiles."""
    game = Position().game("sink")
    assert refused(game, "sink 6.5").rule == "B-9"
    assert refused(game, "sink 0.4").rule == "B-9"
    with pytest.raises(MalformedAction):
        game.apply(parse("sink 13.4"))


# -- B-21: touching the sea -----------------------------------------------------------------


def test_B_21_only_tiles_touching_the_sea_may_go() -> None:
    """B-21: 8.5 (beach) is ringed by land, so it may not go while coastal beaches remain; a
    beach touching only the lagoon counts as touching the sea."""
    game = Position().game("sink")
    offered = sinkable(game)
    assert "8.5" not in offered
    assert "5.6" in offered  # its only sea neighbour is the lagoon
    assert "3.4" in offered
    error = refused(game, "sink 8.5")
    assert error.rule == "B-21"


def test_B_21_space_left_by_an_earlier_tile_is_sea() -> None:
    """B-21: once its neighbour 9.6 has been removed, 8.5 touches the sea and may go."""
    pos = Position()
    pos.sea("9.6")
    game = pos.game("sink")
    assert "8.5" in sinkable(game)
    events = game.apply(parse("sink 8.5"))
    assert kinds(events) == ["sunk"]
    assert game.phase == "back"


def test_B_21_any_tile_of_the_terrain_when_none_touches_the_sea() -> None:
    """B-21: the two beaches left (5.4, 7.4) are both ringed by land: either may go, and a
    coastal forest still may not (B-20)."""
    pos = Position()
    pos.sea(*(name for name in tiles_of("beach") if name != "8.3"))
    pos.terrain("8.3", "forest")
    pos.terrain("5.4", "beach")
    pos.terrain("7.4", "beach")
    game = pos.game("sink")
    assert sinkable(game) == {"5.4", "7.4"}
    assert refused(game, "sink 4.3").rule == "B-20"
    game.apply(parse("sink 7.4"))
    assert game.view()["tiles"].get("7.4") is None


# -- B-22: people on the tile, and the back ------------------------------------------------


def test_B_22_people_on_the_removed_tile_become_swimmers_without_using_their_swim() -> None:
    """B-22, B-16: everyone on the tile swims on its space; being sunk is not their swim."""
    pos = Position()
    a1 = pos.land(0, "3.4")
    b1 = pos.land(1, "3.4")
    pos.land(0, "3.5")
    game = pos.game("sink")
    events = game.apply(parse("sink 3.4"))
    assert kinds(events) == ["sunk"]
    assert events[0].data["people"] == ["A1", "B1"]
    assert sorted(at(game, "3.4")) == sorted([f"swim:{a1}", f"swim:{b1}"])
    assert at(game, "3.5") == [f"land:{pos.s.seat_people[0][1]}"]
    assert game.view()["swam"] == []
    assert game.phase == "back" and game.is_chance()
    # A whale back does not harm them (B-26, B-34): they are still swimming.
    game.apply(parse("back whale"))
    assert f"swim:{a1}" in at(game, "3.4") and f"swim:{b1}" in at(game, "3.4")


def test_B_22_red_back_goes_hidden_into_the_removers_hand() -> None:
    """B-22: a red back is kept by the player who removed the tile; others learn only that a
    tile was kept, the owner and the referee learn which."""
    pos = Position()
    game = pos.game("sink", turn=1)
    game.apply(parse("sink 3.4"))
    events = game.apply(parse("back dolphin"))
    kept = next(e for e in events if e.kind == "kept")
    assert kept.project(1)["back"] == "dolphin"
    assert kept.project(REFEREE)["back"] == "dolphin"
    assert "back" not in kept.project(0)
    assert "back" not in kept.project(None)
    assert kept.project(0)["seat"] == 1 and kept.project(0)["terrain"] == "beach"
    assert "revealed" not in kinds(events)
    assert game.view(1)["hands"][1]["tiles"] == [{"terrain": "beach", "back": "dolphin"}]
    assert game.view(0)["hands"][1] == {"seat": 1, "count": 1}
    assert game.phase == "roll"  # step 4 follows; a kept tile is not played now


def test_B_22_untold_red_back_only_in_physical_mode() -> None:
    """B-22: `back red` (a red back not told to the companion) exists only for physical tiles;
    in digital mode the companion deals the back and it must be named."""
    game = Position().game("sink")
    game.apply(parse("sink 3.4"))
    assert ("back", "red") not in game.legal_actions()
    assert refused(game, "back red").rule == "B-22"

    game = Position(mode="physical").game("sink")
    game.apply(parse("sink 3.4"))
    assert ("back", "red") in game.legal_actions()
    events = game.apply(parse("back red"))
    kept = next(e for e in events if e.kind == "kept")
    assert "back" not in kept.project(0)  # nobody was told, not even the owner's phone
    assert game.view(0)["hands"][0]["tiles"] == [{"terrain": "beach", "back": None}]
    assert game.phase == "roll"


def test_B_22_physical_back_is_refused_when_no_such_back_can_remain() -> None:
    """B-22: a back told from the table must be one that a tile of that terrain can still have."""
    pos = Position(mode="physical")
    pos.hold(1, "beach", "winds")
    pos.hold(1, "beach", "winds")  # both beach winds tiles are accounted for
    game = pos.game("sink")
    game.apply(parse("sink 3.4"))
    assert refused(game, "back winds").rule == "B-22"
    assert refused(game, "back volcano").rule == "B-22"  # no beach hides the volcano
    assert refused(game, "back whirlpool").rule == "B-22"
    game.apply(parse("back dolphin"))  # still possible
    assert game.view(0)["hands"][0]["tiles"] == [{"terrain": "beach", "back": "dolphin"}]


def test_B_22_physical_no_red_back_when_all_red_tiles_of_the_terrain_are_held() -> None:
    """B-22: a mountain has two red backs; when two untold mountain tiles are held already, a
    third mountain can be neither `red` nor a named red back, only a green one."""
    pos = Position(mode="physical")
    pos.sea(*tiles_of("beach"), *tiles_of("forest"))
    pos.hold(0, "mountain", None)
    pos.hold(1, "mountain", None)
    game = pos.game("sink")
    game.apply(parse("sink 4.6"))
    offered = {a[1] for a in game.legal_actions()}
    assert offered == {"shark", "whirlpool", "volcano"}
    assert refused(game, "back red").rule == "B-22"
    assert refused(game, "back shark-repellent").rule == "B-22"
    assert refused(game, "back dolphin").rule == "B-22"


# -- B-23: the volcano --------------------------------------------------------------------------


def test_B_23_B_37_volcano_ends_the_game_at_once_without_step_4() -> None:
    """B-23, B-37, B-30: the volcano back ends the game at once; no creature die is rolled and
    everyone not on a safe island is lost."""
    pos = Position()
    pos.sea(*tiles_of("beach"), *tiles_of("forest"))
    on_tile = pos.land(0, "4.6", value=6)
    elsewhere = pos.land(1, "5.4", value=5)
    swimmer = pos.swimmer(1, "0.4", value=4)
    saved = pos.saved(0, "NW", value=2)
    pos.creature("shark", "1.5")
    game = pos.game("sink")
    game.apply(parse("sink 4.6"))
    assert game.state.p_kind[on_tile] == SEA  # swimming on the space
    events = game.apply(parse("back volcano"))
    assert "rolled" not in kinds(events)
    assert "creature_moved" not in kinds(events)
    assert "revealed" in kinds(events) and "game_over" in kinds(events)
    over = next(e for e in events if e.kind == "game_over")
    assert sorted(over.data["lost"]) == sorted(["A1", "B1", "B2"])
    assert game.over and game.legal_actions() == []
    assert game.actor is None
    view = game.view(None)
    where = {p["id"]: p["where"] for p in view["people"]}
    assert where["A2"] == "saved"
    assert where["A1"] == where["B1"] == where["B2"] == "lost"
    kinds_now = game.state.p_kind
    assert kinds_now[saved] == SAVED
    assert LOST == kinds_now[on_tile] == kinds_now[elsewhere] == kinds_now[swimmer]
    result = game.result()
    assert result is not None and result["ranking"][0]["seat"] == 0
    with pytest.raises(IllegalAction) as info:
        game.apply(parse("roll shark"))
    assert info.value.rule == "B-23"
