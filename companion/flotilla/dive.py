"""F-1 Dive: the dive dice a Sinkside Delver rolls, and what the rolled faces do.

The player rolls (or the companion rolls, see `dice`) and the faces are entered here. Results
resolve "in any order" (seed), so a barrel may always go to a skiff whose tile is depleted by a
depletion result of the same roll: the barrel is taken first. Barrel targets are therefore the
skiffs on tiles that were not depleted when the dice were rolled.

Where the player chooses (which skiff gets each barrel, which tile gets each depletion marker),
`dive` returns the options and leaves the choice open until it is passed back in; then it checks
the choice and returns the skiffs as they are after the dive.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from .box import BOX, DIVE_ICONS, Box
from .errors import RuleBroken

RULE = "F-1"
SONAR = "sonar"


@dataclass(frozen=True)
class Skiff:
    """One of the diver's skiffs on an ocean tile. `tile` is the table's name for the tile
    (two skiffs on one tile share it); `resource` is the colour of the tile's barrels."""

    tile: str
    depth: int
    resource: str
    depleted: bool = False
    barrels: int = 0
    """Barrels aboard (cargo), of any colour."""


@dataclass(frozen=True)
class DiveDie:
    """A die to roll: its kind (by depth) and the skiff it is rolled for (None: the card's)."""

    depth: int
    skiff: int | None


@dataclass(frozen=True)
class Depletion:
    """Where the depletion markers of a dive may go (one marker per depletion result beyond the
    first). Each marker goes on a different non-depleted tile: first on tiles where the diver has
    skiffs; only when there are more markers than such tiles, on the diver's other tiles."""

    results: int
    """Depletion results rolled (sonar included)."""
    markers: int
    skiff_tiles: tuple[str, ...]
    on_skiff_tiles: int
    """How many markers go on `skiff_tiles`."""
    other_tiles: tuple[str, ...]
    on_other_tiles: int
    unplaced: int
    """Markers for which no non-depleted tile is left."""

    @property
    def choice(self) -> bool:
        """Whether the player must say which tiles get the markers."""
        return 0 < self.on_skiff_tiles < len(self.skiff_tiles) or (
            0 < self.on_other_tiles < len(self.other_tiles)
        )


@dataclass(frozen=True)
class Dive:
    """A resolved dive. `barrels_placed` and `depleted` are None while the player still has to
    choose among `barrel_options` / the `depletion` candidates; `skiffs` is None until both are
    settled."""

    dice: tuple[DiveDie, ...]
    faces: tuple[tuple[str, ...], ...]
    sonar: tuple[str, ...]
    """The icons of the sonar track's current space, which every sonar result counts as."""
    icons: dict[str, int]
    """Results after the sonar substitution (icon -> how many)."""
    barrels: int
    barrel_room: tuple[int, ...]
    """Per skiff: how many more barrels it may take now (0 on a depleted tile)."""
    barrel_options: tuple[tuple[int, ...], ...]
    """Every legal placement: barrels added per skiff, in the order of the skiffs given."""
    barrels_placed: tuple[int, ...] | None
    barrels_lost: int
    """Barrel results for which no skiff had room."""
    gained: dict[str, int] | None
    """Barrels gained per resource colour (each of its skiff's tile's colour)."""
    toxicity: int
    """Steps of the upper toxicity tracker."""
    survivor: int
    """Steps of the survivor disc (the table gives the bonuses landed on or passed)."""
    depletion: Depletion
    depleted: tuple[str, ...] | None
    """Tiles that get a depletion marker."""
    other: dict[str, int]
    """Sonar icons this module does not resolve (the table hands them out)."""
    skiffs: tuple[Skiff, ...] | None

    @property
    def complete(self) -> bool:
        return self.skiffs is not None


def dive_dice(
    skiffs: Sequence[Skiff], card_dice: Sequence[int] = (), box: Box | None = None
) -> tuple[DiveDie, ...]:
    """F-1: the dice to roll: one per skiff on a non-depleted tile, of that tile's depth, in the
    order of `skiffs`; then those the Delver card grants (`card_dice`: their depths)."""
    box = box or BOX
    _check_skiffs(skiffs, box)
    for depth in card_dice:
        _check_depth(depth, "the Delver card's die", box)
    dice = [DiveDie(s.depth, i) for i, s in enumerate(skiffs) if not s.depleted]
    if len(dice) + len(card_dice) > box.dive_dice:
        raise RuleBroken(
            RULE, f"the box has {box.dive_dice} dive dice, not {len(dice) + len(card_dice)}"
        )
    return (*dice, *(DiveDie(d, None) for d in card_dice))


