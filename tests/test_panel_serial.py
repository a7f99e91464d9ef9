"""The serial panel end to end: the Pico's firmware (under CPython, fake `machine`) on one end
of a pty, the companion's `SerialPanel` with pyserial on the other, a real started Table and
Store in between."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import serial

from companion import bench, config, doctor
from companion.commands import Command
from companion.panel import open_panel, wire
from companion.panel import serial as serial_panel
from companion.panel.fakepico import FakePico
from companion.panel.serial import ERROR_BEEP, ROLL_BEEP, SerialPanel
from companion.store import Store
from companion.table import Table

from .playing import PLAYERS, new_game, play_until

RED, BLUE = (255, 0, 0), (0, 0, 255)


def table_state(table: Table) -> str:
    status: str = table.read(lambda: table.status["panel"])
    assert status.startswith("serial: "), status
    return status.removeprefix("serial: ").split()[0]


def wait(condition: Callable[[], Any], timeout: float = 3.0, what: str = "") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what or condition}")


class Rig:
    def __init__(self, tmp_path: Path) -> None:
        self.store = Store(tmp_path / "games.db")
        self.table = Table(self.store)
        self.table.start()
        self.pico = FakePico()
        self.pico.plug()
        # The port lookup is injected: after an unplug the pty has a new path.
        self.panel = SerialPanel(self.table, find=lambda: self.pico.path)
        self.panel.start()

    def table_status(self) -> str:
        """The panel's state as the Table (and so every phone) has it: ``serial: STATE ...``."""
        return table_state(self.table)

    def connected(self) -> None:
        wait(lambda: self.table_status() == "connected", what="the Table hearing 'connected'")

    def led(self) -> tuple[int, int, int]:
        colour: tuple[int, int, int] = self.pico.panel.outputs.colour
        return colour

    def buzzer_hz(self) -> int:
        hz: int = self.pico.panel.outputs.buzzer.freq()
        return hz

    def all_acked(self) -> bool:
        c = self.panel.counters
        return c.sent > 0 and c.acked == c.sent and c.nacked == 0 and c.unacked == 0

    def close(self) -> None:
        self.panel.stop()
        self.pico.unplug()
        self.table.stop()
        self.store.close()


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    r = Rig(tmp_path)
    try:
        r.connected()
        yield r
    finally:
        r.close()


def serial_rows(rig: Rig, game: int) -> list[Any]:
    rows = rig.table.read(lambda: rig.store.log(game))
    return [r for r in rows if r.source == "serial"]


# -- end to end ------------------------------------------------------------------------------


def test_a_press_in_the_firmware_changes_the_game(rig: Rig) -> None:
    game = new_game(rig.table, seed=3)
    before = play_until(rig.table, game, "roll")
    turn_colour = RED if before.state.turn == 0 else BLUE
    wait(lambda: rig.led() == turn_colour, what="the LED showing whose turn it is")
    rig.pico.press("roll")
    rows = wait(lambda: serial_rows(rig, game), what="the roll stored")
    assert [r.action[0] for r in rows] == ["roll"]
    phase = rig.table.snapshot(game, "referee")["state"]["phase"]
    assert phase != "roll"
    # The Table's `rolled` event came back to the panel as the roll beep, acknowledged.
    wait(lambda: rig.buzzer_hz() == ROLL_BEEP["hz"], what="the roll beep")
    wait(rig.all_acked, what="every command acknowledged")
    assert rig.panel.counters.presses == 1 and rig.panel.counters.refused == 0


def test_a_press_that_means_nothing_now_gets_the_error_beep(rig: Rig) -> None:
    game = new_game(rig.table, seed=3)
    assert rig.table.snapshot(game, "referee")["state"]["phase"] == "place"
    wait(lambda: rig.led() == RED, what="seat 1's colour")
    rig.pico.press("roll")  # nothing to roll while people are being placed
    wait(lambda: rig.buzzer_hz() == ERROR_BEEP["hz"], what="the error beep")
    assert rig.panel.counters.refused == 1
    assert serial_rows(rig, game) == []
    wait(rig.all_acked, what="every command acknowledged")


