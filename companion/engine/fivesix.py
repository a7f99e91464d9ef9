"""The 5-6 player kit: who plays with which people and boats, and the last placements (P-1 ... P-4).

With 5 or 6 players each player puts a few people back in the box: they are not in the game at
all (never placed, never lost, never scored). Fewer boats go to the first seats, who make up for
it by playing first. Overpopulated! (challenge #5) keeps every person and both boats.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .data import BOATS_PER_PLAYER, PEOPLE_VALUES
from .errors import RulesError
from .rules import Rules

if TYPE_CHECKING:
    from .state import State

REMOVED: dict[int, tuple[int, ...]] = {5: (1, 3), 6: (1, 2, 3)}
"""P-1, P-2: the values each player puts back in the box."""

BOATS: dict[int, tuple[int, ...]] = {5: (1, 1, 2, 2, 2), 6: (1, 1, 1, 1, 2, 2)}
"""P-1, P-2: boats per seat, from the start player on."""

LAST_ON_OCCUPIED: dict[int, tuple[int, ...]] = {6: (4, 5)}
"""P-2: the seats (0-based) whose last person goes onto a tile that already holds a person."""

MIN_PLAYERS, MAX_PLAYERS = 2, 6


def crowded(rules: Rules) -> bool:
    """Is Overpopulated! (challenge #5) in use?"""
    return "overpopulated" in rules.modules


def for_players(rules: Rules, players: int) -> Rules:
    """The rules a game of `players` is played by; a RulesError if the count does not fit them.

    The 5-6 player kit is implied by 5 or 6 players, so it is added to the rules then.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RulesError(
            f"Survive is for 2 to 4 players, or 5 to 6 with the 5-6 player kit, not {players} "
            "players (B-4)"
        )
    if "escape-1986" in rules.modules and players > 4:
        raise RulesError(f"the 1986 ruleset is for 2 to 4 players, not {players} (E-4)")
    if players <= 4:
        if crowded(rules):
            raise RulesError(
                f"Overpopulated! (challenge #5) needs 5 or 6 players, not {players} players (P-4)"
            )
        if "five-six" in rules.modules:
            raise RulesError(
                f"the 5-6 player kit (five-six) is for 5 or 6 players, not {players} players (P-1)"
            )
        return rules
    if "five-six" in rules.modules:
        return rules
    return Rules((*rules.modules, "five-six"), dict(rules.options))


def people_values(rules: Rules, players: int) -> tuple[int, ...]:
    """The values of each player's people in this game (B-4, P-1, P-2, P-4)."""
    values = list(PEOPLE_VALUES)
    if players in REMOVED and not crowded(rules):
        for value in REMOVED[players]:
            values.remove(value)
    return tuple(values)


def boats_for(s: State, seat: int) -> int:
    """How many boats this seat places (B-4, P-1, P-2, P-4; E-4: in the 1986 ruleset one each,
    and with 3 players seat 1 places a second, for 2 boats with 2 players and 4 with 3 or 4)."""
    if s.is_1986:
        return 2 if s.players == 3 and seat == 0 else 1
    if s.players in BOATS and not crowded(s.rules):
        return BOATS[s.players][seat]
    return BOATS_PER_PLAYER


def last_on_occupied(s: State, seat: int) -> bool:
    """P-2: must this seat's last person join a person of another colour?"""
    # the seat first: most are not among them (asked at every placement, no call for those)
    return seat in LAST_ON_OCCUPIED.get(s.players, ()) and not crowded(s.rules)
