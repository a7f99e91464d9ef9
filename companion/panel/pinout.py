"""Reading ``hardware/pinout.toml``, the one place where the GPIO panel's pins are written down.

The GPIO panel builds its devices from it, ``python -m companion.panel.wiring`` draws the wiring
diagram from it, and ``companion doctor`` reports it. BCM numbers map to positions on the Pi's
40-pin header through `HEADER` (a test holds it equal to gpiozero's own board data).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER: tuple[str, ...] = (
    # odd pins (inner column)   even pins (outer column)
    "3V3", "5V",
    "GPIO2", "5V",
    "GPIO3", "GND",
    "GPIO4", "GPIO14",
    "GND", "GPIO15",
    "GPIO17", "GPIO18",
    "GPIO27", "GND",
    "GPIO22", "GPIO23",
    "3V3", "GPIO24",
    "GPIO10", "GND",
    "GPIO9", "GPIO25",
    "GPIO11", "GPIO8",
    "GND", "GPIO7",
    "GPIO0", "GPIO1",
    "GPIO5", "GND",
    "GPIO6", "GPIO12",
    "GPIO13", "GND",
    "GPIO19", "GPIO16",
    "GPIO26", "GPIO20",
    "GND", "GPIO21",
)  # fmt: skip
"""What is on each pin of the 40-pin header (J8) of every Pi since the B+; pin 1 first."""

RESERVED = {
    0: "the HAT ID EEPROM (ID_SD)",
    1: "the HAT ID EEPROM (ID_SC)",
    2: "I²C (SDA)",
    3: "I²C (SCL)",
    7: "SPI (CE1)",
    8: "SPI (CE0)",
    9: "SPI (MISO)",
    10: "SPI (MOSI)",
    11: "SPI (SCLK)",
    14: "the UART (TXD)",
    15: "the UART (RXD)",
}
"""GPIOs that add-on boards and the serial console usually need; the defaults leave them free."""

PARTS = {
    "buttons": ("Buttons", ("roll", "next", "undo")),
    "rgb_led": ("RGB LED", ("red", "green", "blue")),
    "status_led": ("Status LED", ("anode",)),
    "buzzer": ("Buzzer", ("signal",)),
}
"""Each part of the panel: its title and the names of its GPIO wires."""

SUPPLIES = ("5V", "3V3")


class PinoutError(Exception):
    """A pinout file the panel cannot be built from; the message names the key to fix."""


@dataclass(frozen=True)
class Wire:
    """One GPIO of the panel and what its wire goes to."""

    name: str
    """``roll``, ``red``, ``anode``, ..."""
    bcm: int
    wired_to: str

    @property
    def header(self) -> int:
        """The header pin (1-40) this GPIO is on."""
        return header_pin(self.bcm)


@dataclass(frozen=True)
class Part:
    """A part of the panel: its GPIO wires and its return wire (to ground or to a supply)."""

    key: str
    title: str
    wires: tuple[Wire, ...]
    ground: int | None
    """Header pin of the part's ground wire, if it has one."""
    supply: int | None
    """Header pin of the part's supply wire (5V or 3V3), if it has one."""
    wired_to: str
    """Where the part's ground or supply wire goes."""


@dataclass(frozen=True)
class Pinout:
    parts: tuple[Part, ...]
    common_anode: bool
    """The RGB LED's colour legs light when driven low (common anode) rather than high."""
    source: Path | None = None

    def part(self, key: str) -> Part:
        return next(p for p in self.parts if p.key == key)

    @property
    def buttons(self) -> dict[str, int]:
        """BCM number of each button, by button name."""
        return {w.name: w.bcm for w in self.part("buttons").wires}

    @property
    def rgb_led(self) -> tuple[int, int, int]:
        red, green, blue = (w.bcm for w in self.part("rgb_led").wires)
        return red, green, blue

    @property
    def status_led(self) -> int:
        return self.part("status_led").wires[0].bcm

    @property
    def buzzer(self) -> int:
        return self.part("buzzer").wires[0].bcm

    def wires(self) -> list[tuple[Part, Wire]]:
        return [(part, wire) for part in self.parts for wire in part.wires]

    def clashes(self) -> list[str]:
        """Sentences about pins that add-on boards or the serial console usually need."""
        return [
            f"GPIO{w.bcm} ({part.title} {w.name}) is also {RESERVED[w.bcm]}"
            for part, w in self.wires()
            if w.bcm in RESERVED
        ]

    def summary(self) -> str:
        """One line naming every pin, for `companion doctor` and the panel's status."""
        buttons = ", ".join(f"{n.upper()} GPIO{b}" for n, b in self.buttons.items())
        red, green, blue = self.rgb_led
        return (
            f"buttons {buttons}; RGB LED GPIO{red}/{green}/{blue}; "
            f"status LED GPIO{self.status_led}; buzzer GPIO{self.buzzer}"
        )


