"""F-5 Final scoring and F-6 the winner, with the reasons for every tie-break.

F-5: +1 VP per 5 currency left, +1 VP per 2 resources left, the VP (gained or lost) shown by the
toxicity penalty marker, and the guild seal awards (`seals`). F-6: most VP wins; ties go to lower
toxicity, then more crew cards, then more currency left; a tie that remains shares the victory.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .box import BOX, Box
from .errors import RuleBroken
from .seals import GuildAward, guild_award
from .values import Reason

CURRENCY_PER_VP = 5
RESOURCES_PER_VP = 2
"""Seed: '1 de cada 5 que te quedan', '1 por cada dos recursos que te quedan'."""


@dataclass(frozen=True)
class Tally:
    """A captain at the end of the last round, as the table tells it."""

    seat: int
    vp: int
    """Victory points gained during the game."""
    currency: int
    resources: int
    """Resources left (the companion does not decide whether cargo counts: the table does)."""
    toxicity: int
    """The toxicity compared by the tie-breaks (lower is better)."""
    crew: int
    """Crew cards."""
    seals: dict[str, int] = field(default_factory=dict)
    """guild -> seals placed."""
    penalty_space: int | None = None
    """Space of the score-penalty marker on the toxicity log (0 = leftmost), looked up in the
    data file's penalty values..."""
    penalty_vp: int | None = None
    """...or the VP printed under the marker, entered at the table. Give exactly one."""


@dataclass(frozen=True)
class Score:
    """One captain's final score, part by part."""

    seat: int
    vp: int
    currency: int
    resources: int
    toxicity: int
    """VP gained (positive) or lost (negative) by the toxicity penalty marker."""
    toxicity_verified: bool
    """False when `toxicity` came from the data file's unverified penalty values."""
    guilds: dict[str, int]
    total: int


@dataclass(frozen=True)
class Place:
    seat: int
    place: int
    total: int


@dataclass(frozen=True)
class FinalScore:
    """The scores, the guild awards, the ranking and every reason that decided it."""

    scores: tuple[Score, ...]
    guilds: tuple[GuildAward, ...]
    ranking: tuple[Place, ...]
    winners: tuple[int, ...]
    reasons: tuple[Reason, ...]
    """F-6 reasons, in the order the tie-breaks were applied (guild reasons are in `guilds`)."""
    unverified: tuple[str, ...]
    """Sources of unverified numbers this result used (for the phone to show)."""


Criterion = tuple[str, Callable[[int], int], bool]


def final_score(
    tallies: Sequence[Tally], second_ties: str = "toxicity", box: Box | None = None
) -> FinalScore:
    """F-5, F-6: score every captain and rank them. `second_ties`: see `seals`."""
    box = box or BOX
    by_seat = _check(tallies, box)
    seats = sorted(by_seat)
    toxicity = {s: by_seat[s].toxicity for s in seats}
    awards = tuple(
        guild_award(g, {s: by_seat[s].seals.get(g, 0) for s in seats}, toxicity, second_ties)
        for g in box.guilds
    )
    unverified: list[str] = []
    scores: list[Score] = []
    for s in seats:
        t = by_seat[s]
        if t.penalty_vp is not None:
            penalty, verified = t.penalty_vp, True
        else:
            assert t.penalty_space is not None  # _check saw to it
            penalty = box.toxicity_penalty[t.penalty_space]
            verified = box.is_verified("toxicity_penalty")
            if not verified:
                unverified.extend(src for name, src in box.unverified if name == "toxicity_penalty")
        guilds = {a.guild: a.vp(s) for a in awards if a.vp(s)}
        currency = t.currency // CURRENCY_PER_VP
        resources = t.resources // RESOURCES_PER_VP
        points = t.vp + currency + resources + penalty + sum(guilds.values())
        scores.append(Score(s, t.vp, currency, resources, penalty, verified, guilds, points))
    total = {sc.seat: sc.total for sc in scores}
    chain: list[Criterion] = [
        ("most VP", total.__getitem__, True),
        ("lower toxicity", toxicity.__getitem__, False),
        ("more crew cards", lambda s: by_seat[s].crew, True),
        ("more currency left", lambda s: by_seat[s].currency, True),
    ]
    groups, reasons = _rank(seats, chain)
    ranking: list[Place] = []
    place = 1
    for group in groups:
        ranking.extend(Place(s, place, total[s]) for s in group)
        place += len(group)
    return FinalScore(
        scores=tuple(scores),
        guilds=awards,
        ranking=tuple(ranking),
        winners=tuple(groups[0]),
        reasons=tuple(reasons),
        unverified=tuple(dict.fromkeys(unverified)),
    )


def _rank(seats: list[int], chain: list[Criterion]) -> tuple[list[list[int]], list[Reason]]:
    """F-6: split the seats by each criterion in turn, keeping why each split was made."""
    groups = [seats]
    why: list[Reason] = []
    for name, key, high in chain:
        split: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            values = sorted({key(s) for s in group}, reverse=high)
            parts = [[s for s in group if key(s) == v] for v in values]
            decided = len(parts) > 1
            text = (f"{name}: " if name == "most VP" else f"tie broken by {name}: ") + ", ".join(
                f"seat {s + 1} {key(s)}" for s in group
            )
            why.append(
                Reason(
                    rule="F-6",
                    criterion=name,
                    seats=tuple(group),
                    numbers={str(s): key(s) for s in group},
                    decided=decided,
                    text=text + ("" if decided else " (still tied)"),
                )
            )
            split.extend(parts)
        groups = split
    for group in groups:
        if len(group) > 1:
            names = ", ".join(str(s + 1) for s in group)
            why.append(
                Reason("F-6", "shared", tuple(group), {}, True, f"seats {names} share the place")
            )
    return groups, why


def _check(tallies: Sequence[Tally], box: Box) -> dict[int, Tally]:
    low, high = box.players
    if not low <= len(tallies) <= high:
        raise RuleBroken("F-5", f"Flotilla is for {low}-{high} players, not {len(tallies)}")
    by_seat: dict[int, Tally] = {}
    for t in tallies:
        if t.seat in by_seat or t.seat < 0:
            raise RuleBroken("F-5", f"seat {t.seat + 1} is scored twice or does not exist")
        by_seat[t.seat] = t
        for name in ("vp", "currency", "resources", "toxicity", "crew"):
            if getattr(t, name) < 0:
                raise RuleBroken("F-5", f"seat {t.seat + 1}: {name} {getattr(t, name)}")
        for guild, n in t.seals.items():
            if guild not in box.guilds:
                raise RuleBroken("F-5", f"no guild {guild!r}; guilds: {', '.join(box.guilds)}")
            if n < 0:
                raise RuleBroken("F-5", f"seat {t.seat + 1}: {n} {guild} seals")
        if (t.penalty_space is None) == (t.penalty_vp is None):
            raise RuleBroken(
                "F-5",
                f"seat {t.seat + 1}: give the toxicity penalty marker's space or its printed VP (one)",
            )
        spaces = len(box.toxicity_penalty)
        if t.penalty_space is not None and not 0 <= t.penalty_space < spaces:
            raise RuleBroken(
                "F-5",
                f"seat {t.seat + 1}: the toxicity log has spaces 0..{spaces - 1}, not {t.penalty_space}",
            )
    return by_seat
