"""The engine's face: a game from rules and a seed, its legal actions, and applying one.

A game is a sequence of small decisions: a player's (a person placed, one movement point, a tile
sunk, one creature step) or the table's (a terrain laid, a tile's back, the die). A table decision
is a fact: the players tell it from the real table, or the engine draws it with `draw()` from its
seeded draws (`chance`). Both then go through `apply()`; there is one code path.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from math import floor
from random import Random
from typing import Any, Final

from . import (
    actions,
    chance,
    creatures,
    fivesix,
    hand,
    interrupts,
    movement,
    overpopulated,
    paths,
    position,
    scoring,
    setup,
    sinking,
    spinner,
    views,
)
from .errors import IllegalAction, MalformedAction, RulesError
from .events import REFEREE, Event, Events, View
from .rules import Rules
from .state import CHANCE, DONE, NOBODY, Action, State, person_name

Legal = Callable[[State], list[Action]]
Apply = Callable[[State, Action, Events], None]
Explain = Callable[[State, Action], IllegalAction]

PHASES: Final[dict[str, tuple[Legal, Apply, Explain]]] = {
    "terrain": (setup.legal_terrain, setup.apply_terrain, setup.explain),
    "place": (setup.legal_place, setup.apply_place, setup.explain),
    "boat": (setup.legal_boat, setup.apply_boat, setup.explain),
    "tile": (hand.legal_play, hand.apply_play, hand.explain),
    "effect": (hand.legal_effect, hand.apply_effect, hand.explain),
    "move": (movement.legal, movement.apply, movement.explain),
    "sink": (sinking.legal_sink, sinking.apply_sink, sinking.explain),
    "back": (sinking.legal_back, sinking.apply_back, sinking.explain),
    "take": (sinking.legal_take, sinking.apply_take, sinking.explain),
    "pick": (sinking.legal_pick, sinking.apply_pick, sinking.explain),
    "roll": (creatures.legal_roll, creatures.apply_roll, creatures.explain),
    "creature": (creatures.legal_creature, creatures.apply_creature, creatures.explain),
    "defence": (creatures.legal_defence, creatures.apply_defence, creatures.explain),
    "rush": (overpopulated.legal, overpopulated.apply, overpopulated.explain),
    "interrupt": (interrupts.legal, interrupts.apply, interrupts.explain),
    "reveal": (scoring.legal_reveal, scoring.apply_reveal, scoring.explain),
}

APPLY: Final[dict[str, Apply]] = {phase: fns[1] for phase, fns in PHASES.items()}
"""Each phase's apply alone (a random playout's loop asks it at every decision)."""

SAMPLERS: Final[dict[str, Callable[[State, chance.Draw], Action]]] = {
    "place": setup.random_place,
    "boat": setup.random_boat,
    "move": movement.random_move,
    "sink": sinking.random_sink,
    "effect": hand.random_effect,
    "creature": creatures.random_creature,
}
"""Phases whose uniformly random action is drawn without listing them all (`random_action`):
each draws the action `chance.pick` would draw from the list, or one as likely."""

# What each phase is about, for the refusal of an action asked at the wrong moment.
STEP_RULE: Final = {
    "terrain": ("B-2", "the island is being laid"),
    "place": ("B-5", "people are being placed"),
    "boat": ("B-6", "boats are being placed"),
    "tile": ("B-7", "step 1: play a red tile, or go on"),
    "effect": ("B-7", "a red tile's move is under way"),
    "move": ("B-8", "step 2: movement"),
    "sink": ("B-9", "step 3: remove a land tile"),
    "back": ("B-22", "the removed tile's back is awaited"),
    "take": ("B-35", "the boat tile needs a boat from the board"),
    "pick": ("B-35", "the new boat's passengers are being chosen"),
    "roll": ("B-10", "step 4: the creature die is awaited"),
    "creature": ("B-10", "step 4: move the rolled creature"),
    "defence": ("B-29", "a defensive tile may be played"),
    "rush": ("P-5", "the people of the sunk tile have their immediate movement point"),
    "interrupt": ("D-6", "a choice the last move raised must be made first"),
    "reveal": ("B-31", "saved people's values are being told"),
    "over": ("B-30", "the game is over"),
}

# Where each verb belongs in the game's order: setup, the four steps of a turn (B-7 ... B-10),
# the end. An action whose step is already past is refused under the rule of its own step (a
# fourth movement point under B-8, not under the removal that follows); one whose step is yet
# to come, under the rule of the step under way, which must be finished first.
HOME: dict[str, tuple[int, str, str]] = {
    "terrain": (0, "B-2", "the island is laid only at setup"),
    "place": (1, "B-5", "people are placed only at setup"),
    "boat": (2, "B-6", "boats are placed only at setup"),
    "play": (3, "B-7", "a red tile is played at the start of the turn (step 1), before moving"),
    "put": (3, "B-7", "a red tile's move is made in step 1"),
    "move": (4, "B-8", "movement (step 2, up to 3 points) is over for this turn"),
    "board": (4, "B-8", "movement (step 2, up to 3 points) is over for this turn"),
    "sail": (4, "B-8", "movement (step 2, up to 3 points) is over for this turn"),
    "ride": (4, "B-8", "movement (step 2, up to 3 points) is over for this turn"),
    "sink": (5, "B-9", "one land tile is removed per turn (step 3), and it is gone"),
    "back": (5, "B-22", "the removed tile's back is already told"),
    "pick": (5, "B-35", "the boat tile's passengers are already chosen"),
    "take": (5, "B-35", "the boat tile's boat is already taken"),
    "roll": (7, "B-10", "the creature die is rolled once per turn (step 4)"),
    "dive": (7, "B-10", "the dice are rolled once per turn (step 4)"),
    "spin": (7, "E-1", "the spinner is spun once per turn"),
    "creature": (7, "B-10", "one creature moves per turn, after the die (step 4)"),
    "reveal": (9, "B-31", "values are told only at the end of the game"),
}
RANK = {
    "terrain": 0, "place": 1, "boat": 2, "tile": 3, "effect": 3, "move": 4, "sink": 5,
    "back": 5, "take": 5, "pick": 5, "rush": 6, "roll": 7, "creature": 7, "defence": 7,
    "reveal": 9,
}  # fmt: skip

# Whose decision each phase is, for the refusal of an action out of turn.
WHOSE = {
    "place": "B-5",
    "boat": "B-6",
    "tile": "B-7",
    "effect": "B-7",
    "move": "B-8",
    "sink": "B-9",
    "take": "B-35",
    "pick": "B-35",
    "creature": "B-10",
    "defence": "B-29",
    "rush": "P-5",
    "reveal": "B-31",
}
INTERRUPTER = {"guard": "D-6", "squid": "Q-1", "grab": "Q-4"}

TABLE = "table"
"""The acting party for a table decision (the island laid, a die, a tile's back) told by no
seat in particular; see `Game.apply`."""

VERBS: Final = {
    "terrain": {"terrain"},
    "place": {"place"},
    "boat": {"boat"},
    "tile": {"play", "done"},
    "effect": {"move", "board", "sail", "put", "done"},
    "move": {"move", "board", "sail", "ride", "done"},
    "sink": {"sink"},
    "back": {"back"},
    "take": {"take"},
    "pick": {"pick"},
    "roll": {"roll", "dive", "spin"},
    "creature": {"creature", "sail", "protect", "done"},
    "interrupt": {"protect", "put", "grab", "done"},
    "defence": {"repel", "done"},
    "rush": {"move", "board", "done"},
    "reveal": {"reveal"},
}

ENDS_BY_DONE: Final = frozenset(phase for phase, verbs in VERBS.items() if "done" in verbs)
"""The phases where "done" may be the one thing left to do (`Game._settle` passes it)."""
AT_REST: Final = frozenset({"terrain", "place", "boat", "back", "take", "pick", "reveal", "over"})
"""The phases `_settle` passes by (none of its checks is theirs) unless a choice is pending or
the game may end mid-turn."""
_PLAIN: Final = (str, int, type(None))
MODES = ("digital", "physical")


class Game:
    """One game of Survive: its state, what may happen next, and what did happen."""

    __slots__ = ("_key", "_legal", "_legal_set", "_sampled", "listen", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self.listen = True
        """Build the events of each action (`apply` returns them). Off for a game whose events
        nobody reads, a random playout or a look-ahead: building them was a tenth of its cost."""
        self._legal: list[Action] | None = None
        self._legal_set: set[Action] | None = None
        self._sampled: Action | None = None  # the action `random_action` drew last
        # the seed and its `chance.keyed` hash, found at the first draw: the seed may be set
        # after the game is made (a bot's sampled game, a test), so it is compared at each
        self._key: tuple[int, hashlib.blake2b] | None = None

    @classmethod
    def new(cls, rules: Rules, players: int = 4, seed: int = 0, mode: str = "digital") -> Game:
        """A game about to be laid out. `mode`: ``digital`` (values chosen, tiles dealt by the
        engine) or ``physical`` (values and red backs unknown until the table tells them).

        2 to 4 players, or 5 to 6 with the 5-6 player kit, which 5 or 6 players imply (B-4,
        P-1, P-2); Overpopulated! needs 5 or 6 (P-4). A count the rules do not allow is a
        RulesError."""
        rules = fivesix.for_players(rules, players)
        if mode not in MODES:
            raise RulesError(f"mode must be digital or physical, not {mode!r}")
        game = cls(_fresh(rules, players, mode).copy())
        game.state.seed = seed
        if setup.by_rings(game.state):
            setup.lay_rings(game.state)  # E-5: nothing to lay at random
        return game

    # -- asking --------------------------------------------------------------------------

    @property
    def phase(self) -> str:
        return self.state.phase

    @property
    def actor(self) -> int | None:
        """The seat (0-based) to decide now; None when the table decides (chance) or it is over."""
        a = self.state.actor
        return None if a in (CHANCE, NOBODY) else a

    @property
    def over(self) -> bool:
        return self.state.phase == "over"

    def is_chance(self) -> bool:
        return self.state.actor == CHANCE

    def legal_actions(self) -> list[Action]:
        """Every legal action of the current decision (empty when the game is over)."""
        if self._legal is None:
            phase = self.state.phase
            self._legal = PHASES[phase][0](self.state) if phase in PHASES else []
        return self._legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a table decision: each outcome with its probability when drawn by the engine."""
        weights = self._weights()
        total = sum(n for _, n in weights)
        return [(a, n / total) for a, n in weights]

    def _weights(self) -> list[tuple[Action, int]]:
        """At a table decision: each outcome with how many of the equally likely draws give it."""
        verb, outcomes, _ = self._outcomes()
        return [((verb, k), n) for k, n in outcomes] if verb else outcomes

    def _outcomes(self) -> tuple[str, list[tuple[Any, int]], int]:
        """`_weights` as found: a terrain or a back by its name, with the verb of its action
        (`draw` builds the action drawn alone); the die's, the dice's and the spinner's as
        actions (no verb). Then their total where it is known without adding them up (the
        die's, the dice's: the number of faces), else 0."""
        s = self.state
        phase = s.phase
        if phase == "terrain":
            return "terrain", setup.tiles_left(s), 0
        if phase == "back":
            return "back", sinking.back_weights(s), 0
        if phase != "roll":
            return "", [], 0
        if s.is_1986:
            return "", spinner.weights(s), 0  # E-1
        if "dive-dice" in s.rules.modules:  # `creatures.dive_dice`, without a call at every die
            return "", creatures.DIVE_WEIGHTS, creatures.DIVE_TOTAL
        return "", creatures.DIE_WEIGHTS, creatures.DIE_TOTAL

    def draw(self) -> Action:
        """The outcome of the current table decision, drawn with the game's secret (its seed).

        The same game state always draws the same outcome; `apply` it to make it happen. Without
        the seed, nothing seen of the game (its log, every earlier draw) tells the next
        (`chance`).
        """
        s = self.state
        key = self._key
        if key is None or key[0] != s.seed:
            key = self._key = (s.seed, chance.keyed(s.seed))
        pick = chance.uniform_keyed(key[1], s.draws)  # = chance.uniform(s.seed, s.draws)
        action: Action
        phase = s.phase
        # a back or a terrain: the walk below, without the weights listed
        if phase == "back":
            back = sinking.drawn_back(s, pick)
            if back is not None:
                action = self._sampled = ("back", back)
                return action
        elif phase == "terrain":
            action = self._sampled = ("terrain", setup.drawn_terrain(s, pick))
            return action
        # drawn from `_weights` as found, in its order: only the action drawn is built
        verb, weights, total = self._outcomes()
        if not weights:
            raise IllegalAction(*STEP_RULE[s.phase][:1], "no table decision is awaited now")
        if not total:  # a back's (a red tile untold), a spin's: added up here
            for _, n in weights:  # a loop, not sum() over a generator: asked at every draw
                total += n
        drawn: Any = weights[-1][0]
        for outcome, n in weights:
            pick -= n / total  # the very probabilities `chance_outcomes` gives, in its order
            if pick < 0:
                drawn = outcome
                break
        action = (verb, drawn) if verb else drawn
        self._sampled = action  # an outcome of this decision: `apply` need not check it again
        return action

    # -- doing ---------------------------------------------------------------------------

    def apply(self, action: Any, by: int | str | None = None) -> list[Event]:
        """Make `action` happen and return the events it caused (none when `listen` is off).

        `by` is who acts: a seat (0-based), or `TABLE` for a table decision. A seat makes only
        its own decisions, and may tell a table decision (whoever is at the table reads the
        die); the table makes only table decisions. Either acting out of turn is refused with
        the rule that says whose decision it is. None: nobody in particular — a log already
        checked being replayed, or a simulation.

        A malformed action raises MalformedAction; an illegal one IllegalAction naming the rule
        it breaks. Either way the game is left exactly as it was.
        """
        s = self.state
        if by is not None and by != s.actor:
            self._check_actor(by, action)
        # the engine's own draw for this decision is trusted without a call (most actions)
        trusted = action is self._sampled and type(action) is tuple
        if not trusted and not self._listed(action):
            if self._legal_set is None:
                self._legal_set = set(self.legal_actions())
            # Legal actions hold only str, int and None; 58.0 or True would equal a legal 58 or
            # 1 without being a hex or a person, so anything else goes through the full check.
            if not (
                type(action) is tuple
                and all(type(x) in _PLAIN for x in action)
                and action in self._legal_set
            ):
                action = actions.check(action)
                if action not in self._legal_set:
                    if paths.is_path(action):
                        return paths.apply(self, action)
                    raise self._refusal(action)
        ev: Events = [] if self.listen else None
        if s.actor == CHANCE:
            s.draws += 1
        PHASES[s.phase][1](s, action, ev)
        self._settle(ev)
        return [] if ev is None else ev

    def _listed(self, action: Any) -> bool:
        """Is `action` the very object the engine listed for this decision (a bot's or a
        simulation's pick from `legal_actions`)? Such an action needs no check: validating it
        again cost a set of every legal action per decision. Anything else (a phone's, the
        panel's, a log's) is checked in full by `apply`."""
        if type(action) is not tuple:
            return False
        if action is self._sampled:  # drawn by `random_action` or `draw` for this decision
            return True
        listed = self._legal
        if listed is None:
            return False
        try:
            # index() finds the object itself first (identity before equality); an equal but
            # different tuple (58.0 for 58) is not the listed object and is checked in full.
            return listed[listed.index(action)] is action
        except ValueError:
            return False

    def random_action(self, rng: Random) -> Action:
        """A legal action of the current decision, each equally likely (a uniform random
        player's pick, `chance.index`), applied by `apply` without checking it again.
        Movement, placement, a boat's placement, a tile's removal, a red tile's move and a
        first dive draw it without listing every action (`SAMPLERS`)."""
        return self._random_action(rng.random)

    def _random_action(self, draw: chance.Draw) -> Action:
        sample = SAMPLERS.get(self.state.phase) if self._legal is None else None
        if sample is None:
            # kept as drawn, so that `apply` knows it without finding it in the list again
            self._sampled = chance.choose(draw, self.legal_actions())
        else:
            self._sampled = sample(self.state, draw)
        return self._sampled

    def playout(self, rng: Random) -> int:
        """Play on to the end: each player's decision `random_action`'s, each table decision
        `draw`'s, no events built (a bot's look-ahead, a benchmark). The same game as `apply`
        of each in turn, without asking `over`, `is_chance` and `apply`'s checks of who acts and
        of a drawn action at every decision (a thirtieth of a random game). Returns the
        number of players' decisions made."""
        s = self.state
        draw = rng.random  # found once, not at every decision (`chance.Draw`)
        decisions = 0
        while True:
            phase = s.phase
            if phase == "over":
                return decisions
            if s.actor == CHANCE:
                action = self.draw()
                s.draws += 1
            else:
                # `_random_action` without the call, nor keeping the action drawn for `apply`
                legal = self._legal  # listed already (by `_settle`), or drawn without a list
                if legal is None and phase in SAMPLERS:  # `in`, then [ ]: no call of `get`
                    action = SAMPLERS[phase](s, draw)
                else:
                    if legal is None:
                        legal = self.legal_actions()
                    action = legal[floor(draw() * len(legal))]  # `chance.choose`, without a call
                decisions += 1
            APPLY[phase](s, action, None)
            # `_settle` where its checks would pass at once, without its call (three quarters
            # of the decisions): nothing pending, no end mid-turn, and a phase at rest, a
            # movement point with a move left, a land tile left to remove, the die with no
            # immediate point owed, or a creature's move with more than "done" (keep in step)
            phase = s.phase
            if not s.pending and not s.ends_mid_turn:
                if (
                    phase in AT_REST
                    or (phase == "move" and movement.can_move(s))
                    or (phase == "sink" and sinking.current_terrain(s) is not None)
                    or (phase == "roll" and not s.from_sunk)
                ):
                    self._legal = None
                    continue
                if phase == "creature" and s.ctx.get("dist") != "D":
                    # `_settle`'s check of a creature's move (no dive), without its call: the
                    # moves listed and kept for the pick unless "done" is the only one
                    self._legal = legal = creatures.legal_creature(s)
                    if len(legal) != 1 or legal[0] != DONE:
                        continue
            self._settle(None)

    def forget_legal(self) -> None:
        """The state was replaced (a whole path): the legal actions must be listed anew."""
        self._legal = self._legal_set = self._sampled = None

    def _settle(self, ev: Events) -> None:
        """Move past decisions that leave no choice: starting a turn, a lone 'go on'.

        (`playout` asks the checks of the phases at rest, of movement, of a removal, of the
        die itself and of a creature's move that is no dive, where they pass: keep the two in
        step.)"""
        s = self.state
        self._legal_set = self._sampled = None  # nothing below sets them
        while True:
            self._legal = None  # each pass may list a new decision's actions
            phase = s.phase
            if phase == "interrupt":
                if not self.legal_actions():
                    interrupts.finish(s, ev)  # nothing left to choose
                    continue
            elif s.pending:
                # a choice the last move raised comes first; then the paused phase goes on
                s.pending[0]["resume"] = [phase, s.actor, s.ctx]
                s.phase, s.actor, s.ctx = "interrupt", s.pending[0]["actor"], {}
                continue
            if s.ends_mid_turn and not s.pending and scoring.end_if_over(s, ev):
                continue  # C-2, C-4, E-6: the game ends at once, mid-turn if need be
            # Each phase below has its own check (one phase at a time, asked after every step).
            if phase in ENDS_BY_DONE:
                # Is "done" the one legal action? Movement, a red tile's move and a first dive
                # answer without listing every move (a bot's look-ahead never needs that list).
                # A seat holding red tiles is asked at step 1 even when none can be played:
                # passing it by would tell every viewer which tiles it holds (spec §9, B-7).
                # Likewise a defender with no repellent still answers (see creatures.attack).
                if phase == "move":
                    only_done = not movement.can_move(s)
                elif phase == "effect":
                    # "done" comes only after a first step (a creature tile's hundreds of moves
                    # are never listed here); the steps after it move that one piece, whose few
                    # moves are listed and kept for the pick
                    only_done = bool(s.ctx["steps"]) and self.legal_actions() == [DONE]
                elif phase == "creature" and s.ctx.get("dist") == "D" and creatures.first_dive(s):
                    # (dist first: most moves are no dive, asked without a call)
                    # no dive: `legal_creature` is [done] (counting stops at the first)
                    only_done = creatures.nth_dive(s, 0) == 0
                elif phase == "tile":
                    only_done = not s.hands[s.turn]  # `hand.legal_play` of an empty hand
                else:
                    only_done = phase != "defence" and self.legal_actions() == [DONE]
                if only_done:
                    APPLY[phase](s, DONE, ev)
                    continue
            elif phase == "end":
                creatures.end_turn(s, ev)
                continue
            elif phase == "sink":
                if sinking.current_terrain(s) is None:
                    s.phase, s.actor = "roll", CHANCE  # no land tile is left to remove (C-2)
                    continue
            elif phase == "roll":
                if s.from_sunk:
                    overpopulated.start(s, ev)  # P-5: the immediate point comes before the die
                    continue
            elif phase == "start":
                s.phase, s.actor = "tile", s.turn
                if ev is not None:
                    ev.append(Event("turn", {"seat": s.turn}))
                continue
            return

    def _check_actor(self, by: int | str, action: Any) -> None:
        """Refuse `by` acting now unless the decision is theirs (see `apply`)."""
        s = self.state
        if by != TABLE and (type(by) is not int or not 0 <= by < s.players):
            raise MalformedAction(f"{by!r} is not a seat of this game, nor the table")
        if s.actor == NOBODY:
            raise game_over(s)
        if s.actor == CHANCE:
            return  # a fact of the shared table: any seat at it may tell it
        moved = s.ctx.get("moved")
        if (
            moved is not None
            and isinstance(action, tuple | list)
            and list(action[:2]) == ["creature", moved]
        ):
            raise creatures.past_limit(s, moved)  # the extra step of last turn's creature
        rule, what = self._whose()
        who = "the table" if by == TABLE else f"seat {int(by) + 1}"
        raise IllegalAction(
            rule,
            f"it is seat {s.actor + 1}'s decision, not {who}'s ({what})",
            "turn.not_yours",
            {"seat": s.actor},
        )

    def _whose(self) -> tuple[str, str]:
        """The rule that gives the current decision to its seat, and the decision in words."""
        s = self.state
        if s.phase == "interrupt":
            return INTERRUPTER[s.pending[0]["kind"]], STEP_RULE["interrupt"][1]
        rule = WHOSE[s.phase]
        if s.players >= 5 and s.phase in ("place", "boat"):
            rule = "P-3"  # 5-6 players: one at a time in turn order, fewer boats for some
        return rule, STEP_RULE[s.phase][1]

    def _refusal(self, action: Action) -> IllegalAction:
        s = self.state
        if s.phase == "over":
            return game_over(s)
        if s.phase not in PHASES or action[0] not in VERBS[s.phase]:
            return self._wrong_step(action)
        for kind, x in zip(actions.kinds(action[0], len(action) - 1), action[1:], strict=True):
            if kind == "person" and x not in s.p_owner:
                return _not_in_game(s, x)
        return PHASES[s.phase][2](s, action)

    def _wrong_step(self, action: Action) -> IllegalAction:
        """The refusal of an action that belongs to another step than the one under way: under
        its own step's rule when that step is past, else under the rule of the step under way."""
        s = self.state
        text = actions.notation(action)
        if action[0] == "creature" and s.ctx.get("moved") == action[1]:
            return creatures.past_limit(s, action[1])
        home = HOME.get(action[0])
        here = RANK.get(s.phase)
        if home is not None and here is not None and home[0] < here:
            _, rule, why = home
            x = action[1] if len(action) > 1 else None
            if action[0] in ("move", "ride", "board") and x in s.swam:
                rule, why = "B-16", f"{person_name(x)} already swam this turn (one sea space)"
            elif home[0] == RANK["move"] and not s.has_people(s.turn):
                rule, why = "B-11", "with no people left on the board a player skips step 2"
            return IllegalAction(rule, f"{text} is not possible now: {why}")
        rule, what = STEP_RULE[s.phase]
        if s.phase == "interrupt":
            rule = INTERRUPTER[s.pending[0]["kind"]]
        return IllegalAction(rule, f"{text} is not possible now: {what}")

    # -- seeing and storing ------------------------------------------------------------------

    def view(self, viewer: View = None) -> dict[str, Any]:
        """The state as a seat (0-based), a spectator (None) or the referee may see it."""
        return views.view(self.state, viewer)

    def views(self, viewers: Iterable[View]) -> dict[View, dict[str, Any]]:
        """The state as each of `viewers` sees it, what they see alike built once and shared
        (read-only)."""
        return views.views(self.state, viewers)

    def referee_view(self) -> dict[str, Any]:
        return views.view(self.state, REFEREE)

    def result(self) -> dict[str, Any] | None:
        """The ranking with its reasons, once the game is over."""
        return self.state.result

    def position(self, viewer: View = REFEREE) -> str:
        """The position as text (see `position` and the engine's README), as `viewer` may see
        it: the referee's is the whole game, and reads back as it."""
        return position.write(self.state, viewer)

    @classmethod
    def from_position(cls, text: str) -> Game:
        """The game at a written position, to play on from; MalformedAction when the text is
        not a position, IllegalAction naming the rule when it is one that cannot happen."""
        return cls(position.read(text))

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        return cls(State.from_json(data))

    def copy(self) -> Game:
        """A game to try things on: its own state, sharing the legal actions listed so far (the
        same list object), so applying one of them is trusted in the copy too."""
        game = Game(self.state.copy())
        game._legal = self._legal
        game.listen = self.listen
        return game


_FRESH: list[State] = []
"""The state `_fresh` made last (at most one): a bot's look-ahead or a benchmark starts many
games by the same rules."""


def _fresh(rules: Rules, players: int, mode: str) -> State:
    """A state about to be laid out, never changed, for `Game.new` to copy: copying one costs
    three fifths of building it anew (every index from the pieces)."""
    if _FRESH:
        last = _FRESH[0]
        if (
            last.players == players
            and last.mode == mode
            and (last.rules is rules or last.rules == rules)
        ):
            return last
    state = State(rules, players, 0, mode)
    _FRESH[:] = [state]
    return state


def game_over(s: State) -> IllegalAction:
    """The refusal of anything once the game is over, under the rule that ended it: the volcano
    (B-23), the last person gone (C-2), the last tile gone (C-4), the 1986 end (E-6)."""
    rule = scoring.ended_by(s)
    if rule == "B-30":
        rule = "B-23"
    return IllegalAction(rule, f"the game is over ({rule} ended it): start a new game")


def _not_in_game(s: State, p: int) -> IllegalAction:
    """The refusal of an action naming a person who is not in this game (B-4, P-1, P-2)."""
    name = person_name(p)
    if p // 10 >= s.players:
        return IllegalAction("B-4", f"{name} is not in this game: it has {s.players} players")
    each = len(fivesix.people_values(s.rules, s.players))
    return IllegalAction(
        "P-1" if s.players == 5 else "P-2",
        f"{name} is not in this game: with {s.players} players each has {each} people",
    )


def replay(rules: Rules, players: int, seed: int, mode: str, log: list[Any]) -> Game:
    """The game that a log of actions (JSON or tuples) leads to."""
    game = Game.new(rules, players, seed, mode)
    for action in log:
        game.apply(action)
    return game
