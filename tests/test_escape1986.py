"""The 1986 Escape from Atlantis ruleset (spec §10, E-1 ... E-7): scenarios on the shared board."""

from __future__ import annotations

import pytest

from companion.engine import Game, IllegalAction, MalformedAction, Rules, notation, parse
from companion.engine import board as board_
from companion.engine.data import SPINNER_DATA, SPINNER_SECTORS, UNVERIFIED
from companion.engine.fivesix import boats_for
from companion.engine.rings import RINGS
from companion.engine.rules import OPTIONS
from companion.engine.state import LOST, OFF, SEA
from tests.position import Position, at, hx, kinds, refused

ESCAPE = ("escape-1986",)


def position(mode: str = "digital", keeper: bool = True, **options: str) -> Position:
    """A 1986 position for 2 players with no serpent out, so each test puts only the creatures
    it needs. The keeper, seat 2's first person on an inner tile (7.5), keeps the game from
    ending at once for lack of people (E-6)."""
    pos = Position(players=2, mode=mode, modules=ESCAPE, **options)
    pos.clear_serpents()
    if keeper:
        pos.land(1, "7.5")
    return pos


def spun(pos: Position, kind: str, move: str) -> tuple[Game, list[str]]:
    """Seat 1's spin in step 4; the game and the creatures the result lets move."""
    game = pos.game(phase="roll")
    events = game.apply(("spin", kind, move))
    [result] = [e for e in events if e.kind == "spun"]
    return game, result.data["may_move"]


def steps(game: Game) -> list[str]:
    return sorted(notation(a) for a in game.legal_actions())


# -- E-1 the spinner ---------------------------------------------------------------------------


def test_E_1_spinner_sectors_are_data_with_sources_and_marked_unverified() -> None:
    """E-1: the spinner's sectors are data, every number with its source; the default is
    uniform over creature x move and is shown to players as unverified."""
    values, _ = OPTIONS["spinner_sectors"]
    assert set(values) == set(SPINNER_SECTORS)  # every option value names a set of sectors
    uniform = SPINNER_DATA["sets"]["uniform"]
    assert all(sector["source"] for sector in uniform["sectors"])
    assert "spinner" in UNVERIFIED and not SPINNER_DATA["verified"]
    game = position().game(phase="roll")
    outcomes = game.chance_outcomes()
    assert len(outcomes) == 16 and {p for _, p in outcomes} == {1 / 16}
    assert {a[1] for a, _ in outcomes} == {"serpent", "shark", "whale", "dolphin"}
    assert {a[2] for a, _ in outcomes} == {"1", "2", "3", "dive"}
    assert game.draw() in game.legal_actions()  # the engine spins it, or the table tells it


def test_E_1_a_spin_is_written_and_read_like_any_action() -> None:
    """E-1: the spinner's result has its own verb: a creature kind and 1, 2, 3 or dive."""
    for text in ("spin shark 2", "spin serpent dive", "spin dolphin 3"):
        assert notation(parse(text)) == text
    with pytest.raises(MalformedAction, match="spin-kind"):
        parse("spin kraken 2")
    with pytest.raises(MalformedAction, match="spin-move"):
        parse("spin shark 4")


def test_E_1_the_result_says_which_creatures_may_move() -> None:
    """E-1: the spin comes with what it allows; a creature that cannot finish the move (a
    serpent in a two-space pocket of the lagoon, spun 2) is not offered."""
    pos = position()
    pos.sea("5.5")  # the lagoon and 5.5: a pocket of two sea spaces
    pos.creature("serpent", "6.5")
    pos.creature("serpent", "2.5")
    game, may = spun(pos, "serpent", "2")
    assert may == ["serpent2"]
    assert game.view(None)["pending"]["may_move"] == ["serpent2"]
    assert {a[1] for a in game.legal_actions() if a[0] == "creature"} == {1}
    refusal = refused(game, "creature serpent1 5.5")
    assert refusal.rule == "E-1" and "finish" in refusal.message
    _, may = spun(pos, "serpent", "1")
    assert may == ["serpent1", "serpent2"]


