"""What the panel does, free of hardware: buttons sampled in, protocol lines out, host commands
carried out on the lights and the buzzer (firmware/PROTOCOL.md).

main.py builds a `Panel` from the Pico's pins and calls `feed` with what the host sent and
`poll` about every millisecond. The tests build one from fake pins and drive it the same way.
"""

import ticks
import wire
from debounce import Button

try:  # type names for the checkers only; MicroPython never evaluates annotations
    from typing import Any, Callable
except ImportError:
    pass

FIRMWARE = "1.0.0"
HEARTBEAT_MS = 1000
HOST_SILENT_MS = 5000
"""With no line from the host for this long, the status LED blinks again: the companion is gone."""
REPORT_CHARS = 80
"""Characters of a fault's repr in an "err" message: escaped, they still fit in a line."""
KIND_ECHO = 16
"""Characters of an unknown command's name said back in its error ack."""
SEQ_MASK = (1 << 30) - 1
"""Sequence numbers wrap here, within MicroPython's small integers."""


class Panel:
    def __init__(
        self,
        buttons: "list[tuple[str, Any]]",
        outputs: "Any",
        write: "Callable[[str], Any]",
        uid: str = "",
    ) -> None:
        """`buttons`: (name, pin) pairs; a pin's value() reads 0 while its button is pressed."""
        self.buttons = [(Button(name), pin) for name, pin in buttons]
        self.outputs = outputs
        self.write = write
        self.uid = uid
        self.reader = wire.LineReader()
        self.seq = 0
        self.bad = 0
        """Lines from the host that were not messages (counted, reported in every heartbeat)."""
        self.last_beat = 0
        self.last_host = 0
        self.host_gone = True
        self.host_status = "on"

    def start(self, now: int) -> None:
        self.last_beat = now
        self.last_host = now
        self.outputs.set_status("blink", now)  # blinking: no companion has spoken yet
        self.hello(now)

    def send(self, msg: dict) -> None:
        msg["seq"] = self.seq
        self.seq = (self.seq + 1) & SEQ_MASK
        self.write(wire.encode(msg))

    def hello(self, now: int) -> None:
        names = [button.name for button, _ in self.buttons]
        self.send(
            {
                "t": "hello",
                "proto": wire.PROTO,
                "fw": FIRMWARE,
                "id": self.uid,
                "buttons": names,
                "ms": now,
            }
        )

    # -- from the host ------------------------------------------------------------------

    def feed(self, data: bytes | str, now: int) -> None:
        for line in self.reader.feed(data):
            self.handle(line, now)

    def handle(self, line: bytes | None, now: int) -> None:
        if line == b"" or line == b"\r":
            return  # an empty line is harmless padding
        msg = None if line is None else wire.decode(line)
        cid = None if msg is None else msg.get("id")
        if msg is None or not wire.whole(cid, 0, SEQ_MASK):
            self.bad += 1
            return
        self.last_host = now
        if self.host_gone:
            self.host_gone = False
            self.outputs.set_status(self.host_status, now)
        error = self.command(msg, now)
        reply = {"t": "ack", "id": cid, "ok": not error}
        if error:
            reply["err"] = error
        self.send(reply)

    def command(self, msg: dict, now: int) -> str:
        """Carry out one host command; "" when done, else why not."""
        kind = msg["t"]
        if kind == "hello":
            self.hello(now)
        elif kind == "ping":
            pass
        elif kind == "led":
            rgb = msg.get("rgb")
            if not (
                isinstance(rgb, list) and len(rgb) == 3 and all(wire.whole(v, 0, 255) for v in rgb)
            ):
                return "rgb must be [r, g, b], each 0..255"
            self.outputs.led(rgb[0], rgb[1], rgb[2])
        elif kind == "beep":
            hz, ms, count = msg.get("hz"), msg.get("ms"), msg.get("n", 1)
            if not (
                wire.whole(hz, 20, 20000) and wire.whole(ms, 1, 2000) and wire.whole(count, 1, 5)
            ):
                return "beep needs hz 20..20000, ms 1..2000, n 1..5"
            self.outputs.beep(now, hz, ms, count)
        elif kind == "status":
            mode = msg.get("mode")
            if mode not in ("off", "on", "blink"):
                return 'mode must be "off", "on" or "blink"'
            self.host_status = mode
            self.outputs.set_status(mode, now)
        else:
            # Only the start of an unknown name is echoed: its JSON escapes (6 bytes a control
            # character) must keep the reply within the line's 256 bytes.
            return "unknown command " + kind[:KIND_ECHO]
        return ""

    # -- every millisecond ----------------------------------------------------------------

    def poll(self, now: int) -> None:
        for button, pin in self.buttons:
            event = button.sample(now, pin.value() == 0)
            if event:
                msg = {"t": "btn", "b": button.name, "e": event, "ms": now}
                if event == "release":
                    msg["held"] = button.held
                self.send(msg)
        if ticks.diff(now, self.last_beat) >= HEARTBEAT_MS:
            self.last_beat = now
            self.send({"t": "hb", "ms": now, "bad": self.bad})
        if not self.host_gone and ticks.diff(now, self.last_host) >= HOST_SILENT_MS:
            self.host_gone = True
            self.outputs.set_status("blink", now)
        self.outputs.tick(now)

    def report(self, error: Exception, now: int) -> None:
        """Tell the host of a fault in the loop (main.py goes on after it)."""
        self.send({"t": "err", "msg": repr(error)[:REPORT_CHARS], "ms": now})
