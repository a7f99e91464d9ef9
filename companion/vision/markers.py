"""Reading ``hardware/markers.toml``: which ArUco markers lie around the board, and where.

Pure standard library (no OpenCV), so the configuration can be checked anywhere.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np


class MarkersError(Exception):
    """The markers file is missing or wrong; the message names the key."""


@dataclass(frozen=True)
class Marker:
    """One printed marker: its id in the dictionary, its black square's side and centre (hex units)."""

    id: int
    size: float
    x: float
    y: float
    where: str = ""

    def corners(self) -> list[tuple[float, float]]:
        """Its corners in the order OpenCV reports them: top left, top right, bottom right,
        bottom left (the marker's top towards the board's top row, y down)."""
        h = self.size / 2
        return [
            (self.x - h, self.y - h),
            (self.x + h, self.y - h),
            (self.x + h, self.y + h),
            (self.x - h, self.y + h),
        ]


@dataclass(frozen=True)
class MarkerLayout:
    """The whole set: the dictionary, the physical scale and every marker."""

    markers: tuple[Marker, ...]
    dictionary: str = "DICT_4X4_50"
    scale_mm_per_unit: float = 23.0
    quiet_zone_cells: float = 1.5
    verified: bool = False
    source: str = ""

    def fingerprint(self) -> str:
        """A short name for this layout: a calibration remembers it, so that one made with
        other markers (moved, resized, another scale) is noticed rather than trusted."""
        placed = sorted((m.id, m.size, m.x, m.y) for m in self.markers)
        text = repr((self.dictionary, self.scale_mm_per_unit, placed))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def by_id(self) -> dict[int, Marker]:
        return {m.id: m for m in self.markers}

    def board(self) -> dict[int, np.ndarray]:
        """Every marker's corners (`Marker.corners`) as a (4, 2) array, by id."""
        # numpy only here: the CLI, and so the daemon, imports this module for its layout and
        # errors, and a daemon with no camera need not carry numpy (about 10 MB of a Pi's RAM).
        import numpy as np

        return {m.id: np.array(m.corners(), np.float64) for m in self.markers}

    def quiet_zone(self, marker: Marker) -> float:
        """The white margin's width in hex units (a 4x4 marker is 6 cells wide)."""
        return self.quiet_zone_cells * marker.size / 6

    def extent(self) -> tuple[float, float, float, float]:
        """(left, top, right, bottom) of the markers with their margins and the hexes: the
        area a camera must see."""
        xs, ys = [-10.4, 10.4], [-10.0, 10.0]  # the hexes' own bounding box (spec §2 outline)
        for m in self.markers:
            h = m.size / 2 + self.quiet_zone(m)
            xs += [m.x - h, m.x + h]
            ys += [m.y - h, m.y + h]
        return min(xs), min(ys), max(xs), max(ys)


def default_path() -> Path:
    """A wheel carries a copy beside this module; a source checkout has the one in ``hardware/``."""
    packaged = Path(__file__).with_name("markers.toml")
    if packaged.is_file():
        return packaged
    return Path(__file__).resolve().parents[2] / "hardware" / "markers.toml"


def _number(table: dict[str, Any], key: str, where: str) -> float:
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise MarkersError(f"{where}: {key} must be a number, not {value!r}")
    return float(value)


def parse(data: dict[str, Any], where: str = "markers") -> MarkerLayout:
    markers = []
    for n, table in enumerate(data.get("marker", [])):
        here = f"{where}: marker #{n + 1}"
        ident = table.get("id")
        if isinstance(ident, bool) or not isinstance(ident, int) or not 0 <= ident < 50:
            raise MarkersError(f"{here}: id must be a whole number from 0 to 49 (DICT_4X4_50)")
        size = _number(table, "size", here)
        if size <= 0:
            raise MarkersError(f"{here}: size must be above 0")
        markers.append(
            Marker(
                ident,
                size,
                _number(table, "x", here),
                _number(table, "y", here),
                str(table.get("where", "")),
            )
        )
    if len({m.id for m in markers}) != len(markers):
        raise MarkersError(f"{where}: two markers share an id")
    if len(markers) < 4:
        raise MarkersError(f"{where}: at least 4 markers are needed, {len(markers)} given")
    if data.get("dictionary", "DICT_4X4_50") != "DICT_4X4_50":
        raise MarkersError(f"{where}: dictionary must be DICT_4X4_50")
    return MarkerLayout(
        tuple(markers),
        scale_mm_per_unit=_number(data, "scale_mm_per_unit", where),
        quiet_zone_cells=_number(data, "quiet_zone_cells", where),
        verified=bool(data.get("verified", False)),
        source=str(data.get("source", "")),
    )


def load(path: Path | None = None) -> MarkerLayout:
    """The layout in `path` (default: `default_path()`); MarkersError says what is wrong."""
    path = path or default_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MarkersError(f"no markers file at {path}") from None
    except OSError as e:
        raise MarkersError(f"cannot read {path}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise MarkersError(f"{path} is not valid TOML: {e}") from None
    return parse(data, str(path))
