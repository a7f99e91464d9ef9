"""`companion bench voice`: what the voice costs the Table, and how its queue copes with a burst.

- ``voice.table_command_p99_ms_off`` / ``_on``: the Table's command p99 (as ``table.command_*``
  measures it) without a voice, then with the voice listening at its most talkative
  (``verbosity = "all"``) and espeak-ng really speaking every announcement — into a WAV file
  instead of a sound card, so the CPU it takes is the same, then waiting as long as the
  sentence lasts. ``voice.table_cpu_per_command_ms_off``
  / ``_on``: the CPU time of the Table's thread per command in the same runs (the voice's work
  is on threads of its own: these stay equal). ``voice.spoken_on`` / ``voice.dropped_on``: the
  announcements of that run said and dropped as stale.
- ``voice.burst_dropped_of_50`` / ``voice.burst_spoken_of_50``: 50 announcements in one second
  to a speaker that keeps the newest 3: how many were dropped as stale, how many said.
- ``voice.say_p99_ms``: what handing one announcement to the speaker costs its caller.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
import wave
from collections.abc import Callable
from pathlib import Path

from ..bench import Skipped, _commands, _p, store_path
from ..table import Table
from .announcer import Announcer
from .speaker import ESPEAK, Speaker, espeak_command
from .words import Announcement

COMMANDS = 1000


def to_wav(folder: Path) -> Callable[[Announcement], None]:
    """Speak as the Pi would, into a file: the same work for espeak-ng without a sound card,
    and as long a wait as the sound card's (espeak-ng speaking to a device returns when the
    sentence has been heard; writing a file returns at once)."""

    def speak(announcement: Announcement) -> None:
        wav = folder / "said.wav"
        command = espeak_command(announcement.text, announcement.lang, 80, wav)
        subprocess.run(command, capture_output=True, timeout=30, check=False)
        try:
            with wave.open(str(wav)) as heard:
                time.sleep(heard.getnframes() / heard.getframerate())
        except (OSError, EOFError, wave.Error):
            pass  # nothing written: nothing to hear

    return speak


def voice() -> dict[str, float]:
    if shutil.which(ESPEAK) is None:
        raise Skipped("espeak-ng is not installed (sudo apt install espeak-ng)")
    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="voice-bench-") as scratch:
        folder = Path(scratch)

        speaker = Speaker(to_wav(folder))

        def listening(table: Table) -> Callable[[], None]:
            announcer = Announcer(table, "en", "pi", "all", speaker=speaker)
            announcer.start()
            return announcer.stop

        for name, attach in (("off", None), ("on", listening)):
            path = store_path()
            path.parent.mkdir(parents=True)
            try:
                measured = _commands(path, COMMANDS, attach)
            finally:
                shutil.rmtree(path.parent, ignore_errors=True)
            figures[f"voice.table_command_p99_ms_{name}"] = measured["table.command_p99_ms"]
            figures[f"voice.table_cpu_per_command_ms_{name}"] = measured["table.cpu_per_command_ms"]
        figures["voice.spoken_on"] = float(speaker.spoken)
        figures["voice.dropped_on"] = float(speaker.dropped)
        figures.update(burst(folder))
    return figures


def burst(folder: Path, count: int = 50, seconds: float = 1.0) -> dict[str, float]:
    speaker = Speaker(to_wav(folder))
    speaker.start()
    waits: list[float] = []
    try:
        for n in range(count):
            said = Announcement("turn", f"Player {n}'s turn.", "en", 1, n)
            before = time.perf_counter()
            speaker.say(said)
            waits.append(time.perf_counter() - before)
            time.sleep(seconds / count)
        deadline = time.monotonic() + 30
        while speaker.spoken + speaker.dropped < count and time.monotonic() < deadline:
            time.sleep(0.05)
    finally:
        speaker.stop()
    return {
        "voice.burst_dropped_of_50": float(speaker.dropped),
        "voice.burst_spoken_of_50": float(speaker.spoken),
        "voice.say_p99_ms": _p(waits, 0.99),
    }
