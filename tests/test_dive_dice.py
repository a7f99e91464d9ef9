"""Challenge #6's dive dice: what they show and what each throw lets the roller move (D-1 … D-5).

Faces are entered from the table (``dive starfish D``) or drawn by the engine (``game.draw()``);
both go through the same `apply`. The last tests check the engine's digital dice against their
faces with a chi-square test (fixed seeds, so it cannot flake) and show that the same test
rejects a loaded die.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from companion.engine import Game, MalformedAction, parse
from companion.engine import board as board_
from companion.engine.state import BOAT, LOST
from tests.position import SEA, Position, at, hx, kinds, refused

DIVE = ("dive-dice",)
DIE1 = ("serpent", "shark", "whale", "dolphin", "boat", "starfish")  # D-3, the rulebook's faces
DIE2 = ("1", "1", "2", "2", "3", "D")


def sea(modules: tuple[str, ...] = DIVE, mode: str = "digital", **options: str) -> Position:
    """Two players with the dive dice, no serpents out; seat 2 has a person deep inland (4.5
    touches no sea), so the turn passes to a real step 2. Row 1 is open sea, far from land."""
    pos = Position(players=2, mode=mode, modules=modules, **options)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def dived(pos: Position, kind: str, dist: str, turn: int = 0) -> Game:
    """The game at `turn`'s step 4 with the dive dice showing `kind` and `dist`."""
    game = pos.game("roll", turn=turn)
    assert game.is_chance()
    game.apply(parse(f"dive {kind} {dist}"))
    return game


def creature_name(game: Game, c: int) -> str:
    kinds_ = game.state.c_kind
    return f"{kinds_[c]}{c - kinds_.index(kinds_[c]) + 1}"


def first_moves(game: Game) -> dict[str, set[str]]:
    """What may move (creature or boat) and to where, as names."""
    out: dict[str, set[str]] = {}
    for a in game.legal_actions():
        if a[0] == "creature":
            out.setdefault(creature_name(game, a[1]), set()).add(board_.name(a[2]))
        elif a[0] == "sail":
            out.setdefault(f"b{a[1] + 1}", set()).add(board_.name(a[2]))
    return out


def vacant(game: Game) -> set[str]:
    s = game.state
    return {board_.name(h) for h in range(board_.SIZE) if s.vacant(h)}


def passed(game: Game, events: list, to: int = 1) -> bool:
    return "turn" in kinds(events) and game.state.turn == to and game.actor == to


# -- D-1, D-3: the two dice replace the red die; faces entered or drawn ---------------------------


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_D_1_D_3_the_dive_dice_replace_the_red_die(mode: str) -> None:
    """D-1, D-3: at step 4 the table throws two dive dice: die 1 names serpent, shark, whale,
    dolphin, unoccupied boat or starfish, die 2 a distance 1, 2, 3 or D — every pair may be
    entered from the table; the red die is refused (D-1), and faces no die has are malformed."""
    pos = sea(mode=mode)
    pos.creature("shark", "1.2")
    game = pos.game("roll")
    assert set(game.legal_actions()) == {("dive", k, d) for k in DIE1 for d in set(DIE2)}
    assert refused(game, "roll shark").rule == "D-1"
    for bad in ("dive squid 2", "dive shark 4", "dive shark 0"):
        with pytest.raises(MalformedAction):
            game.apply(parse(bad))
    events = game.apply(parse("dive starfish D"))
    assert events[0].kind == "dived"
    assert events[0].data == {"seat": 0, "kind": "starfish", "distance": "D"}
    assert game.view(None)["roll"] == "starfish D" and game.phase == "creature"


def test_D_1_without_the_kit_the_red_die_is_thrown_and_the_dive_dice_refused() -> None:
    """D-1: the dive dice belong to challenge #6 only; a base game rolls the red die."""
    pos = sea(modules=("base",))
    game = pos.game("roll")
    assert {a[0] for a in game.legal_actions()} == {"roll"}
    assert refused(game, "dive shark 2").rule == "B-10"


def test_D_3_the_engine_weights_each_face_of_each_die_equally() -> None:
    """D-3: drawn by the engine, die 1's six faces are equally likely and die 2 shows 1, 1, 2,
    2, 3, D — so 1 and 2 come twice as often as 3 or D; the pair's chances multiply."""
    game = sea().game("roll")
    outcomes = dict(game.chance_outcomes())
    assert len(outcomes) == 24 and sum(outcomes.values()) == pytest.approx(1)
    for k in DIE1:
        for d in set(DIE2):
            p = (1 / 6) * (DIE2.count(d) / 6)
            assert outcomes[("dive", k, d)] == pytest.approx(p)


