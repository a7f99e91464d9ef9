"""The ``vision`` section of ``companion bench``: accuracy on synthetic photos, time per frame.

Figures (accuracies are fractions of the 40 land positions over the frames that registered;
a refused frame is not judged, and how many registered is a figure of its own):

- ``vision.hex_accuracy_{normal,harsh}``: land against sea, per position.
- ``vision.terrain_accuracy_{normal,harsh}``: the terrain named right, per position that holds
  a tile (called sea counts as wrong).
- ``vision.frames_registered_{normal,harsh}``: share of frames whose markers were accepted.
- ``vision.frame_ms_{1280,640}``: registration and classification of one frame (grey
  conversion, markers, homography, sampling, verdicts) on one core, wall-clock: each of
  `TIMED_FRAMES` fresh frames timed once, the first time the recogniser sees it, then the
  median over the frames (on a shared machine the other processes' load is in it).

Each mode is `FRAMES` photos at 1280×960 on islands of 10 (a new board printing, layout and
setup photo each; calibrated from the setup photo with its layout known, a new setup photo
taken when one is refused). Deterministic in the seed.

The turn figures play `GAMES` whole harsh games (`synth.game`: a camera fixed for the game, 40
turns, one tile sunk a turn as the rules allow; each turn `HAND_FRAMES` photos with a hand over
the board, then `STILL_FRAMES` at rest) through a `Tracker` told the game's land and legal
candidates (B-20, B-21), the camera's exposure set after each frame as the watcher sets it
(`exposure.Exposure`). Each turn ends one of three ways, by the tracker's first verdict after
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

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import cv2
import numpy as np

from ..engine import board
from . import geometry, synth
from .classify import Calibration
from .exposure import Exposure
from .markers import MarkerLayout
from .markers import load as load_markers
from .recognise import NotRegistered, Recogniser
from .still import Stillness, patience
from .tracker import Tracker, Verdict

FRAMES = 200
PER_ISLAND_MODES = 10
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


def _calibrate(recogniser: Recogniser, island: synth.Island) -> tuple[Calibration | None, int]:
    """From the island's setup photo; when it is refused, from a new one (as people would
    take another), up to `SETUP_TRIES` photos."""
    shot = island.setup
    for attempt in range(SETUP_TRIES):
        try:
            return recogniser.calibrate(shot.image, island.layout), attempt + 1
        except NotRegistered:
            if island.retake is None:
                break
            shot = island.retake()
    return None, SETUP_TRIES


def accuracy(
    mode: str, frames: int = FRAMES, seed: int = SEED, size: tuple[int, int] = SIZE
) -> dict[str, float]:
    """The mode's figures (see the module's docstring), named without the frame size."""
    tally = tally_photos(mode, frames, seed, size, PER_ISLAND_MODES)
    return {
        f"vision.hex_accuracy_{mode}": tally.land_sea,
        f"vision.terrain_accuracy_{mode}": tally.terrain,
        f"vision.frames_registered_{mode}": tally.registered,
    }


@dataclass
class Photos:
    """What a condition's photos came to (see the module's docstring for each figure)."""

    setups: int = 0
    setups_accepted: int = 0
    frames: int = 0
    frames_registered: int = 0
    hexes: int = 0
    hexes_right: int = 0
    tiles: int = 0
    tiles_right: int = 0
    judged_under_arm: int = 0
    """Land positions under an arm (its band, hand or shadow: `_under_arm`) given a verdict."""
    wrong_sure_under_arm: int = 0
    """Of them, wrong with confidence ≥ 0.5."""
    hidden_under_arm: int = 0
    positions_hidden: int = 0
    """Land positions called hidden in registered frames (under an arm or not): not judged."""
    proposed: int = 0
    """Land positions of the setup photos that registered, proposed by the camera itself (no
    layout given: `calibrate.propose`)."""
    proposed_right: int = 0

    @property
    def setup_accepted(self) -> float:
        return round(self.setups_accepted / max(1, self.setups), 4)

    @property
    def registered(self) -> float:
        return round(self.frames_registered / max(1, self.frames), 4)

    @property
    def land_sea(self) -> float:
        return round(self.hexes_right / max(1, self.hexes), 5)

    @property
    def terrain(self) -> float:
        return round(self.tiles_right / max(1, self.tiles), 5)

    @property
    def hidden(self) -> float:
        return round(self.positions_hidden / max(1, len(geometry.LAND) * self.frames_registered), 4)

    @property
    def proposal(self) -> float:
        return round(self.proposed_right / max(1, self.proposed), 4)

    @property
    def wrong_sure_arm(self) -> float:
        return round(self.wrong_sure_under_arm / max(1, self.judged_under_arm), 4)


def _under_arm(params: dict[str, object]) -> set[int]:
    """The land positions the photo's arm, hand or their shadow covers (`synth.ARM_COVERS`)."""
    names = params.get("under_arm", [])
    return {board.parse(n) for n in names} if isinstance(names, list) else set()