def test_E_1_when_no_creature_can_make_the_move_nothing_moves() -> None:
    """E-1: with only the pocketed serpent out, a spun 3 moves nothing and the turn passes."""
    pos = position()
    pos.sea("5.5")
    pos.creature("serpent", "6.5")
    game, may = spun(pos, "serpent", "3")
    assert may == []
    assert game.state.turn == 1 and at(game, "6.5") == ["serpent"]


def test_E_1_a_creature_goes_exactly_as_far_as_spun_never_twice_through_a_space() -> None:
    """E-1: no stopping early without an attack; the route never re-enters a space."""
    pos = position()
    whale = pos.creature("whale", "2.5")
    game, _ = spun(pos, "whale", "3")
    game.apply(parse("creature whale1 2.4"))
    assert ("done",) not in game.legal_actions()
    assert "creature whale1 2.5" not in steps(game)
    assert refused(game, "done").rule == "E-1"
    assert refused(game, "creature whale1 2.5").rule == "E-1"
    game.apply(parse("creature whale1 2.3"))
    assert game.state.turn == 0 and game.phase == "creature"
    game.apply(parse("creature whale1 2.2"))
    assert game.state.turn == 1  # three spaces: the move is over
    assert game.state.c_pos[whale] == hx("2.2")


def test_E_1_creature_move_mandatory_takes_away_the_decline() -> None:
    """E-1: creature_move applies as in the base game: optional lets the roller decline."""
    for option, declinable in (("optional", True), ("mandatory", False)):
        pos = position(creature_move=option)
        pos.creature("shark", "2.5")
        game, _ = spun(pos, "shark", "2")
        assert (("done",) in game.legal_actions()) is declinable


def test_E_1_a_diving_creature_appears_where_no_people_or_boat_are() -> None:
    """E-1: a dive goes to any sea space without people or boats (creatures do not matter)."""
    pos = position()
    shark = pos.creature("shark", "2.5")
    pos.creature("whale", "10.5")
    pos.swimmer(1, "2.2")
    pos.boat("11.5")
    game, may = spun(pos, "shark", "dive")
    targets = {a[2] for a in game.legal_actions() if a[0] == "creature"}
    assert may == ["shark1"]
    assert hx("10.5") in targets and hx("2.5") not in targets
    assert hx("2.2") not in targets and hx("11.5") not in targets
    assert refused(game, "creature shark1 11.5").rule == "E-1"
    game.apply(parse("creature shark1 10.5"))
    assert game.state.c_pos[shark] == hx("10.5") and game.state.turn == 1


# -- E-2 who attacks what ----------------------------------------------------------------------


def test_E_2_a_shark_stops_to_eat_swimmers_and_ignores_boats() -> None:
    """E-2: sharks eat swimmers (stopping early to do it) and leave boats alone."""
    pos = position()
    pos.creature("shark", "2.5")
    b1 = pos.passenger(1)
    pos.boat("2.6", [b1])
    game, _ = spun(pos, "shark", "3")
    game.apply(parse("creature shark1 2.6"))  # through the boat: nothing happens
    assert game.state.b_pos[0] == hx("2.6") and game.state.p_kind[b1] != LOST
    pos = position()
    pos.creature("shark", "2.5")
    b2 = pos.swimmer(1, "2.3")
    game, _ = spun(pos, "shark", "3")
    game.apply(parse("creature shark1 2.4"))
    events = game.apply(parse("creature shark1 2.3"))
    assert "eaten" in kinds(events) and game.state.p_kind[b2] == LOST
    assert game.state.turn == 1  # two of three spaces: it stopped to attack


def test_E_2_a_whale_destroys_a_boat_and_its_passengers_swim() -> None:
    """E-2: whales destroy boats; the passengers survive as swimmers."""
    pos = position()
    pos.creature("whale", "2.5")
    b1 = pos.passenger(1)
    pos.boat("2.4", [b1])
    game, _ = spun(pos, "whale", "3")
    events = game.apply(parse("creature whale1 2.4"))
    assert "wrecked" in kinds(events)
    assert game.state.b_pos[0] == OFF
    assert game.state.p_kind[b1] == SEA and game.state.p_at[b1] == hx("2.4")