def first_seed_drawing(pos: Position, wanted: tuple[str, str, str]) -> Game:
    """The position at the roll with the first state seed whose engine throw is `wanted`."""
    game = pos.game("roll")
    for seed in range(2000):
        game.state.seed = seed
        if game.draw() == wanted:
            return game
    raise AssertionError(f"no seed below 2000 draws {wanted}")


def test_D_3_D_4_dice_rolled_by_the_engine_starfish_D() -> None:
    """D-3, D-4 (digital dice): the engine's throw is a legal throw; applied, a starfish with D
    lets the roller dive any one creature or drift any unoccupied boat to any vacant sea
    space. The same state always throws the same."""
    pos = sea()
    shark = pos.creature("shark", "1.3")
    boat = pos.boat("1.8")
    game = first_seed_drawing(pos, ("dive", "starfish", "D"))
    throw = game.draw()
    assert game.draw() == throw and throw in game.legal_actions()
    game.apply(throw)
    assert game.phase == "creature" and game.actor == 0 and game.state.draws == 1
    moves = first_moves(game)
    assert moves == {creature_name(game, shark): vacant(game), f"b{boat + 1}": vacant(game)}
    events = game.apply(parse(f"sail b{boat + 1} 12.8"))
    assert kinds(events)[0] == "drifted" and passed(game, events)
    assert at(game, "12.8") == [f"boat:{boat}"]


def test_D_3_D_4_dice_rolled_by_the_engine_shark_2() -> None:
    """D-3, D-4 (digital dice): a drawn shark and 2 moves only a shark, up to two spaces."""
    pos = sea()
    shark = pos.creature("shark", "1.3")
    pos.creature("whale", "1.8")
    pos.boat("0.5")
    game = first_seed_drawing(pos, ("dive", "shark", "2"))
    game.apply(game.draw())
    name = creature_name(game, shark)
    assert first_moves(game) == {name: {"0.2", "0.3", "1.2", "1.4", "2.2", "2.3"}}
    game.apply(parse(f"creature {name} 1.4"))
    assert ("done",) in game.legal_actions()  # up to two
    events = game.apply(parse(f"creature {name} 1.5"))
    assert passed(game, events) and at(game, "1.5") == ["shark"]


# -- D-3: the starfish ----------------------------------------------------------------------------


def test_D_3_Q_3_the_starfish_is_wild_and_never_names_an_occupied_boat() -> None:
    """D-3, Q-3: the starfish lets the roller move any one serpent, shark, whale, dolphin or
    unoccupied boat — and a squid, since a whale may be moved — but never an occupied boat."""
    pos = sea(modules=("dive-dice", "squid"))
    serpent = pos.creature("serpent", "1.2")
    shark = pos.creature("shark", "1.4")
    whale = pos.creature("whale", "1.6")
    dolphin = pos.creature("dolphin", "1.8")
    squid = pos.creature("squid", "12.5")
    empty = pos.boat("0.3")
    full = pos.boat("0.7", [pos.passenger(0)])
    game = dived(pos, "starfish", "1")
    moves = first_moves(game)
    names = [creature_name(game, c) for c in (serpent, shark, whale, dolphin, squid)]
    assert set(moves) == {*names, f"b{empty + 1}"}
    assert f"b{full + 1}" not in moves
    assert "12.5" in moves[names[4]]  # the squid may stay put
    assert refused(game, f"sail b{full + 1} 0.6").rule == "D-5"


def test_D_3_the_starfish_without_the_squid_kit_offers_no_squid() -> None:
    """D-3: without the Giant Squid the starfish's five choices are all there is."""
    pos = sea()
    pos.creature("whale", "1.6")
    game = dived(pos, "starfish", "2")
    assert set(first_moves(game)) == {"whale1"}


# -- D-4: a number: up to that many; D: any vacant sea space --------------------------------------


