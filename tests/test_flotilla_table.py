"""A Flotilla game in the Table: stored, replayed from the store, corrected, undone, streamed,
rolled from the panel, refused with a sentence (spec flotilla.md, "How it runs in the
companion"), and reached through the JSON API like a Survive game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import history
from companion.commands import REFEREE, SPECTATOR, Command, Event, Reply
from companion.flotilla import NOT_VERIFIED
from companion.store import Store
from companion.table import Subscriber, Table
from companion.web import create_app
from tests.web_support import phone, table_config

PLAYERS = [{"name": "Ana", "colour": "red"}, {"name": "Ben", "colour": "blue"},
           {"name": "Cy", "colour": "green"}]  # fmt: skip
# Two skiffs with room for 1 and 4 barrels: two barrel results leave a choice (F-1).
DIVE = ["dive", {"skiffs": [{"tile": "A7", "depth": 2, "resource": "red", "barrels": 3},
                            {"tile": "B2", "depth": 1, "resource": "blue"}]}]  # fmt: skip
MIXED = ["dive_faces", [["barrel", "barrel"], ["toxicity"]]]
RESEARCH = ["research", {"dice": 4, "artifacts": {"delvers": 2}}]
WILD_ROLL = ["research_faces", ["wild", "blue", "blue", "currency:2"]]


def start(table: Table, **args: Any) -> int:
    reply = table.call(
        Command("cli", intent="new_game", args={"kind": "flotilla", "players": PLAYERS, **args})
    )
    assert reply.accepted, reply.message
    assert reply.game is not None
    return reply.game


def act(table: Table, game: int, action: list[Any], seat: int | None = 0) -> Reply:
    return table.call(Command("phone", seat, "", game, action=action))


def ok(table: Table, game: int, action: list[Any], seat: int | None = 0) -> Reply:
    reply = act(table, game, action, seat)
    assert reply.accepted, (action, reply.message)
    return reply


def intent(table: Table, game: int, name: str, source: str = "cli", **args: Any) -> Reply:
    return table.call(Command(source, None, "", game, intent=name, args=args))


def state(table: Table, game: int, view: Any = REFEREE) -> dict[str, Any]:
    return table.snapshot(game, view)


def rows(table: Table, game: int) -> list[tuple[list[Any], str]]:
    log = table.read(lambda: table._store.log(game, everything=True))
    return [(r.action, r.status) for r in log]


def test_F_1_F_2_a_game_is_stored_and_replayed_from_the_store(tmp_path: Path) -> None:
    """F-1, F-2, F-3: a dive with a barrel choice, a research with a wild die, a trade and VP,
    stored; a second Table on the same file rebuilds the very same game from the store."""
    table = Table(Store(tmp_path / "games.db"))
    game = start(table, seed=4)
    ok(table, game, DIVE)
    ok(table, game, MIXED)
    ok(table, game, ["barrels", [1, 1]])
    ok(table, game, RESEARCH)
    ok(table, game, WILD_ROLL)
    ok(table, game, ["wild", {"blue": [0]}])
    ok(table, game, ["trade", {"buy": {"red": 7}}])  # 2 past the top space: 4 VP (F-3)
    ok(table, game, ["done"])
    before = state(table, game)
    assert before["state"]["turn"] == 1
    assert before["state"]["vp"] == [4, 0, 0]
    assert before["state"]["supply"]["supply"] == 296
    table._store.close()

    again = Table(Store(tmp_path / "games.db"))
    after = state(again, game)
    assert after["state"] == before["state"]
    assert after["kind"] == "flotilla" and after["actions"] == 8
    assert after["settings"] == {"roll": "entered", "seed": "typed"}
    again._store.close()


def test_F_1_corrected_faces_replay_what_follows_and_drop_what_no_longer_fits(
    table: Table,
) -> None:
    """F-1: the faces entered are a fact of the table: corrected, the dive resolves again, and
    a barrel choice the new faces leave no room for is dropped."""
    game = start(table)
    ok(table, game, DIVE)
    faces = ok(table, game, MIXED).seq
    ok(table, game, ["barrels", [1, 1]])
    assert state(table, game)["state"]["last"]["gained"] == {"blue": 1, "red": 1}
    events: list[Event] = []
    table.subscribe(Subscriber(game, 1, events.append))

    reply = intent(table, game, "correct", seq=faces, action=["dive_faces", [["toxicity"], []]])
    assert reply.accepted, reply.message
    assert "1 action(s) dropped" in reply.message
    last = state(table, game)["state"]["last"]
    assert last["gained"] == {} and last["toxicity"] == 1  # no barrel: nothing to choose
    corrected = next(e for e in events if e.kind == "corrected")
    assert corrected.data["dropped"][0]["action"] == "barrels [1,1]"
    assert [s for a, s in rows(table, game) if a[0] == "barrels"] == ["superseded"]


def test_F_2_a_wild_choice_is_undone_in_its_turn_but_the_faces_are_not(table: Table) -> None:
    """F-2: the colour given to the wild die is the player's choice, undone within the turn;
    the faces rolled are not (correct them instead)."""
    game = start(table)
    ok(table, game, RESEARCH)
    ok(table, game, WILD_ROLL)
    snap = state(table, game, 0)
    assert snap["state"]["phase"] == "wild"
    assert snap["legal"][0] == ["wild", {"blue": [0]}]  # the best first: the Delvers pay out
    ok(table, game, ["wild", {"red": [0]}])  # an alternative: no set
    assert state(table, game)["state"]["last"]["sets"] == []

    undone = table.call(Command("phone", 0, "", game, intent="undo"))
    assert undone.accepted, undone.message
    assert state(table, game)["state"]["phase"] == "wild"
    refused = table.call(Command("phone", 0, "", game, intent="undo"))
    assert not refused.accepted and "correct it instead" in refused.message
    ok(table, game, ["wild", {"blue": [0]}])
    assert state(table, game)["state"]["last"]["artifacts"] == 2


def test_F_1_every_view_gets_the_same_events_and_only_the_roller_gets_choices(
    table: Table,
) -> None:
    """F-1: nothing of a Flotilla game is hidden, so each subscriber's projection is the same;
    the choices of a step go to the seat deciding (and the referee) only."""
    game = start(table)
    seen: dict[Any, list[Event]] = {v: [] for v in (0, 1, SPECTATOR, REFEREE)}
    for view, got in seen.items():
        table.subscribe(Subscriber(game, view, got.append))
    ok(table, game, DIVE)
    ok(table, game, MIXED)

    kinds = [e.kind for e in seen[1]]
    assert kinds == ["dive_started", "state", "dive_rolled", "state"]
    for view in (0, SPECTATOR, REFEREE):
        plain = [(e.seq, e.kind, e.data) for e in seen[view] if e.kind != "state"]
        assert plain == [(e.seq, e.kind, e.data) for e in seen[1] if e.kind != "state"]
    states = {v: got[-1].data for v, got in seen.items()}
    assert states[0]["legal"] == [["barrels", [1, 1]], ["barrels", [0, 2]]]
    assert "legal" in states[REFEREE]
    assert "legal" not in states[1] and "legal" not in states[SPECTATOR]
    assert {**states[1]["state"], "viewer": 0} == states[0]["state"]


def test_F_1_ROLL_asks_the_rollers_phone_when_faces_are_entered(table: Table) -> None:
    """F-1: with faces entered at the table, the panel's ROLL stores nothing and never guesses:
    the roller's phone is told to enter the faces."""
    game = start(table, roll="entered")
    ok(table, game, DIVE)
    events: list[Event] = []
    table.subscribe(Subscriber(game, 0, events.append))
    before = rows(table, game)

    reply = intent(table, game, "roll", source="gpio")
    assert reply.accepted and reply.seq is None
    assert "seat 1's phone asks for the faces of the dive roll" in reply.message
    assert rows(table, game) == before
    assert [(e.kind, e.data) for e in events] == [("enter_faces", {"seat": 0, "roll": "dive"})]
    assert state(table, game)["state"]["phase"] == "roll"
    # The companion's draw is no way round it either.
    assert intent(table, game, "draw", source="serial").seq is None
    assert rows(table, game) == before


