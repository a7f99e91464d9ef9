"""The table card: an A6 card to keep in the game box, to join the table by one scan.

It carries the Wi-Fi QR code with the network's name and password, the page's QR code and
address (``http://atlantis.local``, and the numeric one for phones that cannot resolve
``.local``), the table PIN, and three lines on the panel's buttons, in the table's language
(``[game] language``; the buttons keep the names printed on them). One layout (`layout`: boxes, text lines and QR modules in millimetres)
is written two ways: SVG (`svg`, no dependency) and PDF (`pdf`, with fpdf2: the ``card``
extra).

The PDF uses the PDF's own Helvetica, whose characters are Latin-1: every sentence of `TEXT`
must fit it (a test checks).
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import segno

from .identity import WifiNetwork

WIDTH, HEIGHT = 105.0, 148.0  # A6, mm
MARGIN = 7.0
QR_SIZE = 40.0
PT = 25.4 / 72  # one typographic point in mm
WRAP = 62
"""Characters per line at 8 pt across the card (Helvetica averages about half an em)."""
HEADING_WRAP = 24
"""Characters per line of a step's heading (9 pt bold), over its half of the card."""

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Survive: Escape from Atlantis!",
        "subtitle": "The table's companion: join with your phone, no app needed.",
        "wifi": "1. Join the table's Wi-Fi",
        "network": "Network",
        "password": "Password",
        "page": "2. Open the table's page",
        "or": "or",
        "pin": "Table PIN",
        "buttons": "The buttons beside the board",
        "roll": "ROLL: rolls the creature die, or draws what the table waits for.",
        "next": "NEXT: goes on without choosing (no tile played, movement over).",
        "undo": "UNDO: takes back the last move; held down, the whole turn.",
        "keep": "Keep this card in the box. A new password or PIN: print it again.",
    },
    "es": {
        "title": "Survive: Escape from Atlantis!",
        "subtitle": "El compañero de la mesa: únete con tu móvil, sin instalar nada.",
        "wifi": "1. Conéctate a la wifi de la mesa",
        "network": "Red",
        "password": "Contraseña",
        "page": "2. Abre la página de la mesa",
        "or": "o",
        "pin": "PIN de la mesa",
        "buttons": "Los botones junto al tablero",
        "roll": "ROLL: tira el dado de criatura, o saca lo que la mesa espera.",
        "next": "NEXT: sigue sin elegir (sin ficha jugada, fin del movimiento).",
        "undo": "UNDO: anula el último movimiento; mantenido, todo el turno.",
        "keep": "Guarda esta tarjeta en la caja. Nueva contraseña o PIN: imprímela otra vez.",
    },
    "fr": {
        "title": "Survive: Escape from Atlantis!",
        "subtitle": "Le compagnon de la table : rejoignez-la avec votre téléphone, sans appli.",
        "wifi": "1. Rejoignez le wifi de la table",
        "network": "Réseau",
        "password": "Mot de passe",
        "page": "2. Ouvrez la page de la table",
        "or": "ou",
        "pin": "PIN de la table",
        "buttons": "Les boutons à côté du plateau",
        "roll": "ROLL : lance le dé des créatures, ou tire ce que la table attend.",
        "next": "NEXT : continue sans choisir (pas de tuile jouée, fin du mouvement).",
        "undo": "UNDO : reprend le dernier coup ; maintenu, tout le tour.",
        "keep": "Gardez cette carte dans la boîte. Nouveau mot de passe ou PIN : réimprimez-la.",
    },
}


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    size: float  # pt
    text: str
    bold: bool = False
    mono: bool = False


@dataclass(frozen=True)
class Code:
    """A QR code: its text, where it sits and its dark modules as rows of runs."""

    data: str
    x: float
    y: float
    size: float
    runs: list[tuple[int, int, int]] = field(default_factory=list)  # (row, first column, length)
    modules: int = 0

    @property
    def module(self) -> float:
        return self.size / self.modules


@dataclass(frozen=True)
class Card:
    texts: list[Text]
    codes: list[Code]
    lines: list[tuple[float, float, float, float]]


def qr_code(data: str, x: float, y: float, size: float) -> Code:
    """`data` as a QR code (error correction M) with its quiet zone of 4 modules."""
    matrix = segno.make(data, error="m").matrix
    border = 4
    n = len(matrix) + 2 * border
    runs = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if row[c]:
                start = c
                while c < len(row) and row[c]:
                    c += 1
                runs.append((r + border, start + border, c - start))
            else:
                c += 1
    return Code(data, x, y, size, runs, n)


