"""A Flotilla game at the table: a sequence of JSON actions, replayed to the same state.

The Table stores, replays, corrects and streams it like a Survive game (architecture.md: each
kind brings its own actions and views); this module is its rules side, with the face the Table
uses of the Survive engine's `Game`: `FlotillaGame.new`, `apply(action)` -> events (each with
``.kind`` and ``.project(view)``), `view`, `actor`, `over`, `result`, `is_chance`, `draw`,
`phase`, `legal_actions` (where the choices can be listed) and `state.turn`.

Actions (JSON lists, their shapes checked by `actions.check`; seats 0-based)::

    ["dive", {"skiffs": [{"tile": "A7", "depth": 2, "resource": "red", "barrels": 1}],
              "card_dice": [1], "sonar": ["barrel"], "other_tiles": []}]       F-1, a turn step
    ["dive_faces", [["barrel"], ["toxicity"]]]          the faces rolled, one per die (a fact)
    ["barrels", [1, 0]]                                 F-1: barrels added per skiff
    ["deplete", ["A7"]]                                 F-1: tiles that get a depletion marker
    ["research", {"dice": 4, "artifacts": {"delvers": 2}}]                     F-2
    ["research_faces", ["wild", "blue", "blue", "currency:1"]]                 (a fact)
    ["wild", {"blue": [0]}]                             F-2: the colour each wild die counts as
    ["trade", {"buy": {"red": 2}, "sell": {"blue": 1}}]                        F-3, once a turn
    ["vp", 3]                           VP gained, from the supply then the reserve (F-4)
    ["done"]                            end of the turn (F-4: the last turns once triggered)
    ["tally", {"currency": 7, "resources": 3, "toxicity": 2, "crew": 6,
               "seals": {"traders": 2}, "penalty_space": 1}]    F-5: the seat's end-of-game count

A faces action drawn by the companion (a digital roll, `draw`) carries a third item,
``"rolled"``, so that the phone can say beside it whether the dice file is verified.

Nothing the companion keeps of a Flotilla game is hidden (cards in hand stay on the table), so
every view sees the same state; refusals raise `RuleBroken` (naming the F- rule) or
`MalformedValue`, and leave the game exactly as it was.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from .actions import ROLLED, check
from .box import BOX, DIVE_ICONS, Box
from .dice import NOT_VERIFIED, roll_dive, roll_research
from .dive import SONAR, Dive, Skiff, check_other_tiles, dive, dive_dice
from .ending import Ending, end_triggered, turn_taken
from .errors import MalformedValue, RuleBroken
from .market import VP_PAST_ENDS_SOURCE, VP_PAST_ENDS_VERIFIED, Market, new_market, price, trade
from .research import Research, ResearchOptions, research, research_options
from .scoring import Tally, final_score
from .seals import SECOND_TIES
from .supply import Supply, new_supply, take_vp
from .values import from_json, to_json

View = int | str | None
"""A seat (0-based), None for a spectator, or ``"referee"``."""

ROLLS = ("entered", "digital")
"""How the table rolls: faces entered from the real dice, or drawn by the companion."""

# verb -> the rule it belongs to, for refusals that name one
VERBS = {
    "dive": "F-1",
    "dive_faces": "F-1",
    "barrels": "F-1",
    "deplete": "F-1",
    "research": "F-2",
    "research_faces": "F-2",
    "wild": "F-2",
    "trade": "F-3",
    "vp": "F-4",
    "done": "F-4",
    "tally": "F-5",
}
AWAITS = {
    "turn": "a turn step (dive, research, trade, vp) or done",
    "roll": "the faces of the dice just asked for",
    "barrels": "where the barrels go",
    "deplete": "which tiles get the depletion markers",
    "wild": "the colour each wild die counts as",
    "tally": "each captain's end-of-game count",
    "over": "nothing: the game is over",
}


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any]

    def project(self, view: View) -> dict[str, Any]:
        """Every view sees the same: the companion keeps nothing hidden of a Flotilla game."""
        return {"kind": self.kind, **self.data}


LISTED = 500
"""At most this many ways to place depletion markers are listed (a phone offers each as a
button); with very many other tiles named, any other valid choice is still accepted."""


@dataclass
class State:
    players: int
    seed: int
    roll: str
    supply: Supply
    vp: list[int]
    market: Market
    phase: str = "turn"
    turn: int = 0
    round: int = 1
    draws: int = 0
    """Dice rolls resolved so far: a digital roll's generator is seeded with seed and this."""
    traded: bool = False
    trade: dict[str, Any] | None = None
    """The last trade made (F-3): who, what was bought and sold, what it cost, paid and scored."""
    ending: Ending | None = None
    final: bool = False
    """The turn under way is one of the turns counted by `ending`."""
    step: dict[str, Any] | None = None
    """The dive or research under way: what was declared, and the faces once entered."""
    last: dict[str, Any] | None = None
    """The last dive or research resolved, for the phones to show."""
    tallies: dict[int, Tally] = field(default_factory=dict)
    result: dict[str, Any] | None = None
    second_ties: str = "toxicity"
    """How a tie for second most guild seals is broken (`seals.SECOND_TIES`), set at setup."""


