"""The Table: one writer in order, undo within a turn, corrections of facts, and nothing
half-done when the store fails."""

from __future__ import annotations

import itertools
import random
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from companion import table as table_module
from companion.commands import Command, Event, Reply
from companion.engine import Game, Rules, notation
from companion.store import Store
from companion.table import CHECKPOINT_AFTER, Subscriber, Table
from tests.playing import first, mirror, new_game, play_setup, play_until
from tests.web_support import close, started_table


def follow(table: Table, view: Any = "referee") -> list[Event]:
    """Every event the Table tells `view` from now on, in the order delivered."""
    events: list[Event] = []
    table.subscribe(Subscriber(None, view, events.append))
    return events


def increasing(events: list[Event]) -> bool:
    return all(a.seq < b.seq for a, b in itertools.pairwise(events))


def statuses(table: Table, game: int) -> dict[int | None, tuple[str, str]]:
    """Each stored row's notation and status by seq (looked up with a Reply's seq)."""
    rows = table.read(lambda: table._store.log(game, everything=True))
    return {r.seq: (notation(tuple(r.action)), r.status) for r in rows}


def act(table: Table, game: int, action: Any, seat: int | None = None) -> Reply:
    return table.call(Command("cli", seat=seat, game=game, action=list(action)))


def intent(table: Table, game: int, name: str, seat: int | None = None, **args: Any) -> Reply:
    return table.call(Command("cli", seat=seat, game=game, intent=name, args=args))


# -- one writer ---------------------------------------------------------------------------------


