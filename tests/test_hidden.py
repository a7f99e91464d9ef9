"""Hidden information, tested by difference (spec §1, §9, B-22, B-29).

Two games with the same public history but different hidden facts — the values chosen at
placement, the backs of the red tiles kept — must look the same to everyone who may not know
those facts: the spectator and every player but the owner, in every view and every projected
event, after every action. The referee's views must differ, which shows that the comparison
would catch a leak.

The first game is a seeded random game. Its players never play a red tile or a repellent (that
would make the hidden back public). The second game replays its log with:

* each seat's values placed in the reverse order (same tiles, other values: still the box's
  values 1,1,1,2,2,3,3,4,5,6, so every placement stays legal), and
* red turn tiles kept by seats 1 and 2 swapped pairwise between them, within a terrain: the
  tile seat 1 kept as a dolphin is a winds in the second game and the one seat 2 kept as a
  winds a dolphin. Counts of each back only move between those two moments, so every later
  back of the log is still possible in the second game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.engine import REFEREE, Event, Game, Rules
from companion.engine.data import TURN_TILES
from companion.engine.events import View
from companion.engine.state import Action
from tests.position import Position, hx

PLAYERS = 4
OWNERS = (0, 1)  # the seats whose red tiles differ between the two games


def public_choices(game: Game) -> list[Action]:
    """The moves the random players choose from: never one that shows a red tile."""
    return [a for a in game.legal_actions() if a[0] not in ("play", "repel")]


def random_log(seed: int, mode: str, rules: Rules) -> list[tuple[Action, int | None, Any]]:
    """A whole random game: each action with the seat acting and what the table knew."""
    game = Game.new(rules, PLAYERS, seed, mode)
    rng = random.Random(seed)
    log: list[tuple[Action, int | None, Any]] = []
    while not game.over:
        action = game.draw() if game.is_chance() else rng.choice(public_choices(game))
        terrain = game.state.ctx.get("terrain") if action[0] == "back" else None
        log.append((action, game.actor if action[0] == "place" else game.state.turn, terrain))
        game.apply(action)
    return log


def other_values(log: list[tuple[Action, int | None, Any]]) -> list[Action]:
    """The log with every seat's placed values in reverse order."""
    out = [a for a, _, _ in log]
    for seat in range(PLAYERS):
        mine = [i for i, (a, who, _) in enumerate(log) if a[0] == "place" and who == seat]
        for i, j in zip(mine, reversed(mine), strict=True):
            out[i] = (*out[i][:2], log[j][0][2])
    return out


def other_backs(log: list[tuple[Action, int | None, Any]], actions: list[Action]) -> int:
    """Swap red turn tiles kept by the two owners (same terrain, other back); how many."""
    kept = [
        (i, seat, terrain, a[1])
        for i, (a, seat, terrain) in enumerate(log)
        if a[0] == "back" and a[1] in TURN_TILES and seat in OWNERS
    ]
    used: set[int] = set()
    for i, seat, terrain, back in kept:
        for j, seat2, terrain2, back2 in kept:
            if i in used or j in used or seat == seat2 or terrain != terrain2 or back == back2:
                continue
            actions[i], actions[j] = ("back", back2), ("back", back)
            used |= {i, j}
    return len(used)


def viewers(hidden_from: tuple[int, ...]) -> list[View]:
    return [None, *(seat for seat in range(PLAYERS) if seat not in hidden_from)]


def seen(game: Game, viewer: View) -> str:
    view = game.referee_view() if viewer == REFEREE else game.view(viewer)
    return json.dumps(view, sort_keys=True)


def projected(events: list[Event], viewer: View) -> str:
    return json.dumps([e.project(viewer) for e in events], sort_keys=True)


def compare(
    seed: int,
    mode: str,
    rules: Rules,
    second: list[Action],
    same_for: list[View],
    differ_for: list[View],
) -> None:
    """Play both games side by side; `same_for` must never tell them apart, `differ_for` must
    at some point (until the end, where values become public anyway)."""
    log = random_log(seed, mode, rules)
    first = [a for a, _, _ in log]
    assert len(first) == len(second)
    one = Game.new(rules, PLAYERS, seed, mode)
    two = Game.new(rules, PLAYERS, seed, mode)
    told_apart: set[Any] = set()
    for n, (a, b) in enumerate(zip(first, second, strict=True)):
        ev_a, ev_b = one.apply(a), two.apply(b)
        if one.over:
            assert two.over
            break
        for viewer in same_for:
            where = f"after action {n} ({a} / {b}), viewer {viewer}"
            assert seen(one, viewer) == seen(two, viewer), where
            assert projected(ev_a, viewer) == projected(ev_b, viewer), where
        for viewer in differ_for:
            if seen(one, viewer) != seen(two, viewer):
                told_apart.add(viewer)
    assert told_apart == set(differ_for), "the hidden facts never differed: the test is blind"
    assert one.over


SEEDS = [3, 8, 21]


