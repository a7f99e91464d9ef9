"""Bot seats at the Table: chosen at setup, deciding outside the Table's thread from their seat's
knowledge, acting at once in a digital game and waiting for a person's NEXT at a physical one."""

from __future__ import annotations

import json
import random
import re
import time
from pathlib import Path

import pytest

from companion.bots import decide, say
from companion.bots.seat import BotSeats
from companion.commands import REFEREE, Command, Event
from companion.engine import Game, board
from companion.panel.lights import Lights
from companion.refusals import Refused
from companion.store import Store
from companion.table import Subscriber, Table
from tests.playing import mirror

I18N = Path(__file__).resolve().parent.parent / "web" / "i18n"

FOUR = [
    {"name": "Ana", "colour": "red"},
    {"name": "Blue bot", "colour": "blue", "bot": "normal"},
    {"name": "Cy", "colour": "green"},
    {"name": "Yellow bot", "colour": "yellow", "bot": "easy"},
]
BOTS = {1, 3}


def start(table: Table, mode: str, seed: int = 4) -> int:
    reply = table.call(
        Command("cli", intent="new_game", args={"players": FOUR, "seed": seed, "mode": mode})
    )
    assert reply.accepted, reply.message
    assert reply.game is not None
    return reply.game


def test_setup_refuses_a_bot_level_that_does_not_exist(table: Table) -> None:
    players = [{"name": "Ana"}, {"name": "Bot", "bot": "genius"}]
    reply = table.call(Command("cli", intent="new_game", args={"players": players, "seed": 1}))
    assert not reply.accepted
    assert "easy, normal, strong" in reply.message and "'genius'" in reply.message


def test_two_bots_and_two_people_play_a_whole_digital_game(table: Table) -> None:
    """Two people (their phones) and two bots (an edge on its own thread) play to the end; a
    bot never waits for a confirmation in a digital game, and every bot action is stored as
    its seat's, from the bot."""
    game_id = start(table, "digital")
    seats = BotSeats(table, budget_s=0.05, seed=1)
    seats.start()
    rng = random.Random(2)
    try:
        deadline = time.monotonic() + 480
        while time.monotonic() < deadline:
            game = mirror(table, game_id)
            if game.over:
                break
            seat = game.state.turn if game.is_chance() else game.actor
            if seat is None or seat in BOTS:
                time.sleep(0.02)  # the bot thread is deciding, or rolling its die
                continue
            if game.is_chance():
                table.call(Command("phone", seat=seat, game=game_id, intent="roll"))
                continue
            action = rng.choice(game.legal_actions())
            table.call(Command("phone", seat=seat, game=game_id, action=list(action)))
        assert mirror(table, game_id).over
    finally:
        seats.stop()
    rows = table.read(lambda: table._store.log(game_id))
    by_bot = [r for r in rows if r.source == "bot"]
    assert by_bot and {r.seat for r in by_bot} == BOTS
    assert all(r.seat not in BOTS for r in rows if r.source == "phone")


def test_a_phone_cannot_act_as_a_bot_and_a_bot_command_only_comes_for_a_bot_seat(
    table: Table,
) -> None:
    game_id = start(table, "digital")
    game = mirror(table, game_id)
    assert game.actor == 0  # a person's seat
    action = list(game.legal_actions()[0])
    reply = table.call(Command("bot", seat=0, game=game_id, action=action))
    assert not reply.accepted and "only a bot seat" in reply.message


def test_at_a_physical_table_the_bot_move_waits_for_a_person_and_every_phone_reads_it(
    table: Table,
) -> None:
    """The bot's decision is shown on every phone as a sentence and done only when a person
    has made it on the board and pressed NEXT (or tapped)."""
    game_id = start(table, "physical")
    seats = BotSeats(table, budget_s=0.05, seed=1)  # stepped by hand: no thread
    game = mirror(table, game_id)
    while game.actor not in BOTS:  # the people place until a bot is asked
        assert game.actor is not None
        action = list(game.legal_actions()[0])
        assert table.call(Command("phone", seat=game.actor, game=game_id, action=action)).accepted
        game = mirror(table, game_id)
    bot = game.actor
    before = len(table.read(lambda: table._store.log(game_id)))
    assert seats.step()
    assert not seats.step()  # it waits for its move to be made: no second decision
    for view in (0, 1, 2, 3, "spectator"):
        shown = table.snapshot(game_id, view)["bot_move"]
        assert shown["seat"] == bot
        assert shown["sentence"].startswith(f"Bot {FOUR[bot]['colour'].capitalize()} places")
    assert len(table.read(lambda: table._store.log(game_id))) == before  # nothing done yet
    reply = table.call(Command("gpio", intent="next", game=game_id))
    assert reply.accepted, reply.message
    rows = table.read(lambda: table._store.log(game_id))
    assert len(rows) == before + 1 and rows[-1].seat == bot and rows[-1].action[0] == "place"
    assert table.snapshot(game_id, 0)["bot_move"] is None


