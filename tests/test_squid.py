"""The Giant Squid: how squids enter, move and attack, and how they meet whales (Q-1 … Q-7)."""

from __future__ import annotations

import pytest

from companion.engine import Game, RulesError, parse
from companion.engine import board as board_
from companion.engine.state import BOAT, LAND, LOST, OFF, person_name
from tests.position import SEA, Position, at, hx, kinds, refused

SQUID = ("squid",)
BOTH = ("dive-dice", "squid")
VARIANT = ("squid", "squid-variant-1")


def sea(modules: tuple[str, ...] = SQUID, mode: str = "digital", **options: str) -> Position:
    """Two players with the Giant Squid and no serpents out; seat 2 keeps a person on 4.5,
    which touches no sea, so no squid ever reaches it and seat 2's turn stops at step 2. Row 1
    is open sea two spaces from any land."""
    pos = Position(players=2, mode=mode, modules=modules, **options)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def names(people: list[int]) -> set[str]:
    return {person_name(p) for p in people}


def grabs(game: Game) -> set[str]:
    return {person_name(a[1]) for a in game.legal_actions() if a[0] == "grab"}


def squid_moves(game: Game, c: int) -> set[str]:
    """Where squid c may go now (creature steps, or a tile's put)."""
    return {board_.name(a[2]) for a in game.legal_actions()
            if a[0] in ("creature", "put") and a[1] == c}  # fmt: skip


def vacant(game: Game) -> set[str]:
    s = game.state
    return {board_.name(h) for h in range(board_.SIZE) if s.vacant(h)}


def gone(game: Game, c: int) -> bool:
    return game.state.c_pos[c] == OFF and game.state.c_gone[c]


def whale_back(pos: Position, tile: str = "3.4", turn: int = 0) -> tuple[Game, list]:
    """`turn`'s step 3: tile `tile` sinks and shows a whale."""
    game = pos.game("sink", turn=turn)
    game.apply(parse(f"sink {tile}"))
    events = game.apply(parse("back whale"))
    return game, events


# -- a whale back brings a squid ---------------------------------------------------------


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_Q_1_a_whale_back_brings_a_squid_placed_by_the_revealer(mode: str) -> None:
    """Q-1: the whale goes on the sunk tile's space and a squid enters too, on a vacant sea
    space next to a land tile that the revealer (here seat 2) chooses; then step 4 goes on."""
    pos = sea(mode=mode)
    pos.land(0, "9.5")  # seat 1 (not the revealer) has people: the turn is seat 2's
    pos.boat("2.6")
    game, events = whale_back(pos, turn=1)
    assert "creature_placed" in kinds(events) and at(game, "3.4") == ["whale"]
    assert game.phase == "interrupt" and game.actor == 1
    squid = game.state.creatures_in_supply("squid")[0]
    offered = {board_.name(a[2]) for a in game.legal_actions() if a[1] == squid}
    s = game.state
    next_to_land = {
        board_.name(h)
        for h in range(board_.SIZE)
        if s.vacant(h) and any(s.terrain[n] for n in board_.WATER_NEIGHBOURS[h])
    }
    assert offered == next_to_land
    assert {"2.5", "6.5", "2.4"} <= offered  # 2.4 still touches 3.5
    # far from land; no longer next to land (3.3, 3.4 are sea); the whale; a boat; land
    assert not offered & {"1.5", "2.8", "2.3", "3.4", "2.6", "4.5"}
    assert refused(game, "put squid1 1.5").rule == "Q-1"
    events = game.apply(parse("put squid1 2.5"))
    assert at(game, "2.5") == ["squid"] and game.phase == "roll" and game.is_chance()


def test_Q_1_no_squid_left_in_the_supply_no_squid_enters() -> None:
    """Q-1: there are five squids; with all five on the board the whale comes alone."""
    pos = sea()
    for h in ("12.2", "12.3", "12.4", "12.5", "12.6"):
        pos.creature("squid", h)
    game, events = whale_back(pos)
    assert at(game, "3.4") == ["whale"]
    assert {"piece": "squid", "hex": "3.4"} in [e.data for e in events if e.kind == "no_piece"]
    assert game.phase == "roll" and not game.state.pending


def test_Q_1_squids_gone_from_the_game_do_not_come_back() -> None:
    """Q-1: a squid removed from the game (by a whale, a whirlpool) is not in the supply."""
    pos = sea()
    for h in ("12.2", "12.3", "12.4", "12.5"):
        pos.creature("squid", h)
    last = pos.creature("squid", "12.6")
    pos.s.c_pos[last], pos.s.c_gone[last] = OFF, True
    game, _ = whale_back(pos)
    assert game.phase == "roll" and not game.state.pending


