"""The invariant checker has teeth: each kind of corrupted state is reported.

A sound position is built, checked clean, then corrupted in one way the rules forbid (a person
in two places, four people in a boat, a seventh shark, a boat on a safe island, a creature on
land, ...); `violations()` must then name the problem.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from companion.engine import Game, Rules, violations
from companion.engine import board as board_
from companion.engine.state import BOAT, LAND, LOST, OFF, SAVED, SEA, State
from tests.position import Position, hx


def sound() -> tuple[Game, dict[str, int]]:
    """A mid-game position with a piece of every kind; the ids of its pieces by role."""
    pos = Position(players=3)
    ids = {
        "lander": pos.land(0, "5.2", 6),
        "swimmer": pos.swimmer(1, "1.3", 2),
        "saved": pos.saved(2, "NW", 3),
    }
    aboard = [pos.passenger(0, 1), pos.passenger(1, 1), pos.passenger(2, 1)]
    ids["boat"] = pos.boat("1.6", aboard)
    ids["aboard"] = aboard[0]
    ids["empty"] = pos.boat("2.3")
    ids["shark"] = pos.creature("shark", "1.8")
    ids["whale"] = pos.creature("whale", "3.2")
    game = pos.game("move")
    assert violations(game) == []
    return game, ids


def reported(state: State, *words: str) -> list[str]:
    """The violations found, after checking that one of them names all `words`."""
    found = violations(state)
    assert found, "the corrupted state passed the checker"
    assert any(all(w in v for w in words) for v in found), found
    return found


def test_a_sound_state_has_no_violations() -> None:
    """The checker is quiet on a sound position and after a whole legal game."""
    game, _ = sound()
    assert violations(game) == [] and violations(game.state) == []
    whole = Game.new(Rules(), players=3, seed=4)
    rng = random.Random(4)
    while not whole.over:
        whole.apply(whole.draw() if whole.is_chance() else rng.choice(whole.legal_actions()))
    assert violations(whole) == []


def test_person_in_two_places() -> None:
    """A person on land who is also listed among another hex's swimmers."""
    game, ids = sound()
    s = game.state
    s.swimmers[hx("1.4")].append(ids["lander"])
    reported(s, "A1")


def test_swimmer_also_in_a_boat() -> None:
    """A swimmer who is also a boat's passenger."""
    game, ids = sound()
    s = game.state
    s.b_people[ids["empty"]].append(ids["swimmer"])
    reported(s, "B1")


def test_lost_person_still_on_the_board() -> None:
    """A person marked lost (eaten) but still listed as swimming."""
    game, ids = sound()
    s = game.state
    s.p_kind[ids["swimmer"]], s.p_at[ids["swimmer"]] = LOST, OFF
    reported(s, "B1")


def test_person_not_where_its_record_says() -> None:
    """A person recorded on one land tile but listed on another."""
    game, ids = sound()
    s = game.state
    p = ids["lander"]
    s.land_people[hx("5.2")].remove(p)
    s.land_people[hx("5.3")].append(p)
    reported(s, "A1")


def test_four_people_in_a_boat() -> None:
    """B-13: a boat carries at most three people."""
    game, ids = sound()
    s = game.state
    b = ids["boat"]
    extra = next(p for p in s.people_of(2) if s.p_kind[p] == LOST)
    s.p_kind[extra], s.p_at[extra] = BOAT, b
    s.b_people[b].append(extra)
    reported(s, f"b{b + 1}", "4")


def test_a_seventh_shark() -> None:
    """§1: the box has six sharks; a seventh on the board is reported."""
    game, _ = sound()
    s = game.state
    s.c_kind.append("shark")
    s.c_pos.append(hx("0.4"))
    s.c_gone.append(False)
    s.reindex()
    reported(s, "7", "shark")


def test_a_back_known_more_often_than_the_deck_holds_it() -> None:
    """B-22: the deck has three beach tiles with a shark; a fourth known is reported."""
    game, _ = sound()
    s = game.state
    s.known["beach"]["shark"] = 4
    reported(s, "4 beach", "shark", "3")


