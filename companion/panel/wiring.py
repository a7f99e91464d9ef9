"""The GPIO panel's wiring diagram, drawn from ``hardware/pinout.toml``.

    python -m companion.panel.wiring            # rewrites hardware/wiring.svg
    python -m companion.panel.wiring --check    # exit status 1 if it is out of date

The drawing is the Pi's 40-pin header (pin 1 top left, odd pins on the left) with a wire from
each pin the panel uses to its part, and a list of every wire with what it goes to. It is a pure
function of the pinout, so the committed file can be compared byte for byte with a fresh one;
every header pin carries ``data-pin`` and ``data-name`` attributes so that a test can check the
numbers against gpiozero's own board data.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from .pinout import HEADER, Pinout, PinoutError, default_path, load

PITCH = 24
"""Vertical distance between two header rows."""
TOP = 104
"""y of the header's first row."""
LABEL = 64
"""Room for a pin's name beside the header."""
LANE = 12
"""Distance between two vertical wire runs."""
PART_W = 196
MARGIN = 20
TERMINAL = 18
"""Least distance between two terminals of a part."""
HEAD = 30
"""Room above a part's first terminal for its title."""
LINE = 17
"""Height of a line of the wire list."""
CHAR = 6.4
"""Width of an average character at the text size used (DejaVu Sans, 11 px), to size the page."""
SUBTITLE = (
    "The Raspberry Pi's 40-pin header seen from above, pin 1 (square) at the top left.",
    "Generated from {source}: change a pin there, then run python -m companion.panel.wiring.",
)

WIRE_COLOURS = {
    "roll": "#7b3294",
    "next": "#7b3294",
    "undo": "#7b3294",
    "red": "#d7191c",
    "green": "#1a9641",
    "blue": "#2c7bb6",
    "anode": "#008b8b",
    "signal": "#a6611a",
    "GND": "#222222",
    "5V": "#e31a1c",
    "3V3": "#fd8d3c",
}


@dataclass(frozen=True)
class Terminal:
    """One end of a wire: a part's connection to a header pin."""

    part: str
    label: str
    pin: int
    colour: str
    gpio: int | None


def row(pin: int) -> int:
    return (pin + 1) // 2


def column(pin: int) -> int:
    """0 for the odd pins (left), 1 for the even ones (right)."""
    return (pin + 1) % 2


def pin_y(pin: int) -> int:
    return TOP + (row(pin) - 1) * PITCH


def terminals(pinout: Pinout) -> dict[str, list[Terminal]]:
    """Every wire of each part, in the order of the part's pins down the header."""
    out: dict[str, list[Terminal]] = {}
    for part in pinout.parts:
        ends = [
            Terminal(
                part.key,
                w.name.upper() if part.key == "buttons" else w.name,
                w.header,
                WIRE_COLOURS.get(w.name, "#555555"),
                w.bcm,
            )
            for w in part.wires
        ]
        for pin in (part.ground, part.supply):
            if pin is not None:
                kind = HEADER[pin - 1]
                ends.append(Terminal(part.key, kind, pin, WIRE_COLOURS[kind], None))
        out[part.key] = sorted(ends, key=lambda t: (row(t.pin), t.pin))
    return out


