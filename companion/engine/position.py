"""A position as text, both ways — what FEN is to chess — and the check that it can happen.

`write(state, viewer)` gives the position as `viewer` may see it (the referee: everything);
`read(text)` gives back the state, refusing an impossible position with the rule it breaks.
The format is documented in ``companion/engine/README.md``; in short, one line per part::

    survive-position 1
    rules base,dive-dice creature_move=mandatory
    game players=2 mode=digital seed=7 draws=12
    island BBBBFFFMB/FFMMBBFF/BFMMFB/BFFMFMBF/BFBFB/FMBB
    people A1=6@5.2 A2=?@~1.3 A3=1@b1 A4=3@NW A5=2@x A6=5@-
    boats b1@2.3:A3 b2@-
    creatures serpent1@0.5 shark1@1.8 dolphin1@1.3>A2 whale3@x
    hands A:beach/dolphin,forest/? B:-
    backs known=beach/shark:2 untold=forest:1 sunk=beach:3,forest:1,mountain:0
    turn A step=move actor=A points=2 taken=3,3 swam=A2 roll=-
    decision {"creature": null, ...}

Values ``?`` are unknown (physical mode, or hidden from the viewer); a seat's view shows other
seats' held tiles as ``?/?`` and no seed, so a view's position tells no more than the view.
"""

from __future__ import annotations

import json

from . import board, fivesix
from .actions import CREATURES
from .data import BACKS, DECK, TERRAINS
from .errors import IllegalAction, MalformedAction, RulesError
from .events import REFEREE, View
from .rings import RINGS
from .rules import Rules
from .setup import RING_TERRAIN, by_rings, terrain_count
from .state import (
    BOAT,
    CHANCE,
    LAND,
    LOST,
    NOBODY,
    OFF,
    SAVED,
    SEA,
    SEAT_LETTERS,
    UNPLACED,
    State,
    creature_name,
    person_name,
)

HEADER = "survive-position 1"
LAND_SET = frozenset(board.LAND)
LETTER = {"beach": "B", "forest": "F", "mountain": "M"}
TERRAIN_OF = {v: k for k, v in LETTER.items()}
ROW_BREAKS = (9, 17, 23, 31, 36)  # board.LAND by rows: 9, 8, 6, 8, 5, 4 positions
PHASES = (
    "terrain", "place", "boat", "tile", "effect", "move", "sink", "back", "take", "pick",
    "roll", "creature", "defence", "rush", "interrupt", "reveal", "over",
)  # fmt: skip
CHANCE_PHASES = ("terrain", "back", "roll")
RED = frozenset(BACKS) - {"shark", "whale", "boat", "whirlpool", "volcano"}
SECRET_CTX = ("queue",)  # who is asked for a repellent tells who may hold one (B-29)


class PositionError(IllegalAction):
    """A position that cannot happen: `rule` is the rule it breaks."""


# -- writing -----------------------------------------------------------------------------------


