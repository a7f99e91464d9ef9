"""F-2 Research: what a Skyside Delver's research dice yield, and where the wild dice go.

Each die's icon is used once: currency is gained; every three breakthroughs raise a guild dial
by one; three or more dice of one guild's colour pay that guild's reward (the bonuses printed on
the artifact tiles placed by its dial). A wild die counts as one colour the player picks, once.

`research_options` lists what the roll can yield — the best first — each with a wild
assignment that gets it; `research` checks the assignment the player chose.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .box import BOX, BREAKTHROUGH, WILD, Box, currency_amount, research_face_ok
from .errors import RuleBroken

RULE = "F-2"
SET = 3
"""Dice of one colour that make a guild set (seed: 'tres o más dados')."""
BREAKTHROUGHS_PER_DIAL = 3
"""Breakthroughs that raise one guild dial by one (seed: 'tres resultados de Avance')."""


@dataclass(frozen=True)
class GuildSet:
    """Three or more dice of one guild's colour: that guild's artifacts pay out."""

    guild: str
    colour: str
    dice: int
    artifacts: int
    """Artifact tiles placed by the guild's dial (their printed bonuses are the reward)."""


@dataclass(frozen=True)
class Research:
    """What one research roll yields with one assignment of its wild dice."""

    faces: tuple[str, ...]
    wild: dict[str, tuple[int, ...]]
    """colour -> the wild dice (0-based positions in `faces`) counted as that colour."""
    currency: int
    breakthroughs: int
    dial_raises: int
    colours: dict[str, int]
    """Dice counted for each colour, wild dice included."""
    sets: tuple[GuildSet, ...]
    artifacts: int
    """Artifacts paid out over all sets."""
    wild_unused: tuple[int, ...]


@dataclass(frozen=True)
class ResearchOptions:
    """The best yield of a roll and every other distinct yield, each with its wild assignment."""

    best: Research
    alternatives: tuple[Research, ...]
    wild_dice: tuple[int, ...]


def research(
    faces: Sequence[str],
    wild: Mapping[str, Sequence[int]] | None = None,
    artifacts: Mapping[str, int] | None = None,
    dice: int | None = None,
    box: Box | None = None,
) -> Research:
    """F-2: the yield of `faces` with the wild dice assigned as `wild` (colour -> dice
    positions; a wild die left out counts for nothing). `artifacts`: guild -> artifact tiles
    placed by its dial. `dice`: how many dice the card rolls, if the caller wants it checked.
    RuleBroken("F-2") for a wild die counted twice, for two colours, a non-wild die assigned, …
    """
    box = box or BOX
    rolled = _check_faces(faces, dice, box)
    placed = _check_artifacts(artifacts, box)
    assignment = _check_wild(rolled, wild or {}, box)
    return _yield(rolled, assignment, placed, box)


def research_options(
    faces: Sequence[str],
    artifacts: Mapping[str, int] | None = None,
    dice: int | None = None,
    box: Box | None = None,
) -> ResearchOptions:
    """F-2: every distinct yield the wild dice allow, the best first: most artifacts paid out,
    then most guild sets, then the guilds' order. Each uses the fewest wild dice it needs."""
    box = box or BOX
    rolled = _check_faces(faces, dice, box)
    placed = _check_artifacts(artifacts, box)
    wilds = tuple(i for i, f in enumerate(rolled) if f == WILD)
    natural = Counter(f for f in rolled if f in box.colours)
    short = {c: max(0, SET - natural[c]) for c in box.colours if natural[c] < SET}
    outcomes: list[Research] = []
    # Only colours not already complete can be bought with wild dice; at most 2**4 subsets.
    for size in range(len(short) + 1):
        for chosen in itertools.combinations(short, size):
            if sum(short[c] for c in chosen) > len(wilds):
                continue
            spare = iter(wilds)
            assignment = {c: tuple(next(spare) for _ in range(short[c])) for c in chosen}
            outcomes.append(_yield(rolled, assignment, placed, box))
    order = {c: i for i, c in enumerate(box.colours)}

    def rank(r: Research) -> tuple[int, int, list[int]]:
        return (-r.artifacts, -len(r.sets), sorted(order[s.colour] for s in r.sets))

    outcomes.sort(key=rank)
    return ResearchOptions(best=outcomes[0], alternatives=tuple(outcomes[1:]), wild_dice=wilds)


