"""What each viewer may see (spec §9): a player, a spectator, the referee; and the events.

A player sees their own held tiles with their backs and everyone's tile counts; their own
people's values only under `own_values_visible`; a spectator sees nothing private; the referee
sees everything; values are public once the game is over.
"""

from __future__ import annotations

import json
from typing import Any

from companion.engine import REFEREE, Event, Game, Rules, parse
from tests.position import Position, hx

VALUES = {"A1": 6, "A2": 2, "B1": 5, "B2": 3, "C1": 4}


def table(mode: str = "digital", **options: str) -> Game:
    """Three seats mid-game: people with values, red tiles in hand (seat 3 holds none)."""
    pos = Position(players=3, mode=mode, **options)
    digital = mode == "digital"
    pos.land(0, "5.2", VALUES["A1"] if digital else None)
    pos.swimmer(0, "1.3", VALUES["A2"] if digital else None)
    pos.land(1, "5.3", VALUES["B1"] if digital else None)
    pos.saved(1, "NW", VALUES["B2"] if digital else None)
    pos.land(2, "7.3", VALUES["C1"] if digital else None)
    pos.hold(0, "beach", "dolphin")
    pos.hold(1, "forest", "whale-repellent")
    pos.hold(1, "beach", "winds" if digital else None)
    return pos.game("move", turn=0)


def values(view: dict[str, Any]) -> dict[str, int | None]:
    """The values a view shows of the people placed by `table`, by person."""
    return {e["id"]: e["value"] for e in view["people"] if "value" in e and e["id"] in VALUES}


def any_value(view: dict[str, Any]) -> bool:
    """Does the view show a value of anybody at all?"""
    return any("value" in e for e in view["people"])


