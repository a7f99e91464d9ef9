"""`companion bench web`: a press on the GPIO panel (mock pins) until every phone's stream has
the event it caused, over real HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero import Device

from companion import bench, bench_web
from companion.camera import Camera


def test_a_press_reaches_every_stream_and_the_panel_lets_its_pins_go() -> None:
    before = Device.pin_factory
    figures = bench_web.web(presses=20, clients=8, warmup=2)
    assert set(figures) == {"web.button_to_sse_p50_ms", "web.button_to_sse_p99_ms"}
    assert 0 < figures["web.button_to_sse_p50_ms"] <= figures["web.button_to_sse_p99_ms"]
    assert figures["web.button_to_sse_p99_ms"] < 1000  # sanity, not the target (25 ms)
    assert Device.pin_factory is before
    assert "web" in bench.RUNNERS


def test_the_camera_figure_takes_turns_with_the_same_presses_without_the_camera(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The camera's cost is read from turns (off, on, off, on) on one served table: one real
    camera process, watching a film of the game, stopped in the off turns and running in the
    on turns, as a table's camera runs once for all its presses."""
    cameras: list[Camera] = []
    states: list[str] = []
    start, press = Camera.start, bench_web.Rig.press

    def starting(camera: Camera) -> None:
        start(camera)
        cameras.append(camera)

    def pressing(rig: bench_web.Rig, presses: int, warmup: int) -> list[float]:
        stat = Path(f"/proc/{cameras[-1].process_id}/stat").read_text()
        states.append(stat.rsplit(")", 1)[1].split()[0])  # T: stopped
        return press(rig, presses, warmup)

    monkeypatch.setattr(Camera, "start", starting)
    monkeypatch.setattr(bench_web.Rig, "press", pressing)
    figures = bench_web.with_camera(presses=16, clients=2, blocks=4)
    assert len(cameras) == 1
    assert [state == "T" for state in states] == [True, False, True, False]
    assert set(figures) == {
        f"web.button_to_sse_p{q}_ms_camera{off}" for q in (50, 99) for off in ("", "_off")
    }
    for off in ("", "_off"):
        assert figures[f"web.button_to_sse_p50_ms_camera{off}"] > 0
        assert (
            figures[f"web.button_to_sse_p50_ms_camera{off}"]
            <= figures[f"web.button_to_sse_p99_ms_camera{off}"]
        )
