"""What the engine says when it refuses something."""

from __future__ import annotations

from typing import Any


class EngineError(Exception):
    """Anything the engine refuses; the state is left as it was."""


class RulesError(EngineError):
    """A `Rules` value that cannot be played: an unknown module or option, or a bad value.

    `rule` is the spec id that forbids it, when one does (e.g. B-4 for the player count)."""

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.rule = rule if rule is not None else _cited(message)


def _cited(message: str) -> str | None:
    """The rule id a message ends by citing, as in '... not 7 players (B-4)'."""
    if message.endswith(")") and "(" in message:
        tail = message[message.rindex("(") + 1 : -1]
        if len(tail) >= 3 and tail[0].isupper() and tail[1] == "-" and tail[2:].isdigit():
            return tail
    return None


class MalformedAction(EngineError):
    """An action that does not parse: an unknown verb, a wrong argument, a hex not on the board."""


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid now; `rule` is the spec id it breaks.

    `key` and `params`, when given, say the same as data (``"turn.not_yours"``, ``{"seat": 2}``)
    for a page to word in its own language; without them a page words the rule."""

    def __init__(
        self, rule: str, message: str, key: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.key = key
        self.params = params or {}
