"""Flotilla actions as JSON lists: their shapes, checked before the rules see them, and one line
of text for each (see `game` for what every verb does).

A faces action the companion drew itself (a digital roll) ends with ``"rolled"``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from .errors import MalformedValue

FACTS = frozenset({"dive_faces", "research_faces"})
"""Verbs that record what the dice showed: corrected, never undone."""
ROLLED = "rolled"

Shape = Callable[[Any], bool]


def _ints(x: Any) -> bool:
    return isinstance(x, list) and all(_int(i) for i in x)


def _int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _strs(x: Any) -> bool:
    return isinstance(x, list) and all(isinstance(i, str) for i in x)


def _counts(x: Any) -> bool:
    return isinstance(x, dict) and all(isinstance(k, str) and _int(v) for k, v in x.items())


def _object(**keys: tuple[Shape, bool]) -> Shape:
    """An object with these keys (shape, required) and no others."""

    def ok(x: Any) -> bool:
        return (
            isinstance(x, dict)
            and set(x) <= set(keys)
            and all(k in x for k, (_, required) in keys.items() if required)
            and all(keys[k][0](v) for k, v in x.items())
        )

    return ok


SHAPES: dict[str, tuple[tuple[Shape, str], ...]] = {
    "dive": ((_object(
        skiffs=(lambda x: isinstance(x, list) and all(isinstance(k, dict) for k in x), True),
        card_dice=(_ints, False), sonar=(_strs, False), other_tiles=(_strs, False)),
        '{"skiffs": [{"tile", "depth", "resource", "barrels"}], "card_dice", "sonar", '
        '"other_tiles"}'),),
    "dive_faces": ((lambda x: isinstance(x, list) and all(_strs(f) for f in x),
                    'one list of icons per die, e.g. [["barrel"], ["toxicity"], []]'),),
    "barrels": ((_ints, "barrels added per skiff, e.g. [2, 0, 1]"),),
    "deplete": ((_strs, 'the tiles that get a marker, e.g. ["A7"]'),),
    "research": ((_object(dice=(_int, True), artifacts=(_counts, False)),
                  '{"dice": 4, "artifacts": {"delvers": 2}}'),),
    "research_faces": ((_strs, 'one face per die, e.g. ["wild", "blue", "currency:1"]'),),
    "wild": ((lambda x: isinstance(x, dict) and all(_ints(v) for v in x.values()),
              'colour -> the wild dice (from 0) counted as it, e.g. {"blue": [0]}'),),
    "trade": ((_object(buy=(_counts, False), sell=(_counts, False), reserve=(_counts, False),
                       cargo=(_counts, False)),
               '{"buy": {"red": 2}, "sell": {"blue": 1}, "reserve": {"blue": 3}} (reserve: '
               "the barrels delivered, which the sales are checked against)"),),
    "vp": ((_int, "a whole number of VP"),),
    "done": (),
    "tally": ((_object(currency=(_int, True), resources=(_int, True), toxicity=(_int, True),
                       crew=(_int, True), seals=(_counts, False), penalty_space=(_int, False),
                       penalty_vp=(_int, False)),
               '{"currency", "resources", "toxicity", "crew", "seals": {guild: n}, '
               '"penalty_space" or "penalty_vp"}'),),
}  # fmt: skip


def check(action: Any) -> list[Any]:
    """The action in its stored form (a JSON list), or MalformedValue saying what it should be."""
    if (
        not isinstance(action, list | tuple)
        or not action
        or not isinstance(action[0], str)
        or (action[0] not in SHAPES)
    ):
        raise MalformedValue(
            f"{action!r} is not a Flotilla action; verbs: {', '.join(SHAPES)} (a JSON list "
            'such as ["vp", 3])'
        )
    verb, args = action[0], list(action[1:])
    shape = SHAPES[verb]
    if verb in FACTS and args[1:] == [ROLLED]:
        args = args[:1]  # a digital roll's mark
    if len(args) != len(shape):
        raise MalformedValue(
            f"{verb} takes {len(shape)} argument(s): {verb} then {[w for _, w in shape]}"
        )
    for (ok, what), x in zip(shape, args, strict=True):
        if not ok(x):
            raise MalformedValue(f"{verb}: {json.dumps(x)} is not {what}")
    rolled = [ROLLED] if verb in FACTS and len(action) == 3 else []
    return [verb, *json.loads(json.dumps(args)), *rolled]


def notation(action: list[Any]) -> str:
    """An action in one line: its verb, then its arguments as compact JSON."""
    return " ".join([action[0], *(json.dumps(x, separators=(",", ":")) for x in action[1:])])
