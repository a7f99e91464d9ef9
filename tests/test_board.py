"""The printed board: its hexes, the island, the safe islands, and where each hex is drawn (B-1)."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from companion.engine import Game, IllegalAction, Rules, board, notation, parse
from tests.position import Position, hx

CORNERS = {
    "NW": {"1.1", "2.0"},
    "NE": {"1.10", "2.10"},
    "SW": {"10.0", "11.1"},
    "SE": {"10.10", "11.10"},
}


def offered(game: Game) -> set[str]:
    return {notation(a) for a in game.legal_actions()}


def test_B_1_board_has_133_sea_and_island_hexes_and_4_safe_islands() -> None:
    """B-1: 13 rows of 7,10,11,10,11,12,11,12,11,10,11,10,7 hexes, plus 4 safe islands as nodes."""
    rows = Counter(r for i, (r, _) in enumerate(board.CELLS) if not board.IS_SAFE[i])
    assert [rows[r] for r in range(13)] == [7, 10, 11, 10, 11, 12, 11, 12, 11, 10, 11, 10, 7]
    assert sum(rows.values()) == 133
    assert sorted(board.name(i) for i in board.SAFE_ISLANDS) == ["NE", "NW", "SE", "SW"]
    assert board.SIZE == 133 + 4


def test_B_1_island_has_40_land_positions_around_the_lagoon() -> None:
    """B-1: 40 land positions, none of them a safe island; the lagoon is not one of them."""
    assert len(set(board.LAND)) == 40
    assert not any(board.IS_SAFE[h] for h in board.LAND)
    assert board.name(board.LAGOON) == "6.5"
    assert board.LAGOON not in board.LAND
    # the lagoon is enclosed by land on all six sides
    assert all(n in board.LAND for n in board.NEIGHBOURS[board.LAGOON])
    assert len(board.NEIGHBOURS[board.LAGOON]) == 6


@pytest.mark.parametrize("corner", sorted(CORNERS))
def test_B_1_safe_island_touches_exactly_its_two_access_hexes(corner: str) -> None:
    """B-1: each safe island is a node touching exactly its 2 access hexes, and nothing else."""
    island = hx(corner)
    assert {board.name(n) for n in board.NEIGHBOURS[island]} == CORNERS[corner]
    assert {board.name(h) for h, i in board.ACCESS.items() if i == island} == CORNERS[corner]
    # and no other hex lists the safe island among the spaces that can ever be sea
    assert not any(island in board.WATER_NEIGHBOURS[h] for h in range(board.SIZE))


def test_B_1_no_boat_ever_sails_onto_a_safe_island() -> None:
    """B-1: an empty boat on each of the 8 access hexes is offered sea spaces, never the island."""
    pos = Position()
    pos.clear_serpents()
    for corner in sorted(CORNERS):
        for name in sorted(CORNERS[corner]):
            pos.boat(name)
    game = pos.game("move")
    sails = [a for a in game.legal_actions() if a[0] == "sail"]
    assert len({a[1] for a in sails}) == 8  # every boat can move somewhere
    assert not any(board.IS_SAFE[a[2]] for a in sails)
    assert game.state.b_pos[0] == hx("1.10")
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("sail b1 NE"))  # b1 lies on 1.10, an access hex of NE
    assert refused.value.rule == "B-13"


def test_B_1_sailing_onto_a_safe_island_is_refused_and_changes_nothing() -> None:
    """B-1: a boat on an access hex told to sail onto its safe island is refused (B-13)."""
    pos = Position()
    pos.clear_serpents()
    b = pos.boat("2.0", [pos.passenger(0)])
    game = pos.game("move")
    assert "sail b1 NW" not in offered(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(parse("sail b1 NW"))
    assert refused.value.rule == "B-13"
    assert "safe island" in refused.value.message
    assert game.state.b_pos[b] == hx("2.0")
    assert game.state.points == 3


@pytest.mark.parametrize("kind", ["serpent", "shark", "whale"])
def test_B_1_no_creature_ever_moves_onto_a_safe_island(kind: str) -> None:
    """B-1: a creature on an access hex is offered only sea spaces, never the safe island."""
    pos = Position()
    pos.clear_serpents()
    pos.creature(kind, "1.1")
    pos.creature(kind, "11.10")
    game = pos.game("creature", kind=kind, creature=None, steps=0)
    targets = {a[2] for a in game.legal_actions() if a[0] == "creature"}
    assert targets  # the creatures can move
    assert not any(board.IS_SAFE[h] for h in targets)
    with pytest.raises(IllegalAction) as refused:
        game.apply(("creature", game.legal_actions()[0][1], hx("NW")))
    assert refused.value.rule == "B-27"


def test_B_1_a_real_game_lays_40_tiles_and_no_tile_on_sea_or_safe_island() -> None:
    """B-1: the layout fills exactly the 40 land positions; the lagoon and safe islands stay bare."""
    game = Game.new(Rules(), players=2, seed=5)
    laid = []
    while game.is_chance():
        laid += [e.data["hex"] for e in game.apply(game.draw()) if e.kind == "laid"]
    assert sorted(laid) == sorted(board.name(h) for h in board.LAND)
    terrain = game.state.terrain
    assert all(terrain[h] is None for h in (board.LAGOON, *board.SAFE_ISLANDS))
    assert game.phase == "place"


def test_B_1_plane_puts_the_lagoon_at_the_origin() -> None:
    """B-1: board.plane maps the lagoon (6, 5) to (0, 0) in hex units."""
    assert board.plane(6, 5) == pytest.approx((0.0, 0.0))
    # rows are 1.5 hex units apart, y growing downwards; x to the right
    _, y = board.plane(5, 5)
    assert y == pytest.approx(-1.5)
    assert board.plane(6, 6)[0] > 0 > board.plane(6, 4)[0]


def test_B_1_plane_puts_every_pair_of_neighbours_sqrt3_apart() -> None:
    """B-1: the drawing agrees with the adjacency: neighbours are exactly √3 apart, others more."""
    centres = [board.plane(r, c) for r, c in board.CELLS]
    for i in range(board.SIZE):
        for j in range(i + 1, board.SIZE):
            d = math.dist(centres[i], centres[j])
            if j in board.NEIGHBOURS[i]:
                assert d == pytest.approx(math.sqrt(3)), (board.name(i), board.name(j))
            else:
                assert d > math.sqrt(3) + 0.1, (board.name(i), board.name(j))


def test_B_1_plane_draws_safe_islands_where_their_own_hex_lies() -> None:
    """B-1: each safe island is drawn as one hex at its own (r, c), next to its access hexes."""
    for corner, access in CORNERS.items():
        r, c = board.CELLS[hx(corner)]
        for name in access:
            ar, ac = board.CELLS[hx(name)]
            assert math.dist(board.plane(r, c), board.plane(ar, ac)) == pytest.approx(math.sqrt(3))
