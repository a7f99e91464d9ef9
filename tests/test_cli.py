"""The command line: simulate and bench print what their users and the Makefile rely on."""

from __future__ import annotations

import json

import pytest

from companion import cli


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_json_has_the_promised_keys_and_no_violations(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "simulate", "--players", "3", "--games", "25", "--seed", "7", "--json"
    )
    summary = json.loads(out)
    assert status == 0
    for key in (
        "games",
        "seconds",
        "games_per_s",
        "decisions_per_game",
        "invariant_violations",
        "mean_turns",
        "win_rate_by_seat",
        "mean_points_saved",
    ):
        assert key in summary
    assert summary["games"] == 25
    assert summary["invariant_violations"] == 0
    assert len(summary["win_rate_by_seat"]) == 3
    assert sum(summary["win_rate_by_seat"]) == pytest.approx(1.0, abs=1e-3)
    # Random play still lasts at least the 32 turns that remove every beach and forest tile.
    assert summary["mean_turns"] > 32


def test_simulate_same_seed_same_output_apart_from_timings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for _ in range(2):
        _, out, _ = run(
            capsys, "simulate", "--players", "2", "--games", "10", "--seed", "3", "--json"
        )
        summary = json.loads(out)
        for timing in ("seconds", "games_per_s"):
            summary.pop(timing)
        outputs.append(summary)
    assert outputs[0] == outputs[1]
    _, out, _ = run(capsys, "simulate", "--players", "2", "--games", "10", "--seed", "4", "--json")
    other = json.loads(out)
    assert (other["mean_turns"], other["win_rate_by_seat"]) != (
        outputs[0]["mean_turns"],
        outputs[0]["win_rate_by_seat"],
    )


def test_simulate_readable_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--players", "4", "--games", "5", "--seed", "1")
    assert status == 0
    assert "invariant violations: 0" in out
    assert out.count("%") >= 4  # one win rate per seat


def test_simulate_bad_option_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "simulate", "--games", "1", "--option", "tiebreak=coin-toss")
    assert status == 2 and out == ""
    assert "tiebreak" in err and "chain" in err and "shared" in err


def test_simulate_accepts_options(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys,
        "simulate",
        "--players",
        "2",
        "--games",
        "5",
        "--json",
        "--option",
        "tiebreak=shared",
        "--option",
        "creature_move=mandatory",
    )
    summary = json.loads(out)
    assert status == 0 and summary["rules"]["options"]["tiebreak"] == "shared"


def test_bench_engine_section_shape(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion import bench, compiled

    monkeypatch.setattr(bench, "RUNNERS", {"engine": lambda: bench.engine(seconds=0.2)})
    status, out, _ = run(capsys, "bench", "engine", "--json")
    report = json.loads(out)
    assert status == 0
    assert set(report) == {"meta", "figures"}
    for key in ("cpu", "cores", "python", "versions", "commit", "date", "skipped"):
        assert key in report["meta"]
    figures = report["figures"]
    names = {
        "engine.playouts_per_s",
        "engine.decisions_per_game",
        "engine.action_p99_ms",
        "engine.playouts_per_s_all_kits",
        "engine.playouts_per_s_1986",
    }
    # the pure engine ran here; the compiled one too, in its own process, when it is built
    assert report["meta"]["engine.compiled"] is False
    if compiled.build() is not None:
        names |= {f"{name}_compiled" for name in names}
    assert set(figures) == names
    assert all(isinstance(v, (int, float)) and v > 0 for v in figures.values())


def test_bench_names_sections_it_cannot_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion import bench

    def cannot() -> dict[str, float]:
        raise bench.Skipped("no camera library on this machine")

    monkeypatch.setattr(bench, "RUNNERS", {"vision": cannot})
    status, out, _ = run(capsys, "bench", "vision", "--json")
    report = json.loads(out)
    assert status == 0 and report["figures"] == {}
    assert report["meta"]["skipped"] == {"vision": "no camera library on this machine"}
    status, _, err = run(capsys, "bench", "nonsense")
    assert status == 2 and "sections" in err