def test_F_1_ROLL_rolls_when_the_table_chose_digital_rolls(table: Table) -> None:
    """F-1: with a digital roll chosen at setup, ROLL draws the faces from the dice file, stored
    as a fact marked rolled, and says the face distribution is not verified."""
    game = start(table, roll="digital", seed=11)
    ok(table, game, DIVE)
    events: list[Event] = []
    table.subscribe(Subscriber(game, 1, events.append))

    reply = intent(table, game, "roll", source="gpio")
    assert reply.accepted and reply.seq is not None
    stored = rows(table, game)[-1][0]
    assert stored[0] == "dive_faces" and stored[2] == "rolled" and len(stored[1]) == 2
    rolled = next(e for e in events if e.kind == "dive_rolled")
    assert rolled.data["rolled"] and rolled.data["note"] == NOT_VERIFIED
    assert state(table, game, 0)["state"]["note"] == NOT_VERIFIED
    # Without dice awaited there is nothing to roll.
    while state(table, game)["state"]["phase"] != "turn":
        ok(table, game, state(table, game, 0)["legal"][0])
    refused = intent(table, game, "roll", source="gpio")
    assert not refused.accepted and "start a dive (F-1)" in refused.message


@pytest.mark.parametrize(
    ("args", "says"),
    [
        ({"players": PLAYERS[:2]}, "Flotilla is for 3-5 players, not 2"),
        ({"roll": "guess"}, "roll must be one of entered, digital, not 'guess'"),
        ({"vp_per_player": 0}, "a positive number per player, not 0"),
        (
            {"mode": "physical"},
            "takes players, roll, vp_per_player, second_ties and seed, not mode",
        ),
    ],
)
def test_F_4_a_bad_setup_is_refused_with_a_sentence(
    table: Table, args: dict[str, Any], says: str
) -> None:
    """F-4: a player count, roll mode or supply the game does not take starts nothing."""
    body = {"kind": "flotilla", "players": PLAYERS, **args}
    reply = table.call(Command("cli", intent="new_game", args=body))
    assert not reply.accepted and says in reply.message
    assert table.read(table._store.games) == []


