"""The ``vision`` section of ``companion bench``: accuracy on synthetic photos, time per frame.

Figures (accuracies are fractions of the 40 land positions over the frames that registered;
a refused frame is not judged, and how many registered is a figure of its own):

- ``vision.hex_accuracy_{normal,harsh}``: land against sea, per position.
- ``vision.terrain_accuracy_{normal,harsh}``: the terrain named right, per position that holds
  a tile (called sea counts as wrong).
- ``vision.frames_registered_{normal,harsh}``: share of frames whose markers were accepted.
- ``vision.frame_ms_{1280,640}``: registration and classification of one frame (grey
  conversion, markers, homography, sampling, verdicts) on one core: the best of 3 runs of
  each of `TIMED_FRAMES` frames, then the median over the frames.

Each mode is `FRAMES` photos at 1280×960 in sessions of 10 (a new board printing, layout and
setup photo each; calibrated from the setup photo with its layout known, a new setup photo
taken when one is refused). Deterministic in the seed.

The turn figures play `GAMES` whole harsh games (`synth.game`: a camera fixed for the game, 40
turns, one tile sunk a turn as the rules allow; each turn `HAND_FRAMES` photos with a hand over
the board, then `STILL_FRAMES` at rest) through a `Tracker` told the game's land and legal
candidates (B-20, B-21). Each turn ends one of three ways, by the tracker's first verdict after
the tile left: *right* (``sunk`` naming that tile, and nothing more said that turn), *asked* (a
``question``, whichever tile it names first) or *wrong* (``sunk`` naming another tile, ``out_of_sync``
or ``in_sync``, no verdict at all, or any further verdict in the turn, setup photos included
for the first turn). After each turn the game follows the true board, as people confirming or
correcting the phone would make it.

- ``vision.turn_accuracy_harsh``: right / (right + wrong): of the turns the camera did not
  ask about, the share it named right.
- ``vision.question_rate_harsh``: asked / all turns.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import cv2
import numpy as np

from . import synth
from .classify import Calibration
from .markers import MarkerLayout
from .markers import load as load_markers
from .recognise import NotRegistered, Recogniser
from .tracker import Tracker, Verdict

FRAMES = 200
SIZE = (1280, 960)
SEED = 2024
SETUP_TRIES = 5
TIMED_FRAMES = 40
GAMES = 10
STABLE_FRAMES = 3
STILL_FRAMES = 2 * STABLE_FRAMES
"""Photos of the board at rest per turn: a camera takes several a second, a turn lasts tens of
seconds; after the verdict the rest show that the tracker keeps quiet once the game caught up."""
HAND_FRAMES = 2


def _calibrate(
    recogniser: Recogniser,
    session: synth.Session,
    mode: str,
    size: tuple[int, int],
    markers: MarkerLayout,
    seed: int,
    index: int,
) -> Calibration | None:
    """From the session's setup photo; when it is refused, from a new one (as people would
    take another), up to `SETUP_TRIES` photos."""
    shot = session.setup
    for attempt in range(SETUP_TRIES):
        try:
            return recogniser.calibrate(shot.image, session.layout)
        except NotRegistered:
            rng = np.random.default_rng([seed, index, attempt, 77])
            pieces = synth.random_pieces(rng, session.layout)
            shot = synth.render(rng, session.layout, pieces, size, mode, markers, session.colours)
    return None


def accuracy(
    mode: str, frames: int = FRAMES, seed: int = SEED, size: tuple[int, int] = SIZE
) -> dict[str, float]:
    markers = load_markers()
    hexes = hexes_right = tiles = tiles_right = registered = seen = 0
    for index, session in enumerate(synth.sessions(seed, frames, mode, size, layout=markers)):
        recogniser = Recogniser(markers)
        recogniser.calibration = _calibrate(recogniser, session, mode, size, markers, seed, index)
        for shot in session.shots:
            seen += 1
            if recogniser.calibration is None:
                continue
            observation = recogniser.observe(shot.image)
            if not observation.ok:
                continue
            registered += 1
            for h, verdict in observation.positions.items():
                truth = shot.truth.positions[h]
                hexes += 1
                hexes_right += verdict.land == (truth != "sea")
                if truth != "sea":
                    tiles += 1
                    tiles_right += verdict.label == truth
    return {
        f"vision.hex_accuracy_{mode}": round(hexes_right / max(1, hexes), 5),
        f"vision.terrain_accuracy_{mode}": round(tiles_right / max(1, tiles), 5),
        f"vision.frames_registered_{mode}": round(registered / max(1, seen), 4),
    }


def frame_ms(size: tuple[int, int], frames: int = TIMED_FRAMES, seed: int = SEED) -> float:
    """Milliseconds of `Recogniser.observe` on normal photos of `size`, one core (see above)."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        samples = []
        for session in synth.sessions(seed + 1, frames, "normal", size):
            recogniser = Recogniser()
            recogniser.calibration = recogniser.calibrate(session.setup.image, session.layout)
            for shot in session.shots:
                runs = []
                for _ in range(3):
                    t0 = time.perf_counter()
                    recogniser.observe(shot.image)
                    runs.append(time.perf_counter() - t0)
                # best of 3: another process taking the core for a moment is not the frame's cost
                samples.append(min(runs))
    finally:
        cv2.setNumThreads(threads)
    return round(1000 * float(np.median(samples)), 2)