def heard(table: Table, views: tuple[int | str, ...]) -> dict[int | str, list[Event]]:
    """What each of `views` is told from now on (on the Table's thread: kept in lists)."""
    told: dict[int | str, list[Event]] = {view: [] for view in views}
    for view in views:
        table.subscribe(Subscriber(None, view, told[view].append))
    return told


def to_bot(table: Table, game_id: int) -> Game:
    """The people place by their first choice until a bot seat is asked; that game."""
    game = mirror(table, game_id)
    while game.actor not in BOTS:
        assert game.actor is not None
        action = list(game.legal_actions()[0])
        assert table.call(Command("phone", seat=game.actor, game=game_id, action=action)).accepted
        game = mirror(table, game_id)
    return game


def test_a_digital_bot_decision_reaches_every_phone_as_data_and_is_done_at_once(
    table: Table,
) -> None:
    """Every view hears the decision as a key and its parameters (the page words it), the
    snapshot keeps it with the hexes it touched (the board marks them) until the next action,
    and the game went on without anyone's confirmation."""
    game_id = start(table, "digital")
    game = to_bot(table, game_id)
    told = heard(table, (0, 2, "spectator"))
    before = len(table.read(lambda: table._store.log(game_id)))
    seats = BotSeats(table, budget_s=0.05, seed=1)
    assert seats.step()
    rows = table.read(lambda: table._store.log(game_id))
    assert len(rows) == before + 1 and rows[-1].source == "bot"  # done: nobody pressed NEXT
    placed = rows[-1].action
    assert placed[0] == "place" and len(placed) == 3  # with its value, which nobody is told
    for view, events in told.items():
        bot = [e for e in events if e.kind == "bot"]
        assert len(bot) == 1, view
        assert bot[0].data["key"] == "bot.place" and bot[0].data["seat"] == game.actor
        assert bot[0].data["params"] == {"seat": game.actor, "hex": board.name(placed[1])}
        assert bot[0].data["waiting"] is False
        shown = table.snapshot(game_id, view)["bot_move"]
        assert shown["hexes"] == [board.name(placed[1])] and shown["key"] == "bot.place"
        assert "action" not in shown and "why" not in shown  # a value; the bot's reasons
        assert shown["sentence"] == f"Bot {FOUR[game.actor]['colour'].capitalize()} places a " \
            f"person on {board.name(placed[1])}"  # fmt: skip


def test_B_5_a_bot_placing_a_person_tells_no_phone_its_value(tmp_path: Path) -> None:
    """B-5 (spec §9: by default nobody but the referee knows a placed value, not even its
    owner): twin tables where the bot places a person on the same hex with two different
    values tell every seat and a spectator exactly the same, the bot's own seat included; the
    referee's differ, so the comparison would see a leak."""
    views: tuple[int | str, ...] = (0, 1, 2, 3, "spectator", REFEREE)
    seen = []
    for twin, value in (("a", 1), ("b", 3)):
        table = Table(Store(tmp_path / f"{twin}.db"), clock=lambda: 1_000_000.0)
        table.start()
        try:
            game_id = start(table, "digital")
            game = to_bot(table, game_id)
            hex_ = next(a[1] for a in game.legal_actions() if a[0] == "place")
            told = heard(table, views)
            action = ["place", hex_, value]
            assert table.call(Command("bot", game.actor, game=game_id, action=action)).accepted
            seen.append({v: json.dumps([(e.kind, e.data) for e in told[v]]) for v in views})
        finally:
            table.stop()
            table._store.close()
    for view in views[:-1]:
        assert seen[0][view] == seen[1][view], view
    assert seen[0][REFEREE] != seen[1][REFEREE]
    assert '"bot"' in seen[0]["spectator"]


