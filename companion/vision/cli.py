"""``companion vision ...``: detect, calibrate and markers, for setting up and checking a camera.

OpenCV is imported only when a command runs, so ``companion --help`` and every other command
work on a machine without it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .. import config
from ..engine import board
from ..security import atomic_write
from .markers import MarkersError
from .markers import default_path as default_markers
from .markers import load as load_markers

CALIBRATION_NAME = "camera-calibration.json"
LOW = 0.5
"""Below this confidence a verdict is shown with a question mark: one to look at."""

DOUBTFUL_MARGIN = 0.45
"""A proposed position whose margin (log colour) is below this gets a question mark. On the
synthetic setup photos it marks every wrong proposal, and none to a few right ones in normal
light; re-measure on real photos."""

_SYMBOL = {"sea": "~", "beach": "B", "forest": "F", "mountain": "M", "land": "L"}


class VisionError(Exception):
    """The command cannot do its job; the message says why (exit status 1)."""


def _cv() -> None:
    try:
        import cv2  # noqa: F401
        import numpy  # noqa: F401
    except ImportError as e:
        raise VisionError(
            f"OpenCV is not importable ({e}): on the Pi `sudo apt install python3-opencv` "
            "(venv with --system-site-packages), elsewhere `pip install '.[vision]'`"
        ) from None


def calibration_path(cfg: config.Config) -> Path:
    """[camera] calibration, or the file of that name in the state directory."""
    configured = cfg["camera.calibration"]
    return Path(configured).expanduser() if configured else cfg.state_dir / CALIBRATION_NAME


def island_map(labels: dict[int, str], doubtful: set[int] | None = None) -> str:
    """The 40 land positions as text, rows as on the board: B, F, M, ~ (sea), ? when doubtful."""
    doubtful = doubtful or set()
    rows = sorted({board.CELLS[h][0] for h in board.LAND})
    lo = min(board.CELLS[h][1] for h in board.LAND)
    hi = max(board.CELLS[h][1] for h in board.LAND)
    lines = []
    for r in rows:
        cells = []
        for c in range(lo, hi + 1):
            h = board.INDEX.get((r, c))
            if h is None or h not in labels:
                cells.append("  . ")
            else:
                mark = "?" if h in doubtful else " "
                cells.append(f"  {_SYMBOL.get(labels[h], '*')}{mark}")
        shift = "  " if r % 2 == 0 else ""  # even rows sit half a hex to the right
        lines.append(f"{r:>2} {shift}{''.join(cells).rstrip()}")
    return "\n".join(lines)


def _frame(args: argparse.Namespace, cfg: config.Config) -> Any:
    """The frame to work on: --image, else one from the configured camera."""
    from .sources import SourceError, files, open_source

    try:
        source = files(Path(args.image)) if args.image else open_source(cfg["camera.source"])
    except SourceError as e:
        raise VisionError(str(e)) from None
    try:
        frame = source.read()
    finally:
        source.close()
    if frame is None:
        raise VisionError("the camera gave no frame")
    return frame


def _layout_markers(args: argparse.Namespace) -> Any:
    try:
        return load_markers(Path(args.markers) if args.markers else None)
    except MarkersError as e:
        raise VisionError(str(e)) from None


def cmd_detect(args: argparse.Namespace) -> int:
    _cv()
    from .calibrate import CalibrationError
    from .calibrate import load as load_calibration
    from .recognise import Recogniser

    cfg = config.load(args.config)
    calibration = None
    path = Path(args.calibration) if args.calibration else calibration_path(cfg)
    if args.calibration or path.is_file():
        try:
            calibration = load_calibration(path)
        except CalibrationError as e:
            raise VisionError(str(e)) from None
    recogniser = Recogniser(_layout_markers(args), calibration)
    observation = recogniser.observe(_frame(args, cfg))
    if args.json:
        print(json.dumps(observation.to_json(), indent=1))
    elif not observation.ok:
        print(f"frame refused: {observation.registration.reason}", file=sys.stderr)
    else:
        r = observation.registration
        print(
            f"markers {', '.join(map(str, r.markers))}; error {r.error:.3f} hex units; "
            f"{'calibrated' if calibration else 'no calibration: land or sea only'}"
        )
        positions = observation.positions
        doubtful = {h for h, v in positions.items() if v.confidence < LOW}
        print(island_map({h: v.label for h, v in positions.items()}, doubtful))
        blocked = observation.blocked_sea()
        if blocked:
            print(f"sea hexes hidden (pieces, a hand?): {', '.join(map(board.name, blocked))}")
    return 0 if observation.ok else 1


def cmd_calibrate(args: argparse.Namespace) -> int:
    _cv()
    from .calibrate import dumps, parse_layout
    from .recognise import NotRegistered, Recogniser

    cfg = config.load(args.config)
    layout = None
    if args.layout:
        try:
            layout = parse_layout(json.loads(Path(args.layout).read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            raise VisionError(f"the layout {args.layout}: {e}") from None
    recogniser = Recogniser(_layout_markers(args))
    source = args.image or cfg["camera.source"]
    try:
        calibration = recogniser.calibrate(_frame(args, cfg), layout, source=str(source))
    except NotRegistered as e:
        raise VisionError(f"the setup frame was refused: {e}") from None
    output = Path(args.output) if args.output else calibration_path(cfg)
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(output, dumps(calibration).encode(), mode=0o644)
    except OSError as e:
        raise VisionError(f"cannot write {output}: {e.strerror}") from None
    if args.json:
        print(dumps(calibration), end="")
        return 0
    doubtful = {h for h, m in calibration.margins.items() if m < DOUBTFUL_MARGIN}
    print(island_map(calibration.layout, doubtful))
    if calibration.confirmed:
        print(f"Wrote {output}: calibrated with the layout given.")
    else:
        print(
            f"Wrote {output}: the layout above is the camera's proposal (16 beach, 16 forest, "
            "8 mountain); ? marks the least clear. Check it against the board; if it is wrong, "
            'write the right one as JSON ({"3.4": "beach", ...}) and run again with --layout.'
        )
    return 0


def cmd_markers(args: argparse.Namespace) -> int:
    _cv()
    from .sheet import sheets

    layout = _layout_markers(args)
    pages = sheets(layout)
    output = Path(args.output)
    written = []
    for n, page in enumerate(pages, 1):
        path = output if n == 1 else output.with_name(f"{output.stem}-{n}{output.suffix}")
        try:
            atomic_write(path, page.encode(), mode=0o644)
        except OSError as e:
            raise VisionError(f"cannot write {path}: {e.strerror}") from None
        written.append(str(path))
    print(f"Wrote {', '.join(written)}: {len(layout.markers)} markers; print at 100 %.")
    if not layout.verified:
        print("note: the marker layout is not yet measured on a real board (markers.toml)")
    return 0


def _guard(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except VisionError as e:
            print(f"companion vision {args.vision_command}: {e}", file=sys.stderr)
            return 1

    return guarded


def add_parser(
    sub: Any, with_config: Callable[[argparse.ArgumentParser], argparse.ArgumentParser]
) -> None:
    """The ``vision`` group under the ``companion`` command's subparsers."""
    vision = sub.add_parser("vision", help="camera: detect the board, calibrate, print markers")
    group = vision.add_subparsers(dest="vision_command", required=True)
    markers_help = f"markers file (default: {default_markers()})"

    de = with_config(group.add_parser("detect", help="what the camera sees on one frame"))
    de.add_argument("--image", metavar="PATH", help="a photo (default: the configured camera)")
    de.add_argument(
        "--calibration",
        metavar="FILE",
        help="calibration file (default: [camera] calibration, else the state directory's)",
    )
    de.add_argument("--markers", metavar="FILE", help=markers_help)
    de.add_argument("--json", action="store_true", help="one JSON object, a verdict per position")
    de.set_defaults(run=_guard(cmd_detect))

    ca = with_config(
        group.add_parser("calibrate", help="learn the board's colours from a setup frame")
    )
    ca.add_argument("--image", metavar="PATH", help="a photo (default: the configured camera)")
    ca.add_argument(
        "--layout",
        metavar="FILE",
        help='JSON {"3.4": "beach", ...} of all 40 positions; without it the camera proposes one',
    )
    ca.add_argument(
        "--output",
        metavar="FILE",
        help="where to write (default: [camera] calibration, else the state directory)",
    )
    ca.add_argument("--markers", metavar="FILE", help=markers_help)
    ca.add_argument("--json", action="store_true", help="print the calibration as JSON")
    ca.set_defaults(run=_guard(cmd_calibrate))

    ma = group.add_parser("markers", help="write the printable marker sheet (SVG, A4)")
    ma.add_argument("--markers", metavar="FILE", help=markers_help)
    ma.add_argument(
        "--output",
        metavar="FILE",
        default="markers.svg",
        help="SVG file; further pages get -2, -3 (default: markers.svg)",
    )
    ma.set_defaults(run=_guard(cmd_markers))
