"""JSON text written by the standard library's C encoder, made once.

`json.dumps` makes that encoder again at every call, which costs more than writing a small value;
the store (every action it keeps) and the event streams (every event they send) write many.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

Encoder = Callable[[Any, int], Iterator[str]]
"""The C encoder: called with a value and 0, the pieces of its JSON text (join them)."""


def encoder(*, ascii_only: bool, item: str, key: str) -> Encoder:
    """The encoder `json.dumps(value, ensure_ascii=ascii_only, separators=(item, key))` uses,
    without its check for a value that holds itself (what is written here never does)."""
    string = json.encoder.encode_basestring_ascii if ascii_only else json.encoder.encode_basestring
    made: Encoder = json.encoder.c_make_encoder(  # type: ignore[attr-defined]
        None, json.JSONEncoder().default, string, None, key, item, False, False, True
    )
    return made
