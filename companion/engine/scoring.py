"""The end: who is lost, the values told at the table, the score, and the ranking with reasons.

B-30 ... B-32 and the tie-break chain of P-6 (applied for every player count, B-32); the
challenge rules' other ends (C-2 Leave No One Behind, C-4 Atlantis is Gone) and score (C-3 All
Equal!); the 1986 ruleset's end and count of heads (E-6).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from . import board, pieces
from .errors import IllegalAction
from .events import Event, Events
from .setup import different_values_left
from .state import BOAT, LAND, LOST, NOBODY, SAVED, SEA, UNPLACED, Action, State, person_name

NO_ONE_BEHIND: Final = "leave-no-one-behind"
GONE: Final = "atlantis-is-gone"
NOT_PLAYING: Final = frozenset({"terrain", "place", "boat", "over", "reveal"})


def end(s: State, ev: Events, rule: str = "B-30") -> None:
    """B-30: the game is over; everyone not on a safe island is lost.

    `rule` says what ended it: the volcano (B-30), or C-2 / C-4 mid-turn. Either way the
    current turn counts as taken, so seats after this one had a turn fewer (P-6).
    """
    if s.is_1986:
        rule = "E-6"  # the volcano or the last person off the board: one rule says both
    s.volcano_turn = s.turn
    s.turns_taken[s.turn] += 1
    s.from_sunk = []
    kinds = s.p_kind
    lost = [p for p in s.p_owner if kinds[p] not in (SAVED, LOST) and kinds[p] >= LAND]
    for p in lost:
        pieces.lose(s, p)
    data: dict[str, Any] = {"seat": s.turn, "lost": [person_name(p) for p in lost]}
    if rule != "B-30":
        data["rule"] = rule
    if ev is not None:
        ev.append(Event("game_over", data))
    s.ctx = {}
    _next_reveal(s, ev)


def ending(s: State) -> str | None:
    """The challenge rule that ends the game now, if one does.

    C-4 Atlantis is Gone: the last land tile has been removed. C-2 Leave No One Behind: the last
    person has left the board, saved or lost. Both end the game at once, mid-turn if need be.
    """
    if not s.ends_mid_turn:
        return None  # asked after every step: the base game ends only by the volcano
    modules = s.rules.modules
    if s.is_1986 and s.phase not in NOT_PLAYING:
        return None if _anyone_left(s) else "E-6"
    if s.phase in NOT_PLAYING:  # past the guard above, one of the two challenges is played
        return None
    if GONE in modules and all(s.terrain[h] is None for h in board.LAND):
        return "C-4"
    if NO_ONE_BEHIND in modules and not _anyone_left(s):
        return "C-2"
    return None


def _anyone_left(s: State) -> bool:
    """Is anyone neither saved nor lost?"""
    kinds = s.p_kind
    return any(kinds[p] in (UNPLACED, LAND, BOAT, SEA) for p in s.p_owner)


def end_if_over(s: State, ev: Events) -> bool:
    """End the game now if C-2 or C-4 says so; True if it ended."""
    rule = ending(s)
    if rule is None:
        return False
    end(s, ev, rule)
    return True


def volcano_is_whirlpool(s: State) -> bool:
    """C-2, C-4: the volcano is played as a whirlpool."""
    return NO_ONE_BEHIND in s.rules.modules or GONE in s.rules.modules


def ended_by(s: State) -> str:
    """What ended a finished game: the volcano (B-30), or C-2 / C-4 (the volcano being a
    whirlpool under either, the board tells which); in the 1986 ruleset both ends are E-6."""
    if s.is_1986:
        return "E-6"
    modules = s.rules.modules
    if GONE in modules and (
        NO_ONE_BEHIND not in modules or all(s.terrain[h] is None for h in board.LAND)
    ):
        return "C-4"
    return "C-2" if NO_ONE_BEHIND in modules else "B-30"


def unrevealed(s: State) -> list[int]:
    """Saved people whose value the companion has not been told (physical mode); none in the
    1986 ruleset, which counts heads (E-6)."""
    if s.is_1986:
        return []
    return [p for p in sorted(s.p_owner) if s.p_kind[p] == SAVED and s.p_value[p] is None]


def _next_reveal(s: State, ev: Events) -> None:
    waiting = unrevealed(s)
    if waiting:
        s.phase, s.actor = "reveal", waiting[0] // 10
        return
    s.phase, s.actor = "over", NOBODY
    s.result = ranking(s)
    if ev is not None:
        ev.append(Event("result", s.result))


def legal_reveal(s: State) -> list[Action]:
    p = unrevealed(s)[0]
    return [("reveal", p, v) for v in different_values_left(s, p // 10)]


def apply_reveal(s: State, action: Action, ev: Events) -> None:
    _, p, value = action
    s.p_value[p] = value
    s.take_value(s.left_values[p // 10], value)
    if ev is not None:
        ev.append(Event("value_told", {"person": person_name(p), "value": value}))
    _next_reveal(s, ev)


def explain(s: State, action: Action) -> IllegalAction:
    p = action[1]
    if p not in s.p_owner or s.p_kind[p] != SAVED:
        return IllegalAction(
            "B-31", f"only saved people's values count ({person_name(p)} is not saved)"
        )
    first = unrevealed(s)[0]
    if p != first:
        return IllegalAction("B-31", f"tell the value of {person_name(first)} first")
    return IllegalAction("B-31", f"seat {p // 10 + 1} has no person of value {action[2]} left")


Criterion = tuple[str, str, Callable[[int], int], bool]


def ranking(s: State) -> dict[str, Any]:
    """Places, points and the rule that decided each tie, with the numbers compared.

    B-31: the score is the saved people's values; under C-3 (All Equal!) it is how many were
    saved. Ties (P-6): most people saved; with C-3, the highest total value; fewer turns;
    shared.
    """
    seats = list(range(s.players))
    saved = {seat: [p for p in s.people_of(seat) if s.p_kind[p] == SAVED] for seat in seats}
    value = {seat: sum(s.p_value[p] or 0 for p in saved[seat]) for seat in seats}
    count = {seat: len(saved[seat]) for seat in seats}
    turns = {seat: s.turns_taken[seat] for seat in seats}
    equal = "all-equal" in s.rules.modules
    points = count if equal or s.is_1986 else value
    chain: list[Criterion]
    if s.is_1986:  # E-6: most people saved; ties: fewer turns, then shared
        chain = [("E-6", "people saved", count.__getitem__, True)]
        if s.rules.option("tiebreak") == "chain":
            chain.append(("E-6", "turns taken", turns.__getitem__, False))
    else:
        chain = [("C-3" if equal else "B-31", "points", points.__getitem__, True)]
    if not s.is_1986 and s.rules.option("tiebreak") == "chain":
        chain.append(("P-6", "people saved", count.__getitem__, True))
        if equal:
            chain.append(("P-6", "total value", value.__getitem__, True))
        chain.append(("P-6", "turns taken", turns.__getitem__, False))
    groups = [seats]
    why: list[dict[str, Any]] = []
    for rule, name, key, high in chain:
        split: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            values = sorted({key(seat) for seat in group}, reverse=high)
            parts = [[seat for seat in group if key(seat) == v] for v in values]
            why.append(_reason(rule, name, group, key, high, len(parts) > 1))
            split.extend(parts)
        groups = split
    for group in groups:
        if len(group) > 1:
            why.append(
                {
                    "rule": "E-6" if s.is_1986 else "P-6",
                    "criterion": "shared",
                    "seats": group,
                    "text": f"seats {_seats(group)} share the place",
                }
            )
    places: list[dict[str, Any]] = []
    place = 1
    for group in groups:
        for seat in group:
            entry = {
                "seat": seat,
                "place": place,
                "points": points[seat],
                "saved": count[seat],
                "turns": turns[seat],
            }
            if equal:
                entry["value"] = value[seat]
            places.append(entry)
        place += len(group)
    if s.is_1986:
        ties = "fewer turns, then shared"
        if s.rules.option("tiebreak") != "chain":
            ties = "shared (option tiebreak=shared)"
        note = f"1986 ruleset (E-6): the most people saved wins; ties: {ties}."
    elif s.rules.option("tiebreak") != "chain":
        note = "Ties are shared (option tiebreak=shared)."
    elif "five-six" in s.rules.modules:
        note = "Ties: the 5-6 player kit's chain (P-6)."
    else:
        note = "The base rules give no tie-break: the 5-6 player kit's chain is used (B-32)."
    if equal:
        note += " All Equal! (C-3): each saved person scores 1, whatever its value."
    out: dict[str, Any] = {
        "ranking": places,
        "winners": groups[0],
        "ended_on_seat": s.volcano_turn,
        "reasons": why,
        "note": note,
    }
    rule = ended_by(s)
    if rule != "B-30":
        out["ended_by"] = rule
    return out


def _reason(
    rule: str, name: str, group: list[int], key: Callable[[int], int], high: bool, decided: bool
) -> dict[str, Any]:
    numbers = {str(seat): key(seat) for seat in group}
    best = "most" if high else "fewest"
    first = rule in ("B-31", "C-3") or (rule == "E-6" and high)  # the score, not a tie-break
    lead = f"seats {_seats(group)}" if first else f"seats {_seats(group)} tie;"
    text = f"{lead} {best} {name}: " + ", ".join(f"seat {seat + 1} {key(seat)}" for seat in group)
    if not decided:
        text += " (still tied)"
    return {
        "rule": rule,
        "criterion": name,
        "seats": group,
        "numbers": numbers,
        "decided": decided,
        "text": text,
    }


def _seats(group: list[int]) -> str:
    return ", ".join(str(seat + 1) for seat in group)
