"""What a test's MicroPython program starts from: the firmware on the fake `machine` beside it.

Each line the panel writes is printed as ``W <the line as a JSON string>``; ``say(name, value)``
prints ``S <name> <value as JSON>``: tests/test_firmware_mp.py reads both from node's stdout.
Runs under MicroPython only (the firmware's `main` imports `machine`, `select`).
"""

import json
import os

import machine
import main


def write(text):
    print("W " + json.dumps(text))


def say(name, value):
    print("S " + name + " " + json.dumps(value))


def make_panel():
    return main.build(write)


def pin(name):
    """The fake pin of a button (by its name) or of an output (by its pins.py id)."""
    import pins

    return machine.pins[dict(pins.BUTTONS).get(name, name)]


class FileStdin:
    """The USB serial's stdin, read from a file: `main.run` reads it one byte at a time."""

    def __init__(self, path):
        self.file = open(path, "rb")  # noqa: SIM115 (read to its end by the loop)
        self.left = os.stat(path)[6]

    def read(self, n):
        data = self.file.read(n)
        self.left -= len(data)
        return data


class Poller:
    """select.poll on `FileStdin`: ready while bytes are left."""

    def __init__(self, stdin):
        self.stdin = stdin

    def poll(self, timeout):
        return [(0, 1)] if self.stdin.left > 0 else []


class Clock:
    """ticks_ms that moves `step` ms at every reading, wrapping as the Pico's counter does."""

    def __init__(self, start=0, step=1):
        import ticks

        self.now = start
        self.step = step
        self.ticks = ticks

    def __call__(self):
        now = self.now
        self.now = self.ticks.add(self.now, self.step)
        return now
