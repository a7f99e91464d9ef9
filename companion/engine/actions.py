"""Actions as text and as JSON, both ways, and the check that an action is well formed.

An action is a tuple: a verb, then its arguments as numbers or words. Its JSON form is the same
list; its text form is what logs and tests read::

    terrain beach      place 3.4 =2     place 3.4 =?     boat 2.3        play dolphin
    move A3 4.5        board A3 b2      sail b2 4.5      done            sink 3.4
    back shark         back red         pick A3          take b2         roll whale
    creature shark2 4.5                 put whale1 7.9   repel           reveal A3 =5
    dive starfish D    dive shark 2     protect dolphin1 A3              grab B2         ride A3 4.5
    spin shark 2       spin serpent dive  (the 1986 spinner: a creature and 1, 2, 3 or dive)

Whole moves carry the path of one piece, each space in turn, and are checked as one (`paths`):
``go A1 5.3 4.2`` (a person: walks, boards a boat with room where one waits, swims, lands on a
safe island), ``sail b2 1.5 1.6 1.7``, ``creature whale1 1.6 1.7 1.8``, ``ride A3 4.5 4.6``.
With one space, sail, creature and ride are the single steps the engine lists as legal.

People are named by seat letter and number (``A3``: seat 1's third person), boats ``b1``..``b12``,
creatures by kind and number (``shark2``), hexes ``row.col`` or a safe island's corner.
"""

from __future__ import annotations

from typing import Any

from . import board
from .data import (
    BACKS,
    DIE_FACES,
    DIVE_DISTANCES,
    DIVE_KINDS,
    NOTHING,
    PEOPLE_VALUES,
    PIECES,
    SPIN_KINDS,
    SPIN_MOVES,
    TERRAINS,
)
from .errors import MalformedAction
from .state import CREATURE_KINDS, SEAT_LETTERS, Action, person_name

CREATURES: tuple[str, ...] = tuple(k for k in CREATURE_KINDS for _ in range(PIECES[k]))

SHAPES: dict[str, tuple[str, ...]] = {
    "terrain": ("terrain",),
    "place": ("hex", "value?"),
    "boat": ("hex",),
    "play": ("back",),
    "move": ("person", "hex"),
    "go": ("person", "hex+"),
    "board": ("person", "boat"),
    "sail": ("boat", "hex+"),
    "done": (),
    "sink": ("hex",),
    "back": ("back?",),
    "pick": ("person",),
    "take": ("boat",),
    "roll": ("face",),
    "creature": ("creature", "hex+"),
    "put": ("creature", "hex"),
    "repel": (),
    "reveal": ("person", "value"),
    "dive": ("dive-kind", "distance"),
    "protect": ("creature", "person"),
    "grab": ("person",),
    "ride": ("person", "hex+"),
    "spin": ("spin-kind", "spin-move"),
}


MAX_PATH = 8
"""The most spaces a path may name; the rules refuse any longer than its move allows."""


def kinds(verb: str, n: int) -> tuple[str, ...]:
    """The argument kinds of `verb` with `n` arguments: a path's last kind repeats (``hex+``)."""
    shape = SHAPES[verb]
    if shape and shape[-1].endswith("+"):
        return (*shape[:-1], *[shape[-1][:-1]] * (n - len(shape) + 1))
    return shape


def arity_ok(verb: str, n: int) -> bool:
    shape = SHAPES[verb]
    if shape and shape[-1].endswith("+"):
        return len(shape) <= n <= len(shape) - 1 + MAX_PATH
    return n == len(shape)


def _arity(verb: str) -> str:
    shape = SHAPES[verb]
    if shape and shape[-1].endswith("+"):
        return (
            f"{verb} takes {', '.join(shape[:-1])} and 1 to {MAX_PATH} spaces "
            f"(e.g. {verb} ... 5.3 5.4)"
        )
    return f"{verb} takes {len(shape)} argument(s): {', '.join(shape)}"


WORDS: dict[str, tuple[str, ...]] = {
    "terrain": TERRAINS,
    "back": BACKS,
    "face": DIE_FACES,
    "dive-kind": DIVE_KINDS,
    "distance": DIVE_DISTANCES,
    "spin-kind": SPIN_KINDS,
    "spin-move": SPIN_MOVES,
}
"""Argument kinds that are words, and the words each allows."""


