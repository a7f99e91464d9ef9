"""The GPIO panel: ROLL, NEXT and UNDO buttons, an RGB LED, a status LED and a buzzer on the Pi.

The devices are gpiozero's, built from ``hardware/pinout.toml`` on whichever pin factory
gpiozero picks (lgpio on a Pi; a MockFactory in the tests). Their callbacks run on the pin
library's threads and only put what happened on the panel's queue, stamped by the panel's clock.
The panel's own thread takes everything from that queue in order: edges become presses
(`gestures`), presses become commands for the Table (`presses`), and the Table's events, also
delivered to the queue, drive the outputs:

- the RGB LED shows the current player's colour (from the game's players; a ``turn`` changes it),
- the status LED is lit while the panel and the table are alive, and blinks when something is
  wrong (the table stopped or does not answer),
- the buzzer beeps when the die is cast (``rolled``) and gives three short beeps when a press is
  refused or means nothing in the step.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..commands import SPECTATOR, Event
from ..table import Refused, Subscriber, Table
from . import PanelError
from .buttons import Press
from .gestures import HOLD_TIME, WINDOW, Gestures
from .lights import Lights
from .pinout import Pinout
from .presses import NOT_RUNNING, TableDown, carry_out, table_alive

log = logging.getLogger(__name__)

ROLL_BEEP = (0.15, 0.05, 1)
"""Buzzer on, off (seconds) and count when the die is cast: one short beep."""
ERROR_BEEP = (0.07, 0.07, 3)
"""... when a press is refused: three quick beeps."""
BOT_BEEP = (0.15, 0.1, 2)
"""... when a bot's move waits to be made on the board: two short beeps."""
BEEPS = {"roll": ROLL_BEEP, "bot": BOT_BEEP}
BLINK = (0.25, 0.25)
"""Status LED on and off (seconds) while something is wrong."""
LOOK = 0.25
"""Seconds between two looks at whether the table is alive, when nothing else happens."""


@dataclass(frozen=True)
class Edge:
    """What a button's callback saw: ``down`` or ``up``, and when."""

    button: str
    kind: str
    t: float


_STOP = object()