def test_racing_commands_are_applied_one_after_the_other(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(table, seed=5)
    play_setup(table, game)
    first_new = len(statuses(table, game)) + 1  # seqs count from 1
    events = follow(table)

    applied: list[tuple[str, list[Any]]] = []
    inside = most = 0
    count = threading.Lock()
    real_apply = Game.apply

    def apply(self: Game, action: Any, by: int | str | None = None) -> Any:
        nonlocal inside, most
        with count:
            inside += 1
            most = max(most, inside)
        try:
            time.sleep(0.0002)  # widen the window in which two appliers would overlap
            result = real_apply(self, action, by)
        finally:
            with count:
                inside -= 1
        # The game the commands act on, not the one an undo would replay from, which the
        # Table brings up to the turn's start in its quiet moments (on its own thread too).
        if self is table._loaded[game].game:
            applied.append((threading.current_thread().name, list(action)))
        return result

    monkeypatch.setattr(Game, "apply", apply)
    sent: list[tuple[str, list[Any], Reply]] = []

    def player(name: str) -> None:
        rng = random.Random(name)
        while sum(r.accepted for _, _, r in sent) < 150:

            def legal() -> list[Any]:
                return list(table._loaded[game].game.legal_actions())

            choices = table.read(legal)
            if not choices:
                return
            action = list(rng.choice(choices))  # often stale by the time it arrives: refused
            request = f"{name}-{len(sent)}"
            reply = table.call(Command("cli", game=game, action=action, request_id=request))
            sent.append((name, action, reply))

    players = [threading.Thread(target=player, args=(f"p{i}",)) for i in range(6)]
    for p in players:
        p.start()
    for p in players:
        p.join(30)

    accepted = [(name, action, r) for name, action, r in sent if r.accepted]
    assert len(accepted) >= 150
    assert len({name for name, _, _ in accepted}) > 1  # the commands did race
    assert most == 1, "two actions were applied at the same time"
    assert {thread for thread, _ in applied} == {"table"}
    seqs = [r.seq for _, _, r in accepted]
    assert len(set(seqs)) == len(seqs)
    rows = table.read(lambda: table._store.log(game, everything=True))
    stored = [r.action for r in sorted(rows, key=lambda r: r.seq) if r.seq >= first_new]
    assert stored == [action for _, action in applied]  # the store's order is the engine's
    by_seq = {r.seq: r.action for r in rows}
    assert all(by_seq[r.seq] == action for _, action, r in accepted)  # each reply is its own
    assert increasing(events)
    assert [e.seq for e in events] == list(range(events[0].seq, events[0].seq + len(events)))


# -- undo -----------------------------------------------------------------------------------------


def test_undo_takes_back_the_current_players_own_moves_of_this_turn(table: Table) -> None:
    game = new_game(table)
    play_setup(table, game)
    start = table.snapshot(game, "referee")["state"]
    one = first(mirror(table, game), "move")
    assert act(table, game, one, seat=0).accepted
    after_one = table.snapshot(game, "referee")["state"]
    two = first(mirror(table, game), "move")
    moved = act(table, game, two, seat=0)
    assert moved.accepted
    events = follow(table)

    assert not intent(table, game, "undo", seat=1).accepted  # not seat 2's move to take back
    undone = intent(table, game, "undo", seat=0)
    assert undone.accepted and undone.seq == moved.seq
    assert table.snapshot(game, "referee")["state"] == after_one
    assert statuses(table, game)[moved.seq] == (notation(two), "undone")
    assert [e.kind for e in events] == ["undone"] and events[0].data["action"] == notation(two)

    assert intent(table, game, "undo", seat=0).accepted
    assert table.snapshot(game, "referee")["state"] == start
    refused = intent(table, game, "undo", seat=0)  # the turn's start: nothing of this turn left
    assert not refused.accepted and "this turn" in refused.message
    assert table.snapshot(game, "referee")["state"] == start


def test_undo_is_refused_for_a_die_roll_and_for_a_previous_turn(table: Table) -> None:
    game = new_game(table)
    play_setup(table, game)
    play_until(table, game, "roll")
    rolled = act(table, game, ["roll", "serpent"])
    assert rolled.accepted
    refused = intent(table, game, "undo", seat=0)
    assert not refused.accepted and "correct it instead" in refused.message
    assert statuses(table, game)[rolled.seq][1] == "ok"

    serpent = first(mirror(table, game), "creature")
    assert act(table, game, serpent, seat=0).accepted  # a serpent moves once and ends the turn
    assert mirror(table, game).state.turn == 1
    before = statuses(table, game)
    for seat in (0, 1, None):
        assert not intent(table, game, "undo", seat=seat).accepted
    assert statuses(table, game) == before


# -- corrections ----------------------------------------------------------------------------------


def test_a_corrected_die_face_drops_the_creature_move_it_allowed(table: Table) -> None:
    game = new_game(table)
    play_setup(table, game)
    play_until(table, game, "roll")
    creatures = {c["id"]: c["at"] for c in table.snapshot(game, "referee")["state"]["creatures"]}
    absent = [
        k
        for k in ("shark", "whale")
        if not any(at for c, at in creatures.items() if c.startswith(k))
    ]
    assert absent, "the test needs a creature kind that is not on the board yet"

    rolled = act(table, game, ["roll", "serpent"])
    serpent = first(mirror(table, game), "creature")
    stepped = act(table, game, serpent, seat=0)
    after_turn = mirror(table, game)
    assert stepped.accepted and after_turn.state.turn == 1
    move = first(after_turn, "move")
    moved = act(table, game, move, seat=1)
    assert moved.accepted
    events = follow(table)

    fixed = intent(table, game, "correct", seq=rolled.seq, action=["roll", absent[0]])

    assert fixed.accepted, fixed.message
    log = statuses(table, game)
    assert log[rolled.seq] == ("roll serpent", "corrected")
    assert log[fixed.seq] == (f"roll {absent[0]}", "ok")
    assert log[stepped.seq] == (notation(serpent), "superseded")  # kept, not deleted
    assert log[moved.seq] == (notation(move), "ok")  # the rest replayed
    corrected = [e for e in events if e.kind == "corrected"]
    assert len(corrected) == 1
    assert corrected[0].data["dropped"] == [{"seq": stepped.seq, "action": notation(serpent)}]
    assert corrected[0].data["was"] == "roll serpent"
    state = table.snapshot(game, "referee")["state"]
    moved_serpent = notation(serpent).split()[1]
    assert {c["id"]: c["at"] for c in state["creatures"]}[moved_serpent] == creatures[moved_serpent]
    assert state == mirror(table, game).referee_view()  # the store's log says the same
    # and a Table started afresh on the store (after a power cut, say) sees the same game
    assert Table(table._store).snapshot(game, "referee")["state"] == state


def test_a_players_move_cannot_be_corrected(table: Table) -> None:
    game = new_game(table)
    play_setup(table, game)
    moved = act(table, game, first(mirror(table, game), "move"), seat=0)
    refused = intent(table, game, "correct", seq=moved.seq, action=["done"])
    assert not refused.accepted and "undo it instead" in refused.message


# -- a failing store -------------------------------------------------------------------------------


def broken_append(*_: Any) -> int:
    raise sqlite3.OperationalError("disk I/O error")


def test_a_failing_store_append_leaves_nothing_half_done(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = new_game(table)
    play_setup(table, game)
    before = table.snapshot(game, "referee")
    stored = table.read(lambda: table._store.log(game, everything=True))
    events = follow(table)
    move = first(mirror(table, game), "move")

    with monkeypatch.context() as m:
        m.setattr(table._store, "append_all", broken_append)
        reply = act(table, game, move, seat=0)

    assert not reply.accepted and "nothing was changed" in reply.message
    assert events == []  # nobody was told
    after = table.snapshot(game, "referee")
    assert (after["state"], after["actions"]) == (before["state"], before["actions"])
    assert table.read(lambda: table._store.log(game, everything=True)) == stored
    again = act(table, game, move, seat=0)  # the same move, once the store works again
    assert again.accepted
    assert [e.kind for e in events] == ["moved", "state"]


def test_event_numbers_go_on_after_a_failed_append(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = follow(table)
    game = new_game(table)
    play_setup(table, game)
    move = first(mirror(table, game), "move")
    with monkeypatch.context() as m:
        m.setattr(table._store, "append_all", broken_append)
        assert not act(table, game, move, seat=0).accepted
    assert act(table, game, move, seat=0).accepted
    assert increasing(events), [e.seq for e in events[-3:]]


def test_a_command_and_the_draw_it_brings_are_stored_in_one_transaction(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a digital game a sunk tile's back is drawn by the Table: the sink and that draw are
    one transaction (one fsync), so a failing store leaves neither and the reply says so."""
    game = new_game(table)  # digital: the Table draws each sunk tile's back itself
    play_setup(table, game)
    assert intent(table, game, "next", seat=0).accepted
    sink = first(mirror(table, game), "sink")
    before = statuses(table, game)
    real_append = table._store.append_all
    calls: list[int] = []

    def counted(*args: Any) -> list[int]:
        calls.append(len(args[1]))
        return real_append(*args)

    with monkeypatch.context() as m:
        m.setattr(table._store, "append_all", broken_append)
        refused = act(table, game, sink, seat=0)
    assert not refused.accepted and statuses(table, game) == before
    with monkeypatch.context() as m:
        m.setattr(table._store, "append_all", counted)
        reply = act(table, game, sink, seat=0)
    assert reply.accepted, reply.message
    added = [a for seq, (a, _) in statuses(table, game).items() if seq not in before]
    assert added[0] == notation(sink) and added[1].startswith("back ")
    assert calls == [len(added)]


def test_the_next_state_is_built_while_the_commit_waits_for_the_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sqlite3 lets go of the interpreter lock while a COMMIT waits for the disk: the state
    each view is told after an action or an undo is built by the Table's helper in that time,
    not after it, and is the snapshot the view reads."""
    table = started_table(tmp_path / "games.db")
    try:
        game = new_game(table)
        play_setup(table, game)
        told = follow(table, 0)
        begun = threading.Event()

        def slow_disk(statement: str) -> None:
            # A disk slower to confirm a commit than a thread is to wake (up to 2 s).
            if statement == "COMMIT":
                begun.wait(2)
                begun.clear()

        built: list[tuple[str, int]] = []  # by which thread, after how many commits
        real_parts = table._parts

        def parts(*args: Any) -> Any:
            built.append((threading.current_thread().name, table._store._commits))
            begun.set()
            return real_parts(*args)

        monkeypatch.setattr(table, "_parts", parts)
        table.read(lambda: table._store.db.set_trace_callback(slow_disk))
        committed = []
        move = first(mirror(table, game), "move")
        for command in ("move", "undo", "move"):  # an action, and an undo
            if command == "move":
                assert act(table, game, move, seat=0).accepted
            else:
                assert intent(table, game, "undo", seat=0).accepted
            committed.append(table.read(lambda: table._store._commits))
        # Each built by the helper before its command's COMMIT had returned.
        assert built == [("table-meanwhile", n - 1) for n in committed]
        last = [e for e in told if e.kind == "state"][-1]
        monkeypatch.undo()
        assert last.data == table.snapshot(game, 0)
    finally:
        close(table)


def test_a_seed_too_large_to_store_is_refused(table: Table) -> None:
    reply = table.call(Command("cli", intent="new_game", args={"players": [{}, {}], "seed": 2**63}))
    assert not reply.accepted and "seed" in reply.message


def test_a_retried_command_is_not_carried_out_twice(tmp_path: Path) -> None:
    """A phone that sends a command again (its reply was lost) gets the first reply again, and
    the game moves once: the request id and the reply are kept with the action."""
    store = Store(tmp_path / "games.db")
    table = Table(store)
    table.start()
    try:
        game = table.call(
            Command(
                "cli",
                intent="new_game",
                args={"players": [{"name": "A"}, {"name": "B"}], "seed": 4},
            )
        ).game
        assert game is not None
        action = list(table.read(lambda: table._loaded[game].game.legal_actions())[0])
        before = len(store.log(game))
        first = table.call(Command("phone", seat=0, game=game, action=action, request_id="once"))
        again = table.call(Command("phone", seat=0, game=game, action=action, request_id="once"))
        assert first.accepted and again == first
        assert len(store.log(game)) == before + 1
    finally:
        table.stop()
    # And after a restart, from the store alone.
    table = Table(Store(tmp_path / "games.db"))
    reply = table.call(Command("phone", seat=0, game=game, action=action, request_id="once"))
    assert reply == first


def test_a_retried_start_makes_no_second_game(tmp_path: Path) -> None:
    """A start whose answer was lost, sent again with its request id, gives back the same game."""
    table = Table(Store(tmp_path / "games.db"))
    start = Command("phone", intent="new_game", request_id="start-1",
                    args={"players": [{"name": "A"}, {"name": "B"}], "seed": 3})  # fmt: skip
    first, again = table.call(start), table.call(start)
    assert first.accepted and again == first  # the first reply, word for word
    assert len(table._store.games()) == 1


def test_a_reloaded_game_makes_the_draws_a_crash_left_undone(tmp_path: Path) -> None:
    """A crash between a stored action and the companion's own draws after it (a dealt tile)
    must not leave the game waiting: reloading the game makes those draws."""
    store = Store(tmp_path / "games.db")
    table = Table(store)
    game = table.call(Command("cli", intent="new_game",
                              args={"players": [{"name": "A"}, {"name": "B"}], "seed": 9})).game  # fmt: skip
    assert game is not None
    # Simulate the crash: a sink stored by hand, without the back the Table would have dealt.
    engine_game = table._loaded[game].game
    while engine_game.phase != "sink":
        action = (
            engine_game.legal_actions()[0] if not engine_game.is_chance() else engine_game.draw()
        )
        assert table.call(Command("cli", game=game, action=list(action))).accepted
    sink = list(engine_game.legal_actions()[0])
    store.append(game, sink, "phone", 0, 0.0)
    reloaded = Table(Store(tmp_path / "games.db"))
    state = reloaded.snapshot(game, "referee")["state"]
    assert state["phase"] != "back"  # the back was dealt on reload
    assert reloaded._store.log(game)[-1].action[0] == "back"


def test_after_a_command_each_viewer_gets_its_state_with_its_own_choices(tmp_path: Path) -> None:
    """The `state` event after a command: the seat to decide gets its legal actions, the others
    and spectators get none; the seat whose turn it is gets the outcomes of a table decision."""
    table = Table(Store(tmp_path / "games.db"))
    got: dict[Any, list[Event]] = {view: [] for view in (0, 1, "spectator")}
    for view, box in got.items():
        table.subscribe(Subscriber(None, view, box.append))

    def last_states() -> dict[Any, dict[str, Any]]:
        return {view: [e for e in box if e.kind == "state"][-1].data for view, box in got.items()}

    game = new_game(table)
    play_until(table, game, "sink")
    engine_game = mirror(table, game)
    turn = engine_game.state.turn
    act(table, game, first(engine_game, "sink"), seat=turn)
    states = last_states()  # the back was dealt: the die is awaited, the table decides
    assert states[0]["state"]["phase"] == "roll"
    assert all("legal" not in state for state in states.values())
    assert sorted(a[1] for a in states[turn]["outcomes"]) == ["serpent", "shark", "whale"]
    assert "outcomes" not in states[1 - turn] and "outcomes" not in states["spectator"]
    table.call(Command("gpio", game=game, intent="roll"))
    states = last_states()
    if states[0]["state"]["phase"] == "creature":  # something of the rolled kind can move
        assert states[turn]["legal"] and "legal" not in states[1 - turn]
        assert "legal" not in states["spectator"]


def test_a_subscriber_is_told_from_the_command_after_it_came_until_it_leaves(
    tmp_path: Path,
) -> None:
    """Who is told a game's events is found again whenever a subscriber comes or goes, and
    when the table's current game changes (a subscriber of None follows the new one)."""
    table = Table(Store(tmp_path / "games.db"))

    def move(game: int) -> None:
        engine_game = mirror(table, game)
        assert act(table, game, engine_game.legal_actions()[0], engine_game.actor).accepted

    early = follow(table, 0)
    game = new_game(table)
    move(game)
    late = follow(table, 1)
    told = len(early)
    move(game)
    assert [e.kind for e in late] == ["placed", "state"] and len(early) == told + 2
    table.unsubscribe(table.subscribers[0])
    move(game)
    assert len(early) == told + 2 and len(late) == 4
    second = new_game(table, seed=2)
    assert late[-1].game == second != game


def test_an_undone_placement_tells_its_value_to_nobody_but_the_referee(tmp_path: Path) -> None:
    """§9: undoing a placement must not reveal the value that was placed — the `undone` event
    names the action as each viewer may read it."""
    table = Table(Store(tmp_path / "games.db"))
    got: dict[Any, list[Event]] = {view: [] for view in (0, 1, "spectator", "referee")}
    for view, box in got.items():
        table.subscribe(Subscriber(None, view, box.append))
    game = new_game(table)
    place = next(a for a in mirror(table, game).legal_actions() if a[0] == "place" and a[2] == 6)
    assert act(table, game, place, seat=0).accepted
    assert table.call(Command("phone", seat=0, game=game, intent="undo")).accepted
    said = {
        view: next(e for e in box if e.kind == "undone").data["action"] for view, box in got.items()
    }
    assert said["referee"].endswith("=6")
    assert said[0].endswith("=?") and said[1].endswith("=?") and said["spectator"].endswith("=?")


def test_a_placements_value_is_told_to_the_referee_alone_and_one_event_goes_to_every_view(
    tmp_path: Path,
) -> None:
    """§9: a placed person's value is the event's secret, told to the referee only (its own
    seat too under own_values_visible); the views that see the same event share one Event, so
    that a stream encodes it once; an event without a secret is one Event for every view."""
    table = Table(Store(tmp_path / "games.db"))
    got: dict[Any, list[Event]] = {view: [] for view in (0, 1, "spectator", "referee")}
    for view, box in got.items():
        table.subscribe(Subscriber(None, view, box.append))
    game = new_game(table)
    for box in got.values():
        box.clear()
    place = next(a for a in mirror(table, game).legal_actions() if a[0] == "place" and a[2] == 6)
    assert act(table, game, place, seat=0).accepted
    placed = {view: next(e for e in box if e.kind == "placed") for view, box in got.items()}
    assert placed["referee"].data["value"] == 6
    assert all("value" not in placed[view].data for view in (0, 1, "spectator"))
    assert placed[0] is placed[1] is placed["spectator"] is not placed["referee"]
    play_until(table, game, "sink")
    for box in got.values():
        box.clear()
    engine_game = mirror(table, game)
    assert act(table, game, first(engine_game, "sink"), seat=engine_game.state.turn).accepted
    sunk = {view: next(e for e in box if e.kind == "sunk") for view, box in got.items()}
    assert sunk[0] is sunk[1] is sunk["spectator"] is sunk["referee"]


# -- stored before told ------------------------------------------------------------------------


class Witness:
    """A subscriber that, as each event is delivered, reads the game log through a second
    SQLite connection: what it finds is what a power cut at that moment would leave."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, check_same_thread=False)
        self.seen: list[tuple[Event, dict[str, int]]] = []

    def deliver(self, event: Event) -> None:
        counts = dict(
            self.db.execute(
                "SELECT status, COUNT(*) FROM actions WHERE game_id = ? GROUP BY status",
                (event.game,),
            ).fetchall()
        )
        counts["games"] = self.db.execute(
            "SELECT COUNT(*) FROM games WHERE id = ?", (event.game,)
        ).fetchone()[0]
        self.seen.append((event, counts))


TABLE_EVENTS = {"state", "new_game", "undone", "corrected", "enter_faces", "status"}


def test_every_path_stores_an_action_before_anyone_is_told_of_it(tmp_path: Path) -> None:
    """A new game with its dealt island, moves, sinks with the back the Table draws after them,
    an undo and a correction: at the delivery of each event the log on disk already holds the
    action that caused it (its `ok` rows replay to at least that many engine events)."""
    table = started_table(tmp_path / "games.db")
    witness = Witness(tmp_path / "games.db")
    try:
        table.subscribe(Subscriber(None, "referee", witness.deliver))
        game = new_game(table, seed=3)  # digital, random island: 40 draws at the start
        play_setup(table, game)
        moved = act(table, game, first(mirror(table, game), "move"), seat=0)
        assert intent(table, game, "undo", seat=0).accepted
        assert moved.accepted
        rng = random.Random(3)
        play_until(table, game, "roll")
        rolled = intent(table, game, "roll")
        face = rows_of(table, game)[-1].action
        fixed = intent(table, game, "correct", seq=rolled.seq,
                       action=["roll", "shark" if face[1] != "shark" else "whale"])  # fmt: skip
        assert fixed.accepted, fixed.message
        # From here the log in force only grows: event k needs the action that made it.
        mark, in_force = len(witness.seen), len(rows_of(table, game))
        play_to_end(table, game, rng)
        rows = rows_of(table, game)
    finally:
        close(table)
    replayed = Game.new(Rules(), 2, 3, "digital")
    made = list(itertools.accumulate(len(replayed.apply(r.action)) for r in rows))
    kinds = [e.kind for e, _ in witness.seen]
    assert {"new_game", "undone", "corrected"} <= set(kinds) and kinds.count("moved") > 10
    for event, stored in witness.seen[:mark]:
        if event.kind == "new_game":
            assert stored["games"] == 1
        elif event.kind == "undone":
            assert stored.get("undone", 0) == 1, "an undo was told before it was stored"
        elif event.kind == "corrected":
            assert stored.get("corrected", 0) == 1, "a correction was told before it was stored"
    # Up to the undo, and after the correction, the log in force only grows: the k-th event
    # told needs the action that made it stored.
    undo = kinds.index("undone")
    grown_to(witness.seen[:undo], 0, made)
    assert grown_to(witness.seen[mark:], made[in_force - 1], made) == made[-1]


def play_to_end(table: Table, game: int, rng: random.Random) -> None:
    """Random legal moves, and draws when the game waits for chance, until the game ends."""
    engine_game = mirror(table, game)
    while not engine_game.over:
        if engine_game.is_chance():
            assert intent(table, game, "draw").accepted
        else:
            act(table, game, rng.choice(engine_game.legal_actions()), seat=engine_game.actor)
        engine_game = mirror(table, game)


def grown_to(seen: list[tuple[Event, dict[str, int]]], told: int, made: list[int]) -> int:
    for event, stored in seen:
        if event.kind in TABLE_EVENTS:
            continue
        needed = next((i for i, n in enumerate(made) if n > told), len(made) - 1) + 1
        assert stored.get("ok", 0) >= needed, f"{event.kind} was told before it was stored"
        told += 1
    return told


def rows_of(table: Table, game: int) -> list[Any]:
    return table.read(lambda: table._store.log(game))  # type: ignore[no-any-return]


def test_an_undo_late_in_a_game_leaves_what_the_store_replays(tmp_path: Path) -> None:
    """An undo replays the turn from its start (kept in memory), not the whole game: the game
    it leaves is the one a Table started afresh on the store rebuilds."""
    table = started_table(tmp_path / "games.db")
    try:
        game = new_game(table, seed=6)
        rng = random.Random(6)
        undone = 0
        engine_game = mirror(table, game)
        while undone < 5 and not engine_game.over:
            if engine_game.is_chance():
                assert intent(table, game, "draw").accepted
            else:
                seat = engine_game.actor
                action = rng.choice(engine_game.legal_actions())
                reply = act(table, game, action, seat=seat)
                assert reply.accepted
                if action[0] == "move" and engine_game.state.turns_taken[0] > 1:
                    assert intent(table, game, "undo", seat=seat).accepted
                    undone += 1
                    now = table.snapshot(game, "referee")
                    fresh = Table(table._store).snapshot(game, "referee")
                    assert now["state"] == fresh["state"] == mirror(table, game).referee_view()
                    assert now["legal"] == fresh["legal"]
            engine_game = mirror(table, game)
        assert undone == 5
    finally:
        close(table)


def test_an_ended_game_leaves_memory_when_the_next_starts_and_is_read_again_as_it_was(
    tmp_path: Path,
) -> None:
    """A Table that runs for weeks keeps in memory only the games in play: an ended game is
    dropped when the next one starts, and asking for it again rebuilds it from the store with
    the same result and its events numbered on."""
    table = started_table(tmp_path / "games.db")
    try:
        game = new_game(table, seed=4)
        rng = random.Random(4)
        play_to_end(table, game, rng)
        ended = table.snapshot(game, "referee")
        assert table.read(lambda: game in table._loaded)
        later = new_game(table, seed=5)
        assert table.read(lambda: sorted(table._loaded)) == [later]
        again = table.snapshot(game, "referee")
        assert again["state"] == ended["state"] and again["state"]["result"] is not None
        assert again["seq"] >= ended["seq"]
    finally:
        close(table)


def play_moves(table: Table, game: int, rng: random.Random, moves: int) -> None:
    """`moves` random legal commands (draws when the game waits for chance)."""
    engine_game = mirror(table, game)
    for _ in range(moves):
        if engine_game.is_chance():
            assert intent(table, game, "draw").accepted
        else:
            act(table, game, rng.choice(engine_game.legal_actions()), seat=engine_game.actor)
        engine_game = mirror(table, game)


def log_restarts(table: Table) -> int:
    """How many times the write-ahead log was written again from its start: its header's
    checkpoint sequence number (its size says nothing: the store lays it out whole)."""
    header = Path(str(table._store.path) + "-wal").read_bytes()[:16]
    return int.from_bytes(header[12:16], "big")


@pytest.mark.parametrize(
    ("pause", "after", "restarted"),
    [("a new game", 30, 1), ("a quiet second", 30, 1), ("a quiet second", CHECKPOINT_AFTER, 0)],
)
def test_the_table_checkpoints_the_log_when_a_game_starts_or_quiet_after_many_commits(
    tmp_path: Path, pause: str, after: int, restarted: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite's own checkpoint fsyncs the whole database inside some command; the Table does it
    when a game starts (also at a table that never pauses) and when nothing waits (a quiet
    second) once `CHECKPOINT_AFTER` commits were made. Then the next commands write the log
    over from its start. Not in every pause: people leave the Table quiet between most
    commands, and the commit after a checkpoint starts the log again, syncing its header
    before its own frames (two fsyncs for that command)."""
    monkeypatch.setattr(table_module, "CHECKPOINT_AFTER", after)
    table = started_table(tmp_path / "games.db")
    try:
        game = new_game(table, seed=7)
        rng = random.Random(7)
        play_moves(table, game, rng, 40)
        restarts = log_restarts(table)
        if pause == "a new game":
            game = new_game(table, seed=8)
        else:
            time.sleep(1.5)  # the Table's queue waits a second before it calls itself quiet
        play_moves(table, game, rng, 40)
        assert log_restarts(table) == restarts + restarted
    finally:
        close(table)