def test_Q_1_without_the_squid_kit_a_whale_back_brings_only_a_whale() -> None:
    """Q-1 (only with the Giant Squid): a base game's whale back places no squid."""
    pos = sea(modules=("base",))
    game, _ = whale_back(pos)
    assert at(game, "3.4") == ["whale"] and game.phase == "roll"
    assert not game.state.on_board("squid")


# -- the squid's entry, squid_entry = must | may | none -------------------------------------


def entry(option: str) -> tuple[Game, list[int], int]:
    """A squid entering on 2.6, next to 3.6 (B2) and 3.7 (A1, B3); A2 on 3.5 is not next to it."""
    pos = sea(squid_entry=option)
    b2, a1, b3 = pos.land(1, "3.6"), pos.land(0, "3.7"), pos.land(1, "3.7")
    a2 = pos.land(0, "3.5")
    game, _ = whale_back(pos)
    game.apply(parse("put squid1 2.6"))
    return game, [b2, a1, b3], a2


def test_Q_2_squid_entry_must_removes_one_person_next_to_it() -> None:
    """Q-2 (squid_entry=must, the English text and default): entering next to land tiles with
    people, the squid removes one person from one adjacent tile — the placing player chooses
    among all of them (Q-4) and may not decline; nobody else is touched."""
    game, near, far = entry("must")
    assert game.phase == "interrupt" and game.actor == 0
    assert grabs(game) == names(near) and ("done",) not in game.legal_actions()
    assert refused(game, "done").rule == "Q-2"
    assert refused(game, f"grab {person_name(far)}").rule == "Q-2"
    events = game.apply(parse(f"grab {person_name(near[2])}"))
    assert events[0].kind == "grabbed" and events[0].data["person"] == person_name(near[2])
    assert game.state.p_kind[near[2]] == LOST
    assert [game.state.p_kind[p] for p in (*near[:2], far)] == [LAND] * 3
    assert game.phase == "roll"


def test_Q_2_squid_entry_may_lets_the_placer_decline() -> None:
    """Q-2 (squid_entry=may, the French text): the placing player may remove one person, or
    decline with `done`; declining removes nobody."""
    game, near, far = entry("may")
    assert grabs(game) == names(near) and ("done",) in game.legal_actions()
    game.apply(parse("done"))
    assert all(game.state.p_kind[p] == LAND for p in (*near, far))
    assert game.phase == "roll"


def test_Q_2_squid_entry_may_still_allows_the_grab() -> None:
    """Q-2 (squid_entry=may): taking one person is still allowed."""
    game, near, _ = entry("may")
    game.apply(parse(f"grab {person_name(near[0])}"))
    assert game.state.p_kind[near[0]] == LOST and game.phase == "roll"


def test_Q_2_squid_entry_none_variant_2_removes_nobody() -> None:
    """Q-2 (squid_entry=none, variant #2): the entering squid removes nobody, no question is
    asked, and step 4 follows at once."""
    game, near, far = entry("none")
    assert game.phase == "roll" and not game.state.pending
    assert all(game.state.p_kind[p] == LAND for p in (*near, far))


@pytest.mark.parametrize("option", ["must", "may", "none"])
def test_Q_2_entering_away_from_people_asks_nothing(option: str) -> None:
    """Q-2: next to land tiles without people the entering squid removes nobody."""
    pos = sea(squid_entry=option)
    a1 = pos.land(0, "3.7")
    game, _ = whale_back(pos)
    game.apply(parse("put squid1 6.5"))  # the lagoon: land all round, nobody on it
    assert game.phase == "roll" and game.state.p_kind[a1] == LAND


# -- a squid moves instead of a whale ------------------------------------------------------


def test_Q_3_red_die_whale_moves_a_squid_up_to_three_spaces_without_any_whale() -> None:
    """Q-3: the red die's whale lets a squid move instead — even with no whale on the board —
    up to three spaces (it may stop earlier); it may not move on a shark."""
    pos = sea()
    c = pos.creature("squid", "1.3")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    assert squid_moves(game, c) == {"0.2", "0.3", "1.2", "1.4", "2.2", "2.3", "1.3"}
    game.apply(parse("creature squid1 1.4"))
    assert ("done",) in game.legal_actions()
    game.apply(parse("creature squid1 1.5"))
    events = game.apply(parse("creature squid1 1.6"))
    assert "turn" in kinds(events) and at(game, "1.6") == ["squid"]
    shark_roll = sea()
    shark_roll.creature("squid", "1.3")
    shark_roll.creature("shark", "12.5")
    game = shark_roll.game("roll")
    game.apply(parse("roll shark"))
    assert refused(game, "creature squid1 1.4").rule == "B-10"