def tally_photos(
    mode: str,
    frames: int,
    seed: int,
    size: tuple[int, int],
    per_island: int = 5,
) -> Photos:
    """`frames` photos of `mode` (a `synth` mode or condition) at `size`, on islands of
    `per_island`, each calibrated from its first setup photo that is accepted (up to
    `SETUP_TRIES`, as people would take another)."""
    markers = load_markers()
    out = Photos()
    for island in synth.islands(seed, frames, mode, size, per_island, layout=markers):
        try:  # the layout as the camera proposes it, for people to confirm
            proposal = Recogniser(markers).calibrate(island.setup.image)
            out.proposed += len(island.layout)
            out.proposed_right += sum(proposal.layout[h] == t for h, t in island.layout.items())
        except NotRegistered:
            pass
        recogniser = Recogniser(markers)
        calibration, tries = _calibrate(recogniser, island)
        out.setups += tries
        out.setups_accepted += calibration is not None
        recogniser.calibration = calibration
        for shot in island.shots:
            out.frames += 1
            if calibration is None:
                continue
            recogniser.forget()  # each photo is another moment of the game
            if shot.before is not None:  # the board before the arm reached in
                recogniser.observe(shot.before)
            observation = recogniser.observe(shot.image)
            if not observation.ok:
                continue
            out.frames_registered += 1
            arm = _under_arm(shot.truth.params)
            for h, verdict in observation.positions.items():
                truth = shot.truth.positions[h]
                if h in arm:
                    out.hidden_under_arm += verdict.hidden
                    if not verdict.hidden:
                        out.judged_under_arm += 1
                        wrong = verdict.land != (truth != "sea") or (
                            truth != "sea" and verdict.label != truth
                        )
                        out.wrong_sure_under_arm += wrong and verdict.confidence >= 0.5
                if verdict.hidden:
                    out.positions_hidden += 1
                    continue  # unsure is a verdict: not judged, counted apart
                out.hexes += 1
                out.hexes_right += verdict.land == (truth != "sea")
                if truth != "sea":
                    out.tiles += 1
                    out.tiles_right += verdict.label == truth
    return out


def frame_ms(size: tuple[int, int], frames: int = TIMED_FRAMES, seed: int = SEED) -> float:
    """Milliseconds of `Recogniser.observe` on photos of `size`, one core: each photo timed
    once, the first time the recogniser sees it (no repeat warms a cache for it), then the
    median over the photos. Photos of the ``all`` condition: a lens to undo, every impairment."""
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        samples = []
        for island in synth.islands(seed + 1, frames, "all", size):
            recogniser = Recogniser()
            # a refused setup photo is taken again, as people would
            recogniser.calibration = _calibrate(recogniser, island)[0]
            if recogniser.calibration is None:
                continue
            for shot in island.shots:
                t0 = time.perf_counter()
                recogniser.observe(shot.image)
                samples.append(time.perf_counter() - t0)
    finally:
        cv2.setNumThreads(threads)
    return round(1000 * float(np.median(samples)), 2) if samples else float("nan")


