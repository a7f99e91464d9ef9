"""The wire protocol's framing, on the panel's side: JSON lines (firmware/PROTOCOL.md).

Bytes from the host are cut into lines here; a line longer than `MAX_LINE` is dropped whole.
A line that is not a JSON object with a string "t" decodes to None: the caller counts it and
goes on, because nothing the host sends may stop the panel.
"""

import json

PROTO = 1
"""The protocol's version; a change that old companions cannot read raises it."""
MAX_LINE = 256
"""Bytes per line, the newline included, in both directions."""


class LineReader:
    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.buf = bytearray()
        self.over = False

    def feed(self, data: bytes | str) -> list:
        """Take bytes (or a str, as MicroPython's text stdin gives); return the lines they
        complete, without the newline, and None for each over-long line dropped."""
        if isinstance(data, str):
            data = data.encode()
        lines = []
        for byte in data:
            if byte == 10:  # "\n"
                lines.append(None if self.over else bytes(self.buf))
                self.buf = bytearray()
                self.over = False
            elif self.over:
                continue
            elif len(self.buf) >= self.limit - 1:
                self.over = True
            else:
                self.buf.append(byte)
        return lines


def decode(line: bytes) -> dict | None:
    """A message, or None when the line is not one (not UTF-8, not JSON, not an object, no "t")."""
    if line[-1:] == b"\r":
        line = line[:-1]
    try:
        msg = json.loads(line.decode())
    except Exception:  # ValueError, UnicodeError, MemoryError on the Pico: all just bad input
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("t"), str):
        return None
    return msg


def encode(msg: dict) -> str:
    return json.dumps(msg) + "\n"


def whole(value: object, low: int, high: int) -> bool:
    """Is `value` a whole number from `low` to `high` (JSON true/false are not numbers)?"""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high
