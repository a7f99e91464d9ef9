"""A stopgap for two table events that carry an action's notation to every viewer.

The Table tells everyone what an undo took back (``undone``: ``"action": "place 3.4 =5"``) and
what a correction changed (``corrected``: ``"was": "back dolphin", "now": "back winds"``), and
says the same in the sender's reply message — as the referee would write it, for every view.
A placement's value and a kept red tile's back are secret (spec §9), so until the Table
projects these per viewer (reported to the lead), the web layer writes every placement value
and every tile back in them as unknown (``place 3.4 =?``, ``back red``) for anyone but the
table itself. It errs on hiding: a green back's correction is public, yet shown as ``back red``.
"""

from __future__ import annotations

import re
from typing import Any

from ..commands import REFEREE
from ..table import View

_VALUE = re.compile(r"\bplace (\S+) =\d+")
_BACK = re.compile(r"\bback [a-z][a-z-]*")


def notation(text: str) -> str:
    """`text` with every placement value and tile back written as unknown."""
    return _BACK.sub("back red", _VALUE.sub(r"place \1 =?", text))


def event(kind: str, data: dict[str, Any], view: View) -> dict[str, Any]:
    """The data of a table event, safe for `view` (unchanged for the referee)."""
    if view == REFEREE or kind not in ("undone", "corrected"):
        return data
    out = dict(data)
    for key in ("action", "was", "now"):
        if isinstance(out.get(key), str):
            out[key] = notation(out[key])
    if isinstance(out.get("dropped"), list):
        out["dropped"] = [
            {**d, "action": notation(d["action"])} if isinstance(d.get("action"), str) else d
            for d in out["dropped"]
        ]
    return out
