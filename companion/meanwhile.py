"""What the Table's thread has done while it waits for the disk.

A command's COMMIT waits for the disk to confirm it (one fsync: a third of a command's time
here, more on an SD card), and sqlite3 lets go of the interpreter lock meanwhile. What the Table
tells next that depends on the game in memory alone (each view's new state and choices) can be
built in that time by a second thread, the `Helper`. The Table's thread takes the result before
it goes on, so the two never work on a game at once; a `Job` the helper has not begun by then
(no core was free for it) the Table's thread does itself, and a busy machine loses no more than
the hand-over. Nothing is stored and nothing is told on the helper: the Table's thread stays
the one writer.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import Generic, TypeVar, cast

T = TypeVar("T")


class Job(Generic[T]):
    """Work done once, by whichever thread begins it first."""

    def __init__(self, work: Callable[[], T]) -> None:
        self._work = work
        self._begun = threading.Lock()
        self._done = threading.Lock()
        """Held until the work is done (a lock: an Event costs a command more to make and set)."""
        self._done.acquire()
        self._value: T | None = None
        self._error: BaseException | None = None

    def run(self) -> bool:
        """Do the work, unless it was begun already; False then."""
        if not self._begun.acquire(blocking=False):
            return False
        try:
            self._value = self._work()
        except BaseException as e:  # handed to whoever takes the result
            self._error = e
        finally:
            self._done.release()
        return True

    def result(self) -> T:
        """The work's result: done here and now unless another thread began it (then waited
        for)."""
        if not self.run():
            self._wait()
        if self._error is not None:
            raise self._error
        return cast(T, self._value)

    def drop(self) -> None:
        """The result is not wanted: the work is never begun from now, or waited for."""
        if not self._begun.acquire(blocking=False):
            self._wait()

    def _wait(self) -> None:
        with self._done:  # released once the work is done: taken and given back at once
            pass


class Helper:
    """The thread that begins the jobs handed to it; until `start`, none (each job is done by
    whoever takes its result)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._jobs: queue.SimpleQueue[Job[object] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(timeout=10)
            self._thread = None

    def hand(self, job: Job[T]) -> None:
        """Let the helper begin `job` (when it runs at all)."""
        if self._thread is not None:
            self._jobs.put(cast(Job[object], job))

    def _run(self) -> None:
        while (job := self._jobs.get()) is not None:
            job.run()