def check_other_tiles(skiffs: Sequence[Skiff], other_tiles: Sequence[str]) -> tuple[str, ...]:
    """The diver's other tiles (non-depleted, without a skiff: where depletion markers go once
    the skiffs' tiles are marked), each named once; RuleBroken("F-1") otherwise."""
    other = tuple(other_tiles)
    if len(set(other)) != len(other):
        raise RuleBroken(RULE, f"a tile is named twice among the other tiles: {list(other)}")
    if {s.tile for s in skiffs} & set(other):
        raise RuleBroken(RULE, "the other tiles are the diver's non-depleted tiles without a skiff")
    return other


def dive(
    skiffs: Sequence[Skiff],
    card_dice: Sequence[int],
    sonar: Sequence[str],
    faces: Sequence[Sequence[str]],
    barrels: Sequence[int] | None = None,
    depleted: Sequence[str] | None = None,
    other_tiles: Sequence[str] = (),
    box: Box | None = None,
) -> Dive:
    """F-1: resolve the faces rolled for `dive_dice(skiffs, card_dice)` (one face per die, in
    that order; a face is the list of its icons).

    `barrels`: the player's placement, barrels added per skiff (one of `barrel_options`).
    `depleted`: the tiles the player puts depletion markers on. `other_tiles`: the diver's
    non-depleted tiles without a skiff (for markers beyond the skiffs' tiles). RuleBroken("F-1")
    for anything the rules forbid.
    """
    box = box or BOX
    dice = dive_dice(skiffs, card_dice, box)
    rolled = _check_faces(dice, faces, box)
    sonar_icons = tuple(sonar)
    if SONAR in sonar_icons or not all(isinstance(i, str) and i for i in sonar_icons):
        raise RuleBroken(RULE, f"the sonar track's space shows icons, not {list(sonar_icons)}")
    icons: Counter[str] = Counter()
    for face in rolled:
        for icon in face:
            # F-1: a sonar result is whatever the sonar track's current space shows.
            icons.update(sonar_icons if icon == SONAR else (icon,))
    room = tuple(0 if s.depleted else box.skiff_capacity - s.barrels for s in skiffs)
    placeable = min(icons["barrel"], sum(room))
    options = barrel_options(room, placeable)
    placed = _check_barrels(skiffs, room, placeable, barrels, options, box)
    depletion = _depletion(skiffs, icons["depletion"], other_tiles)
    marked = _check_depleted(depletion, depleted)
    gained: dict[str, int] | None = None
    if placed is not None:
        colours: Counter[str] = Counter()
        for skiff, n in zip(skiffs, placed, strict=True):
            colours[skiff.resource] += n
        gained = {c: colours[c] for c in sorted(colours) if colours[c]}
    after = None
    if placed is not None and marked is not None:
        after = tuple(
            replace(s, barrels=s.barrels + n, depleted=s.depleted or s.tile in marked)
            for s, n in zip(skiffs, placed, strict=True)
        )
    return Dive(
        dice=dice,
        faces=rolled,
        sonar=sonar_icons,
        icons={k: icons[k] for k in sorted(icons) if icons[k]},
        barrels=icons["barrel"],
        barrel_room=room,
        barrel_options=options,
        barrels_placed=placed,
        barrels_lost=icons["barrel"] - placeable,
        gained=gained,
        toxicity=icons["toxicity"],
        survivor=icons["survivor"],
        depletion=depletion,
        depleted=marked,
        other={k: icons[k] for k in sorted(icons) if k not in DIVE_ICONS and icons[k]},
        skiffs=after,
    )


def barrel_options(room: Sequence[int], barrels: int) -> tuple[tuple[int, ...], ...]:
    """Every way to share `barrels` among skiffs with this much room each (most on the first
    skiffs first). At most 4 skiffs of room 0..4, so at most 625 candidates."""
    ranges = [range(r, -1, -1) for r in room]
    return tuple(p for p in itertools.product(*ranges) if sum(p) == barrels)


def _check_depth(depth: int, what: str, box: Box) -> None:
    if box.dive_kind(depth) is None:
        depths = [k.depth for k in box.dive_kinds]
        raise RuleBroken(RULE, f"{what} has depth {depth!r}; dive dice exist for depths {depths}")


def _check_skiffs(skiffs: Sequence[Skiff], box: Box) -> None:
    if len(skiffs) > box.skiffs_per_player:
        raise RuleBroken(RULE, f"a captain has {box.skiffs_per_player} skiffs, not {len(skiffs)}")
    tiles: dict[str, Skiff] = {}
    for i, s in enumerate(skiffs):
        _check_depth(s.depth, f"skiff {i + 1} (tile {s.tile})", box)
        if s.resource not in box.resources:
            raise RuleBroken(RULE, f"skiff {i + 1}: no resource colour {s.resource!r}")
        if not 0 <= s.barrels <= box.skiff_capacity:
            raise RuleBroken(
                RULE,
                f"a skiff holds at most {box.skiff_capacity} barrels; skiff {i + 1} has {s.barrels}",
            )
        same = tiles.setdefault(s.tile, s)
        if (same.depth, same.resource, same.depleted) != (s.depth, s.resource, s.depleted):
            raise RuleBroken(RULE, f"two skiffs on tile {s.tile} see different tiles")


