"""Refusals: every verb refused when illegal (naming the rule) or malformed, leaving the game as
it was.

An illegal action is well formed but forbidden now: `IllegalAction` with the spec id it breaks.
A malformed one is not an action at all (unknown verb, wrong arity or type, a hex not on the
board, junk): `MalformedAction`. Either way `game.to_json()` is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from companion.engine import (
    EngineError,
    Game,
    IllegalAction,
    MalformedAction,
    Rules,
    parse,
)
from companion.engine.actions import SHAPES
from tests.position import Position, hx

Build = Callable[[], Game]


def refusal(game: Game, action: Any, error: type[EngineError]) -> EngineError:
    """Apply `action`, which must be refused with `error`; the game must not change."""
    before = game.to_json()
    legal = list(game.legal_actions())
    with pytest.raises(error) as info:
        game.apply(action)
    assert game.to_json() == before
    assert game.legal_actions() == legal
    return info.value


def illegal(game: Game, action: Any) -> IllegalAction:
    error = refusal(game, action, IllegalAction)
    assert isinstance(error, IllegalAction)
    assert error.message and str(error).startswith(error.rule)
    return error


# -- positions, one per moment of the game ---------------------------------------------------


def laying() -> Game:
    """All 8 mountain tiles laid first; the island is still being laid."""
    game = Game.new(Rules(), players=2, seed=1)
    for _ in range(8):
        game.apply(("terrain", "mountain"))
    return game


def placing() -> Game:
    """The island laid; seat 1 placed a person on the first land position, seat 2 to place."""
    game = Game.new(Rules(), players=2, seed=1)
    while game.is_chance():
        game.apply(game.draw())
    first = min(game.legal_actions())
    game.apply(first)
    assert game.phase == "place" and game.actor == 1
    return game


def boating() -> Game:
    """Everybody placed; boats are being placed."""
    game = Game.new(Rules(), players=2, seed=1)
    while game.phase != "boat":
        game.apply(game.draw() if game.is_chance() else game.legal_actions()[0])
    return game


def table(phase: str = "move", mode: str = "digital", **ctx: Any) -> Game:
    """Seat 1's turn with people, boats, creatures and red tiles about."""
    pos = Position(players=2, mode=mode)
    pos.clear_serpents()
    pos.land(0, "5.2", 6)  # A1
    pos.swimmer(0, "1.3", 2)  # A2
    pos.land(1, "5.3", 3)  # B1
    pos.boat("1.5")  # b1, empty
    full = [pos.passenger(1, 1) for _ in range(3)]  # B2-B4
    pos.boat("5.1", full)  # b2, full, next to A1
    pos.boat("2.4")  # b3, empty, next to the beach 3.4
    pos.creature("shark", "1.8")  # shark1
    pos.creature("whale", "3.2")  # whale1
    pos.hold(0, "beach", "move-whale")
    return pos.game(phase, **ctx)


def dolphin_effect() -> Game:
    """Seat 1 played a dolphin tile and has not moved the swimmer yet."""
    pos = Position(players=2)
    pos.clear_serpents()
    pos.swimmer(0, "1.3", 2)
    pos.hold(0, "beach", "dolphin")
    game = pos.game("tile")
    game.apply(parse("play dolphin"))
    assert game.phase == "effect"
    return game


def shark_put() -> Game:
    """Seat 1 played a move-shark tile; the shark waits to be put on a vacant sea space."""
    game = table("tile")
    game.state.hands[0] = [["beach", "move-shark"]]
    game.state.known["beach"] = {"move-shark": 1}
    game = Game(game.state)
    game.apply(parse("play move-shark"))
    assert game.phase == "effect"
    return game


def creature_step(**options: str) -> Game:
    """The die showed a whale; a shark and two whales are on the board."""
    pos = Position(players=2, **options)
    pos.clear_serpents()
    pos.land(0, "5.2", 1)
    pos.creature("shark", "1.8")
    pos.creature("whale", "3.2")
    pos.creature("whale", "0.5")
    return pos.game("creature", kind="whale", creature=None, steps=0)


def swimmers_at_boat_tile(n: int) -> Position:
    """A forest tile at 4.3 was just removed with `n` people on it; its back is awaited."""
    pos = Position(players=2)
    pos.clear_serpents()
    for k in range(n):
        pos.swimmer(k % 2, "4.3", 1)
    pos.sea("4.3")
    return pos


