"""The serial panel's wire protocol, on the companion's side (firmware/PROTOCOL.md).

Newline-delimited JSON at 115200 baud. The panel sends `Hello`, `ButtonEvent`, `Heartbeat`,
`Ack` and `PanelError` lines, each with a sequence number; the companion sends commands, each
with an id the panel acknowledges. A line that is not one of these — not UTF-8, not JSON, a
field missing or of the wrong type, too long — parses to None: the caller counts it and goes on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

PROTO = 1
"""The protocol version this companion speaks; a panel saying another one is not used."""
BAUD = 115200
MAX_LINE = 256
"""Bytes per line, the newline included, in both directions."""
ID_LIMIT = 1 << 30
"""Sequence numbers and command ids stay below this (MicroPython's small integers)."""
EVENTS = ("press", "hold", "release")
STATUS_MODES = ("off", "on", "blink")


@dataclass(frozen=True)
class Hello:
    seq: int
    proto: int
    firmware: str
    board: str
    """The board's unique id (hex), to tell two panels apart."""
    buttons: tuple[str, ...]


@dataclass(frozen=True)
class ButtonEvent:
    seq: int
    button: str
    event: str
    """press, hold or release."""
    held: bool = False
    """On a release: was this press already told as a hold?"""


@dataclass(frozen=True)
class Heartbeat:
    seq: int
    bad: int
    """Malformed lines the panel has received since it started."""


@dataclass(frozen=True)
class Ack:
    seq: int
    id: int
    ok: bool
    error: str = ""


@dataclass(frozen=True)
class PanelError:
    """A fault the firmware caught in its loop (it goes on)."""

    seq: int
    message: str


Message = Hello | ButtonEvent | Heartbeat | Ack | PanelError


class LineSplitter:
    """Bytes in, lines out (without the newline; a trailing CR dropped); None stands for a line
    longer than `MAX_LINE`, dropped whole."""

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self._buf = bytearray()
        self._over = False

    def feed(self, data: bytes) -> list[bytes | None]:
        lines: list[bytes | None] = []
        start = 0
        while True:
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start:end]
            if not self._over:
                if len(self._buf) + len(piece) >= self.limit:
                    self._over = True
                    self._buf.clear()
                else:
                    self._buf += piece
            if end < 0:
                return lines
            lines.append(None if self._over else bytes(self._buf).removesuffix(b"\r"))
            self._buf.clear()
            self._over = False
            start = end + 1


def _whole(value: Any, low: int = 0, high: int = ID_LIMIT - 1) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def parse(line: bytes) -> Message | None:
    """The message a line carries, or None when it carries none."""
    try:
        msg = json.loads(line.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(msg, dict) or not _whole(msg.get("seq")):
        return None
    seq: int = msg["seq"]
    kind = msg.get("t")
    if kind == "btn":
        button, event, held = msg.get("b"), msg.get("e"), msg.get("held", False)
        if isinstance(button, str) and event in EVENTS and isinstance(held, bool):
            return ButtonEvent(seq, button, event, held)
    elif kind == "hb":
        if _whole(msg.get("bad")):
            return Heartbeat(seq, msg["bad"])
    elif kind == "ack":
        ok, error = msg.get("ok"), msg.get("err", "")
        if _whole(msg.get("id")) and isinstance(ok, bool) and isinstance(error, str):
            return Ack(seq, msg["id"], ok, error)
    elif kind == "hello":
        proto, firmware, board, names = (msg.get(k) for k in ("proto", "fw", "id", "buttons"))
        if (
            isinstance(proto, int)
            and _whole(proto)
            and isinstance(firmware, str)
            and isinstance(board, str)
            and isinstance(names, list)
            and all(isinstance(n, str) for n in names)
        ):
            return Hello(seq, proto, firmware, board, tuple(names))
    elif kind == "err" and isinstance(msg.get("msg"), str):
        return PanelError(seq, msg["msg"])
    return None


def command(kind: str, id: int, **fields: Any) -> bytes:
    """One command line: ``hello``, ``ping``, ``led`` (rgb), ``beep`` (hz, ms, n) or ``status``
    (mode)."""
    line = json.dumps({"t": kind, "id": id, **fields}, separators=(",", ":")).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise ValueError(f"a {kind} command of {len(line)} bytes is longer than a line may be")
    return line
