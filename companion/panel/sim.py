"""The simulated panel of `companion demo`: the table's three buttons on a keyboard and a screen.

On the terminal the companion runs in: ``r`` is ROLL, ``n`` NEXT, ``u`` UNDO; a capital letter,
or a key held down until the terminal has repeated it for `HOLD_TIME`, is a hold. The /panel
page's on-screen buttons (companion/web/panel.py) send the same presses. Either way a press goes
through `buttons` and `presses` exactly as a GPIO button's does, and what came of it is printed
on the terminal (and shown on the page).
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Callable
from typing import Any, TextIO

from ..table import Table
from .buttons import HOLD, PRESS, Press
from .presses import Outcome, TableDown, carry_out

log = logging.getLogger(__name__)

KEYS = {"r": "roll", "n": "next", "u": "undo"}
HOLD_TIME = 1.0
"""Seconds a key is held (repeating) before it counts as a hold, as a GPIO button's hold time."""
REPEAT_GAP = 0.7
"""A key repeated within this many seconds is still held down. Terminals start repeating a held
key 0.25 s (Linux console) to 0.66 s (X11) after it went down, then repeat every ~35 ms; so a
short press is only known as one when this long has passed without a repeat."""


class Keys:
    """A terminal's characters in, presses out; the caller stamps each with the time."""

    def __init__(self, hold_time: float = HOLD_TIME, gap: float = REPEAT_GAP) -> None:
        self.hold_time = hold_time
        self.gap = gap
        self._key: str | None = None
        self._first = self._last = 0.0
        self._held = False

    def key(self, char: str, t: float) -> list[Press]:
        """A character typed (or repeated by the terminal) at time `t`."""
        button = KEYS.get(char.lower())
        repeated = t - self._last <= self.gap  # the terminal repeats a key held down
        if button is not None and char.islower() and button == self._key and repeated:
            self._last = t
            if not self._held and t - self._first >= self.hold_time:
                self._held = True
                return [Press(button, HOLD)]
            return []
        out = self._release()
        if button is None:
            return out
        if char.isupper():  # a capital letter: a hold at once
            return [*out, Press(button, HOLD)]
        self._key, self._first, self._last, self._held = button, t, t, False
        return out

    def tick(self, t: float) -> list[Press]:
        """At time `t`: a key not repeated within the gap has been let go."""
        if self._key is not None and t - self._last > self.gap:
            return self._release()
        return []

    def _release(self) -> list[Press]:
        key, held = self._key, self._held
        self._key, self._held = None, False
        return [Press(key, PRESS)] if key is not None and not held else []


class SimPanel:
    """Presses from the keyboard (`keyboard`, a terminal's file descriptor) and the screen."""

    kind = "sim"

    def __init__(
        self,
        table: Table,
        *,
        keyboard: int | None = None,
        out: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.table = table
        self.keyboard = keyboard
        self.out = out
        self.clock = clock
        self.keys = Keys()
        self._lock = threading.Lock()
        """One press at a time, as on a real panel."""
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._terminal: list[Any] | None = None

    def describe(self) -> str:
        keys = ""
        if self.keyboard is not None:
            keys = "keys r/n/u on this terminal (R/N/U or a held key: hold), "
        return f"simulated: {keys}buttons on the /panel page"

    def start(self) -> None:
        if self.keyboard is not None:
            if os.isatty(self.keyboard):
                # Keys one at a time and unechoed; Ctrl+C still stops the companion (cbreak
                # keeps signals).
                self._terminal = termios.tcgetattr(self.keyboard)
                tty.setcbreak(self.keyboard)
            self._stopping.clear()
            self._thread = threading.Thread(target=self._read_keys, name="panel-keys", daemon=True)
            self._thread.start()
        self.table.set_status("panel", self.describe())

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self._terminal is not None and self.keyboard is not None:
            with contextlib.suppress(termios.error):  # the terminal may be gone already
                termios.tcsetattr(self.keyboard, termios.TCSADRAIN, self._terminal)
            self._terminal = None
        self.table.set_status("panel", "sim: stopped")

    def press(self, press: Press) -> Outcome:
        """Carry a press out (on the caller's thread) and tell what came of it."""
        with self._lock:
            try:
                outcome = carry_out(self.table, press, "sim")
            except TableDown as e:
                outcome = Outcome(press, None, None, False, str(e))
        if self.out is not None:  # the terminal of `companion demo`: said there, once
            print(f"panel: {outcome}", file=self.out, flush=True)
        else:
            log.info("panel: %s", outcome)
        return outcome

    def press_from_screen(self, button: str, gesture: str) -> dict[str, Any]:
        """A press of an on-screen button; ValueError for an unknown button or gesture."""
        return self.press(Press(button, gesture)).to_json()

    def _read_keys(self) -> None:
        fd = self.keyboard
        assert fd is not None
        while not self._stopping.is_set():
            ready, _, _ = select.select([fd], [], [], 0.05)
            presses: list[Press] = []
            if ready:
                try:
                    data = os.read(fd, 64)
                except OSError:
                    data = b""
                if not data:  # end of input: no more keys
                    self._handle(self.keys.tick(float("inf")))
                    return
                now = self.clock()
                for char in data.decode(errors="replace"):
                    presses += self.keys.key(char, now)
            presses += self.keys.tick(self.clock())
            self._handle(presses)

    def _handle(self, presses: list[Press]) -> None:
        for press in presses:
            try:
                self.press(press)
            except Exception:  # a bug in one press must not end the keyboard
                log.exception("the simulated panel could not carry out %s", press)


def terminal() -> int | None:
    """Standard input's descriptor when it is a terminal (keys can be read), else None."""
    try:
        return sys.stdin.fileno() if sys.stdin.isatty() else None
    except (AttributeError, ValueError, OSError):  # no stdin, or a replaced one
        return None
