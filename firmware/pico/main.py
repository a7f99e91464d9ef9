"""The panel's hardware shell on the Pico: pins, PWM and USB serial around `app.Panel`.

This file only wires; what the panel does lives in modules that never import `machine` (app,
debounce, outputs, wire), so that the tests run them under CPython. MicroPython runs this file
at boot. Ctrl+C still stops it (mpremote relies on that to copy new files): the companion never
sends a raw control character, because its JSON escapes them.
"""

import select
import sys
import time

import machine

import pins
import ticks
from app import Panel
from outputs import Outputs

try:  # type names for the checkers only; MicroPython never evaluates annotations
    from typing import Any, Callable
except ImportError:
    pass

LED_PWM_HZ = 1000
SAMPLE_MS = 1
"""The loop's longest wait for host data: the buttons are sampled about this often."""
READ_MAX = 256
"""Bytes read from the host per pass, so that a flood cannot starve the buttons."""
REPORT_MS = 1000
"""At most one fault report per second."""


def build(write: "Callable[[str], Any]") -> Panel:
    """The panel on the pins of pins.py."""
    buttons = [
        (name, machine.Pin(n, machine.Pin.IN, machine.Pin.PULL_UP)) for name, n in pins.BUTTONS
    ]
    rgb = []
    for n in pins.RGB:
        pwm = machine.PWM(machine.Pin(n))
        pwm.freq(LED_PWM_HZ)
        pwm.duty_u16(65535 if pins.RGB_COMMON_ANODE else 0)
        rgb.append(pwm)
    buzzer = machine.PWM(machine.Pin(pins.BUZZER))
    buzzer.duty_u16(0)
    status = machine.Pin(pins.STATUS_LED, machine.Pin.OUT)
    outputs = Outputs(rgb, buzzer, status, pins.RGB_COMMON_ANODE)
    uid = "".join("%02x" % b for b in machine.unique_id())
    return Panel(buttons, outputs, write, uid)


def run(
    panel: Panel, stdin: "Any", poller: "Any", ticks_ms: "Callable[[], Any]", running: "Any" = None
) -> None:
    """The loop: wait up to SAMPLE_MS for host data, hand it on, sample the buttons; forever
    (or while `running()`, in the tests)."""
    panel.start(ticks_ms())
    reported = None
    while running is None or running():
        try:
            ready = poller.poll(SAMPLE_MS)
            now = ticks_ms()
            count = 0
            while ready and count < READ_MAX:
                panel.feed(stdin.read(1), now)
                count += 1
                ready = poller.poll(0)
            panel.poll(now)
        except Exception as e:  # a bug must not silence the panel; Ctrl+C is no Exception
            now = ticks_ms()
            if reported is None or ticks.diff(now, reported) >= REPORT_MS:
                reported = now
                panel.report(e, now)


def main() -> None:
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    # Bytes, where the port offers them (sys.stdin.buffer); app.Panel takes either.
    stdin = getattr(sys.stdin, "buffer", sys.stdin)
    run(build(sys.stdout.write), stdin, poller, time.ticks_ms)


if __name__ == "__main__":
    main()
