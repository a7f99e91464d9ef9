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
    lens = _charuco_lens(args.lens_photos) if args.lens_photos else None
    try:
        calibration = recogniser.calibrate(_frame(args, cfg), layout, str(source), lens)
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


def _charuco_lens(paths: list[str]) -> Any:
    """The lens from photos of the printed ChArUco board (`lens.from_charuco`)."""
    import cv2

    from .lens import from_charuco

    photos = []
    for path in paths:
        photo = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
        if photo is None:
            raise VisionError(f"cannot read the image {path}")
        photos.append(photo)
    try:
        return from_charuco(photos)
    except ValueError as e:
        raise VisionError(str(e)) from None


def cmd_markers(args: argparse.Namespace) -> int:
    _cv()
    if args.charuco:
        return _write_charuco(Path(args.output))
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


def _write_charuco(output: Path) -> int:
    import cv2

    from .lens import CHARUCO_SQUARE_MM, CHARUCO_SQUARES, charuco_image

    if output.suffix.lower() != ".png":
        output = output.with_suffix(".png")
    ok, png = cv2.imencode(".png", charuco_image(dpi=300))
    if not ok:
        raise VisionError("cannot encode the ChArUco board")
    try:
        atomic_write(output, png.tobytes(), mode=0o644)
    except OSError as e:
        raise VisionError(f"cannot write {output}: {e.strerror}") from None
    cols, rows = CHARUCO_SQUARES
    print(
        f"Wrote {output}: a ChArUco board of {cols}x{rows} squares of {CHARUCO_SQUARE_MM:.0f} mm "
        "(300 dpi; print at 100 %). Photograph it flat, filling the frame, from 5 or more "
        "angles, then: companion vision calibrate --lens-photos PHOTO..."
    )
    return 0


SYNTHETIC_NOTE = """# Synthetic frames

Rendered by `companion vision record --synthetic`, not photographed: the renderer's board,
light and camera (companion/vision/synth.py). They stand in until real recordings exist; a
test reads them as it would read a real table's. Each frame's JSON says "mode": "synthetic".
"""


def _game_board(cfg: config.Config, game: int) -> dict[int, str]:
    """The land positions as the stored `game` stands now: terrain, or sea once sunk."""
    from .. import history
    from ..engine import Game
    from ..store import Store, StoreError

    if not cfg.store_path.exists():
        raise VisionError(f"no game log at {cfg.store_path}")
    store = Store(cfg.store_path)
    try:
        played = history.replay_game(store.game(game), store.log(game, everything=True))
    except StoreError as e:
        raise VisionError(str(e)) from None
    finally:
        store.close()
    if not isinstance(played, Game):
        raise VisionError(f"game {game} is not a Survive game: no island to record")
    terrain = played.state.terrain
    return {h: terrain[h] or "sea" for h in board.LAND}


def cmd_record(args: argparse.Namespace) -> int:
    """Save a labelled sequence (`recorded`'s form): frames from the camera, each with the
    board as the game's log has it at that moment — or, with --synthetic, a rendered game."""
    _cv()
    import time

    from . import recorded, synth

    output = Path(args.output)
    if output.exists() and any(output.iterdir()):
        raise VisionError(f"{output} is not empty: record into a new folder")
    if args.synthetic is not None:
        size = (640, 480) if args.small else (1280, 960)
        n = 0
        for sunk, state, shot in synth.game(args.synthetic, args.condition, size):
            shot.truth.mode = "synthetic"
            shot.truth.params["condition"] = args.condition
            name = f"{args.sequence}-{n:03}" + ("-setup" if n == 0 else "")
            recorded.save(output, name, shot.image, shot.truth, args.sequence, n == 0, ".jpg")
            n += 1
            if n >= args.frames:
                break
            del sunk, state
        (output / "README.md").write_text(SYNTHETIC_NOTE, encoding="utf-8")
        print(f"Wrote {n} synthetic frames to {output} (marked synthetic).")
        return 0
    if args.game is None:
        raise VisionError("say which game the frames show (--game N), or use --synthetic SEED")
    from .sources import SourceError, files, open_source

    cfg = config.load(args.config)
    try:
        source = files(Path(args.image)) if args.image else open_source(cfg["camera.source"])
    except SourceError as e:
        raise VisionError(str(e)) from None
    n = 0
    try:
        while n < args.frames:
            frame = source.read()
            if frame is None:
                break
            positions = _game_board(cfg, args.game)
            setup = n == 0 and all(t != "sea" for t in positions.values())
            truth = synth.Truth(positions, mode="recorded", params={"game": args.game})
            name = f"{args.sequence}-{n:03}" + ("-setup" if setup else "")
            recorded.save(output, name, frame, truth, args.sequence, setup, ".jpg")
            n += 1
            time.sleep(args.interval)
    finally:
        source.close()
    print(f"Wrote {n} frames to {output}, labelled from game {args.game}'s log.")
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
    ca.add_argument(
        "--lens-photos",
        nargs="+",
        metavar="PHOTO",
        help="photos of the printed ChArUco board (vision markers --charuco): the lens model "
        "from OpenCV's calibration instead of the board's estimate",
    )
    ca.add_argument("--json", action="store_true", help="print the calibration as JSON")
    ca.set_defaults(run=_guard(cmd_calibrate))

    re_ = with_config(
        group.add_parser("record", help="save labelled frames for the tests (recorded.py's form)")
    )
    re_.add_argument("--output", metavar="DIR", required=True, help="a new folder")
    re_.add_argument("--sequence", default="table", help="the frames' name (one board, one camera)")
    re_.add_argument("--frames", type=int, default=20, help="how many (default 20)")
    re_.add_argument("--interval", type=float, default=2.0, help="seconds between frames")
    re_.add_argument("--game", type=int, help="the stored game the frames show (their labels)")
    re_.add_argument("--image", metavar="PATH", help="photos instead of the configured camera")
    re_.add_argument("--synthetic", type=int, metavar="SEED", help="render a game instead")
    re_.add_argument("--condition", default="nominal", help="with --synthetic: synth condition")
    re_.add_argument("--small", action="store_true", help="with --synthetic: 640x480")
    re_.set_defaults(run=_guard(cmd_record))

    ma = group.add_parser("markers", help="write the printable marker sheet (SVG, A4)")
    ma.add_argument("--markers", metavar="FILE", help=markers_help)
    ma.add_argument(
        "--output",
        metavar="FILE",
        default="markers.svg",
        help="SVG file; further pages get -2, -3 (default: markers.svg)",
    )
    ma.add_argument(
        "--charuco",
        action="store_true",
        help="write the ChArUco board for the lens's calibration instead (PNG)",
    )
    ma.set_defaults(run=_guard(cmd_markers))
