"""Room scale: many tables publishing real states and events through one mosquitto.

Several publisher processes (paho's ``select()`` fails above ~170 clients in one process)
each run a share of the tables. Every table publishes, at a realistic rate, the states
and events a real ``TableApp`` produced while playing hands, alternating state and
event, QoS 1. One room subscriber (``pokertable/v1/+/+/state`` and ``/events``) stamps
each arrival; latency is its monotonic clock minus the publisher's stamp in the payload
(the same system-wide clock). Lost = published and PUBACKed but never received.

Ours: each table is a ``TableBridge`` (SQLite outbox, sequence numbers, worker thread).
The peer, alternating round by round on the same broker and payloads: bare paho clients
publishing the same bytes. CPU per message: the publisher processes' CPU time over the
messages they sent, beside mosquitto's own CPU per message routed in the same round.

    pokertable bench --only room          # 1,000 tables at 2 messages/s each
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import resource
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from pokertable.bench.measure import MIN_REPEATS, Figure, percentile

TABLES_PER_PROCESS = 100
PEER_NAME = "bare paho clients publishing the same payloads (QoS 1)"


class _Capture:
    """A publisher that keeps what a real table says, for replaying it as load."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, dict[str, Any]]] = []

    def publish_state(self, state: dict[str, Any], *, origin: int | None = None) -> None:
        self.messages.append(("state", state))

    def publish_event(self, event: dict[str, Any], *, origin: int | None = None) -> None:
        self.messages.append(("event", event))

    def publish_hole_cards(self, cards: dict[str, Any], *, origin: int | None = None) -> None:
        return None

    def reply(self, request_id: str | None, **kwargs: Any) -> None:
        return None


def real_messages(hands: int = 20) -> list[tuple[str, dict[str, Any]]]:
    """States and events of a six-handed table playing ``hands`` hands."""
    from pokertable.bench.app_figures import _play
    from pokertable.controller.app.config import parse_config
    from pokertable.controller.app.table_app import TableApp

    with tempfile.TemporaryDirectory() as folder:
        config = parse_config(
            {
                "table": {"venue": "room", "id": "t1", "first_button": 1},
                "levels": [{"number": 1, "small_blind": 100, "big_blind": 200}],
                "players": [{"seat": s, "name": f"p{s}", "stack": 100_000} for s in range(1, 7)],
                "journal": {"path": f"{folder}/journal.jsonl"},
            }
        )
        capture = _Capture()
        app = TableApp(config, publisher=capture)
        app.journal._fsync = False  # only the messages matter here
        app.recover()
        _play(app, hands, random.Random(5))
        app.close()
    return capture.messages


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _publisher(
    kind: str,
    first: int,
    count: int,
    port: int,
    rate: float,
    seconds: float,
    messages: list[tuple[str, dict[str, Any]]],
    workdir: str,
    go: Any,
    result: Any,
) -> None:
    """One process: ``count`` tables, each sending ``rate`` messages a second."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from pokertable.mqtt.bridge import TableBridge

    names = [f"t{first + i:04d}" for i in range(count)]
    bridges: list[TableBridge] = []
    clients: list[mqtt.Client] = []
    if kind == "ours":
        for name in names:
            bridge = TableBridge(
                venue="room",
                table=name,
                session=f"{kind}-{name}",
                port=port,
                outbox_path=Path(workdir) / f"{kind}-{name}.sqlite3",
                validate_outbound=False,
                client_id=f"{kind}-{name}",
            )
            bridge.start()
            bridges.append(bridge)
        connected = all(b.wait_connected(60) for b in bridges)
    else:
        for name in names:
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"{kind}-{name}")
            client.max_inflight_messages_set(100)
            client.max_queued_messages_set(0)
            client.connect("127.0.0.1", port)
            client.loop_start()
            clients.append(client)
        connected = True
    result.put(("ready", connected))
    go.wait()
    sent = 0
    interval = 1.0 / (rate * count)
    started = time.monotonic()
    cpu = _cpu_s()
    infos = []
    seqs = [0] * count
    n = 0
    while time.monotonic() - started < seconds:
        due = started + n * interval
        delay = due - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        table = n % count
        stream, data = messages[(n // count) % len(messages)]
        payload = dict(data, bench_ns=time.monotonic_ns())
        if kind == "ours":
            if stream == "state":
                bridges[table].publish_state(payload)
            else:
                bridges[table].publish_event(payload)
        else:
            seqs[table] += 1
            payload.update(venue="room", table=names[table], session=f"{kind}-{names[table]}",
                           seq=seqs[table])  # fmt: skip
            leaf = "state" if stream == "state" else "events"
            topic = f"pokertable/v1/room/{names[table]}/{leaf}"
            body = json.dumps(payload, separators=(",", ":")).encode()
            infos.append(clients[table].publish(topic, body, 1, retain=stream == "state"))
        sent += 1
        n += 1
    delivered = True
    if kind == "ours":
        delivered = all(b.wait_delivered(60) for b in bridges)
    else:
        for info in infos:
            info.wait_for_publish(60)
    cpu = _cpu_s() - cpu
    result.put(("done", sent, cpu, delivered))
    for bridge in bridges:
        bridge.stop(drain_timeout=1)
    for client in clients:
        client.disconnect()
        client.loop_stop()


class _RoomSubscriber:
    """The room's view: every table's state and events, stamped on arrival."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.latencies: list[float] = []
        self.seen: set[tuple[str, int]] = set()
        self._lock = threading.Lock()
        ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="room-subscriber")
        topics = [("pokertable/v1/room/+/state", 1), ("pokertable/v1/room/+/events", 1)]
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe(topics)
        self.client.on_subscribe = lambda c, u, mid, rc, p: ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not ready.wait(30):
            raise RuntimeError("room subscriber did not subscribe")

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        now = time.monotonic_ns()
        if message.retain:
            return  # a retained copy from an earlier round, not this round's traffic
        payload = json.loads(message.payload)
        with self._lock:
            self.latencies.append((now - payload["bench_ns"]) / 1e6)
            self.seen.add((message.topic, payload["seq"]))

    def reset(self) -> None:
        with self._lock:
            self.latencies = []
            self.seen = set()

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _broker_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _round(
    kind: str,
    tables: int,
    port: int,
    broker_pid: int,
    rate: float,
    seconds: float,
    messages: list[tuple[str, dict[str, Any]]],
    workdir: str,
    room: _RoomSubscriber,
) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    result = context.Queue()
    go = context.Event()
    processes = []
    for first in range(0, tables, TABLES_PER_PROCESS):
        count = min(TABLES_PER_PROCESS, tables - first)
        args = (kind, first, count, port, rate, seconds, messages, workdir, go, result)
        process = context.Process(target=_publisher, args=args, daemon=True)
        process.start()
        processes.append(process)
    for _ in processes:
        _tag, ok = result.get(timeout=300)
        if not ok:
            raise RuntimeError(f"{kind}: a table could not connect to the broker")
    room.reset()
    broker_cpu = _broker_cpu_s(broker_pid)
    go.set()
    sent = cpu = 0.0
    delivered = True
    for _ in processes:
        _tag, n, used, ok = result.get(timeout=seconds + 300)
        sent += n
        cpu += used
        delivered = delivered and ok
    broker_cpu = _broker_cpu_s(broker_pid) - broker_cpu
    deadline = time.monotonic() + 30
    while len(room.seen) < sent and time.monotonic() < deadline:
        time.sleep(0.1)  # the last messages are still on their way to the room
    for process in processes:
        process.join(60)
    with room._lock:
        latencies = list(room.latencies)
        received = len(room.seen)
    return {
        "sent": sent,
        "lost": max(0.0, sent - received),
        "p50_ms": percentile(latencies, 50) if latencies else float("nan"),
        "p99_ms": percentile(latencies, 99) if latencies else float("nan"),
        "cpu_ms_per_msg": 1000 * cpu / sent if sent else float("nan"),
        "broker_cpu_ms_per_msg": 1000 * broker_cpu / sent if sent else float("nan"),
        "delivered": float(delivered),
    }


