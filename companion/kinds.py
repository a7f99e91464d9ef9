"""The kinds of game a Table plays: `survive` (the rules engine) and `flotilla` (the Flotilla
helpers). Each kind brings its own actions, facts and views (architecture.md); the Table, the
store and the event stream treat both alike through `KINDS`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import engine
from .commands import REFEREE, SPECTATOR
from .engine import Game, IllegalAction, MalformedAction, Rules, sinking
from .engine import views as projections
from .flotilla import FlotillaError, MalformedValue, RuleBroken
from .flotilla import actions as flotilla_actions
from .flotilla import game as flotilla_game
from .flotilla.game import ROLLS, FlotillaGame
from .store import GameRecord

View = int | str
"""A seat (0-based), SPECTATOR or REFEREE."""
AnyGame = Game | FlotillaGame
AnyEvent = engine.Event | flotilla_game.Event
ILLEGAL = (IllegalAction, RuleBroken)
"""What a game of either kind raises for an action its rules forbid now (with `rule`)."""
MALFORMED = (MalformedAction, FlotillaError)

FACTS = frozenset({"terrain", "back", "roll", "dive", "spin"})
"""Survive's verbs that record a fact of the table: never undone, but correctable."""


def engine_view(view: View) -> engine.events.View:
    return None if view == SPECTATOR else view


# -- survive --------------------------------------------------------------------------------


def choices(game: Game, view: View) -> dict[str, Any]:
    """What `view` may do now, in JSON form: its legal actions when the decision is its own, and
    the possible outcomes of a table decision for the seat whose turn it is (who tells it)."""
    out: dict[str, Any] = {}
    if game.over:
        return out
    if game.actor is not None and view in (game.actor, REFEREE):
        out["legal"] = _listed(game.legal_actions())
    if game.is_chance() and view == REFEREE:
        out["outcomes"] = _listed(game.legal_actions())
    elif game.is_chance() and view == game.state.turn:
        if game.phase == "back":  # only what this seat may know of the tiles left (spec §9)
            seen = sinking.possible_backs_seen_by(game.state, view)
            out["outcomes"] = [["back", k] for k in seen]
        else:
            out["outcomes"] = [list(a) for a in game.legal_actions()]
    return out


_LISTED: list[Any] = [None, []]


def _listed(legal: list[engine.Action]) -> list[list[Any]]:
    """`legal` in JSON form. The game keeps one list of its legal actions until it changes, so
    the views that show it (the actor's, the referee's) share one copy: read it, never change
    it."""
    if _LISTED[0] is not legal:
        _LISTED[:] = [legal, [list(a) for a in legal]]
    listed: list[list[Any]] = _LISTED[1]
    return listed


def shown(game: Game, action: list[Any], view: View) -> str:
    """A stored action as `view` may read it, in notation (`told`)."""
    return engine.notation(tuple(told(game, action, view)))


def told(game: Game, action: list[Any], view: View) -> list[Any]:
    """A stored action as `view` may know it, as its JSON list (a page words it): a placed
    value and a red back kept in hand are the referee's to see (spec §9); everyone else reads
    them as unknown."""
    a = tuple(action)
    if view != REFEREE:
        if a[0] == "place":
            a = ("place", a[1], None)
        elif a[0] == "back" and a[1] in sinking.kept_backs(game.state):
            a = ("back", "red")
    return list(a)


def seen(action: list[Any], events: Sequence[AnyEvent], view: View) -> list[Any] | None:
    """A stored action as `view` may know it, read off the engine's projection of the events it
    caused: as it is when `view` sees them as the referee does; else without its secret — a
    placement without its value, a tile's back as ``red`` (a red tile kept) —; None (left out)
    for any other action with a secret, rather than a guess."""
    who = engine_view(view)
    if all(e.project(who) == e.project(REFEREE) for e in events):
        return action
    if action[0] == "place":
        return [*action[:2], None]
    if action[0] == "back":
        return ["back", "red"]
    return None


def new_survive(record: GameRecord) -> Game:
    if "position" in record.settings:  # set up from a written position (teaching, a puzzle)
        return Game.from_position(record.settings["position"])
    rules = Rules.from_json(record.rules)
    return Game.new(rules, len(record.players), record.seed, record.mode)


