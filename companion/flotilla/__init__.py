"""Flotilla helpers: the dice bookkeeping and arithmetic of *Flotilla* (WizKids, 2019) for the
table companion (spec ``flotilla.md``, rules F-1 … F-6). Standard library only; no I/O beyond
reading the data file, no state: every function takes plain values and returns a new one, and
never changes its inputs.

The face, for the Table and the phone
-------------------------------------

Dive (F-1), a Sinkside Delver::

    dice = dive_dice(skiffs, card_dice)             # which dice to roll, in order
    d = dive(skiffs, card_dice, sonar, faces)        # faces entered at the table (or roll_dive)
    d.barrel_options, d.depletion                    # where the player may choose...
    d = dive(..., barrels=(2, 1, 0), depleted=("A7",))   # ...and the choice, checked
    d.complete, d.skiffs, d.toxicity, d.survivor     # skiffs after the dive; tracker steps

Research (F-2), a Skyside Delver::

    opts = research_options(faces, artifacts={"delvers": 2})
    opts.best, opts.alternatives                     # each a Research: what it yields
    r = research(faces, wild={"blue": [4]}, artifacts=...)   # the player's choice, checked

Market (F-3)::

    m = new_market()
    t = trade(m, buy={"red": 3}, reserve=..., cargo=...)    # t.cost, t.vp, t.market

End of the game (F-4)::

    s = new_supply(players=4)                        # 100 VP each by default (unverified)
    take = take_vp(s, 3)                             # take.triggered: the supply just ran out
    e = end_triggered(players=4, first=0, seat=2)    # e.turns_left, e.still_to_play
    e = turn_taken(e, 3)

Final scoring and the winner (F-5, F-6)::

    result = final_score([Tally(seat=0, vp=..., ...), ...])
    result.scores, result.guilds, result.ranking, result.winners, result.reasons

Digital rolls: ``roll_dive(depths, random.Random(seed))``, ``roll_research(n, rng)``; each
says ``verified`` and, when not, carries the note ``"face distribution not verified"``.

Values are frozen dataclasses of ints, strings, tuples and string-keyed dicts:
``to_json(value)`` gives JSON-ready data and ``from_json(Type, data)`` the same value back. Seats
are 0-based ints (texts say seat + 1). Refusals raise `RuleBroken` with ``.rule`` (``"F-1"`` …)
and a sentence; the inputs are untouched, so the table asks again.

What is not known
-----------------

The dive and research dice faces, the dive depths, the guild colours (blue for the Delvers is
the seed's example), the toxicity penalty values, the market track and the VP supply per player
come from ``data/dice.json``, where each entry has a ``source`` and ``verified``; `Box.unverified`
lists those not verified. ``load(path)`` reads a table owner's corrected copy; every function
takes it as ``box=``. Faces entered from the table are only checked against a die the file marks
verified, so a wrong placeholder never refuses what the table really rolled.
"""

from .box import BOX, Box, DiveFace, DiveKind, ResearchFace, load
from .dice import NOT_VERIFIED, DiveRoll, ResearchRoll, roll_dive, roll_research
from .dive import Depletion, Dive, DiveDie, Skiff, barrel_options, dive, dive_dice
from .ending import Ending, end_triggered, turn_taken
from .errors import DataError, FlotillaError, MalformedValue, RuleBroken
from .market import Market, Trade, new_market, price, trade
from .research import GuildSet, Research, ResearchOptions, research, research_options
from .scoring import FinalScore, Place, Score, Tally, final_score
from .seals import GuildAward, guild_award
from .supply import Supply, Take, new_supply, take_vp
from .values import Reason, from_json, to_json

__all__ = [
    "BOX",
    "NOT_VERIFIED",
    "Box",
    "DataError",
    "Depletion",
    "Dive",
    "DiveDie",
    "DiveFace",
    "DiveKind",
    "DiveRoll",
    "Ending",
    "FinalScore",
    "FlotillaError",
    "GuildAward",
    "GuildSet",
    "MalformedValue",
    "Market",
    "Place",
    "Reason",
    "Research",
    "ResearchFace",
    "ResearchOptions",
    "ResearchRoll",
    "RuleBroken",
    "Score",
    "Skiff",
    "Supply",
    "Take",
    "Tally",
    "Trade",
    "barrel_options",
    "dive",
    "dive_dice",
    "end_triggered",
    "final_score",
    "from_json",
    "guild_award",
    "load",
    "new_market",
    "new_supply",
    "price",
    "research",
    "research_options",
    "roll_dive",
    "roll_research",
    "take_vp",
    "to_json",
    "trade",
    "turn_taken",
]