@pytest.mark.parametrize(
    ("actions", "bad", "rule", "says"),
    [
        ([DIVE, MIXED], ["barrels", [2, 0]], "F-1", "a skiff holds at most 4 barrels"),
        ([RESEARCH, WILD_ROLL], ["wild", {"blue": [0], "red": [0]}], "F-2", "as blue and as red"),
        ([["trade", {"buy": {"red": 1}}]], ["trade", {"sell": {"red": 1}}], "F-3", "at once"),
        ([], ["research_faces", ["wild"]], "F-2", "not possible now"),
        ([], ["vp", 0], "F-4", "1 VP or more"),
    ],
)
def test_F_1_F_2_F_3_a_refused_action_names_its_rule_and_changes_nothing(
    table: Table, actions: list[list[Any]], bad: list[Any], rule: str, says: str
) -> None:
    """F-1, F-2, F-3, F-4: what the rules forbid is refused with the rule and a sentence; the
    store and the game stay as they were."""
    game = start(table)
    for action in actions:
        ok(table, game, action)
    before = (rows(table, game), state(table, game))
    reply = act(table, game, bad)
    assert not reply.accepted and reply.rule == rule and says in reply.message
    assert (rows(table, game), state(table, game)) == before


def test_F_1_a_malformed_action_and_another_seats_step_are_refused(table: Table) -> None:
    """F-1: an action of the wrong shape says what it should be; a seat cannot act in
    another's turn."""
    game = start(table)
    reply = act(table, game, ["dive", {"skiffs": "A7"}])
    assert not reply.accepted and '{"skiffs": [{"tile", "depth"' in reply.message
    reply = act(table, game, DIVE, seat=2)
    assert not reply.accepted and "seat 1's decision, not seat 3's" in reply.message
    assert rows(table, game) == []