def _check_faces(
    dice: tuple[DiveDie, ...], faces: Sequence[Sequence[str]], box: Box
) -> tuple[tuple[str, ...], ...]:
    if len(faces) != len(dice):
        raise RuleBroken(RULE, f"{len(dice)} dive dice are rolled, {len(faces)} faces were given")
    rolled: list[tuple[str, ...]] = []
    for n, (die, face) in enumerate(zip(dice, faces, strict=True), start=1):
        icons = tuple(face)
        unknown = [i for i in icons if i not in DIVE_ICONS]
        if unknown:
            raise RuleBroken(RULE, f"die {n}: dive dice show {list(DIVE_ICONS)}, not {unknown}")
        kind = box.dive_kind(die.depth)
        # Only a verified die can refuse a face: an unverified file must not overrule the table.
        if kind is not None and kind.verified and icons not in {f.icons for f in kind.faces}:
            raise RuleBroken(RULE, f"die {n} (depth {die.depth}) has no face {list(icons)}")
        rolled.append(icons)
    return tuple(rolled)


def _check_barrels(
    skiffs: Sequence[Skiff],
    room: tuple[int, ...],
    placeable: int,
    barrels: Sequence[int] | None,
    options: tuple[tuple[int, ...], ...],
    box: Box,
) -> tuple[int, ...] | None:
    if barrels is None:
        return options[0] if len(options) == 1 else None
    placed = tuple(barrels)
    if len(placed) != len(skiffs):
        raise RuleBroken(RULE, f"say the barrels for each of the {len(skiffs)} skiffs")
    for i, (s, n) in enumerate(zip(skiffs, placed, strict=True)):
        if n < 0:
            raise RuleBroken(RULE, f"skiff {i + 1}: {n} barrels")
        if n and s.depleted:
            raise RuleBroken(RULE, f"skiff {i + 1} is on a depleted tile ({s.tile}): no barrels")
        if n > room[i]:
            raise RuleBroken(
                RULE,
                f"a skiff holds at most {box.skiff_capacity} barrels: skiff {i + 1} has "
                f"{s.barrels} and cannot take {n} more",
            )
    if sum(placed) != placeable:
        raise RuleBroken(
            RULE, f"{placeable} barrels fit on the skiffs and must be taken, not {sum(placed)}"
        )
    return placed


def _depletion(skiffs: Sequence[Skiff], results: int, other_tiles: Sequence[str]) -> Depletion:
    skiff_tiles = tuple(dict.fromkeys(s.tile for s in skiffs if not s.depleted))
    other = check_other_tiles(skiffs, other_tiles)
    markers = max(0, results - 1)
    on_skiff = min(markers, len(skiff_tiles))
    on_other = min(markers - on_skiff, len(other))
    return Depletion(
        results=results,
        markers=markers,
        skiff_tiles=skiff_tiles,
        on_skiff_tiles=on_skiff,
        other_tiles=other,
        on_other_tiles=on_other,
        unplaced=markers - on_skiff - on_other,
    )


def _check_depleted(d: Depletion, depleted: Sequence[str] | None) -> tuple[str, ...] | None:
    if depleted is None:
        if d.choice:
            return None
        return d.skiff_tiles[: d.on_skiff_tiles] + d.other_tiles[: d.on_other_tiles]
    chosen = tuple(depleted)
    if len(set(chosen)) != len(chosen):
        raise RuleBroken(RULE, f"one depletion marker per tile: {list(chosen)}")
    on_skiff = [t for t in chosen if t in d.skiff_tiles]
    on_other = [t for t in chosen if t in d.other_tiles]
    stray = [t for t in chosen if t not in d.skiff_tiles and t not in d.other_tiles]
    if stray:
        raise RuleBroken(
            RULE, f"a depletion marker goes on one of your non-depleted tiles, not {stray}"
        )
    if len(on_skiff) != d.on_skiff_tiles or len(on_other) != d.on_other_tiles:
        raise RuleBroken(
            RULE,
            f"{d.markers} depletion markers (one per depletion beyond the first): "
            f"{d.on_skiff_tiles} on tiles with your skiffs, then {d.on_other_tiles} on your "
            f"other tiles; got {list(chosen)}",
        )
    return chosen
