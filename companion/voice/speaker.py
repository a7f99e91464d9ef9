"""The Pi's speaker: espeak-ng speaking announcements one after another, on a thread of its own.

Speaking takes seconds; a turn at the table can produce a dozen events in a moment. So `say`
only puts the announcement in a short queue and returns at once (it never waits on the
speaker), and the queue keeps the newest few: when speech falls behind, older news is dropped
rather than told late. An announcement that waited longer than `stale` seconds is dropped too.
"""

from __future__ import annotations

import shutil
import subprocess
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path

from .words import Announcement

ESPEAK = "espeak-ng"
VOICES = {"en": "en", "es": "es", "fr": "fr"}
"""espeak-ng's voice for each of the table's languages (Debian's espeak-ng-data has them)."""
KEEP = 3
"""Announcements waiting at most; a newer one pushes the oldest out."""
NICE = ("nice", "-n", "10") if shutil.which("nice") else ()
"""espeak-ng's lower priority (coreutils' nice)."""
STALE = 8.0
"""Seconds after which an announcement not yet spoken is no longer news."""


def espeak_command(text: str, lang: str, volume: int, wav: Path | None = None) -> list[str]:
    """The espeak-ng command line saying `text` (to the sound card, or into `wav`).

    `volume` is 0–100; espeak-ng's amplitude runs 0–200 with 100 its normal loudness. It runs
    `nice`: on a busy Pi the Table's commands come first, a sentence a moment later.
    """
    command = [*NICE, ESPEAK, "-v", VOICES[lang], "-a", str(round(volume * 2)), "-s", "160"]
    if wav is not None:
        command += ["-w", str(wav)]
    return [*command, "--", text]


def espeak(volume: int) -> Callable[[Announcement], None]:
    """Speak through espeak-ng to the default sound card (HDMI or a USB speaker)."""
    program = shutil.which(ESPEAK)

    def speak(announcement: Announcement) -> None:
        if program is None:
            return  # doctor says it is missing; the table goes on silently
        subprocess.run(
            espeak_command(announcement.text, announcement.lang, volume),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=30,
            check=False,
        )

    return speak


class Speaker:
    """One thread speaking the newest few announcements in order."""

    def __init__(
        self,
        speak: Callable[[Announcement], None],
        keep: int = KEEP,
        stale: float = STALE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.speak = speak
        self.keep = keep
        self.stale = stale
        self.clock = clock
        self.quiet: Callable[[], object] | None = None
        """Waited for before each announcement is spoken (the announcer: until the Table is
        quiet): starting espeak-ng takes the interpreter for a moment."""
        self.spoken = 0
        self.dropped = 0
        self._waiting: deque[tuple[float, Announcement]] = deque()
        self._ready = threading.Condition()
        self._stopped = False
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        with self._ready:
            self._stopped = True
            self._ready.notify()
        if self._thread is not None:
            self._thread.join(timeout=35)
            self._thread = None

    def say(self, announcement: Announcement) -> None:
        """Queue `announcement`; never waits for the speaker."""
        with self._ready:
            self._waiting.append((self.clock(), announcement))
            while len(self._waiting) > self.keep:
                self._waiting.popleft()
                self.dropped += 1
            self._ready.notify()

    def idle(self) -> bool:
        with self._ready:
            return not self._waiting

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._waiting and not self._stopped:
                    self._ready.wait()
                if self._stopped:
                    return
            if self.quiet is not None:  # outside the lock: say() never waits for it
                self.quiet()
            with self._ready:
                if self._stopped or not self._waiting:
                    continue
                queued, announcement = self._waiting.popleft()
                if self.clock() - queued > self.stale:
                    self.dropped += 1
                    continue
            try:
                self.speak(announcement)
                self.spoken += 1
            except Exception:  # a broken sound card must not silence the rest
                self.dropped += 1