def render(pinout: Pinout, source: str = "hardware/pinout.toml") -> str:
    """The SVG text of the diagram; `source` is how the pinout file is named in it."""
    ends = terminals(pinout)
    titles = {p.key: p.title for p in pinout.parts}
    # A part goes on the side where most of its pins are (ties: left).
    sides: dict[str, int] = {}
    for key, ts in ends.items():
        right = sum(column(t.pin) for t in ts)
        sides[key] = 1 if right * 2 > len(ts) else 0
    # Place the parts of each side down the page: each terminal level with its pin if it can be.
    placed: dict[str, tuple[int, list[int]]] = {}  # part -> (box top, terminal ys)
    bottom = TOP + 19 * PITCH
    for side in (0, 1):
        floor = TOP - HEAD - 8
        keys = sorted((k for k in ends if sides[k] == side), key=lambda k: pin_y(ends[k][0].pin))
        for key in keys:
            ys: list[int] = []
            for t in ends[key]:
                y = pin_y(t.pin)
                if ys and y < ys[-1] + TERMINAL:
                    y = ys[-1] + TERMINAL
                ys.append(y)
            shift = max(0, floor - (ys[0] - HEAD))
            ys = [y + shift for y in ys]
            placed[key] = (ys[0] - HEAD, ys)
            floor = ys[-1] + 16 + 6
            bottom = max(bottom, ys[-1] + 16)
    # Wires that cannot run straight get a vertical run of their own (a lane) on each side.
    lanes: dict[int, list[tuple[str, int]]] = {0: [], 1: []}  # side -> (part, index) in order
    crossing: list[tuple[str, int]] = []
    for key, ts in ends.items():
        for i, t in enumerate(ts):
            if column(t.pin) != sides[key]:
                crossing.append((key, i))
                lanes[column(t.pin)].append((key, i))
                lanes[sides[key]].append((key, i))
            elif placed[key][1][i] != pin_y(t.pin):
                lanes[sides[key]].append((key, i))
    for side in (0, 1):
        # Runs going up: the higher pin nearer the header; going down: the lower pin nearer.
        def order(item: tuple[str, int]) -> tuple[int, int]:
            key, i = item
            from_y, to_y = pin_y(ends[key][i].pin), placed[key][1][i]
            return (0, from_y) if to_y <= from_y else (1, -from_y)

        lanes[side].sort(key=order)
    n_left, n_right = len(lanes[0]), len(lanes[1])
    left_part_x = MARGIN
    left_edge = left_part_x + PART_W
    hx = left_edge + 28 + n_left * LANE + LABEL + 26  # the header's centre line
    right_edge = hx + 26 + LABEL + 28 + n_right * LANE
    width = right_edge + PART_W + MARGIN
    channel_top = max(bottom, TOP + 19 * PITCH + 24) + 8

    def lane_x(side: int, item: tuple[str, int]) -> int:
        i = lanes[side].index(item)
        if side == 0:
            return hx - 26 - LABEL - 14 - i * LANE
        return hx + 26 + LABEL + 14 + i * LANE

    def pin_x(pin: int) -> int:
        return hx - 12 if column(pin) == 0 else hx + 12

    out: list[str] = []
    # The wires, first, so that the header and the labels are drawn over their ends.
    wires: list[str] = []
    for key, ts in ends.items():
        side = sides[key]
        part_x = left_edge if side == 0 else right_edge
        for i, t in enumerate(ts):
            x0, y0, y1 = pin_x(t.pin), pin_y(t.pin), placed[key][1][i]
            if (key, i) in crossing:
                c = channel_top + crossing.index((key, i)) * LANE
                own, other = lane_x(column(t.pin), (key, i)), lane_x(side, (key, i))
                d = f"M{x0},{y0} H{own} V{c} H{other} V{y1} H{part_x}"
            elif y1 != y0:
                d = f"M{x0},{y0} H{lane_x(side, (key, i))} V{y1} H{part_x}"
            else:
                d = f"M{x0},{y0} H{part_x}"
            gpio = f' data-gpio="{t.gpio}"' if t.gpio is not None else ""
            wires.append(
                f'<path d="{d}" fill="none" stroke="{t.colour}" stroke-width="2.5" '
                f'stroke-linejoin="round" data-pin="{t.pin}"{gpio}/>'
            )
    lowest = channel_top + max(0, len(crossing) - 1) * LANE
    legend_top = max(lowest, bottom) + 40
    legend = _legend(pinout)
    height = legend_top + len(legend) * LINE + MARGIN
    subtitle = [line.format(source=source) for line in SUBTITLE]
    longest = max(
        [150 + len(text) * CHAR for _, text in legend] + [len(s) * CHAR for s in subtitle]
    )
    width = max(width, MARGIN * 2 + round(longest))

    out.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" '
        'font-size="11">'
    )
    out.append("<title>Atlantis companion: GPIO panel wiring</title>")
    out.append(
        f"<desc>Generated from {escape(source)} by python -m companion.panel.wiring; "
        "do not edit by hand.</desc>"
    )
    out.append(f'<rect width="{width}" height="{height}" fill="#ffffff"/>')
    out.append(
        f'<text x="{MARGIN}" y="30" font-size="17" font-weight="bold">'
        "Atlantis companion: GPIO panel wiring</text>"
    )
    for i, line in enumerate(subtitle):
        out.append(f'<text x="{MARGIN}" y="{50 + i * 15}" fill="#555555">{escape(line)}</text>')
    out.append('<g id="wires">')
    out += wires
    out.append("</g>")
    out += _header(hx, pinout)
    out.append('<g id="parts">')
    for key, ts in ends.items():
        top, ys = placed[key]
        out += _part(
            titles[key], ts, ys, top, left_part_x if sides[key] == 0 else right_edge, sides[key]
        )
    out.append("</g>")
    out.append(f'<g id="wire-list" transform="translate({MARGIN},{legend_top})">')
    out.append('<text y="-8" font-size="13" font-weight="bold">Every wire</text>')
    for i, (where, text) in enumerate(legend):
        out.append(
            f'<text y="{i * LINE + 10}"><tspan font-weight="bold">{escape(where)}</tspan>'
            f'<tspan x="150">{escape(text)}</tspan></text>'
        )
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _header(hx: int, pinout: Pinout) -> list[str]:
    used = {w.header: part.key for part, w in pinout.wires()}
    returns = {p for part in pinout.parts for p in (part.ground, part.supply) if p is not None}
    top, rows = TOP - 16, len(HEADER) // 2
    out = [
        '<g id="header">',
        f'<rect x="{hx - 26}" y="{top}" width="52" height="{(rows - 1) * PITCH + 32}" rx="4" '
        'fill="#1b1b1b"/>',
    ]
    for pin, name in enumerate(HEADER, start=1):
        x, y = (hx - 12 if column(pin) == 0 else hx + 12), pin_y(pin)
        lit = pin in used or pin in returns
        fill = "#f0c419" if lit else "#9a9a9a"
        shape = (
            f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}"/>'
            if pin == 1
            else f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}"/>'
        )
        if column(pin) == 0:
            label_x, anchor = hx - 32, "end"
        else:
            label_x, anchor = hx + 32, "start"
        weight = ' font-weight="bold"' if lit else ""
        colour = "#000000" if lit else "#777777"
        out.append(
            f'<g data-pin="{pin}" data-name="{name}">{shape}'
            f'<text x="{x}" y="{y + 3}" font-size="7.5" text-anchor="middle">{pin}</text>'
            f'<text x="{label_x}" y="{y + 4}" text-anchor="{anchor}" fill="{colour}"{weight} '
            f'stroke="#ffffff" stroke-width="3" paint-order="stroke">{name}</text></g>'
        )
    out.append("</g>")
    return out


