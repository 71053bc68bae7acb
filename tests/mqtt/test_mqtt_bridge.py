"""The bridge against a real broker: retained state, birth/death, sequences, rebirth."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from mqtt_samples import sample_event, sample_hole_cards, sample_state

from pokertable.mqtt.bridge import TableBridge
from pokertable.mqtt.payloads import validate
from pokertable.mqtt.topics import TableTopics

ROOT = Path(__file__).resolve().parents[2]
T = TableTopics("casino", "t07")


@pytest.fixture
def make_bridge(tmp_path: Path) -> Iterator[Callable[..., TableBridge]]:
    made: list[TableBridge] = []

    def make(port: int, **kwargs: Any) -> TableBridge:
        options: dict[str, Any] = dict(
            venue="casino", table="t07", session="s1", outbox_path=tmp_path / "outbox.sqlite",
            port=port, validate_outbound=True,
        )
        options.update(kwargs)
        bridge = TableBridge(**options)
        made.append(bridge)
        return bridge

    yield make
    for bridge in made:
        bridge.stop(drain_timeout=0.5)


def test_late_subscriber_gets_retained_state_and_birth(broker, make_bridge, subscribers):
    bridge = make_bridge(broker.port)
    bridge.start()
    assert bridge.wait_connected(5)
    bridge.publish_state(sample_state(hand_number=41))
    seq = bridge.publish_state(sample_state())
    assert bridge.wait_delivered(5)

    late = subscribers(broker.port, [T.state, T.status]).start()
    assert late.wait_for(lambda s: s.on("/state") and s.on("/status"))
    # The broker hands the retained state over first. The bridge's worker may re-publish
    # the same state (same seq) once its own subscription is acknowledged; arriving live,
    # that copy carries no retain flag, and consumers drop it as a duplicate.
    state, *again = late.on("/state")
    assert state.retain
    assert all(m.json()["seq"] == seq for m in again)
    body = state.json()
    validate("state", body)
    assert (body["seq"], body["hand_number"], body["session"]) == (seq, 42, "s1")
    assert body["seats"][0]["player"] == "Ada"
    assert all("cards" not in seat for seat in body["seats"])  # counts only on the public tree
    status = late.on("/status")[-1].json()
    validate("status", status)
    assert status["state"] == "online"


def test_clean_stop_publishes_offline(broker, make_bridge, subscribers):
    bridge = make_bridge(broker.port)
    bridge.start()
    assert bridge.wait_connected(5)
    watcher = subscribers(broker.port, [T.status]).start()
    assert watcher.wait_for(lambda s: any(m.json()["state"] == "online" for m in s.on("/status")))
    bridge.stop()
    assert watcher.wait_for(lambda s: s.on("/status")[-1].json()["state"] == "offline")
    # ...and it stays retained for anyone who looks later.
    later = subscribers(broker.port, [T.status]).start()
    assert later.wait_for(lambda s: bool(s.on("/status")))
    assert later.on("/status")[-1].json()["state"] == "offline"


def test_unclean_death_publishes_lost_will(broker, subscribers, tmp_path):
    """A controller killed with SIGKILL: the broker publishes our retained 'lost' will."""
    script = textwrap.dedent(f"""
        import sys, threading
        sys.path.insert(0, {str(ROOT)!r})
        from pokertable.mqtt.bridge import TableBridge
        b = TableBridge(venue="casino", table="t07", session="s1", port={broker.port},
                        outbox_path={str(tmp_path / "child.sqlite")!r}, validate_outbound=True)
        b.start()
        assert b.wait_connected(5)
        print("up", flush=True)
        threading.Event().wait()  # until the test kills it
    """)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == b"up"
        watcher = subscribers(broker.port, [T.status]).start()
        assert watcher.wait_for(lambda s: bool(s.on("/status")))
        birth = watcher.on("/status")[-1].json()
        assert birth["state"] == "online"
        os.kill(child.pid, signal.SIGKILL)
        assert watcher.wait_for(lambda s: s.on("/status")[-1].json()["state"] == "lost")
        death = watcher.on("/status")[-1].json()
        validate("status", death)
        assert death["seq"] == birth["seq"]  # the death names the birth it ends
    finally:
        child.kill()
        child.wait()


def test_birth_sequence_grows_per_start(broker, make_bridge, subscribers, tmp_path):
    first = make_bridge(broker.port)
    first.start()
    assert first.wait_connected(5)
    first.stop()
    second = make_bridge(broker.port)
    second.start()
    assert second.wait_connected(5)
    watcher = subscribers(broker.port, [T.status]).start()
    assert watcher.wait_for(lambda s: s.on("/status") and
                            s.on("/status")[-1].json()["state"] == "online")
    assert watcher.on("/status")[-1].json()["seq"] == 2


def test_sequence_continuity_across_event_stream(broker, make_bridge, subscribers):
    sub = subscribers(broker.port, [T.events]).start()
    bridge = make_bridge(broker.port)
    bridge.start()
    seqs = [bridge.publish_event(sample_event(n)) for n in range(1, 501)]
    assert seqs == list(range(1, 501))
    assert sub.wait_for(lambda s: len(s.on("/events")) >= 500, timeout=20)
    received = [m.json() for m in sub.on("/events")]
    assert [e["seq"] for e in received] == seqs
    assert [e["data"]["n"] for e in received] == list(range(1, 501))
    assert {e["session"] for e in received} == {"s1"}
    assert received[0]["rulings"][0]["rule_ids"] == ["TDA2024-43"]
    for event in received[:5]:
        validate("event", event)


def test_rebirth_republishes_full_state_with_new_seq(broker, make_bridge, subscribers):
    bridge = make_bridge(broker.port)
    bridge.start()
    first_seq = bridge.publish_state(sample_state())
    assert bridge.wait_delivered(5)
    consumer = subscribers(broker.port, [T.state, T.reply]).start()
    assert consumer.wait_for(lambda s: bool(s.on("/state")))
    consumer.publish(T.rebirth, {"command": "rebirth", "request_id": "gap-1", "last_seq": 0})
    assert consumer.wait_for(lambda s: len(s.on("/state")) >= 2 and bool(s.on("/reply")))
    reborn = consumer.on("/state")[-1].json()
    assert reborn["seq"] == first_seq + 1
    assert reborn["seats"] == sample_state()["seats"]
    reply = consumer.on("/reply")[-1].json()
    validate("reply", reply)
    assert (reply["request_id"], reply["ok"], reply["command"]) == ("gap-1", True, "rebirth")


def test_reconnect_restores_retained_state_lost_by_broker(broker, make_bridge, subscribers,
                                                          tmp_path):
    """A broker that forgot retained messages (amqtt, or no persistence) gets them again,
    retained: a subscriber that comes after the re-publish still finds the state."""
    bridge = make_bridge(broker.port)
    bridge.start()
    seq = bridge.publish_state(sample_state())
    assert bridge.wait_delivered(5)
    watcher = subscribers(broker.port, [T.state]).start()  # reconnects by itself
    assert watcher.wait_for(lambda s: len(s.on("/state")) == 1)
    broker.stop()
    if broker.kind == "mosquitto":
        (Path(broker.process.config_path).parent / "mosquitto.db").unlink(missing_ok=True)
    broker.start()
    # The re-publish has reached the broker once the watcher, back, has it (live or kept).
    assert watcher.wait_for(lambda s: len(s.on("/state")) == 2, timeout=30)
    assert watcher.on("/state")[-1].json()["seq"] == seq  # the same seq: a duplicate to drop
    late = subscribers(broker.port, [T.state]).start()  # subscribes after the re-publish
    assert late.wait_for(lambda s: bool(s.on("/state")), timeout=15)
    [kept] = late.on("/state")
    assert kept.retain and kept.json()["seq"] == seq


def test_secure_delay_holds_hole_cards(broker, make_bridge, subscribers):
    bridge = make_bridge(broker.port, secure_delay_s=1.0)
    sub = subscribers(broker.port, [T.hole_cards("+"), T.events]).start()
    bridge.start()
    assert bridge.wait_connected(5)
    bridge.publish_hole_cards(sample_hole_cards(1))
    bridge.publish_event(sample_event())
    assert sub.wait_for(lambda s: bool(s.on("/events")))
    assert sub.on("/hole_cards/1") == []  # public stream not held back by the delay
    assert sub.wait_for(lambda s: bool(s.on("/hole_cards/1")), timeout=60)
    cards = sub.on("/hole_cards/1")[0].json()
    validate("hole_cards", cards)
    assert cards["cards"] == ["Ah", "Qh"]
    assert cards["ts_ms"] + 900 <= _now_ms()


def _now_ms() -> int:
    import time

    return time.time_ns() // 1_000_000


def test_rebirth_storm_is_rate_limited(broker, make_bridge, subscribers):
    bridge = make_bridge(broker.port)
    bridge.start()
    bridge.publish_state(sample_state())
    assert bridge.wait_delivered(5)
    consumer = subscribers(broker.port, [T.state, T.reply]).start()
    for n in range(5):
        consumer.publish(T.rebirth, {"command": "rebirth", "request_id": f"r{n}"})
    assert consumer.wait_for(lambda s: len(s.on("/reply")) == 5)
    replies = [m.json() for m in consumer.on("/reply")]
    assert [r["ok"] for r in replies] == [True, False, False, False, False]
    assert "rate limited" in replies[1]["error"]
    assert [m.json()["seq"] for m in consumer.on("/state")] == [1, 2]


def test_a_stopped_bridge_cannot_be_restarted(broker, make_bridge):
    bridge = make_bridge(broker.port)
    bridge.start()
    bridge.stop()
    with pytest.raises(Exception, match="starts once"):
        bridge.start()


def test_threads_publishing_at_once_reach_the_broker_whole_and_in_order(
    broker, make_bridge, subscribers
):
    """Packets leave on the publishing thread (and on paho's for its own): four threads
    publishing at once must never interleave bytes or reorder a stream."""
    import threading

    sub = subscribers(broker.port, [T.events]).start()
    bridge = make_bridge(broker.port, validate_outbound=False)
    bridge.start()
    assert bridge.wait_connected(5)

    def burst() -> None:
        for n in range(150):
            bridge.publish_event(sample_event(n))

    threads = [threading.Thread(target=burst) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert bridge.wait_delivered(30)
    assert sub.wait_for(lambda s: len({m.json()["seq"] for m in s.on("/events")}) >= 600)
    seqs = [m.json()["seq"] for m in sub.on("/events")]
    first_seen = list(dict.fromkeys(seqs))
    assert first_seen == list(range(1, 601))
    assert bridge.pending() == 0


class _Spy:
    """Stands in for a socket of paho's, counting what goes through ``send``."""

    def __init__(self, sock: Any, refuse_first: bool = False) -> None:
        self._sock = sock
        self.sends = 0
        self._refuse = refuse_first

    def send(self, data: bytes) -> int:
        self.sends += 1
        if self._refuse:
            self._refuse = False
            raise BlockingIOError  # the socket's buffer is full
        return int(self._sock.send(data))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _online_bridge(broker: Any, make_bridge: Any, subscribers: Any) -> tuple[TableBridge, Any]:
    sub = subscribers(broker.port, [T.events, T.status]).start()
    bridge = make_bridge(broker.port)
    bridge.start()
    assert bridge.wait_connected(5)
    assert sub.wait_for(lambda s: any(m.json()["state"] == "online" for m in s.on("/status")))
    return bridge, sub


def test_publishing_writes_the_socket_without_waking_pahos_thread(
    broker, make_bridge, subscribers
):
    """The publishing thread writes its own packets: paho's per-publish wake of its network
    thread (a byte on its socket pair) was a thread handoff per message for nothing."""
    bridge, sub = _online_bridge(broker, make_bridge, subscribers)
    client = bridge._client
    wake = _Spy(client._wake_pair)
    client._wake_pair = wake
    for n in range(5):
        bridge.publish_event(sample_event(n))
    assert sub.wait_for(lambda s: len(s.on("/events")) == 5)
    assert bridge.wait_delivered(5)
    assert wake.sends == 0


def test_a_full_socket_hands_the_rest_to_pahos_thread(broker, make_bridge, subscribers):
    bridge, sub = _online_bridge(broker, make_bridge, subscribers)
    client = bridge._client
    wake = _Spy(client._wake_pair)
    client._wake_pair = wake
    client._sock = _Spy(client._sock, refuse_first=True)
    bridge.publish_event(sample_event(1))
    assert sub.wait_for(lambda s: len(s.on("/events")) == 1)
    assert wake.sends == 1  # paho's thread was told, and wrote it once the socket took it
    assert bridge.wait_delivered(5)