def test_Q_3_a_whale_or_a_squid_either_may_move_on_a_whale() -> None:
    """Q-3: with both on the board the roller chooses the whale or the squid."""
    pos = sea()
    pos.creature("whale", "1.3")
    pos.creature("squid", "1.8")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    movers = {game.state.c_kind[a[1]] for a in game.legal_actions() if a[0] == "creature"}
    assert movers == {"whale", "squid"}


def test_Q_3_Q_4_staying_put_counts_as_a_move_and_the_squid_attacks() -> None:
    """Q-3, Q-4: the squid may stay where it is; that is its move, and its attack follows: next
    to a land tile with people, one person is removed."""
    pos = sea()
    pos.creature("squid", "2.5")
    a1 = pos.land(0, "3.5")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    game.apply(parse("creature squid1 2.5"))
    assert game.phase == "interrupt" and grabs(game) == {person_name(a1)}
    events = game.apply(parse(f"grab {person_name(a1)}"))
    assert game.state.p_kind[a1] == LOST and "turn" in kinds(events)


@pytest.mark.parametrize("option", ["optional", "mandatory"])
def test_Q_3_B_10_creature_move_and_the_squid(option: str) -> None:
    """Q-3 with B-10: under creature_move=mandatory the roller may not decline, but staying put
    is a move; under optional the roller may decline (and then the squid does not attack)."""
    pos = sea(creature_move=option)
    pos.creature("squid", "2.5")
    a1 = pos.land(0, "3.5")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    assert ("creature", game.state.on_board("squid")[0], hx("2.5")) in game.legal_actions()
    if option == "mandatory":
        assert refused(game, "done").rule == "B-10"
        return
    events = game.apply(parse("done"))
    assert "turn" in kinds(events) and game.state.p_kind[a1] == LAND


def test_Q_3_Q_4_the_squid_stops_next_to_land_with_people() -> None:
    """Q-3, Q-4: with spaces to go the squid stops on entering a space next to a land tile with
    people and takes one of them."""
    pos = sea()
    pos.creature("squid", "1.5")
    a1 = pos.land(0, "3.6")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    game.apply(parse("creature squid1 2.5"))
    assert game.phase == "interrupt" and game.actor == 0 and grabs(game) == {person_name(a1)}
    game.apply(parse(f"grab {person_name(a1)}"))
    assert game.state.p_kind[a1] == LOST and game.state.turn == 1


def test_Q_3_next_to_empty_land_the_squid_goes_on() -> None:
    """Q-3: land without people does not stop the squid."""
    pos = sea()
    pos.creature("squid", "1.5")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    game.apply(parse("creature squid1 2.5"))
    assert game.phase == "creature" and ("done",) in game.legal_actions()


def test_Q_3_Q_4_the_squid_stops_at_an_occupied_boat_and_takes_one_aboard() -> None:
    """Q-3, Q-4: the squid stops at an occupied boat and removes one person from it; an empty
    boat does not stop it."""
    pos = sea()
    pos.creature("squid", "1.2")
    pos.boat("1.3")
    b2, a1 = pos.passenger(1), pos.passenger(0)
    boat = pos.boat("1.4", [b2, a1])
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    game.apply(parse("creature squid1 1.3"))
    assert game.phase == "creature"
    game.apply(parse("creature squid1 1.4"))
    assert game.phase == "interrupt" and grabs(game) == names([b2, a1])
    game.apply(parse(f"grab {person_name(b2)}"))
    assert game.state.p_kind[b2] == LOST and game.state.b_people[boat] == [a1]
    assert game.state.turn == 1


def test_Q_3_Q_4_the_squid_stops_at_a_whale_and_removes_it() -> None:
    """Q-3, Q-4: entering a whale's space the squid stops and the whale leaves the game."""
    pos = sea()
    pos.creature("squid", "1.3")
    whale = pos.creature("whale", "1.4")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    events = game.apply(parse("creature squid1 1.4"))
    assert "whale_removed" in kinds(events) and gone(game, whale)
    assert at(game, "1.4") == ["squid"] and game.state.turn == 1