# -- flotilla -------------------------------------------------------------------------------


MAX_VP_PER_PLAYER = 1000
"""Ten times the box's supply per player (100, unverified): a bound, so that a phone cannot make
a supply of billions, far above anything a table plays with."""


def flotilla_setup(
    args: dict[str, Any], players: int, seed: int
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The rules, mode and settings to store for a new Flotilla game's `args` (``roll``:
    entered or digital, ``vp_per_player``); RuleBroken or MalformedValue, with a sentence, for
    a value refused. The roll mode is kept as the record's ``mode`` and in its settings."""
    roll = args.get("roll", "entered")
    if roll not in ROLLS:
        raise MalformedValue(f"roll must be one of {', '.join(ROLLS)}, not {roll!r}")
    unknown = sorted(
        set(args) - {"kind", "players", "seed", "roll", "vp_per_player", "second_ties"}
    )
    if unknown:
        raise MalformedValue(
            "a Flotilla game takes players, roll, vp_per_player, second_ties and seed, not "
            f"{', '.join(unknown)}"
        )
    vp = args.get("vp_per_player")
    if isinstance(vp, int) and not isinstance(vp, bool) and vp > MAX_VP_PER_PLAYER:
        raise MalformedValue(
            f"vp_per_player must be at most {MAX_VP_PER_PLAYER} (the VP supply per player), "
            f"not {vp}"
        )
    rules = {"vp_per_player": vp, "second_ties": args.get("second_ties", "toxicity")}
    # refuses what the rules do
    FlotillaGame.new(players, seed, roll, rules["vp_per_player"], second_ties=rules["second_ties"])
    return rules, roll, {"roll": roll}


def new_flotilla(record: GameRecord) -> FlotillaGame:
    return FlotillaGame.new(
        len(record.players), record.seed, record.mode, record.rules.get("vp_per_player"),
        second_ties=record.rules.get("second_ties", "toxicity"),  # games stored before it
    )  # fmt: skip


# -- the kinds ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Kind:
    """What the Table needs of one kind of game besides the game's own face (`AnyGame`)."""

    new: Callable[[GameRecord], AnyGame]
    check: Callable[[Any], list[Any]]
    """An action in its stored form; a MALFORMED error when it cannot be one."""
    notation: Callable[[list[Any]], str]
    facts: frozenset[str]
    """Verbs that record a fact of the table: never undone, but correctable."""
    choices: Callable[[Any, View], dict[str, Any]]
    shown: Callable[[Any, list[Any], View], str]
    told: Callable[[Any, list[Any], View], list[Any]]
    """An action as a view may know it, as its JSON list (`shown` is its notation)."""
    teller: Callable[[Any], int | None]
    """The only seat that may tell the outcome of the table's decision now (None: any)."""


KINDS: dict[str, Kind] = {
    "survive": Kind(
        new_survive,
        lambda action: list(engine.actions.check(action)),
        lambda action: engine.notation(tuple(action)),
        FACTS,
        choices,
        shown,
        told,
        lambda game: None,  # the island, a die, a tile's back: whoever is at the table
    ),
    # Nothing of a Flotilla game is hidden: every view reads an action as it was stored.
    "flotilla": Kind(
        new_flotilla,
        flotilla_actions.check,
        flotilla_actions.notation,
        flotilla_actions.FACTS,
        lambda game, view: game.choices(engine_view(view)),
        lambda game, action, view: flotilla_actions.notation(action),
        lambda game, action, view: list(action),
        lambda game: game.state.turn,  # F-1, F-2: the roller's phone is asked for the faces
    ),
}


def views_of(
    game: AnyGame, views: list[engine.events.View], shown: projections.Shown | None = None
) -> dict[Any, dict[str, Any]]:
    """The game as each of `views` sees it (engine views: a seat, None, the referee); `shown`:
    what was built for the views of this game before (only what changed is built again)."""
    if isinstance(game, Game):  # what the views see alike is built once
        return projections.views(game.state, views, shown)
    return {view: game.view(view) for view in views}


def game_of(record: GameRecord) -> AnyGame:
    """A new game of `record`'s kind, before any of its actions."""
    return KINDS[record.kind].new(record)
