"""Challenge #6's dolphins: how they come into play and whom they protect (D-2, D-6 … D-9)."""

from __future__ import annotations

import pytest

from companion.engine import Game, parse
from companion.engine.state import BOAT, LOST, SAVED, person_name
from tests.position import SEA, Position, at, hx, kinds, refused

DIVE = ("dive-dice",)


def sea(modules: tuple[str, ...] = DIVE, mode: str = "digital", **options: str) -> Position:
    """Two players with the dive dice and no serpents out; seat 2 keeps a person inland (4.5
    touches no sea) so that its turn stops at step 2."""
    pos = Position(players=2, mode=mode, modules=modules, **options)
    pos.clear_serpents()
    pos.land(1, "4.5")
    return pos


def guarded(pos: Position, kind_at: str, person: int) -> int:
    """A dolphin at `kind_at` already protecting `person` (a swimmer there)."""
    d = pos.creature("dolphin", kind_at)
    pos.s.guard[d] = person
    return d


def protects(game: Game) -> dict[str, str | None]:
    """Each dolphin on the board and whom it protects, as the public view shows it."""
    return {c["id"]: c["protects"] for c in game.view(None)["creatures"]
            if c["id"].startswith("dolphin") and c["at"] is not None}  # fmt: skip


def hand_count(game: Game, seat: int) -> int:
    count: int = game.view(None)["hands"][seat]["count"]
    return count


# -- D-2: the dolphin back ---------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["digital", "physical"])
def test_D_2_a_dolphin_back_is_revealed_at_once_and_puts_a_dolphin_out(mode: str) -> None:
    """D-2: in a dive-dice game a removed tile with the dolphin back is shown at once: a
    dolphin token goes on its space, the tile leaves the game (nobody's hand), and step 4 is
    next."""
    pos = sea(mode=mode)
    game = pos.game("sink")
    game.apply(parse("sink 3.5"))
    assert ("back", "dolphin") in game.legal_actions()
    events = game.apply(parse("back dolphin"))
    assert kinds(events)[:2] == ["revealed", "creature_placed"]
    assert events[0].data["back"] == "dolphin"
    assert events[1].data == {"creature": "dolphin1", "hex": "3.5"}
    assert "kept" not in kinds(events)
    assert hand_count(game, 0) == 0 and game.state.hands[0] == []
    assert at(game, "3.5") == ["dolphin"] and protects(game) == {"dolphin1": None}
    assert game.phase == "roll" and game.is_chance()


def test_D_2_the_one_person_of_the_tile_is_protected() -> None:
    """D-2: the person swimming from the sunk tile is protected by the new dolphin."""
    pos = sea()
    b1 = pos.land(1, "3.5")
    game = pos.game("sink")
    game.apply(parse("sink 3.5"))
    events = game.apply(parse("back dolphin"))
    assert "protected" in kinds(events)
    assert protects(game) == {"dolphin1": person_name(b1)}
    assert game.state.p_kind[b1] == SEA


def test_D_2_with_several_people_the_remover_chooses_whom_it_protects() -> None:
    """D-2: with several people of the tile swimming there, the player who sank it (seat 1,
    here sinking a tile of seat 2's people) chooses one of them; then step 4 goes on."""
    pos = sea()
    a1, b1, b2 = pos.land(0, "3.5"), pos.land(1, "3.5"), pos.land(1, "3.5")
    elsewhere = pos.swimmer(0, "1.5")
    game = pos.game("sink")
    game.apply(parse("sink 3.5"))
    game.apply(parse("back dolphin"))
    assert game.phase == "interrupt" and game.actor == 0
    d = game.state.on_board("dolphin")[0]
    assert set(game.legal_actions()) == {("protect", d, p) for p in (a1, b1, b2)}
    assert refused(game, f"protect dolphin1 {person_name(elsewhere)}").rule == "D-6"
    game.apply(parse(f"protect dolphin1 {person_name(b2)}"))
    assert protects(game) == {"dolphin1": person_name(b2)}
    assert all(game.state.p_kind[p] == SEA for p in (a1, b1, b2))
    assert game.phase == "roll" and game.is_chance()