def write(s: State, viewer: View = REFEREE) -> str:
    """The position as `viewer` (a seat, None for a spectator, or REFEREE) may see it."""
    referee = viewer == REFEREE
    over = s.phase in ("over", "reveal")
    own = s.rules.option("own_values_visible") == "yes"
    modules = ",".join(s.rules.modules)
    options = " ".join(f"{k}={v}" for k, v in sorted(s.rules.options.items()))
    game = f"players={s.players} mode={s.mode}"
    if referee:
        game += f" seed={s.seed} draws={s.draws}"
    lines = [
        HEADER,
        f"rules {modules}{' ' + options if options else ''}",
        f"game {game}",
        f"island {_island(s)}",
        "people "
        + " ".join(
            _person(s, p, referee or over or (own and viewer == p // 10)) for p in sorted(s.p_owner)
        ),
        "boats " + " ".join(_boat(s, b) for b in range(len(s.b_pos))),
        "creatures " + " ".join(_creature(s, c) for c in range(len(s.c_kind))),
        "hands " + " ".join(_hand(s, seat, referee or viewer == seat) for seat in range(s.players)),
    ]
    backs = f"untold={_counts(s.unknown_red)} sunk={_counts(s.sunk)}"
    if referee:
        known = ",".join(f"{t}/{k}:{n}" for t in TERRAINS for k, n in sorted(s.known[t].items()))
        backs = f"known={known or '-'} " + backs
    lines.append(f"backs {backs}")
    lines.append(f"turn {_turn(s, referee or viewer == s.actor)}")
    ctx = s.ctx if referee else {k: v for k, v in s.ctx.items() if k not in SECRET_CTX}
    lines.append("decision " + json.dumps(ctx, separators=(",", ":"), sort_keys=True))
    if s.pending:
        lines.append("pending " + json.dumps(s.pending, separators=(",", ":"), sort_keys=True))
    if s.result is not None:
        lines.append("result " + json.dumps(s.result, separators=(",", ":"), sort_keys=True))
    return "\n".join(lines) + "\n"


def _island(s: State) -> str:
    out = []
    for i, h in enumerate(board.LAND):
        if i in ROW_BREAKS:
            out.append("/")
        t = s.terrain[h]
        out.append("-" if i >= s.layout else "." if t is None else LETTER[t])
    return "".join(out)


def _where(s: State, p: int) -> str:
    kind, at = s.p_kind[p], s.p_at[p]
    if kind == LAND:
        return board.name(at)
    if kind == SEA:
        return "~" + board.name(at)
    if kind == BOAT:
        return f"b{at + 1}"
    if kind == SAVED:
        return board.name(at)
    return "x" if kind == LOST else "-"


def _person(s: State, p: int, sees: bool) -> str:
    value = s.p_value[p] if sees else None
    return f"{person_name(p)}={'?' if value is None else value}@{_where(s, p)}"


def _boat(s: State, b: int) -> str:
    pos = s.b_pos[b]
    text = f"b{b + 1}@{'-' if pos == OFF else board.name(pos)}"
    if s.b_people[b]:
        text += ":" + ",".join(person_name(p) for p in s.b_people[b])
    return text


def _creature(s: State, c: int) -> str:
    pos = s.c_pos[c]
    text = f"{creature_name(s.c_kind, c)}@{'x' if s.c_gone[c] else '-' if pos == OFF else board.name(pos)}"
    if c in s.guard:
        text += ">" + person_name(s.guard[c])
    return text


def _hand(s: State, seat: int, sees: bool) -> str:
    held = s.hands[seat]
    tiles = [f"{t}/{k or '?'}" if sees else "?/?" for t, k in held]
    return f"{SEAT_LETTERS[seat]}:{','.join(tiles) or '-'}"


def _counts(counts: dict[str, int]) -> str:
    return ",".join(f"{t}:{counts[t]}" for t in TERRAINS)


def _seat(x: int) -> str:
    return "table" if x == CHANCE else "-" if x == NOBODY else SEAT_LETTERS[x]


def _turn(s: State, sees_actor: bool) -> str:
    actor = s.actor
    if s.phase == "defence" and not sees_actor:
        actor = NOBODY  # who is asked would tell who may hold a repellent (B-29)
    parts = [
        SEAT_LETTERS[s.turn],
        f"step={s.phase}",
        f"actor={_seat(actor)}",
        f"points={s.points}",
        f"taken={','.join(map(str, s.turns_taken))}",
        f"swam={','.join(person_name(p) for p in sorted(s.swam)) or '-'}",
        f"roll={(s.roll or '-').replace(' ', '_')}",
    ]
    if s.volcano_turn is not None:
        parts.append(f"ended-on={SEAT_LETTERS[s.volcano_turn]}")
    if s.from_sunk:
        parts.append(f"rush={','.join(person_name(p) for p in s.from_sunk)}")
    return " ".join(parts)


# -- reading -----------------------------------------------------------------------------------


def read(text: str) -> State:
    """The state a position describes; MalformedAction when the text is not a position,
    PositionError (with the rule) when it is one that cannot happen."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines or lines[0] != HEADER:
        raise MalformedAction(f"a position starts with {HEADER!r}")
    parts: dict[str, str] = {}
    for line in lines[1:]:
        key, _, rest = line.partition(" ")
        if key in parts:
            raise MalformedAction(f"the position has two {key!r} lines")
        parts[key] = rest.strip()
    need = ("rules", "game", "island", "people", "boats", "creatures", "hands", "backs", "turn")
    missing = [k for k in need if k not in parts]
    if missing:
        raise MalformedAction(f"the position lacks its {', '.join(missing)} line(s)")
    try:
        s = _read(parts)
    except (KeyError, ValueError, IndexError, TypeError, json.JSONDecodeError) as e:
        raise MalformedAction(f"not a position: {e}") from None
    check(s)
    return s


def _fields(text: str) -> dict[str, str]:
    out = {}
    for word in text.split():
        key, sep, value = word.partition("=")
        if not sep:
            raise ValueError(f"{word!r} is not name=value")
        out[key] = value
    return out


def _read(parts: dict[str, str]) -> State:
    words = parts["rules"].split()
    try:
        rules = Rules.parse(words[0] if words else "base", words[1:])
    except RulesError:
        raise
    game = _fields(parts["game"])
    players = int(game["players"])
    rules = fivesix.for_players(rules, players)
    s = State(rules, players, int(game.get("seed", "0")), game["mode"])
    s.draws = int(game.get("draws", "0"))
    _read_island(s, parts["island"])
    _read_people(s, parts["people"])
    _read_boats(s, parts["boats"])
    _read_creatures(s, parts["creatures"])
    _read_hands(s, parts["hands"])
    _read_backs(s, _fields(parts["backs"]))
    _read_turn(s, parts["turn"])
    s.ctx = json.loads(parts.get("decision", "{}"))
    s.pending = json.loads(parts.get("pending", "[]"))
    s.result = json.loads(parts["result"]) if "result" in parts else None
    s.reindex()
    return s


def _read_island(s: State, text: str) -> None:
    letters = text.replace("/", "")
    if len(letters) != len(board.LAND):
        raise PositionError(
            "B-2", f"the island has {len(board.LAND)} land positions, not {len(letters)}"
        )
    laid = len(letters.rstrip("-"))
    if "-" in letters[:laid]:
        raise PositionError("B-2", "the island is laid position by position, in order")
    s.layout = laid
    for h, letter in zip(board.LAND, letters, strict=True):
        if letter in TERRAIN_OF:
            s.terrain[h] = TERRAIN_OF[letter]
        elif letter not in ".-":
            raise ValueError(f"{letter!r} is not B, F, M, . (sunk) or - (not laid)")


def _person_id(word: str) -> int:
    seat = SEAT_LETTERS.find(word[:1])
    if seat < 0 or not word[1:].isdigit():
        raise ValueError(f"{word!r} is not a person")
    return seat * 10 + int(word[1:]) - 1


def _read_people(s: State, text: str) -> None:
    seen: set[int] = set()
    for word in text.split():
        name, _, rest = word.partition("=")
        value, _, where = rest.partition("@")
        p = _person_id(name)
        if p not in s.p_owner:
            raise PositionError(_count_rule(s), f"{name} is not in a {s.players}-player game")
        seen.add(p)
        s.p_value[p] = None if value == "?" else int(value)
        if where == "-":
            s.p_kind[p], s.p_at[p] = UNPLACED, OFF
        elif where == "x":
            s.p_kind[p], s.p_at[p] = LOST, OFF
        elif where.startswith("~"):
            s.p_kind[p], s.p_at[p] = SEA, board.parse(where[1:])
        elif where.startswith("b") and where[1:].isdigit():
            s.p_kind[p], s.p_at[p] = BOAT, int(where[1:]) - 1
        else:
            h = board.parse(where)
            s.p_kind[p], s.p_at[p] = (SAVED if board.IS_SAFE[h] else LAND), h
    if seen != set(s.p_owner):
        left = ", ".join(person_name(p) for p in sorted(set(s.p_owner) - seen))
        raise PositionError(_count_rule(s), f"the position leaves out {left}")


def _count_rule(s: State) -> str:
    return {5: "P-1", 6: "P-2"}.get(s.players, "B-4")


def _pieces(text: str, count: int, kind: str) -> list[tuple[str, str]]:
    """The words of a pieces field (``name@where``), one for each of the box's `count`."""
    words = text.split()
    if len(words) != count:
        raise ValueError(f"the box has {count} {kind}, the position names {len(words)}")
    return [(name, rest) for name, _, rest in (w.partition("@") for w in words)]


def _read_boats(s: State, text: str) -> None:
    for b, (name, rest) in enumerate(_pieces(text, len(s.b_pos), "boats")):
        at, _, aboard = rest.partition(":")
        if name != f"b{b + 1}":
            raise ValueError(f"boats are listed b1, b2, ... in order, not {name}")
        s.b_pos[b] = OFF if at == "-" else board.parse(at)
        s.b_people[b] = [_person_id(w) for w in aboard.split(",")] if aboard else []


def _read_creatures(s: State, text: str) -> None:
    for c, (name, rest) in enumerate(_pieces(text, len(s.c_kind), "creatures")):
        at, _, guarded = rest.partition(">")
        if name != creature_name(list(CREATURES), c):
            raise ValueError(f"creatures are listed in the box's order, not {name}")
        s.c_gone[c] = at == "x"
        s.c_pos[c] = OFF if at in ("x", "-") else board.parse(at)
        if guarded:
            s.guard[c] = _person_id(guarded)


def _read_hands(s: State, text: str) -> None:
    for word in text.split():
        seat = SEAT_LETTERS.find(word[:1])
        if seat < 0 or seat >= s.players or word[1:2] != ":":
            raise ValueError(f"{word!r} is not a seat's hand")
        tiles = word[2:]
        s.hands[seat] = [
            [t, None if k == "?" else k]
            for t, _, k in (tile.partition("/") for tile in tiles.split(","))
        ] if tiles != "-" else []  # fmt: skip


def _read_backs(s: State, fields: dict[str, str]) -> None:
    known = fields.get("known", "-")
    if known != "-":
        for item in known.split(","):
            tk, _, n = item.partition(":")
            t, _, k = tk.partition("/")
            s.known[t][k] = int(n)
    for key, target in (("untold", s.unknown_red), ("sunk", s.sunk)):
        for item in fields[key].split(","):
            t, _, n = item.partition(":")
            if t not in TERRAINS:
                raise ValueError(f"{t!r} is not a terrain")
            target[t] = int(n)


def _read_turn(s: State, text: str) -> None:
    words = text.split()
    s.turn = SEAT_LETTERS.index(words[0])
    f = _fields(" ".join(words[1:]))
    s.phase = f["step"]
    actor = f["actor"]
    s.actor = CHANCE if actor == "table" else NOBODY if actor == "-" else SEAT_LETTERS.index(actor)
    s.points = int(f["points"])
    s.turns_taken = [int(x) for x in f["taken"].split(",")]
    s.swam = set() if f["swam"] == "-" else {_person_id(w) for w in f["swam"].split(",")}
    s.roll = None if f["roll"] == "-" else f["roll"].replace("_", " ")
    if "ended-on" in f:
        s.volcano_turn = SEAT_LETTERS.index(f["ended-on"])
    if "rush" in f:
        s.from_sunk = [_person_id(w) for w in f["rush"].split(",")]


# -- can it happen? ----------------------------------------------------------------------------


def check(s: State) -> None:
    """Refuse a position that cannot happen, with the rule it breaks (PositionError)."""
    _check_island(s)
    _check_people(s)
    _check_boats(s)
    _check_creatures(s)
    _check_hands(s)
    _check_step(s)


def _check_island(s: State) -> None:
    count = terrain_count(s)
    rule = "E-5" if by_rings(s) else "B-2"
    for t in TERRAINS:
        on = sum(1 for h in board.LAND if s.terrain[h] == t)
        if on + s.sunk[t] > count[t]:
            raise PositionError(
                rule,
                f"{on} {t} tiles on the island and {s.sunk[t]} removed: the island has {count[t]}",
            )
    if by_rings(s):
        for ring, terrain in zip(RINGS, RING_TERRAIN, strict=True):
            wrong = [h for h in ring if s.terrain[h] not in (None, terrain)]
            if wrong:
                raise PositionError(
                    "E-5", f"{board.name(wrong[0])} is in the {terrain} ring of the 1986 island"
                )
    if s.is_1986 and any(s.hands):
        raise PositionError("E-4", "nobody holds tiles in the 1986 ruleset")


def _check_people(s: State) -> None:
    for p in sorted(s.p_owner):
        kind, at, name = s.p_kind[p], s.p_at[p], person_name(p)
        if kind == LAND and s.terrain[at] is None:
            if at in LAND_SET:
                raise PositionError(
                    "B-22", f"{name} stands on {board.name(at)}, whose tile is gone: "
                    "people of a removed tile swim"
                )  # fmt: skip
            raise PositionError("B-12", f"{name} stands on {board.name(at)}, which is sea")
        if kind == SEA and not s.is_sea(at):
            raise PositionError("B-16", f"{name} swims on {board.name(at)}, which is not sea")
        if kind == SAVED and not board.IS_SAFE[at]:
            raise PositionError("B-19", f"{name} is saved only on a safe island")
        if kind == BOAT and p not in s.b_people[at]:
            raise PositionError("B-13", f"{name} is in b{at + 1}, which does not carry it")
        if kind == UNPLACED and s.phase not in ("terrain", "place"):
            raise PositionError("B-5", f"{name} is still to be placed after placement is over")
    values = fivesix.people_values(s.rules, s.players)
    if s.is_1986:
        return
    for seat in range(s.players):
        told = sorted(v for p in s.seat_people[seat] if (v := s.p_value[p]) is not None)
        left = list(values)
        for v in told:
            if v not in left:
                raise PositionError(
                    _count_rule(s),
                    f"seat {SEAT_LETTERS[seat]}'s people are worth {', '.join(map(str, values))}: "
                    f"not {', '.join(map(str, told))}",
                )
            left.remove(v)


def _check_boats(s: State) -> None:
    seen: dict[int, int] = {}
    for b, pos in enumerate(s.b_pos):
        if pos == OFF:
            if s.b_people[b]:
                raise PositionError("B-13", f"b{b + 1} is in the supply with people aboard")
            continue
        if not s.is_sea(pos):
            raise PositionError("B-13", f"b{b + 1} is on {board.name(pos)}: boats stay at sea")
        if pos in seen:
            raise PositionError("B-13", f"b{seen[pos] + 1} and b{b + 1} share {board.name(pos)}")
        seen[pos] = b
        if len(s.b_people[b]) > 3:
            raise PositionError("B-13", f"b{b + 1} carries {len(s.b_people[b])} people: 3 at most")
        for p in s.b_people[b]:
            if p not in s.p_owner or s.p_kind[p] != BOAT or s.p_at[p] != b:
                raise PositionError("B-13", f"b{b + 1} carries {person_name(p)}, who is elsewhere")


def _check_creatures(s: State) -> None:
    for c, pos in enumerate(s.c_pos):
        if pos != OFF and not s.is_sea(pos):
            raise PositionError(
                "B-27", f"{creature_name(s.c_kind, c)} is on {board.name(pos)}: creatures swim"
            )
        if pos != OFF and s.c_kind[c] not in s.in_play:
            raise PositionError(
                "B-3", f"{creature_name(s.c_kind, c)} is not in play with these rules"
            )
    guarded: set[int] = set()
    for d, p in s.guard.items():
        if s.c_kind[d] != "dolphin" or p not in s.p_owner or s.p_kind[p] != SEA:
            raise PositionError("D-6", "a dolphin protects a swimmer")
        if s.c_pos[d] != s.p_at[p] or p in guarded:
            raise PositionError("D-6", "a dolphin protects one swimmer in its own space")
        guarded.add(p)


def _check_hands(s: State) -> None:
    for seat, held in enumerate(s.hands):
        for t, k in held:
            if t not in TERRAINS or (k is not None and k not in RED):
                raise PositionError(
                    "B-22", f"seat {SEAT_LETTERS[seat]} holds {t}/{k}: only red backs are kept"
                )
    for t in TERRAINS:
        n = sum(1 for hand in s.hands for tt, _ in hand if tt == t)
        if n > s.sunk[t]:
            raise PositionError("B-22", f"{n} {t} tiles held but {s.sunk[t]} removed")
    if s.is_1986:
        return  # E-4: the 1986 backs are not the box's deck (`sinking.weights_1986`)
    for t in TERRAINS:
        for k, n in s.known[t].items():
            # (the draw of a back counts the tiles still hidden from this: `sinking.drawn_back`)
            if n > DECK[t].get(k, 0):
                raise PositionError(
                    "B-22", f"{n} {t} tiles known to be {k}, but the deck has {DECK[t].get(k, 0)}"
                )


def _check_step(s: State) -> None:
    if s.phase not in PHASES:
        raise MalformedAction(f"{s.phase!r} is not a step; steps: {', '.join(PHASES)}")
    rule = {"terrain": "B-2", "back": "B-22", "roll": "B-10"}.get(s.phase)
    if rule and s.actor != CHANCE:
        raise PositionError(rule, f"at {s.phase} the table decides, not a seat")
    if s.phase == "terrain" and s.layout == len(board.LAND):
        raise PositionError("B-2", "the island is fully laid: the laying is over")
    if s.phase != "terrain" and s.layout < len(board.LAND):
        raise PositionError("B-2", f"step {s.phase} cannot come before the island is laid")
    if s.phase in ("tile", "move", "sink", "creature") and s.actor != s.turn:
        raise PositionError(
            {"tile": "B-7", "move": "B-8", "sink": "B-9", "creature": "B-10"}[s.phase],
            f"step {s.phase} is the decision of the seat whose turn it is",
        )
    if s.phase == "move" and not 1 <= s.points <= 3:
        raise PositionError("B-8", f"step 2 has 1 to 3 movement points left, not {s.points}")
    if s.phase == "over" and (s.actor != NOBODY or s.result is None):
        raise PositionError("B-30", "a game over has its result and nobody to act")
    if len(s.turns_taken) != s.players:
        raise MalformedAction("taken lists one number of turns per seat")
