"""Who holds each seat: one phone per seat, taken from it only in ways the table can see.

A phone is known by the random ``phone`` id in its signed session cookie. A seat held by one
phone goes to another only when

- its holder leaves it (``POST /api/session/seat`` with ``"seat": null``, or takes another),
- the table hands it over (the Pi itself: ``POST /api/session/release``), or
- its holder has been silent for `SILENT_SECONDS` (no request and no open event stream) —
  how a player whose phone died, or whose cookies were cleared, gets the seat back.

Every change, and every refused attempt, is told to every phone (a ``seat`` event on each
stream); the phone that lost the seat has its streams ended, so that it sees no more of that
seat's view. The daemon keeps the holders in ``seats.json`` in its state directory (written at
each change, which is rare): after a power cut the seat is still its holder's, not the first
phone's that comes back with an old cookie for it. Silence is counted again from the start.

A seat nobody holds goes to the first phone whose cookie says it held it (the holders were lost:
``seats.json`` unreadable) — but never a seat freed while the daemon runs: a cookie claiming that
one is older than its phone's leaving or the table's hand-over (a request already on its way, a
stream reconnecting by itself), and would take the seat straight back.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..security import atomic_write

log = logging.getLogger(__name__)
FILENAME = "seats.json"

SILENT_SECONDS = 5 * 60.0
"""How long a holder must have been silent before another phone may take its seat: longer than
a phone locked between two turns, short enough for a player with a new phone to wait."""


@dataclass
class Holder:
    phone: str
    seen: float
    streams: int = 0


@dataclass(frozen=True)
class Change:
    """What happened to a seat (told to every phone); `previous` is the phone that lost it."""

    game: int
    seat: int
    what: str  # taken, left, handed_over, asked
    why: str = ""
    previous: str | None = None

    def told(self) -> dict[str, object]:
        return {"game": self.game, "seat": self.seat + 1, "what": self.what, "why": self.why}


class Held(Exception):
    """The seat is another phone's; `seconds` until its silence would free it."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


class Seats:
    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        silent: float = SILENT_SECONDS,
        path: Path | None = None,
    ) -> None:
        self.clock = clock
        self.silent = silent
        self.path = path
        """Where the holders are kept (None: in memory only)."""
        self._lock = threading.Lock()
        self._held: dict[tuple[int, int], Holder] = {}
        self._freed: set[tuple[int, int]] = set()
        """Seats left or handed over since start: only `take` gives them again."""
        self._kept: dict[str, str] = {}
        if path is not None:
            self._load(path)

    def _load(self, path: Path) -> None:
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as e:
            log.warning("%s cannot be read (%s): seats go to the first phones back", path, e)
            return
        now = self.clock()
        for key, phone in kept.items() if isinstance(kept, dict) else []:
            game, _, seat = str(key).partition(":")
            if game.isdigit() and seat.isdigit() and isinstance(phone, str):
                self._held[(int(game), int(seat))] = Holder(phone, now)
        self._kept = self._holders()

    def _holders(self) -> dict[str, str]:
        return {f"{g}:{s}": h.phone for (g, s), h in sorted(self._held.items())}

    def _save(self) -> None:
        """Write the holders if they changed (under the lock). A failed write is logged: the
        seats still hold in memory."""
        holders = self._holders()
        if self.path is None or holders == self._kept:
            return
        try:
            atomic_write(self.path, (json.dumps(holders) + "\n").encode())
            self._kept = holders
        except OSError as e:
            log.warning("cannot keep the seats in %s: %s", self.path, e)

    def holds(self, phone: str | None, game: int, seat: int) -> bool:
        """Does `phone` hold `seat` of `game`? A seat nobody holds goes to the first phone that
        says (by its signed cookie) that it held it, unless it was freed since start."""
        if phone is None:
            return False
        with self._lock:
            holder = self._held.get((game, seat))
            if holder is None:
                if (game, seat) in self._freed:
                    return False
                self._held[(game, seat)] = Holder(phone, self.clock())
                self._save()
                return True
            if holder.phone != phone:
                return False
            holder.seen = self.clock()
            return True

    def take(self, phone: str, game: int, seat: int) -> list[Change]:
        """Give `seat` to `phone` (leaving its other seat of `game`); Held if another holds it
        and has not been silent long enough. The changes, to tell every phone."""
        now = self.clock()
        with self._lock:
            holder = self._held.get((game, seat))
            if holder is not None and holder.phone == phone:
                holder.seen = now
                return []
            why = "free"
            if holder is not None:
                quiet = now - holder.seen
                if holder.streams > 0 or quiet < self.silent:
                    left = self.silent if holder.streams > 0 else self.silent - quiet
                    raise Held(left)
                why = "silent"
            changes = self._leave(phone, game)
            self._held[(game, seat)] = Holder(phone, now)
            self._freed.discard((game, seat))
            self._save()
            previous = holder.phone if holder is not None else None
            changes.append(Change(game, seat, "taken", why, previous))
            return changes

    def leave(self, phone: str | None, game: int) -> list[Change]:
        with self._lock:
            return self._leave(phone, game)

    def _leave(self, phone: str | None, game: int) -> list[Change]:
        mine = [key for key, h in self._held.items() if key[0] == game and h.phone == phone]
        for key in mine:
            del self._held[key]
        self._freed.update(mine)
        self._save()
        return [Change(game, seat, "left") for _, seat in mine]

    def hand_over(self, game: int, seat: int) -> list[Change]:
        """The table frees `seat`: the next phone to ask takes it."""
        with self._lock:
            holder = self._held.pop((game, seat), None)
            self._freed.add((game, seat))
            self._save()
        previous = holder.phone if holder is not None else None
        return [Change(game, seat, "handed_over", "table", previous)]

    def streaming(self, phone: str, game: int, seat: int, delta: int) -> None:
        """A stream of the holder opens (+1) or closes (-1): an open stream is not silence."""
        with self._lock:
            holder = self._held.get((game, seat))
            if holder is not None and holder.phone == phone:
                holder.streams = max(0, holder.streams + delta)
                holder.seen = self.clock()
