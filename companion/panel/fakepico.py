"""A Pico panel without a Pico: the real firmware (firmware/pico/) under CPython, on a pty.

The firmware's own `main.py` runs — its `build()` on a fake `machine` module whose pins a test
drives, its `run()` loop reading the pty's master end as the Pico reads USB. The companion
opens the pty's other end (`FakePico.path`) with pyserial, exactly as it opens the Pico's
``/dev/ttyACM0``. Unplugging closes both ends; plugging in makes a new pty. The tests and
``companion bench panel`` use it; so can a person, to try the serial panel with no Pico:

    python -m companion.panel.fakepico        # prints the port; then r / n / u + Enter press,
                                              # R / N / U hold; set [panel] port to the path

It needs the source tree (firmware/ is not installed with the package).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pty
import select
import sys
import threading
import time
import tty
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware" / "pico"
MODULES = ("main", "app", "debounce", "outputs", "pins", "ticks", "wire")
"""The firmware's modules: imported under these top-level names, as on the Pico."""
TICKS_PERIOD = 1 << 30


class FakePin:
    """machine.Pin: a level that a test sets with `drive` and the firmware reads or writes."""

    IN, OUT, OPEN_DRAIN = 0, 1, 2
    PULL_UP, PULL_DOWN = 1, 2
    IRQ_FALLING, IRQ_RISING = 4, 8

    def __init__(self, machine: types.ModuleType, id: Any, mode: int = -1, pull: int = -1,
                 value: int | None = None) -> None:  # fmt: skip
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == self.PULL_UP else 0 if value is None else value
        machine.pins[id] = self

    def value(self, level: int | None = None) -> int | None:
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None

    def drive(self, level: int) -> None:
        """The outside world sets the level (a button closes: 0)."""
        self.level = level

    def irq(self, handler: Any = None, trigger: int = 0, hard: bool = False) -> None:
        pass


class FakePWM:
    """machine.PWM: remembers its frequency and duty."""

    def __init__(self, pin: FakePin, freq: int = 0, duty_u16: int = 0) -> None:
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, hz: int | None = None) -> int | None:
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, duty: int | None = None) -> int | None:
        if duty is None:
            return self._duty
        self._duty = duty
        return None

    def deinit(self) -> None:
        self._duty = 0


def fake_machine() -> types.ModuleType:
    """A `machine` module of fakes; its `pins` maps each pin id to the pin made for it."""
    machine = types.ModuleType("machine")
    machine.pins = {}  # type: ignore[attr-defined]

    class Pin(FakePin):
        def __init__(self, id: Any, mode: int = -1, pull: int = -1,
                     value: int | None = None) -> None:  # fmt: skip
            super().__init__(machine, id, mode, pull, value)

    machine.Pin = Pin  # type: ignore[attr-defined]
    machine.PWM = FakePWM  # type: ignore[attr-defined]
    machine.unique_id = lambda: bytes.fromhex("e6614104032b552a")  # type: ignore[attr-defined]
    return machine


@contextlib.contextmanager
def _firmware_import(machine: types.ModuleType) -> Iterator[None]:
    """sys.path and sys.modules as on the Pico, only while the firmware is imported: its modules
    bind each other at import time, and then leave no names behind in this process."""
    saved = {name: sys.modules.pop(name) for name in (*MODULES, "machine") if name in sys.modules}
    sys.modules["machine"] = machine
    sys.path.insert(0, str(FIRMWARE))
    try:
        yield
    finally:
        sys.path.remove(str(FIRMWARE))
        for name in (*MODULES, "machine"):
            sys.modules.pop(name, None)
        sys.modules.update(saved)


def load_modules(machine: types.ModuleType) -> dict[str, types.ModuleType]:
    """A fresh copy of every firmware module, on `machine`, by name."""
    if not (FIRMWARE / "main.py").is_file():
        raise FileNotFoundError(f"no firmware at {FIRMWARE}: this needs the source tree")
    with _firmware_import(machine):
        return {name: importlib.import_module(name) for name in MODULES}


def load_firmware(machine: types.ModuleType) -> types.ModuleType:
    """A fresh copy of the firmware's main module (and what it imports), on `machine`."""
    return load_modules(machine)["main"]


class Clock:
    """The firmware's ticks_ms: real milliseconds, wrapping as on the Pico; with `step` set,
    each reading also jumps that far ahead (a debounce then takes two passes of the loop)."""

    def __init__(self) -> None:
        self.skew = 0.0
        self.step = 0

    def __call__(self) -> int:
        self.skew += self.step
        return int(time.monotonic() * 1000 + self.skew) % TICKS_PERIOD


class _NoStart:
    """A panel whose `start` does nothing (the loop resumed after a halt is no boot)."""

    def __init__(self, panel: Any) -> None:
        self._panel = panel

    def start(self, now: int) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._panel, name)


WRITE_WAIT = 0.5
"""Seconds the firmware's write waits for room in the pty before the line is dropped (the
Pico's USB stack also gives up on a host that does not read)."""


def _write_all(fd: int, data: bytes, timeout: float) -> bool:
    """Write all of `data` to a non-blocking `fd`; False if it took longer than `timeout`."""
    deadline = time.monotonic() + timeout
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view) :]
        except BlockingIOError:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([], [fd], [], left)[1]:
                return False
        except OSError:
            return False
    return True