class GpioPanel:
    """The panel on the Pi's header; `start` builds its devices, `stop` lets the pins go."""

    kind = "gpio"

    def __init__(
        self,
        table: Table,
        pinout: Pinout,
        *,
        clock: Callable[[], float] = time.monotonic,
        hold_time: float = HOLD_TIME,
        window: float = WINDOW,
    ) -> None:
        self.table = table
        self.pinout = pinout
        self.clock = clock
        self.gestures = Gestures(window, hold_time)
        self.buttons: dict[str, Any] = {}
        self.rgb_led: Any = None
        self.status_led: Any = None
        self.buzzer: Any = None
        self.lights = Lights(self._show_colour, self._beep)
        """Events came since the LED was last set from the game as it is."""
        self.trouble: str | None = None
        """What is wrong now (the status LED blinks), or None."""
        self.factory = ""
        self._inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
        """Edges, the Table's events, requests to stop or say when idle (C's queue: the Table's
        thread puts every event on it, and a Python queue's locks cost it more)."""
        self._subscriber = Subscriber(None, SPECTATOR, self._inbox.put)
        self._thread: threading.Thread | None = None

    # -- starting and stopping ----------------------------------------------------------------

    def start(self) -> None:
        self._build()
        self.status_led.on()
        self.table.subscribe(self._subscriber)
        self._thread = threading.Thread(target=self._run, name="panel", daemon=True)
        self._thread.start()
        self.table.set_status("panel", f"gpio: ready; {self.describe()}")

    def stop(self) -> None:
        with contextlib.suppress(Refused):  # the table is stopping too: nothing to leave
            self.table.unsubscribe(self._subscriber)
        if self._thread is not None:
            self._inbox.put(_STOP)
            self._thread.join(timeout=15)
            self._thread = None
        self._close()
        self.table.set_status("panel", "gpio: stopped")

    def idle(self, timeout: float = 10.0) -> bool:
        """Wait until the panel has nothing left to handle (what a press caused included);
        False at the timeout."""
        deadline = time.monotonic() + timeout
        while True:
            reached = threading.Event()
            self._inbox.put(reached)
            if not reached.wait(max(0.0, deadline - time.monotonic())):
                return False
            if self._inbox.empty():
                return True

    def describe(self) -> str:
        where = f" from {self.pinout.source}" if self.pinout.source else ""
        factory = f"; pin factory {self.factory}" if self.factory else ""
        return f"{self.pinout.summary()} (pins{where}{factory})"

    def _build(self) -> None:
        from gpiozero import LED, RGBLED, Buzzer, Device, DigitalInputDevice

        pins = self.pinout
        try:
            for name, bcm in pins.buttons.items():
                # bounce_time=None: the backends debounce differently; `gestures` does it, and
                # times a hold (a gpiozero Button's hold thread would wake at every edge).
                button = DigitalInputDevice(bcm, pull_up=True, bounce_time=None)
                button.when_activated = self._on(name, "down")
                button.when_deactivated = self._on(name, "up")
                self.buttons[name] = button
            self.rgb_led = RGBLED(*pins.rgb_led, active_high=not pins.common_anode, pwm=True)
            self.status_led = LED(pins.status_led)
            self.buzzer = Buzzer(pins.buzzer)
        except Exception as e:
            self._close()
            raise PanelError(
                f"the GPIO panel cannot use its pins ({type(e).__name__}: {e}); "
                "`companion doctor` says what is missing"
            ) from e
        self.factory = type(Device.pin_factory).__name__

    def _on(self, button: str, kind: str) -> Callable[[], None]:
        def put() -> None:
            # On the pin library's thread: stamp it and queue it, nothing more.
            self._inbox.put(Edge(button, kind, self.clock()))

        return put

    def _close(self) -> None:
        devices = [*self.buttons.values(), self.rgb_led, self.status_led, self.buzzer]
        for device in devices:
            if device is not None:
                device.close()
        self.buttons = {}
        self.rgb_led = self.status_led = self.buzzer = None

    # -- the panel's thread -------------------------------------------------------------------

    def _run(self) -> None:
        self._sync()
        while True:
            due = self.gestures.due(self.clock())
            wait = LOOK if due is None else min(due, LOOK)
            try:
                item = self._inbox.get(timeout=wait)
            except queue.Empty:
                item = None
            if item is _STOP:
                return
            try:
                presses: list[Press] = []
                if isinstance(item, Edge):
                    presses = self._edge(item)
                elif isinstance(item, Event):
                    self._show(item)
                now = self.clock()  # before looking for edges still queued: see `holds`
                if self._inbox.empty():
                    presses += self.gestures.holds(now)
                else:
                    presses += self.gestures.settle(now)
                for press in presses:
                    self._carry_out(press)
                if not table_alive(self.table):
                    self._troubled(NOT_RUNNING)
                elif self.trouble == NOT_RUNNING:
                    self._fine()
                if isinstance(item, threading.Event):  # someone waits for `idle`
                    item.set()
            except Exception:  # the panel must outlive a bug in one event
                log.exception("the GPIO panel could not handle %r", item)

    def _edge(self, edge: Edge) -> list[Press]:
        return self.gestures.edge(edge.button, edge.kind == "down", edge.t)

    def _carry_out(self, press: Press) -> None:
        try:
            outcome = carry_out(self.table, press, "gpio")
        except TableDown as e:
            self._troubled(str(e))
            self._beep("error")
            return
        self._fine()
        log.info("panel: %s", outcome)
        if not outcome.accepted:
            self._beep("error")

    def _troubled(self, why: str) -> None:
        if self.trouble != why:
            self.trouble = why
            self.status_led.blink(*BLINK)
            log.warning("GPIO panel: %s", why)
            self.table.set_status("panel", f"gpio: error: {why}")

    def _fine(self) -> None:
        if self.trouble is not None:
            self.trouble = None
            self.status_led.on()
            self.table.set_status("panel", f"gpio: ready; {self.describe()}")

    # -- outputs ------------------------------------------------------------------------------

    def _sync(self) -> None:
        """The LED from the current game as it is now (at start)."""
        self.lights.sync(self.table)

    def _show(self, event: Event) -> None:
        self.lights.event(event)

    def _show_colour(self, colour: tuple[float, float, float]) -> None:
        self.rgb_led.color = colour

    def _beep(self, sound: str) -> None:
        on, off, n = BEEPS.get(sound, ERROR_BEEP)
        self.buzzer.beep(on_time=on, off_time=off, n=n)