@dataclass(frozen=True)
class TurnNote:
    """A turn that did not end right: why, as far as the tracker can tell."""

    turn: int
    """1 for the first tile sunk."""
    tile: int
    """The hex whose tile truly sank."""
    outcome: str
    """``asked`` or ``wrong``."""
    cause: str
    """For a question, its `Verdict.reason` and how the sunk tile and the question's
    candidates looked (`Tracker.looks`); for a wrong turn, what was said instead."""


@dataclass
class Turns:
    """How turns ended, as the turn figures count them (see the module's docstring)."""

    right: int = 0
    asked: int = 0
    wrong: int = 0
    notes: list[TurnNote] = field(default_factory=list)
    """The turns asked about or wrong, in order."""

    def add(self, other: Turns) -> None:
        self.right += other.right
        self.asked += other.asked
        self.wrong += other.wrong
        self.notes += other.notes

    @property
    def turns(self) -> int:
        return self.right + self.asked + self.wrong


def _land(positions: dict[int, str]) -> list[int]:
    return [h for h, t in positions.items() if t != "sea"]


GamePhoto = tuple[int | None, dict[int, str], synth.Shot]
"""One photo of a game as `synth.game` gives it: the hex sunk this turn, the board, the photo."""


def play(
    seed: int,
    mode: str = "harsh",
    size: tuple[int, int] = SIZE,
    markers: MarkerLayout | None = None,
    exposure: bool = True,
    photos: Callable[[synth.Controls], Iterator[GamePhoto]] | None = None,
) -> Turns:
    """One synthetic game (`synth.game`) through a `Tracker`. After each turn the game follows
    the board as it truly is, as people confirm or correct the camera's proposal. With
    `exposure`, the camera's exposure is set from each frame as the watcher sets it
    (`Exposure`); without, the camera's auto exposure alone. As in the watcher, a frame that
    shows what the last one read did is not read again, nor one with something moving in it
    (`Stillness`, its patience that of a camera looking every half second). `photos`: the
    game's photos given the camera's controls, as `synth.game` takes them (default: rendered
    now; `tools/tracker_games.py` replays them)."""
    markers = markers or load_markers()
    recogniser = Recogniser(markers)
    tracker = Tracker(recogniser, STABLE_FRAMES)
    still = Stillness(patience(0.5))
    controls = synth.Controls()
    control = Exposure() if exposure else None
    tally = Turns()
    started = False
    shown: dict[int, str] = {}  # the board the photos show
    turn: int | None = None  # this turn's sunk hex (None while setting up)
    first: Verdict | None = None
    spurious: Verdict | None = None  # one nobody should have been given (setup, after the first)
    cause = ""  # how the first verdict's hexes looked when it was given
    turns = 0

    def close() -> None:
        nonlocal first, spurious
        if first is None or spurious or first.kind not in ("sunk", "question"):
            tally.wrong += 1
            said = f"said {what(first)}" if first else "said nothing"
            if spurious is not None:  # at setup, or after the turn's first verdict
                said += f", and also {what(spurious)}"
            note(turns, "wrong", said)
        elif first.kind == "question":
            tally.asked += 1
            note(turns, "asked", cause)
        else:
            tally.right += first.tile == turn
            tally.wrong += first.tile != turn
            if first.tile != turn:
                tile = board.name(first.tile) if first.tile is not None else "?"
                note(turns, "wrong", f"named {tile} ({cause})")
        if first is None:  # nothing proposed: people tell the game by hand
            tracker.expect(_land(shown), synth.legal_sinks(shown))
        first, spurious = None, None

    def what(verdict: Verdict) -> str:
        tile = "" if verdict.tile is None else f" {board.name(verdict.tile)}"
        return f"{verdict.kind}{tile}"

    def note(n: int, outcome: str, why: str) -> None:
        tally.notes.append(TurnNote(n, turn if turn is not None else -1, outcome, why))

    def looked(verdict: Verdict) -> str:
        hexes = [] if turn is None else [turn]
        hexes += [h for h in (verdict.tile, *verdict.alternatives) if h is not None]
        looks = ", ".join(
            f"{board.name(h)}{'*' if h == turn else ''} {tracker.looks(h)}"
            for h in dict.fromkeys(hexes)
        )
        return f"{verdict.reason}: {looks}" if verdict.reason else looks

    if photos is None:
        photos = functools.partial(synth.game, seed, mode, size, STILL_FRAMES, markers, HAND_FRAMES)
    for sunk, state, shot in photos(controls):
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
            turns += 1
        shown = state
        read, verdict = tracker.observe_at_rest(shot.image, still)
        if not read:
            continue
        if control is not None and tracker.observation is not None:
            before = controls.exposure_bias
            controls.exposure_bias = control.update(tracker.observation)
            if controls.exposure_bias != before:
                still.forget()
        if verdict is None:
            continue
        if turn is None or first is not None:
            spurious = spurious or verdict
        else:
            first, cause = verdict, looked(verdict)
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