class FakePico:
    """The firmware on a pty: `plug`, then the companion opens `path`; `press` a button."""

    def __init__(self) -> None:
        self.machine = fake_machine()
        self.main = load_firmware(self.machine)
        self.clock = Clock()
        self.path: str | None = None
        self.panel: Any = None
        """The firmware's app.Panel (its counters: panel.bad, panel.seq)."""
        self.sent: list[dict[str, Any]] = []
        """Every message the firmware wrote, with "_at" (time.perf_counter()) added."""
        self.dropped = 0
        """Lines the firmware could not write (no one read the pty)."""
        self.on_line: Callable[[dict[str, Any]], None] | None = None
        self._fds: tuple[int, int] | None = None
        self._lock = threading.Lock()
        self._written = threading.Condition(self._lock)
        self._running = False
        self._thread: threading.Thread | None = None

    # -- the cable ------------------------------------------------------------------------

    def plug(self) -> str:
        """A new pty with the firmware started on its master end (a fresh boot); its path."""
        master, slave = pty.openpty()
        tty.setraw(slave)  # no echo, no line editing, before anyone opens it
        os.set_blocking(master, False)  # so that a write can give up (see WRITE_WAIT)
        self._fds = (master, slave)
        self.path = os.ttyname(slave)
        self.panel = self.main.build(self._write)
        self.resume()
        return self.path

    def resume(self) -> None:
        """Run the firmware's loop (again, after `halt`: the same panel, no new boot)."""
        assert self._fds is not None, "not plugged in"
        poller = select.poll()
        poller.register(self._fds[0], select.POLLIN)
        stdin = os.fdopen(self._fds[0], "rb", buffering=0, closefd=False)
        self._running = True
        panel = self.panel
        if self._thread is not None:  # after a halt: main.run would say hello as at a boot
            panel = _NoStart(panel)
        self._thread = threading.Thread(
            target=self.main.run,
            args=(panel, stdin, poller, self.clock, lambda: self._running),
            name="fake-pico",
            daemon=True,
        )
        self._thread.start()

    def halt(self) -> None:
        """Stop the firmware's loop but keep the cable in: the panel falls silent (as a Pico
        dropped into its REPL does)."""
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=5)

    def unplug(self) -> None:
        """Stop the firmware and close both ends: the companion's reads fail as on an unplug."""
        self.halt()
        self._thread = None
        # No path any more: the kernel gives a closed pty's number to the next pty opened,
        # which may be someone's terminal.
        self.path = None
        if self._fds is not None:
            for fd in self._fds:
                os.close(fd)
            self._fds = None

    def _write(self, text: str) -> None:
        data = text.encode()
        with self._lock:
            if self._fds is None:
                return
            at = time.perf_counter()
            if not _write_all(self._fds[0], data, WRITE_WAIT):
                self.dropped += 1
            msg = json.loads(data)
            msg["_at"] = at
            self.sent.append(msg)
            self._written.notify_all()
        if self.on_line is not None:
            self.on_line(msg)

    # -- what a test does -------------------------------------------------------------------

    def pin(self, button: str) -> FakePin:
        number = dict(self.main.pins.BUTTONS)[button]
        pin: FakePin = self.machine.pins[number]
        return pin

    def wait_sent(self, match: Callable[[dict[str, Any]], bool], since: int = 0,
                  timeout: float = 2.0) -> dict[str, Any]:  # fmt: skip
        """The first message from index `since` on that `match`es, waiting for it."""
        deadline = time.monotonic() + timeout
        with self._written:
            while True:
                found = next((m for m in self.sent[since:] if match(m)), None)
                if found is not None:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError("the firmware did not send the message awaited")
                self._written.wait(left)

    def press(self, button: str, hold: bool = False, fast: bool = True) -> dict[str, Any]:
        """Press `button` (held past the hold time if `hold`) and let go; the release message.

        `fast` runs the firmware's clock ahead while the button is down, so that the debounce
        and the hold cost no real time.
        """
        pin = self.pin(button)
        since = len(self.sent)
        if fast:
            self.clock.step = 11
        try:
            pin.drive(0)
            wanted = "hold" if hold else "press"
            self.wait_sent(lambda m: m.get("b") == button and m.get("e") == wanted, since)
            since = len(self.sent)
            pin.drive(1)
            return self.wait_sent(lambda m: m.get("b") == button and m.get("e") == "release", since)
        finally:
            self.clock.step = 0

    def to_host(self, data: bytes) -> None:
        """Raw bytes to the companion, as if the firmware had written them."""
        with self._lock:
            assert self._fds is not None, "not plugged in"
            if not _write_all(self._fds[0], data, 10.0):
                raise TimeoutError("the companion did not read what the panel wrote")

    def from_host(self, data: bytes) -> None:
        """Raw bytes to the firmware, as if the companion had written them. The slave end is
        written, where the companion writes; a tty write is not split by another writer's."""
        assert self._fds is not None, "not plugged in"
        os.write(self._fds[1], data)


def _interactive() -> None:
    pico = FakePico()
    path = pico.plug()
    keys = {"r": "roll", "n": "next", "u": "undo"}
    print(f'a fake Pico panel on {path}: set [panel] kind = "serial" and port = "{path}"')
    print("r / n / u + Enter press ROLL / NEXT / UNDO; R / N / U hold; q quits")

    def show(msg: dict[str, Any]) -> None:
        if msg.get("t") != "hb":
            print("  panel says", msg)

    pico.on_line = show
    try:
        for line in sys.stdin:
            key = line.strip()
            if key == "q":
                break
            if key.lower() in keys:
                pico.press(keys[key.lower()], hold=key.isupper())
    finally:
        pico.unplug()


if __name__ == "__main__":
    _interactive()
