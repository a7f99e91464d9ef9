"""F-4 The end of the game: once the supply is empty, the current round is finished so that all
have had the same number of turns, then everyone takes one final turn.

Seats are numbered 0.. clockwise; a round begins with the first player (the start tile marked
"Primer jugador").
"""

from __future__ import annotations

from dataclasses import dataclass

from .box import BOX, Box
from .errors import RuleBroken

RULE = "F-4"


@dataclass(frozen=True)
class Ending:
    """The turns still to be played after the supply ran out, in order."""

    players: int
    first: int
    """Seat of the first player."""
    triggered_on: int
    """Seat whose turn emptied the supply (that turn is played to its end)."""
    rest_of_round: tuple[int, ...]
    """Seats still to play in the round that was under way."""
    final_turns: tuple[int, ...]
    """The round of final turns, one each."""
    taken: int = 0
    """Turns of `rest_of_round + final_turns` already played."""

    @property
    def turns_left(self) -> tuple[int, ...]:
        return (self.rest_of_round + self.final_turns)[self.taken :]

    @property
    def over(self) -> bool:
        """No turn left: final scoring (F-5)."""
        return not self.turns_left

    @property
    def next_seat(self) -> int | None:
        left = self.turns_left
        return left[0] if left else None

    @property
    def still_to_play(self) -> tuple[int, ...]:
        """Seats with a turn left, in the order of their next turn."""
        return tuple(dict.fromkeys(self.turns_left))


def end_triggered(players: int, first: int, seat: int, box: Box | None = None) -> Ending:
    """F-4: the supply ran out during `seat`'s turn."""
    box = box or BOX
    low, high = box.players
    if not low <= players <= high:
        raise RuleBroken(RULE, f"Flotilla is for {low}-{high} players, not {players}")
    for what, s in (("first player", first), ("seat", seat)):
        if not 0 <= s < players:
            raise RuleBroken(RULE, f"{what} {s} is not a seat of {players} players")
    in_round = (seat - first) % players
    rest = tuple((first + i) % players for i in range(in_round + 1, players))
    final = tuple((first + i) % players for i in range(players))
    return Ending(players, first, seat, rest, final)


def turn_taken(ending: Ending, seat: int) -> Ending:
    """F-4: `seat` has played its turn; RuleBroken if it was not that seat's turn."""
    if ending.over:
        raise RuleBroken(RULE, "the game is over: every final turn has been played")
    if seat != ending.next_seat:
        raise RuleBroken(RULE, f"the next turn is seat {ending.next_seat}'s, not seat {seat}'s")
    return Ending(
        ending.players,
        ending.first,
        ending.triggered_on,
        ending.rest_of_round,
        ending.final_turns,
        ending.taken + 1,
    )