def test_D_4_a_number_moves_up_to_that_many_spaces_even_a_serpent() -> None:
    """D-4: with a 3 a serpent (one space on the red die) may go three spaces; it may stop
    earlier; after the third the turn passes."""
    pos = sea()
    c = pos.creature("serpent", "1.2")
    game = dived(pos, "serpent", "3")
    name = creature_name(game, c)
    game.apply(parse(f"creature {name} 1.3"))
    game.apply(parse(f"creature {name} 1.4"))
    assert game.phase == "creature" and ("done",) in game.legal_actions()
    events = game.apply(parse(f"creature {name} 1.5"))
    assert passed(game, events) and at(game, "1.5") == ["serpent"]


def test_D_4_a_1_limits_even_a_whale_to_one_space() -> None:
    """D-4: with a 1 a whale (three spaces on the red die) goes one space, no more."""
    pos = sea()
    c = pos.creature("whale", "1.2")
    game = dived(pos, "whale", "1")
    events = game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    assert passed(game, events) and at(game, "1.3") == ["whale"]


def test_D_4_a_number_still_moves_one_adjacent_sea_space_at_a_time() -> None:
    """D-4 with B-27: a numbered move goes step by step through the sea, never jumping."""
    pos = sea()
    c = pos.creature("shark", "1.2")
    game = dived(pos, "shark", "3")
    assert refused(game, f"creature {creature_name(game, c)} 1.5").rule == "B-27"


def test_D_4_D_dives_a_creature_to_any_vacant_sea_space() -> None:
    """D-4: a D moves the creature to any unoccupied sea space in one go — anywhere on the
    board, but never onto swimmers, boats, creatures, land or a safe island (refused, D-4)."""
    pos = sea()
    c = pos.creature("shark", "1.2")
    pos.swimmer(1, "11.5")
    pos.boat("12.2")
    pos.creature("whale", "10.10")
    game = dived(pos, "shark", "D")
    name = creature_name(game, c)
    targets = first_moves(game)[name]
    assert targets == vacant(game)
    assert {"12.8", "6.5", "0.2"} <= targets
    assert not targets & {"11.5", "12.2", "10.10", "1.2", "3.4", "NW"}
    assert refused(game, f"creature {name} 11.5").rule == "D-4"
    events = game.apply(parse(f"creature {name} 12.8"))
    assert passed(game, events) and at(game, "12.8") == ["shark"] and at(game, "1.2") == []


def test_D_4_D_6_an_unoccupied_boat_moves_by_the_number_and_picks_nobody_up() -> None:
    """D-4, D-6: a boat on die 1 moves an unoccupied boat up to the number; moved onto a
    swimmer it does not pick the swimmer up."""
    pos = sea()
    boat = pos.boat("1.2")
    b2 = pos.swimmer(1, "1.4")
    game = dived(pos, "boat", "2")
    game.apply(parse(f"sail b{boat + 1} 1.3"))
    events = game.apply(parse(f"sail b{boat + 1} 1.4"))
    assert passed(game, events)
    assert game.state.p_kind[b2] == SEA and not game.state.b_people[boat]
    assert sorted(at(game, "1.4")) == sorted([f"swim:{b2}", f"boat:{boat}"])


def test_D_4_D_an_unoccupied_boat_drifts_to_any_vacant_sea_space() -> None:
    """D-4: with a D the unoccupied boat drifts to any vacant sea space."""
    pos = sea()
    boat = pos.boat("1.2")
    pos.creature("shark", "12.5")
    game = dived(pos, "boat", "D")
    assert first_moves(game) == {f"b{boat + 1}": vacant(game)}
    assert "12.5" not in vacant(game)
    events = game.apply(parse(f"sail b{boat + 1} 11.9"))
    assert passed(game, events) and at(game, "11.9") == [f"boat:{boat}"]


# -- D-5: occupied boats stay; creatures stop where they attack -----------------------------------


@pytest.mark.parametrize("dist", ["1", "3", "D"])
def test_D_5_an_occupied_boat_never_moves_by_the_dive_dice(dist: str) -> None:
    """D-5: the roller's own occupied boat is not an 'unoccupied boat': with no unoccupied boat
    on the board the boat throw moves nothing (B-28) and the turn passes."""
    pos = sea()
    boat = pos.boat("1.2", [pos.passenger(0)])
    game = pos.game("roll")
    events = game.apply(parse(f"dive boat {dist}"))
    assert passed(game, events) and "drifted" not in kinds(events)
    assert at(game, "1.2")[-1] == f"boat:{boat}"


