"""Why the Table will not do something: raised inside it, answered as a refused `Reply`."""

from __future__ import annotations


class Refused(Exception):
    """A command the Table will not carry out; `rule` is a spec id when a rule refuses it."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


class UnknownGame(Refused):
    """A game asked for that the table never played."""


class Stale(Refused):
    """A command made on a board that is no longer the game's (another phone moved first, or the
    command arrived after its sender stopped waiting): refused without a rule, since it broke
    none; its sender shows the board as it is now."""
