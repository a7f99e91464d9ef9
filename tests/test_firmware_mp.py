"""The Pico firmware's logic under a real MicroPython: the official WebAssembly port, in node.

The firmware's own modules (firmware/pico/: wire protocol, debounce, outputs, the app and its
loop in main.py) run unchanged on MicroPython 1.27; only `machine` is a fake pin layer
(tests/micropython/machine.py). The port comes from npm
(``@micropython/micropython-webassembly-pyscript``), which ``make test`` installs together with
node (Makefile: MICROPYTHON). Each test sends a short MicroPython program; what the panel
writes comes back through node's stdout and is checked here, message by message.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PORT = (
    ROOT / ".npm-tools" / "micropython" / "node_modules" / "@micropython"
    / "micropython-webassembly-pyscript" / "micropython.mjs"
)  # fmt: skip
RUNNER = ROOT / "tools" / "micropython.mjs"
HARNESS = ROOT / "tests" / "micropython"
FIRMWARE = ROOT / "firmware" / "pico"
VERSION = "1.27.0"
"""The MicroPython the port is built from (the Makefile pins the npm package to it)."""


@dataclass
class Run:
    said: dict[str, Any] = field(default_factory=dict)
    out: list[dict[str, Any]] = field(default_factory=list)
    """Every message the panel wrote, in order."""

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.out if m["t"] == kind]


def micropython(program: str, *folders: Path, timeout: float = 300) -> Run:
    """Run `program` on MicroPython with the firmware and the harness on its path (and the files
    of `folders` beside them); what it said and what the panel wrote."""
    node = shutil.which("node")
    assert node, "node is missing: `make test` installs it (APT_PACKAGES)"
    assert PORT.is_file(), f"{PORT} is missing: `make test` installs it from npm"
    with tempfile.TemporaryDirectory() as folder:
        script = Path(folder) / "program.py"
        script.write_text("from harness import *\n" + program)
        run = subprocess.run(
            [node, str(RUNNER), str(PORT), str(script), str(HARNESS), str(FIRMWARE),
             *map(str, folders)],
            capture_output=True, text=True, timeout=timeout,
        )  # fmt: skip
    assert run.returncode == 0, run.stderr
    result = Run()
    for line in run.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "W":
            text = json.loads(rest)
            # One message a line, within the protocol's 256 bytes (firmware/PROTOCOL.md).
            assert text.endswith("\n") and text.count("\n") == 1, text
            assert len(text.encode()) <= 256, text
            result.out.append(json.loads(text))
        elif kind == "S":
            name, _, value = rest.partition(" ")
            result.said[name] = json.loads(value)
        else:
            raise AssertionError(f"unexpected output: {line!r}")
    assert [m["seq"] for m in result.out] == list(range(len(result.out)))
    return result


def test_it_is_micropython_that_runs() -> None:
    run = micropython(
        "import sys, time\n"
        "say('impl', [sys.implementation.name, list(sys.implementation.version[:3])])\n"
        "say('ticks_diff', hasattr(time, 'ticks_diff'))\n"
    )
    assert run.said["impl"] == ["micropython", [int(n) for n in VERSION.split(".")]]
    assert run.said["ticks_diff"]  # the firmware's ticks use MicroPython's own


def test_hello_at_start_then_an_ack_for_each_command_and_an_error_ack() -> None:
    run = micropython(
        "panel = make_panel()\n"
        "panel.start(1000)\n"
        'panel.feed(b\'{"t":"led","id":7,"rgb":[255,128,0]}\\n{"t":"ping","id":8}\\n\','
        " 1001)\n"
        'panel.feed(b\'{"t":"led","id":9,"rgb":[256,0,0]}\\n{"t":"warp","id":10}\\n\','
        " 1002)\n"
        "say('duty', [p.duty_u16() for p in panel.outputs.rgb])\n"
        "say('bad', panel.bad)\n"
    )
    hello = run.out[0]
    assert hello["t"] == "hello" and hello["seq"] == 0 and hello["ms"] == 1000
    assert hello["proto"] == 1 and hello["buttons"] == ["roll", "next", "undo"]
    assert hello["id"] == "e6614104032b552a"
    acks = {m["id"]: m for m in run.of("ack")}
    assert acks[7]["ok"] and acks[8]["ok"]
    assert not acks[9]["ok"] and "0..255" in acks[9]["err"]
    assert not acks[10]["ok"] and "warp" in acks[10]["err"]
    assert run.said["duty"] == [65535, 128 * 257, 0]  # the bad colour changed nothing
    assert run.said["bad"] == 0


def test_press_hold_and_release_through_the_pull_ups() -> None:
    run = micropython(
        "panel = make_panel()\n"
        "panel.start(0)\n"
        "say('pulls', [[pin(n).mode, pin(n).pull, pin(n).value()] for n in"
        " ('roll', 'next', 'undo')])\n"
        "roll, undo = pin('roll'), pin('undo')\n"
        "roll.drive(0)\n"
        "for t in range(1, 6): roll.drive(t % 2); panel.poll(t)\n"  # contact bounce
        "roll.drive(0)\n"
        "for t in range(6, 30): panel.poll(t)\n"
        "roll.drive(1)\n"
        "for t in range(30, 60): panel.poll(t)\n"
        "undo.drive(0)\n"
        "for t in range(60, 1100): panel.poll(t)\n"  # past the hold time, 1000 ms
        "undo.drive(1)\n"
        "for t in range(1100, 1130): panel.poll(t)\n"
    )
    assert run.said["pulls"] == [[0, 1, 1]] * 3  # inputs, pulled up, released
    got = [(m["b"], m["e"], m.get("held"), m["ms"]) for m in run.of("btn")]
    assert got == [
        ("roll", "press", None, 16),  # 10 ms after the last bounce
        ("roll", "release", False, 40),
        ("undo", "press", None, 70),
        ("undo", "hold", None, 1070),
        ("undo", "release", True, 1110),
    ]


def test_heartbeat_every_second_and_host_silence_blinks() -> None:
    run = micropython(
        "panel = make_panel()\n"
        "status = pin(__import__('pins').STATUS_LED)\n"
        "panel.start(0)\n"
        'panel.feed(b\'{"t":"status","id":1,"mode":"on"}\\n\', 1)\n'
        "for t in range(0, 4001): panel.poll(t)\n"
        "say('at_4s', [panel.outputs.status, status.value()])\n"
        "for t in range(4001, 6001): panel.poll(t)\n"
        "say('at_6s', panel.outputs.status)\n"
        'panel.feed(b\'{"t":"ping","id":2}\\n\', 6001)\n'
        "say('spoken', [panel.outputs.status, status.value()])\n"
    )
    beats = run.of("hb")
    assert [m["ms"] for m in beats] == [1000, 2000, 3000, 4000, 5000, 6000]
    assert all(m["bad"] == 0 for m in beats)
    assert run.said["at_4s"] == ["on", 1]
    assert run.said["at_6s"] == "blink"  # 5 s without a word from the companion
    assert run.said["spoken"] == ["on", 1]


def test_a_malformed_line_is_counted_not_answered_and_the_panel_goes_on() -> None:
    run = micropython(
        "panel = make_panel()\n"
        "panel.start(0)\n"
        'panel.feed(b\'\\xff\\x00garbage\\n[]\\n{"t":"ping"}\\n{"t":"ping","id":true}\\n\''
        ' + b\'z\' * 400 + b\'\\n{"t":"led","id":"1"}\\n\\n\', 5)\n'
        "panel.poll(1000)\n"
        'panel.feed(b\'{"t":"ping","id":1}\\n\', 1001)\n'
    )
    assert run.of("hb")[-1]["bad"] == 6  # the empty line at the end is no message, nor bad
    assert [(m["id"], m["ok"]) for m in run.of("ack")] == [(1, True)]


def garbage(rng: random.Random, lines: int) -> bytes:
    """`lines` lines of what a confused or hostile host might send, and a few commands."""
    pieces = [
        lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))).replace(b"\n", b""),
        lambda: b'{"t":"led","id":%d,"rgb":[%d,%d]}' % (rng.randrange(-5, 99), 1, 2),
        lambda: b'{"t":"beep","id":%d,"hz":%s,"ms":1e309}' % (rng.randrange(99), b"null"),
        lambda: b'{"t":"ping","id":%d}' % rng.randrange(2**31),  # some ids out of range
        lambda: b'{"t":"status","id":3,"mode":"%s"}' % rng.choice([b"on", b"off", b"x", b""]),
        lambda: b"[" * rng.randrange(1, 120) + b"]" * rng.randrange(120),  # deep nesting
        lambda: b'{"t":"' + b"\\u0000" * rng.randrange(40) + b'","id":1}',
        lambda: b"x" * rng.randrange(250, 300),  # up to and past the 256-byte line
        lambda: b'{"t":"led","id":5,"rgb":[' + b"9" * rng.randrange(1, 40) + b",0,0]}",
        lambda: b'{"t": {"t": "ping"}, "id": 4}\r',
        lambda: b"\r",
        lambda: b"",
    ]
    return b"\n".join(rng.choice(pieces)() for _ in range(lines)) + b"\n"


def test_ten_thousand_garbage_lines_without_a_crash(tmp_path: Path) -> None:
    """10,000 lines of garbage reach the panel in pieces of every size, with no safety net
    (an exception would end the program): every line is either counted as bad or answered.
    Then main.run, the loop that runs on the Pico, still answers the host and reads a button."""
    rng = random.Random(14)
    data = garbage(rng, 10_000)
    (tmp_path / "garbage.bin").write_bytes(data)
    (tmp_path / "after.bin").write_bytes(b'{"t":"ping","id":424242}\n')
    complete = data.split(b"\n")[:-1]
    messages = sum(line not in (b"", b"\r") for line in complete)
    run = micropython(
        "import main\n"
        "panel = make_panel()\n"
        "clock = Clock(start=(1 << 30) - 5000)\n"  # the tick counter wraps on the way
        "panel.start(clock())\n"
        "garbage = open('/f2/garbage.bin', 'rb')\n"
        "size = 1\n"
        "while True:\n"
        "    piece = garbage.read(size)\n"
        "    if not piece: break\n"
        "    now = clock()\n"
        "    panel.feed(piece, now)\n"
        "    panel.poll(now)\n"
        "    size = size * 7 % 301 + 1\n"  # 1 to 301 bytes at a time
        "say('bad', panel.bad)\n"
        "stdin = FileStdin('/f2/after.bin')\n"
        "passes = [0]\n"
        "def running():\n"
        "    passes[0] += 1\n"
        "    if passes[0] == 5: pin('next').drive(0)\n"
        "    return passes[0] < 40\n"
        "main.run(panel, stdin, Poller(stdin), clock, running)\n",
        tmp_path,
        timeout=600,
    )
    assert run.of("err") == []  # no fault in the loop
    acks = run.of("ack")
    assert run.said["bad"] + len(acks) == messages + 1
    assert run.said["bad"] > messages // 4
    assert any(not a["ok"] for a in acks)  # the commands among the garbage were checked
    assert acks[-1] == {"t": "ack", "id": 424242, "ok": True, "seq": acks[-1]["seq"]}
    assert run.of("hb")[-1]["bad"] <= run.said["bad"]
    assert [(m["b"], m["e"]) for m in run.of("btn")] == [("next", "press")]
