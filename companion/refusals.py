"""Why the Table will not do something: raised inside it, answered as a refused `Reply`."""

from __future__ import annotations

from typing import Any


class Refused(Exception):
    """A command the Table will not carry out; `rule` is a spec id when a rule refuses it.

    `key` and `params` say it as data (``"undo.not_yours"``, ``{"seat": 1}``: seats, pieces and
    hexes by their ids) for a page to word in its language; `message` is the English sentence
    of logs and the command line."""

    def __init__(
        self,
        message: str,
        rule: str | None = None,
        key: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.key = key
        self.params = params or {}


class UnknownGame(Refused):
    """A game asked for that the table never played."""


class Stale(Refused):
    """A command made on a board that is no longer the game's (another phone moved first, or the
    command arrived after its sender stopped waiting): refused without a rule, since it broke
    none; its sender shows the board as it is now."""
