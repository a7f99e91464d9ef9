"""Helpers for the Flotilla tests: a refusal naming its rule, and a data file edited on disk."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.flotilla import Box, RuleBroken, load


def refused(
    rule: str, match: str, call: Callable[..., object], *args: Any, **kwargs: Any
) -> RuleBroken:
    """Call, expect a refusal naming `rule` whose text matches `match`, and check that no
    list or dict argument was changed by the call."""
    before = copy.deepcopy((args, kwargs))
    with pytest.raises(RuleBroken, match=match) as info:
        call(*args, **kwargs)
    assert info.value.rule == rule
    assert str(info.value).startswith(f"{rule}: ")
    assert (args, kwargs) == before, "a refusal changed its inputs"
    return info.value


def shipped() -> dict[str, Any]:
    """The shipped data file, parsed."""
    text = resources.files("companion.flotilla").joinpath("data/dice.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def edited_box(tmp_path: Path, edit: Callable[[dict[str, Any]], None]) -> Box:
    """The shipped data file after `edit`, written to disk and loaded as a table owner would."""
    raw = shipped()
    edit(raw)
    path = tmp_path / "dice.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    return load(path)
