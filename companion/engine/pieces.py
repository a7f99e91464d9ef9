"""How pieces change place, and what that does on arrival: the shared effects of every rule.

Movement, tiles and creatures all end up here: a person becomes a swimmer (and may be eaten, B-17),
a boat arrives where a serpent or whale lies (B-18), a boat is capsized or sunk, a person is saved.
"""

from __future__ import annotations

from . import board
from .events import Event, Events
from .state import BOAT, LAND, LOST, OFF, SAVED, SEA, State, creature_name, person_name


def _lift(s: State, p: int, becomes: int, *, keep_guard: bool = False) -> None:
    """Take person p off wherever it is now (nowhere yet, when placed), to a place of kind
    `becomes`, counted in `State.tally`; a swimmer leaving its dolphin loses its protection."""
    kind, at = s.p_kind[p], s.p_at[p]
    counts = s.tally[p // 10]
    counts[kind] -= 1
    counts[becomes] += 1
    s.p_kind[p] = becomes
    if kind == LAND:
        s.land_people[at].remove(p)
    elif kind == SEA:
        s.swimmers[at].remove(p)
        s.occupants[at] -= 1
        if s.guard and not keep_guard:
            d = s.guardian(p)
            if d is not None:
                del s.guard[d]
    elif kind == BOAT:
        s.b_people[at].remove(p)
        s.recontrol(at)


def lose(s: State, p: int) -> None:
    _lift(s, p, LOST)
    s.p_at[p] = OFF


def to_land(s: State, p: int, h: int) -> None:
    _lift(s, p, LAND)
    s.p_at[p] = h
    s.land_people[h].append(p)


def to_boat(s: State, p: int, b: int) -> None:
    _lift(s, p, BOAT)
    s.p_at[p] = b
    s.b_people[b].append(p)
    s.recontrol(b)


def save(s: State, p: int, island: int, ev: Events) -> None:
    """B-19: on a safe island a person is saved and never moves again."""
    _lift(s, p, SAVED)
    s.p_at[p] = island
    if ev is not None:
        ev.append(Event("saved", {"person": person_name(p), "island": board.name(island)}))


def deadly_for_swimmers(s: State, h: int) -> str | None:
    """The creature that eats a swimmer entering h (B-17), if any."""
    if s.n_serpent[h]:
        return "serpent"
    if s.n_shark[h]:
        return "shark"
    return None


def swim(
    s: State,
    people: list[int],
    h: int,
    ev: Events,
    *,
    by_choice: bool,
    keep_guard: bool = False,
) -> None:
    """People enter the sea at h as swimmers; a serpent or shark there eats them (B-17).

    Only a swim the person chose uses up its one swim of the turn (B-16). A free dolphin at h
    protects a swimmer as it enters (D-6); when more arrive unbidden than there are free
    dolphins, the player whose turn it is chooses, and only then do the others meet the shark.
    """
    for p in people:
        _lift(s, p, SEA, keep_guard=keep_guard)
        s.p_at[p] = h
        s.swimmers[h].append(p)
        s.occupants[h] += 1
        if by_choice:
            s.swam.add(p)
    if not (s.n_dolphin[h] or s.n_serpent[h] or s.n_shark[h]):
        return  # nothing there protects or eats a swimmer (most of the sea): nothing to settle
    arriving = [p for p in people if s.guardian(p) is None] if s.guard else list(people)
    free = s.free_dolphins(h) if s.n_dolphin[h] else []  # most seas hold none: no call
    if free and arriving:
        if len(free) >= len(arriving):
            for d, p in zip(free, arriving, strict=False):
                protect(s, d, p, ev)
            arriving = []
        else:
            interrupt(s, {"kind": "guard", "actor": s.turn, "hex": h, "people": arriving})
            return  # the unchosen meet the creatures there once the choice is made
    # most seas hold no serpent and no shark: no call to find which
    killer = deadly_for_swimmers(s, h) if s.n_serpent[h] or s.n_shark[h] else None
    if killer and arriving:
        eat(s, h, killer, ev, arriving)


def protect(s: State, d: int, p: int, ev: Events) -> None:
    """Dolphin d protects swimmer p from every creature (D-6)."""
    s.guard[d] = p
    if ev is not None:
        ev.append(Event("protected", {"dolphin": creature(s, d), "person": person_name(p)}))


def release(s: State, d: int, ev: Events) -> None:
    """Dolphin d leaves its swimmer; a creature that eats swimmers there eats it now (D-7)."""
    p = s.guard.pop(d, None)
    if p is None:
        return
    if ev is not None:
        ev.append(Event("unprotected", {"dolphin": creature(s, d), "person": person_name(p)}))
    killer = deadly_for_swimmers(s, s.p_at[p])
    if killer:
        eat(s, s.p_at[p], killer, ev, [p])


def interrupt(s: State, decision: dict[str, object]) -> None:
    """Queue a decision that must be taken before the game goes on (Game settles it next)."""
    s.pending.append(decision)


def eat(s: State, h: int, by: str, ev: Events, people: list[int] | None = None) -> None:
    """Swimmers at h (all, or those given) are eaten, except those a dolphin protects (D-6)."""
    victims = list(s.swimmers[h]) if people is None else people
    if s.guard:
        victims = [p for p in victims if s.guardian(p) is None]
    if not victims:
        return
    for p in victims:
        lose(s, p)
    if ev is not None:
        ev.append(
            Event(
                "eaten",
                {"hex": board.name(h), "by": by, "people": [person_name(p) for p in victims]},
            )
        )


def boat_to(s: State, b: int, h: int, ev: Events) -> None:
    """Boat b arrives at h; an occupied boat meeting a serpent or whale is destroyed (B-18)."""
    occupants = s.occupants
    occupants[s.b_pos[b]] -= 1
    s.boat_at[s.b_pos[b]] = OFF
    s.b_pos[b] = h
    s.boat_at[h] = b
    occupants[h] += 1
    if s.b_people[b] and (s.n_serpent[h] or s.n_whale[h]):
        wreck(s, b, "serpent" if s.n_serpent[h] else "whale", ev)


def wreck(s: State, b: int, by: str, ev: Events) -> None:
    """The boat is destroyed; its passengers become swimmers where it was (B-18, B-26)."""
    h = s.b_pos[b]
    people = list(s.b_people[b])
    if ev is not None:
        ev.append(
            Event(
                "wrecked",
                {
                    "boat": f"b{b + 1}",
                    "hex": board.name(h),
                    "by": by,
                    "people": [person_name(p) for p in people],
                },
            )
        )
    to_supply(s, b)
    swim(s, people, h, ev, by_choice=False)


def to_supply(s: State, b: int) -> None:
    """A boat leaves the board and goes back to the supply (spec B-36)."""
    s.boat_at[s.b_pos[b]] = OFF
    s.occupants[s.b_pos[b]] -= 1
    s.b_pos[b] = OFF
    s.recontrol(b)


def sink_boat(s: State, b: int, ev: Events) -> None:
    """A serpent destroys an occupied boat together with its passengers (B-24)."""
    h = s.b_pos[b]
    people = list(s.b_people[b])
    for p in people:
        lose(s, p)
    to_supply(s, b)
    if ev is not None:
        ev.append(
            Event(
                "sunk_boat",
                {
                    "boat": f"b{b + 1}",
                    "hex": board.name(h),
                    "people": [person_name(p) for p in people],
                },
            )
        )


def put_creature(s: State, c: int, h: int) -> None:
    """Creature c goes to h (from the supply or from where it was)."""
    counts, occupants = s.count(c), s.occupants
    if s.c_pos[c] != OFF:
        counts[s.c_pos[c]] -= 1
        occupants[s.c_pos[c]] -= 1
    s.c_pos[c] = h
    counts[h] += 1
    occupants[h] += 1


def move_creature(s: State, c: int, h: int, ev: Events) -> None:
    """Creature c moves from where it is to h (a die's step or a red tile's move)."""
    if c in s.guard and s.c_pos[c] != h:
        release(s, c, ev)  # D-7: the dolphin leaves its swimmer behind
    if ev is not None:
        ev.append(Event("creature_moved", {"creature": creature(s, c),
                                           "from": board.name(s.c_pos[c]), "to": board.name(h)}))  # fmt: skip
    put_creature(s, c, h)


def remove_creature(s: State, c: int) -> None:
    """Creature c leaves the game (a whirlpool, a repellent, a squid or a whale)."""
    s.guard.pop(c, None)
    s.count(c)[s.c_pos[c]] -= 1
    s.occupants[s.c_pos[c]] -= 1
    s.c_pos[c] = OFF
    s.c_gone[c] = True


def creature(s: State, c: int) -> str:
    return creature_name(s.c_kind, c)
