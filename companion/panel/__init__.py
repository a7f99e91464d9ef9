"""The table's button panels: GPIO buttons on the Pi (`gpio`), a Pico on USB (`serial`), and a
simulated one for `companion demo` (`sim`). What each button means is decided once, in
`buttons`; a panel only tells which button was pressed and how.

The daemon opens the panel that ``[panel] kind`` names with `open_panel`, starts it after the
Table and stops it before. A panel reports how it is connected with
``table.set_status("panel", ...)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:
    from ..config import Config
    from ..table import Table


class PanelError(Exception):
    """A panel that cannot start; the message says why and what to do."""


class Panel(Protocol):
    kind: str

    def start(self) -> None: ...

    def stop(self) -> None: ...

    def describe(self) -> str:
        """How the panel is connected, in a line (for the banner and the logs)."""
        ...


def open_panel(
    config: Config, table: Table, *, keyboard: int | None = None, out: TextIO | None = None
) -> Panel | None:
    """The panel ``[panel] kind`` names, not yet started; None for ``none``.

    `keyboard` is a terminal's file descriptor for the simulated panel's keys (None: no keys),
    `out` where it tells what each press did. Hardware modules are imported only here, so that
    a machine without them runs every other kind.
    """
    kind = config["panel.kind"]
    if kind == "gpio":
        from . import pinout
        from .gpio import GpioPanel

        try:
            pins = pinout.load(pinout.find(config["panel.pinout"]))
        except pinout.PinoutError as e:
            raise PanelError(str(e)) from None
        return GpioPanel(table, pins)
    if kind == "sim":
        from .sim import SimPanel

        return SimPanel(table, keyboard=keyboard, out=out)
    if kind == "serial":
        from .serial import SerialPanel

        return SerialPanel(table, config["panel.port"])
    return None
