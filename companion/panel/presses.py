"""Carrying a panel press out: the game's step, its meaning (`buttons`), the command, the reply.

Every panel ends here, on a thread of its own (never a pin library's callback thread, never the
Table's): the press is looked up in `buttons` for the step the game is in, sent to the Table as a
table intent, and the outcome says whether the table took it — so that the panel can beep when
it did not.
"""

from __future__ import annotations

import time
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, TypeVar

from ..commands import Command, Reply
from ..table import Refused, Table
from . import buttons
from .buttons import Press

TIMEOUT = 10.0
"""Seconds a press waits for the Table's reply before the panel counts the table as stuck."""
REPEATS = 200
"""At most this many repeats of a repeating intent (a turn has far fewer moves to undo)."""
STALE = 5.0
"""Seconds without the Table's loop coming round before it counts as stuck (it comes round at
least once a second when idle)."""


NOT_RUNNING = "the table is not running"
T = TypeVar("T")


class TableDown(Exception):
    """The Table is not running or did not answer in time: the press was not carried out."""


@dataclass(frozen=True)
class Outcome:
    """What came of a press."""

    press: Press
    step: str | None
    """The game's step when the press was looked up (None: no game)."""
    intent: str | None
    """The intent sent; None when the press means nothing in that step."""
    accepted: bool
    message: str
    times: int = 0
    """How many commands the table accepted (more than one for a held UNDO)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "button": self.press.button,
            "gesture": self.press.gesture,
            "step": self.step,
            "intent": self.intent,
            "accepted": self.accepted,
            "message": self.message,
            "times": self.times,
        }

    def __str__(self) -> str:
        if self.intent is None:
            return f"{self.press}: nothing to do now — {self.message}"
        verdict = "done" if self.accepted else "refused"
        return f"{self.press} -> {self.intent}: {verdict} — {self.message}"


def table_alive(table: Table) -> bool:
    """The Table's thread runs and its loop came round lately (read without asking it, which
    would hang exactly when it is stuck)."""
    return table.alive and time.monotonic() - table.heartbeat < STALE


def carry_out(table: Table, press: Press, source: str, timeout: float = TIMEOUT) -> Outcome:
    """Send what `press` means now to the Table and wait for its reply.

    Raises TableDown when the Table is not running or does not answer within `timeout`.
    """
    if not table_alive(table):
        raise TableDown(NOT_RUNNING)

    def choose(step: str | None) -> Command | None:
        meaning = buttons.meaning(press, step)
        return None if meaning is None else Command(source, intent=meaning.intent)

    step, reply = _wait(table.submit_for_step(choose), timeout)
    meaning = buttons.meaning(press, step)
    if meaning is None or reply is None:
        why = "no game has been started" if step is None else f"it means nothing in step {step}"
        return Outcome(press, step, None, False, why)
    if not reply.accepted:
        return Outcome(press, step, meaning.intent, False, reply.message)
    times, message = 1, _told(reply)
    while meaning.repeat and times < REPEATS:
        again = _wait(table.submit(Command(source, intent=meaning.intent)), timeout)
        if not again.accepted:  # e.g. back at the start of the turn: the repeat is over
            break
        times, message = times + 1, _told(again)
    if times > 1:
        message = f"{times} times; the last: {message}"
    return Outcome(press, step, meaning.intent, True, message, times)


def _wait(future: Future[T], timeout: float) -> T:
    try:
        return future.result(timeout)
    except TimeoutError:
        future.cancel()  # still queued: it never will be carried out
        raise TableDown("the table did not answer in time") from None
    except Refused as e:  # the table is shutting down, or the game cannot be loaded
        raise TableDown(e.message) from None


def _told(reply: Reply) -> str:
    """A few words on what an accepted command did, e.g. ``rolled whale``."""
    if reply.message:
        return reply.message
    words = []
    for event in reply.events:
        kind = str(event.get("kind", "?"))
        face = event.get("face")
        words.append(f"{kind} {face}" if face else kind)
    return ", ".join(words) or "done"
