"""The engine's face: a game from rules and a seed, its legal actions, and applying one.

A game is a sequence of small decisions: a player's (a person placed, one movement point, a tile
sunk, one creature step) or the table's (a terrain laid, a tile's back, the die). A table decision
is a fact: the players tell it from the real table, or the engine draws it with `draw()` from its
seeded generator. Both then go through `apply()`; there is one code path.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from . import (
    actions,
    creatures,
    fivesix,
    hand,
    interrupts,
    movement,
    overpopulated,
    scoring,
    setup,
    sinking,
    spinner,
    views,
)
from .data import DIE_FACES, DIVE_DISTANCES, DIVE_KINDS, TERRAIN_COUNT
from .errors import IllegalAction, RulesError
from .events import REFEREE, Event, View
from .rules import Rules
from .state import CHANCE, NOBODY, Action, State, person_name

Legal = Callable[[State], list[Action]]
Apply = Callable[[State, Action, list[Event]], None]
Explain = Callable[[State, Action], IllegalAction]

PHASES: dict[str, tuple[Legal, Apply, Explain]] = {
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

# What each phase is about, for the refusal of an action asked at the wrong moment.
STEP_RULE = {
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

VERBS = {
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

DONE: Action = ("done",)
_PLAIN = (str, int, type(None))
MODES = ("digital", "physical")


class Game:
    """One game of Survive: its state, what may happen next, and what did happen."""

    __slots__ = ("_legal", "_legal_set", "state")

    def __init__(self, state: State) -> None:
        self.state = state
        self._legal: list[Action] | None = None
        self._legal_set: set[Action] | None = None

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
        return cls(State(rules, players, seed, mode))

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
            phase = PHASES.get(self.state.phase)
            self._legal = phase[0](self.state) if phase else []
        return self._legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """At a table decision: each outcome with its probability when drawn by the engine."""
        s = self.state
        weights: list[tuple[Action, int]]
        if s.phase == "terrain":
            laid = setup.terrain_laid(s)
            weights = [(("terrain", t), TERRAIN_COUNT[t] - laid[t]) for t in setup.terrain_left(s)]
        elif s.phase == "back":
            weights = [(("back", k), n) for k, n in sinking.back_weights(s)]
        elif s.phase == "roll" and s.is_1986:
            weights = spinner.weights(s)  # E-1
        elif s.phase == "roll" and creatures.dive_dice(s):
            weights = [
                (("dive", k, d), DIVE_KINDS.count(k) * DIVE_DISTANCES.count(d))
                for k, d in creatures.DIVES
            ]
        elif s.phase == "roll":
            weights = [(("roll", f), DIE_FACES.count(f)) for f in creatures.FACES]
        else:
            return []
        total = sum(n for _, n in weights)
        return [(a, n / total) for a, n in weights]

    def draw(self) -> Action:
        """The outcome of the current table decision, drawn from the game's seeded generator.

        The same game state always draws the same outcome; `apply` it to make it happen.
        """
        outcomes = self.chance_outcomes()
        if not outcomes:
            raise IllegalAction(
                *STEP_RULE[self.state.phase][:1], "no table decision is awaited now"
            )
        rng = random.Random(f"{self.state.seed}:{self.state.draws}")
        pick = rng.random()
        for action, p in outcomes:
            pick -= p
            if pick < 0:
                return action
        return outcomes[-1][0]

    # -- doing ---------------------------------------------------------------------------

    def apply(self, action: Any) -> list[Event]:
        """Make `action` happen and return the events it caused.

        A malformed action raises MalformedAction; an illegal one IllegalAction naming the rule
        it breaks. Either way the game is left exactly as it was.
        """
        s = self.state
        if self._legal_set is None:
            self._legal_set = set(self.legal_actions())
        # Legal actions hold only str, int and None; 58.0 or True would equal a legal 58 or 1
        # without being a hex or a person, so anything else goes through the full check.
        if not (
            type(action) is tuple
            and all(type(x) in _PLAIN for x in action)
            and action in self._legal_set
        ):
            action = actions.check(action)
            if action not in self._legal_set:
                raise self._refusal(action)
        ev: list[Event] = []
        if s.actor == CHANCE:
            s.draws += 1
        PHASES[s.phase][1](s, action, ev)
        self._settle(ev)
        return ev

    def _settle(self, ev: list[Event]) -> None:
        """Move past decisions that leave no choice: starting a turn, a lone 'go on'."""
        s = self.state
        while True:
            self._legal = self._legal_set = None
            if s.pending and s.phase != "interrupt":
                # a choice the last move raised comes first; then the paused phase goes on
                s.pending[0]["resume"] = [s.phase, s.actor, s.ctx]
                s.phase, s.actor, s.ctx = "interrupt", s.pending[0]["actor"], {}
                continue
            if s.phase == "interrupt" and not self.legal_actions():
                interrupts.finish(s, ev)  # nothing left to choose
                continue
            if not s.pending and scoring.end_if_over(s, ev):
                continue  # C-2, C-4: the game ends at once, mid-turn if need be
            if s.phase == "end":
                creatures.end_turn(s, ev)
                continue
            if s.phase == "sink" and sinking.current_terrain(s) is None:
                s.phase, s.actor = "roll", CHANCE  # no land tile is left to remove (C-2)
                continue
            if s.phase == "roll" and s.from_sunk:
                overpopulated.start(s, ev)  # P-5: the immediate point comes before the die
                continue
            if s.phase == "start":
                s.phase, s.actor = "tile", s.turn
                ev.append(Event("turn", {"seat": s.turn}))
                continue
            # A seat holding red tiles is asked at step 1 even when none can be played: passing
            # it by would tell every viewer which tiles it holds (spec §9, B-7).
            # Likewise a defender with no repellent still answers (see creatures.attack).
            held = (s.phase == "tile" and bool(s.hands[s.turn])) or s.phase == "defence"
            if s.phase in PHASES and not held and self.legal_actions() == [DONE]:
                PHASES[s.phase][1](s, DONE, ev)
                continue
            return

    def _refusal(self, action: Action) -> IllegalAction:
        s = self.state
        if s.phase not in PHASES or action[0] not in VERBS[s.phase]:
            rule, what = STEP_RULE[s.phase]
            return IllegalAction(rule, f"{actions.notation(action)} is not possible now: {what}")
        for kind, x in zip(actions.SHAPES[action[0]], action[1:], strict=True):
            if kind == "person" and x not in s.p_owner:
                return _not_in_game(s, x)
        return PHASES[s.phase][2](s, action)

    # -- seeing and storing ------------------------------------------------------------------

    def view(self, viewer: View = None) -> dict[str, Any]:
        """The state as a seat (0-based), a spectator (None) or the referee may see it."""
        return views.view(self.state, viewer)

    def referee_view(self) -> dict[str, Any]:
        return views.view(self.state, REFEREE)

    def result(self) -> dict[str, Any] | None:
        """The ranking with its reasons, once the game is over."""
        return self.state.result

    def to_json(self) -> dict[str, Any]:
        return self.state.to_json()

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Game:
        return cls(State.from_json(data))

    def copy(self) -> Game:
        return Game(self.state.copy())


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