@dataclass
class Turns:
    """How turns ended, as the turn figures count them (see the module's docstring)."""

    right: int = 0
    asked: int = 0
    wrong: int = 0

    def add(self, other: Turns) -> None:
        self.right += other.right
        self.asked += other.asked
        self.wrong += other.wrong

    @property
    def turns(self) -> int:
        return self.right + self.asked + self.wrong


def _land(positions: dict[int, str]) -> list[int]:
    return [h for h, t in positions.items() if t != "sea"]


def play(
    seed: int,
    mode: str = "harsh",
    size: tuple[int, int] = SIZE,
    markers: MarkerLayout | None = None,
) -> Turns:
    """One synthetic game (`synth.game`) through a `Tracker`. After each turn the game follows
    the board as it truly is, as people confirm or correct the camera's proposal."""
    markers = markers or load_markers()
    recogniser = Recogniser(markers)
    tracker = Tracker(recogniser, STABLE_FRAMES)
    tally = Turns()
    started = False
    shown: dict[int, str] = {}  # the board the photos show
    turn: int | None = None  # this turn's sunk hex (None while setting up)
    first: Verdict | None = None
    spurious = False  # a verdict nobody should have been given (setup, or after the first)

    def close() -> None:
        nonlocal first, spurious
        if first is None or spurious or first.kind not in ("sunk", "question"):
            tally.wrong += 1
        elif first.kind == "question":
            tally.asked += 1
        else:
            tally.right += first.tile == turn
            tally.wrong += first.tile != turn
        if first is None:  # nothing proposed: people tell the game by hand
            tracker.expect(_land(shown), synth.legal_sinks(shown))
        first, spurious = None, False

    for sunk, state, shot in synth.game(seed, mode, size, STILL_FRAMES, markers, HAND_FRAMES):
        if not started:  # the game begins with the island laid
            started = True
            tracker.expect(_land(state), synth.legal_sinks(state))
        if sunk is None and recogniser.calibration is None:
            try:  # from the first setup photo that registers, the layout known
                recogniser.calibration = recogniser.calibrate(shot.image, state)
                continue
            except NotRegistered:
                pass
        if sunk != turn:
            if turn is not None:
                close()
            turn = sunk
        shown = state
        verdict = tracker.observe(shot.image)
        if verdict is None:
            continue
        if turn is None or first is not None:
            spurious = True
        else:
            first = verdict
            tracker.expect(_land(state), synth.legal_sinks(state))
    close()
    return tally


def turn_figures(
    mode: str = "harsh", games: int = GAMES, seed: int = SEED, size: tuple[int, int] = SIZE
) -> dict[str, float]:
    total = Turns()
    markers = load_markers()
    for g in range(games):
        total.add(play(seed + g, mode, size, markers))
    return {
        f"vision.turn_accuracy_{mode}": round(total.right / max(1, total.right + total.wrong), 4),
        f"vision.question_rate_{mode}": round(total.asked / max(1, total.turns), 4),
    }


def run(frames: int = FRAMES, seed: int = SEED) -> dict[str, float]:
    figures: dict[str, float] = {}
    for mode in synth.MODES:
        figures.update(accuracy(mode, frames, seed))
    figures["vision.frame_ms_1280"] = frame_ms((1280, 960), seed=seed)
    figures["vision.frame_ms_640"] = frame_ms((640, 480), seed=seed)
    figures.update(turn_figures("harsh", seed=seed))
    return figures
