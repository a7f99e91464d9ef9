"""Where everything is: the board, the people, the boats, the creatures and the tiles in hand.

`State` is the engine's one mutable record. The rules modules (setup, movement, sinking,
creatures, scoring) read and change it; `Game` is the face the rest of the companion uses.
Besides the pieces it keeps indexes (who is on which hex) that are rebuilt when a state is
loaded, so they never go out of step with the pieces they index.
"""

from __future__ import annotations

from bisect import insort
from itertools import filterfalse
from typing import Any, Final

from . import board
from .data import BOATS_PER_PLAYER, PIECES, TERRAINS
from .fivesix import LAST_ON_OCCUPIED, crowded, people_values
from .rules import ALONE as ESCAPE_1986
from .rules import Rules

Action = tuple[Any, ...]
"""An action: a verb and its arguments, e.g. ``("move", 7, 58)``. See `actions` for the forms."""
DONE: Final[Action] = ("done",)
"""The action that ends a step of one's own (a turn's moves, a red tile's plays, ...)."""

CHANCE: Final = -1
"""`State.actor` when the next decision is the table's (a die, a tile back), not a player's."""
NOBODY: Final = -2
"""`State.actor` when the game is over."""

# Where a person is (State.p_kind); p_at then holds the hex, the boat or the safe island.
# Final: compiled by mypyc, each is a constant in the code, not a look-up per use.
UNPLACED: Final = 0
LAND: Final = 1
BOAT: Final = 2
SEA: Final = 3
SAVED: Final = 4
LOST: Final = 5
PLACE_NAMES = ("unplaced", "land", "boat", "sea", "saved", "lost")

CREATURE_KINDS = ("serpent", "shark", "whale", "dolphin", "squid")
"""Every creature piece of the box and its kits, in this order (a creature's number is its place)."""
CREATURES: Final = tuple(k for k in CREATURE_KINDS for _ in range(PIECES[k]))
"""Each creature's kind by its number: the pieces of a kind are numbered together."""
OF_KIND: Final = {
    k: range(CREATURES.index(k), CREATURES.index(k) + PIECES[k]) for k in CREATURE_KINDS
}
"""The numbers of each kind's creatures (asked for one kind, not all 25 pieces are looked at)."""
OFF: Final = -1
"""Position of a boat in the supply, or of a creature not on the board."""

SEAT_LETTERS = "ABCDEF"

WATER: Final[tuple[int, ...]] = tuple(h for h in range(board.SIZE) if not board.IS_SAFE[h])
"""Every hex but the safe islands, in board order: sea, or land that may sink into it."""

ENDS_MID_TURN: Final = frozenset({ESCAPE_1986, "leave-no-one-behind", "atlantis-is-gone"})
"""The modules under which a game may end mid-turn, the last person or tile gone (C-2, C-4,
E-6): only their games ask `scoring.ending` after every step."""


