"""The network tests' fixture (``pytest_plugins = ["tests.network_fixtures"]``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.network_support import WLAN, Double


@pytest.fixture
def double(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Double]:
    """The double on this process's PATH, NetworkManager running with a Pi's wlan0."""
    d = Double(tmp_path / "nm")
    for key, value in d.env.items():
        monkeypatch.setenv(key, value)
    d.write(devices=[WLAN])
    yield d
