"""Camera proposals at the Table: the camera proposes a sunk tile, every phone is told, and only
a player's tap makes it an action — stored, published and undoable like a tapped sink. A stale
or rejected proposal never acts; a board that disagrees with the game pauses proposals."""

from __future__ import annotations

from typing import Any

import pytest

from companion.commands import REFEREE, SPECTATOR, Command, Event, Reply
from companion.engine import IllegalAction, Rules, board, replay
from companion.kinds import FACTS
from companion.table import CAMERA, Subscriber, Table
from tests.playing import mirror, new_game, play_until


@pytest.fixture
def sinking(table: Table) -> tuple[int, list[int]]:
    """A game with the real tiles at its first step 3: the game's id and the tiles that may
    sink (B-20, B-21)."""
    game_id = new_game(table, seed=5, mode="physical")
    game = play_until(table, game_id, "sink")
    return game_id, [a[1] for a in game.legal_actions() if a[0] == "sink"]


def disagree_at(table: Table, game: int, disagree: Any) -> None:
    """The camera says where the board and the game disagree: a command like its others."""
    args = {"disagree": list(disagree)}
    reply = table.call(Command("camera", None, "", game, intent="sync", args=args))
    assert reply.accepted, reply.message


def propose(table: Table, game: int, tile: int, *others: int, seat: int | None = None) -> Reply:
    args = {"alternatives": list(others), "confidence": 0.9}
    return table.call(Command("camera", seat, "", game, action=["sink", tile], args=args))


def answer(table: Table, game: int, name: str, seat: int | None, **args: Any) -> Reply:
    return table.call(Command("phone", seat, "", game, intent=name, args=args))


def camera(table: Table, game: int, view: Any = REFEREE) -> dict[str, Any] | None:
    result: dict[str, Any] | None = table.snapshot(game, view)["camera"]
    return result


def stored(table: Table, game: int) -> list[tuple[list[Any], str]]:
    rows = table.read(lambda: table._store.log(game))
    return [(r.action, r.source) for r in rows]


def views(table: Table) -> dict[Any, list[Event]]:
    heard: dict[Any, list[Event]] = {v: [] for v in (0, 1, SPECTATOR, REFEREE)}
    for view, events in heard.items():
        table.subscribe(Subscriber(None, view, events.append))
    return heard