def test_F_4_F_5_F_6_the_supply_runs_out_the_last_turns_are_played_and_the_game_is_scored(
    table: Table,
) -> None:
    """F-4: the supply emptied in seat 2's turn; seat 3 finishes the round, then a turn each;
    F-5, F-6: each seat's count gives the ranking, stored as the game's outcome."""
    game = start(table, vp_per_player=5)  # a supply of 15
    ok(table, game, ["done"])
    ok(table, game, ["vp", 20], seat=1)  # 15 from the supply, 5 from the reserve
    snap = state(table, game)["state"]
    assert snap["supply"] == {"supply": 0, "from_reserve": 5, "per_player": 5, "verified": True}
    assert snap["ending"]["turns_left"] == [2, 0, 1, 2]
    for seat in (1, 2, 0, 1, 2):
        ok(table, game, ["done"], seat=seat)
    assert state(table, game)["state"]["phase"] == "tally"
    count = {"currency": 5, "resources": 2, "crew": 3, "penalty_vp": 0}
    ok(table, game, ["tally", {**count, "toxicity": 1, "seals": {"traders": 2}}], seat=0)
    ok(table, game, ["tally", {**count, "toxicity": 4}], seat=1)
    ok(table, game, ["tally", {**count, "toxicity": 2}], seat=2)

    record = table.read(lambda: table._store.game(game))
    assert record.ended_at is not None
    ranking = [(p["seat"], p["place"], p["total"]) for p in record.outcome["ranking"]]
    assert ranking == [(1, 1, 22), (0, 2, 12), (2, 3, 2)]
    assert state(table, game)["state"]["result"]["winners"] == [1]
    # `companion replay` and `companion export` read it back like a Survive game.
    log = table.read(lambda: table._store.log(game, everything=True))
    lines = list(history.replay_lines(record, log))
    assert "  1. Ben: 22 VP" in lines and any(" vp 20 " in line for line in lines)
    assert lines[3] == "Turn 1: Ana (seat 1)" and "Setting up" not in lines  # no setup to tell
    assert any(line.endswith("Ben takes 20 VP (0 left in the supply)") for line in lines)
    assert not any("seat 0" in line or "seat 1 " in line for line in lines[4:-4])  # names
    assert history.export(record, log)["final"] == state(table, game)["state"]


def test_F_1_the_api_takes_a_flotilla_game_and_its_json_actions(table: Table) -> None:
    """F-1: through the JSON API a phone starts a Flotilla game, sends its actions as JSON lists
    (text is refused with a sentence) and reads the log with each action's notation."""
    app = create_app(table, table_config(), test_config={"TESTING": True})
    starter = phone(app)
    made = starter.post(
        "/api/games", json={"kind": "flotilla", "players": PLAYERS, "roll": "digital"}
    )
    assert made.status_code == 201, made.json
    game = made.json["game"]  # type: ignore[index]
    ana = phone(app, game=game, seat=1)
    sent = ana.post(f"/api/games/{game}/commands", json={"request_id": "a1", "action": DIVE})
    assert sent.status_code == 200, sent.json
    text = ana.post(f"/api/games/{game}/commands", json={"request_id": "a2", "action": "vp 3"})
    assert text.status_code == 422 and 'a JSON list such as ["vp", 3]' in text.json["error"]  # type: ignore[index]
    rolled = ana.post(f"/api/games/{game}/commands", json={"request_id": "a3", "intent": "roll"})
    assert rolled.status_code == 200 and rolled.json["seq"] == 2  # type: ignore[index]
    log = ana.get(f"/api/games/{game}/actions").json["actions"]  # type: ignore[index]
    assert [r["notation"].split()[0] for r in log] == ["dive", "dive_faces"]
    assert log[1]["notation"].endswith('"rolled"')


ONE_SKIFF_EACH = ["dive", {"skiffs": [{"tile": "A7", "depth": 1, "resource": "red"},
                                      {"tile": "B2", "depth": 1, "resource": "blue"}]}]  # fmt: skip