def test_D_5_occupied_boat_refused_when_an_unoccupied_one_may_move() -> None:
    """D-5: with both kinds of boat on the board only the unoccupied one is offered."""
    pos = sea()
    full = pos.boat("1.2", [pos.passenger(0)])
    empty = pos.boat("1.8")
    game = dived(pos, "boat", "1")
    assert set(first_moves(game)) == {f"b{empty + 1}"}
    assert refused(game, f"sail b{full + 1} 1.3").rule == "D-5"


def test_D_5_a_shark_stops_at_the_first_swimmers_and_eats_them() -> None:
    """D-5: with a 3 the shark enters swimmers after one space: it stops and eats them; the
    swimmer one space further lives."""
    pos = sea()
    c = pos.creature("shark", "1.2")
    near = pos.swimmer(1, "1.3")
    far = pos.swimmer(1, "1.4")
    game = dived(pos, "shark", "3")
    events = game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    assert kinds(events)[:2] == ["creature_moved", "eaten"] and passed(game, events)
    assert game.state.p_kind[near] == LOST and game.state.p_kind[far] == SEA


def test_D_5_a_whale_stops_at_an_occupied_boat_and_capsizes_it() -> None:
    """D-5: a whale with a 3 stops at the first occupied boat and capsizes it (B-26)."""
    pos = sea()
    c = pos.creature("whale", "1.2")
    b2 = pos.passenger(1)
    boat = pos.boat("1.3", [b2])
    game = dived(pos, "whale", "3")
    events = game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    assert "wrecked" in kinds(events) and passed(game, events)
    assert game.state.p_kind[b2] == SEA and game.state.b_pos[boat] == -1


def test_D_5_a_serpent_stops_at_an_occupied_boat_and_destroys_it() -> None:
    """D-5: a serpent with a 2 stops at an occupied boat and destroys it with its passengers."""
    pos = sea()
    c = pos.creature("serpent", "1.2")
    b2 = pos.passenger(1)
    pos.boat("1.3", [b2])
    game = dived(pos, "serpent", "2")
    events = game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    assert "sunk_boat" in kinds(events) and passed(game, events)
    assert game.state.p_kind[b2] == LOST


def test_D_5_protected_swimmers_do_not_stop_a_shark() -> None:
    """D-5: a swimmer a dolphin protects is not something a shark can attack: the shark with a
    3 swims through that space and goes on; the swimmer lives."""
    pos = sea()
    c = pos.creature("shark", "1.2")
    d = pos.creature("dolphin", "1.3")
    b2 = pos.swimmer(1, "1.3")
    pos.s.guard[d] = b2
    game = dived(pos, "shark", "3")
    name = creature_name(game, c)
    events = game.apply(parse(f"creature {name} 1.3"))
    assert kinds(events) == ["creature_moved"] and game.phase == "creature"
    game.apply(parse(f"creature {name} 1.4"))
    assert game.state.p_kind[b2] == SEA and game.state.guard == {d: b2}
    assert at(game, "1.4") == ["shark"]


def test_D_5_a_serpent_eats_the_unprotected_swimmer_but_not_the_protected_one() -> None:
    """D-5, D-6: entering a space with a protected and an unprotected swimmer, the serpent
    stops and eats only the unprotected one."""
    pos = sea()
    c = pos.creature("serpent", "1.2")
    d = pos.creature("dolphin", "1.3")
    safe, lost = pos.swimmer(1, "1.3"), pos.swimmer(1, "1.3")
    pos.s.guard[d] = safe
    game = dived(pos, "serpent", "3")
    events = game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    assert passed(game, events)
    assert game.state.p_kind[safe] == SEA and game.state.p_kind[lost] == LOST


# -- B-28 with the dive dice, and creature_move ---------------------------------------------------


@pytest.mark.parametrize("option", ["optional", "mandatory"])
@pytest.mark.parametrize(("kind", "dist"), [("dolphin", "2"), ("whale", "D"), ("boat", "3")])
def test_B_28_D_3_nothing_of_the_thrown_kind_on_the_board_nothing_moves(
    kind: str, dist: str, option: str
) -> None:
    """B-28 with D-3: a throw naming a kind of which nothing is on the board moves nothing,
    whatever creature_move says; the turn passes."""
    pos = sea(creature_move=option)
    pos.creature("shark", "1.2")
    game = pos.game("roll")
    events = game.apply(parse(f"dive {kind} {dist}"))
    assert passed(game, events) and "creature_moved" not in kinds(events)
    assert at(game, "1.2") == ["shark"]