def test_boat_on_a_safe_island() -> None:
    """B-1, B-13: no boat ever enters a safe island."""
    game, ids = sound()
    s = game.state
    s.b_pos[ids["empty"]] = hx("NE")
    s.reindex()
    found = reported(s, f"b{ids['empty'] + 1}")
    assert any("NE" in v for v in found)


def test_two_boats_on_one_space() -> None:
    """B-13: one boat per sea space."""
    game, ids = sound()
    s = game.state
    s.b_pos[ids["empty"]] = s.b_pos[ids["boat"]]
    s.reindex()
    reported(s, "1.6")


def test_boat_in_the_supply_with_people_aboard() -> None:
    """B-36: a boat back in the supply carries nobody."""
    game, ids = sound()
    s = game.state
    s.b_pos[ids["boat"]] = OFF
    s.reindex()
    reported(s, f"b{ids['boat'] + 1}")


@pytest.mark.parametrize("kind", ["shark", "whale", "serpent"])
def test_creature_on_land(kind: str) -> None:
    """B-27: creatures are only ever in the sea."""
    game, ids = sound()
    s = game.state
    c = ids[kind] if kind in ids else s.on_board("serpent")[0]
    s.c_pos[c] = hx("5.3")
    s.reindex()
    reported(s, kind, "5.3")


def test_creature_on_a_safe_island() -> None:
    """B-1: no creature ever enters a safe island."""
    game, ids = sound()
    s = game.state
    s.c_pos[ids["shark"]] = hx("SW")
    s.reindex()
    reported(s, "SW")


def test_removed_creature_still_on_the_board() -> None:
    """B-36: a creature that left the game (whirlpool, repellent) is on no hex."""
    game, ids = sound()
    s = game.state
    s.c_gone[ids["whale"]] = True
    reported(s, "whale")


def test_creature_index_out_of_step() -> None:
    """The board's per-hex creature counts agree with where the creatures are."""
    game, _ = sound()
    s = game.state
    s.n_shark[hx("0.5")] += 1
    reported(s, "shark")


def test_sailable_boats_out_of_step() -> None:
    """The boats each seat may sail, kept for movement, agree with the boats and who is
    aboard: here a seat is told of a boat the others hold (B-14)."""
    game, ids = sound()
    s = game.state
    s.sailable[0].remove(ids["boat"])  # three seats, one each aboard: each may sail it
    reported(s, "seat 1", "sail")


def test_sea_beside_a_hex_out_of_step() -> None:
    """Each hex's sea neighbours, kept for movement and B-21, agree with the island: here a
    tile's removal is not told to one of its neighbours."""
    game, _ = sound()
    s = game.state
    h = next(h for h in board_.LAND if s.terrain[h] is not None)
    n, bit = board_.BIT_BESIDE[h][0]
    s.sea_near[n] |= bit  # h's tile still lies there
    reported(s, board_.name(n), "sea beside")


def test_people_counted_out_of_step() -> None:
    """Each seat's people counted by kind of place, kept for movement, agree with where they
    are: here a lander is counted as a swimmer."""
    game, _ = sound()
    s = game.state
    s.tally[0][LAND] -= 1
    s.tally[0][SEA] += 1
    reported(s, "seat 1", "counted")


def test_occupants_out_of_step() -> None:
    """What stands on each hex, kept for the vacant spaces (a red tile's creature, a dive, a
    boat at setup), agrees with the pieces: here a shark leaves without the count knowing."""
    game, ids = sound()
    s = game.state
    assert not s.vacant(hx("1.8")) and not s.vacant(hx("1.3"))  # the shark's, the swimmer's
    s.n_shark[hx("1.8")] -= 1
    s.c_pos[ids["shark"]] = OFF
    found = reported(s, "1.8", "occupants")
    assert all("shark" not in v for v in found)  # only the kept count is out of step