def test_a_proposal_is_told_to_every_view_and_a_tap_makes_it_a_stored_undoable_sink(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """The tile the camera saw leave is removed only when the remover's phone confirms it;
    then it is stored and undone like a tapped sink. A sunk tile is public: every view sees the
    proposal."""
    game_id, tiles = sinking
    seat = mirror(table, game_id).state.turn
    before = stored(table, game_id)
    heard = views(table)
    reply = propose(table, game_id, tiles[0])
    assert reply.accepted and reply.seq is None, reply.message
    assert stored(table, game_id) == before  # proposed, not done
    for view, events in heard.items():
        told = events[-1].data["camera"]["proposal"]
        assert told["choices"] == [{"hex": tiles[0], "name": board.name(tiles[0])}], view
        assert told["question"] is False
    pid = camera(table, game_id, seat)["proposal"]["id"]  # type: ignore[index]

    reply = answer(table, game_id, "confirm_proposal", seat, id=pid)
    assert reply.accepted, reply.message
    assert stored(table, game_id)[len(before)] == (["sink", tiles[0]], "phone")
    assert any(e.kind == "sunk" for e in heard[SPECTATOR])
    assert camera(table, game_id) is None  # answered: nothing left to confirm
    assert board.name(tiles[0]) not in table.snapshot(game_id, seat)["state"]["tiles"]
    # Like a tapped sink, the remover may take it back while it is their turn.
    assert table.snapshot(game_id, seat)["can_undo"]
    assert answer(table, game_id, "undo", seat).accepted
    assert stored(table, game_id) == before
    assert board.name(tiles[0]) in table.snapshot(game_id, seat)["state"]["tiles"]


def test_a_confirm_of_a_stale_or_replaced_proposal_is_refused_and_changes_nothing(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """Only the proposal open now may be confirmed: one the camera replaced, or one made
    before the game moved on, is refused with a sentence and nothing is stored."""
    game_id, tiles = sinking
    seat = mirror(table, game_id).state.turn
    propose(table, game_id, tiles[0])
    first = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    propose(table, game_id, tiles[-1])
    second = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    assert second != first
    before = stored(table, game_id)
    reply = answer(table, game_id, "confirm_proposal", seat, id=first)
    assert not reply.accepted and "no longer open" in reply.message
    assert stored(table, game_id) == before
    # The player taps the tile themselves: the open proposal is stale from then on.
    assert table.call(Command("phone", seat, "", game_id, action=["sink", tiles[0]])).accepted
    assert camera(table, game_id) is None
    after = stored(table, game_id)
    reply = answer(table, game_id, "confirm_proposal", seat, id=second)
    assert not reply.accepted and "no longer open" in reply.message
    assert stored(table, game_id) == after


@pytest.mark.rule("B-9")
def test_B_9_only_the_remover_confirms_and_a_question_offers_its_choices(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """B-9: the tile is the current player's to remove, so their phone answers; a question
    ("this one, or those?") is confirmed with the hex the player picks among its choices."""
    game_id, tiles = sinking
    assert len(tiles) >= 2
    seat = mirror(table, game_id).state.turn
    propose(table, game_id, tiles[0], tiles[1])
    proposal = camera(table, game_id, SPECTATOR)["proposal"]  # type: ignore[index]
    assert proposal["question"] is True
    assert [c["hex"] for c in proposal["choices"]] == [tiles[0], tiles[1]]
    other = answer(table, game_id, "confirm_proposal", 1 - seat, id=proposal["id"])
    assert not other.accepted and f"seat {seat + 1}" in other.message
    not_offered = next(h for h in board.LAND if h not in tiles[:2])
    wrong = answer(table, game_id, "confirm_proposal", seat, id=proposal["id"], hex=not_offered)
    assert not wrong.accepted and "confirm one of those" in wrong.message
    picked = answer(table, game_id, "confirm_proposal", seat, id=proposal["id"], hex=tiles[1])
    assert picked.accepted, picked.message
    assert ["sink", tiles[1]] in [a for a, _ in stored(table, game_id)]


def test_a_rejected_proposal_is_dropped_and_not_taken_again_until_the_board_changes(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """ "no, that tile is still there": the proposal goes, the camera's repeat of it is
    refused, and a different observation is proposed again."""
    game_id, tiles = sinking
    seat = mirror(table, game_id).state.turn
    propose(table, game_id, tiles[0])
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    before = stored(table, game_id)
    assert answer(table, game_id, "reject_proposal", seat, id=pid).accepted
    assert camera(table, game_id) is None and stored(table, game_id) == before
    again = propose(table, game_id, tiles[0])
    assert not again.accepted and "turned this proposal down" in again.message
    assert camera(table, game_id) is None
    assert propose(table, game_id, tiles[-1]).accepted  # the board shows something else
    assert propose(table, game_id, tiles[0]).accepted  # ... so the first may come back


def test_out_of_sync_is_shown_to_every_view_pauses_proposals_and_clears(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """When the board and the game disagree, every phone names the hexes, and the open
    proposal cannot be confirmed; it clears when the camera sees agreement, or for a while when
    a player taps "ignore the camera"."""
    game_id, tiles = sinking
    seat = mirror(table, game_id).state.turn
    propose(table, game_id, tiles[0])
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    heard = views(table)
    far = [h for h in board.LAND if h not in tiles][:2]
    disagree_at(table, game_id, tuple(far))
    for view, events in heard.items():
        told = events[-1].data["camera"]
        assert [x["name"] for x in told["out_of_sync"]["hexes"]] == [board.name(h) for h in far]
        assert told["proposal"] is None, view
    refused = answer(table, game_id, "confirm_proposal", seat, id=pid)
    assert not refused.accepted
    disagree_at(table, game_id, ())
    assert camera(table, game_id) is None

    disagree_at(table, game_id, tuple(far))
    sync = camera(table, game_id, SPECTATOR)["out_of_sync"]["id"]  # type: ignore[index]
    assert answer(table, game_id, "reject_proposal", 1 - seat, id=sync).accepted  # ignore it
    assert camera(table, game_id) is None
    told = len(heard[REFEREE])
    disagree_at(table, game_id, tuple(far))  # the same disagreement: still ignored
    assert camera(table, game_id) is None and len(heard[REFEREE]) == told
    disagree_at(table, game_id, (far[0],))  # the board changed: shown again
    assert camera(table, game_id)["out_of_sync"]["hexes"][0]["hex"] == far[0]  # type: ignore[index]


def test_a_camera_command_never_acts_and_never_speaks_for_a_seat(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """The camera proposes only tiles that may sink now; whatever it sends — an action
    for a seat, a confirm, a button — nothing is stored and nothing is proposed."""
    game_id, tiles = sinking
    seat = mirror(table, game_id).state.turn
    before = stored(table, game_id)
    as_seat = propose(table, game_id, tiles[0], seat=seat)
    assert not as_seat.accepted and "never speaks for a seat" in as_seat.message
    inland = next(h for h in board.LAND if h not in tiles)
    illegal = propose(table, game_id, inland)
    assert not illegal.accepted and f"{board.name(inland)} may not sink now" in illegal.message
    propose(table, game_id, tiles[0])
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    for command in (
        Command("camera", None, "", game_id, intent="confirm_proposal", args={"id": pid}),
        Command("camera", seat, "", game_id, intent="confirm_proposal", args={"id": pid}),
        Command("camera", None, "", game_id, intent="next"),
        Command("camera", seat, "", game_id, action=["done"]),
    ):
        reply = table.call(command)
        assert not reply.accepted, command
    assert stored(table, game_id) == before
    assert camera(table, game_id)["proposal"]["id"] == pid  # type: ignore[index]


@pytest.mark.rule("B-21")
def test_B_21_the_camera_is_told_the_tiles_left_and_which_may_sink_now(table: Table) -> None:
    """B-21: the camera expects what the game knows: the 40 tiles at first, and candidates only
    in step 3, exactly the tiles the rules let sink."""
    game_id = new_game(table, seed=5)
    expected = table.snapshot(None, CAMERA)
    assert expected is not None and expected["game"] == game_id
    assert sorted(expected["tiles"]) == sorted(board.LAND) and expected["candidates"] == []
    assert expected["tiles"] == {h: mirror(table, game_id).state.terrain[h] for h in board.LAND}
    game = play_until(table, game_id, "sink")
    expected = table.snapshot(None, CAMERA)
    assert expected is not None and expected["phase"] == "sink"
    assert expected["candidates"] == [a[1] for a in game.legal_actions() if a[0] == "sink"]


def box_layout() -> dict[int, str]:
    """The island in the box's counts (B-2): 16 beach, 16 forest, 8 mountain, in laying order."""
    terrains = ["beach"] * 16 + ["forest"] * 16 + ["mountain"] * 8
    return dict(zip(board.LAND, terrains, strict=True))


@pytest.mark.rule("B-2")
def test_B_2_the_island_read_by_the_camera_is_corrected_then_laid_by_one_confirm(
    table: Table,
) -> None:
    """B-2: while the island is laid by hand, the camera proposes every position's terrain; a
    player corrects positions and confirms once, which lays them all as stored facts. A layout
    off the box's counts is refused, saying so, and lays nothing."""
    game_id = new_game(table, seed=5, mode="physical", layout="table")
    layout = box_layout()
    assert table.call(
        Command("phone", 0, "", game_id, action=["terrain", layout[board.LAND[0]]])
    ).accepted  # the first position was entered by hand: the camera proposes the rest
    rest = {h: t for h, t in layout.items() if h != board.LAND[0]}
    off = {**rest, board.LAND[1]: "mountain"}
    bad = table.call(
        Command("camera", None, "", game_id, ["terrain", "mountain"], args={"layout": off})
    )
    assert (
        not bad.accepted and bad.rule == "B-2" and "15 beach, 16 forest, 9 mountain" in bad.message
    )
    reply = table.call(
        Command(
            "camera",
            None,
            "",
            game_id,
            ["terrain", "beach"],
            args={"layout": rest, "doubtful": [board.LAND[5]]},
        )
    )
    assert reply.accepted, reply.message
    proposal = camera(table, game_id, SPECTATOR)["proposal"]  # type: ignore[index]
    assert proposal["kind"] == "layout" and len(proposal["layout"]) == 39
    assert proposal["doubtful"] == [board.name(board.LAND[5])]
    before = stored(table, game_id)
    a, b = board.LAND[5], board.LAND[20]  # a beach and a forest, read the wrong way round
    unbalanced = answer(
        table, game_id, "confirm_proposal", 1, id=proposal["id"], layout={a: "forest"}
    )
    assert not unbalanced.accepted and unbalanced.rule == "B-2"
    assert stored(table, game_id) == before
    swapped = {a: "forest", b: "beach"}
    done = answer(table, game_id, "confirm_proposal", 1, id=proposal["id"], layout=swapped)
    assert done.accepted, done.message
    game = mirror(table, game_id)
    assert game.phase == "place"
    assert {h: game.state.terrain[h] for h in board.LAND} == {**layout, **swapped}
    assert [a for a, _ in stored(table, game_id)[len(before) :]] == [
        ["terrain", {**layout, **swapped}[h]] for h in board.LAND[1:]
    ]
    assert propose(table, game_id, board.LAND[0]).accepted is False  # no sinking at setup


def test_a_camera_command_never_starts_a_game(table: Table) -> None:
    """The camera only proposes; starting a game is a person's doing, with or without a
    seat named."""
    game_id = new_game(table, seed=5)
    for seat in (None, 0):
        args = {"players": [{"name": "A"}, {"name": "B"}]}
        reply = table.call(Command("camera", seat, "", None, intent="new_game", args=args))
        assert not reply.accepted and "only proposes" in reply.message
    assert [g.id for g in table.read(table._store.games)] == [game_id]


def harmless_correction(table: Table, game_id: int) -> tuple[int, list[Any]] | None:
    """A fact before the last action, and another outcome for it after which every later
    action still stands (so the correction drops nothing); None when there is none."""
    record = table.read(lambda: table._store.game(game_id))
    rows = table.read(lambda: table._store.log(game_id))
    assert record is not None
    rules, n = Rules.from_json(record.rules), len(record.players)
    actions = [r.action for r in rows]
    for i, row in enumerate(rows[:-1]):
        if row.action[0] not in FACTS:
            continue
        before = replay(rules, n, record.seed, record.mode, actions[:i])
        for other in before.legal_actions():
            if list(other) == row.action:
                continue
            try:
                replay(
                    rules,
                    n,
                    record.seed,
                    record.mode,
                    [*actions[:i], list(other), *actions[i + 1 :]],
                )
            except IllegalAction:
                continue
            return row.seq, list(other)
    return None


def test_a_correction_of_an_earlier_fact_makes_an_open_proposal_stale(
    table: Table, sinking: tuple[int, list[int]]
) -> None:
    """A proposal answers the game as it was; once an earlier fact is corrected, even one
    that drops nothing after it, the proposal is closed and its confirm refused."""
    game_id, tiles = sinking
    correction = harmless_correction(table, game_id)
    while correction is None:  # a later turn, with more facts of the table behind it
        assert table.call(Command("cli", None, "", game_id, action=["sink", tiles[0]])).accepted
        game = play_until(table, game_id, "sink")
        tiles = [a[1] for a in game.legal_actions() if a[0] == "sink"]
        correction = harmless_correction(table, game_id)
    seq, action = correction
    assert propose(table, game_id, tiles[0]).accepted
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    fix = table.call(
        Command("phone", None, "", game_id, intent="correct", args={"seq": seq, "action": action})
    )
    assert fix.accepted and "0 action(s) dropped" in fix.message, fix.message
    assert camera(table, game_id) is None
    seat = mirror(table, game_id).state.turn
    refused = answer(table, game_id, "confirm_proposal", seat, id=pid)
    assert not refused.accepted and "no longer open" in refused.message


@pytest.mark.rule("B-9")
@pytest.mark.parametrize(
    ("action", "args", "said"),
    [
        (["sink", "x"], {}, "'x' is not a land position"),
        (["sink", None], {}, "None is not a land position"),
        (["sink", 10**6], {}, "1000000 is not a land position"),
        (["sink", True], {}, "True is not a land position"),
        ([], {}, "only proposes"),
        (["sink", "TILE"], {"alternatives": 5}, "a list of hexes"),
        (["sink", "TILE"], {"alternatives": [[1]]}, "[1] is not a land position"),
        (["sink", "TILE"], {"alternatives": [{}]}, "{} is not a land position"),
        (["sink", "TILE"], {"confidence": "abc"}, "a confidence is a number from 0 to 1"),
        (["sink", "TILE"], {"confidence": None}, "a confidence is a number from 0 to 1"),
        (["sink", "TILE"], {"confidence": float("nan")}, "a confidence is a number from 0 to 1"),
        (["sink", "TILE"], {"confidence": 7}, "a confidence is a number from 0 to 1"),
    ],
)
def test_garbage_from_the_camera_is_refused_with_a_sentence_and_changes_nothing(
    table: Table, sinking: tuple[int, list[int]], action: Any, args: dict[str, Any], said: str
) -> None:
    """Whatever the camera sends, the Table answers with a refusal that says what is
    wrong, proposes nothing and keeps serving every view."""
    game_id, tiles = sinking
    if action and action[1] == "TILE":
        action = ["sink", tiles[0]]
    reply = table.call(Command("camera", None, "", game_id, action=action, args=args))
    assert not reply.accepted and said in reply.message
    assert camera(table, game_id) is None
    assert table.snapshot(game_id, SPECTATOR)["state"]


@pytest.mark.rule("B-2")
def test_B_2_a_layout_proposal_with_bad_doubts_or_corrections_is_refused_by_name(
    table: Table,
) -> None:
    """B-2: the island's proposal names positions as people write them when it refuses one;
    doubtful positions must be land positions of the layout; corrections must be a mapping."""
    game_id = new_game(table, seed=5, mode="physical", layout="table")
    layout = box_layout()

    def offer(**args: Any) -> Reply:
        return table.call(Command("camera", None, "", game_id, ["terrain", "beach"], args=args))

    sea = board.parse("1.1")
    assert sea not in board.LAND
    off_land = offer(layout={**layout, sea: "beach"})
    assert not off_land.accepted and "1.1 is not a land position still to lay" in off_land.message
    for doubtful, said in (([999], "999 is not a land position"), (5, "a list of hexes")):
        reply = offer(layout=layout, doubtful=doubtful)
        assert not reply.accepted and said in reply.message
    assert camera(table, game_id) is None
    assert offer(layout=layout, doubtful=[board.LAND[3]]).accepted
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    for corrections in (None, [1], "x", 5):
        reply = answer(table, game_id, "confirm_proposal", 0, id=pid, layout=corrections)
        assert not reply.accepted and "corrections give positions" in reply.message
    assert stored(table, game_id) == []


@pytest.mark.rule("B-2")
def test_B_2_a_layout_cut_short_by_the_game_log_says_how_far_it_got(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B-2: if the game log fails while a confirmed island is laid, the reply says how many
    positions were laid (they stay, as stored facts) instead of claiming nothing happened."""
    game_id = new_game(table, seed=5, mode="physical", layout="table")
    reply = table.call(
        Command("camera", None, "", game_id, ["terrain", "beach"], args={"layout": box_layout()})
    )
    assert reply.accepted
    pid = camera(table, game_id)["proposal"]["id"]  # type: ignore[index]
    append = table._store.append_all
    calls = []

    def failing(*args: Any, **kwargs: Any) -> list[int]:
        calls.append(1)
        if len(calls) == 10:
            raise OSError("disk full")
        return append(*args, **kwargs)

    monkeypatch.setattr(table._store, "append_all", failing)
    reply = answer(table, game_id, "confirm_proposal", 0, id=pid)
    assert not reply.accepted
    assert reply.message.startswith("9 of 40 positions were laid; then: the game log could not be")
    monkeypatch.setattr(table._store, "append_all", append)
    assert [a for a, _ in stored(table, game_id)] == [
        ["terrain", t] for t in list(box_layout().values())[:9]
    ]


def test_the_camera_speaks_by_commands_and_only_the_camera_may_say_its_intents(
    table: Table,
) -> None:
    """No rule: the camera's status and its sync are commands like any other; a phone saying
    them is refused, and a malformed one is refused with a reason and changes nothing."""
    game_id = new_game(table, seed=5)
    heard = views(table)
    status = table.call(Command("camera", None, "", None, intent="status", args={"status": "ok"}))
    assert status.accepted and table.snapshot(game_id, SPECTATOR)["status"]["camera"] == "ok"
    assert all(events[-1].kind == "status" and events[-1].data["camera"] == "ok"
               for events in heard.values())  # fmt: skip
    for intent, args in (("status", {"status": "x"}), ("sync", {"disagree": []})):
        refused = table.call(Command("phone", 0, "", game_id, intent=intent, args=args))
        assert not refused.accepted and "only the camera" in refused.message
    bad = table.call(Command("camera", None, "", game_id, intent="sync", args={"disagree": [999]}))
    assert not bad.accepted and "not a land position" in bad.message
    assert camera(table, game_id) is None
    empty = table.call(Command("camera", None, "", None, intent="status", args={"status": ""}))
    assert not empty.accepted
