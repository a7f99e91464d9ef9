"""F-5 Guild seals at the end: per guild, most seals 10 VP, second most 5 VP.

No seals, no score. A tie for most seals is broken by lower toxicity; a tie that remains is
friendly: all tied get the 10 VP and then no second place is given. The seed states the
toxicity tie-break for the most seals only; for a tie for second most, `second_ties` chooses
between the same order ("toxicity", the default: lower toxicity, then friendly) and a friendly
tie at once ("friendly").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .errors import RuleBroken
from .values import Reason

RULE = "F-5"
MOST_VP = 10
SECOND_VP = 5
"""Seed: 'el jugador con más sellos en un gremio ganará 10 y el segundo más ganará 5'."""
SECOND_TIES = ("toxicity", "friendly")


@dataclass(frozen=True)
class GuildAward:
    """Who scores for one guild's seals, and why."""

    guild: str
    seals: dict[str, int]
    """seat (as a string) -> seals placed in this guild."""
    most: tuple[int, ...]
    second: tuple[int, ...]
    friendly: bool
    """A friendly tie for most seals: all of `most` get 10 VP and nobody gets 5."""
    reasons: tuple[Reason, ...]

    def vp(self, seat: int) -> int:
        if seat in self.most:
            return MOST_VP
        return SECOND_VP if seat in self.second else 0


def guild_award(
    guild: str,
    seals: Mapping[int, int],
    toxicity: Mapping[int, int],
    second_ties: str = "toxicity",
) -> GuildAward:
    """F-5: the award of `guild` from each seat's seals and toxicity."""
    if second_ties not in SECOND_TIES:
        raise RuleBroken(RULE, f"second_ties is one of {SECOND_TIES}, not {second_ties!r}")
    seats = sorted(seals)
    for seat in seats:
        if seals[seat] < 0:
            raise RuleBroken(RULE, f"seat {seat + 1} has {seals[seat]} {guild} seals")
        if seat not in toxicity:
            raise RuleBroken(RULE, f"seat {seat + 1}'s toxicity is needed for the tie-break")
    holders = [s for s in seats if seals[s] > 0]
    why: list[Reason] = []
    nobody = [s for s in seats if seals[s] == 0]
    if nobody:
        why.append(
            _reason(
                "no seals",
                nobody,
                seals,
                f"{_names(nobody)}: no {guild} seals, no score for this guild",
            )
        )
    most: list[int] = []
    second: list[int] = []
    friendly = False
    if holders:
        top = max(seals[s] for s in holders)
        leaders = [s for s in holders if seals[s] == top]
        if len(holders) == 1:
            why.append(
                _reason("seals", holders, seals, f"{guild}: only {_names(holders)} has seals")
            )
        else:
            why.append(
                _reason(
                    "seals",
                    holders,
                    seals,
                    f"{guild}, most seals: " + _listing(holders, seals),
                    decided=len(leaders) == 1,
                )
            )
        most, behind = _break(leaders, toxicity, "most", guild, why)
        friendly = len(most) > 1
        if friendly:
            why.append(_friendly(most, seals, guild, "most", MOST_VP, no_second=True))
        else:
            pool = behind or _next_group(holders, seals, top)
            if len(pool) > 1 and second_ties == "toxicity":
                second, _ = _break(pool, toxicity, "second most", guild, why)
            else:
                second = pool
            if len(second) > 1:
                why.append(_friendly(second, seals, guild, "second most", SECOND_VP))
    return GuildAward(
        guild=guild,
        seals={str(s): seals[s] for s in seats},
        most=tuple(most),
        second=tuple(second),
        friendly=friendly,
        reasons=tuple(why),
    )


def _next_group(holders: Sequence[int], seals: Mapping[int, int], top: int) -> list[int]:
    """The holders with the most seals below `top` (the candidates for second most)."""
    below = [seals[s] for s in holders if seals[s] < top]
    return [s for s in holders if seals[s] == max(below)] if below else []


def _break(
    group: list[int], toxicity: Mapping[int, int], place: str, guild: str, why: list[Reason]
) -> tuple[list[int], list[int]]:
    """Lower toxicity breaks a tie for `place`: (those with the lowest, the rest)."""
    if len(group) < 2:
        return group, []
    low = min(toxicity[s] for s in group)
    best = [s for s in group if toxicity[s] == low]
    rest = [s for s in group if toxicity[s] != low]
    why.append(
        _reason(
            "lower toxicity",
            group,
            toxicity,
            f"{guild}, tie for {place} seals broken by lower toxicity: "
            + _listing(group, toxicity),
            decided=len(best) == 1,
        )
    )
    return best, rest


def _friendly(
    group: list[int],
    seals: Mapping[int, int],
    guild: str,
    place: str,
    vp: int,
    no_second: bool = False,
) -> Reason:
    text = f"{guild}: friendly tie for {place} seals, {_names(group)} each get {vp} VP"
    if no_second:
        text += "; no second place is given"
    return _reason("friendly tie", group, seals, text)


def _reason(
    criterion: str, group: list[int], numbers: Mapping[int, int], text: str, decided: bool = True
) -> Reason:
    return Reason(
        rule=RULE,
        criterion=criterion,
        seats=tuple(group),
        numbers={str(s): numbers[s] for s in group},
        decided=decided,
        text=text + ("" if decided else " (still tied)"),
    )


def _listing(group: Sequence[int], numbers: Mapping[int, int]) -> str:
    return ", ".join(f"seat {s + 1} {numbers[s]}" for s in group)


def _names(group: Sequence[int]) -> str:
    return ("seat " if len(group) == 1 else "seats ") + ", ".join(str(s + 1) for s in group)