def test_values_left_out_of_step() -> None:
    """The values each seat has left to place, kept for placement, agree with the values its
    people carry (B-4, B-5): here seat 1's lander, placed as a 6, is not taken from them."""
    game, _ = sound()
    s = game.state
    assert 6 not in s.left_values[0] and violations(s) == []
    s.left_values[0][6] = 1
    reported(s, "seat 1", "values")


@pytest.mark.parametrize(
    ("corrupt", "words"),
    [
        (lambda s, p: (s.p_kind.__setitem__(p, SAVED), s.p_at.__setitem__(p, hx("1.3"))), "A1"),
        (lambda s, p: s.terrain.__setitem__(hx("5.2"), None), "5.2"),
    ],
    ids=["saved-off-an-island", "standing-on-sunk-land"],
)
def test_person_where_no_person_can_be(corrupt: Callable[[State, int], object], words: str) -> None:
    """B-19: the saved are on a safe island; B-12: people on land stand on a land tile."""
    game, ids = sound()
    s = game.state
    corrupt(s, ids["lander"])
    s.reindex()
    reported(s, words)


def test_swimmer_on_land() -> None:
    """B-12: once in the sea a person never stands on a land tile as a swimmer."""
    game, ids = sound()
    s = game.state
    p = ids["swimmer"]
    s.p_at[p] = hx("5.3")
    s.reindex()
    reported(s, "5.3")


def test_every_kind_of_corruption_is_caught_in_a_real_game() -> None:
    """The same corruptions, each on a copy of a real mid-game state, are each reported."""
    game = Game.new(Rules(), players=4, seed=9)
    rng = random.Random(9)
    while game.phase != "move" or game.state.turns_taken[0] < 2:
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
    assert violations(game) == []
    s0 = game.state
    on_land = next(p for p in s0.p_owner if s0.p_kind[p] == LAND)
    boat = next(b for b, pos in enumerate(s0.b_pos) if pos != OFF)
    sea = next(h for h in range(board_.SIZE) if s0.vacant(h))
    land = next(h for h in board_.LAND if s0.terrain[h] is not None)

    def twice(s: State) -> None:
        s.swimmers[sea].append(on_land)

    def crowded(s: State) -> None:
        movers = [p for p in s.p_owner if s.p_kind[p] == LAND][:4]
        for p in movers:
            s.p_kind[p], s.p_at[p] = BOAT, boat
        s.b_people[boat].extend(movers)
        s.reindex()

    def seventh_shark(s: State) -> None:
        s.c_kind = [*s.c_kind, "shark"]  # a copy shares the kinds (they never change in play)
        s.c_pos.append(sea)
        s.c_gone.append(False)
        s.reindex()

    def boat_ashore(s: State) -> None:
        s.b_pos[boat] = board_.SAFE_ISLANDS[0]
        s.reindex()

    def beast_ashore(s: State) -> None:
        s.c_pos[s.on_board("serpent")[0]] = land
        s.reindex()

    def swimmer_ashore(s: State) -> None:
        s.p_kind[on_land] = SEA
        s.reindex()

    for corrupt in (twice, crowded, seventh_shark, boat_ashore, beast_ashore, swimmer_ashore):
        s = s0.copy()
        corrupt(s)
        assert violations(s), corrupt.__name__
    assert violations(game) == []  # the copies were corrupted, not the game


def test_more_people_of_a_value_than_the_box_gives() -> None:
    """B-4: each seat's people carry the values of its set, one 6 among them; a seat whose
    people show two 6s is reported by the value, not only as values left out of step."""
    game, ids = sound()
    s = game.state
    assert s.p_value[ids["lander"]] == 6
    s.p_value[ids["aboard"]] = 6  # seat 1's passenger, shown as a second 6
    reported(s, "seat 1", "2 people of value 6", "gives each 1")


def test_an_unknown_person_on_the_board() -> None:
    """Only the game's own people stand on the board: a person id no seat has, swimming."""
    game, _ = sound()
    s = game.state
    s.swimmers[hx("1.3")].append(99)
    reported(s, "unknown person 99")