def test_Q_3_Q_6_the_squid_ignores_serpents_sharks_and_dolphins() -> None:
    """Q-3, Q-6: thrown on the dive dice (whale, 3) the squid passes a space holding a serpent,
    a shark and a dolphin with its swimmer: nobody stops or is harmed."""
    pos = sea(modules=BOTH)
    pos.creature("squid", "1.3")
    pos.creature("serpent", "1.4")
    pos.creature("shark", "1.4")
    d = pos.creature("dolphin", "1.4")
    b2 = pos.swimmer(1, "1.4")
    pos.s.guard[d] = b2
    game = pos.game("roll")
    game.apply(parse("dive whale 3"))
    events = game.apply(parse("creature squid1 1.4"))
    assert kinds(events) == ["creature_moved"] and game.phase == "creature"
    game.apply(parse("creature squid1 1.5"))
    assert game.state.p_kind[b2] == SEA and sorted(at(game, "1.4")) == sorted(
        [f"swim:{b2}", "serpent", "shark", "dolphin"]
    )


def test_Q_3_dive_dice_move_a_squid_per_die_2() -> None:
    """Q-3: on the dive dice a whale throw moves a squid up to die 2's number (here 2)."""
    pos = sea(modules=BOTH)
    c = pos.creature("squid", "1.3")
    game = pos.game("roll")
    game.apply(parse("dive whale 2"))
    assert "1.3" in squid_moves(game, c)  # it may stay put
    game.apply(parse("creature squid1 1.4"))
    events = game.apply(parse("creature squid1 1.5"))
    assert "turn" in kinds(events) and at(game, "1.5") == ["squid"]


def test_Q_3_Q_4_dive_dice_D_dives_a_squid_to_any_vacant_space_then_it_attacks() -> None:
    """Q-3, Q-4: with a D the squid dives to any vacant sea space (or stays put); there it
    attacks: beside A1's tile, A1 is taken."""
    pos = sea(modules=BOTH)
    c = pos.creature("squid", "1.3")
    a1 = pos.land(0, "3.6")
    game = pos.game("roll")
    game.apply(parse("dive whale D"))
    assert squid_moves(game, c) == vacant(game) | {"1.3"}
    game.apply(parse("creature squid1 2.6"))
    assert grabs(game) == {person_name(a1)}
    game.apply(parse(f"grab {person_name(a1)}"))
    assert game.state.p_kind[a1] == LOST and game.state.turn == 1


def test_Q_3_Q_4_the_move_whale_tile_puts_a_squid_on_any_vacant_space() -> None:
    """Q-3, Q-4 (B-42): the move-whale tile may move a squid instead — with no whale on the
    board — to any vacant sea space; its attack follows at once, then step 2."""
    pos = sea()
    c = pos.creature("squid", "1.3")
    a1 = pos.land(0, "3.6")
    pos.land(0, "4.4")  # seat 1 keeps a person for step 2
    pos.hold(0, "beach", "move-whale")
    game = pos.game("tile")
    game.apply(parse("play move-whale"))
    assert vacant(game) <= squid_moves(game, c)
    game.apply(parse("put squid1 2.6"))
    assert game.phase == "interrupt" and grabs(game) == {person_name(a1)}
    game.apply(parse(f"grab {person_name(a1)}"))
    assert game.state.p_kind[a1] == LOST and at(game, "2.6") == ["squid"]
    assert game.phase == "move" and game.state.turn == 0


def test_Q_3_Q_4_the_move_whale_tile_may_leave_the_squid_where_it_is() -> None:
    """Q-3: staying put counts as a move on the tile too; the squid attacks where it is."""
    pos = sea()
    c = pos.creature("squid", "2.6")
    a1 = pos.land(0, "3.6")
    pos.hold(0, "beach", "move-whale")
    game = pos.game("tile")
    game.apply(parse("play move-whale"))
    assert squid_moves(game, c) == vacant(game) | {"2.6"}
    game.apply(parse("put squid1 2.6"))
    assert grabs(game) == {person_name(a1)} and at(game, "2.6") == ["squid"]


# -- after any squid move --------------------------------------------------------------------


