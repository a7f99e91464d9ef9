"""Fixtures shared by the test modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.table import Table
from tests.web_support import close, started_table


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """A running Table over a new game log in `tmp_path`; stopped and closed afterwards."""
    table = started_table(tmp_path / "games.db")
    yield table
    close(table)
