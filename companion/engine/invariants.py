"""What must hold in every state, whatever was played: the checker `simulate` runs after each action.

Each person is in exactly one place; no piece count exceeds the box; at most three people per
boat and one boat per space; no more boats out than were placed or brought by tiles, no dolphin
without its tile; nothing but people on a safe island; pieces stand only where they can. In the
1986 ruleset people have no values, dolphins protect nobody and the score is a count (E-3, E-4,
E-6).
"""

from __future__ import annotations

from collections import Counter
from functools import cache, lru_cache
from itertools import chain

from . import board
from .data import DECK, PIECES
from .fivesix import boats_for, people_values
from .game import Game
from .movement import BOAT_CAPACITY
from .sinking import kept_backs
from .state import BOAT, CREATURE_KINDS, LAND, OFF, SAVED, SEA, State, creature_name, person_name


def violations(game: Game | State) -> list[str]:
    """Every broken invariant, in words; empty when the state is sound."""
    s = game.state if isinstance(game, Game) else game
    out: list[str] = []
    _people(s, out)
    _pieces(s, out)
    _boats(s, out)
    _dolphins(s, out)
    island = tuple(s.terrain)  # the key of the checks kept per island, built once
    _places(s, island, out)
    _shores(s, island, out)
    if s.is_1986:
        _counts_1986(s, out)
    else:
        _backs(s, out)
    return out


def _backs(s: State, out: list[str]) -> None:
    """B-22: no back is known more often than the deck holds it (the draw of a back counts the
    tiles still hidden from the known ones, `sinking.drawn_back`)."""
    for t, known in s.known.items():
        for k, n in known.items():
            if n > DECK[t].get(k, 0):
                out.append(f"{n} {t} tiles known to be {k}: the deck has {DECK[t].get(k, 0)}")


def _counts_1986(s: State, out: list[str]) -> None:
    """E-4: people carry no value; E-3: dolphins never protect; E-6: a score is a head count."""
    valued = [person_name(p) for p in s.p_owner if s.p_value[p] is not None]
    if valued:
        out.append(f"people with a value in the 1986 ruleset: {', '.join(valued)}")
    if s.guard:
        out.append("a dolphin protects a swimmer in the 1986 ruleset")
    for place in (s.result or {}).get("ranking", []):
        if place["points"] != place["saved"]:
            out.append(
                f"seat {place['seat'] + 1} scored {place['points']} for {place['saved']} saved"
            )


