"""The bench helper runs and reports both figures beside the peer (no speed is asserted)."""

from __future__ import annotations

from pokertable.bench.serial_figures import PEER_NAME, measure


def test_measure_reports_ours_beside_the_peer() -> None:
    figures = measure(frames=300, latency_samples=50)
    assert set(figures) >= {"frames_per_s", "pty_to_event_p50_ms", "pty_to_event_p99_ms"}
    for figure in figures.values():
        assert figure["ours"] > 0 and figure["peer"] > 0
        assert figure["peer_name"] == PEER_NAME
    assert figures["frames_per_s"]["unit"] == "frames/s"
    assert figures["pty_to_event_p99_ms"]["ours"] >= figures["pty_to_event_p50_ms"]["ours"]
