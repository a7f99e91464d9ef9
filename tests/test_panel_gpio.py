"""The GPIO panel on gpiozero's MockFactory, with every pin read from hardware/pinout.toml: a
press reaches a real started Table and changes the game; bounces, holds, the LEDs, the buzzer."""

from __future__ import annotations

import io
import itertools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from gpiozero import LED, Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion import config, daemon, doctor
from companion.commands import Command
from companion.panel import PanelError, pinout
from companion.panel.buttons import HOLD, PRESS, Press
from companion.panel.gestures import Gestures
from companion.panel.gpio import GpioPanel
from companion.panel.lights import LED_COLOURS, led_colour
from companion.table import Table
from tests.daemon_support import free_port
from tests.playing import first, mirror, new_game, play_until

PINS = pinout.load(pinout.default_path())
PI_4 = "c03111"
HOLD_TIME = 0.3
"""Seconds of the panel's clock a button is down before it is a hold."""


class Clock:
    """The panel's clock, moved by hand: edges get exactly the time stamps a test gives."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t

    def advance(self, seconds: float) -> None:
        self.t += seconds


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    saved = Device.pin_factory
    Device.pin_factory = MockFactory(revision=PI_4, pin_class=MockPWMPin)
    try:
        yield Device.pin_factory
    finally:
        Device.pin_factory.reset()  # pins and reservations live on past the factory otherwise
        Device.pin_factory = saved


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def panel(factory: MockFactory, table: Table, clock: Clock) -> Iterator[GpioPanel]:
    panel = GpioPanel(table, PINS, clock=clock, hold_time=HOLD_TIME)
    panel.start()
    yield panel
    panel.stop()


def wait_for(condition: Callable[[], Any], timeout: float = 5.0) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        result = condition()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {condition}")
        time.sleep(0.01)


def button(factory: MockFactory, name: str) -> Any:
    return factory.pin(PINS.buttons[name])


def tap(panel: GpioPanel, factory: MockFactory, clock: Clock, name: str) -> None:
    """A clean short press: down, 0.1 s, up; then wait until the panel has carried it out."""
    pin = button(factory, name)
    pin.drive_low()
    clock.advance(0.1)
    pin.drive_high()
    clock.advance(1.0)
    assert panel.idle()


def beeps(factory: MockFactory) -> int:
    """Completed beeps of the buzzer: each a rise and a fall of its pin."""
    states = [bool(s.state) for s in factory.pin(PINS.buzzer).states]
    if states and states[-1]:
        return -1  # still sounding
    return sum(1 for a, b in itertools.pairwise(states) if not a and b)


def colour(factory: MockFactory) -> tuple[float, ...]:
    return tuple(round(float(factory.pin(p).state or 0), 2) for p in PINS.rgb_led)


def rows(table: Table, game: int) -> list[tuple[list[Any], str, str]]:
    log = table.read(lambda: table._store.log(game, everything=True))
    return [(r.action, r.source, r.status) for r in log]


def move(table: Table, game: int) -> None:
    state = mirror(table, game)
    reply = table.call(
        Command("cli", seat=state.actor, game=game, action=list(first(state, "move")))
    )
    assert reply.accepted, reply.message


# -- presses reach the Table --------------------------------------------------------------


def test_roll_in_step_4_rolls_the_die_and_the_buzzer_beeps(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    assert panel.idle()
    factory.pin(PINS.buzzer).clear_states()
    before = len(rows(table, game))
    tap(panel, factory, clock, "roll")
    action, source, status = rows(table, game)[before]
    assert action[0] == "roll" and source == "gpio" and status == "ok"
    assert wait_for(lambda: beeps(factory) == 1)


def test_next_ends_movement(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "move")
    tap(panel, factory, clock, "next")
    assert rows(table, game)[-1][:2] == (["done"], "gpio")
    assert mirror(table, game).phase == "sink"  # step 3 follows


def test_undo_takes_back_a_move_and_holding_it_the_whole_turn(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "move")
    for _ in range(3):
        move(table, game)
    tap(panel, factory, clock, "undo")  # short: one move back
    assert [s for _, _, s in rows(table, game)][-3:] == ["ok", "ok", "undone"]
    factory.pin(PINS.buzzer).clear_states()
    pin = button(factory, "undo")
    pin.drive_low()
    clock.advance(HOLD_TIME + 0.01)  # held past the hold time: back to the turn's start
    wait_for(lambda: [s for _, _, s in rows(table, game)][-3:] == ["undone"] * 3)
    clock.advance(2.0)
    pin.drive_high()  # the release after a hold is no short press ...
    assert panel.idle()
    statuses = [s for _, _, s in rows(table, game)]
    assert statuses.count("undone") == 3 and mirror(table, game).phase == "move"
    time.sleep(0.2)
    assert beeps(factory) == 0  # ... which, with nothing left to undo, would have beeped


def test_a_bounce_within_the_window_is_one_press(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    assert panel.idle()
    factory.pin(PINS.buzzer).clear_states()
    pin = button(factory, "roll")
    # Contacts chattering for 8 ms on the way down and 6 ms on the way up (MockPin debounces
    # nothing, so each edge reaches the panel).
    for dt, level in [(0, 0), (0.002, 1), (0.004, 0), (0.008, 1), (0.01, 0)]:
        clock.t = 1000.0 + dt
        pin.drive_low() if level == 0 else pin.drive_high()
    for dt, level in [(0.3, 1), (0.302, 0), (0.306, 1)]:
        clock.t = 1000.0 + dt
        pin.drive_high() if level == 1 else pin.drive_low()
    clock.advance(1.0)
    assert panel.idle()
    rolls = [a for a, source, _ in rows(table, game) if a[0] == "roll" and source == "gpio"]
    assert len(rolls) == 1
    # A second ROLL would have meant nothing after the roll: its error beep would be heard.
    assert wait_for(lambda: beeps(factory) == 1)
    time.sleep(0.3)
    assert beeps(factory) == 1


def test_a_tap_shorter_than_the_window_still_counts_once_the_window_is_over(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "roll")
    pin = button(factory, "roll")
    pin.drive_low()
    clock.advance(0.02)  # released inside the debounce window: taken for a bounce for now
    pin.drive_high()
    assert panel.idle()
    assert rows(table, game)[-1][0][0] != "roll"
    clock.advance(0.1)  # the window is over: the level left behind is a release after all
    wait_for(lambda: rows(table, game)[-1][0][0] == "roll")


# -- outputs ------------------------------------------------------------------------------


def test_the_rgb_led_shows_the_current_players_colour(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    assert panel.idle() and colour(factory) == (0, 0, 0)  # no game: dark
    game = new_game(table, seed=3)  # Ana red, Bo blue; Ana places first
    assert panel.idle() and colour(factory) == (1, 0, 0)
    state = play_until(table, game, "roll")
    assert state.state.turn == 0 and panel.idle() and colour(factory) == (1, 0, 0)
    tap(panel, factory, clock, "roll")
    while (state := mirror(table, game)).state.turn == 0:  # the first choices, until Bo's turn
        action = list(state.legal_actions()[0])
        assert table.call(Command("cli", seat=state.actor, game=game, action=action)).accepted
    assert panel.idle() and colour(factory) == (0, 0, 1)
    players = [{"name": "Cy", "colour": "yellow"}, {"name": "Di", "colour": "green"}]
    table.call(Command("cli", intent="new_game", args={"players": players, "seed": 2}))
    assert panel.idle() and colour(factory) == LED_COLOURS["yellow"]


def test_a_colour_no_led_knows_falls_back_to_the_seats_own() -> None:
    assert led_colour("Red", 1) == (1.0, 0.0, 0.0)
    assert led_colour("teal", 0) == pytest.approx((0.0, 0.5, 0.5), abs=0.01)  # any CSS name
    assert led_colour("sea foam", 1) == LED_COLOURS["blue"]  # seat 2's colour in the box
    assert led_colour(None, 0) == LED_COLOURS["red"]
    assert led_colour("black", 2) == LED_COLOURS["green"]  # a dark LED would say "no game"


def test_a_refused_press_gives_the_error_beep_and_changes_nothing(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    game = new_game(table, seed=3)
    play_until(table, game, "move")
    assert panel.idle()
    factory.pin(PINS.buzzer).clear_states()
    before = rows(table, game)
    tap(panel, factory, clock, "undo")  # sent, but nothing of this turn to undo: refused
    assert wait_for(lambda: beeps(factory) == 3)
    assert rows(table, game) == before
    play_until(table, game, "sink")
    assert panel.idle()
    factory.pin(PINS.buzzer).clear_states()
    before = rows(table, game)
    tap(panel, factory, clock, "next")  # means nothing in step 3: no command at all
    assert wait_for(lambda: beeps(factory) == 3)
    assert rows(table, game) == before


def test_the_status_led_is_lit_while_the_table_lives_and_blinks_when_it_stops(
    panel: GpioPanel, factory: MockFactory, clock: Clock, table: Table
) -> None:
    status = factory.pin(PINS.status_led)
    assert status.state
    assert wait_for(lambda: table.status["panel"].startswith("gpio: ready"))
    assert "GPIO17" in table.status["panel"]
    table.stop()
    status.clear_states()

    def blinking() -> bool:
        states = [bool(s.state) for s in status.states]
        return any(a and not b for a, b in itertools.pairwise(states)) and states[-1]

    wait_for(blinking, timeout=5)
    assert panel.trouble == "the table is not running"
    table.start()
    wait_for(lambda: panel.trouble is None)
    assert panel.idle() and status.state
    assert wait_for(lambda: table.status["panel"].startswith("gpio: ready"))


def test_the_devices_are_on_the_pins_of_the_pinout(panel: GpioPanel, factory: MockFactory) -> None:
    for name, bcm in PINS.buttons.items():
        pin = factory.pin(bcm)
        assert pin.function == "input" and pin.pull == "up", name
        assert pin.state  # pulled up: not pressed
    for bcm in (*PINS.rgb_led, PINS.status_led, PINS.buzzer):
        assert factory.pin(bcm).function == "output", bcm
    assert panel.factory == "MockFactory"


def test_a_pin_already_in_use_stops_the_start_with_a_clear_error(
    factory: MockFactory, table: Table
) -> None:
    squatter = LED(PINS.buttons["undo"])
    with pytest.raises(PanelError, match="cannot use its pins"):
        GpioPanel(table, PINS).start()
    squatter.close()
    panel = GpioPanel(table, PINS)  # the failed start let go of every pin it had taken
    panel.start()
    panel.stop()
    assert table.status  # the Table still answers


def test_the_daemon_starts_the_gpio_panel_and_reports_it(
    factory: MockFactory, tmp_path: Path
) -> None:
    cfg = config.parse({"web": {"port": free_port()}, "panel": {"kind": "gpio"}})
    out = io.StringIO()
    d = daemon.Daemon(cfg, "127.0.0.1", tmp_path / "games.db", tmp_path, out=out, err=out)
    d.start()
    try:
        assert isinstance(d.panel, GpioPanel)
        assert d.table is not None
        assert wait_for(lambda: d.table is not None and "gpio: ready" in d.table.status["panel"])
        assert factory.pin(PINS.status_led).state
    finally:
        d.stop()
    assert "panel:     buttons ROLL GPIO17" in out.getvalue()
    assert not factory.pin(PINS.status_led).state  # stopped: the pins let go


# -- gestures: edges to presses, on time stamps alone ---------------------------------------


def test_gestures_tell_bounces_taps_and_holds_apart() -> None:
    g = Gestures(window=0.05, hold_time=1.0)
    assert g.edge("roll", True, 0.0) == []
    assert g.edge("roll", False, 0.003) == []  # bounce
    assert g.edge("roll", True, 0.006) == []  # bounce
    assert g.edge("roll", False, 0.2) == [Press("roll", PRESS)]
    assert g.edge("roll", True, 0.21) == []  # a bounce of the release
    assert g.edge("roll", False, 0.215) == []
    assert g.due(0.3) is None  # nothing down, nothing unsettled: nothing to wait for
    # Held: the hold is told once, when its time has come; its release is no short press.
    assert g.edge("undo", True, 1.0) == []
    assert g.due(1.5) == 0.5 and g.holds(1.99) == []
    assert g.settle(2.0) == []  # windows only: a release may be on its way
    assert g.holds(2.0) == [Press("undo", HOLD)]
    assert g.holds(2.5) == [] and g.due(2.5) is None
    assert g.edge("undo", False, 3.0) == []


def test_a_release_before_the_hold_time_is_a_short_press_and_no_hold() -> None:
    g = Gestures(window=0.05, hold_time=1.0)
    g.edge("next", True, 0.0)
    assert g.edge("next", False, 0.5) == [Press("next", PRESS)]
    assert g.holds(1.0) == [] and g.holds(5.0) == []


def test_a_hold_whose_first_edge_looked_like_a_bounce_is_still_a_hold() -> None:
    g = Gestures(window=0.05, hold_time=1.0)
    g.edge("undo", True, 0.0)
    g.edge("undo", False, 0.3)  # a short press ...
    g.edge("undo", True, 0.32)  # ... and, 20 ms later, down again: taken for a bounce
    assert g.holds(0.4) == []  # the window is over: pressed since 0.35
    assert g.holds(1.35) == [Press("undo", HOLD)]
    assert g.edge("undo", False, 2.0) == []


def test_a_tap_inside_the_window_is_settled_when_the_window_closes() -> None:
    g = Gestures(window=0.05)
    g.edge("roll", True, 0.0)
    assert g.edge("roll", False, 0.02) == []
    assert g.due(0.02) == 0.05 and g.settle(0.04) == []
    assert g.settle(0.06) == [Press("roll", PRESS)]
    assert g.due(0.06) is None


# -- companion doctor ---------------------------------------------------------------------


def test_doctor_names_the_panel_and_its_pins(tmp_path: Path) -> None:
    def check(**panel: str) -> doctor.Check:
        return doctor.panel(config.parse({"panel": panel}))

    gpio = check(kind="gpio")
    assert gpio.status == "ok"
    assert "ROLL GPIO17" in gpio.text and str(pinout.default_path()) in gpio.text
    assert check(kind="none").text.startswith("none")
    assert "simulated" in check(kind="sim").text
    assert "serial" in check(kind="serial").text
    clash = tmp_path / "pinout.toml"
    clash.write_text(pinout.default_path().read_text().replace("bcm = 22", "bcm = 14"))
    warned = check(kind="gpio", pinout=str(clash))
    assert (
        warned.status == "warn" and "GPIO14 (Buttons undo) is also the UART (TXD)" in warned.advice
    )
    missing = check(kind="gpio", pinout=str(tmp_path / "absent.toml"))
    assert missing.status == "fail" and "no pinout file" in missing.text