def test_D_2_without_the_dive_dice_the_dolphin_back_goes_to_hand() -> None:
    """D-2 (only with the dive dice): in a base game the dolphin back is a red tile kept in
    the remover's hand (B-22, B-38) and no dolphin comes out."""
    pos = sea(modules=("base",))
    game = pos.game("sink")
    game.apply(parse("sink 3.5"))
    events = game.apply(parse("back dolphin"))
    assert "kept" in kinds(events) and "creature_placed" not in kinds(events)
    assert game.state.hands[0] == [["beach", "dolphin"]]
    assert at(game, "3.5") == []


def test_D_2_a_dive_dice_game_never_deals_a_dolphin_into_a_hand() -> None:
    """D-2: with the dive dice the dolphin tile is no red tile to hold: the engine's draws
    reveal it, and a hand of untold tiles can never be playing one (physical mode)."""
    pos = sea(mode="physical")
    pos.hold(0, "beach", None)
    pos.swimmer(0, "1.5")
    game = pos.game("tile")
    assert ("play", "dolphin") not in game.legal_actions()
    assert refused(game, "play dolphin").rule == "B-22"


# -- D-6: whom a dolphin protects ---------------------------------------------------------------


def test_D_6_a_swimmer_entering_a_space_with_a_free_dolphin_is_protected() -> None:
    """D-6: swimming into a free dolphin's space, the swimmer becomes its protege (shown in the
    public view)."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    pos.creature("dolphin", "1.6")
    game = pos.game("move")
    events = game.apply(parse("move A1 1.6"))
    assert "protected" in kinds(events)
    assert protects(game) == {"dolphin1": person_name(a1)}


def test_D_6_entering_a_sharks_space_with_a_free_dolphin_is_protected_not_eaten() -> None:
    """D-6: the protection takes hold as the swimmer enters: in a space with a shark and a free
    dolphin the swimmer is protected, not eaten. A second swimmer entering finds no free
    dolphin (one swimmer per dolphin) and is eaten (B-17)."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    a2 = pos.swimmer(0, "1.7")
    pos.creature("shark", "1.6")
    pos.creature("dolphin", "1.6")
    game = pos.game("move")
    game.apply(parse("move A1 1.6"))
    assert game.state.p_kind[a1] == SEA and protects(game) == {"dolphin1": "A1"}
    events = game.apply(parse("move A2 1.6"))
    assert "eaten" in kinds(events)
    assert game.state.p_kind[a2] == LOST and game.state.p_kind[a1] == SEA


def test_D_6_a_dolphin_moved_onto_one_swimmer_protects_it() -> None:
    """D-6: a dolphin (die 2: 3) moved into a space with a swimmer protects it and stops there
    (the spec does not say whether it could go on; going on would leave the swimmer at once,
    D-7, so the engine ends the move where the protection begins)."""
    pos = sea()
    pos.creature("dolphin", "1.3")
    b1 = pos.swimmer(1, "1.4")
    game = pos.game("roll")
    game.apply(parse("dive dolphin 3"))
    events = game.apply(parse("creature dolphin1 1.4"))
    assert "protected" in kinds(events) and game.state.turn == 1
    assert protects(game) == {"dolphin1": person_name(b1)}


def test_D_6_a_dolphin_moved_onto_several_swimmers_protects_one_the_mover_chooses() -> None:
    """D-6: a dolphin moved into a space with several swimmers protects one of them, chosen by
    the player who moved it (here seat 2 on its turn); the others stay unprotected."""
    pos = sea()
    pos.creature("dolphin", "1.3")
    a1, b1 = pos.swimmer(0, "1.4"), pos.swimmer(1, "1.4")
    pos.land(0, "4.4")
    game = pos.game("roll", turn=1)
    game.apply(parse("dive dolphin 1"))
    game.apply(parse("creature dolphin1 1.4"))
    assert game.phase == "interrupt" and game.actor == 1
    d = game.state.on_board("dolphin")[0]
    assert set(game.legal_actions()) == {("protect", d, a1), ("protect", d, b1)}
    events = game.apply(parse(f"protect dolphin1 {person_name(a1)}"))
    assert protects(game) == {"dolphin1": person_name(a1)}
    assert game.state.p_kind[b1] == SEA and game.state.turn == 0 and "turn" in kinds(events)


