"""Replies to a phone name no secret.

The Table projects every event per viewer, but the sentence of a reply is written as the
referee would write it (and a phone without a seat reaches the Table as the table itself, so
the Table cannot project for it). For every phone the web layer writes each placement value
and tile back in that sentence as unknown (``place 3.4 =?``, ``back red``).
"""

from __future__ import annotations

import re

_VALUE = re.compile(r"\bplace (\S+) =\d+")
_BACK = re.compile(r"\bback [a-z][a-z-]*")


def notation(text: str) -> str:
    """`text` with every placement value and tile back written as unknown."""
    return _BACK.sub("back red", _VALUE.sub(r"place \1 =?", text))
