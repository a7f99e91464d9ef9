"""One button, debounced: raw samples in, press / hold / release out.

A level counts only once it has stayed the same for `stable_ms`; contact bounce (a few ms of
chatter on every press and release) never lasts that long. The panel samples every button
about every millisecond, so the debounce is timed in milliseconds, not in samples.
"""

import ticks

STABLE_MS = 10
HOLD_MS = 1000
"""As long as the GPIO panel's hold (gpiozero's default): both panels feel the same."""


class Button:
    def __init__(self, name: str, stable_ms: int = STABLE_MS, hold_ms: int = HOLD_MS) -> None:
        self.name = name
        self.stable_ms = stable_ms
        self.hold_ms = hold_ms
        self.raw = False
        """The last sample."""
        self.changed = 0
        """When `raw` last changed."""
        self.down = False
        """The debounced state."""
        self.down_at = 0
        self.held = False
        """Has this press been reported as a hold yet?"""

    def sample(self, now: int, pressed: bool) -> str:
        """Feed one sample taken at `now`; the event it completes ("press", "hold",
        "release") or "" for none."""
        if pressed != self.raw:
            self.raw = pressed
            self.changed = now
        if self.raw != self.down and ticks.diff(now, self.changed) >= self.stable_ms:
            self.down = self.raw
            if self.down:
                self.down_at = now
                self.held = False
                return "press"
            return "release"
        if self.down and not self.held and ticks.diff(now, self.down_at) >= self.hold_ms:
            self.held = True
            return "hold"
        return ""