SIZES = ((1280, 960), (640, 480))
CONDITION_FRAMES = 40
CONDITION_GAMES = 1
GAME_CONDITIONS = ("nominal", "arm", "all")
"""Whole games are long (40 turns of 8 photos): played for these conditions only."""


def conditions(
    frames: int = CONDITION_FRAMES,
    games: int = CONDITION_GAMES,
    seed: int = SEED,
    sizes: tuple[tuple[int, int], ...] = SIZES,
    names: tuple[str, ...] = tuple(synth.CONDITIONS),
) -> dict[str, float]:
    """Per condition and frame width W: ``vision.setup_accepted_C_W``,
    ``vision.frames_registered_C_W``, ``vision.land_sea_C_W``, ``vision.terrain_C_W`` (over
    the positions judged), ``vision.hidden_C_W`` (the share of positions called hidden, not
    judged: a tile showing another terrain than its own is hidden, so glare that turns a
    forest grey lowers this figure, not the terrain's), ``vision.proposed_C_W`` (the share of
    land positions that the camera's own proposal of the layout names right, on the first
    setup photo of each island when it registers); for
    ``arm`` also ``vision.arm_wrong_sure_W`` (wrong verdicts with confidence ≥ 0.5 among the
    positions under the arm that were judged) and ``vision.arm_hidden_W`` (the share called
    hidden); for `GAME_CONDITIONS`, ``vision.turn_accuracy_C_W`` and
    ``vision.question_rate_C_W`` over `games` whole games."""
    figures: dict[str, float] = {}
    for name in names:
        for size in sizes:
            w = size[0]
            p = tally_photos(name, frames, seed, size)
            figures[f"vision.setup_accepted_{name}_{w}"] = p.setup_accepted
            figures[f"vision.frames_registered_{name}_{w}"] = p.registered
            figures[f"vision.land_sea_{name}_{w}"] = p.land_sea
            figures[f"vision.terrain_{name}_{w}"] = p.terrain
            figures[f"vision.hidden_{name}_{w}"] = p.hidden
            figures[f"vision.proposed_{name}_{w}"] = p.proposal
            if name == "arm":
                figures[f"vision.arm_wrong_sure_{w}"] = p.wrong_sure_arm
                under = p.hidden_under_arm + p.judged_under_arm
                figures[f"vision.arm_hidden_{w}"] = round(p.hidden_under_arm / max(1, under), 4)
            if name in GAME_CONDITIONS and games:
                turns = turn_figures(name, games, seed, size)
                figures[f"vision.turn_accuracy_{name}_{w}"] = turns[f"vision.turn_accuracy_{name}"]
                figures[f"vision.question_rate_{name}_{w}"] = turns[f"vision.question_rate_{name}"]
    return figures


def run(frames: int = CONDITION_FRAMES, seed: int = SEED) -> dict[str, float]:
    figures = conditions(frames, seed=seed)
    figures["vision.frame_ms_1280"] = frame_ms((1280, 960), seed=seed)
    figures["vision.frame_ms_640"] = frame_ms((640, 480), seed=seed)
    return figures
