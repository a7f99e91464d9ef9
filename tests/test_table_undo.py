"""An undo replays from a game the Table keeps near the turn's start (`Loaded.kept`), brought up
to it in the Table's quiet moments: right after a turn starts, half-way through that quiet work,
after a restart and at a never-quiet pace, the game an undo leaves is the one the store replays
(B-24: the moves of a turn are the player's own until the turn ends)."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from companion.commands import Command
from companion.store import Store
from companion.table import UNDO_REPLAYS_AT_MOST, Loaded, Table
from tests.playing import mirror, new_game
from tests.web_support import close, started_table

pytestmark = pytest.mark.rule("B-24")


def loaded(table: Table, game: int) -> Loaded:
    found: Loaded = table.read(lambda: table._fetch(game))
    return found


def step(table: Table, game: int, rng: random.Random) -> None:
    """One random legal move of the seat deciding, or a draw when the game waits for chance."""
    held = loaded(table, game).game
    if held.is_chance():
        command = Command("cli", game=game, intent="draw")
    else:
        action = rng.choice(held.legal_actions())
        command = Command("cli", seat=held.actor, game=game, action=list(action))
    assert table.call(command).accepted


def undo_matches_the_store(table: Table, game: int) -> None:
    """Undo the last move; the game in memory is the one the stored log replays to."""
    seat = loaded(table, game).log[-1].seat
    assert table.call(Command("cli", seat=seat, game=game, intent="undo")).accepted
    held = loaded(table, game).game
    replayed = mirror(table, game)
    assert held.referee_view() == replayed.referee_view()
    assert held.legal_actions() == replayed.legal_actions()


def undoable(table: Table, game: int) -> bool:
    return table.read(lambda: table._undoable(table._fetch(game))) is not None


def undo_six_times(
    path: Path, seed: int, ready: Callable[[Loaded], bool], before: Callable[[Loaded], None]
) -> None:
    """Play on a Table never quiet (its jobs run in the caller's thread); six times when the
    game is `ready` and its last move undoable, do `before`, undo it and check the game."""
    table = Table(Store(path))
    try:
        game = new_game(table, seed=seed)
        rng = random.Random(seed)
        checked = 0
        while checked < 6 and not loaded(table, game).game.over:
            step(table, game, rng)
            held = loaded(table, game)
            if ready(held) and undoable(table, game):
                table.read(lambda: before(held))  # noqa: B023 (called at once)
                undo_matches_the_store(table, game)
                checked += 1
        assert checked == 6
    finally:
        table._store.close()


def test_an_undo_right_after_a_turn_starts_replays_from_the_game_kept_behind_it(
    tmp_path: Path,
) -> None:
    """Never quiet, the Table keeps no copy of each turn's start: the undo of a turn's first
    move (and of its second) replays the actions since the game kept, and leaves what the store
    replays."""

    def behind(held: Loaded) -> None:
        assert held.behind  # the path under test: replayed from before the turn

    undo_six_times(
        tmp_path / "games.db", 11, lambda held: len(held.log) - held.turn_start in (1, 2), behind
    )


def test_an_undo_half_way_through_the_quiet_catching_up_leaves_what_the_store_replays(
    tmp_path: Path,
) -> None:
    rng = random.Random(12)

    def half_way(held: Loaded) -> None:
        for _ in range(rng.randrange(1, held.turn_start - held.kept_at)):
            held.catch_up()
        assert 0 < held.kept_at < held.turn_start

    undo_six_times(
        tmp_path / "games.db", 12, lambda held: held.turn_start - held.kept_at > 3, half_way
    )


def test_an_undo_after_a_restart_leaves_what_the_store_replays(tmp_path: Path) -> None:
    path = tmp_path / "games.db"
    table = Table(Store(path))
    game = new_game(table, seed=13)
    rng = random.Random(13)
    checked = 0
    while checked < 4:
        step(table, game, rng)
        if len(loaded(table, game).log) > UNDO_REPLAYS_AT_MOST + 30 and undoable(table, game):
            table._store.close()  # the daemon restarts: memory is rebuilt from the store
            table = Table(Store(path))
            assert loaded(table, game).kept is not None  # copied while the log was replayed
            undo_matches_the_store(table, game)
            checked += 1
    table._store.close()


def test_the_table_brings_the_kept_game_to_the_turns_start_when_quiet(tmp_path: Path) -> None:
    """Left quiet, the Table replays the game it keeps up to the turn's start, one action at a
    time: an undo then replays only the turn's own moves."""
    table = started_table(tmp_path / "games.db")
    try:
        game = new_game(table, seed=14)
        rng = random.Random(14)
        while loaded(table, game).turn_start < 40:
            step(table, game, rng)
        held = loaded(table, game)
        deadline = time.monotonic() + 10
        while table.read(lambda: held.behind) and time.monotonic() < deadline:
            time.sleep(0.01)  # a read does not put the quiet work off
        kept_at, kept = table.read(lambda: (held.kept_at, held.kept))
        assert kept_at == held.turn_start and kept is not None
        fresh = Loaded.load(held.record, held.log[:kept_at]).game
        assert kept.referee_view() == fresh.referee_view()
    finally:
        close(table)


def test_an_undo_never_replays_more_than_its_bound_however_long_the_game(
    tmp_path: Path,
) -> None:
    """Never quiet, the game kept is copied when it falls `UNDO_REPLAYS_AT_MOST` actions behind:
    what an undo replays does not grow with the game."""
    table = Table(Store(tmp_path / "games.db"))
    try:
        game = new_game(table, seed=15)
        rng = random.Random(15)
        behind: list[int] = []
        while not loaded(table, game).game.over:
            step(table, game, rng)
            held = loaded(table, game)
            behind.append(held.turn_start - held.kept_at)
        assert len(behind) > 2 * UNDO_REPLAYS_AT_MOST  # a whole game, long enough to copy
        assert max(behind) <= UNDO_REPLAYS_AT_MOST
        assert held.kept_at > 0
    finally:
        table._store.close()