class State:
    """The whole game at one moment, hidden facts included (the referee's knowledge)."""

    __slots__ = (
        "rules",
        "players",
        "mode",
        "seed",
        "draws",
        "phase",
        "actor",
        "turn",
        "turns_taken",
        "points",
        "swam",
        "ctx",
        "roll",
        "terrain",
        "layout",
        "p_owner",
        "p_value",
        "p_kind",
        "p_at",
        "b_pos",
        "b_people",
        "c_kind",
        "c_pos",
        "c_gone",
        "in_play",
        "guard",
        "pending",
        "hands",
        "known",
        "unknown_red",
        "sunk",
        "volcano_turn",
        "from_sunk",
        "result",
        "seat_people",
        # derived from the rules, not stored
        "is_1986",
        "ends_mid_turn",
        "one_per_tile",
        "access",
        "values",
        # indexes, rebuilt from the above
        "land_people",
        "swimmers",
        "boat_at",
        "n_serpent",
        "n_shark",
        "n_whale",
        "n_dolphin",
        "n_squid",
        "_counts",
        "standing",
        "empty_land",
        "sailable",
        "tally",
        "sea_near",
        "occupants",
        "left_values",
    )

    def __init__(
        self, rules: Rules, players: int, seed: int, mode: str, *, empty: bool = False
    ) -> None:
        self.rules = rules
        self.players = players
        self.mode = mode
        self.seed = seed
        if empty:
            return  # `copy` sets every other slot (compiled by mypyc, State has no bare __new__)
        self.draws = 0
        self.phase = "terrain"
        self.actor = CHANCE
        self.turn = 0
        self.turns_taken = [0] * players
        self.points = 0
        self.swam: set[int] = set()
        self.ctx: dict[str, Any] = {}
        self.roll: str | None = None
        # terrain[h]: the land tile lying on hex h, or None where h is sea (or a safe island)
        self.terrain: list[str | None] = [None] * board.SIZE
        self.layout = 0  # land positions laid so far (setup)
        # P-1, P-2: with 5 or 6 players a few people stay in the box: they are not in the game
        self.values = tuple(sorted(people_values(rules, players)))  # each seat's, B-4, P-1
        each = len(self.values)
        self.seat_people = [[seat * 10 + k for k in range(each)] for seat in range(players)]
        # the people in this game, in id order
        self.p_owner = {p: seat for seat, people in enumerate(self.seat_people) for p in people}
        # Each person's value, place kind and place, indexed by its id (seat * 10 + k): lists,
        # not dicts, because every rule reads them (compiled, a list index is a native read,
        # a dict look-up a generic call). Ids not in the game (fewer people with 5 or 6
        # players, P-1, P-2) keep the entries below; nothing reads them: `p_owner` says who is.
        self.p_value: list[int | None] = [None] * (players * 10)
        self.p_kind = [UNPLACED] * (players * 10)
        self.p_at = [OFF] * (players * 10)
        self.b_pos = [OFF] * PIECES["boat"]
        self.b_people: list[list[int]] = [[] for _ in range(PIECES["boat"])]
        self.c_kind = list(CREATURES)
        self.c_pos = [OFF] * len(self.c_kind)
        self.c_gone = [False] * len(self.c_kind)  # removed from the game (eaten by a whirlpool...)
        self.in_play = kinds_in_play(rules)
        self.is_1986 = ESCAPE_1986 in rules.modules
        self.ends_mid_turn = any(module in ENDS_MID_TURN for module in rules.modules)
        # B-5 alone says where people are placed: one on each empty tile, for every seat (no
        # 1986 beach rule, E-4; no second person on a tile, C-1, P-4; no last person joining
        # another colour, P-2). `setup.place_tiles` then asks nothing else at each placement.
        self.one_per_tile = not (
            self.is_1986
            or crowded(rules)
            or "densely-populated" in rules.modules
            or players in LAST_ON_OCCUPIED
        )
        self.access = entrances(rules)  # access hex -> its safe island (B-15, E-7)
        # guard[dolphin] = the swimmer it protects (D-6)
        self.guard: dict[int, int] = {}
        # Decisions that interrupt the flow (a dolphin's protege, a squid's prey), oldest first;
        # each may hold the phase it interrupted under "resume".
        self.pending: list[dict[str, Any]] = []
        # hands[seat]: red tiles held, each [terrain, back or None while unknown to the companion]
        self.hands: list[list[list[str | None]]] = [[] for _ in range(players)]
        # known[terrain][back]: tiles of that terrain whose back is known to be that back
        self.known: dict[str, dict[str, int]] = {t: {} for t in TERRAINS}
        self.unknown_red = {t: 0 for t in TERRAINS}  # red tiles sunk whose back nobody told
        self.sunk = {t: 0 for t in TERRAINS}
        self.volcano_turn: int | None = None  # the seat on whose turn the game ended
        # P-5: people of the tile just sunk, owed Overpopulated's immediate point
        self.from_sunk: list[int] = []
        self.result: dict[str, Any] | None = None
        self.reindex()

    # -- indexes ---------------------------------------------------------------------------

    def reindex(self) -> None:
        """Rebuild who-is-where (and which land tiles of each terrain stand) from the pieces
        and the island themselves."""
        self.recount_island()
        self.land_people: list[list[int]] = [[] for _ in range(board.SIZE)]
        self.swimmers: list[list[int]] = [[] for _ in range(board.SIZE)]
        # tally[seat][kind]: how many of the seat's people are unplaced, on land, in boats ...
        # (`UNPLACED` ... `LOST`): movement sizes its draw from it at every point, without a
        # look at each person. Kept by the pieces (`pieces._lift`).
        self.tally = [[0] * (LOST + 1) for _ in range(self.players)]
        for p in self.p_owner:
            kind = self.p_kind[p]
            self.tally[p // 10][kind] += 1
            if kind == LAND:
                self.land_people[self.p_at[p]].append(p)
            elif kind == SEA:
                self.swimmers[self.p_at[p]].append(p)
        # empty_land: the land tiles nobody stands on, in `board.LAND`'s order, where B-5 puts the
        # next person (finding them on the island at every placement was 1/40 of a pure
        # random game). Kept only while the island is laid and people are placed: nothing asks
        # it later, when people leave tiles and tiles sink at every turn.
        self.empty_land: list[int] = []
        if self.phase in ("terrain", "place"):
            self.empty_land = [
                h for h in board.LAND if self.terrain[h] is not None and not self.land_people[h]
            ]
        # occupants[h]: what is on hex h that keeps it from being vacant (spec): its land tile
        # or the safe island itself, each swimmer, a boat, each creature. Kept by the rules
        # that move pieces and lay or remove tiles: a red tile's creature, a dive or a boat at
        # setup asks which hexes have none, and finding that anew from every piece was a
        # twentieth of a pure random game.
        occupants = self.occupants = list(map(len, self.swimmers))
        for h in board.SAFE_ISLANDS:
            occupants[h] += 1
        for tiles in self.standing.values():
            for h in tiles:
                occupants[h] += 1
        self.boat_at = [OFF] * board.SIZE
        for b, pos in enumerate(self.b_pos):
            if pos != OFF:
                self.boat_at[pos] = b
                occupants[pos] += 1
        # sailable[seat]: the boats on the board that seat may sail (B-14), in number order.
        # Movement asks it at every point (finding them among every boat was a tenth of a pure
        # random game); only a boat's coming, going or people change it (`recontrol`).
        self.sailable = [
            [b for b, pos in enumerate(self.b_pos) if pos != OFF and self.controls(seat, b)]
            for seat in range(self.players)
        ]
        # sea_near[h]: which of h's neighbours are sea, a bit each (`board.PICKED` lists them).
        # Swimmers, boats, creatures and B-21's coastal tiles ask for the sea beside a hex at
        # every step (a look at each neighbour's terrain was a twentieth of a pure random
        # game). Kept as tiles are removed (sinking.apply_sink); set whole once the island is
        # laid (setup._laid), not kept while it is laid (nothing moves then).
        self.sea_near = sea_near(self.terrain)
        self.n_serpent = [0] * board.SIZE
        self.n_shark = [0] * board.SIZE
        self.n_whale = [0] * board.SIZE
        self.n_dolphin = [0] * board.SIZE
        self.n_squid = [0] * board.SIZE
        self._counts = {
            "serpent": self.n_serpent,
            "shark": self.n_shark,
            "whale": self.n_whale,
            "dolphin": self.n_dolphin,
            "squid": self.n_squid,
        }
        for c, pos in enumerate(self.c_pos):
            if pos != OFF:
                self.count(c)[pos] += 1
                occupants[pos] += 1

        self.recount_values()

    def recount_values(self) -> None:
        """left_values[seat][v]: how many of the seat's values (`values`) equal to v none of
        its people carries yet, in increasing v, none at 0: a placement draws among them
        (B-4, B-5), the last reveals too. Kept as people are given values
        (`setup.apply_place`, `scoring.apply_reveal`: `take_value`); found here from the
        people's values, which a position or a bot's sample sets from outside (a value not of
        this game takes nothing)."""
        shown = self.p_value
        each: dict[int, int] = {}
        for v in self.values:  # sorted: the keys are in increasing order
            each[v] = each.get(v, 0) + 1
        self.left_values = []
        for people in self.seat_people:
            left = dict(each)
            for p in people:
                value = shown[p]
                if value is not None and value in left:
                    self.take_value(left, value)
            self.left_values.append(left)

    @staticmethod
    def take_value(left: dict[int, int], value: int) -> None:
        """One of a seat's `left_values` given to a person: a value none is left of goes."""
        n = left[value] - 1
        if n:
            left[value] = n
        else:
            del left[value]

    def recount_island(self) -> None:
        """standing[t]: the land tiles of terrain t on the island, in `board.LAND`'s order, found
        here and kept by the rules that lay and remove tiles. B-20 and B-21 ask for them at
        every removal (finding them on the island was a tenth of a pure random game)."""
        self.standing: dict[str, list[int]] = {t: [] for t in TERRAINS}
        for h in board.LAND:
            t = self.terrain[h]
            if t is not None:
                self.standing[t].append(h)

    def count(self, creature: int) -> list[int]:
        """The per-hex count list of this creature's kind."""
        return self._counts[self.c_kind[creature]]

    def kind_count(self, kind: str) -> list[int]:
        return self._counts[kind]

    # -- questions every rule asks ----------------------------------------------------------

    def people_of(self, seat: int) -> list[int]:
        return self.seat_people[seat]

    def is_sea(self, h: int) -> bool:
        return self.terrain[h] is None and not board.IS_SAFE[h]

    def controllers(self, b: int) -> tuple[int, ...]:
        """Who may move boat b: anyone if empty, else the seats with most people aboard (B-14)."""
        aboard = self.b_people[b]
        if not aboard:
            return tuple(range(self.players))
        if len(aboard) == 1:
            return (aboard[0] // 10,)  # the common case, without counting
        counts: dict[int, int] = {}
        for p in aboard:
            counts[p // 10] = counts.get(p // 10, 0) + 1
        most = max(counts.values())
        return tuple(seat for seat, n in counts.items() if n == most)

    def controls(self, seat: int, b: int) -> bool:
        """May `seat` move boat b (B-14)? `controllers` without building the tuple, asked of
        every boat at every movement point."""
        aboard = self.b_people[b]
        if not aboard:
            return True
        if len(aboard) == 1:
            return aboard[0] // 10 == seat
        seats = [p // 10 for p in aboard]  # at most three
        mine = seats.count(seat)
        # no seat has more aboard: a loop (not max(map(...)): compiled, generic calls; not
        # all() over a generator: in Python, a call per passenger)
        for other in seats:  # noqa: SIM110
            if seats.count(other) > mine:
                return False
        return True

    def recontrol(self, b: int) -> None:
        """Keep `sailable` in step after boat b came onto the board, left it, or someone boarded
        or left it."""
        seats = self.controllers(b) if self.b_pos[b] != OFF else ()
        for seat, boats in enumerate(self.sailable):
            if seat in seats:
                if b not in boats:
                    insort(boats, b)
            elif b in boats:
                boats.remove(b)

    def boats_left(self) -> list[int]:
        """Boats in the supply."""
        return [b for b, pos in enumerate(self.b_pos) if pos == OFF]

    def creatures_in_supply(self, kind: str) -> list[int]:
        pos, gone = self.c_pos, self.c_gone
        return [c for c in OF_KIND[kind] if pos[c] == OFF and not gone[c]]

    def on_board(self, kind: str) -> list[int]:
        pos = self.c_pos
        return [c for c in OF_KIND[kind] if pos[c] != OFF]

    def creatures_at(self, h: int) -> list[int]:
        """The creatures at h, by number (most hexes hold none: the counts say so first)."""
        if not (
            self.n_serpent[h] or self.n_shark[h] or self.n_whale[h] or self.n_dolphin[h]
            or self.n_squid[h]
        ):  # fmt: skip
            return []
        return [c for c, pos in enumerate(self.c_pos) if pos == h]

    def vacant(self, h: int) -> bool:
        """A sea hex with no person, boat or creature (spec: 'vacant')."""
        return not self.occupants[h]

    def vacant_spaces(self, among: tuple[int, ...] = WATER) -> list[int]:
        """Every vacant sea hex of `among` (the whole board's unless told), in its order:
        `vacant` asked of many hexes at once (a red tile's creature may go to any of them),
        in C, from the kept `occupants`."""
        return list(filterfalse(self.occupants.__getitem__, among))

    def guardian(self, p: int) -> int | None:
        """The dolphin protecting swimmer p, if one does (D-6)."""
        for d, q in self.guard.items():
            if q == p:
                return d
        return None

    def free_dolphins(self, h: int) -> list[int]:
        """Dolphins at h that protect nobody; none in the 1986 ruleset, where they carry swimmers
        but never protect them (E-3)."""
        if not self.n_dolphin[h] or self.is_1986:
            return []
        return [
            c for c, k in enumerate(self.c_kind)
            if k == "dolphin" and self.c_pos[c] == h and c not in self.guard
        ]  # fmt: skip

    def has_people(self, seat: int) -> bool:
        """Has this seat people on land, in boats or swimming (B-11)?"""
        counts = self.tally[seat]  # counted by the pieces: no walk over the seat's people
        return counts[LAND] + counts[BOAT] + counts[SEA] > 0

    # -- the stored form ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_json(),
            "players": self.players,
            "mode": self.mode,
            "seed": self.seed,
            "draws": self.draws,
            "phase": self.phase,
            "actor": self.actor,
            "turn": self.turn,
            "turns_taken": list(self.turns_taken),
            "points": self.points,
            "swam": sorted(self.swam),
            "ctx": self.ctx,
            "roll": self.roll,
            "terrain": list(self.terrain),
            "layout": self.layout,
            "people": [
                [p, self.p_value[p], self.p_kind[p], self.p_at[p]] for p in sorted(self.p_owner)
            ],
            "boats": [
                [pos, list(people)] for pos, people in zip(self.b_pos, self.b_people, strict=True)
            ],
            "creatures": [[pos, gone] for pos, gone in zip(self.c_pos, self.c_gone, strict=True)],
            "guard": sorted([d, p] for d, p in self.guard.items()),
            "pending": self.pending,
            "hands": [[list(tile) for tile in hand] for hand in self.hands],
            "known": {t: dict(sorted(v.items())) for t, v in self.known.items()},
            "unknown_red": dict(self.unknown_red),
            "sunk": dict(self.sunk),
            "volcano_turn": self.volcano_turn,
            "from_sunk": list(self.from_sunk),
            "result": self.result,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        s = cls(Rules.from_json(data["rules"]), data["players"], data["seed"], data["mode"])
        s.draws = data["draws"]
        s.phase = data["phase"]
        s.actor = data["actor"]
        s.turn = data["turn"]
        s.turns_taken = list(data["turns_taken"])
        s.points = data["points"]
        s.swam = set(data["swam"])
        s.ctx = _copy(data["ctx"])
        s.roll = data["roll"]
        s.terrain = list(data["terrain"])
        s.layout = data["layout"]
        s.p_owner = {}
        s.p_value = [None] * (s.players * 10)
        s.p_kind = [UNPLACED] * (s.players * 10)
        s.p_at = [OFF] * (s.players * 10)
        s.seat_people = [[] for _ in range(s.players)]
        for p, value, kind, at in data["people"]:
            s.p_owner[p] = p // 10
            s.seat_people[p // 10].append(p)
            s.p_value[p] = value
            s.p_kind[p] = kind
            s.p_at[p] = at
        s.b_pos = [pos for pos, _ in data["boats"]]
        s.b_people = [list(people) for _, people in data["boats"]]
        s.c_pos = [pos for pos, _ in data["creatures"]]
        s.c_gone = [gone for _, gone in data["creatures"]]
        s.guard = {d: p for d, p in data["guard"]}
        s.pending = _copy(data["pending"])
        s.hands = [[list(tile) for tile in hand] for hand in data["hands"]]
        s.known = {t: dict(v) for t, v in data["known"].items()}
        s.unknown_red = dict(data["unknown_red"])
        s.sunk = dict(data["sunk"])
        s.volcano_turn = data["volcano_turn"]
        s.from_sunk = list(data.get("from_sunk", []))
        s.result = _copy(data["result"])
        s.reindex()
        return s

    def copy(self) -> State:
        """An independent copy (what a search plays forward on); the same as a JSON round trip,
        without re-reading the rules or rebuilding the indexes."""
        s = State(self.rules, self.players, self.seed, self.mode, empty=True)
        for name in _SHARED:
            setattr(s, name, getattr(self, name))  # immutable, or never changed after __init__
        s.turns_taken = list(self.turns_taken)
        s.swam = set(self.swam)
        s.ctx = _copy(self.ctx)
        s.terrain = list(self.terrain)
        s.p_owner = dict(self.p_owner)
        s.p_value = list(self.p_value)
        s.p_kind = list(self.p_kind)
        s.p_at = list(self.p_at)
        s.b_pos = list(self.b_pos)
        s.b_people = list(map(list, self.b_people))
        # The engine never changes these two, but a copy is promised independent: a checker or a
        # test that corrupts a copy must not corrupt the game it came from.
        s.seat_people = list(map(list, self.seat_people))
        s.c_kind = list(self.c_kind)
        s.c_pos = list(self.c_pos)
        s.c_gone = list(self.c_gone)
        s.guard = dict(self.guard)
        s.pending = _copy(self.pending)
        s.hands = [[list(tile) for tile in hand] for hand in self.hands]
        s.known = {t: dict(v) for t, v in self.known.items()}
        s.unknown_red = dict(self.unknown_red)
        s.sunk = dict(self.sunk)
        s.from_sunk = list(self.from_sunk)
        s.result = _copy(self.result)
        s.land_people = list(map(list, self.land_people))
        s.swimmers = list(map(list, self.swimmers))
        s.boat_at = list(self.boat_at)
        s.sailable = list(map(list, self.sailable))
        s.tally = list(map(list, self.tally))
        s.sea_near = list(self.sea_near)
        s.occupants = list(self.occupants)
        s.left_values = list(map(dict, self.left_values))
        s.n_serpent = list(self.n_serpent)
        s.n_shark = list(self.n_shark)
        s.n_whale = list(self.n_whale)
        s.n_dolphin = list(self.n_dolphin)
        s.n_squid = list(self.n_squid)
        s.standing = {t: list(tiles) for t, tiles in self.standing.items()}
        s.empty_land = list(self.empty_land)
        s._counts = {
            "serpent": s.n_serpent,
            "shark": s.n_shark,
            "whale": s.n_whale,
            "dolphin": s.n_dolphin,
            "squid": s.n_squid,
        }
        return s


_SHARED = (
    "rules", "players", "mode", "seed", "draws", "phase", "actor", "turn", "points", "roll",
    "layout", "in_play", "is_1986", "ends_mid_turn", "one_per_tile", "access", "values", "volcano_turn",
)  # fmt: skip


_OPEN_SEA: Final = tuple((1 << len(around)) - 1 for around in board.WATER_NEIGHBOURS)
"""`sea_near` before any tile is laid: every neighbour that can be sea is."""


def sea_near(terrain: list[str | None]) -> list[int]:
    """For each hex, which of its neighbours (`board.WATER_NEIGHBOURS`) are sea, a bit each:
    `board.PICKED[h][mask]` lists them. Found from the island here (all sea but where a tile
    lies); the rules that remove tiles keep it (`State.sea_near`)."""
    near = list(_OPEN_SEA)
    for h in board.LAND:
        if terrain[h] is not None:
            for n, bit in board.BIT_BESIDE[h]:
                near[n] = near[n] & ~bit
    return near


LAID_SEA_NEAR: Final = tuple(sea_near(["beach"] * board.SIZE))
"""`sea_near` of the island fully laid, before any tile is removed (B-3)."""


def kinds_in_play(rules: Rules) -> frozenset[str]:
    """The creature kinds this game's modules use: dolphins come with the dive dice and with the
    1986 ruleset (E-3), squids with the Giant Squid, and its variant #1 takes the whales out
    (Q-7)."""
    kinds = {"serpent", "shark", "whale"}
    if "dive-dice" in rules.modules or ESCAPE_1986 in rules.modules:
        kinds.add("dolphin")
    if "squid" in rules.modules:
        kinds.add("squid")
        if "squid-variant-1" in rules.modules:
            kinds.discard("whale")
    return frozenset(kinds)


ENTRANCES_1986: dict[str, str] = {"NW": "2.0", "NE": "1.10", "SW": "11.1", "SE": "10.10"}
"""E-7: the one entrance of each corner island on the 1986 board, the access hex without a
serpent at the start."""


def entrances(rules: Rules) -> dict[int, int]:
    """Access hex -> the safe island it leads to: both printed ones (B-15), or on the 1986 board
    with ``entrances_per_island=1`` only the entrance of E-7."""
    if ESCAPE_1986 not in rules.modules or rules.option("entrances_per_island") == "2":
        return board.ACCESS
    one = {board.parse(h) for h in ENTRANCES_1986.values()}
    return {h: island for h, island in board.ACCESS.items() if h in one}


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON data (faster than copy.deepcopy for this shape)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def person_name(p: int) -> str:
    """``A1`` is seat 1's first person, ``B10`` seat 2's tenth."""
    if 0 <= p < len(_PERSON_NAMES):
        return _PERSON_NAMES[p]  # written once: events name people at every step
    return f"{SEAT_LETTERS[p // 10]}{p % 10 + 1}"


_PERSON_NAMES: Final = tuple(
    f"{SEAT_LETTERS[p // 10]}{p % 10 + 1}" for p in range(10 * len(SEAT_LETTERS))
)


def creature_name(state_kinds: list[str], c: int) -> str:
    """``shark3``: the third shark of the box."""
    kind = state_kinds[c]
    return f"{kind}{c - state_kinds.index(kind) + 1}"


__all__ = [
    "BOAT",
    "BOATS_PER_PLAYER",
    "CHANCE",
    "LAND",
    "LOST",
    "NOBODY",
    "OFF",
    "SAVED",
    "SEA",
    "UNPLACED",
    "Action",
    "State",
]
