"""Plain values to and from JSON: every result of the Flotilla helpers is a frozen dataclass of
ints, strings, tuples and string-keyed dicts, so the Table can store it and read it back exactly.

`Reason` is the one value shared by the scoring modules: which rule decided what, with the
numbers compared (like the Survive engine's result).
"""

from __future__ import annotations

import types
import typing
from dataclasses import dataclass, fields, is_dataclass
from typing import Any, TypeVar

from .errors import MalformedValue

T = TypeVar("T")


@dataclass(frozen=True)
class Reason:
    """One step of a decision: `rule` (an F- id), what was compared, and for which seats."""

    rule: str
    criterion: str
    seats: tuple[int, ...]
    numbers: dict[str, int]
    """seat (as a string, for JSON) -> the number compared."""
    decided: bool
    text: str


def to_json(value: Any) -> Any:
    """`value` as JSON-ready data: dataclasses become objects, tuples become lists."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            # An int key would come back from JSON as a string: refuse rather than drift.
            raise MalformedValue(f"dict keys must be strings for JSON: {sorted(map(str, value))}")
        return {k: to_json(v) for k, v in value.items()}
    return value


def from_json(cls: type[T], data: Any) -> T:
    """The value of type `cls` that `to_json` turned into `data` (after a JSON round trip)."""
    built: T = _build(cls, data, cls.__name__)
    return built


def _build(tp: Any, data: Any, where: str) -> Any:
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if tp is Any:
        return data
    if origin in (typing.Union, types.UnionType):
        if data is None and type(None) in args:
            return None
        others = [a for a in args if a is not type(None)]
        if len(others) != 1:
            raise MalformedValue(f"{where}: cannot choose among {tp}")
        return _build(others[0], data, where)
    if isinstance(tp, type) and is_dataclass(tp):
        if not isinstance(data, dict):
            raise MalformedValue(f"{where}: expected an object, got {data!r}")
        hints = typing.get_type_hints(tp)
        names = {f.name for f in fields(tp)}
        unknown = set(data) - names
        if unknown:
            raise MalformedValue(f"{where}: unknown fields {sorted(unknown)}")
        try:
            return tp(**{k: _build(hints[k], v, f"{where}.{k}") for k, v in data.items()})
        except TypeError as exc:
            raise MalformedValue(f"{where}: {exc}") from None
    if origin is tuple:
        if not isinstance(data, list):
            raise MalformedValue(f"{where}: expected a list, got {data!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], v, f"{where}[{i}]") for i, v in enumerate(data))
        if len(args) != len(data):
            raise MalformedValue(f"{where}: expected {len(args)} items, got {len(data)}")
        return tuple(
            _build(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, data, strict=True))
        )
    if origin is list:
        if not isinstance(data, list):
            raise MalformedValue(f"{where}: expected a list, got {data!r}")
        return [_build(args[0], v, f"{where}[{i}]") for i, v in enumerate(data)]
    if origin is dict:
        if not isinstance(data, dict):
            raise MalformedValue(f"{where}: expected an object, got {data!r}")
        return {k: _build(args[1], v, f"{where}[{k!r}]") for k, v in data.items()}
    if tp is bool or tp is str:
        if not isinstance(data, tp):
            raise MalformedValue(f"{where}: expected {tp.__name__}, got {data!r}")
        return data
    if tp is int:
        # bool is an int in Python, but never in these values.
        if not isinstance(data, int) or isinstance(data, bool):
            raise MalformedValue(f"{where}: expected int, got {data!r}")
        return data
    raise MalformedValue(f"{where}: no JSON form for {tp}")