def test_E_2_a_sea_monster_destroys_the_boat_and_eats_everyone_there() -> None:
    """E-2: sea monsters (the serpent pieces) destroy boats and eat people."""
    pos = position()
    pos.creature("serpent", "2.5")
    b1 = pos.passenger(1)
    pos.boat("2.4", [b1])
    b2 = pos.swimmer(1, "2.4")
    game, _ = spun(pos, "serpent", "2")
    game.apply(parse("creature serpent1 2.4"))
    assert game.state.p_kind[b1] == LOST and game.state.p_kind[b2] == LOST
    assert game.state.b_pos[0] == OFF and game.state.turn == 1


# -- E-3 dolphins ------------------------------------------------------------------------------


def test_E_3_a_dolphin_back_puts_a_token_out_and_protects_nobody() -> None:
    """E-3: a dolphin back is shown at once (never kept in hand) and puts a dolphin token on
    the tile's space; the people swimming there get no protection, unlike D-2."""
    pos = position()
    pos.sea("3.5")
    a1 = pos.swimmer(0, "3.5")
    game = pos.game(phase="back", hex=hx("3.5"), terrain="beach")
    events = game.apply(("back", "dolphin"))
    s = game.state
    assert "revealed" in kinds(events) and "protected" not in kinds(events)
    assert at(game, "3.5") == [f"swim:{a1}", "dolphin"]
    assert s.hands[0] == [] and not s.guard


def test_E_3_a_dolphin_carries_one_swimmer_up_to_three_spaces_without_protecting_it() -> None:
    """E-3: a swimmer beside a dolphin rides it one space per point, up to three; having ridden
    it no longer swims; riding into a shark's space is fatal."""
    pos = position()
    a1 = pos.swimmer(0, "2.5")
    pos.swimmer(0, "10.5")
    pos.creature("dolphin", "2.5")
    pos.creature("shark", "2.1")
    game = pos.game(phase="move")
    assert "ride A2 10.4" not in steps(game)  # no dolphin beside A2: one swim only
    assert refused(game, "ride A2 10.4").rule == "E-3"
    game.apply(parse("ride A1 2.4"))
    assert at(game, "2.4") == [f"swim:{a1}", "dolphin"]
    assert "move A1 2.3" not in steps(game) and "ride A1 2.3" in steps(game)
    game.apply(parse("ride A1 2.3"))
    game.apply(parse("ride A1 2.2"))
    assert game.phase == "sink" and game.state.p_at[a1] == hx("2.2")
    pos = position()
    a1 = pos.swimmer(0, "2.2")
    pos.creature("dolphin", "2.2")
    pos.creature("shark", "2.1")
    game = pos.game(phase="move")
    events = game.apply(parse("ride A1 2.1"))
    assert "eaten" in kinds(events) and game.state.p_kind[a1] == LOST


def test_E_3_a_dolphin_spun_into_swimmers_protects_nobody() -> None:
    """E-3: dolphins do not protect: a spun dolphin just moves its full distance."""
    pos = position()
    pos.creature("dolphin", "2.5")
    pos.swimmer(1, "2.4")
    game, may = spun(pos, "dolphin", "2")
    assert may == ["dolphin1"]
    events = game.apply(parse("creature dolphin1 2.4"))
    assert "protected" not in kinds(events) and game.phase == "creature"
    game.apply(parse("creature dolphin1 2.3"))
    assert not game.state.guard and game.state.turn == 1


# -- E-4 setup ---------------------------------------------------------------------------------


def laid(players: int, mode: str = "digital") -> Game:
    game = Game.new(Rules(ESCAPE), players, seed=3, mode=mode)
    while game.is_chance():
        game.apply(game.draw())
    return game


