"""From a button's raw edges to presses: a bounce is not a press, and a hold is not a short press.

Pin libraries debounce differently — RPi.GPIO ignores edges for a while after one, lgpio waits
for the level to be stable, gpiozero's MockPin does not debounce at all — so the panel asks
them for nothing and debounces here, the same on every backend, with time stamps taken from a
clock the panel is handed (a test hands in its own).

The debounce is a lockout: after an edge is accepted, edges of that button within `window`
seconds are bounces. The last of them may still have been real (a tap shorter than the
window), so `settle` accepts the level left behind once the window is over.

A hold is a button down for `hold_time` seconds, told once, timed here on the same clock (the
panel's thread looks when one is due, `due`); a release makes a short press only if no hold was
told (`holds`). Not gpiozero's `when_held`: its hold thread, one per button, woke ten times a
second and at every edge of every press, for a hold that is rare.
"""

from __future__ import annotations

from dataclasses import dataclass

from .buttons import HOLD, PRESS, Press

WINDOW = 0.05
"""Seconds after an accepted edge in which the button's edges are bounces. Arcade microswitches
settle within a few milliseconds; a person cannot press twice in 50 ms."""
HOLD_TIME = 1.0
"""Seconds a button is held down before it counts as a hold (gpiozero's default)."""


@dataclass
class _Button:
    down: bool = False
    """The accepted level: pressed or not."""
    raw: bool = False
    """The level of the latest edge, accepted or not."""
    since: float = float("-inf")
    """When the accepted level last changed."""
    held: bool = False
    """A hold has been told for the press under way."""


class Gestures:
    """Edges in, presses out; the caller stamps each edge with the time it happened."""

    def __init__(self, window: float = WINDOW, hold_time: float = HOLD_TIME) -> None:
        self.window = window
        self.hold_time = hold_time
        self._buttons: dict[str, _Button] = {}

    def _button(self, name: str) -> _Button:
        return self._buttons.setdefault(name, _Button())

    def edge(self, name: str, down: bool, t: float) -> list[Press]:
        """The pin library says `name` went down (pressed) or up at time `t`."""
        b = self._button(name)
        out = self._catch_up(name, b, t)
        b.raw = down
        if down == b.down or t - b.since < self.window:
            return out  # a bounce, or the level already known
        return out + self._change(name, b, down, t)

    def settle(self, t: float) -> list[Press]:
        """Presses from levels left by bounces whose window is over at time `t`."""
        out: list[Press] = []
        for name, b in self._buttons.items():
            out += self._catch_up(name, b, t)
        return out

    def holds(self, t: float) -> list[Press]:
        """The holds of buttons down for `hold_time` at time `t` — to be asked only once every
        edge stamped up to `t` has been told: a release on its way is no hold."""
        out = self.settle(t)
        for name, b in self._buttons.items():
            if b.down and b.raw and not b.held and t - b.since >= self.hold_time:
                b.held = True
                out.append(Press(name, HOLD))
        return out

    def due(self, t: float) -> float | None:
        """Seconds from `t` until `settle` or `holds` may have something to tell (a window
        closing, a hold); None while no button is down or unsettled."""
        waits = [
            self.window if b.raw != b.down else b.since + self.hold_time - t
            for b in self._buttons.values()
            if b.raw != b.down or (b.down and not b.held)
        ]
        return max(0.0, min(waits)) if waits else None

    def _catch_up(self, name: str, b: _Button, t: float) -> list[Press]:
        if b.raw != b.down and t - b.since >= self.window:
            return self._change(name, b, b.raw, b.since + self.window)
        return []

    def _change(self, name: str, b: _Button, down: bool, t: float) -> list[Press]:
        b.down, b.since = down, t
        if down:
            b.held = False
            return []
        if b.held:
            return []  # its hold was already told
        return [Press(name, PRESS)]