class FlotillaGame:
    """One Flotilla game as the table plays it."""

    def __init__(self, state: State, box: Box = BOX) -> None:
        self.state = state
        self.box = box

    @classmethod
    def new(
        cls,
        players: int,
        seed: int = 0,
        roll: str = "entered",
        vp_per_player: int | None = None,
        box: Box | None = None,
        second_ties: str = "toxicity",
    ) -> FlotillaGame:
        """A game about to start, seat 0 the first player. RuleBroken("F-4") for a player count
        or supply the rules do not allow; MalformedValue for an unknown roll mode."""
        box = box or BOX
        if roll not in ROLLS:
            raise MalformedValue(f"roll must be one of {', '.join(ROLLS)}, not {roll!r}")
        if vp_per_player is not None and (
            not isinstance(vp_per_player, int) or isinstance(vp_per_player, bool)
        ):
            raise MalformedValue(f"vp_per_player must be a whole number, not {vp_per_player!r}")
        if second_ties not in SECOND_TIES:
            raise MalformedValue(
                f"second_ties must be one of {', '.join(SECOND_TIES)}, not {second_ties!r}"
            )
        supply = new_supply(players, vp_per_player, box)
        state = State(players, seed, roll, supply, [0] * players, new_market(box))
        state.second_ties = second_ties
        return cls(state, box)

    # -- asking ---------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def actor(self) -> int | None:
        """The seat to decide now; None while dice are awaited (the table's) or once over."""
        s = self.state
        if s.phase in ("roll", "over"):
            return None
        if s.phase == "tally":
            return min(set(range(s.players)) - set(s.tallies))
        return s.turn

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def is_chance(self) -> bool:
        return self.state.phase == "roll"

    def result(self) -> dict[str, Any] | None:
        """The scores, the ranking and every reason (F-5, F-6), once the game is over."""
        return self.state.result

    def verbs(self) -> list[str]:
        """The verbs that may be sent now (the open-ended ones cannot be listed as actions)."""
        return [v for v in self._open() if not (v == "trade" and self.state.traded)]

    def _open(self) -> tuple[str, ...]:
        s = self.state
        if s.phase == "turn":
            return ("dive", "research", "trade", "vp", "done")
        if s.phase == "roll":
            assert s.step is not None
            return (f"{s.step['kind']}_faces",)
        return () if s.phase == "over" else (s.phase,)

    def legal_actions(self) -> list[tuple[Any, ...]]:
        """Every legal action where they can be listed: ending the turn, the barrel placements,
        the depletion markers, the wild dice's colours (the best first)."""
        s = self.state
        if s.phase == "turn":
            return [("done",)]
        if s.phase == "barrels":
            return [("barrels", list(o)) for o in self._dive().barrel_options]
        if s.phase == "deplete":
            d = self._dive().depletion
            on = (
                (*a, *b)
                for a in itertools.combinations(d.skiff_tiles, d.on_skiff_tiles)
                for b in itertools.combinations(d.other_tiles, d.on_other_tiles)
            )
            return [("deplete", list(tiles)) for tiles in itertools.islice(on, LISTED)]
        if s.phase == "wild":
            options = self._options()
            return [("wild", to_json(r.wild)) for r in (options.best, *options.alternatives)]
        return []

    def choices(self, view: View) -> dict[str, Any]:
        """What `view` may do now: for the seat deciding (or whose dice are awaited) and the
        referee, the listed actions and the verbs open."""
        if self.over:
            return {}
        deciding = self.actor if not self.is_chance() else self.state.turn
        if view not in (deciding, "referee"):
            return {}
        return {"legal": [list(a) for a in self.legal_actions()], "verbs": self.verbs()}

    def draw(self) -> list[Any]:
        """The faces of the dice awaited, drawn from the game's seeded generator and the dice
        file (a digital roll); `apply` it to make it happen."""
        s = self.state
        if s.phase != "roll" or s.step is None:
            raise RuleBroken("F-1", "no dice are awaited now: start a dive or a research first")
        rng = random.Random(f"{s.seed}:{s.draws}")
        if s.step["kind"] == "dive":
            depths = [d["depth"] for d in s.step["dice"]]
            return ["dive_faces", [list(f) for f in roll_dive(depths, rng, self.box).faces], ROLLED]
        return ["research_faces", list(roll_research(s.step["dice"], rng, self.box).faces), ROLLED]

    # -- doing ----------------------------------------------------------------------------

    def apply(self, action: Any, by: int | None = None) -> list[Event]:
        """Make `action` happen; its events. RuleBroken or MalformedValue leave the game as
        it was: every check is made on a copy before the state is replaced.

        `by`: the acting seat, refused when the decision is another seat's (None: a replay,
        or the table telling its dice)."""
        a = check(action)
        verb = a[0]
        actor = self.actor
        if by is not None and actor is not None and by != actor:
            raise RuleBroken(
                VERBS[verb],
                f"it is seat {actor + 1}'s decision, not seat {by + 1}'s",
                "turn.not_yours",
                {"seat": actor},
            )
        if verb not in self._open():
            raise RuleBroken(
                VERBS[verb], f"{verb} is not possible now: the table awaits {AWAITS[self.phase]}"
            )
        before = self.state
        self.state = copy.deepcopy(before)
        try:
            events: list[Event] = []
            STEPS[verb](self, a, events)
        except BaseException:
            self.state = before
            raise
        return events

    def _dive_start(self, a: list[Any], ev: list[Event]) -> None:
        s, args = self.state, a[1]
        skiffs = [from_json(Skiff, k) for k in args["skiffs"]]
        card_dice = args.get("card_dice", [])
        dice = dive_dice(skiffs, card_dice, self.box)
        if not dice:
            raise RuleBroken("F-1", "no dive die to roll: every skiff is on a depleted tile")
        sonar = args.get("sonar", [])
        if SONAR in sonar or not all(isinstance(i, str) and i for i in sonar):
            raise RuleBroken("F-1", f"the sonar track's space shows icons, not {sonar}")
        check_other_tiles(skiffs, args.get("other_tiles", []))
        names = {k.depth: k.name for k in self.box.dive_kinds}
        s.step = {
            "kind": "dive",
            **args,
            "dice": [{**to_json(d), "name": names[d.depth]} for d in dice],
        }
        s.phase = "roll"
        ev.append(Event("dive_started", {"seat": s.turn, "dice": s.step["dice"]}))

    def _dive_faces(self, a: list[Any], ev: list[Event]) -> None:
        self._take_faces(a)
        d = self._dive()
        verified = all(
            k.verified for k in self.box.dive_kinds if k.depth in {x.depth for x in d.dice}
        )
        ev.append(Event("dive_rolled", self._rolled(a, verified)))
        self._dive_next(d, ev)

    def _barrels(self, a: list[Any], ev: list[Event]) -> None:
        assert self.state.step is not None
        self.state.step["barrels"] = a[1]
        self._dive_next(self._dive(), ev)

    def _deplete(self, a: list[Any], ev: list[Event]) -> None:
        assert self.state.step is not None
        self.state.step["depleted"] = a[1]
        self._dive_next(self._dive(), ev)

    def _dive_next(self, d: Dive, ev: list[Event]) -> None:
        s = self.state
        if d.barrels_placed is None:
            s.phase = "barrels"
        elif d.depleted is None:
            s.phase = "deplete"
        else:
            summary = {
                "seat": s.turn,
                "gained": d.gained,
                "barrels_lost": d.barrels_lost,
                "toxicity": d.toxicity,
                "survivor": d.survivor,
                "depleted": list(d.depleted),
                "other": d.other,
                "skiffs": to_json(d.skiffs),
            }
            self._resolved("dive", summary, ev)

    def _research_start(self, a: list[Any], ev: list[Event]) -> None:
        s, args = self.state, a[1]
        dice = args["dice"]
        if not 1 <= dice <= self.box.research_dice:
            raise RuleBroken(
                "F-2", f"the box has {self.box.research_dice} research dice: roll 1 to that many"
            )
        research([], artifacts=args.get("artifacts"), box=self.box)  # checks the guilds named
        s.step = {
            "kind": "research",
            "dice": dice,
            "artifacts": args.get("artifacts", {}),
        }
        s.phase = "roll"
        ev.append(Event("research_started", {"seat": s.turn, "dice": dice}))

    def _research_faces(self, a: list[Any], ev: list[Event]) -> None:
        self._take_faces(a)
        options = self._options()
        ev.append(Event("research_rolled", self._rolled(a, self.box.research_verified)))
        if options.wild_dice:
            self.state.phase = "wild"
        else:
            self._researched(options.best, ev)

    def _wild(self, a: list[Any], ev: list[Event]) -> None:
        step = self.state.step
        assert step is not None
        r = research(step["faces"], a[1], step["artifacts"], step["dice"], self.box)
        self._researched(r, ev)

    def _researched(self, r: Research, ev: list[Event]) -> None:
        summary = {"seat": self.state.turn, **to_json(r)}
        del summary["faces"]  # kept once, beside the summary (see _resolved)
        self._resolved("research", summary, ev)

    def _resolved(self, kind: str, summary: dict[str, Any], ev: list[Event]) -> None:
        s = self.state
        assert s.step is not None
        # What was declared stays beside the faces, so that a phone can offer them for fixing.
        declared = {k: s.step[k] for k in ("kind", "dice", "skiffs") if k in s.step}
        s.last = {"kind": kind, "faces": s.step["faces"], "rolled": s.step["rolled"],
                  "declared": declared, **summary}  # fmt: skip
        s.step = None
        s.phase = "turn"
        ev.append(Event("dived" if kind == "dive" else "researched", summary))

    def _trade(self, a: list[Any], ev: list[Event]) -> None:
        s = self.state
        if s.traded:
            raise RuleBroken(
                "F-3",
                "a turn's purchases and sales are told at once: undo the trade of this turn "
                "and tell them all together",
            )
        # F-3: told what the seat has delivered (and has aboard), the sales are checked
        t = trade(s.market, a[1].get("buy"), a[1].get("sell"), a[1].get("reserve"),
                  a[1].get("cargo"), box=self.box)  # fmt: skip
        s.market, s.traded = t.market, True
        s.trade = {"seat": s.turn, "bought": t.bought, "sold": t.sold, "cost": t.cost,
                   "income": t.income, "vp": t.vp}  # fmt: skip
        if t.vp and not VP_PAST_ENDS_VERIFIED:
            s.trade["vp_unverified"] = VP_PAST_ENDS_SOURCE  # shown as unverified to players
        ev.append(Event("traded", {"seat": s.turn, **to_json(t), **_unverified(t.vp)}))
        if t.vp:
            self._take(t.vp, ev)

    def _vp(self, a: list[Any], ev: list[Event]) -> None:
        if a[1] < 1:
            raise RuleBroken("F-4", f"a seat gains 1 VP or more at a time, not {a[1]}")
        self._take(a[1], ev)

    def _take(self, vp: int, ev: list[Event]) -> None:
        s = self.state
        take = take_vp(s.supply, vp)
        s.supply = take.supply
        s.vp[s.turn] += vp
        paid = {"from_supply": take.from_supply, "from_reserve": take.from_reserve}
        ev.append(Event("vp_taken", {"seat": s.turn, "vp": vp, **paid, "supply": s.supply.supply}))
        if take.triggered:
            s.ending = end_triggered(s.players, 0, s.turn, self.box)
            ev.append(
                Event("end_triggered", {"seat": s.turn, "turns_left": list(s.ending.turns_left)})
            )

    def _done(self, a: list[Any], ev: list[Event]) -> None:
        s = self.state
        if s.ending is not None and s.final:
            s.ending = turn_taken(s.ending, s.turn)
        s.traded = False
        if s.ending is None:
            s.turn = (s.turn + 1) % s.players
            if s.turn == 0:
                s.round += 1
        elif s.ending.over:
            s.phase = "tally"
            ev.append(Event("final_scoring", {"seats": list(range(s.players))}))
            return
        else:
            nxt = s.ending.next_seat
            assert nxt is not None
            if nxt == 0:
                s.round += 1
            s.turn, s.final = nxt, True
        ev.append(Event("turn", {"seat": s.turn, "round": s.round}))

    def _tally(self, a: list[Any], ev: list[Event]) -> None:
        s = self.state
        seat = self.actor
        assert seat is not None
        tally = from_json(Tally, {**a[1], "seat": seat, "vp": s.vp[seat]})
        # A count is checked when it is given, not when the last seat's comes: scored against
        # copies of itself, it meets every check of F-5 (counts, guilds, the penalty marker).
        final_score([replace(tally, seat=i) for i in range(self.box.players[0])], box=self.box)
        s.tallies[seat] = tally
        ev.append(Event("tallied", {"seat": seat}))
        if len(s.tallies) == s.players:
            tallies = [s.tallies[i] for i in range(s.players)]
            score = final_score(tallies, s.second_ties, box=self.box)
            s.result = to_json(score)
            s.phase = "over"
            ev.append(Event("game_over", {"result": s.result}))

    # -- the step under way ---------------------------------------------------------------

    def _dive(self) -> Dive:
        step = self.state.step
        assert step is not None and step["kind"] == "dive"
        return dive(
            [from_json(Skiff, k) for k in step["skiffs"]],
            step.get("card_dice", []),
            step.get("sonar", []),
            step["faces"],
            step.get("barrels"),
            step.get("depleted"),
            step.get("other_tiles", []),
            self.box,
        )

    def _options(self) -> ResearchOptions:
        step = self.state.step
        assert step is not None and step["kind"] == "research"
        return research_options(step["faces"], step["artifacts"], step["dice"], self.box)

    def _take_faces(self, a: list[Any]) -> None:
        """The faces of the roll under way, and one more roll counted. Faces marked as the
        companion's roll must be the roll it makes (`draw`), and only at a table that chose
        digital rolls: the record never says the companion rolled what a phone entered."""
        s = self.state
        assert s.step is not None
        rolled = len(a) > 2
        if rolled:
            rule = "F-1" if a[0] == "dive_faces" else "F-2"
            if s.roll != "digital":
                raise RuleBroken(rule, "this table enters the faces it rolls: send them unmarked")
            if a[1] != self.draw()[1]:
                raise RuleBroken(
                    rule, "these faces are not the companion's roll: send them unmarked"
                )
        s.step.update(faces=a[1], rolled=rolled)
        s.draws += 1

    def _rolled(self, a: list[Any], verified: bool) -> dict[str, Any]:
        rolled = len(a) > 2
        return {
            "seat": self.state.turn,
            "faces": a[1],
            "rolled": rolled,
            "verified": verified,
            "note": NOT_VERIFIED if rolled and not verified else "",
        }

    # -- seeing ---------------------------------------------------------------------------

    def view(self, viewer: View = None) -> dict[str, Any]:
        """The game as any viewer sees it (nothing is hidden), with the dice the phones offer."""
        s, box = self.state, self.box
        step: dict[str, Any] | None = None
        if s.step is not None:
            step = dict(s.step)
            if s.phase in ("barrels", "deplete"):
                d = self._dive()
                step["resolved"] = {"icons": d.icons, "barrels": d.barrels, "barrel_room": list(d.barrel_room),
                                    "depletion": to_json(d.depletion)}  # fmt: skip
            if s.phase == "wild":
                o = self._options()
                step["options"] = [to_json(r) for r in (o.best, *o.alternatives)]
                step["wild_dice"] = list(o.wild_dice)
        digital_note = s.roll == "digital" and not (
            box.research_verified and all(k.verified for k in box.dive_kinds)
        )
        return {
            "kind": "flotilla",
            "viewer": viewer,
            "phase": s.phase,
            "actor": self.actor,
            "turn": s.turn,
            "round": s.round,
            "players": s.players,
            "roll": s.roll,
            "note": NOT_VERIFIED if digital_note else "",
            "vp": list(s.vp),
            "supply": to_json(s.supply),
            "market": {c: {"space": n, "price": price(s.market, c, box)} for c, n in s.market.spaces.items()},
            "traded": s.traded,
            "trade": s.trade,
            "ending": None if s.ending is None else {
                "triggered_on": s.ending.triggered_on,
                "turns_left": list(s.ending.turns_left),
                "still_to_play": list(s.ending.still_to_play),
            },
            "step": step,
            "last": s.last,
            "tallied": sorted(s.tallies),
            "result": s.result,
            "dice": _dice(box),
        }  # fmt: skip