def picking() -> Game:
    """A boat tile: four swimmers there, the remover picks the three who board."""
    pos = swimmers_at_boat_tile(4)
    pos.swimmer(0, "1.3", 1)
    game = pos.game("back", hex=hx("4.3"), terrain="forest")
    game.apply(parse("back boat"))
    assert game.phase == "pick"
    return game


SEA_SPACES = ["0.3", "0.4", "0.5", "0.6", "0.7", "0.8", "12.3", "12.4", "12.5", "12.6", "12.7"]


def taking() -> Game:
    """A boat tile with the supply empty: two unoccupied boats on the board to choose from."""
    pos = swimmers_at_boat_tile(1)
    aboard = pos.passenger(1, 1)
    pos.boat("12.2", [aboard])  # b1, occupied
    for name in SEA_SPACES:
        pos.boat(name)
    assert pos.s.boats_left() == []
    game = pos.game("back", hex=hx("4.3"), terrain="forest")
    game.apply(parse("back boat"))
    assert game.phase == "take"
    return game


def revealing() -> Game:
    """Physical mode, the volcano: seat 1 has told A1's value (6); A2 is next."""
    pos = Position(players=2, mode="physical")
    pos.saved(0, "NW", None)
    pos.saved(0, "SE", None)
    pos.sea("4.6")
    game = pos.game("back", hex=hx("4.6"), terrain="mountain")
    game.apply(parse("back volcano"))
    game.apply(parse("reveal A1 =6"))
    assert game.phase == "reveal"
    return game


def over() -> Game:
    pos = Position(players=2)
    pos.saved(0, "NW", 3)
    pos.sea("4.6")
    game = pos.game("back", hex=hx("4.6"), terrain="mountain")
    game.apply(parse("back volcano"))
    assert game.over
    return game


# -- illegal: well formed, forbidden now -------------------------------------------------------

# verb -> (what, position, action, the rules it may cite)
ILLEGAL: list[tuple[str, str, Build, str, set[str]]] = [
    ("terrain", "a ninth mountain", laying, "terrain mountain", {"B-2"}),
    ("place", "on a tile that holds a person", placing, "place 3.4 =1", {"B-5"}),
    ("place", "on the sea", placing, "place 6.5 =1", {"B-5"}),
    ("place", "no value in digital mode", placing, "place 4.5 =?", {"B-5"}),
    ("boat", "on land", boating, "boat 5.5", {"B-6"}),
    ("boat", "far from the island", boating, "boat 0.5", {"B-6"}),
    ("play", "a tile not held", lambda: table("tile"), "play dolphin", {"B-22"}),
    ("play", "a green back", lambda: table("tile"), "play shark", {"B-7"}),
    ("play", "a defensive tile at step 1", lambda: table("tile"), "play shark-repellent", {"B-7"}),
    ("move", "two spaces over land", table, "move A1 5.4", {"B-12"}),
    ("move", "a swimmer two spaces", table, "move A2 1.5", {"B-16"}),
    ("move", "another seat's person", table, "move B1 5.4", {"B-8"}),
    ("move", "a swimmer onto a safe island from afar", table, "move A2 NW", {"B-16"}),
    ("go", "a path past the three points", table, "go A1 5.3 5.4 5.5 5.6", {"B-8"}),
    ("board", "a boat not next to the person", table, "board A1 b1", {"B-12"}),
    ("board", "a full boat", table, "board A1 b2", {"B-13"}),
    ("board", "a swimmer, a boat in another space", table, "board A2 b1", {"B-16"}),
    ("sail", "a boat controlled by another seat", table, "sail b2 5.0", {"B-14"}),
    ("sail", "two spaces", table, "sail b1 1.7", {"B-13"}),
    ("sail", "onto land", table, "sail b3 3.4", {"B-13"}),
    ("done", "a dolphin tile without a move", dolphin_effect, "done", {"B-38"}),
    (
        "done",
        "declining a mandatory creature move",
        lambda: creature_step(creature_move="mandatory"),
        "done",
        {"B-10"},
    ),
    ("sink", "a forest while beaches remain", lambda: table("sink"), "sink 4.3", {"B-20"}),
    ("sink", "an inland beach", lambda: table("sink"), "sink 5.7", {"B-21"}),
    ("sink", "the sea", lambda: table("sink"), "sink 1.3", {"B-9"}),
    (
        "back",
        "an untold red back in digital mode",
        lambda: table("back", hex=hx("5.7"), terrain="beach"),
        "back red",
        {"B-22"},
    ),
    (
        "back",
        "a back no beach tile has",
        lambda: table("back", hex=hx("5.7"), terrain="beach"),
        "back volcano",
        {"B-22"},
    ),
    ("pick", "a swimmer elsewhere", picking, "pick A3", {"B-35"}),
    ("take", "an occupied boat", taking, "take b1", {"B-35"}),
    ("roll", "during movement", table, "roll shark", {"B-8"}),
    (
        "creature",
        "a shark when the die shows a whale",
        creature_step,
        "creature shark1 1.7",
        {"B-10"},
    ),
    ("creature", "two spaces at once", creature_step, "creature whale1 3.4", {"B-27"}),
    ("creature", "a whale not on the board", creature_step, "creature whale3 3.1", {"B-28"}),
    ("put", "onto a space that is not vacant", shark_put, "put shark1 1.5", {"B-41"}),
    ("put", "a whale with a move-shark tile", shark_put, "put whale1 0.5", {"B-41"}),
    ("repel", "with no attack under way", table, "repel", {"B-8"}),
    ("reveal", "a value the seat no longer has", revealing, "reveal A2 =6", {"B-31"}),
    ("reveal", "a person not saved", revealing, "reveal B1 =1", {"B-31"}),
    (
        "dive",
        "the dive dice in a game with the red die",
        lambda: table("roll"),
        "dive shark 2",
        {"B-10"},
    ),
    (
        "protect",
        "a dolphin switch in a game without dolphins",
        creature_step,
        "protect dolphin1 A1",
        {"D-9"},
    ),
    ("grab", "a squid's grab with no squid about", table, "grab B1", {"B-8"}),
    ("ride", "riding with no dolphin", table, "ride A2 1.5", {"D-8"}),
    (
        "spin",
        "the 1986 spinner in a game with the red die",
        lambda: table("roll"),
        "spin shark 2",
        {"E-1"},
    ),
]