def layout(
    network: WifiNetwork,
    page_url: str,
    pin: str,
    language: str,
    name_url: str = "http://atlantis.local",
) -> Card:
    """The card for `network`, the page at `page_url` (numeric) and `name_url`, and `pin`."""
    t = TEXT[language]
    texts: list[Text] = []
    left, right = MARGIN + 1, WIDTH / 2 + 1.5
    texts.append(Text(MARGIN, 14, 13, t["title"], bold=True))
    y = 19.5
    for line in textwrap.wrap(t["subtitle"], WRAP):
        texts.append(Text(MARGIN, y, 8, line))
        y += 3.6
    top = y + 2
    for x, key in ((left, "wifi"), (right, "page")):
        for i, line in enumerate(textwrap.wrap(t[key], HEADING_WRAP)):
            texts.append(Text(x, top + 4 * i, 9, line, bold=True))
    codes = [
        qr_code(network.qr_data(), left - 3, top + 4, QR_SIZE),
        qr_code(page_url, right - 3, top + 4, QR_SIZE),
    ]
    y = top + 4 + QR_SIZE + 3
    texts += [
        Text(left, y, 8, f"{t['network']}:"),
        Text(left, y + 4.5, 10, network.ssid, bold=True, mono=True),
        Text(left, y + 9.5, 8, f"{t['password']}:"),
        Text(left, y + 14, 10, network.password, bold=True, mono=True),
        Text(
            right, y + 4.5, 10, name_url.removeprefix("http://").rstrip("/"), bold=True, mono=True
        ),
        Text(right, y + 9.5, 8, f"{t['or']}:"),
        Text(right, y + 14, 10, page_url.removeprefix("http://").rstrip("/"), bold=True, mono=True),
    ]
    y += 24
    texts.append(Text(MARGIN, y, 12, f"{t['pin']}: {pin}", bold=True))
    y += 4
    rules = [(MARGIN, y, WIDTH - MARGIN, y)]
    y += 6
    texts.append(Text(MARGIN, y, 9, t["buttons"], bold=True))
    y += 4.5
    for key in ("roll", "next", "undo"):
        for i, line in enumerate(textwrap.wrap(t[key], WRAP)):
            texts.append(Text(MARGIN + (3 if i else 0), y, 8, line))
            y += 3.8
        y += 0.6
    texts.append(Text(MARGIN, HEIGHT - MARGIN, 7, t["keep"]))
    return Card(texts, codes, rules)


# -- writers -----------------------------------------------------------------------------------


def svg(card: Card) -> str:
    """The card as an SVG document, sized in millimetres (prints at A6 at 100 %)."""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}mm" height="{HEIGHT}mm" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>',
    ]
    for x1, y1, x2, y2 in card.lines:
        out.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#000" stroke-width="0.3"/>'
        )
    for code in card.codes:
        m = code.module
        path = "".join(
            f"M{code.x + c * m:.3f} {code.y + r * m:.3f}h{n * m:.3f}v{m:.3f}h{-n * m:.3f}z"
            for r, c, n in code.runs
        )
        out.append(
            f'<path d="{path}" fill="#000" shape-rendering="crispEdges"><title>{escape(code.data)}</title></path>'
        )
    for t in card.texts:
        family = (
            "DejaVu Sans Mono, Courier, monospace" if t.mono else "Helvetica, Arial, sans-serif"
        )
        weight = ' font-weight="bold"' if t.bold else ""
        out.append(
            f'<text x="{t.x}" y="{t.y}" font-family="{family}" font-size="{t.size * PT:.3f}"'
            f"{weight}>{escape(t.text)}</text>"
        )
    out.append("</svg>\n")
    return "\n".join(out)


def pdf(card: Card) -> bytes:
    """The card as a one-page A6 PDF (fpdf2; ImportError says what to install)."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise ImportError(
            "the PDF card needs fpdf2: pip install 'atlantis-companion[card]' "
            "(or write an .svg card, which needs nothing)"
        ) from None
    doc: Any = FPDF(orientation="P", unit="mm", format=(WIDTH, HEIGHT))
    doc.set_margins(0, 0)
    doc.set_auto_page_break(False)
    doc.add_page()
    doc.set_title(card.texts[0].text)
    doc.set_line_width(0.3)
    for x1, y1, x2, y2 in card.lines:
        doc.line(x1, y1, x2, y2)
    doc.set_fill_color(0, 0, 0)
    for code in card.codes:
        m = code.module
        for r, c, n in code.runs:
            doc.rect(code.x + c * m, code.y + r * m, n * m, m, style="F")
    for t in card.texts:
        doc.set_font("Courier" if t.mono else "Helvetica", "B" if t.bold else "", t.size)
        doc.text(t.x, t.y, t.text)
    data: bytes = bytes(doc.output())
    return data


def write(card: Card, output: Path) -> None:
    """Write `card` to `output`: PDF or SVG, as its suffix says."""
    from ..security import atomic_write

    suffix = output.suffix.lower()
    if suffix == ".pdf":
        data = pdf(card)
    elif suffix == ".svg":
        data = svg(card).encode("utf-8")
    else:
        raise ValueError(f"{output}: the card is written as .pdf or .svg")
    atomic_write(output, data, mode=0o644)
