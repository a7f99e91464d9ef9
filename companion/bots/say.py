"""A bot's decision as data every phone words in its own language, so that a person can carry
it out on the real board: ``("bot.move", {"seat": 1, "from": "3.4", "to": "4.4"})``, which the
English page says "Bot Blue moves its person from 3.4 to 4.4". People, boats and creatures are
named as the page names them (``A3``, ``b3``, ``shark2``: the page says "Boat 3", "Shark 2"),
hexes by their names. Values and kept backs stay out (spec §9): the decision is for everyone
at the table, and a person's value never changes what is said (a placed person is only where).

`sentence` is the same in English, for the log and the command line."""

from __future__ import annotations

from typing import Any

from ..engine import board
from ..engine.actions import CREATURES
from ..engine.state import BOAT, LAND, SEA, Action, State, creature_name, person_name

Said = tuple[str, dict[str, Any]]

ENGLISH = {
    "bot.place": "Bot {seat} places a person on {hex}",
    "bot.boat": "Bot {seat} puts a boat on {hex}",
    "bot.move": "Bot {seat} moves its person from {from} to {to}",
    "bot.ride": "Bot {seat} rides a dolphin with its person from {from} to {to}",
    "bot.board": "Bot {seat} moves its person from {from} into {boat}",
    "bot.sail": "Bot {seat} sails {boat} from {from} to {to}",
    "bot.sink": "Bot {seat} removes the tile at {hex}",
    "bot.creature": "Bot {seat} moves {creature} from {from} to {to}",
    "bot.put": "Bot {seat} puts {creature} on {to}",
    "bot.play": "Bot {seat} plays its red tile: {back}",
    "bot.repel": "Bot {seat} plays a repellent",
    "bot.protect": "Bot {seat} has {creature} protect {person}",
    "bot.grab": "Bot {seat} lets the squid take {person}",
    "bot.pick": "Bot {seat} picks {person} for the new boat",
    "bot.take": "Bot {seat} takes {boat}",
    "bot.reveal": "Bot {seat} turns its saved person over",
    "bot.done": "Bot {seat} goes on",
    "bot.other": "Bot {seat} decides",
}
"""The English words of each key (the page's catalogues say the same: web/i18n/*.json)."""


def where(s: State, p: int) -> str:
    """The hex a person stands or swims on, or its boat (``b3``); "" in the box."""
    kind, at = s.p_kind[p], s.p_at[p]
    if kind == BOAT:
        return f"b{at + 1}"
    if kind in (LAND, SEA):
        return board.name(at)
    return ""


def _creature(c: int) -> str:
    return creature_name(list(CREATURES), c)


def said(s: State, seat: int, action: Action) -> Said:
    """What the bot of `seat` does with `action`, in the state before it is done: a key of
    `ENGLISH` and its parameters (the page words ``seat``, ``person``, ``boat``, ``creature``,
    ``hex``, ``from``, ``to`` and ``back`` itself)."""
    verb = action[0]
    p: dict[str, Any] = {"seat": seat}
    if verb in ("place", "boat", "sink"):
        return f"bot.{verb}", {**p, "hex": board.name(action[1])}  # a placed value stays out
    if verb in ("move", "ride", "go"):
        person, to = action[1], action[-1]
        key = "bot.ride" if verb == "ride" else "bot.move"
        return key, {**p, "from": where(s, person), "to": board.name(to)}
    if verb == "board":
        return "bot.board", {**p, "from": where(s, action[1]), "boat": f"b{action[2] + 1}"}
    if verb == "sail":
        b = action[1]
        return "bot.sail", {
            **p, "boat": f"b{b + 1}", "from": board.name(s.b_pos[b]), "to": board.name(action[-1])
        }  # fmt: skip
    if verb in ("creature", "put"):
        c, to, at = action[1], action[-1], s.c_pos[action[1]]
        if at < 0:
            return "bot.put", {**p, "creature": _creature(c), "to": board.name(to)}
        return "bot.creature", {
            **p, "creature": _creature(c), "from": board.name(at), "to": board.name(to)
        }  # fmt: skip
    if verb == "play":
        return "bot.play", {**p, "back": action[1]}  # played: shown to everyone (B-23)
    if verb == "protect":
        return "bot.protect", {
            **p,
            "creature": _creature(action[1]),
            "person": person_name(action[2]),
        }
    if verb in ("grab", "pick"):
        return f"bot.{verb}", {**p, "person": person_name(action[1])}
    if verb == "take":
        return "bot.take", {**p, "boat": f"b{action[1] + 1}"}
    if verb in ("repel", "reveal", "done"):
        return f"bot.{verb}", p  # a revealed value is the reveal's own event, not the bot's
    return "bot.other", p


def hexes(s: State, action: Action) -> list[str]:
    """The hexes the decision touches, in order (where a piece was, where it goes), for the
    board to mark: never a value."""
    key, params = said(s, 0, action)
    found = [params[k] for k in ("from", "hex", "to") if params.get(k)]
    if "person" in params:
        found.append(where(s, action[-1] if action[0] == "protect" else action[1]))
    if key in ("bot.board", "bot.take"):
        found.append(params["boat"])
    named = [_hex_of(s, x) for x in found]
    return list(dict.fromkeys(x for x in named if x))


def _hex_of(s: State, name: str) -> str:
    """A boat's id (``b3``) as the hex it sits on; a hex's name as it is."""
    if name.startswith("b") and name[1:].isdigit():
        at = s.b_pos[int(name[1:]) - 1]
        return board.name(at) if at >= 0 else ""
    return name


def sentence(s: State, name: str, action: Action) -> str:
    """What the bot called `name` does with `action`, in English (the log, the command line)."""
    key, params = said(s, 0, action)
    english = {
        k: (_english(k, v) if k != "seat" else name) for k, v in params.items()
    }  # fmt: skip
    return ENGLISH[key].format(**english)


def _english(name: str, value: Any) -> str:
    text = str(value)
    if name in ("boat", "from") and text.startswith("b") and text[1:].isdigit():
        return f"boat {text[1:]}"
    if name == "creature":
        kind = text.rstrip("0123456789")
        return f"{kind} {text[len(kind) :]}"
    return text