def _part(title: str, ts: list[Terminal], ys: list[int], top: int, x: int, side: int) -> list[str]:
    height = ys[-1] - top + 16
    edge = x + PART_W if side == 0 else x
    out = [
        f"<g data-part={quoteattr(title)}>",
        f'<rect x="{x}" y="{top}" width="{PART_W}" height="{height}" rx="6" fill="#f4f7fb" '
        'stroke="#4a6785" stroke-width="1.5"/>',
        f'<text x="{x + 10}" y="{top + 17}" font-size="12.5" font-weight="bold">'
        f"{escape(title)}</text>",
    ]
    for t, y in zip(ts, ys, strict=True):
        where = f"GPIO{t.gpio} (pin {t.pin})" if t.gpio is not None else f"pin {t.pin}"
        text_x, anchor = (edge - 10, "end") if side == 0 else (edge + 10, "start")
        out.append(
            f'<circle cx="{edge}" cy="{y}" r="3.5" fill="{t.colour}"/>'
            f'<text x="{text_x}" y="{y + 4}" text-anchor="{anchor}">'
            f"{escape(t.label)}: {where}</text>"
        )
    out.append("</g>")
    return out


def _legend(pinout: Pinout) -> list[tuple[str, str]]:
    lines: list[tuple[str, str]] = []
    for part in pinout.parts:
        for w in part.wires:
            name = f"{part.title}, {w.name}"
            lines.append((f"GPIO{w.bcm} (pin {w.header})", f"{name}: {w.wired_to}"))
        for pin in (part.ground, part.supply):
            if pin is not None:
                lines.append((f"{HEADER[pin - 1]} (pin {pin})", f"{part.title}: {part.wired_to}"))
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m companion.panel.wiring",
        description="Draw the GPIO panel's wiring diagram from its pinout file.",
    )
    ap.add_argument("--pinout", help="the pinout file (default: hardware/pinout.toml)")
    ap.add_argument("--output", help="the SVG to write (default: wiring.svg beside the pinout)")
    ap.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if the SVG is out of date"
    )
    args = ap.parse_args(argv)
    path = Path(args.pinout) if args.pinout else default_path()
    output = Path(args.output) if args.output else path.with_name("wiring.svg")
    try:
        svg = render(load(path), args.pinout or "hardware/pinout.toml").encode()
    except PinoutError as e:
        print(f"wiring: {e}", file=sys.stderr)
        return 2
    if args.check:
        if not output.is_file() or output.read_bytes() != svg:
            print(f"wiring: {output} is out of date: run python -m companion.panel.wiring")
            return 1
        print(f"wiring: {output} is up to date")
        return 0
    output.write_bytes(svg)
    print(f"wiring: wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