def test_D_6_a_swimmer_already_protected_keeps_its_dolphin_when_another_arrives() -> None:
    """D-6: a dolphin entering a space whose only swimmer another dolphin protects finds nobody
    to protect; several dolphins may share the space."""
    pos = sea()
    b1 = pos.swimmer(1, "1.4")
    d1 = guarded(pos, "1.4", b1)
    pos.creature("dolphin", "1.3")
    game = pos.game("roll")
    game.apply(parse("dive dolphin 1"))
    game.apply(parse("creature dolphin2 1.4"))
    assert protects(game) == {"dolphin1": person_name(b1), "dolphin2": None}
    assert game.state.guard == {d1: b1}
    assert at(game, "1.4").count("dolphin") == 2


def capsize(pos: Position, people: list[int], dolphins: int, shark: bool = True) -> Game:
    """A whale at 1.3 about to capsize a boat at 1.4 carrying `people`, where `dolphins` free
    dolphins (and a shark) are; the whale is thrown with a 1 and moved in."""
    pos.creature("whale", "1.3")
    pos.boat("1.4", people)
    for _ in range(dolphins):
        pos.creature("dolphin", "1.4")
    if shark:
        pos.creature("shark", "1.4")
    game = pos.game("roll")
    game.apply(parse("dive whale 1"))
    game.apply(parse("creature whale1 1.4"))
    return game


def test_D_6_capsized_into_a_dolphin_and_a_shark_the_turn_player_chooses_who_lives() -> None:
    """D-6: people thrown into the sea by a capsize count as entering it: with more of them
    than free dolphins, the player whose turn it is (seat 1) chooses whom the dolphin protects
    — seat 2's person, here — and only then does the shark eat the other."""
    pos = sea()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    game = capsize(pos, [a1, b1], dolphins=1)
    assert game.phase == "interrupt" and game.actor == 0
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == SEA  # nobody eaten yet
    d = game.state.on_board("dolphin")[0]
    assert set(game.legal_actions()) == {("protect", d, a1), ("protect", d, b1)}
    events = game.apply(parse(f"protect dolphin1 {person_name(b1)}"))
    eaten = next(e for e in events if e.kind == "eaten")
    assert eaten.data["people"] == [person_name(a1)] and eaten.data["by"] == "shark"
    assert game.state.p_kind[a1] == LOST and game.state.p_kind[b1] == SEA
    assert protects(game) == {"dolphin1": person_name(b1)}
    assert game.state.turn == 1


def test_D_6_capsized_with_a_free_dolphin_each_no_choice_and_nobody_eaten() -> None:
    """D-6: one swimmer per dolphin, several dolphins in one space: two people capsized where
    two free dolphins and a shark are are both protected at once; nobody is eaten."""
    pos = sea()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    game = capsize(pos, [a1, b1], dolphins=2)
    assert game.phase != "interrupt" and game.state.turn == 1
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == SEA
    assert sorted(v for v in protects(game).values() if v) == sorted(
        person_name(p) for p in (a1, b1)
    )


def test_D_6_three_capsized_two_dolphins_choose_twice_then_the_third_is_eaten() -> None:
    """D-6: three people capsized where two free dolphins and a shark are: the turn player
    chooses one protege per dolphin; the third is eaten."""
    pos = sea()
    people = [pos.passenger(0), pos.passenger(1), pos.passenger(1)]
    game = capsize(pos, people, dolphins=2)
    assert game.phase == "interrupt"
    game.apply(parse(f"protect dolphin1 {person_name(people[2])}"))
    assert game.phase == "interrupt" and game.actor == 0  # the second dolphin's choice
    assert all(a[2] != people[2] for a in game.legal_actions())
    game.apply(("protect", game.legal_actions()[0][1], people[0]))
    assert [game.state.p_kind[p] for p in people] == [SEA, LOST, SEA]


