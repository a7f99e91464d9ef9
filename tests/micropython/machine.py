"""The Pico's `machine` module, faked for the firmware under MicroPython (tests/test_firmware_mp.py).

Only what firmware/pico/main.py uses: pins whose level a test drives, PWM outputs that remember
their frequency and duty, and the board's unique id. `pins` maps each pin id to the pin made for
it, as companion/panel/fakepico.py's fake does under CPython.
"""

pins = {}


class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    PULL_DOWN = 2

    def __init__(self, id, mode=-1, pull=-1, value=None):
        self.id = id
        self.mode = mode
        self.pull = pull
        self.level = 1 if pull == Pin.PULL_UP else (0 if value is None else value)
        pins[id] = self

    def value(self, level=None):
        if level is None:
            return self.level
        self.level = 1 if level else 0
        return None

    def drive(self, level):
        """The outside world sets the level (a button closes: 0)."""
        self.level = level


class PWM:
    def __init__(self, pin, freq=0, duty_u16=0):
        self.pin = pin
        self._freq = freq
        self._duty = duty_u16

    def freq(self, hz=None):
        if hz is None:
            return self._freq
        self._freq = hz
        return None

    def duty_u16(self, duty=None):
        if duty is None:
            return self._duty
        self._duty = duty
        return None


def unique_id():
    return b"\xe6\x61\x41\x04\x03\x2b\x55\x2a"
