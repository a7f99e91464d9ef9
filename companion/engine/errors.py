"""What the engine says when it refuses something."""

from __future__ import annotations


class EngineError(Exception):
    """Anything the engine refuses; the state is left as it was."""


class RulesError(EngineError):
    """A `Rules` value that cannot be played: an unknown module or option, or a bad value."""


class MalformedAction(EngineError):
    """An action that does not parse: an unknown verb, a wrong argument, a hex not on the board."""


class IllegalAction(EngineError):
    """A well-formed action that the rules forbid now; `rule` is the spec id it breaks."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
