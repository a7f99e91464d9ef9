"""`companion bench table`: the Table's figures, measured on a store beside the real one."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import bench
from companion.mounts import filesystem


def test_the_table_figures_are_measured_in_the_state_directory_and_cleaned_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    assert bench.store_path().parent.parent == tmp_path

    memory = Path("/dev/shm")
    others = set(memory.iterdir())  # another run's, if one is going on
    figures = bench.table(commands=200, fsyncs=20)

    assert set(figures) == {
        "table.command_p50_ms",
        "table.command_p99_ms",
        "table.fsyncs_per_command",
        "table.cpu_per_command_ms",
        "store.fsync_p99_ms",
        "table.command_p99_ms_tmpfs",  # this machine has /dev/shm
        "table.steal_percent",  # and /proc/stat
    }
    assert figures["table.cpu_per_command_ms"] > 0
    assert 0 < figures["table.command_p50_ms"] <= figures["table.command_p99_ms"]
    # Digital games: a sink and the back the Table draws after it are one transaction.
    assert figures["table.fsyncs_per_command"] == 1.0
    assert figures["store.fsync_p99_ms"] > 0
    assert 0 <= figures["table.steal_percent"] < 100
    assert list(tmp_path.iterdir()) == []  # the store and the probe are gone
    # The same commands again with the store in memory, and that store gone too.
    assert figures["table.command_p99_ms_tmpfs"] > 0
    assert not [p for p in set(memory.iterdir()) - others if p.name.startswith("companion-bench-")]


def test_without_a_state_directory_the_store_goes_in_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "absent"))
    monkeypatch.chdir(tmp_path)
    assert bench.store_path().parent.parent == tmp_path


def test_the_filesystem_is_read_from_proc_mounts() -> None:
    with open("/proc/mounts", encoding="utf-8") as f:
        root = next(line.split()[2] for line in f if line.split()[1] == "/")
    assert filesystem(Path("/"))[1] == root
    assert filesystem(Path("/proc/self")) == ("/proc", "proc")
    assert filesystem(Path("/proc/no/such/file"))[1] == "proc"  # its nearest existing parent