def figures(
    tables: int = 1000, rate: float = 2.0, seconds: float = 20.0, repeats: int = MIN_REPEATS
) -> dict[str, dict[str, Any]]:
    from pokertable.mqtt.mosquitto import MosquittoProcess

    messages = real_messages()
    what = f"{tables} tables x {rate:g} msg/s, {seconds:g} s per round"
    p50 = Figure("room_p50_ms", "ms", PEER_NAME, higher_is_better=False, note=what)
    p99 = Figure("room_p99_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 50 ms")
    lost = Figure("room_lost_messages", "messages", PEER_NAME, higher_is_better=False,
                  target="0")  # fmt: skip
    cpu = Figure("room_publish_cpu_ms_per_msg", "ms CPU", PEER_NAME, higher_is_better=False)
    broker = Figure("room_mosquitto_cpu_ms_per_msg", "ms CPU", "(mosquitto, peer rounds)",
                    higher_is_better=False)  # fmt: skip
    ours_vs_broker = Figure("room_publish_cpu_vs_mosquitto", "x mosquitto's", "",
                            higher_is_better=False, target="<= 3x")  # fmt: skip
    with (
        tempfile.TemporaryDirectory(prefix="pokertable-bench-room-") as tmp,
        MosquittoProcess.from_shipped(Path(tmp)) as server,
    ):
        broker_process = server._proc  # the broker's pid, for its CPU time per message
        pid = broker_process.pid if broker_process is not None else 0
        room = _RoomSubscriber(server.port)
        try:
            for r in range(max(repeats, MIN_REPEATS)):
                folder = Path(tmp) / f"round{r}"
                folder.mkdir()
                args = (tables, server.port, pid, rate, seconds, messages, str(folder), room)
                ours = _round("ours", *args)
                peer = _round("peer", *args)
                p50.add(ours["p50_ms"], peer["p50_ms"])
                p99.add(ours["p99_ms"], peer["p99_ms"])
                lost.add(ours["lost"], peer["lost"])
                cpu.add(ours["cpu_ms_per_msg"], peer["cpu_ms_per_msg"])
                broker.add(ours["broker_cpu_ms_per_msg"], peer["broker_cpu_ms_per_msg"])
                if ours["broker_cpu_ms_per_msg"] > 0:  # under a clock tick in a short round
                    ours_vs_broker.add(ours["cpu_ms_per_msg"] / ours["broker_cpu_ms_per_msg"])
        finally:
            room.close()
    return {f.name: f.to_json() for f in (p50, p99, lost, cpu, broker, ours_vs_broker)}


if __name__ == "__main__":
    print(json.dumps(figures(tables=100, seconds=5), indent=2))
