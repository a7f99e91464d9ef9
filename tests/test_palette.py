"""The players' colours on the phone page and the table screen (web/static/js/players.js): every
pair stays apart for protan, deutan and tritan eyes and in daylight, and the letters written on
each colour stay readable. Simulated with ColorAide (Brettel/Viénot colour-vision filters,
CIEDE2000 differences); daylight as a veil of 35 % white light over the screen."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

from coloraide import Color

PLAYERS_JS = Path(__file__).resolve().parent.parent / "web" / "static" / "js" / "players.js"
APART = 8.0
"""The least CIEDE2000 difference between two seats' colours: about twice what a glance at a
small pill across the table needs (≈ 4 is "noticeably different" side by side)."""
VISIONS = (None, "protan", "deutan", "tritan")
GLARE = (0.0, 0.35)


def palette() -> dict[str, str]:
    block = re.search(r"export const PALETTE = \{(.*?)\};", PLAYERS_JS.read_text(), re.S)
    assert block, "PALETTE not found in players.js"
    colours = dict(re.findall(r'(\w+): "(#[0-9A-Fa-f]{6})"', block.group(1)))
    assert set(colours) == {"red", "blue", "green", "yellow", "orange", "white"}, colours
    return colours


def dark_text() -> set[str]:
    found = re.search(r"const DARK_TEXT = new Set\(\[(.*?)\]\)", PLAYERS_JS.read_text())
    assert found, "DARK_TEXT not found in players.js"
    return {c.upper() for c in re.findall(r'"(#[0-9A-Fa-f]{6})"', found.group(1))}


def seen(colour: str, vision: str | None, glare: float) -> Color:
    c = Color(colour)
    if vision:
        c = c.filter(vision)
    if glare:
        c = c.mix("white", glare, space="srgb-linear")
    return c


def test_every_two_seats_stay_apart_for_colour_blind_eyes_and_in_daylight() -> None:
    colours = palette()
    closest = []
    for vision, glare in itertools.product(VISIONS, GLARE):
        for (a, ca), (b, cb) in itertools.combinations(colours.items(), 2):
            d = seen(ca, vision, glare).delta_e(seen(cb, vision, glare), method="2000")
            closest.append((round(d, 1), a, b, vision or "normal", glare))
    closest.sort()
    assert closest[0][0] >= APART, closest[:5]


def test_okabe_ito_vermillion_and_orange_were_too_close() -> None:
    """The measure itself can fail: the colours the page had before (Okabe–Ito's vermillion,
    orange, yellow, bluish green, blue) come out under the bar."""
    old = {
        "red": "#D55E00",
        "orange": "#E69F00",
        "yellow": "#F0E442",
        "green": "#009E73",
        "blue": "#0072B2",
    }
    least = min(
        seen(ca, v, g).delta_e(seen(cb, v, g), method="2000")
        for v, g in itertools.product(VISIONS, GLARE)
        for (_, ca), (_, cb) in itertools.combinations(old.items(), 2)
    )
    assert least < APART


def test_the_letters_on_each_colour_are_readable() -> None:
    """A pill's letters: dark ink on the light colours, white on the dark ones, 4.5:1 or more."""
    dark = dark_text()
    for name, colour in palette().items():
        ink = Color("#111111") if colour.upper() in dark else Color("white")
        ratio = Color(colour).contrast(ink, method="wcag21")
        assert ratio >= 4.5, (name, colour, ratio)