def test_Q_4_whale_removed_then_exactly_one_person_from_land_or_boat_the_mover_choosing() -> None:
    """Q-4: the squid's space holds a whale and an occupied boat, and touches two land tiles
    with people: the whale is removed; then the mover (seat 2 on its turn) removes exactly one
    person — from the boat or from one adjacent tile — and may not decline."""
    pos = sea()
    pos.creature("squid", "1.5")
    whale = pos.creature("whale", "2.5")
    a1 = pos.passenger(0)
    boat = pos.boat("2.5", [a1])
    a2, b2 = pos.land(0, "3.5"), pos.land(1, "3.6")
    a3 = pos.land(0, "3.4")  # not next to 2.5
    game = pos.game("roll", turn=1)
    game.apply(parse("roll whale"))
    events = game.apply(parse("creature squid1 2.5"))
    assert "whale_removed" in kinds(events) and gone(game, whale)
    assert game.phase == "interrupt" and game.actor == 1
    assert grabs(game) == names([a1, a2, b2])
    assert refused(game, "done").rule == "Q-4"
    assert refused(game, f"grab {person_name(a3)}").rule == "Q-4"
    game.apply(parse(f"grab {person_name(a2)}"))
    s = game.state
    assert s.p_kind[a2] == LOST
    assert (s.p_kind[a1], s.p_kind[b2], s.p_kind[a3]) == (BOAT, LAND, LAND)
    assert s.b_pos[boat] == hx("2.5") and s.turn == 0


# -- a whale meets a squid -------------------------------------------------------------------


@pytest.mark.parametrize("with_boat", [False, True])
def test_Q_5_a_whale_entering_a_squids_space_stops_and_removes_it(with_boat: bool) -> None:
    """Q-5: the whale (red die, three spaces to go) stops on entering the squid's space and
    removes the squid; an occupied boat there is capsized as usual (B-26)."""
    pos = sea()
    pos.creature("whale", "1.3")
    squid = pos.creature("squid", "1.4")
    b2 = pos.passenger(1)
    if with_boat:
        boat = pos.boat("1.4", [b2])
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    events = game.apply(parse("creature whale1 1.4"))
    assert "squid_removed" in kinds(events) and gone(game, squid)
    assert game.state.turn == 1  # stopped there
    if with_boat:
        assert "wrecked" in kinds(events) and game.state.b_pos[boat] == OFF
        assert game.state.p_kind[b2] == SEA
        assert sorted(at(game, "1.4")) == sorted([f"swim:{b2}", "whale"])
    else:
        assert at(game, "1.4") == ["whale"]


def test_Q_5_also_on_the_dive_dice() -> None:
    """Q-5: a whale thrown on the dive dice (3) stops at the squid and removes it."""
    pos = sea(modules=BOTH)
    pos.creature("whale", "1.3")
    squid = pos.creature("squid", "1.4")
    game = pos.game("roll")
    game.apply(parse("dive whale 3"))
    game.apply(parse("creature whale1 1.4"))
    assert gone(game, squid) and game.state.turn == 1


# -- boats, whirlpools, other creatures ----------------------------------------------------


def test_Q_6_an_occupied_boat_may_not_move_into_a_squids_space() -> None:
    """Q-6: the occupied boat's controller may not sail it into the squid's space (refused,
    Q-6); an empty boat may go there."""
    pos = sea()
    pos.creature("squid", "1.5")
    a1 = pos.passenger(0)
    full = pos.boat("1.4", [a1])
    empty = pos.boat("1.6")
    game = pos.game("move")
    assert ("sail", full, hx("1.5")) not in game.legal_actions()
    assert refused(game, f"sail b{full + 1} 1.5").rule == "Q-6"
    game.apply(parse(f"sail b{empty + 1} 1.5"))
    assert sorted(at(game, "1.5")) == sorted([f"boat:{empty}", "squid"])


def test_Q_6_winds_may_not_blow_an_occupied_boat_into_a_squids_space() -> None:
    """Q-6 (B-39): the winds tile obeys the same rule."""
    pos = sea()
    pos.creature("squid", "1.5")
    full = pos.boat("1.4", [pos.passenger(0)])
    pos.hold(0, "beach", "winds")
    game = pos.game("tile")
    game.apply(parse("play winds"))
    assert ("sail", full, hx("1.5")) not in game.legal_actions()
    assert ("sail", full, hx("1.3")) in game.legal_actions()