def test_every_verb_has_an_illegal_case() -> None:
    assert {verb for verb, *_ in ILLEGAL} == set(SHAPES)


@pytest.mark.parametrize(
    ("build", "text", "rules"),
    [pytest.param(b, t, r, id=f"{v}: {w}") for v, w, b, t, r in ILLEGAL],
)
def test_illegal_action_is_refused_naming_its_rule(
    build: Build, text: str, rules: set[str]
) -> None:
    """Each verb, asked when the rules forbid it, is refused with the rule it breaks."""
    game = build()
    action = parse(text)
    assert action not in game.legal_actions()
    assert illegal(game, action).rule in rules


def test_B_12_B_16_illegal_moves_name_the_movement_rule() -> None:
    """B-12, B-16: moving a person two spaces cites the movement rules, whoever moves."""
    game = table()
    for text in ("move A1 5.4", "move A2 1.5", "move A1 7.2"):
        assert illegal(game, parse(text)).rule in {"B-12", "B-16"}


# -- asked at the wrong moment --------------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "text", "rule"),
    [
        (table, "roll shark", "B-8"),
        (lambda: table("tile"), "sink 3.4", "B-7"),
        (lambda: table("tile"), "move A1 5.1", "B-7"),
        (lambda: table("sink"), "done", "B-9"),
        (lambda: table("back", hex=hx("5.7"), terrain="beach"), "roll whale", "B-22"),
        (placing, "boat 1.5", "B-5"),
        (boating, "move A1 5.1", "B-6"),
        (laying, "place 3.4 =1", "B-2"),
        (revealing, "done", "B-31"),
    ],
)
def test_action_of_a_step_to_come_names_the_step_under_way(
    build: Build, text: str, rule: str
) -> None:
    """An action of a later step is refused with the rule of the step under way, which comes
    first (B-7 ... B-10: four steps in order)."""
    game = build()
    error = illegal(game, parse(text))
    assert error.rule == rule
    assert text.split()[0] in error.message