def test_F_1_a_correction_drops_later_moves_whose_seat_no_longer_makes_them(table: Table) -> None:
    """F-1: corrected faces can keep the turn with the diver (a barrel to place now); the next
    seat's moves that followed are dropped, never credited to the diver."""
    game = start(table)
    ok(table, game, ONE_SKIFF_EACH)
    faces = ok(table, game, ["dive_faces", [["toxicity"], []]]).seq
    ok(table, game, ["done"])
    ok(table, game, ONE_SKIFF_EACH, seat=1)
    ok(table, game, ["dive_faces", [["barrel"], []]], seat=1)
    ok(table, game, ["barrels", [0, 1]], seat=1)
    ok(table, game, ["vp", 5], seat=1)
    ok(table, game, ["done"], seat=1)
    assert state(table, game)["state"]["vp"] == [0, 5, 0]
    reply = intent(table, game, "correct", seq=faces, action=["dive_faces", [["barrel"], []]])
    assert reply.accepted and "6 action(s) dropped" in reply.message, reply.message
    snap = state(table, game)["state"]
    assert (snap["vp"], snap["turn"], snap["phase"]) == ([0, 0, 0], 0, "barrels")
    log = table.read(lambda: table._store.log(game))
    assert [(r.action[0], r.seat) for r in log] == [("dive", 0), ("dive_faces", None)]


def test_F_6_a_correction_that_reopens_an_ended_game_reopens_its_record(tmp_path: Path) -> None:
    """F-6: a finished game whose faces are corrected back into play is in play in the store
    too, and a restarted Table goes on with it."""
    table = Table(Store(tmp_path / "games.db"))
    table.start()
    game = start(table, vp_per_player=1)
    ok(table, game, ONE_SKIFF_EACH)
    faces = ok(table, game, ["dive_faces", [["toxicity"], []]]).seq
    ok(table, game, ["vp", 3])  # the supply runs out: the round ends, then a turn each
    for seat in (0, 1, 2, 0, 1, 2):
        ok(table, game, ["done"], seat=seat)
    count = {"currency": 0, "resources": 0, "crew": 1, "penalty_vp": 0, "toxicity": 0}
    for seat in (0, 1, 2):
        ok(table, game, ["tally", count], seat=seat)
    assert table.read(lambda: table._store.game(game)).ended_at is not None  # type: ignore[union-attr]
    reply = intent(table, game, "correct", seq=faces, action=["dive_faces", [["barrel"], []]])
    assert reply.accepted, reply.message
    record = table.read(lambda: table._store.game(game))
    assert record is not None and record.ended_at is None and record.outcome is None
    table.stop()
    table._store.close()
    again = Table(Store(tmp_path / "games.db"))
    again.start()
    try:
        assert again.current == game
        assert state(again, game)["state"]["phase"] == "barrels"
    finally:
        again.stop()
        again._store.close()


def test_F_1_only_the_rollers_phone_tells_the_faces_and_only_the_companion_marks_its_roll(
    table: Table,
) -> None:
    """F-1, F-2: the faces of a roll are the roller's to tell (or the table's, with no seat);
    faces marked as the companion's roll are refused unless they are its digital roll."""
    game = start(table)
    ok(table, game, ONE_SKIFF_EACH)
    other = act(table, game, ["dive_faces", [["barrel"], []]], seat=2)
    assert not other.accepted and "seat 1's phone tells" in other.message
    marked = act(table, game, ["dive_faces", [["barrel"], []], "rolled"])
    assert not marked.accepted and "enters the faces" in marked.message
    assert rows(table, game) == [(ONE_SKIFF_EACH, "ok")]
    ok(table, game, ["dive_faces", [["barrel"], []]], seat=None)  # told by the table

    digital = start(table, roll="digital", seed=3)
    ok(table, digital, RESEARCH)
    drawn = table.read(lambda: table._loaded[digital].game.draw())
    other_faces = ["currency:2"] * 4 if drawn[1] == ["currency:1"] * 4 else ["currency:1"] * 4
    forged = act(table, digital, ["research_faces", other_faces, "rolled"])
    assert not forged.accepted and "not the companion's roll" in forged.message
    ok(table, digital, drawn)


