"""Bot seats at the table: an edge like a phone. It wakes on every event of the current game,
asks the Table for what a bot seat to decide now knows (`Table.bot_turn`: its seat's knowledge
only), decides on its own thread within the level's time budget, and submits the decision as a
command from the seat. The Table does it at once in a digital game; at a physical table it
shows the sentence on every phone until a person has made the move on the board (NEXT)."""

from __future__ import annotations

import logging
import random
import threading
from typing import Any

from ..commands import SPECTATOR, Command
from ..engine import Game
from .players import STRONG_BUDGET_S, decide

log = logging.getLogger(__name__)


class BotSeats:
    """Plays every bot seat of whatever game is current."""

    def __init__(
        self, table: Any, budget_s: float = STRONG_BUDGET_S, seed: int | None = None
    ) -> None:
        self.table = table
        self.budget_s = budget_s
        self.rng = random.Random(seed)
        self._wake = threading.Event()
        self._stop = False
        self._thread: threading.Thread | None = None
        self._subscriber: Any = None

    def start(self) -> None:
        from ..table import Subscriber

        self._subscriber = Subscriber(None, SPECTATOR, lambda _event: self._wake.set())
        self.table.subscribe(self._subscriber)
        self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
        self._thread.start()
        self._wake.set()  # a game may be waiting for a bot already (after a restart)

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        if self._subscriber is not None:
            self.table.unsubscribe(self._subscriber)
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        while not self._stop:
            self._wake.wait()
            self._wake.clear()
            try:
                while not self._stop and self.step():
                    pass
            except Exception:  # a bot's fault must not stop the table: it waits for the next event
                log.exception("a bot seat could not decide")

    def step(self) -> bool:
        """Decide and submit one bot decision, if a bot seat is to decide; True if it did."""
        turn = self.table.bot_turn()
        if turn is None:
            return False
        game_id, seat, level, known = turn
        if known is None:
            return self._accepted(seat, Command("bot", seat, game=game_id, intent="roll"))
        decision = decide(Game(known), seat, level, self.rng, budget_s=self.budget_s)
        command = Command(
            "bot", seat, game=game_id, action=list(decision.action), args={"why": decision.why}
        )
        return self._accepted(seat, command)

    def _accepted(self, seat: int, command: Command) -> bool:
        reply = self.table.call(command)
        if not reply.accepted:
            log.warning("bot seat %s: %s", seat + 1, reply.message)
            return False
        return True