def header_pin(bcm: int) -> int:
    """The header pin (1-40) of GPIO `bcm`."""
    try:
        return HEADER.index(f"GPIO{bcm}") + 1
    except ValueError:
        raise PinoutError(f"GPIO{bcm} is not on the 40-pin header (GPIO0 to GPIO27 are)") from None


def default_path() -> Path:
    """The pinout used when [panel] pinout is not set.

    A wheel may carry a copy beside this module; a source checkout (and an editable install)
    has the one in ``hardware/``.
    """
    packaged = Path(__file__).with_name("pinout.toml")
    if packaged.is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"


def find(configured: str | None) -> Path:
    """The pinout file: [panel] pinout when set, else the default."""
    return Path(configured).expanduser() if configured else default_path()


def load(path: Path) -> Pinout:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PinoutError(
            f"no pinout file at {path}; set [panel] pinout to the path of hardware/pinout.toml"
        ) from None
    except OSError as e:
        raise PinoutError(f"cannot read the pinout {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise PinoutError(f"the pinout {path} is not valid TOML: {e}") from None
    try:
        return parse(data, path)
    except PinoutError as e:
        raise PinoutError(f"{path}: {e}") from None


def parse(data: dict[str, Any], source: Path | None = None) -> Pinout:
    unknown = sorted(set(data) - set(PARTS))
    if unknown:
        raise PinoutError(f"unknown part [{unknown[0]}]; parts: {', '.join(PARTS)}")
    parts = []
    for key, (title, names) in PARTS.items():
        table = data.get(key)
        if not isinstance(table, dict):
            raise PinoutError(f"[{key}] is missing")
        allowed = {"wired_to", "ground", "supply", *names}
        if key == "rgb_led":
            allowed.add("common")
        extra = sorted(set(table) - allowed)
        if extra:
            raise PinoutError(f"unknown key {key}.{extra[0]}; [{key}] has: {', '.join(allowed)}")
        wires = tuple(_wire(table.get(n), f"{key}.{n}", n) for n in names)
        ground = _header(table, key, "ground", ("GND",))
        supply = _header(table, key, "supply", SUPPLIES)
        if ground is None and supply is None:
            raise PinoutError(f"{key} needs ground (a GND header pin) or supply (a 5V/3V3 pin)")
        parts.append(Part(key, title, wires, ground, supply, _text(table, key)))
    common = data["rgb_led"].get("common", "cathode")
    if common not in ("cathode", "anode"):
        raise PinoutError(f'rgb_led.common must be "cathode" or "anode", not {common!r}')
    pinout = Pinout(tuple(parts), common == "anode", source)
    seen: dict[int, str] = {}
    for part, wire in pinout.wires():
        where = f"{part.key}.{wire.name}"
        if wire.bcm in seen:
            raise PinoutError(f"GPIO{wire.bcm} is given to both {seen[wire.bcm]} and {where}")
        seen[wire.bcm] = where
    return pinout


def _wire(table: Any, where: str, name: str) -> Wire:
    if not isinstance(table, dict):
        raise PinoutError(f"[{where}] is missing")
    bcm = table.get("bcm")
    if not isinstance(bcm, int) or isinstance(bcm, bool) or not 0 <= bcm <= 27:
        raise PinoutError(f"{where}.bcm must be a GPIO number from 0 to 27, not {bcm!r}")
    extra = sorted(set(table) - {"bcm", "wired_to"})
    if extra:
        raise PinoutError(f"unknown key {where}.{extra[0]}; it has: bcm, wired_to")
    return Wire(name, bcm, _text(table, where))


def _header(table: dict[str, Any], where: str, key: str, kinds: tuple[str, ...]) -> int | None:
    pin = table.get(key)
    if pin is None:
        return None
    if not isinstance(pin, int) or isinstance(pin, bool) or not 1 <= pin <= len(HEADER):
        raise PinoutError(f"{where}.{key} must be a header pin from 1 to 40, not {pin!r}")
    if HEADER[pin - 1] not in kinds:
        raise PinoutError(
            f"{where}.{key} = {pin}, but header pin {pin} is {HEADER[pin - 1]}, "
            f"not {' or '.join(kinds)}"
        )
    return pin


def _text(table: dict[str, Any], where: str) -> str:
    text = table.get("wired_to", "")
    if not isinstance(text, str):
        raise PinoutError(f"{where}.wired_to must be text")
    return text
