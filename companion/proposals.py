"""What the camera proposes to a game, held beside it in the Table's memory: a sunk tile or an
island's layout waiting for a player's tap, and a board that disagrees with the game. None of it
is a game action, so none of it is stored: after a restart the camera says it again.

The Table hands every command from the camera, and every phone's confirm or reject, to
`Proposals`; it runs on the Table's thread like the rest of the Table, and acts on a game only
through the Table's one commit path (`act`), so a confirmed proposal is stored and told like a
tapped action.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from . import engine
from .commands import Command, Reply
from .engine import Game
from .engine.data import TERRAIN_COUNT, TERRAINS
from .refusals import Refused

if TYPE_CHECKING:
    from .table import Loaded


@dataclass(frozen=True)
class Proposal:
    """What the camera saw, waiting for a player's tap: never an action by itself. Either a tile
    that left the island (several choices make it a question: "beach at 5.2 sunk?" or one of
    the others), or the terrain of every position of an island being laid."""

    id: int
    at: int
    """The last action in force when the camera proposed it: once the game moves on, it is stale."""
    choices: tuple[int, ...] = ()
    """The hexes whose tile may have left, best first."""
    confidence: float = 0.0
    layout: dict[int, str] | None = None
    """The island as the camera read it: each position still to lay → its terrain."""
    doubtful: tuple[int, ...] = ()
    """Positions of the layout the camera is least sure of."""

    @property
    def what(self) -> tuple[Any, ...]:
        return self.choices, tuple(sorted((self.layout or {}).items()))

    def to_json(self) -> dict[str, Any]:
        name = engine.board.name
        return {
            "id": self.id,
            "kind": "sink" if self.layout is None else "layout",
            "question": len(self.choices) > 1,
            "choices": [{"hex": h, "name": name(h)} for h in self.choices],
            "confidence": round(self.confidence, 3),
            "layout": None if self.layout is None else {name(h): t for h, t in self.layout.items()},
            "doubtful": [name(h) for h in self.doubtful],
        }


@dataclass
class CameraWatch:
    """What the camera says of one game, held in memory only: a restart loses it harmlessly (the
    camera says it again)."""

    proposal: Proposal | None = None
    out_of_sync: tuple[int, ...] = ()
    """Hexes where the board and the game disagree; the phones show them until resolved."""
    sync_id: int = 0
    ignored: tuple[int, ...] = ()
    """A disagreement the players chose to ignore: not shown again until the board changes."""
    rejected: tuple[int, tuple[Any, ...]] | None = None
    """(at, what) of a proposal the players turned down: not proposed again as it was."""
    ids: int = 0


class Proposals:
    """The camera's word on every game of the table, and the phones' answers to it."""

    def __init__(
        self,
        act: Callable[[Loaded, Command, Any], Reply],
        tell: Callable[[Loaded], None],
    ) -> None:
        self._act = act
        """The Table's commit path for an action (`Table._act`)."""
        self._tell = tell
        """Tell every viewer the game's state anew (`Table._tell_state`)."""
        self.watches: dict[int, CameraWatch] = {}

    def expected(self, loaded: Loaded) -> dict[str, Any] | None:
        """What the camera should see of a game: ``game``, ``at`` (`last`: it changes with every
        action, undo and correction), ``phase``, ``tiles`` (each hex still holding a tile → its
        terrain) and ``candidates`` (the tiles that may sink now; empty when no sinking is due).
        None when there is no island to watch (a Flotilla game, a game over). Nothing in it is
        hidden: every player sees the tiles' terrain and which may sink."""
        game = loaded.game
        if not isinstance(game, Game) or game.over:  # the camera watches Survive's island
            return None
        terrain = game.state.terrain
        legal = game.legal_actions() if game.phase == "sink" else []
        return {
            "game": loaded.record.id,
            "at": last(loaded),
            "phase": game.phase,
            "tiles": {h: terrain[h] for h in engine.board.LAND if terrain[h] is not None},
            "candidates": [a[1] for a in legal if a[0] == "sink"],
        }

    def watch(self, loaded: Loaded) -> CameraWatch:
        return self.watches.setdefault(loaded.record.id, CameraWatch())

    def pending(self, loaded: Loaded) -> Proposal | None:
        """The proposal still open: one made before the last action in force is stale."""
        proposal = self.watch(loaded).proposal
        return proposal if proposal is not None and proposal.at == last(loaded) else None

    def to_json(self, loaded: Loaded) -> dict[str, Any] | None:
        watch = self.watches.get(loaded.record.id)
        if watch is None:
            return None
        proposal = self.pending(loaded)
        if proposal is None and not watch.out_of_sync:
            return None
        return {
            "proposal": None if proposal is None else proposal.to_json(),
            "out_of_sync": None if not watch.out_of_sync else {
                "id": watch.sync_id,
                "hexes": [{"hex": h, "name": engine.board.name(h)} for h in watch.out_of_sync],
            },
        }  # fmt: skip

    def propose(self, loaded: Loaded, command: Command) -> Reply:
        """A command from the camera: its action is shown to every phone as a proposal, and
        carried out only when a player confirms it."""
        if command.seat is not None:
            raise Refused("the camera proposes for the table; it never speaks for a seat")
        action, args = command.action, command.args
        watch = self.watch(loaded)
        at = last(loaded)
        if action and action[0] == "terrain":
            layout = self.to_lay(loaded, args.get("layout"))
            doubtful = _hexes(args.get("doubtful", []), "doubtful")
            if not set(doubtful) <= set(layout):
                raise Refused("the doubtful positions must be among the layout's")
            proposal = Proposal(watch.ids + 1, at, layout=layout, doubtful=doubtful)
            said = "the island's layout"
        elif action and action[0] == "sink" and len(action) == 2:
            choices = _hexes([action[1], *_listed(args.get("alternatives", []))], "a sunk tile")
            legal = {a[1] for a in loaded.game.legal_actions() if a[0] == "sink"}
            wrong = [_hex_name(h) for h in choices if h not in legal]
            if wrong:
                raise Refused(
                    f"{', '.join(wrong)} may not sink now: the camera's view is out of date"
                )
            confidence = args.get("confidence", 0.0)
            if not _fraction(confidence):
                raise Refused(f"a confidence is a number from 0 to 1, not {confidence!r}")
            proposal = Proposal(watch.ids + 1, at, choices, float(confidence))
            said = "the tile at " + " or ".join(engine.board.name(h) for h in choices) + " sank"
        else:
            raise Refused(CAMERA_ONLY_PROPOSES)
        if watch.rejected == (at, proposal.what):
            raise Refused(
                "the players turned this proposal down; it stays down until the board changes"
            )
        watch.ids += 1
        watch.proposal = proposal
        watch.rejected, watch.out_of_sync, watch.ignored = None, (), ()
        self._tell(loaded)
        return Reply(command.request_id, True, loaded.record.id, message=f"proposed: {said}")

    def to_lay(self, loaded: Loaded, layout: Any) -> dict[int, str]:
        """The terrain of every land position still to lay, in the order they are laid, with
        the box's counts (B-2); Refused, saying what is wrong, otherwise."""
        game = loaded.game
        if not isinstance(game, Game) or game.phase != "terrain":
            raise Refused("the island is not being laid now")
        land, laid = engine.board.LAND, game.state.layout
        if not isinstance(layout, dict):
            raise Refused("a layout gives each land position's terrain")
        extra = [h for h in layout if not _is_hex(h) or h not in land[laid:]]
        missing = [h for h in land[laid:] if h not in layout]
        if extra:
            raise Refused(f"{_hex_name(extra[0])} is not a land position still to lay")
        if missing:
            raise Refused(f"the layout lacks {engine.board.name(missing[0])}")
        wrong = [h for h in land[laid:] if layout[h] not in TERRAINS]
        if wrong:
            h = wrong[0]
            raise Refused(f"{engine.board.name(h)}: {layout[h]!r} is not beach, forest or mountain")
        counts = Counter(game.state.terrain[h] for h in land[:laid]) + Counter(layout.values())
        if any(counts[t] != TERRAIN_COUNT[t] for t in TERRAINS):
            has = ", ".join(f"{counts[t]} {t}" for t in TERRAINS)
            box = ", ".join(f"{TERRAIN_COUNT[t]} {t}" for t in TERRAINS)
            raise Refused(
                f"that island has {has} tiles, the box {box}: correct the positions that are wrong",
                "B-2",
            )
        return {h: layout[h] for h in land[laid:]}

    def asked(self, loaded: Loaded, command: Command) -> Proposal:
        """The open proposal a phone's confirm or reject names by its id."""
        proposal = self.pending(loaded)
        if proposal is None or command.args.get("id") != proposal.id:
            raise Refused(
                "that camera proposal is no longer open (the game moved on, or the camera "
                "proposed again): look at the board as it is now",
                key="camera.gone",
            )
        actor = loaded.game.actor
        if command.seat is not None and actor is not None and command.seat != actor:
            raise Refused(
                f"the tile is seat {actor + 1}'s to remove: their phone confirms it",
                key="camera.not_yours",
                params={"seat": actor},
            )
        return proposal

    def confirm(self, loaded: Loaded, command: Command) -> Reply:
        proposal = self.asked(loaded, command)
        if proposal.layout is not None:
            return self.lay(loaded, command, proposal.layout)
        chosen = command.args.get("hex", proposal.choices[0])
        if chosen not in proposal.choices:
            names = ", ".join(engine.board.name(h) for h in proposal.choices)
            raise Refused(f"the camera proposed {names}; confirm one of those, or reject it")
        reply = self._act(loaded, command, ["sink", chosen])  # stored like a tapped sink
        self.watch(loaded).proposal = None
        return reply

    def lay(self, loaded: Loaded, command: Command, proposed: dict[int, str]) -> Reply:
        """The island as proposed, with the players' corrections (``args.layout``), laid
        position by position: each a stored fact, correctable like a tapped one."""
        corrections = command.args.get("layout", {})
        if not isinstance(corrections, dict):
            raise Refused("the corrections give positions and their terrains")
        layout = self.to_lay(loaded, {**proposed, **corrections})
        quiet = replace(command, request_id="")
        for n, terrain in enumerate(layout.values(), 1):
            try:
                # The request id goes with the last: a resent confirm finds the island laid.
                reply = self._act(loaded, command if n == len(layout) else quiet,
                                  ["terrain", terrain])  # fmt: skip
            except Refused as e:
                if n == 1:
                    raise
                raise Refused(
                    f"{n - 1} of {len(layout)} positions were laid; then: {e.message}. Lay the "
                    "rest by hand, or confirm what the camera proposes next"
                ) from None
        self.watch(loaded).proposal = None
        return replace(reply, message=f"the island is laid: {len(layout)} positions")

    def reject(self, loaded: Loaded, command: Command) -> Reply:
        watch = self.watch(loaded)
        if watch.out_of_sync and command.args.get("id") == watch.sync_id:
            # "Ignore the camera for now": until the board shows something else.
            watch.ignored, watch.out_of_sync = watch.out_of_sync, ()
            self._tell(loaded)
            return Reply(command.request_id, True, loaded.record.id,
                         message="the camera is ignored until the board changes")  # fmt: skip
        proposal = self.asked(loaded, command)
        watch.rejected, watch.proposal = (proposal.at, proposal.what), None
        self._tell(loaded)
        return Reply(command.request_id, True, loaded.record.id,
                     message="the camera's proposal is dropped")  # fmt: skip

    def sync(self, loaded: Loaded, command: Command) -> Reply:
        """The camera compares the board with the game (intent ``sync``): ``args.disagree``
        names the hexes where they differ (empty: they agree again). Every phone is told; it
        changes nothing of the game."""
        disagree = tuple(sorted(set(_hexes(command.args.get("disagree", []), "disagree"))))
        done = Reply(command.request_id, True, loaded.record.id, message="noted")
        watch = self.watch(loaded)
        if disagree:
            if disagree in (watch.out_of_sync, watch.ignored):
                return done
            # The board disagrees: no proposal may be confirmed until it agrees again.
            watch.ids += 1
            watch.out_of_sync, watch.sync_id = disagree, watch.ids
            watch.proposal, watch.rejected, watch.ignored = None, None, ()
        elif watch.out_of_sync or watch.ignored:
            watch.out_of_sync, watch.ignored = (), ()
        else:
            return done
        self._tell(loaded)
        return done


