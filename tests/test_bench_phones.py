"""`companion bench web`'s phones figure: 30 phones that joined with the PIN, each on a stream of
its own from its own address (6 seated, 24 watching), read every press of the GPIO panel."""

from __future__ import annotations

from companion import bench, bench_web


def test_thirty_phones_with_sessions_read_every_press() -> None:
    figures = bench_web.phones_on_streams(presses=20, clients=30)
    assert set(figures) == {
        "web.press_to_sse_p50_ms_30_phones",
        "web.press_to_sse_p99_ms_30_phones",
    }
    p50, p99 = (
        figures["web.press_to_sse_p50_ms_30_phones"],
        figures["web.press_to_sse_p99_ms_30_phones"],
    )
    assert 0 < p50 <= p99 < 5000  # sanity, not the goal (50 ms): a bench figure, not a test
    assert bench.RUNNERS["web"] is not bench.web  # the section runs both measures