def test_D_6_capsized_beside_a_free_dolphin_without_a_shark_nobody_is_eaten() -> None:
    """D-6: with no shark there, the unchosen swimmer simply swims unprotected."""
    pos = sea()
    a1, b1 = pos.passenger(0), pos.passenger(1)
    game = capsize(pos, [a1, b1], dolphins=1, shark=False)
    game.apply(parse(f"protect dolphin1 {person_name(a1)}"))
    assert game.state.p_kind[a1] == game.state.p_kind[b1] == SEA
    assert protects(game) == {"dolphin1": person_name(a1)}


# -- D-7: a dolphin moved away -------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "fate"), [("shark", LOST), ("serpent", LOST), ("whale", SEA)])
@pytest.mark.parametrize("dist", ["1", "D"])
def test_D_7_the_swimmer_left_behind_is_eaten_by_a_shark_or_serpent(
    kind: str, fate: int, dist: str
) -> None:
    """D-7: when the dolphin is moved away (a step or a dive) from its swimmer in a space with a
    creature that attacks swimmers, the now unprotected swimmer is eaten; a whale there does
    not eat swimmers (B-26)."""
    pos = sea()
    b1 = pos.swimmer(1, "1.5")
    guarded(pos, "1.5", b1)
    pos.creature(kind, "1.5")
    game = pos.game("roll")
    game.apply(parse(f"dive dolphin {dist}"))
    events = game.apply(parse("creature dolphin1 1.6" if dist == "1" else "creature dolphin1 12.5"))
    assert "unprotected" in kinds(events)
    assert game.state.p_kind[b1] == fate
    assert protects(game) == {"dolphin1": None}


def test_D_7_a_dolphin_moved_away_from_safe_water_leaves_its_swimmer_alive() -> None:
    """D-7: only an attacking creature in that space eats the swimmer left behind."""
    pos = sea()
    b1 = pos.swimmer(1, "1.5")
    guarded(pos, "1.5", b1)
    game = pos.game("roll")
    game.apply(parse("dive dolphin 1"))
    game.apply(parse("creature dolphin1 1.6"))
    assert game.state.p_kind[b1] == SEA and game.state.guard == {}


# -- D-8: moving with the dolphin -------------------------------------------------------------


def test_D_8_a_protected_swimmer_rides_with_its_dolphin_one_space_per_turn() -> None:
    """D-8: in step 2 a protected swimmer may take its dolphin along — into a shark's space,
    still protected — but still only one sea space per turn."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    guarded(pos, "1.5", a1)
    pos.creature("shark", "1.6")
    pos.land(0, "4.4")  # seat 1 still has a move after the ride
    game = pos.game("move")
    assert {("ride", a1, hx("1.6")), ("move", a1, hx("1.6"))} <= set(game.legal_actions())
    events = game.apply(parse("ride A1 1.6"))
    assert kinds(events)[0] == "rode"
    assert game.state.p_kind[a1] == SEA and sorted(at(game, "1.6")) == sorted(
        [f"swim:{a1}", "shark", "dolphin"]
    )
    assert protects(game) == {"dolphin1": "A1"} and at(game, "1.5") == []
    assert refused(game, "ride A1 1.7").rule == "D-8"
    assert refused(game, "move A1 1.7").rule == "B-16"


def test_D_8_moving_without_the_dolphin_ends_the_protection() -> None:
    """D-8: a protected swimmer that moves alone leaves its dolphin behind, and with it the
    protection: swimming into a shark's space it is eaten."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    guarded(pos, "1.5", a1)
    pos.creature("shark", "1.6")
    game = pos.game("move")
    events = game.apply(parse("move A1 1.6"))
    assert "eaten" in kinds(events) and game.state.p_kind[a1] == LOST
    assert at(game, "1.5") == ["dolphin"] and protects(game) == {"dolphin1": None}


