"""The lights both panels share (`companion.panel.lights`): the turn's colour from the events the
Table tells a watcher, and a beep when the die is cast, without asking the Table for more."""

from __future__ import annotations

import itertools
from typing import Any

from companion.commands import Command
from companion.panel.lights import OFF, Lights, led_colour
from companion.table import Subscriber, Table
from tests.playing import mirror, new_game, play_until

RED, BLUE = led_colour("red", 0), led_colour("blue", 1)


def test_B_10_the_led_follows_the_turn_and_the_die_beeps(table: Table, monkeypatch: Any) -> None:
    """B-10: step 4 rolls the creature die; the LED shows whose turn it is all along."""
    shown: list[tuple[float, float, float]] = []
    beeps: list[str] = []
    lights = Lights(shown.append, beeps.append)
    lights.sync(table)
    assert shown == [OFF]  # no game yet
    table.subscribe(Subscriber(None, "spectator", lights.event))
    game = new_game(table, seed=4)
    asked = 0

    def counted(*args: Any) -> Any:
        nonlocal asked
        asked += 1
        return real(*args)

    real = table.snapshot
    monkeypatch.setattr(table, "snapshot", counted)
    for n in range(2):  # two whole turns
        engine = play_until(table, game, "roll")
        assert shown[-1] == (RED, BLUE)[engine.state.turn]
        assert table.call(Command("cli", game=game, intent="roll")).accepted
        assert beeps.count("roll") == n + 1
        engine = mirror(table, game)
        if engine.phase == "creature":
            assert table.call(Command("cli", engine.actor, game=game, intent="next")).accepted
        seat = mirror(table, game).state.turn
        assert shown[-1] == (RED, BLUE)[seat], "the LED shows the next player"
    assert asked == 0, "the lights asked the Table for a snapshot"
    # Every command tells a state: the LED is set only when its colour changes.
    assert all(a != b for a, b in itertools.pairwise(shown)), shown
    lights.sync(table)  # a panel that (re)connects is shown its colour, changed or not
    assert shown[-2:] == [shown[-1]] * 2