def test_a_held_button_is_one_hold_not_also_a_short_press(rig: Rig) -> None:
    game = new_game(rig.table, seed=3)
    play_until(rig.table, game, "roll")
    release = rig.pico.press("roll", hold=True)
    assert release["held"] is True
    wait(lambda: serial_rows(rig, game), what="the held ROLL rolling")
    time.sleep(0.1)
    assert rig.panel.counters.presses == 1 and len(serial_rows(rig, game)) == 1


def test_unplugging_and_plugging_back_in_reconnects(rig: Rig) -> None:
    new_game(rig.table, seed=3)
    wait(lambda: rig.led() == RED, what="seat 1's colour")
    for _ in range(2):
        rig.pico.unplug()
        wait(lambda: rig.table_status() == "disconnected", what="the Table hearing of the unplug")
        rig.pico.plug()  # a new pty, a new path, a freshly started firmware
        assert rig.led() == (0, 0, 0)
        rig.connected()
        # The new firmware knows nothing: the companion tells it again what to show.
        wait(lambda: rig.led() == RED, what="the colour sent again")
        assert rig.pico.panel.outputs.status == "on"
    assert rig.panel.counters.connects == 3
    rig.pico.press("roll")
    wait(lambda: rig.buzzer_hz() == ERROR_BEEP["hz"], what="presses still handled")


NOT_FOR_THE_HOST = [
    b'{"t":"btn","b":"roll","e":"tap","seq":1}', b'{"t":"hb","seq":"1","bad":0}',
    b'{"t":"ack","seq":1,"id":2}', b'{"t":"hello","seq":1,"proto":1}', b'{"t":"btn","seq":-1}',
    b'{"id":1,"seq":2}', b'{"t":"led","id":1,"rgb":[1,2,3]}',
]  # fmt: skip
"""Objects with a field missing or of the wrong type for the companion (or no panel message)."""
NOT_FOR_THE_PANEL = [
    b'{"t":"led","id":"7","rgb":[1,2,3]}', b'{"t":"ping","id":-4}', b'{"t":"ping","id":true}',
    b'{"id":1,"seq":2}', b'{"t":"hello","seq":1,"proto":1}', b'{"t":7,"id":1}',
]  # fmt: skip
"""Objects that are not commands: no whole-number id, or no string t."""


def _garbage(rng: random.Random, n: int, *, host: bool, long_share: float) -> list[bytes]:
    """`n` non-empty lines, none a valid message for the side that receives them; a share of
    them too long for a line."""
    lines: list[bytes] = []
    while len(lines) < n:
        kind = rng.randrange(5)
        if rng.random() < long_share:
            line = b'{"t":"ping","id":1,"pad":"' + b"x" * rng.randrange(260, 600) + b'"}'
        elif kind == 0:  # random bytes
            line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 30)))
        elif kind == 1:  # random text
            line = "".join(
                chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 30))
            ).encode()
        elif kind == 2:  # JSON, but no object
            line = rng.choice([b"[]", b"42", b'"hb"', b"null", b"true", b"[1,2,{}]"])
        elif kind == 3:  # an object, but not a message for this side
            line = rng.choice(NOT_FOR_THE_HOST if host else NOT_FOR_THE_PANEL)
        else:  # cut short
            line = b'{"t":"btn","b":"roll","e":"press","seq":'[: rng.randrange(2, 30)]
        line = line.replace(b"\n", b"")
        if line.strip(b"\r"):  # an empty line is not malformed, only padding
            lines.append(line)
    return lines


def test_ten_thousand_garbage_lines_each_way_are_counted_and_harmless(rig: Rig) -> None:
    game = new_game(rig.table, seed=3)
    rng = random.Random(20240601)
    n = 10_000
    malformed = rig.panel.counters.malformed
    to_host = _garbage(rng, n, host=True, long_share=0.1)
    for i in range(0, n, 200):  # whole lines per write, so no real message is cut in two
        rig.pico.to_host(b"".join(line + b"\n" for line in to_host[i : i + 200]))
    # Fewer long lines this way: the firmware reads a byte per call, as on the Pico, which is
    # slow under CPython.
    to_firmware = _garbage(rng, n, host=False, long_share=0.01)
    for i in range(0, n, 50):
        rig.pico.from_host(b"".join(line + b"\n" for line in to_firmware[i : i + 50]))
    wait(lambda: rig.panel.counters.malformed - malformed == n, 10, "the companion's count")
    wait(lambda: rig.pico.panel.bad == n, 10, "the firmware's count")
    # The panel's count reaches the companion in its next heartbeat.
    wait(lambda: rig.panel.counters.panel_malformed == n, 3, "the heartbeat's count")
    assert rig.panel.counters.malformed - malformed == n
    assert rig.panel.counters.lost == 0
    # Both ends still work.
    assert rig.table_status() == "connected"
    play_until(rig.table, game, "roll")
    rig.pico.press("roll")
    wait(lambda: serial_rows(rig, game), what="a press after the garbage")
    wait(lambda: rig.buzzer_hz() == ROLL_BEEP["hz"], what="a beep after the garbage")