def _yield(
    rolled: tuple[str, ...],
    wild: Mapping[str, Sequence[int]],
    artifacts: Mapping[str, int],
    box: Box,
) -> Research:
    colours = Counter(f for f in rolled if f in box.colours)
    for colour, dice in wild.items():
        colours[colour] += len(dice)
    breakthroughs = rolled.count(BREAKTHROUGH)
    sets = tuple(
        GuildSet(box.guild_of(c), c, colours[c], artifacts.get(box.guild_of(c), 0))
        for c in box.colours
        if colours[c] >= SET
    )
    used = {i for dice in wild.values() for i in dice}
    return Research(
        faces=rolled,
        wild={c: tuple(sorted(d)) for c, d in sorted(wild.items()) if d},
        currency=sum(currency_amount(f) or 0 for f in rolled),
        breakthroughs=breakthroughs,
        dial_raises=breakthroughs // BREAKTHROUGHS_PER_DIAL,
        colours={c: colours[c] for c in box.colours if colours[c]},
        sets=sets,
        artifacts=sum(s.artifacts for s in sets),
        wild_unused=tuple(i for i, f in enumerate(rolled) if f == WILD and i not in used),
    )


def _check_faces(faces: Sequence[str], dice: int | None, box: Box) -> tuple[str, ...]:
    rolled = tuple(faces)
    if dice is not None and len(rolled) != dice:
        raise RuleBroken(RULE, f"the card rolls {dice} research dice, {len(rolled)} faces given")
    if len(rolled) > box.research_dice:
        raise RuleBroken(
            RULE, f"the box has {box.research_dice} research dice, {len(rolled)} faces given"
        )
    known = {f.face for f in box.research_faces}
    for n, face in enumerate(rolled, start=1):
        if not isinstance(face, str) or not research_face_ok(face, box.colours):
            raise RuleBroken(RULE, f"die {n}: no research face {face!r}")
        # Only a verified die can refuse a face: an unverified file must not overrule the table.
        if box.research_verified and face not in known:
            raise RuleBroken(RULE, f"die {n}: the research die has no face {face!r}")
    return rolled


def _check_artifacts(artifacts: Mapping[str, int] | None, box: Box) -> dict[str, int]:
    placed = dict(artifacts or {})
    for guild, n in placed.items():
        if guild not in box.guilds:
            raise RuleBroken(RULE, f"no guild {guild!r}; guilds: {', '.join(box.guilds)}")
        if not isinstance(n, int) or n < 0:
            raise RuleBroken(RULE, f"{guild}: {n!r} artifacts")
    return placed


def _check_wild(
    rolled: tuple[str, ...], wild: Mapping[str, Sequence[int]], box: Box
) -> dict[str, tuple[int, ...]]:
    seen: dict[int, str] = {}
    out: dict[str, tuple[int, ...]] = {}
    for colour, dice in wild.items():
        if colour not in box.colours:
            raise RuleBroken(
                RULE,
                f"a wild die counts as a guild colour ({', '.join(box.colours)}), not {colour!r}",
            )
        for i in dice:
            if not isinstance(i, int) or not 0 <= i < len(rolled):
                raise RuleBroken(
                    RULE, f"no die at position {i!r} (from 0) in a roll of {len(rolled)} dice"
                )
            if rolled[i] != WILD:
                raise RuleBroken(
                    RULE, f"die {i + 1} shows {rolled[i]}, not wild: it keeps its face"
                )
            if i in seen:
                twice = "twice" if seen[i] == colour else f"as {seen[i]} and as {colour}"
                raise RuleBroken(
                    RULE, f"a wild die counts as one colour, once: die {i + 1} is counted {twice}"
                )
            seen[i] = colour
        out[colour] = tuple(dice)
    return out