def test_E_4_one_person_per_beach_any_number_elsewhere_and_no_values() -> None:
    """E-4: people carry no value; a beach tile takes one person, other tiles any number."""
    game = laid(2)
    s = game.state
    assert len(s.people_of(0)) == 10
    assert all(a[2] is None for a in game.legal_actions())
    beach = next(h for h in board_.LAND if s.terrain[h] == "beach")
    forest = next(h for h in board_.LAND if s.terrain[h] == "forest")
    assert refused(game, f"place {board_.name(beach)} =3").rule == "E-4"
    game.apply(("place", beach, None))
    game.apply(("place", forest, None))
    assert ("place", beach, None) not in game.legal_actions()
    assert refused(game, f"place {board_.name(beach)} =?").rule == "E-4"
    game.apply(("place", forest, None))
    assert len(s.land_people[forest]) == 2


@pytest.mark.parametrize(("players", "boats"), [(2, 2), (3, 4), (4, 4)])
def test_E_4_two_boats_with_two_players_four_with_three_or_four(players: int, boats: int) -> None:
    """E-4: 2 boats with 2 players, 4 with 3 or 4, placed one at a time in turn order; with 3
    players seat 1 places the fourth."""
    game = laid(players)
    placers: list[int] = []
    while game.phase in ("place", "boat"):
        if game.phase == "boat":
            assert game.actor is not None
            placers.append(game.actor)
        game.apply(game.legal_actions()[0])
    assert sum(boats_for(game.state, seat) for seat in range(players)) == boats
    assert placers == [*range(players), *([0] if players == 3 else [])]
    assert sum(pos != OFF for pos in game.state.b_pos) == boats


# -- E-5 sinking ring by ring ------------------------------------------------------------------


def test_E_5_rings_come_from_the_distance_to_the_lagoon() -> None:
    """E-5: 22 land positions at distance 3 or 4, then 12 at 2, then 6 at 1."""
    assert [len(ring) for ring in RINGS] == [22, 12, 6]
    for ring, far in zip(RINGS, ((3, 4), (2,), (1,)), strict=True):
        assert {board_.distance(h, board_.LAGOON) for h in ring} == set(far)


def test_E_5_the_outer_ring_sinks_first_whatever_the_terrain_empty_tiles_first() -> None:
    """E-5: only the outermost ring sinks, mountains among beaches; a tile with people only
    when no empty tile is left in that ring."""
    pos = position()
    pos.land(0, "3.4")
    game = pos.game(phase="sink")
    legal = {a[1] for a in game.legal_actions()}
    assert legal == set(RINGS[0]) - {hx("3.4")}
    assert hx("9.5") in legal  # a mountain, while beaches wait in inner rings
    assert refused(game, "sink 5.6").rule == "E-5"  # a beach of the inner ring
    assert refused(game, "sink 3.4").rule == "E-5"
    pos.sea(*(board_.name(h) for h in RINGS[0] if h != hx("3.4")))
    game = pos.game(phase="sink")
    assert [a[1] for a in game.legal_actions()] == [hx("3.4")]
    pos.sea("3.4")
    game = pos.game(phase="sink")
    assert {a[1] for a in game.legal_actions()} == set(RINGS[1])


# -- E-6 the end and the winner ----------------------------------------------------------------


def test_E_6_the_game_ends_when_the_last_person_is_saved_or_lost() -> None:
    """E-6: once nobody is left on the board the game ends at once; physical mode asks for no
    values, and the winner is who saved the most people."""
    pos = position(mode="physical", keeper=False)
    pos.saved(1, "NW")
    pos.saved(1, "NE")
    a1 = pos.swimmer(0, "2.0")
    game = pos.game(phase="move")
    events = game.apply(parse("move A1 NW"))
    assert game.over and game.state.p_kind[a1] != SEA
    [over] = [e for e in events if e.kind == "game_over"]
    assert over.data["rule"] == "E-6"
    result = game.result()
    assert result is not None and result["winners"] == [1] and result["ended_by"] == "E-6"
    assert [p["points"] for p in result["ranking"]] == [2, 1]
    assert result["reasons"][0]["rule"] == "E-6"


