"""What each panel button does in each step (`companion.panel.buttons`), and a press carried out
through a real Table (`companion.panel.presses`): the one place every panel goes through."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from companion.commands import Command
from companion.engine.game import PHASES
from companion.panel import buttons
from companion.panel.buttons import HOLD, PRESS, Meaning, Press, meaning
from companion.panel.presses import TableDown, carry_out
from companion.table import Table
from tests.playing import first, mirror, new_game, play_until

# -- the table of meanings ----------------------------------------------------------------


def test_every_step_of_the_engine_is_in_the_table() -> None:
    # A new engine phase must be given a meaning (or none) here, not fall through silently.
    assert set(PHASES) | {"over"} <= buttons.steps()


@pytest.mark.parametrize(
    ("press", "step", "intent"),
    [
        (Press("roll"), "roll", "roll"),
        (Press("roll", HOLD), "roll", "roll"),
        (Press("roll"), "back", "draw"),
        (Press("roll"), "terrain", "draw"),
        (Press("next"), "move", "next"),
        (Press("next"), "tile", "next"),
        (Press("next"), "creature", "next"),
        (Press("undo"), "move", "undo"),
        (Press("undo"), "sink", "undo"),
    ],
)
def test_a_press_means_its_intent_in_its_step(press: Press, step: str, intent: str) -> None:
    found = meaning(press, step)
    assert found is not None and found.intent == intent
    assert not found.repeat


def test_holding_undo_repeats_undo_and_only_undo_repeats() -> None:
    assert meaning(Press("undo", HOLD), "move") == Meaning("undo", repeat=True)
    repeating = {(b, g) for (b, g, _), m in buttons.MEANINGS.items() if m.repeat}
    assert repeating == {("undo", HOLD)}


@pytest.mark.parametrize(
    ("press", "step"),
    [
        (Press("roll"), "move"),  # the die is rolled in step 4 only
        (Press("roll"), "sink"),
        (Press("next"), "sink"),  # a tile must be removed: nothing to skip
        (Press("next"), "roll"),
        (Press("undo"), "roll"),  # the die is a fact: corrected, never undone
        (Press("undo"), "terrain"),
        (Press("roll"), "over"),
        (Press("next"), "reveal"),
        (Press("roll"), None),  # no game yet
    ],
)
def test_a_press_that_means_nothing_in_the_step_has_no_meaning(
    press: Press, step: str | None
) -> None:
    assert meaning(press, step) is None


def test_a_press_names_a_known_button_and_gesture() -> None:
    with pytest.raises(ValueError, match="unknown button"):
        Press("dice")
    with pytest.raises(ValueError, match="pressed or held"):
        Press("roll", "double")
    assert str(Press("undo", HOLD)) == "UNDO (held)" and str(Press("roll", PRESS)) == "ROLL"


# -- carried out through a real Table -----------------------------------------------------


def rows(table: Table, game: int) -> list[tuple[list[object], str, str]]:
    """Every stored action with its source and status, in order."""
    log = table.read(lambda: table._store.log(game, everything=True))
    return [(r.action, r.source, r.status) for r in log]


def test_roll_in_step_4_rolls_the_die(table: Table) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    outcome = carry_out(table, Press("roll"), "gpio")
    assert outcome.accepted and outcome.intent == "roll" and outcome.step == "roll"
    action, source, status = rows(table, game)[-1]
    assert action[0] == "roll" and source == "gpio" and status == "ok"
    assert f"rolled {action[1]}" in outcome.message


def test_a_press_reads_the_step_without_a_snapshot(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a button means depends on the step alone: a press asks the Table for that, not for
    a whole snapshot of the game (built for nobody, in the time a player waits)."""
    game = new_game(table, seed=3)
    play_until(table, game, "roll")

    def no_snapshot(*args: object) -> None:
        raise AssertionError("a press asked for a snapshot")

    monkeypatch.setattr(table, "snapshot", no_snapshot)
    outcome = carry_out(table, Press("roll"), "gpio")
    assert outcome.accepted and outcome.step == "roll"


def test_a_press_goes_to_the_table_once(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The step a press is looked up in and the command it makes are one job on the Table's
    thread: a press is handed to the Table and back once, not first for the step and again for
    the command (every hand-over between threads is time a player waits)."""
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    jobs: list[object] = []
    real = table._on_thread

    def counted(job: Callable[[], object]) -> object:
        jobs.append(job)
        return real(job)

    monkeypatch.setattr(table, "_on_thread", counted)
    outcome = carry_out(table, Press("roll"), "gpio")
    assert outcome.accepted and outcome.step == "roll"
    assert len(jobs) == 1


def test_roll_draws_a_tile_back_the_table_waits_for(table: Table) -> None:
    game = new_game(table, seed=3, mode="physical")
    play_until(table, game, "back")
    outcome = carry_out(table, Press("roll"), "serial")
    assert outcome.accepted and outcome.intent == "draw"
    action, source, _ = rows(table, game)[-1]
    assert action[0] == "back" and source == "serial"
    assert mirror(table, game).phase != "back"


def test_roll_lays_the_next_island_tile_when_the_island_is_laid_by_hand(table: Table) -> None:
    game = new_game(table, seed=3, layout="table")
    assert mirror(table, game).phase == "terrain"
    before = len(rows(table, game))
    outcome = carry_out(table, Press("roll"), "gpio")
    assert outcome.accepted and outcome.intent == "draw"
    assert len(rows(table, game)) == before + 1 and rows(table, game)[-1][0][0] == "terrain"


def test_a_press_meaning_nothing_sends_no_command(table: Table) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "sink")
    before = rows(table, game)
    outcome = carry_out(table, Press("next"), "gpio")
    assert not outcome.accepted and outcome.intent is None and outcome.step == "sink"
    assert "means nothing in step sink" in outcome.message
    assert rows(table, game) == before


def test_a_press_the_table_refuses_is_not_accepted(table: Table) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "move")  # nothing moved yet this turn: nothing to undo
    outcome = carry_out(table, Press("undo"), "gpio")
    assert not outcome.accepted and outcome.intent == "undo"
    assert "undone" in outcome.message  # the Table's own sentence


def test_no_game_means_no_command(table: Table) -> None:
    outcome = carry_out(table, Press("roll"), "gpio")
    assert not outcome.accepted and outcome.step is None
    assert "no game" in outcome.message


def test_undo_takes_back_one_move_and_a_held_undo_the_whole_turn(table: Table) -> None:
    game = new_game(table, seed=3)
    state = play_until(table, game, "move")
    seat = state.actor
    for _ in range(3):
        action = first(mirror(table, game), "move")
        assert table.call(Command("cli", seat=seat, game=game, action=list(action))).accepted
    one = carry_out(table, Press("undo"), "gpio")
    assert one.accepted and one.times == 1
    assert [s for _, _, s in rows(table, game)][-3:] == ["ok", "ok", "undone"]
    rest = carry_out(table, Press("undo", HOLD), "gpio")
    assert rest.accepted and rest.times == 2
    assert [s for _, _, s in rows(table, game)][-3:] == ["undone"] * 3
    assert mirror(table, game).phase == "move"


def test_a_stopped_table_is_told_not_hidden(table: Table) -> None:
    new_game(table, seed=3)
    table.stop()
    with pytest.raises(TableDown, match="not running"):
        carry_out(table, Press("roll"), "gpio")