def _valid(kind: str, x: Any) -> bool:
    if kind == "value?" and x is None:
        return True
    if kind == "back?":
        return x in ("red", NOTHING) or x in BACKS
    if kind in WORDS:
        words = WORDS[kind]
        return isinstance(x, str) and x in words
    if not isinstance(x, int) or isinstance(x, bool):
        return False
    if kind == "hex":
        return 0 <= x < board.SIZE
    if kind in ("value", "value?"):
        return x in PEOPLE_VALUES
    if kind == "person":
        return 0 <= x // 10 < len(SEAT_LETTERS) and 0 <= x % 10 < len(PEOPLE_VALUES)
    if kind == "boat":
        return 0 <= x < PIECES["boat"]
    return 0 <= x < len(CREATURES)  # creature


def check(action: Any) -> Action:
    """The action as a tuple, or MalformedAction saying what is wrong with it."""
    if isinstance(action, list):
        action = tuple(action)
    if (
        not isinstance(action, tuple)
        or not action
        or not isinstance(action[0], str)  # an unhashable verb cannot be looked up
        or action[0] not in SHAPES
    ):
        raise MalformedAction(f"{action!r} is not an action; verbs: {', '.join(SHAPES)}")
    if not arity_ok(action[0], len(action) - 1):
        raise MalformedAction(_arity(action[0]))
    for kind, x in zip(kinds(action[0], len(action) - 1), action[1:], strict=True):
        if not _valid(kind, x):
            raise MalformedAction(f"{action[0]}: {x!r} is not a {kind.rstrip('?')}")
    return action


def to_json(action: Action) -> list[Any]:
    return list(action)


def from_json(data: Any) -> Action:
    return check(data)


def _text(kind: str, x: Any) -> str:
    if kind == "hex":
        return board.name(x)
    if kind == "person":
        return person_name(x)
    if kind == "boat":
        return f"b{x + 1}"
    if kind == "creature":
        return f"{CREATURES[x]}{x - CREATURES.index(CREATURES[x]) + 1}"
    if kind.startswith("value"):
        return "=?" if x is None else f"={x}"
    return str(x)


def notation(action: Action) -> str:
    """The action in the short text form (see the module's docstring)."""
    shape = kinds(action[0], len(action) - 1)
    return " ".join([action[0], *(_text(k, x) for k, x in zip(shape, action[1:], strict=True))])


def _parse(kind: str, word: str) -> Any:
    if kind == "hex":
        return board.parse(word)
    if kind == "person":
        seat, number = SEAT_LETTERS.find(word[:1]), word[1:]
        if seat < 0 or not number.isdigit():
            raise ValueError(f"{word!r} is not a person: write seat letter and number, e.g. A3")
        return seat * 10 + int(number) - 1
    if kind == "boat":
        if not word.startswith("b") or not word[1:].isdigit():
            raise ValueError(f"{word!r} is not a boat: write b1 ... b12")
        return int(word[1:]) - 1
    if kind == "creature":
        name = word.rstrip("0123456789")
        if name not in CREATURE_KINDS or name == word:
            raise ValueError(f"{word!r} is not a creature: write e.g. shark2")
        return CREATURES.index(name) + int(word[len(name) :]) - 1
    if kind.startswith("value"):
        if word == "=?":
            return None
        if not word.startswith("=") or not word[1:].isdigit():
            raise ValueError(f"{word!r} is not a value: write =3, or =? when unknown")
        return int(word[1:])
    return word


def parse(text: str) -> Action:
    """The action written in the short text form; MalformedAction if it is not one."""
    words = text.split()
    if not words or words[0] not in SHAPES:
        raise MalformedAction(f"{text!r} is not an action; verbs: {', '.join(SHAPES)}")
    if not arity_ok(words[0], len(words) - 1):
        raise MalformedAction(_arity(words[0]))
    shape = kinds(words[0], len(words) - 1)
    try:
        args = [_parse(k, w) for k, w in zip(shape, words[1:], strict=True)]
    except ValueError as e:
        raise MalformedAction(f"{text!r}: {e}") from None
    return check((words[0], *args))