@pytest.mark.parametrize("seed", SEEDS)
def test_values_are_hidden_from_everyone_but_the_referee(seed: int) -> None:
    """§1, §9 (own_values_visible=no): other values chosen at placement change no player's view
    — the placer's included — and no spectator's; only the referee's."""
    rules = Rules()
    log = random_log(seed, "digital", rules)
    second = other_values(log)
    assert second != [a for a, _, _ in log]
    compare(seed, "digital", rules, second, viewers(()), [REFEREE])


@pytest.mark.parametrize("seed", SEEDS)
def test_own_values_visible_shows_them_to_the_owner_only(seed: int) -> None:
    """§9 (own_values_visible=yes): other values are seen by their owners, by nobody else."""
    rules = Rules(options={"own_values_visible": "yes"})
    log = random_log(seed, "digital", rules)
    second = [a for a, _, _ in log]
    # seat 1's values only: the other seats must not tell the games apart
    mine = [i for i, (a, who, _) in enumerate(log) if a[0] == "place" and who == 0]
    for i, j in zip(mine, reversed(mine), strict=True):
        second[i] = (*second[i][:2], log[j][0][2])
    compare(seed, "digital", rules, second, viewers((0,)), [0, REFEREE])


@pytest.mark.parametrize("seed", SEEDS)
def test_red_backs_and_values_hidden_from_all_but_their_owners(seed: int) -> None:
    """B-22, §9: other backs of the red tiles kept (and other values) change only the views of
    the seats that kept them, and the referee's; never a spectator's or a third player's."""
    rules = Rules()
    log = random_log(seed, "digital", rules)
    second = other_values(log)
    assert other_backs(log, second) >= 2
    compare(seed, "digital", rules, second, viewers(OWNERS), [*OWNERS, REFEREE])


@pytest.mark.parametrize("seed", SEEDS)
def test_physical_red_backs_told_privately_are_hidden(seed: int) -> None:
    """B-22 (physical mode): red backs told privately to the companion show only in the
    teller's view; values are unknown to the companion until the end."""
    rules = Rules()
    log = random_log(seed, "physical", rules)
    second = [a for a, _, _ in log]
    assert other_backs(log, second) >= 2
    compare(seed, "physical", rules, second, viewers(OWNERS), [*OWNERS, REFEREE])


def kept(back: str) -> tuple[Game, list[Event]]:
    """Seat 2 (physical tiles) removes a beach tile and keeps it, telling `back` or not."""
    pos = Position(players=3, mode="physical")
    pos.clear_serpents()
    pos.land(0, "5.2", None)
    pos.land(1, "5.3", None)
    pos.sea("3.4")
    game = pos.game("back", turn=1, hex=hx("3.4"), terrain="beach")
    events = game.apply(("back", back))
    return game, events


def test_physical_whether_a_red_back_was_told_is_hidden() -> None:
    """B-22 (physical mode): the remover may tell a red back at once (their phone only) or not
    until played; which of the two happened shows to no one else, then or at their next turn."""
    told, ev_told = kept("winds")
    untold, ev_untold = kept("red")
    for viewer in (None, 0, 2):
        assert seen(told, viewer) == seen(untold, viewer)
        assert projected(ev_told, viewer) == projected(ev_untold, viewer)
    assert seen(told, 1) != seen(untold, 1)
    assert seen(told, REFEREE) != seen(untold, REFEREE)
    for game in (told, untold):  # the die: no serpent on the board, the turn passes on
        game.apply(("roll", "serpent"))
    for viewer in (None, 0, 2):
        assert seen(told, viewer) == seen(untold, viewer)


def attacked(back: str) -> Game:
    """Seat 1 moves a shark onto a swimmer of seat 2, who holds one red tile: `back`."""
    pos = Position(players=3)
    pos.clear_serpents()
    pos.land(0, "5.2", 1)
    pos.swimmer(1, "1.3", 2)
    pos.hold(1, "beach", back)
    shark = pos.creature("shark", "1.4")
    game = pos.game("creature", turn=0, kind="shark", creature=None, steps=0)
    game.apply(("creature", shark, hx("1.3")))
    return game


def test_B_29_defence_pause_does_not_tell_which_tile_is_held() -> None:
    """§9, B-29: how many red tiles a player holds is public, which they are is not; a
    spectator should not learn from the game's course whether the attacked seat's one tile is
    a shark repellent or a dolphin."""
    with_repellent, with_dolphin = attacked("shark-repellent"), attacked("dolphin")
    assert seen(with_repellent, None) == seen(with_dolphin, None)


def test_B_22_backs_offered_to_the_remover_ignore_what_others_told_privately() -> None:
    """B-22 with §9: the backs the remover is offered come from what that seat may know; two
    winds told privately by another seat are still offered, though the referee knows better."""
    from companion.engine import sinking
    from tests.position import Position, hx

    pos = Position(players=2, mode="physical")
    pos.hold(1, "beach", "winds")
    pos.hold(1, "beach", "winds")
    game = pos.game("back", hex=hx("5.2"), terrain="beach")
    assert "winds" not in sinking.possible_backs(game.state)  # the referee's knowledge
    assert "winds" in sinking.possible_backs_seen_by(game.state, 0)
    assert "winds" not in sinking.possible_backs_seen_by(game.state, 1)  # its own tiles it knows