def test_D_4_B_10_creature_move_optional_lets_the_roller_decline() -> None:
    """D-4, B-10 (creature_move=optional): the roller may move nothing at all."""
    pos = sea(creature_move="optional")
    pos.creature("shark", "1.2")
    game = dived(pos, "shark", "2")
    assert ("done",) in game.legal_actions()
    events = game.apply(parse("done"))
    assert passed(game, events) and at(game, "1.2") == ["shark"]


def test_D_4_B_10_creature_move_mandatory_with_the_dive_dice() -> None:
    """D-4, B-10 (creature_move=mandatory): the thrown creature must move at least one space,
    then may stop short of the number ("up to")."""
    pos = sea(creature_move="mandatory")
    c = pos.creature("shark", "1.2")
    game = dived(pos, "shark", "3")
    assert ("done",) not in game.legal_actions()
    assert refused(game, "done").rule == "B-10"
    game.apply(parse(f"creature {creature_name(game, c)} 1.3"))
    events = game.apply(parse("done"))
    assert passed(game, events) and at(game, "1.3") == ["shark"]


def test_D_5_a_boat_throw_does_not_move_the_rollers_own_controlled_boat_people() -> None:
    """D-5: the dive dice move boats, never their passengers' people: an unoccupied boat moved
    next to a person's boat leaves that person where it was."""
    pos = sea()
    a1 = pos.passenger(0)
    full = pos.boat("1.4", [a1])
    empty = pos.boat("1.2")
    game = dived(pos, "boat", "1")
    game.apply(parse(f"sail b{empty + 1} 1.3"))
    assert game.state.p_kind[a1] == BOAT and game.state.b_pos[full] == hx("1.4")


# -- the digital dice against their faces: chi-square ----------------------------------------------

CRITICAL_999 = {3: 16.266, 5: 20.515}
"""Chi-square 0.999 quantiles for 3 and 5 degrees of freedom (standard tables)."""
N = 6000
DIE1_P = {k: 1 / 6 for k in DIE1}
DIE2_P = {d: DIE2.count(d) / 6 for d in set(DIE2)}


def chi_square(sample: list[str], expected: dict[str, float]) -> float:
    counts = Counter(sample)
    assert set(counts) <= set(expected), f"faces no die has: {set(counts) - set(expected)}"
    n = len(sample)
    return sum((counts[k] - n * p) ** 2 / (n * p) for k, p in expected.items())


def engine_throws(n: int = N) -> list[tuple[str, str]]:
    """The engine's first throw at the roll of `n` games with state seeds 0 … n-1."""
    game = sea().game("roll")
    out = []
    for seed in range(n):
        game.state.seed = seed
        verb, kind, dist = game.draw()
        assert verb == "dive"
        out.append((kind, dist))
    return out


def test_D_3_the_digital_dive_dice_match_their_faces_chi_square() -> None:
    """D-3: over 6000 engine throws (state seeds 0 … 5999, fixed: no flakes), die 1 is uniform
    over its six faces and die 2 matches 1, 1, 2, 2, 3, D: each chi-square statistic is below
    the 0.999 critical value (5 and 3 degrees of freedom)."""
    throws = engine_throws()
    assert chi_square([k for k, _ in throws], DIE1_P) < CRITICAL_999[5]
    assert chi_square([d for _, d in throws], DIE2_P) < CRITICAL_999[3]


def test_D_3_the_chi_square_test_rejects_loaded_dice() -> None:
    """D-3 (negative control): the same test rejects a die 1 loaded towards the starfish
    (1/5 instead of 1/6) and a die 2 that shows 1, 2, 3 and D equally often (one face each
    of four), each sampled 6000 times with a fixed seed."""
    rng = random.Random(20240601)
    loaded = rng.choices(DIE1, weights=[4, 4, 4, 4, 4, 5], k=N)
    assert chi_square(loaded, DIE1_P) > CRITICAL_999[5]
    four_faces = rng.choices(("1", "2", "3", "D"), k=N)
    assert chi_square(four_faces, DIE2_P) > CRITICAL_999[3]
    fair = rng.choices(DIE1, k=N)  # and the test passes a fair die drawn the same way
    assert chi_square(fair, DIE1_P) < CRITICAL_999[5]
