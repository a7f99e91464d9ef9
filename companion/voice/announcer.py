"""The table's voice: a spectator of the Table that tells what happened, on one or two outlets.

It subscribes to the Table exactly as a watching phone does (the `SPECTATOR` view, spec §9), so
it can never say more than a watcher sees. The Table's thread only hands each event to a queue
(never waits); a thread of the announcer's own turns events into sentences (`words.Narrator`)
and hands each sentence to the outlets. That thread and the speaker's work only while the Table
is quiet (`Table.wait_quiet`), one event or one sentence at a time: sharing the interpreter with
the Table, they would otherwise make a command wait for the interpreter lock while they word or
start espeak-ng. The outlets:

- ``pi``: the Pi's speaker (`speaker.Speaker`, espeak-ng on its own thread);
- ``screen``: the table screen's browser, which fetches the sentences (``GET /api/voice``) and
  speaks them with the Web Speech API once someone has tapped to switch it on.

A phone may mute the voice for everyone (`mute`); muted, nothing is queued for either outlet.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections import deque
from typing import Any

from ..commands import SPECTATOR, Event
from ..table import Refused, Subscriber, Table
from .speaker import Speaker, espeak
from .words import LEVEL, Announcement, Narrator, says

OUTLETS = ("none", "pi", "screen", "both")
INBOX = 2000
"""Events waiting for the narrator at most; past that the oldest are dropped (never blocks)."""
QUIET_WAIT = 1.0
"""Seconds the voice waits for a quiet Table before it goes on anyway (a Table busy for that
long is stuck, and the voice is not to stop with it)."""
KEPT = 50
"""Recent announcements kept for the screen to fetch."""


class Announcer:
    def __init__(
        self,
        table: Table,
        lang: str,
        outlet: str = "both",
        verbosity: str = "events",
        volume: int = 80,
        speaker: Speaker | None = None,
        kept: int = KEPT,
    ) -> None:
        if outlet not in OUTLETS:
            raise ValueError(f"voice outlet must be one of {', '.join(OUTLETS)}, not {outlet!r}")
        self.table = table
        self.outlet = outlet
        self.verbosity = verbosity
        self.volume = volume
        self.narrator = Narrator(lang)
        self.muted = False
        self.speaker = speaker
        if self.speaker is None and outlet in ("pi", "both"):
            self.speaker = Speaker(espeak(volume))
        self.heard = 0
        """Events the Table handed over; `told` of them have been narrated (or dropped)."""
        self.told = 0
        self.dropped = 0
        self._inbox: queue.Queue[Event | None] = queue.Queue(maxsize=INBOX)
        self._said: deque[dict[str, Any]] = deque(maxlen=kept)
        self._count = 0
        self._news = threading.Condition()
        self._stopped = False
        """Set by `stop`: a screen's wait for news (`said`) ends, so the server can stop."""
        self._subscriber = Subscriber(None, SPECTATOR, self._deliver)
        self._thread: threading.Thread | None = None

    @property
    def lang(self) -> str:
        return self.narrator.lang

    # -- running ---------------------------------------------------------------------------

    def start(self) -> None:
        with contextlib.suppress(Refused):  # no game yet: the first new_game tells the names
            self.narrator.learn(self.table.snapshot(None, SPECTATOR))
        if self.speaker is not None:
            if self.speaker.quiet is None:
                self.speaker.quiet = self._quiet
            self.speaker.start()
        self._thread = threading.Thread(target=self._run, name="announcer", daemon=True)
        self._thread.start()
        self.table.subscribe(self._subscriber)

    def stop(self) -> None:
        with self._news:
            self._stopped = True
            self._news.notify_all()
        with contextlib.suppress(Refused, TimeoutError, RuntimeError):
            self.table.unsubscribe(self._subscriber)
        self._put(None)
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None
        if self.speaker is not None:
            self.speaker.stop()

    def _deliver(self, event: Event) -> None:
        # On the Table's thread: hand on, never wait.
        self.heard += 1
        self._put(event)

    def _put(self, event: Event | None) -> None:
        while True:
            try:
                self._inbox.put_nowait(event)
                return
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._inbox.get_nowait()
                    self.dropped += 1

    def _quiet(self) -> None:
        self.table.wait_quiet(QUIET_WAIT)

    def _run(self) -> None:
        while True:
            event = self._inbox.get()
            if event is None:
                return
            self._quiet()
            try:
                if event.kind != "status":
                    for announcement in self.narrator.narrate(event.kind, event.data, event.seq):
                        self.announce(announcement)
            except (KeyError, ValueError, TypeError, IndexError, StopIteration):
                pass  # an event of a shape the narrator does not know: say nothing
            finally:
                self.told += 1

    def caught_up(self) -> bool:
        """Has every event handed over so far been narrated (or dropped)?"""
        return self.told + self.dropped >= self.heard

    # -- the outlets -----------------------------------------------------------------------

    def announce(self, announcement: Announcement) -> None:
        """Send one announcement to the outlets, unless muted or too detailed."""
        if self.muted or not says(LEVEL[announcement.kind], self.verbosity):
            return
        if self.speaker is not None:
            self.speaker.say(announcement)
        if self.outlet in ("screen", "both"):
            with self._news:
                self._count += 1
                self._said.append({"id": self._count, **announcement.to_json()})
                self._news.notify_all()

    def said(self, after: int, wait: float = 0.0) -> list[dict[str, Any]]:
        """The screen's announcements numbered after `after`, waiting up to `wait` seconds
        for one when there is none yet."""
        with self._news:
            if self._count <= after and wait > 0 and not self._stopped:
                muted = self.muted  # a mute or unmute ends the wait too: the screen says it
                self._news.wait_for(
                    lambda: self._count > after or self.muted != muted or self._stopped,
                    timeout=wait,
                )
            return [a for a in self._said if a["id"] > after]

    def last_id(self) -> int:
        with self._news:
            return self._count

    def mute(self, muted: bool) -> None:
        with self._news:
            self.muted = muted
            self._news.notify_all()

    def describe(self) -> dict[str, Any]:
        return {
            "outlet": self.outlet,
            "verbosity": self.verbosity,
            "volume": self.volume,
            "muted": self.muted,
            "language": self.lang,
            "last": self.last_id(),
        }