def test_F_1_a_dive_that_names_a_tile_twice_or_more_dice_than_the_box_is_refused_at_once(
    table: Table,
) -> None:
    """F-1: the other tiles are named once each and the box holds 16 dive dice: a dive that
    breaks either is refused when it is declared, not left waiting for faces it cannot take."""
    game = start(table)
    twice = ["dive", {**ONE_SKIFF_EACH[1], "other_tiles": ["C1", "C1"]}]  # type: ignore[dict-item]
    reply = act(table, game, twice)
    assert not reply.accepted and reply.rule == "F-1" and "named twice" in reply.message
    many = ["dive", {**ONE_SKIFF_EACH[1], "card_dice": [1] * 15}]  # type: ignore[dict-item]
    reply = act(table, game, many)
    assert not reply.accepted and "the box has 16 dive dice, not 17" in reply.message
    assert rows(table, game) == []
    assert state(table, game)["state"]["phase"] == "turn"


# -- loose ends of the seed read again (issue 15) -------------------------------------------------


def test_F_1_a_sonar_space_showing_another_icon_can_be_entered_at_the_table(tmp_path: Path) -> None:
    """F-1: a sonar result counts as whatever the sonar track's space shows — an icon the dive
    dice do not have too, as the dive module allows; only "sonar" itself is refused."""
    table = Table(Store(tmp_path / "games.db"))
    game = start(table, seed=4)
    refused = act(table, game, ["dive", {**DIVE[1], "sonar": ["sonar"]}])
    assert not refused.accepted and refused.rule == "F-1"
    ok(table, game, ["dive", {**DIVE[1], "sonar": ["treasure"]}])
    assert state(table, game)["state"]["phase"] == "roll"


def test_F_3_the_table_refuses_selling_cargo_not_delivered(tmp_path: Path) -> None:
    """F-3: told the seat's reserve (and what its skiffs carry), the Table refuses a sale of
    barrels still aboard, naming why, and stores nothing; a sale from the reserve goes."""
    table = Table(Store(tmp_path / "games.db"))
    game = start(table, seed=4)
    sale = {"sell": {"red": 2}, "reserve": {"red": 1}, "cargo": {"red": 3}}
    refused = act(table, game, ["trade", sale])
    assert not refused.accepted and refused.rule == "F-3" and "delivered" in refused.message
    assert rows(table, game) == []
    ok(table, game, ["trade", {"sell": {"red": 1}, "reserve": {"red": 1}}])


def test_F_3_the_vp_past_the_tracks_ends_are_shown_as_unverified(tmp_path: Path) -> None:
    """F-3: the VP for buying past the top of the market come from a seed whose icons are lost:
    the trade every phone sees carries the mark, and the event too."""
    table = Table(Store(tmp_path / "games.db"))
    game = start(table, seed=4)
    reply = ok(table, game, ["trade", {"buy": {"red": 7}}])
    traded = next(e for e in reply.events if e["kind"] == "traded")
    assert traded["vp"] == 4 and "not verified" in traded["vp_unverified"]
    assert "not verified" in state(table, game, SPECTATOR)["state"]["trade"]["vp_unverified"]


@pytest.mark.parametrize(
    ("second_ties", "accepted"), [("friendly", True), ("toxicity", True), ("coin", False)]
)
def test_F_5_the_tie_for_second_most_seals_is_chosen_at_setup(
    tmp_path: Path, second_ties: str, accepted: bool
) -> None:
    """F-5: how a tie for second most guild seals is broken is a setting of the game, stored
    with it; an unknown way is refused."""
    table = Table(Store(tmp_path / "games.db"))
    reply = table.call(
        Command("cli", intent="new_game",
                args={"kind": "flotilla", "players": PLAYERS, "second_ties": second_ties})
    )  # fmt: skip
    assert reply.accepted is accepted, reply.message
    if accepted:
        assert reply.game is not None
        assert table.record(reply.game).rules["second_ties"] == second_ties
        assert table.read(lambda: table._loaded[reply.game].game.state.second_ties) == second_ties