def hands(view: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(view["hands"], key=lambda h: h["seat"])


def text(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True)


def shows(view: dict[str, Any], back: str) -> bool:
    """Does this back appear anywhere in the view (as a word of its own)?"""
    return json.dumps(back) in text(view)


def test_player_sees_own_tiles_with_backs_and_others_only_as_counts() -> None:
    """§9, B-29: a player's view lists their own red tiles with backs; of the others' tiles only
    how many they hold (that count is public)."""
    game = table()
    mine = hands(game.view(0))
    assert mine[0]["tiles"] == [{"terrain": "beach", "back": "dolphin"}]
    assert [h["count"] for h in mine] == [1, 2, 0]
    assert "tiles" not in mine[1] and "tiles" not in mine[2]
    assert not shows(game.view(0), "whale-repellent")
    theirs = hands(game.view(1))
    assert {t["back"] for t in theirs[1]["tiles"]} == {"whale-repellent", "winds"}
    assert "tiles" not in theirs[0]
    assert not shows(game.view(1), "dolphin") and not shows(game.view(2), "dolphin")


def test_own_values_hidden_from_the_owner_by_default() -> None:
    """§1, §9 (own_values_visible=no): nobody, the owner included, sees a value in play."""
    game = table()
    assert Rules().option("own_values_visible") == "no"
    for seat in range(3):
        assert not any_value(game.view(seat))


def test_own_values_visible_option_shows_own_values_only() -> None:
    """§9 (own_values_visible=yes): a player sees their own people's values, no one else's."""
    game = table(own_values_visible="yes")
    assert values(game.view(0)) == {"A1": 6, "A2": 2}
    assert values(game.view(1)) == {"B1": 5, "B2": 3}
    assert values(game.view(2)) == {"C1": 4}
    assert not any_value(game.view(None))


def test_spectator_sees_no_value_and_no_back() -> None:
    """§9: the spectator view holds nothing private: no value, no tile back, no seed, but the
    public tile counts and where everybody is."""
    game = table(own_values_visible="yes")
    view = game.view(None)
    assert view["viewer"] == "spectator"
    assert not any_value(view)
    assert all("tiles" not in h for h in view["hands"])
    assert [h["count"] for h in hands(view)] == [1, 2, 0]
    assert "known_backs" not in view and "seed" not in view
    for back in ("dolphin", "winds", "whale-repellent"):
        assert not shows(view, back)
    where = {e["id"]: (e["where"], e["at"]) for e in view["people"]}
    assert where["A1"] == ("land", "5.2") and where["B2"] == ("saved", "NW")


def test_referee_sees_everything() -> None:
    """§9: the referee sees every value and every held tile's back."""
    game = table()
    view = game.referee_view()
    assert view["viewer"] == "referee"
    assert all("value" in e for e in view["people"])
    assert values(view) == VALUES
    assert hands(view)[0]["tiles"] == [{"terrain": "beach", "back": "dolphin"}]
    assert {t["back"] for t in hands(view)[1]["tiles"]} == {"whale-repellent", "winds"}
    assert view["known_backs"]["forest"] == {"whale-repellent": 1}
    assert game.view(REFEREE) == view


def test_values_become_public_once_the_game_is_over() -> None:
    """§1, §9, B-30: at the end every value is public, the lost people's too."""
    pos = Position(players=2)
    pos.land(0, "5.2", 6)
    pos.saved(0, "NW", 3)
    pos.saved(1, "SE", 4)
    pos.sea("4.6")
    game = pos.game("back", turn=1, hex=hx("4.6"), terrain="mountain")
    assert not any_value(game.view(None))
    game.apply(parse("back volcano"))
    assert game.over
    for viewer in (None, 0, 1):
        shown = values(game.view(viewer))
        assert (shown["A1"], shown["A2"], shown["B1"]) == (6, 3, 4)
        assert game.view(viewer)["result"] == game.result()


def test_physical_untold_back_is_unknown_even_to_the_referee() -> None:
    """B-22 (physical mode): a red back not told is unknown to the companion; the owner's view
    shows the tile with no back, others see only the count."""
    game = table(mode="physical")
    own = hands(game.view(1))[1]["tiles"]
    assert sorted(own, key=lambda t: t["terrain"]) == [
        {"terrain": "beach", "back": None},
        {"terrain": "forest", "back": "whale-repellent"},
    ]
    ref = hands(game.referee_view())[1]["tiles"]
    assert {"terrain": "beach", "back": None} in ref
    assert hands(game.view(0))[1] == {"seat": 1, "count": 2}


def test_B_29_who_is_asked_for_a_repellent_is_not_shown() -> None:
    """B-29, §9: while a defensive tile may be played, only the referee and the asked seat see
    who is asked; the queue of who may hold a repellent is never shown."""
    pos = Position(players=3)
    pos.clear_serpents()
    pos.swimmer(1, "1.3", 2)
    pos.hold(1, "beach", "shark-repellent")
    pos.hold(2, "beach", "dolphin")
    shark = pos.creature("shark", "1.4")
    game = pos.game("creature", turn=0, kind="shark", creature=None, steps=0)
    game.apply(("creature", shark, hx("1.3")))
    assert game.phase == "defence"
    assert game.view(None)["actor"] is None
    assert game.view(2)["actor"] is None and game.view(0)["actor"] is None
    assert game.view(1)["actor"] == 1
    assert game.referee_view()["actor"] == 1
    for viewer in (None, 0, 1, 2, REFEREE):
        assert "queue" not in game.view(viewer)["pending"]


# -- events --------------------------------------------------------------------------------


def first_placement(**options: str) -> tuple[Game, Event, int]:
    game = Game.new(Rules(options=options), players=2, seed=5)
    while game.is_chance():
        game.apply(game.draw())
    assert game.phase == "place" and game.actor == 0
    action = max(game.legal_actions(), key=lambda a: a[2])  # the 6
    [event] = [e for e in game.apply(action) if e.kind == "placed"]
    return game, event, action[2]


def test_placed_event_value_seen_by_the_referee_only_by_default() -> None:
    """§1, §9: the value chosen at placement reaches the referee; not the spectator, not the
    other player, and (own_values_visible=no) not even the placer afterwards."""
    _, event, value = first_placement()
    assert event.project(REFEREE)["value"] == value
    for viewer in (None, 0, 1):
        seen = event.project(viewer)
        assert "value" not in seen
        assert seen["person"] == "A1" and seen["kind"] == "placed"


def test_placed_event_value_seen_by_its_owner_under_own_values_visible() -> None:
    """§9 (own_values_visible=yes): the placer's projection carries the value, no one else's."""
    _, event, value = first_placement(own_values_visible="yes")
    assert event.project(0)["value"] == value
    assert event.project(REFEREE)["value"] == value
    assert "value" not in event.project(1) and "value" not in event.project(None)


def kept_event(back: str, mode: str = "digital") -> Event:
    pos = Position(players=3, mode=mode)
    pos.sea("3.4")
    game = pos.game("back", turn=1, hex=hx("3.4"), terrain="beach")
    [event] = [e for e in game.apply(("back", back)) if e.kind == "kept"]
    assert game.view(None)["hands"][1]["count"] == 1
    return event


def test_kept_event_back_seen_by_the_keeper_and_the_referee_only() -> None:
    """B-22, §9: a red tile goes into the remover's hand: its terrain is public, its back only
    for the keeper (and the referee)."""
    event = kept_event("dolphin")
    assert event.project(1)["back"] == "dolphin"
    assert event.project(REFEREE)["back"] == "dolphin"
    for viewer in (None, 0, 2):
        seen = event.project(viewer)
        assert "back" not in seen
        assert seen["terrain"] == "beach" and seen["seat"] == 1
    assert '"dolphin"' not in json.dumps([event.project(v) for v in (None, 0, 2)])


def test_kept_event_untold_back_is_seen_by_nobody() -> None:
    """B-22 (physical mode): a red back not told to the companion is in no projection."""
    event = kept_event("red", mode="physical")
    for viewer in (None, 0, 1, 2, REFEREE):
        assert "back" not in event.project(viewer)


def test_green_back_is_public() -> None:
    """B-33, §9: a green back is resolved in the open: every viewer sees it."""
    pos = Position(players=2)
    pos.sea("3.4")
    game = pos.game("back", turn=0, hex=hx("3.4"), terrain="beach")
    [event] = [e for e in game.apply(parse("back whale")) if e.kind == "revealed"]
    for viewer in (None, 0, 1, REFEREE):
        assert event.project(viewer)["back"] == "whale"