# -- the parts -------------------------------------------------------------------------------


def test_a_port_held_by_another_program_is_busy_then_taken(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    table = Table(store)
    table.start()
    pico = FakePico()
    path = pico.plug()
    other = serial.Serial(path, exclusive=True)  # mpremote, say
    panel = SerialPanel(table, find=lambda: path)
    panel.start()
    try:
        wait(lambda: table_state(table) == "busy", what="busy")
        other.close()
        wait(lambda: table_state(table) == "connected", what="connected")
    finally:
        panel.stop()
        pico.unplug()
        table.stop()
        store.close()


def test_a_panel_of_another_protocol_is_not_used(rig: Rig) -> None:
    rig.pico.to_host(b'{"t":"hello","proto":2,"fw":"9","id":"x","buttons":[],"seq":0}\n')
    wait(lambda: rig.table_status() == "incompatible", what="incompatible")
    rig.pico.press("roll")
    time.sleep(0.2)
    assert rig.panel.counters.presses == 0


def test_a_silent_panel_is_told_and_asked_again(tmp_path: Path) -> None:
    store = Store(tmp_path / "games.db")
    table = Table(store)
    table.start()
    pico = FakePico()
    pico.plug()
    panel = SerialPanel(table, find=lambda: pico.path, silent_after=0.3)
    panel.start()
    try:
        wait(lambda: panel.status == "connected", what="connected")
        pico.halt()  # the firmware stops (dropped into the REPL, say); the cable stays in
        wait(lambda: table_state(table) == "silent", what="silent")
        hellos = len([m for m in pico.sent if m["t"] == "hello"])
        pico.resume()
        # The companion asked for a hello when the panel fell silent; its answer ends the silence.
        wait(lambda: table_state(table) == "connected", what="connected")
        assert len([m for m in pico.sent if m["t"] == "hello"]) == hellos + 1
    finally:
        panel.stop()
        pico.unplug()
        table.stop()
        store.close()


def test_find_pico_by_usb_id(monkeypatch: pytest.MonkeyPatch) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    ports = [Port("/dev/ttyUSB0", 0x1A86, 0x7523), Port("/dev/ttyACM1", 0x2E8A, 0x0005),
             Port("/dev/ttyACM0", 0x2E8A, 0x000A), Port("/dev/ttyS0", None, None)]  # fmt: skip
    monkeypatch.setattr(serial_panel.list_ports, "comports", lambda: ports)
    assert serial_panel.find_pico() == "/dev/ttyACM1"
    assert serial_panel.finder("auto")() == "/dev/ttyACM1"
    monkeypatch.setattr(serial_panel.list_ports, "comports", lambda: ports[:1])
    assert serial_panel.find_pico() is None
    assert serial_panel.finder("/dev/null")() == "/dev/null"
    assert serial_panel.finder("/dev/no-such-port")() is None


def test_backoff_doubles_to_its_cap_and_resets() -> None:
    b = serial_panel.Backoff(0.1, 1.0)
    assert [b.next() for _ in range(6)] == [0.1, 0.2, 0.4, 0.8, 1.0, 1.0]
    b.reset()
    assert b.next() == 0.1


def test_wire_lines_and_messages() -> None:
    s = wire.LineSplitter()
    assert s.feed(b'{"a"') == []
    assert s.feed(b":1}\r\n\nx" + b"y" * 300 + b"\nok\n") == [b'{"a":1}', b"", None, b"ok"]
    assert wire.parse(b'{"t":"btn","b":"roll","e":"release","held":true,"seq":4}') == (
        wire.ButtonEvent(4, "roll", "release", True)
    )
    assert wire.parse(b'{"t":"hb","bad":3,"seq":5,"ms":1}') == wire.Heartbeat(5, 3)
    assert wire.parse(b'{"t":"ack","id":9,"ok":false,"err":"no","seq":6}') == (
        wire.Ack(6, 9, False, "no")
    )
    hello = b'{"t":"hello","proto":1,"fw":"1.0.0","id":"ab","buttons":["roll"],"seq":0}'
    assert wire.parse(hello) == wire.Hello(0, 1, "1.0.0", "ab", ("roll",))
    for bad in (b'{"t":"btn","b":"roll","e":"press"}', b'{"t":"hb","bad":true,"seq":1}',
                b'{"t":"zz","seq":1}', b"\xff", b"[", b'{"t":"ack","id":1,"ok":1,"seq":1}'):  # fmt: skip
        assert wire.parse(bad) is None, bad
    assert wire.command("led", 3, rgb=[1, 2, 3]) == b'{"t":"led","id":3,"rgb":[1,2,3]}\n'
    with pytest.raises(ValueError):
        wire.command("beep", 1, pad="x" * 300)


def test_colours_are_the_gpio_panels_on_the_protocols_scale() -> None:
    assert serial_panel.rgb((1.0, 0.6, 0.0)) == [255, 153, 0]
    assert serial_panel.rgb((1.2, -0.1, 0.5)) == [255, 0, 128]


def test_the_daemon_opens_a_serial_panel_for_kind_serial(tmp_path: Path) -> None:
    cfg = config.parse({"panel": {"kind": "serial", "port": "/dev/no-such-port"}})
    store = Store(tmp_path / "games.db")
    table = Table(store)
    table.start()
    try:
        panel = open_panel(cfg, table)
        assert isinstance(panel, SerialPanel) and panel.kind == "serial"
        panel.start()
        wait(lambda: table_state(table) == "disconnected", what="disconnected")
        assert "/dev/no-such-port" in table.read(lambda: table.status["panel"])
        panel.stop()
        assert table_state(table) == "stopped"
    finally:
        table.stop()
        store.close()


def test_commands_from_the_table_are_not_sent_while_unplugged(rig: Rig) -> None:
    rig.pico.unplug()
    wait(lambda: rig.table_status() == "disconnected", what="disconnected")
    sent = rig.panel.counters.sent
    rig.table.call(Command("cli", intent="new_game", args={"players": PLAYERS, "seed": 1}))
    time.sleep(0.2)
    assert rig.panel.counters.sent == sent


# -- doctor and bench ------------------------------------------------------------------------


def test_doctor_asks_the_panel_and_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pico = FakePico()
    path = pico.plug()
    cfg = config.parse({"panel": {"kind": "serial", "port": path}})
    try:
        check = doctor.serial_ports(cfg)
        assert check.status == "ok", check
        assert f"{path} (configured in [panel] port)" in check.text
        assert "firmware 1.0.0, protocol 1, buttons roll, next, undo" in check.text
        with serial.Serial(path, exclusive=True):  # the running companion holds it
            check = doctor.serial_ports(cfg)
            assert check.status == "warn" and "held by another program" in check.text
        pico.halt()  # firmware not running
        monkeypatch.setattr(
            serial_panel, "probe", functools.partial(serial_panel.probe, timeout=0.3)
        )
        check = doctor.serial_ports(cfg)
        assert check.status == "fail" and "no answer" in check.text
        assert "firmware/README.md" in check.advice
    finally:
        pico.unplug()
    gone = config.parse({"panel": {"kind": "serial", "port": "/dev/no-such-port"}})
    check = doctor.serial_ports(gone)
    assert check.status == "fail" and "does not exist" in check.text


def test_bench_panel_section_measures_a_press_and_a_reconnect() -> None:
    figures = bench.panel(presses=20, replugs=1, unplugged=0.2)
    assert set(figures) == {
        "panel.serial_event_p50_ms", "panel.serial_event_p99_ms", "panel.reconnect_s"
    }  # fmt: skip
    assert 0 < figures["panel.serial_event_p50_ms"] <= figures["panel.serial_event_p99_ms"] < 1000
    assert 0 < figures["panel.reconnect_s"] < 5
    assert "panel" in bench.RUNNERS
