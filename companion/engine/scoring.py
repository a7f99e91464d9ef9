"""The end: who is lost, the values told at the table, the score, and the ranking with reasons.

B-30 ... B-32 and the tie-break chain of P-6 (applied for every player count, B-32).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import pieces
from .errors import IllegalAction
from .events import Event
from .setup import values_left
from .state import LAND, LOST, NOBODY, SAVED, Action, State, person_name


def end(s: State, ev: list[Event]) -> None:
    """B-30: the game is over; everyone not on a safe island is lost."""
    s.volcano_turn = s.turn
    s.turns_taken[s.turn] += 1
    lost = [p for p, kind in s.p_kind.items() if kind not in (SAVED, LOST) and kind >= LAND]
    for p in lost:
        pieces.lose(s, p)
    ev.append(Event("game_over", {"seat": s.turn, "lost": [person_name(p) for p in lost]}))
    s.ctx = {}
    _next_reveal(s, ev)


def unrevealed(s: State) -> list[int]:
    """Saved people whose value the companion has not been told (physical mode)."""
    return [p for p in sorted(s.p_kind) if s.p_kind[p] == SAVED and s.p_value[p] is None]


def _next_reveal(s: State, ev: list[Event]) -> None:
    waiting = unrevealed(s)
    if waiting:
        s.phase, s.actor = "reveal", waiting[0] // 10
        return
    s.phase, s.actor = "over", NOBODY
    s.result = ranking(s)
    ev.append(Event("result", s.result))


def legal_reveal(s: State) -> list[Action]:
    p = unrevealed(s)[0]
    return [("reveal", p, v) for v in sorted(set(values_left(s, p // 10)))]


def apply_reveal(s: State, action: Action, ev: list[Event]) -> None:
    _, p, value = action
    s.p_value[p] = value
    ev.append(Event("value_told", {"person": person_name(p), "value": value}))
    _next_reveal(s, ev)


def explain(s: State, action: Action) -> IllegalAction:
    p = action[1]
    if s.p_kind.get(p) != SAVED:
        return IllegalAction(
            "B-31", f"only saved people's values count ({person_name(p)} is not saved)"
        )
    first = unrevealed(s)[0]
    if p != first:
        return IllegalAction("B-31", f"tell the value of {person_name(first)} first")
    return IllegalAction("B-31", f"seat {p // 10 + 1} has no person of value {action[2]} left")


Criterion = tuple[str, str, Callable[[int], int], bool]


def ranking(s: State) -> dict[str, Any]:
    """Places, points and the rule that decided each tie, with the numbers compared."""
    seats = list(range(s.players))
    saved = {seat: [p for p in s.people_of(seat) if s.p_kind[p] == SAVED] for seat in seats}
    points = {seat: sum(s.p_value[p] or 0 for p in saved[seat]) for seat in seats}
    count = {seat: len(saved[seat]) for seat in seats}
    turns = {seat: s.turns_taken[seat] for seat in seats}
    chain: list[Criterion] = [("B-31", "points", points.__getitem__, True)]
    if s.rules.option("tiebreak") == "chain":
        chain += [
            ("P-6", "people saved", count.__getitem__, True),
            ("P-6", "turns taken", turns.__getitem__, False),
        ]
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
                    "rule": "P-6",
                    "criterion": "shared",
                    "seats": group,
                    "text": f"seats {_seats(group)} share the place",
                }
            )
    places: list[dict[str, Any]] = []
    place = 1
    for group in groups:
        for seat in group:
            places.append(
                {
                    "seat": seat,
                    "place": place,
                    "points": points[seat],
                    "saved": count[seat],
                    "turns": turns[seat],
                }
            )
        place += len(group)
    if s.rules.option("tiebreak") == "chain":
        note = "The base rules give no tie-break: the 5-6 player kit's chain is used (B-32)."
    else:
        note = "Ties are shared (option tiebreak=shared)."
    return {
        "ranking": places,
        "winners": groups[0],
        "ended_on_seat": s.volcano_turn,
        "reasons": why,
        "note": note,
    }


def _reason(
    rule: str, name: str, group: list[int], key: Callable[[int], int], high: bool, decided: bool
) -> dict[str, Any]:
    numbers = {str(seat): key(seat) for seat in group}
    best = "most" if high else "fewest"
    lead = f"seats {_seats(group)}" if rule == "B-31" else f"seats {_seats(group)} tie;"
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