def _dice(box: Box) -> dict[str, Any]:
    """What the phones need to offer the faces and the choices, from the dice file."""
    return {
        "dive": [
            {"depth": k.depth, "name": k.name, "verified": k.verified,
             "faces": [list(f) for f in dict.fromkeys(f.icons for f in k.faces)]}
            for k in box.dive_kinds
        ],
        "icons": [i for i in DIVE_ICONS if i != SONAR],
        "research": list(dict.fromkeys(f.face for f in box.research_faces)),
        "research_verified": box.research_verified,
        "research_dice": box.research_dice,
        "guilds": [{"guild": g, "colour": c} for g, c in zip(box.guilds, box.colours, strict=True)],
        "resources": list(box.resources),
        "toxicity_spaces": len(box.toxicity_penalty),
    }  # fmt: skip


STEPS: dict[str, Callable[[FlotillaGame, list[Any], list[Event]], None]] = {
    "dive": FlotillaGame._dive_start,
    "dive_faces": FlotillaGame._dive_faces,
    "barrels": FlotillaGame._barrels,
    "deplete": FlotillaGame._deplete,
    "research": FlotillaGame._research_start,
    "research_faces": FlotillaGame._research_faces,
    "wild": FlotillaGame._wild,
    "trade": FlotillaGame._trade,
    "vp": FlotillaGame._vp,
    "done": FlotillaGame._done,
    "tally": FlotillaGame._tally,
}


def _unverified(vp: int) -> dict[str, Any]:
    """The mark an event carries when it scores the market's unverified VP (F-3)."""
    return {"vp_unverified": VP_PAST_ENDS_SOURCE} if vp and not VP_PAST_ENDS_VERIFIED else {}