def test_at_a_physical_table_the_panel_beeps_for_a_bot_move_to_make(table: Table) -> None:
    """The panels' lights (GPIO and Pico alike) beep for a bot decision waiting to be made on
    the real board, and not for a digital game's, which needs nobody."""
    for mode, beeped in (("physical", ["bot"]), ("digital", [])):
        beeps: list[str] = []
        lights = Lights(lambda _colour: None, beeps.append)
        sub = Subscriber(None, "spectator", lights.event)
        table.subscribe(sub)
        game_id = start(table, mode)
        to_bot(table, game_id)
        assert BotSeats(table, budget_s=0.05, seed=1).step()
        table.unsubscribe(sub)
        assert beeps == beeped, mode


def test_the_pages_words_say_what_the_table_says_in_english() -> None:
    """Each kind of bot decision has its words in en, es and fr, with the same parameters; the
    English page says what the table's own sentence says."""
    books = {lang: json.loads((I18N / f"{lang}.json").read_text()) for lang in ("en", "es", "fr")}
    for key, english in say.ENGLISH.items():
        assert books["en"][key] == english
        for lang in ("es", "fr"):
            assert set(re.findall(r"{\w+}", books[lang][key])) == set(re.findall(r"{\w+}", english))


def test_a_hint_is_for_the_deciding_persons_seat_and_only_when_the_game_allows_it(
    table: Table,
) -> None:
    """ "Suggest" is off by default; on, it gives the seat to decide what it knows (its seat's
    knowledge, as a bot's), never for another seat or a bot's."""
    game_id = start(table, "digital")
    with pytest.raises(Refused) as off:
        table.hint(game_id, 0)
    assert off.value.key == "suggest.off"
    players = [{k: v for k, v in p.items() if k != "bot"} for p in FOUR]
    reply = table.call(Command("cli", intent="new_game", args={"players": players, "seed": 4,
                                                                "mode": "digital", "hints": True}))  # fmt: skip
    assert reply.accepted and reply.game is not None
    game = mirror(table, reply.game)
    known = table.hint(reply.game, game.actor)
    with pytest.raises(Refused) as other:
        table.hint(reply.game, (game.actor + 1) % 4)
    assert other.value.key == "suggest.not_now"
    decision = decide(Game(known), game.actor, "normal", random.Random(1))
    assert decision.action in game.legal_actions() and decision.reason in ("best", "only")


def test_a_whole_physical_game_with_a_bot_needs_only_a_persons_phone(table: Table) -> None:
    """At a physical table nobody holds the bot's seat: its die, its tiles' backs and the
    values under its saved people are told from a person's phone (offered as ``for_bot``, never
    to a spectator), each of its decisions is made on the board and confirmed with NEXT; the
    game ends with only what seat 1's phone offers."""
    players = [{"name": "Ana", "colour": "red"}, {"name": "Blue", "colour": "blue", "bot": "easy"}]
    reply = table.call(Command("cli", intent="new_game",
                               args={"players": players, "seed": 5, "mode": "physical"}))  # fmt: skip
    game_id = reply.game
    seats = BotSeats(table, budget_s=0.05, seed=1)  # stepped here: no thread
    rng = random.Random(6)  # a game where the bot keeps a tile told only as "red"
    told_for_bot: set[str] = set()
    for _ in range(3000):
        if seats.step():
            assert table.call(Command("phone", seat=0, game=game_id, intent="next")).accepted
            continue
        shown = table.snapshot(game_id, 0)
        if shown["state"]["phase"] == "over":
            break
        if shown.get("for_bot") == 1:
            told_for_bot.add(shown["state"]["phase"])
            assert "outcomes" not in table.snapshot(game_id, "spectator")
        if shown.get("outcomes"):  # what the real die or tile shows: the referee knows it
            truth = table.snapshot(game_id, REFEREE)["outcomes"]
            told = [o for o in truth if o in shown["outcomes"]]
            # A bot's red tile told by name (the page's "tell privately") it may play; one told
            # only as "red" it may not (it does not know which).
            named = [o for o in told if o[0] == "back" and o[1] != "red"]
            by_name = shown.get("for_bot") == 1 and named and rng.random() < 0.5
            action = rng.choice(named if by_name else told)
        else:
            assert shown.get("legal"), shown["state"]["phase"]  # never stuck
            action = rng.choice(shown["legal"])
        assert table.call(Command("phone", seat=0, game=game_id, action=list(action))).accepted
    assert mirror(table, game_id).over
    assert {"roll", "back", "reveal"} <= told_for_bot
    rows = table.read(lambda: table._store.log(game_id))
    assert {r.action[0] for r in rows if r.seat == 1} >= {"place", "move", "sink", "play", "reveal"}
