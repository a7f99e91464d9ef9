"""Build a position by hand, as a scenario test needs it: pieces where the test says, nothing else.

    pos = Position(players=2)             # the island laid (LAYOUT), nobody on it, serpents out
    a1 = pos.land(0, "5.2")               # seat 1's first person on land
    b = pos.boat("4.1", [a1])             # a boat with that person aboard
    shark = pos.creature("shark", "3.1")
    game = pos.game(phase="move")         # seat 1's step 2, 3 points
    game.apply(parse("sail b1 3.1"))

People not placed by the test are off the board (lost), so they neither move nor score.
"""

from __future__ import annotations

from typing import Any

import pytest

from companion.engine import Event, Game, IllegalAction, Rules, parse
from companion.engine import board as board_
from companion.engine.fivesix import for_players
from companion.engine.state import BOAT, CHANCE, LAND, LOST, OFF, SAVED, SEA, State

# A fixed island for scenario tests: 16 beach, 16 forest, 8 mountain over board.LAND.
LAYOUT = "BBBBFFFMB" + "FFMMBBFF" + "BFMMFB" + "BFFMFMBF" + "BFBFB" + "FMBB"
TERRAIN = {"B": "beach", "F": "forest", "M": "mountain"}
assert len(LAYOUT) == 40 and LAYOUT.count("B") == 16 and LAYOUT.count("M") == 8


def hx(name: str) -> int:
    return board_.parse(name)


class Position:
    def __init__(
        self,
        players: int = 2,
        mode: str = "digital",
        modules: tuple[str, ...] = ("base",),
        **options: str,
    ) -> None:
        rules = for_players(Rules(modules, options), players)  # as Game.new would have them
        self.s = State(rules, players, seed=0, mode=mode)
        s = self.s
        for h, letter in zip(board_.LAND, LAYOUT, strict=True):
            s.terrain[h] = TERRAIN[letter]
        s.layout = 40
        for p in s.p_owner:
            s.p_kind[p], s.p_at[p] = LOST, OFF
        self.next_person = dict.fromkeys(range(players), 0)
        serpents = [c for c, k in enumerate(s.c_kind) if k == "serpent"]
        for c, h in zip(serpents, board_.SERPENT_START, strict=True):
            s.c_pos[c] = h

    # -- the board ---------------------------------------------------------------------------

    def sea(self, *names: str) -> None:
        """These land positions are already sunk (sea)."""
        for name in names:
            self.s.terrain[hx(name)] = None

    def terrain(self, name: str, terrain: str) -> None:
        self.s.terrain[hx(name)] = terrain

    def clear_serpents(self) -> None:
        for c, k in enumerate(self.s.c_kind):
            if k == "serpent":
                self.s.c_pos[c] = OFF

    # -- pieces ------------------------------------------------------------------------------

    def _person(self, seat: int, value: int | None) -> int:
        p = seat * 10 + self.next_person[seat]
        self.next_person[seat] += 1
        self.s.p_value[p] = None if self.s.is_1986 else value  # E-4: 1986 people have none
        return p

    def land(self, seat: int, name: str, value: int | None = 1) -> int:
        p = self._person(seat, value)
        self.s.p_kind[p], self.s.p_at[p] = LAND, hx(name)
        return p

    def swimmer(self, seat: int, name: str, value: int | None = 1) -> int:
        p = self._person(seat, value)
        self.s.p_kind[p], self.s.p_at[p] = SEA, hx(name)
        return p

    def saved(self, seat: int, island: str, value: int | None = 1) -> int:
        p = self._person(seat, value)
        self.s.p_kind[p], self.s.p_at[p] = SAVED, hx(island)
        return p

    def boat(self, name: str, people: list[int] | None = None) -> int:
        """A boat at `name` carrying these people (made with `passenger`)."""
        b = self.s.b_pos.index(OFF)
        self.s.b_pos[b] = hx(name)
        for p in people or []:
            self.s.p_kind[p], self.s.p_at[p] = BOAT, b
            self.s.b_people[b].append(p)
        return b

    def passenger(self, seat: int, value: int | None = 1) -> int:
        """A person to hand to `boat`."""
        return self._person(seat, value)

    def creature(self, kind: str, name: str) -> int:
        s = self.s
        c = next(
            c for c, k in enumerate(s.c_kind) if k == kind and s.c_pos[c] == OFF and not s.c_gone[c]
        )
        s.c_pos[c] = hx(name)
        return c

    def hold(self, seat: int, terrain: str, back: str | None) -> None:
        """Seat holds a red tile (back None: not told to the companion)."""
        s = self.s
        s.hands[seat].append([terrain, back])
        s.sunk[terrain] += 1
        if back is None:
            s.unknown_red[terrain] += 1
        else:
            s.known[terrain][back] = s.known[terrain].get(back, 0) + 1

    # -- the moment --------------------------------------------------------------------------

    def game(
        self, phase: str = "move", turn: int = 0, actor: int | None = None, **ctx: Any
    ) -> Game:
        """The game at this phase of `turn`'s turn (``move`` starts with 3 points)."""
        s = self.s
        s.phase, s.turn = phase, turn
        s.actor = turn if actor is None else actor
        if phase in ("back", "roll"):
            s.actor = CHANCE
        if phase == "move":
            s.points = 3
        s.ctx = dict(ctx)
        s.reindex()
        return Game(s)


def refused(game: Game, text: str) -> IllegalAction:
    """The refusal `text` meets (the test fails if it is carried out)."""
    with pytest.raises(IllegalAction) as info:
        game.apply(parse(text))
    return info.value


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def at(game: Game, name: str) -> list[str]:
    """What stands at hex `name`, in words, for assertions."""
    s, h = game.state, hx(name)
    out = [f"land:{p}" for p in s.land_people[h]] + [f"swim:{p}" for p in s.swimmers[h]]
    if s.boat_at[h] != OFF:
        out.append(f"boat:{s.boat_at[h]}")
    out += [f"{s.c_kind[c]}" for c, pos in enumerate(s.c_pos) if pos == h]
    return out


__all__ = ["SAVED", "SEA", "Position", "at", "hx", "kinds", "refused"]