def last(loaded: Loaded) -> int:
    """The highest sequence number in force (0 before any): it changes with every action, undo
    and correction (a corrected action is stored anew, under the next number)."""
    return max((row.seq for row in loaded.log), default=0)


CAMERA_ONLY_PROPOSES = (
    "the camera only proposes a sunk tile or the island's layout; a player confirms or rejects it"
)


def _is_hex(h: Any) -> bool:
    return isinstance(h, int) and not isinstance(h, bool) and 0 <= h < engine.board.SIZE


def _hex_name(h: Any) -> str:
    """A hex as people write it, when it is one; else as it was given (for a refusal)."""
    return engine.board.name(h) if _is_hex(h) else repr(h)


def _listed(value: Any) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise Refused(f"a list of hexes was expected, not {value!r}")
    return list(value)


def _hexes(value: Any, what: str) -> tuple[int, ...]:
    """`value` as land positions (engine hex numbers), or Refused naming what is wrong."""
    hexes = tuple(_listed(value))
    wrong = [h for h in hexes if not (_is_hex(h) and h in engine.board.LAND)]
    if wrong:
        raise Refused(f"{what}: {_hex_name(wrong[0])} is not a land position")
    return hexes


def _fraction(value: Any) -> bool:
    """A real number from 0 to 1 (NaN is not)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 <= value <= 1
