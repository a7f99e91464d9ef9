"""What the Flotilla helpers say when they refuse something; the caller's inputs stay as they were."""

from __future__ import annotations

from typing import Any


class FlotillaError(Exception):
    """Anything the Flotilla helpers refuse."""


class RuleBroken(FlotillaError):
    """Input the rules forbid; `rule` is the spec id (F-1 … F-6) it breaks.

    The helpers never change their inputs, so after a refusal the table simply asks again.
    """

    def __init__(
        self, rule: str, message: str, key: str | None = None, params: dict[str, Any] | None = None
    ) -> None:
        super().__init__(f"{rule}: {message}")
        self.rule = rule
        self.message = message
        self.key = key  # as `IllegalAction`'s: the refusal as data, for a page to word
        self.params = params or {}


class DataError(FlotillaError):
    """A data file the helpers cannot use: a number without a source, an unknown icon, …"""


class MalformedValue(FlotillaError):
    """JSON that does not parse back into the value asked for."""