@pytest.mark.parametrize(
    ("build", "text", "rule"),
    [
        (table, "terrain beach", "B-2"),
        (lambda: table("sink"), "place 3.4 =1", "B-5"),
        (lambda: table("roll"), "move A1 5.1", "B-8"),
        (lambda: table("roll"), "sail b1 1.6", "B-8"),
        (lambda: table("roll"), "sink 3.4", "B-9"),
        (lambda: table("roll"), "play move-whale", "B-7"),
        (revealing, "roll shark", "B-10"),
    ],
)
def test_action_of_a_step_already_past_names_its_own_rule(
    build: Build, text: str, rule: str
) -> None:
    """An action whose step is over this turn (or this game) is refused under the rule of that
    step, not of the step the game has gone on to: a fourth movement point breaks B-8, not the
    removal (B-9) or the die (B-10) that follows."""
    game = build()
    error = illegal(game, parse(text))
    assert error.rule == rule
    assert text.split()[0] in error.message


# -- malformed: not an action at all -------------------------------------------------------

JUNK: list[Any] = [
    ("fly", 1),
    ("move", 7),
    ("move", "A1", 58),
    ("move", 0, "5.1"),
    ("sink", 999),
    ("sink", -1),
    ("sink", True),
    ("sink", 25.0),
    ("sail", 12, 5),
    ("creature", 25, 5),
    ("place", 33, 7),
    ("place", 33, 0),
    ("roll", "dolphin"),
    ("back", "treasure"),
    ("play", "red"),
    ("reveal", 0, None),
    ("terrain", "swamp"),
    ("done", 1),
    ("repel", None),
    ["move", [1], {}],
    [[1], 2],
    [{"verb": "move"}],
    (),
    [],
    None,
    42,
    "move A1 5.1",
    {"move": 1},
    (None,),
]


@pytest.mark.parametrize("junk", JUNK, ids=repr)
def test_malformed_action_is_refused(junk: Any) -> None:
    """Unknown verbs, wrong arities and types, hexes off the board, junk: MalformedAction."""
    refusal(table(), junk, MalformedAction)


@pytest.mark.parametrize("verb", sorted(SHAPES))
def test_every_verb_malformed_by_arity_and_by_type(verb: str) -> None:
    """For each verb: an argument too many or too few, and arguments of the wrong type."""
    shape = SHAPES[verb]
    game = table()
    extra = "x" if shape[-1:] == ("hex+",) else 0  # a path takes more spaces, never a word
    refusal(game, (verb, *([0] * len(shape)), extra), MalformedAction)
    if shape:
        refusal(game, (verb, *([0] * (len(shape) - 1))), MalformedAction)
        refusal(game, [verb, *([{}] * len(shape))], MalformedAction)
        refusal(game, (verb, *([[0]] * len(shape))), MalformedAction)
        refusal(game, (verb, *([0.5] * len(shape))), MalformedAction)


def test_a_lookalike_of_a_legal_action_is_malformed() -> None:
    """An argument that only compares equal to a legal one (58.0 for hex 58, True for 1) is
    not an action: refused as malformed, never half applied."""
    game = Game.new(Rules(), players=2, seed=2)
    rng = random.Random(2)
    while game.phase != "move":
        game.apply(game.draw() if game.is_chance() else rng.choice(game.legal_actions()))
    for action in game.legal_actions():
        if len(action) == 3 and isinstance(action[2], int):
            refusal(game, (*action[:2], float(action[2])), MalformedAction)
            refusal(game, (action[0], float(action[1]), action[2]), MalformedAction)
    place = Game.new(Rules(), players=2, seed=2)
    while place.is_chance():
        place.apply(place.draw())
    refusal(place, ("place", float(place.legal_actions()[0][1]), 1), MalformedAction)
    refusal(place, ("place", place.legal_actions()[0][1], True), MalformedAction)
    assert place.phase == "place" and place.actor == 0


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "teleport A1 5.1",
        "move A1",
        "move A1 5.1 5.2",
        "move Z1 5.1",
        "move A 5.1",
        "move A1 99.99",
        "move A1 north",
        "sail boat1 5.1",
        "creature kraken1 5.1",
        "creature shark 5.1",
        "place 3.4 =7",
        "place 3.4 7",
        "back treasure",
        "roll",
    ],
)
def test_malformed_text_is_refused_by_parse(text: str) -> None:
    """`parse` refuses text that is not an action with MalformedAction."""
    with pytest.raises(MalformedAction):
        parse(text)
