"""Reading a request's JSON body and checking its fields, with one sentence for each mistake.

A body that cannot be read as JSON is a 400; JSON of the wrong shape (a missing field, a wrong
type, a number out of range, a field nobody asked for) is a 422. Each check names the field and
the form expected, so the sentence alone tells the client what to change.
"""

from __future__ import annotations

import json
from typing import Any, NoReturn

from flask import abort, request

MAX_INT = 2**63 - 1
"""The largest whole number the store can keep (SQLite's INTEGER)."""


def unprocessable(sentence: str) -> NoReturn:
    abort(422, sentence)


def body() -> dict[str, Any]:
    """The request's JSON object, or a 4xx saying what is wrong with it."""
    if not request.is_json:
        abort(415)
    data = request.get_data(cache=False)  # raises 413 past MAX_CONTENT_LENGTH
    if not data.strip():
        abort(400, "The body is empty: send a JSON object.")
    try:
        value = json.loads(data, parse_constant=_no_constant)
    except RecursionError:
        abort(400, "The JSON is nested too deeply to read: send a flat JSON object.")
    except ValueError as e:  # JSONDecodeError, bad UTF-8, a number too long to convert
        abort(400, f"The body is not valid JSON ({_first_line(e)}): send a JSON object.")
    if not isinstance(value, dict):
        unprocessable(f"The body must be a JSON object ({{...}}), not {kind(value)}.")
    return value


def only(data: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Refuse fields nobody asked for: a typo would otherwise be silently ignored."""
    unknown = [k for k in data if k not in allowed]
    if unknown:
        unprocessable(f"{where} has no field {unknown[0]!r}; its fields are: {', '.join(allowed)}.")


BIDI_CONTROLS = dict.fromkeys(
    [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
)
"""The characters that reorder text around them: in a name they make one player's name show as
another's (``"Ana\u202e..."``). Taken out of every text a client sends."""


def text(value: Any, key: str, longest: int) -> str:
    """A string of 1 to `longest` characters once the bidirectional controls are taken out."""
    if isinstance(value, str):
        value = value.translate(BIDI_CONTROLS)
    if not isinstance(value, str) or not value or len(value) > longest:
        unprocessable(f"{key} must be a string of 1 to {longest} characters, not {kind(value)}.")
    return value


def integer(value: Any, key: str, low: int, high: int = MAX_INT) -> int:
    # bool is an int in Python but never a number a client meant.
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        unprocessable(f"{key} must be a whole number from {low} to {high}, not {kind(value)}.")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _first_line(e: Exception) -> str:
    return str(e).splitlines()[0][:120] if str(e) else type(e).__name__


def kind(value: Any) -> str:
    """A short description of what the client sent, for a sentence."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        shown = repr(value)
        return shown if len(shown) <= 24 else "a number that long"
    if isinstance(value, str):
        return f"the string {value[:24]!r}" + ("..." if len(value) > 24 else "")
    if isinstance(value, list):
        return "a list"
    return "an object"