def test_Q_6_a_whirlpool_removes_squids_on_its_space_and_around() -> None:
    """Q-6, B-36: a whirlpool removes squids from the game like every other piece; a squid two
    spaces away stays."""
    pos = sea()
    pos.sea("5.2")  # a forest tile, just removed
    near = pos.creature("squid", "4.2")
    on = pos.creature("squid", "5.1")
    far = pos.creature("squid", "3.2")
    game = pos.game("back", hex=hx("5.2"), terrain="forest")
    events = game.apply(parse("back whirlpool"))
    assert {"squid1", "squid2"} <= set(events[-1].data["creatures"])
    assert gone(game, near) and gone(game, on) and not gone(game, far)
    assert at(game, "3.2") == ["squid"]


def test_Q_6_a_shark_passes_a_squids_space_and_neither_is_harmed() -> None:
    """Q-6: sharks and squids ignore each other: a shark (dive dice, 2) goes through the squid's
    space and on."""
    pos = sea(modules=BOTH)
    pos.creature("shark", "1.3")
    pos.creature("squid", "1.4")
    game = pos.game("roll")
    game.apply(parse("dive shark 2"))
    events = game.apply(parse("creature shark1 1.4"))
    assert kinds(events) == ["creature_moved"] and game.phase == "creature"
    game.apply(parse("creature shark1 1.5"))
    assert at(game, "1.4") == ["squid"] and at(game, "1.5") == ["shark"]


# -- variant #1, squids replace whales --------------------------------------------------------


def test_Q_7_variant_1_needs_the_squid_kit() -> None:
    """Q-7: variant #1 is a variant of the Giant Squid."""
    with pytest.raises(RulesError, match="Q-7"):
        Position(modules=("squid-variant-1",))


def test_Q_7_variant_1_a_whale_back_brings_a_squid_and_no_whale() -> None:
    """Q-7: no whale tokens: the whale back places no whale, but a squid enters as in Q-1,
    and Q-2 applies (default must)."""
    pos = sea(modules=VARIANT)
    a1 = pos.land(0, "3.6")
    game, events = whale_back(pos)
    assert "revealed" in kinds(events) and "creature_placed" not in kinds(events)
    assert at(game, "3.4") == [] and not game.state.on_board("whale")
    assert not [c for c in game.view(None)["creatures"] if c["id"].startswith("whale")]
    assert game.phase == "interrupt"
    game.apply(parse("put squid1 2.5"))
    assert grabs(game) == {person_name(a1)} and ("done",) not in game.legal_actions()
    game.apply(parse(f"grab {person_name(a1)}"))
    assert game.state.p_kind[a1] == LOST and at(game, "2.5") == ["squid"]


@pytest.mark.parametrize("option", ["must", "may", "none"])
def test_Q_7_variant_1_with_each_squid_entry(option: str) -> None:
    """Q-7 with Q-2: the entering squid's grab follows squid_entry in the variant too."""
    pos = sea(modules=VARIANT, squid_entry=option)
    a1 = pos.land(0, "3.6")
    game, _ = whale_back(pos)
    game.apply(parse("put squid1 2.5"))
    if option == "none":
        assert game.phase == "roll"
    else:
        assert grabs(game) == {person_name(a1)}
        assert (("done",) in game.legal_actions()) == (option == "may")


def test_Q_7_variant_1_the_red_dies_whale_moves_a_squid() -> None:
    """Q-7: the red die's whale face moves a squid (up to three spaces)."""
    pos = sea(modules=VARIANT)
    pos.creature("squid", "1.3")
    game = pos.game("roll")
    game.apply(parse("roll whale"))
    assert {game.state.c_kind[a[1]] for a in game.legal_actions() if a[0] == "creature"} == {
        "squid"
    }
    for h in ("1.4", "1.5", "1.6"):
        events = game.apply(parse(f"creature squid1 {h}"))
    assert "turn" in kinds(events) and at(game, "1.6") == ["squid"]


def test_Q_7_variant_1_the_move_whale_tile_and_the_dive_dice_move_a_squid() -> None:
    """Q-7: the move-whale tile and a whale on the dive dice move a squid."""
    pos = sea(modules=("dive-dice", *VARIANT))
    c = pos.creature("squid", "1.3")
    pos.hold(0, "beach", "move-whale")
    game = pos.game("tile")
    assert ("play", "move-whale") in game.legal_actions()
    game.apply(parse("play move-whale"))
    game.apply(parse("put squid1 1.8"))
    assert at(game, "1.8") == ["squid"]
    dice = sea(modules=("dive-dice", *VARIANT))
    c = dice.creature("squid", "1.3")
    game = dice.game("roll")
    game.apply(parse("dive whale 1"))
    assert "1.4" in squid_moves(game, c)