def _people(s: State, out: list[str]) -> None:
    """Each person is where its own record says and nowhere else; each seat's counts by kind of
    place and the values it has left agree with its people (one pass: this runs after every
    action of a simulation)."""
    seen: Counter[int] = Counter(
        chain(chain.from_iterable(s.land_people), chain.from_iterable(s.swimmers),
              chain.from_iterable(s.b_people))
    )  # fmt: skip
    values = people_values(s.rules, s.players)
    each = Counter(values)
    for seat, people in enumerate(s.seat_people):
        kinds = [0] * len(s.tally[seat])
        left = each.copy()
        for p in people:
            kind = s.p_kind[p]
            if 0 <= kind < len(kinds):
                kinds[kind] += 1
            if (value := s.p_value[p]) is not None:
                left[value] -= 1
            if seen[p] != (1 if kind in (LAND, SEA, BOAT) else 0):
                out.append(f"{person_name(p)} is in {seen[p]} places on the board (kind {kind})")
            elif kind == LAND and p not in s.land_people[s.p_at[p]]:
                out.append(f"{person_name(p)} is not on the land tile it should be on")
            elif kind == SEA and p not in s.swimmers[s.p_at[p]]:
                out.append(f"{person_name(p)} is not swimming where it should be")
            elif kind == BOAT and p not in s.b_people[s.p_at[p]]:
                out.append(f"{person_name(p)} is not in the boat it should be in")
            elif kind == SAVED and not board.IS_SAFE[s.p_at[p]]:
                out.append(f"{person_name(p)} is saved but not on a safe island")
        if s.tally[seat] != kinds:
            out.append(f"seat {seat + 1}'s people are counted {s.tally[seat]} by kind of place")
        kept = s.left_values[seat]
        if kept != +left or list(kept) != sorted(kept):
            out.append(f"seat {seat + 1} is told it has values {kept} left")
        for value, n in left.items():
            if n < 0:
                out.append(f"seat {seat + 1} has {each[value] - n} people of value {value}; this "
                           f"game gives each {each[value]}")  # fmt: skip
    for p in seen:
        if p not in s.p_owner:
            out.append(f"an unknown person {p} is on the board")
    # P-1, P-2: people put back in the box are not in the game at all, not even as lost
    if s.p_owner.keys() != _ids(s.players, len(values)):
        per_seat = Counter(p // 10 for p in s.p_owner)
        for seat in range(s.players):
            if per_seat[seat] != len(values):
                out.append(f"seat {seat + 1} has {per_seat[seat]} people; this game gives each "
                           f"{len(values)}")  # fmt: skip


@cache
def _ids(players: int, each: int) -> frozenset[int]:
    """The people of a game: seat * 10 + k, k below the number each seat has."""
    return frozenset(seat * 10 + k for seat in range(players) for k in range(each))


def _shores(s: State, island: tuple[str | None, ...], out: list[str]) -> None:
    """Each hex's sea neighbours, kept for movement, creatures and B-21 as tiles are removed
    (`State.sea_near`), are those the island has (not kept while it is being laid)."""
    if s.phase == "terrain":
        return
    told = [picked[mask] for picked, mask in zip(board.PICKED, s.sea_near, strict=True)]
    seas = _sea_beside(island)
    if told != seas:
        for h, sea in enumerate(seas):
            if told[h] != sea:
                named = ", ".join(board.name(n) for n in sea) or "none"
                out.append(f"{board.name(h)} is told of the wrong sea beside it (it has {named})")


@lru_cache(maxsize=64)
def _grounds(terrain: tuple[str | None, ...]) -> tuple[int, ...]:
    """Per hex, 1 where a land tile or a safe island makes it occupied (kept like `_sea_beside`)."""
    return tuple(int(t is not None or safe) for t, safe in zip(terrain, board.IS_SAFE, strict=True))


@lru_cache(maxsize=64)
def _sea_beside(terrain: tuple[str | None, ...]) -> list[tuple[int, ...]]:
    """Each hex's sea neighbours, found from the island's tiles alone. Kept for a few islands:
    the island changes only when a tile is removed, and the check runs after every action."""
    return [
        tuple(n for n in board.WATER_NEIGHBOURS[h] if terrain[n] is None) for h in range(board.SIZE)
    ]


def _pieces(s: State, out: list[str]) -> None:
    kinds = Counter(s.c_kind)
    for kind, n in kinds.items():
        if n > PIECES[kind]:
            out.append(f"{n} {kind}s; the box has {PIECES[kind]}")
    if len(s.b_pos) > PIECES["boat"]:
        out.append(f"{len(s.b_pos)} boats; the box has {PIECES['boat']}")
    actual = {kind: [0] * board.SIZE for kind in kinds}
    for c, pos in enumerate(s.c_pos):
        if pos == OFF:
            continue
        actual[s.c_kind[c]][pos] += 1
        if not s.is_sea(pos):
            out.append(f"{creature_name(s.c_kind, c)} is at {board.name(pos)}, which is not sea")
        if s.c_gone[c]:
            out.append(f"{creature_name(s.c_kind, c)} left the game but is on the board")
    for kind in CREATURE_KINDS:
        counts = s.kind_count(kind)
        if counts != actual.get(kind, [0] * board.SIZE):
            out.append(f"the board's {kind} counts disagree with where the {kind}s are")


def _dolphins(s: State, out: list[str]) -> None:
    """D-6: a dolphin protects one swimmer in its own space; a swimmer has one dolphin. D-2, E-3:
    a dolphin token comes out only for a dolphin tile shown."""
    if "dolphin" not in kept_backs(s):
        came = sum(
            1
            for c, k in enumerate(s.c_kind)
            if k == "dolphin" and (s.c_pos[c] != OFF or s.c_gone[c])
        )
        shown = sum(known.get("dolphin", 0) for known in s.known.values())
        if came > shown:
            out.append(f"{came} dolphins came out for {shown} dolphin tiles shown")
    protected: Counter[int] = Counter(s.guard.values())
    for d, p in s.guard.items():
        name = creature_name(s.c_kind, d)
        if s.c_kind[d] != "dolphin":
            out.append(f"{name} protects someone but is no dolphin")
        elif s.c_pos[d] == OFF:
            out.append(f"{name} protects {person_name(p)} but is not on the board")
        elif p not in s.p_owner or s.p_kind[p] != SEA or s.p_at[p] != s.c_pos[d]:
            out.append(f"{name} protects {person_name(p)}, who is not swimming beside it")
        if protected[p] > 1:
            out.append(f"{person_name(p)} is protected by {protected[p]} dolphins")


def _boats(s: State, out: list[str]) -> None:
    places = Counter(pos for pos in s.b_pos if pos != OFF)
    # B-6, E-4: the boats placed at setup; B-35: one more per boat tile revealed
    allowed = sum(boats_for(s, seat) for seat in range(s.players))
    allowed += sum(known.get("boat", 0) for known in s.known.values())
    if sum(places.values()) > allowed:
        out.append(
            f"{sum(places.values())} boats on the board; setup and boat tiles gave {allowed}"
        )
    for h, n in places.items():
        if n > 1:
            out.append(f"{n} boats share {board.name(h)}")
    for b, pos in enumerate(s.b_pos):
        if len(s.b_people[b]) > BOAT_CAPACITY:
            out.append(f"boat b{b + 1} carries {len(s.b_people[b])} people")
        if pos == OFF:
            if s.b_people[b]:
                out.append(f"boat b{b + 1} is in the supply with people aboard")
            continue
        if not s.is_sea(pos):
            out.append(f"boat b{b + 1} is at {board.name(pos)}, which is not sea")
        if s.boat_at[pos] != b:
            out.append(f"the board does not know boat b{b + 1} is at {board.name(pos)}")
    for seat in range(s.players):
        mine = [b for b, pos in enumerate(s.b_pos) if pos != OFF and s.controls(seat, b)]
        if s.sailable[seat] != mine:
            out.append(f"seat {seat + 1} is told it may sail {s.sailable[seat]}, not {mine}")


def _places(s: State, island: tuple[str | None, ...], out: list[str]) -> None:
    hexes = zip(s.land_people, s.swimmers, s.terrain, strict=True)
    for h, (people, swimmers, terrain) in enumerate(hexes):
        if people and terrain is None:
            out.append(f"people stand on {board.name(h)}, which holds no land tile")
        if swimmers and (terrain is not None or board.IS_SAFE[h]):
            out.append(f"people swim at {board.name(h)}, which is not sea")
    # What stands on each hex, counted from the pieces' own positions (not the indexes the
    # rules keep) in one pass each: this runs after every action of a simulation.
    found = list(_grounds(island))
    creatures = [0] * board.SIZE
    for pos in s.c_pos:
        if pos != OFF:
            creatures[pos] += 1
            found[pos] += 1
    for pos in s.b_pos:
        if pos != OFF:
            found[pos] += 1
    for p in s.p_owner:
        if s.p_kind[p] == SEA:
            found[s.p_at[p]] += 1
    if s.occupants != found:
        for h, n in enumerate(found):
            if s.occupants[h] != n:
                out.append(f"{board.name(h)} is counted {s.occupants[h]} occupants, not {n}")
    for h in board.SAFE_ISLANDS:
        if s.swimmers[h] or s.boat_at[h] != OFF or creatures[h]:
            out.append(f"something other than people is on safe island {board.name(h)}")
