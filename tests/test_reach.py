"""Where one tap can take a piece: every space a whole move can end on, with its path, so that
the phone moves a person, boat or creature several spaces at once. Each path found is one the
engine accepts as a whole move, and nothing past the move's limit is offered."""

from __future__ import annotations

from companion.engine import Game, board, parse
from companion.engine.paths import reach
from tests.position import Position, hx


def alone() -> Position:
    pos = Position(players=2)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def every_path_is_taken_whole(game: Game, verb: str, piece: int, label: str) -> None:
    for h, path in reach(game, verb, piece).items():
        trial = game.copy()
        trial.apply(parse(f"{verb} {label} {' '.join(board.name(x) for x in path)}"))
        assert path[-1] == h


def test_B_8_a_walker_reaches_three_spaces_and_no_further() -> None:
    """B-8: three points take a person three spaces; no space four steps away is offered."""
    pos = alone()
    a1 = pos.land(0, "5.2")
    game = pos.game("move")
    found = reach(game, "go", a1)
    assert found[hx("5.5")] == [hx("5.3"), hx("5.4"), hx("5.5")]
    assert hx("5.6") not in found and hx("5.2") not in found
    assert max(len(p) for p in found.values()) == 3 and min(len(p) for p in found.values()) == 2
    every_path_is_taken_whole(game, "go", a1, "A1")


def test_B_16_a_swimmer_is_offered_no_path() -> None:
    """B-16: a swimmer moves one sea space a turn: no whole move of two spaces."""
    pos = alone()
    a1 = pos.swimmer(0, "1.3")
    assert reach(pos.game("move"), "go", a1) == {}


def test_B_25_a_shark_path_ends_where_it_eats() -> None:
    """B-25: two spaces for a shark, and none beyond swimmers it enters."""
    pos = alone()
    shark = pos.creature("shark", "1.5")
    pos.swimmer(1, "1.6")
    game = pos.game("roll")
    game.apply(parse("roll shark"))
    found = reach(game, "creature", shark)
    assert found and all(len(p) == 2 for p in found.values())
    assert all(hx("1.6") not in p[:-1] for p in found.values())
    every_path_is_taken_whole(game, "creature", shark, "shark1")


def test_B_13_a_boat_path_is_a_whole_sail() -> None:
    """B-8, B-13: a boat sails up to three sea spaces in one tap."""
    pos = alone()
    pos.land(0, "5.2")
    b = pos.boat("1.5")
    game = pos.game("move")
    found = reach(game, "sail", b)
    assert found and max(len(p) for p in found.values()) == 3
    every_path_is_taken_whole(game, "sail", b, "b1")
