"""Whole games of the 1986 ruleset: random games keep every invariant, the checker knows the 1986
counts, and a game played through the Table is stored and replays unchanged (E-1 ... E-7)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.commands import Command
from companion.engine import Game, Rules, notation, violations
from companion.engine.rules import OPTIONS
from companion.engine.state import OFF, SEA
from companion.table import Table
from tests.playing import mirror, new_game, play_setup, play_until

ESCAPE = ("escape-1986",)

options = st.fixed_dictionaries(
    {name: st.sampled_from(values) for name, (values, _) in OPTIONS.items()}
)


@pytest.mark.rule("E-1", "E-2", "E-3", "E-4", "E-5", "E-6", "E-7")
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    mode=st.sampled_from(["digital", "physical"]),
    chosen=options,
)
def test_random_1986_games_keep_every_invariant(
    seed: int, players: int, mode: str, chosen: dict[str, str]
) -> None:
    """Every action of a random 1986 game leaves a sound state; the stored form round-trips;
    the game ends with a head count for a score."""
    game = Game.new(Rules(ESCAPE, chosen), players, seed, mode)
    rng = random.Random(seed)
    while not game.over:
        action = game.draw() if game.is_chance() else rng.choice(game.legal_actions())
        game.apply(action)
        assert violations(game) == [], notation(action)
    again = Game.from_json(json.loads(json.dumps(game.to_json())))
    assert again.referee_view() == game.referee_view()
    result = game.result()
    assert result is not None
    assert all(place["points"] == place["saved"] for place in result["ranking"])


def test_E_4_E_6_the_checker_knows_the_1986_counts() -> None:
    """E-4: 1986 people have no value; E-3: no dolphin protects; E-4: no more boats than were
    placed (2 with 2 players) and brought by tiles; a dolphin only for a dolphin tile shown."""
    game = Game.new(Rules(ESCAPE), players=2, seed=5)
    while game.phase in ("terrain", "place", "boat"):
        game.apply(game.draw() if game.is_chance() else game.legal_actions()[0])
    assert violations(game) == []
    s = game.state
    s.p_value[0] = 3
    spare = s.b_pos.index(OFF)
    s.b_pos[spare] = next(h for h in range(len(s.terrain)) if s.vacant(h))
    dolphin = s.c_kind.index("dolphin")
    swimmer = 1
    s.p_kind[swimmer], s.p_at[swimmer] = SEA, s.b_pos[spare]
    s.c_pos[dolphin] = s.b_pos[spare]
    s.guard[dolphin] = swimmer
    s.reindex()
    found = " / ".join(violations(game))
    assert "with a value" in found
    assert "a dolphin protects" in found
    assert "3 boats on the board; setup and boat tiles gave 2" in found
    assert "1 dolphins came out for 0 dolphin tiles shown" in found


def test_E_1_a_1986_game_through_the_table_is_stored_and_replays_unchanged(table: Table) -> None:
    """E-1: the spinner's result is a fact of the table: told by the table or spun by the
    companion, stored, correctable; the stored game replays to the same state."""
    game = new_game(table, modules=list(ESCAPE), mode="physical")
    play_setup(table, game)
    assert mirror(table, game).state.is_1986
    play_until(table, game, "roll")
    told = table.call(Command("cli", game=game, action=["spin", "serpent", "dive"]))
    assert told.accepted, told.message
    assert mirror(table, game).state.roll == "serpent dive"
    fixed = table.call(
        Command("cli", game=game, intent="correct", args={"seq": told.seq,
                                                         "action": ["spin", "serpent", "1"]})
    )  # fmt: skip
    assert fixed.accepted, fixed.message
    assert mirror(table, game).state.roll == "serpent 1"
    for _ in range(3):  # on through a few turns, the companion spinning
        now = play_until(table, game, "roll")
        spun = table.call(Command("cli", game=game, intent="roll"))
        assert spun.accepted, spun.message
        assert not now.over
    rows = table.read(lambda: table._store.log(game))
    assert sum(row.action[0] == "spin" for row in rows) == 4
    state = table.snapshot(game, "referee")["state"]
    assert state["rules"]["modules"] == ["escape-1986"]
    assert state == mirror(table, game).referee_view()
    assert Table(table._store).snapshot(game, "referee")["state"] == state
