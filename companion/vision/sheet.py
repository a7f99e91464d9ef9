"""The printable marker sheets (SVG, A4), drawn from ``hardware/markers.toml``.

Each marker is printed at its true size (hex units × the scale), its cells taken from OpenCV's
own dictionary so the print and the detector cannot disagree, with its white margin, its id,
where it goes and which edge is its top. Six fit on an A4 page; the last page also has a
placement map. Print at 100 % ("actual size"), then check the 100 mm scale bar.
"""

from __future__ import annotations

from .aruco import marker_bits
from .geometry import HEXES, centre, outline
from .markers import Marker, MarkerLayout

PAGE = (210.0, 297.0)  # A4 portrait, millimetres
PER_PAGE = 6
_FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'


def _num(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _marker(layout: MarkerLayout, m: Marker, x: float, y: float) -> list[str]:
    """One marker with its margin, its top-left margin corner at (x, y) mm."""
    scale = layout.scale_mm_per_unit
    side = m.size * scale
    cell = side / 6
    quiet = layout.quiet_zone(m) * scale
    out = [
        f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(side + 2 * quiet)}" '
        f'height="{_num(side + 2 * quiet)}" fill="white" stroke="#bbb" stroke-width="0.2" '
        'stroke-dasharray="1,1"/>'
    ]
    # The black square, then the white cells as one path: one fill has no seams between
    # neighbouring cells, where separate squares would show hairlines.
    out.append(
        f'<rect x="{_num(x + quiet)}" y="{_num(y + quiet)}" width="{_num(side)}" '
        f'height="{_num(side)}" fill="black"/>'
    )
    bits = marker_bits(m.id)
    cells = [
        f"M{_num(x + quiet + col * cell)} {_num(y + quiet + row * cell)}h{_num(cell)}"
        f"v{_num(cell)}h{_num(-cell)}z"
        for row in range(6)
        for col in range(6)
        if bits[row, col]
    ]
    if cells:
        out.append(f'<path d="{"".join(cells)}" fill="white"/>')
    mid = x + quiet + side / 2
    out.append(
        f'<text x="{_num(mid)}" y="{_num(y + quiet * 0.7)}" font-size="2.6" text-anchor="middle" '
        f"{_FONT}>▲ top</text>"
    )
    where = f"id {m.id}: {m.where}" if m.where else f"id {m.id}"
    at = f"centre {_num(m.x * scale)} mm, {_num(m.y * scale)} mm from the lagoon's centre"
    base = y + side + 2 * quiet
    out.append(f'<text x="{_num(x)}" y="{_num(base + 4)}" font-size="3.2" {_FONT}>{where}</text>')
    out.append(f'<text x="{_num(x)}" y="{_num(base + 8)}" font-size="2.6" {_FONT}>{at}</text>')
    return out


def _map(layout: MarkerLayout, x: float, y: float, width: float) -> list[str]:
    """A small plan of the board: hexes, lagoon and where each marker lies."""
    left, top, right, _ = layout.extent()
    k = width / (right - left)

    def px(bx: float, by: float) -> str:
        return f"{_num(x + (bx - left) * k)},{_num(y + (by - top) * k)}"

    out = [f'<text x="{_num(x)}" y="{_num(y - 3)}" font-size="3.2" {_FONT}>Placement</text>']
    for h in HEXES:
        points = " ".join(px(*p) for p in outline(*centre(h)))
        out.append(f'<polygon points="{points}" fill="#dde8f4" stroke="#8aa" stroke-width="0.15"/>')
    for m in layout.markers:
        points = " ".join(px(a, b) for a, b in m.corners())
        out.append(f'<polygon points="{points}" fill="black"/>')
        # the id just outside the marker, away from the board
        r = max(1e-6, (m.x**2 + m.y**2) ** 0.5)
        ax, ay = px(m.x * (1 + 2.0 / r), m.y * (1 + 2.0 / r) + 0.5).split(",")
        out.append(
            f'<text x="{ax}" y="{ay}" font-size="2.6" text-anchor="middle" {_FONT}>{m.id}</text>'
        )
    return out


def sheets(layout: MarkerLayout) -> list[str]:
    """The SVG pages, in order."""
    pages = []
    markers = list(layout.markers)
    chunks = [markers[i : i + PER_PAGE] for i in range(0, len(markers), PER_PAGE)]
    scale = layout.scale_mm_per_unit
    note = (
        "Not yet measured on a real board: check the scale and positions in markers.toml."
        if not layout.verified
        else "Measured on a real board."
    )
    for n, chunk in enumerate(chunks, 1):
        body = [
            f'<text x="15" y="14" font-size="4.5" {_FONT}>Atlantis companion: camera markers '
            f"(DICT_4X4_50), page {n} of {len(chunks)}</text>",
            f'<text x="15" y="19.5" font-size="2.8" {_FONT}>Print at 100 % (actual size). '
            f"Scale {_num(scale)} mm per hex unit. {note}</text>",
            '<rect x="15" y="23" width="100" height="2" fill="black"/>',
            f'<text x="118" y="25" font-size="2.8" {_FONT}>100 mm: measure it</text>',
        ]
        for k, m in enumerate(chunk):
            col, row = k % 2, k // 2
            side = (m.size + 2 * layout.quiet_zone(m)) * scale
            body += _marker(layout, m, 15 + col * max(95.0, side + 10), 32 + row * (side + 12))
        if n == len(chunks):
            rows = (len(chunk) + 1) // 2
            used = 32 + rows * ((chunk[0].size + 2 * layout.quiet_zone(chunk[0])) * scale + 12)
            if PAGE[1] - used > 90:
                body += _map(layout, 40, used + 10, 130)
        svg = (
            '<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(PAGE[0])}mm" '
            f'height="{_num(PAGE[1])}mm" viewBox="0 0 {_num(PAGE[0])} {_num(PAGE[1])}">\n'
            + "\n".join(body)
            + "\n</svg>\n"
        )
        pages.append(svg)
    return pages
