"""hardware/pinout.toml, the wiring diagram drawn from it, and gpiozero's own board data agree."""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.panel import pinout, wiring
from companion.panel.pinout import HEADER, PinoutError

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "hardware" / "wiring.svg"
PINOUT = ROOT / "hardware" / "pinout.toml"
PI_4 = "c03111"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture
def j8() -> Iterator[dict[int, str]]:
    """gpiozero's names of the 40 header pins of a Pi 4 (no pin is claimed)."""
    factory = MockFactory(revision=PI_4)
    try:
        header = factory.board_info.headers["J8"]
        yield {number: info.name for number, info in header.pins.items()}
    finally:
        factory.close()


def gpiozero_pin(bcm: int) -> int:
    """The physical header pin gpiozero finds for GPIO `bcm` on a Pi 4."""
    factory = MockFactory(revision=PI_4)
    try:
        found = [(h.name, info.number) for h, info in factory.board_info.find_pin(f"GPIO{bcm}")]
    finally:
        factory.close()
    assert len(found) == 1 and found[0][0] == "J8", found
    return int(found[0][1])


def test_the_committed_diagram_is_exactly_what_the_pinout_draws() -> None:
    fresh = wiring.render(pinout.load(PINOUT)).encode()
    assert COMMITTED.read_bytes() == fresh, (
        "hardware/wiring.svg is out of date: run python -m companion.panel.wiring"
    )
    assert wiring.main(["--check"]) == 0


def test_our_header_table_is_gpiozeros(j8: dict[int, str]) -> None:
    assert {n: name for n, name in enumerate(HEADER, start=1)} == j8


def test_every_header_pin_in_the_diagram_is_named_as_gpiozero_names_it(
    j8: dict[int, str],
) -> None:
    root = ET.parse(COMMITTED).getroot()
    pins = {int(g.get("data-pin", "0")): g for g in root.iter(f"{SVG}g") if g.get("data-pin")}
    assert sorted(pins) == list(range(1, 41))
    for number, group in pins.items():
        assert group.get("data-name") == j8[number]
        # ... and the drawing shows that number and that name on that pin.
        texts = [t.text for t in group.iter(f"{SVG}text")]
        assert texts == [str(number), j8[number]]


def test_every_wire_leaves_the_header_pin_gpiozero_gives_its_gpio() -> None:
    root = ET.parse(COMMITTED).getroot()
    wires = [p for p in root.iter(f"{SVG}path") if p.get("data-gpio")]
    pins = pinout.load(PINOUT)
    assert sorted(int(p.get("data-gpio", "")) for p in wires) == sorted(
        w.bcm for _, w in pins.wires()
    )
    for path in wires:
        bcm, header = int(path.get("data-gpio", "")), int(path.get("data-pin", ""))
        assert header == gpiozero_pin(bcm), f"GPIO{bcm}"
        start = re.match(r"M(\d+),(\d+)", path.get("d", ""))
        assert start is not None and int(start[2]) == wiring.pin_y(header)  # from that pin's row


def test_every_gpio_and_pin_number_the_diagram_writes_agrees_with_gpiozero(
    j8: dict[int, str],
) -> None:
    text = " ".join(t for t in ET.parse(COMMITTED).getroot().itertext())
    said = re.findall(r"GPIO(\d+) \(pin (\d+)\)", text)
    pins = pinout.load(PINOUT)
    assert {int(b) for b, _ in said} == {w.bcm for _, w in pins.wires()}
    for bcm, header in said:
        assert int(header) == gpiozero_pin(int(bcm)), f"GPIO{bcm}"
    for kind, header in re.findall(r"\b(GND|5V|3V3) \(pin (\d+)\)", text):
        assert j8[int(header)] == kind


def test_the_default_pins_leave_i2c_spi_uart_and_the_id_eeprom_free(j8: dict[int, str]) -> None:
    pins = pinout.load(PINOUT)
    used = {w.bcm for _, w in pins.wires()}
    assert not used & {0, 1, 2, 3, 7, 8, 9, 10, 11, 14, 15}
    assert pins.clashes() == []
    for part in pins.parts:  # the ground and supply wires go to real ground and supply pins
        if part.ground is not None:
            assert j8[part.ground] == "GND", part.key
        if part.supply is not None:
            assert j8[part.supply] in ("5V", "3V3"), part.key


def test_a_changed_pin_makes_the_committed_diagram_out_of_date(tmp_path: Path) -> None:
    changed = tmp_path / "pinout.toml"
    changed.write_text(PINOUT.read_text().replace("bcm = 22", "bcm = 24"))
    assert wiring.main(["--pinout", str(changed), "--output", str(COMMITTED), "--check"]) == 1
    out = tmp_path / "wiring.svg"
    assert wiring.main(["--pinout", str(changed), "--output", str(out)]) == 0
    svg = out.read_text()
    assert "UNDO: GPIO24 (pin 18)" in svg and "GPIO22 (pin 15)" not in svg


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("bcm = 22", "bcm = 17"), "GPIO17 is given to both buttons.roll and buttons.undo"),
        (("ground = 9", "ground = 11"), "header pin 11 is GPIO17, not GND"),
        (("bcm = 22", "bcm = 28"), "must be a GPIO number from 0 to 27"),
        (('common = "cathode"', 'common = "both"'), 'must be "cathode" or "anode"'),
        (("[buzzer]", "[buzzer]\nvolume = 3"), "unknown key buzzer.volume"),
    ],
)
def test_a_wrong_pinout_is_refused_with_the_key_to_fix(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    bad = tmp_path / "pinout.toml"
    text = PINOUT.read_text()
    assert change[0] in text
    bad.write_text(text.replace(change[0], change[1], 1))
    with pytest.raises(PinoutError, match=re.escape(message)):
        pinout.load(bad)


def test_a_common_anode_led_and_a_missing_file() -> None:
    data = {
        "buttons": {"ground": 9, **{n: {"bcm": b} for n, b in (("roll", 17), ("next", 27), ("undo", 22))}},
        "rgb_led": {"common": "anode", "supply": 1, **{c: {"bcm": b} for c, b in (("red", 5), ("green", 6), ("blue", 13))}},
        "status_led": {"ground": 34, "anode": {"bcm": 16}},
        "buzzer": {"ground": 14, "supply": 4, "signal": {"bcm": 23}},
    }  # fmt: skip
    assert pinout.parse(data).common_anode
    with pytest.raises(PinoutError, match="no pinout file"):
        pinout.load(Path("/nonexistent/pinout.toml"))


def test_the_parts_list_has_its_four_columns_and_every_part_of_the_pinout() -> None:
    with open(ROOT / "hardware" / "bom.csv", newline="", encoding="utf-8") as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == [
            "part",
            "quantity",
            "typical price (EUR)",
            "where it is commonly sold",
        ]
        rows = list(reader)
    for row in rows:
        assert int(row["quantity"]) >= 1 and float(row["typical price (EUR)"]) > 0, row
        assert row["where it is commonly sold"] and "http" not in row["where it is commonly sold"]
    parts = " ".join(r["part"].lower() for r in rows)
    buttons = next(r for r in rows if "button" in r["part"].lower())
    assert int(buttons["quantity"]) == len(pinout.load(PINOUT).buttons)
    for needed in ("rgb led", "buzzer", "transistor", "raspberry pi"):
        assert needed in parts
