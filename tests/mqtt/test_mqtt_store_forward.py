"""Store-and-forward: nothing lost, order kept, across a broker stop and a controller restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from mqtt_samples import sample_event, sample_state

from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.topics import TableTopics

ROOT = Path(__file__).resolve().parents[2]
T = TableTopics("casino", "t07")


def _bridge(port: int, outbox: Path, **kwargs: object) -> TableBridge:
    return TableBridge(venue="casino", table="t07", session="s1", outbox_path=outbox, port=port,
                       validate_outbound=True, reconnect_delay_s=(1, 1), **kwargs)  # type: ignore[arg-type]


def _first_seen(seqs: list[int]) -> list[int]:
    """Sequence numbers in first-arrival order; QoS 1 may repeat a message, consumers dedupe."""
    seen: set[int] = set()
    order = []
    for seq in seqs:
        if seq not in seen:
            seen.add(seq)
            order.append(seq)
    return order


def test_broker_stopped_loses_nothing(mosquitto_broker, subscribers, tmp_path):
    """Needs mosquitto's persistent sessions (amqtt forgets subscribers on restart)."""
    broker = mosquitto_broker
    sub = subscribers(broker.port, [T.events], client_id="sf-sub", persistent=True).start()
    bridge = _bridge(broker.port, tmp_path / "outbox.sqlite")
    bridge.start()
    try:
        assert bridge.wait_connected(5)
        for n in range(1, 101):
            bridge.publish_event(sample_event(n))
        assert bridge.wait_delivered(5)

        broker.stop()
        # The engine keeps playing while the broker is down: first until the bridge has
        # noticed the broker is gone, then 150 events more (the figure, not the clock, is
        # what the test is about; a busy machine only takes longer).
        n = 100
        while bridge.connected:
            n += 1
            bridge.publish_event(sample_event(n))
            time.sleep(0.01)  # the poll interval of a condition wait, not a guess
        for _ in range(150):
            n += 1
            bridge.publish_event(sample_event(n))
        assert bridge.pending() >= 150  # really queued, not delivered somewhere
        broker.start()
        for _ in range(100):
            n += 1
            bridge.publish_event(sample_event(n))

        assert bridge.wait_delivered(20)
        assert sub.wait_for(lambda s: len({m.json()["seq"] for m in s.on("/events")}) >= n, 20)
        order = _first_seen([m.json()["seq"] for m in sub.on("/events")])
        assert order == list(range(1, n + 1))  # 0 lost, order kept
        assert n > 300
    finally:
        bridge.stop(drain_timeout=0.5)


def test_controller_killed_while_offline_delivers_after_restart(broker, subscribers, tmp_path):
    """Events queued while the broker is down survive a SIGKILL of the controller."""
    outbox = tmp_path / "outbox.sqlite"
    broker.stop()
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT)!r})
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from pokertable.mqtt.bridge import TableBridge
        from mqtt_samples import sample_event, sample_state
        b = TableBridge(venue="casino", table="t07", session="s1", port={broker.port},
                        outbox_path={str(outbox)!r}, validate_outbound=True)
        b.start()
        b.publish_state(sample_state())
        for n in range(1, 301):
            b.publish_event(sample_event(n))
        print("queued", b.pending(), flush=True)
        import threading; threading.Event().wait()  # until the test kills it
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().split() == [b"queued", b"301"]
        os.kill(child.pid, signal.SIGKILL)
        child.wait()
    finally:
        child.kill()

    broker.start()
    sub = subscribers(broker.port, [T.events, T.state]).start()
    restarted = _bridge(broker.port, outbox)
    restarted.start()
    try:
        assert restarted.wait_delivered(20)
        assert sub.wait_for(lambda s: len({m.json()["seq"] for m in s.on("/events")}) >= 300)
        events = [m.json() for m in sub.on("/events")]
        assert _first_seen([e["seq"] for e in events]) == list(range(1, 301))
        assert [e["data"]["n"] for e in events][:300] == list(range(1, 301))
        assert sub.on("/state")[-1].json()["seq"] == 1
        # The restarted controller continues the same session's sequence, no reuse.
        assert restarted.publish_event(sample_event(301)) == 301
        assert restarted.publish_state(sample_state()) == 2
    finally:
        restarted.stop(drain_timeout=0.5)


def test_in_process_restart_continues_sequences(broker, subscribers, tmp_path):
    outbox = tmp_path / "outbox.sqlite"
    sub = subscribers(broker.port, [T.events]).start()
    first = _bridge(broker.port, outbox)
    first.start()
    for n in range(1, 51):
        first.publish_event(sample_event(n))
    first.stop(drain_timeout=5)
    second = _bridge(broker.port, outbox)
    second.start()
    try:
        for n in range(51, 101):
            second.publish_event(sample_event(n))
        assert second.wait_delivered(10)
        assert sub.wait_for(lambda s: len(s.on("/events")) >= 100)
        assert _first_seen([m.json()["seq"] for m in sub.on("/events")]) == list(range(1, 101))
    finally:
        second.stop(drain_timeout=0.5)


def test_full_outbox_drops_oldest_and_announces_it(broker, subscribers, tmp_path):
    broker.stop()
    bridge = _bridge(broker.port, tmp_path / "outbox.sqlite", max_outbox=50)
    bridge.start()
    try:
        for n in range(1, 81):
            bridge.publish_event(sample_event(n))
        assert bridge.pending() == 50
        broker.start()
        sub = subscribers(broker.port, [T.events]).start()
        assert bridge.wait_delivered(20)
        assert sub.wait_for(lambda s: any(m.json()["kind"] == "outbox_overflow"
                                          for m in s.on("/events")))
        events = [m.json() for m in sub.on("/events")]
        bets = [e["seq"] for e in events if e["kind"] == "bet"]
        assert _first_seen(bets) == list(range(31, 81))  # the newest 50 kept, in order
        overflow = next(e for e in events if e["kind"] == "outbox_overflow")
        assert overflow["data"]["dropped"]["event"] == {"count": 30, "first_seq": 1,
                                                        "last_seq": 30}
        assert overflow["seq"] == 81
        assert overflow["rulings"][0]["kind"] == "alert"
    finally:
        bridge.stop(drain_timeout=0.5)