def test_E_6_the_volcano_ends_it_too() -> None:
    """E-6: the volcano ends the game; everyone still out is lost."""
    pos = position()
    a1 = pos.land(0, "5.5")
    game = pos.game(phase="back", hex=hx("9.5"), terrain="mountain")
    pos.sea("9.5")
    game.apply(("back", "volcano"))
    assert game.over and game.state.p_kind[a1] == LOST


@pytest.mark.parametrize(("tiebreak", "winners"), [("chain", [1]), ("shared", [0, 1])])
def test_E_6_a_tie_goes_to_fewer_turns_then_is_shared(tiebreak: str, winners: list[int]) -> None:
    """E-6: equal counts: the seat that had one turn fewer wins (as P-6 step 3); with
    tiebreak=shared they share it."""
    pos = position(keeper=False, tiebreak=tiebreak)
    pos.saved(0, "NW")
    pos.saved(1, "NE")
    game = pos.game(phase="back", hex=hx("9.5"), terrain="mountain")
    pos.sea("9.5")
    game.apply(("back", "volcano"))  # seat 1's turn: seat 2 had one turn fewer
    result = game.result()
    assert result is not None and result["winners"] == winners
    assert {r["rule"] for r in result["reasons"]} == {"E-6"}


# -- E-7 one entrance per island ---------------------------------------------------------------


@pytest.mark.parametrize("entrances", ["1", "2"])
def test_E_7_each_corner_island_has_one_entrance(entrances: str) -> None:
    """E-7: a safe island is reached from its one entrance (NW: 2.0), not from the other printed
    access hex (1.1) — unless entrances_per_island=2."""
    pos = position(entrances_per_island=entrances)
    pos.swimmer(0, "1.1")
    pos.swimmer(0, "2.0")
    game = pos.game(phase="move")
    assert "move A2 NW" in steps(game)
    if entrances == "2":
        assert "move A1 NW" in steps(game)
    else:
        assert "move A1 NW" not in steps(game)
        refusal = refused(game, "move A1 NW")
        assert refusal.rule == "E-7" and "2.0" in refusal.message


def test_E_7_the_1986_ruleset_is_played_alone_and_its_spinner_nowhere_else() -> None:
    """E-7: no kit goes with the 1986 ruleset; E-1: the base game refuses a spin, and the 1986
    game refuses the die."""
    with pytest.raises(Exception, match="alone"):
        Rules(("escape-1986", "dive-dice"))
    game = position().game(phase="roll")
    with pytest.raises(IllegalAction) as info:
        game.apply(("roll", "shark"))
    assert info.value.rule == "E-1"


@pytest.mark.rule("E-1", "E-3", "E-5", "E-7")
def test_refused_1986_actions_change_nothing_and_say_what_is_allowed() -> None:
    """A refused 1986 action leaves the game exactly as it was, and its message says what the
    rule allows instead."""
    pos = position()
    pos.creature("whale", "2.5")
    whale, _ = spun(pos, "whale", "3")
    whale.apply(parse("creature whale1 2.4"))
    pos = position()
    pos.land(0, "3.4")
    sink = pos.game(phase="sink")
    pos = position()
    pos.swimmer(0, "1.1")
    move = pos.game(phase="move")
    cases = [
        (whale, "done", "stops early only to attack"),
        (whale, "creature whale1 2.5", "never enters the same space twice"),
        (sink, "sink 5.6", "ring 1 from the outside sinks first"),
        (sink, "sink 3.4", "empty tiles of its ring first"),
        (move, "move A1 NW", "one entrance on the 1986 board: 2.0"),
        (move, "ride A1 1.2", "not a swimmer beside a dolphin"),
    ]
    for game, text, says in cases:
        before = game.to_json()
        refusal = refused(game, text)
        assert says in refusal.message, (text, refusal.message)
        assert game.to_json() == before
