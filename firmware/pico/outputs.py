"""The panel's lights and sound, as the host commands them: the RGB LED, the buzzer, the
status LED.

The hardware objects are handed in (machine.PWM and machine.Pin on the Pico, fakes in the
tests), so this module never imports `machine`. Nothing here blocks: a beep is started at
once and `tick` stops it (and starts the next of a pattern) when its time is up.
"""

import ticks

try:  # type names for the checkers only; MicroPython never evaluates annotations
    from typing import Any
except ImportError:
    pass

TONE_DUTY = 32768
"""Half of the PWM period: a square wave, the loudest a passive buzzer gets."""
BLINK_MS = 250
STATUS_MODES = ("off", "on", "blink")


class Outputs:
    def __init__(
        self, rgb: "list[Any]", buzzer: "Any", status: "Any", common_anode: bool = False
    ) -> None:
        self.rgb = rgb
        """Three PWM outputs (red, green, blue) with duty_u16()."""
        self.buzzer = buzzer
        """A PWM output with freq() and duty_u16()."""
        self.status_pin = status
        """A Pin with value()."""
        self.common_anode = common_anode
        self.colour = (0, 0, 0)
        self.status = "off"
        self.blink_at = 0
        self.lit = False
        self.tone = 0
        """The frequency of the pattern playing; 0 when silent."""
        self.sounding = False
        self.tone_ms = 0
        self.tones_left = 0
        self.until = 0
        """When the current tone (or the gap after it) ends."""

    def led(self, r: int, g: int, b: int) -> None:
        self.colour = (r, g, b)
        for pwm, level in zip(self.rgb, self.colour):
            duty = level * 257  # 0..255 onto 0..65535
            pwm.duty_u16(65535 - duty if self.common_anode else duty)

    def beep(self, now: int, hz: int, ms: int, count: int = 1) -> None:
        """Play `count` tones of `ms` each, a gap of `ms` between; replaces any beep playing."""
        self.tone = hz
        self.tone_ms = ms
        self.tones_left = count
        self._sound(now)

    def set_status(self, mode: str, now: int) -> None:
        self.status = mode
        self.blink_at = now
        self._light(mode == "on" or mode == "blink")

    def tick(self, now: int) -> None:
        if self.tone and ticks.diff(now, self.until) >= 0:
            if self.sounding:
                self.buzzer.duty_u16(0)
                self.sounding = False
                self.until = ticks.add(now, self.tone_ms)
                if self.tones_left <= 0:
                    self.tone = 0
            else:
                self._sound(now)
        if self.status == "blink" and ticks.diff(now, self.blink_at) >= BLINK_MS:
            self.blink_at = now
            self._light(not self.lit)

    def _sound(self, now: int) -> None:
        self.buzzer.freq(self.tone)
        self.buzzer.duty_u16(TONE_DUTY)
        self.sounding = True
        self.tones_left -= 1
        self.until = ticks.add(now, self.tone_ms)

    def _light(self, on: bool) -> None:
        self.lit = on
        self.status_pin.value(1 if on else 0)