def test_D_8_boarding_a_boat_leaves_the_dolphin_in_the_sea() -> None:
    """D-8: dolphins never end in a boat: a protected swimmer boarding the boat in its space
    leaves the dolphin there, free."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    guarded(pos, "1.5", a1)
    boat = pos.boat("1.5")
    game = pos.game("move")
    game.apply(parse(f"board A1 b{boat + 1}"))
    assert game.state.p_kind[a1] == BOAT
    assert sorted(at(game, "1.5")) == sorted([f"boat:{boat}", "dolphin"])
    assert protects(game) == {"dolphin1": None}


def test_D_8_reaching_a_safe_island_leaves_the_dolphin_on_the_access_space() -> None:
    """D-8: dolphins never go onto land: a protected swimmer reaching a safe island from its
    access space is saved and the dolphin stays in the sea, free; no ride onto the island."""
    pos = sea()
    a1 = pos.swimmer(0, "1.1")
    guarded(pos, "1.1", a1)
    game = pos.game("move")
    assert ("ride", a1, hx("NW")) not in game.legal_actions()
    game.apply(parse("move A1 NW"))
    assert game.state.p_kind[a1] == SAVED
    assert at(game, "1.1") == ["dolphin"] and protects(game) == {"dolphin1": None}


def test_D_8_no_ride_onto_land_and_none_for_an_unprotected_swimmer() -> None:
    """D-8: the dolphin goes along only through the sea, and only with the swimmer it
    protects."""
    pos = sea()
    a1 = pos.swimmer(0, "2.5")
    guarded(pos, "2.5", a1)
    pos.swimmer(0, "1.8")
    game = pos.game("move")
    assert refused(game, "ride A1 3.5").rule == "D-8"
    assert refused(game, "ride A2 1.9").rule == "D-8"


# -- D-9: switching the protection -----------------------------------------------------------


@pytest.mark.parametrize("option", ["optional", "mandatory"])
def test_D_9_a_dive_dice_dolphin_move_may_switch_to_another_swimmer(option: str) -> None:
    """D-9: instead of moving, the thrown dolphin turns to another swimmer in its space; that
    counts as its move (also when the move is mandatory) and the turn passes. It cannot turn
    to a swimmer elsewhere, nor to the one it already protects."""
    pos = sea(creature_move=option)
    a1, b1 = pos.swimmer(0, "1.5"), pos.swimmer(1, "1.5")
    pos.swimmer(1, "1.6")
    d = guarded(pos, "1.5", a1)
    game = pos.game("roll")
    game.apply(parse("dive dolphin 2"))
    switches = {a for a in game.legal_actions() if a[0] == "protect"}
    assert switches == {("protect", d, b1)}
    assert refused(game, "protect dolphin1 A1").rule == "D-9"
    assert refused(game, "protect dolphin1 B3").rule == "D-9"
    events = game.apply(parse(f"protect dolphin1 {person_name(b1)}"))
    assert kinds(events)[:2] == ["unprotected", "protected"]
    assert protects(game) == {"dolphin1": person_name(b1)}
    assert game.state.p_kind[a1] == SEA and at(game, "1.5").count("dolphin") == 1
    assert game.state.turn == 1


def test_D_9_the_starfish_also_allows_the_switch() -> None:
    """D-9 with D-3: a starfish may name the dolphin, and so the switch."""
    pos = sea()
    a1, b1 = pos.swimmer(0, "1.5"), pos.swimmer(1, "1.5")
    d = guarded(pos, "1.5", a1)
    game = pos.game("roll")
    game.apply(parse("dive starfish D"))
    assert ("protect", d, b1) in game.legal_actions()


def test_D_9_no_switch_offered_on_another_kind_or_without_another_swimmer() -> None:
    """D-9: the switch is a dolphin's move: a shark throw offers none, nor does a dolphin
    whose space holds no other swimmer."""
    pos = sea()
    a1 = pos.swimmer(0, "1.5")
    pos.swimmer(1, "1.5")
    guarded(pos, "1.5", a1)
    pos.creature("shark", "12.5")
    game = pos.game("roll")
    game.apply(parse("dive shark 1"))
    assert not [a for a in game.legal_actions() if a[0] == "protect"]
    alone = sea()
    c1 = alone.swimmer(0, "1.5")
    guarded(alone, "1.5", c1)
    game = alone.game("roll")
    game.apply(parse("dive dolphin 1"))
    assert not [a for a in game.legal_actions() if a[0] == "protect"]
