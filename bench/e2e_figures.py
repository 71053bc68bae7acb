"""End-to-end latency: a reader frame's last byte on the pty -> the message at an MQTT subscriber.

Ours is the whole table as ``pokertable run`` starts it, as a separate process: pyserial
reading a pty, the frame decoder, the tag registry, the session, the journal, the SQLite
outbox, the bridge, paho, mosquitto, and a subscriber's ``on_message``. The frames come
from a reader node played by this process on the pty master (birth, heartbeats every
500 ms, settled snapshots), so the reader thread, heartbeat watch and bus all run.

Two situations: an idle table (a chip put into and taken out of an empty seat's bet zone, no
hand) and hands in play (a hand started from the director topic, hole cards dealt card by
card and bets pushed into the zones). The peer, in the same run on the same broker, is
mosquitto's own round trip: a bare paho client publishing to a subscriber (QoS 1), paced
like ours (the same quiet gap after every message: back to back, the cores never idle and
the round trip looks faster than any table's first message after a pause). Rounds
alternate: ours idle, peer, ours in play, peer, ... Targets: p50 <= 1 ms, p99 <= 3 ms.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import tty
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.measure import MIN_REPEATS, Figure, percentile
from pokertable.bench.waiting import stage
from pokertable.firmware import wire
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import SyntheticTags
from pokertable.mqtt.mosquitto import MosquittoProcess

PEER_NAME = "mosquitto publish->subscribe round trip (bare paho, QoS 1)"
PREFIX = "pokertable/v1/bench/t1"
# seat3.bet: an empty seat's zone, where a chip between hands is news (the idle round): in
# the players' zones it would be a blind of the next hand, held without a word.
ZONES = ["seat1.bet", "seat1.cards", "seat2.bet", "seat2.cards", "seat3.bet", "board", "burn",
         "muck"]
_WAIT_S = 3.0
_QUIET_S = 0.03  # after the first message, how long the table must stay quiet
_NEVER_QUIET_S = 30.0  # a table still publishing after this is broken, not busy
_REBIRTH_WAIT_S = 5.0  # heartbeats every 0.5 s: the controller asks within a second
_SILENT_IN_A_ROW = 10  # frames with no message in a row: the table is not reading them


class _Subscriber:
    """Stamps every message on the table's topics (status excluded) on arrival."""

    def __init__(self, port: int, topics: list[str]) -> None:
        self._cond = threading.Condition()
        self.count = 0
        self.first_ns = 0
        self.last_ns = 0
        ready = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe([(t, 1) for t in topics])
        self.client.on_subscribe = lambda c, u, mid, rc, p: ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()
        if not ready.wait(10):
            raise RuntimeError("benchmark subscriber did not subscribe")

    def _on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        now = time.perf_counter_ns()
        if message.topic.endswith("/status"):
            return
        with self._cond:
            self.count += 1
            self.last_ns = now
            if self.first_ns == 0:
                self.first_ns = now
            self._cond.notify_all()

    def arm(self) -> None:
        with self._cond:
            self.first_ns = 0

    def wait_first(self, timeout: float) -> int:
        with self._cond:
            self._cond.wait_for(lambda: self.first_ns != 0, timeout)
            return self.first_ns

    def wait_quiet(self) -> None:
        """Let trailing messages of the same input arrive before the next one is sent; a
        table that never stops publishing is a broken rig, said so rather than waited on."""
        limit = time.monotonic() + _NEVER_QUIET_S
        while time.monotonic() < limit:
            with self._cond:
                seen = self.count
                self._cond.wait(_QUIET_S)
                if self.count == seen:
                    return
        raise RuntimeError(
            f"waited {_NEVER_QUIET_S:.0f} s for the table to stay quiet for "
            f"{_QUIET_S * 1000:.0f} ms, and it kept publishing"
        )

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


class _Node:
    """A reader node on the pty master: birth, heartbeats, settled snapshots, and answers to
    the controller's commands as the firmware gives them (a REBIRTH or CMD_SNAPSHOT is
    answered with the snapshots asked for; LED commands are read and dropped).

    Answering matters: pyserial discards what waits on the port when the controller opens
    it, so the birth sent before is lost and the controller, hearing the node mid-life,
    asks for it again. A node that stayed deaf left the bet zones unread until their first
    chip, which the table then read on top of an unseen posted blind (docs/interpretation.md).
    """

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self._seq = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.zones: dict[str, list[bytes]] = {z: [] for z in ZONES}
        self._beat = threading.Thread(target=self._heartbeats, daemon=True)
        self._listen = threading.Thread(target=self._commands, daemon=True)
        self.reborn = threading.Event()  # a REBIRTH answered: the controller has every zone

    def send(self, msg_type: int, payload: bytes) -> int:
        """Write one frame; returns perf_counter_ns right after its last byte."""
        with self._lock:
            self._seq = (self._seq + 1) & 0xFFFF
            frame = wire.encode_frame(1, msg_type, self._seq, payload)
            view = memoryview(frame)
            while view:
                view = view[os.write(self.master, view) :]
            return time.perf_counter_ns()

    def birth(self) -> None:
        self._birth()
        self._beat.start()
        self._listen.start()

    def _birth(self) -> None:
        self.send(wire.MSG_BIRTH, wire.pack_birth(1, "bench", "none", ZONES))
        for zone in ZONES:
            self.snapshot(zone)

    def snapshot(self, zone: str) -> int:
        return self.send(wire.MSG_SNAPSHOT, wire.pack_snapshot(zone, True, self.zones[zone]))

    def _commands(self) -> None:
        """Read what the controller sends; answer as the node's firmware does."""
        decoder = wire.FrameDecoder()
        while not self._stop.is_set():
            try:
                data = os.read(self.master, 4096)
            except OSError:
                return  # closed
            if not data:
                return
            for _node, msg_type, _seq, payload in decoder.feed(data):
                if msg_type == wire.MSG_CMD_REBIRTH:
                    self._birth()
                    self.reborn.set()
                elif msg_type == wire.MSG_CMD_SNAPSHOT:
                    zone = wire.unpack_snapshot_request(payload)
                    for name in [zone] if zone in self.zones else ZONES:
                        self.snapshot(name)

    def _heartbeats(self) -> None:
        started = time.monotonic()
        while not self._stop.wait(0.5):
            uptime = int((time.monotonic() - started) * 1000)
            self.send(wire.MSG_HEARTBEAT, wire.pack_heartbeat(uptime, 50, 0, 0))

    def close(self) -> None:
        self._stop.set()
        os.close(self.master)
        os.close(self.slave)


def _config(workdir: Path, port: int, reader: str) -> Path:
    lines = [
        "[table]", 'venue = "bench"', 'id = "t1"', "seats = 9", "first_button = 2",
        "[[levels]]", "number = 1", "small_blind = 100", "big_blind = 200", "chip_unit = 25",
        "[registry]", f'path = "{workdir / "registry.sqlite3"}"',
        "[journal]", f'path = "{workdir / "journal.jsonl"}"',
        "[[players]]", "seat = 1", 'name = "Ann"', "stack = 1000000",
        "[[players]]", "seat = 2", 'name = "Bob"', "stack = 1000000",
        "[[readers]]", f'port = "{reader}"',
        "[mqtt]", f"port = {port}", f'outbox = "{workdir / "outbox.sqlite3"}"',
    ]  # fmt: skip
    path = workdir / "table.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


class _Table:
    """``pokertable run`` in a child process, fed by a node on a pty, watched over MQTT."""

    def __init__(self, workdir: Path, port: int, command: list[str] | None = None) -> None:
        """``command``: what runs the controller (bench/e2e_trace.py's tracing child)."""
        registry = TagRegistry(workdir / "registry.sqlite3")
        SyntheticTags.enroll(registry)
        registry.close()
        self.node = _Node()
        config = _config(workdir, port, self.node.path)
        self.log = (workdir / "controller.log").open("ab")
        command = command or [sys.executable, "-m", "pokertable.controller.cli"]
        self.process = subprocess.Popen(
            [*command, "run", "--config", str(config)],
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        self.workdir = workdir
        self.sub = _Subscriber(port, [f"{PREFIX}/state", f"{PREFIX}/events", f"{PREFIX}/reply"])
        self.director = mqtt.Client(CallbackAPIVersion.VERSION2)
        self.director.connect("127.0.0.1", port)
        self.director.loop_start()
        self._request = 0
        self._silent_in_a_row = 0
        self.node.birth()
        stage("the controller's first state (pokertable run on the bench's pty)")
        if not self.sub.wait_first(60):  # the controller is up and published its state
            self._broken("published no state within 60 s")
        # The birth went out before the controller opened the port, which drops it: the
        # controller asks again on the first heartbeat (0.5 s). Play starts once it has the
        # first view of every zone, as at a real table. (Were the birth not dropped, nobody
        # asks: the wait ends at its bound.)
        stage("the controller's REBIRTH after the first heartbeat")
        self.node.reborn.wait(_REBIRTH_WAIT_S)
        self.sub.wait_quiet()
        self.chip = 0
        self.card = 0
        self.hands = 0

    def _broken(self, what: str) -> None:
        """Stop the group with the controller's own last words, rather than time out on
        every remaining frame."""
        exited = self.process.poll()
        self.log.flush()
        tail = (self.workdir / "controller.log").read_text(errors="replace")[-600:]
        state = f"exited {exited}" if exited is not None else "running"
        raise RuntimeError(f"the controller ({state}) {what}; its log ends: {tail.strip()!r}")

    def _heard(self, first: int, what: str) -> None:
        if first:
            self._silent_in_a_row = 0
            return
        self._silent_in_a_row += 1
        if self.process.poll() is not None:
            self._broken(f"stopped answering ({what})")
        if self._silent_in_a_row >= _SILENT_IN_A_ROW:
            self._broken(f"answered none of the last {_SILENT_IN_A_ROW} inputs ({what})")

    def timed(self, zone: str) -> float | None:
        """Send one snapshot of ``zone``; ms to the first message it causes (None: silent)."""
        self.sub.arm()
        sent = self.node.snapshot(zone)
        first = self.sub.wait_first(_WAIT_S)
        self._heard(first, f"a snapshot of {zone}")
        self.sub.wait_quiet()
        return None if first == 0 else (first - sent) / 1e6

    def untimed(self, zone: str) -> None:
        """A snapshot that may cause no message (a chip taken back with no hand running)."""
        self.node.snapshot(zone)
        self.sub.wait_quiet()

    def command(self, button: str) -> None:
        self._request += 1
        payload = {"command": "dealer_button", "request_id": f"b{self._request}", "button": button}
        self.sub.arm()
        self.director.publish(f"{PREFIX}/cmd/director", json.dumps(payload), 1)
        if not self.sub.wait_first(_WAIT_S * 5):  # a command is always answered
            self._broken(f"did not answer the director's {button!r}")
        self.sub.wait_quiet()

    def idle_round(self, samples: int) -> tuple[list[float], int]:
        out, silent = [], 0
        uid = SyntheticTags.chip_uid(150)  # a 100 chip
        for _ in range(samples):  # the table's alert: chips in a zone with no hand (ZONES)
            self.node.zones["seat3.bet"] = [uid]
            value = self.timed("seat3.bet")
            silent += value is None
            if value is not None:
                out.append(value)
            self.node.zones["seat3.bet"] = []
            self.untimed("seat3.bet")
        return out, silent

    def hand_round(self, hands: int) -> tuple[list[float], int]:
        out: list[float] = []
        silent = 0

        def timed(zone: str) -> None:
            nonlocal silent
            value = self.timed(zone)
            if value is None:
                silent += 1
            else:
                out.append(value)

        for _ in range(hands):
            self.hands += 1
            stage(f"hand {self.hands} of the e2e table (frames on the pty, messages over MQTT)")
            self.command("hand_start")
            # Heads-up the button posts the small blind, is dealt the last card and acts
            # first preflop (TDA2024-34B). The blinds go out as chips first, as players
            # put them out (silent: they are what the seats posted). Then the big blind's
            # card first, the button calls with one more chip, and the dealer folds the
            # big blind. A first card to the wrong seat is a misdeal (TDA2024-35A2), a chip
            # pushed out of turn is held, one on the big blind's option is a silent raise
            # for the floor, and a lone chip that brings a read zone to exactly the posted
            # blind is the blind, not a call (Add. 46): none is the message this figure
            # times, and a frame without one costs the bench _WAIT_S.
            button = 2 if self.hands % 2 else 1  # first_button = 2, moving one seat a hand
            for seat, chips in ((button, 1), (3 - button, 2)):  # 100 and 200 in 100 chips
                self.node.zones[f"seat{seat}.bet"] = [self._hundred() for _ in range(chips)]
                self.untimed(f"seat{seat}.bet")
            for _round in range(2):
                for seat in (3 - button, button):
                    zone = f"seat{seat}.cards"
                    self.node.zones[zone].append(SyntheticTags.card_uid(1, self.card % 52))
                    self.card += 1
                    timed(zone)
            self.node.zones[f"seat{button}.bet"].append(self._hundred())
            timed(f"seat{button}.bet")
            self.command("fold")
            for zone in ("seat1.cards", "seat2.cards", "seat1.bet", "seat2.bet"):
                self.node.zones[zone] = []
                self.untimed(zone)
            self.command("confirm")
        return out, silent

    def _hundred(self) -> bytes:
        """The next of the hundred 100 chips (SyntheticTags indices 100-199)."""
        self.chip = (self.chip + 1) % 100
        return SyntheticTags.chip_uid(100 + self.chip)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.sub.close()
        self.director.loop_stop()
        self.node.close()
        self.log.close()


def _peer_round(port: int, samples: int) -> list[float]:
    sub = _Subscriber(port, ["bench/peer"])
    publisher = mqtt.Client(CallbackAPIVersion.VERSION2)
    publisher.connect("127.0.0.1", port)
    publisher.loop_start()
    payload = json.dumps({"seq": 1, "kind": "bet", "data": {"seat": 1, "amount": 400}}).encode()
    out = []
    try:
        for _ in range(samples):
            sub.arm()
            start = time.perf_counter_ns()
            publisher.publish("bench/peer", payload, 1)
            first = sub.wait_first(_WAIT_S)
            if first:
                out.append((first - start) / 1e6)
            sub.wait_quiet()  # paced like ours: a quiet gap after every message, cores idle
    finally:
        publisher.loop_stop()
        publisher.disconnect()
        sub.close()
    return out


_PEER_IDLE = """
import sys, time
import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
client = mqtt.Client(CallbackAPIVersion.VERSION2)
client.connect("127.0.0.1", int(sys.argv[1]))
client.loop_start()
print("ready", flush=True)
sys.stdin.read()
"""


def _process_cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _idle_cpu(table: _Table, port: int, window_s: float = 5.0) -> tuple[float, float]:
    """% of a core over the same window: the idle table (reader, heartbeats, bridge running)
    and an idle paho client process (the peer)."""
    peer = subprocess.Popen(
        [sys.executable, "-c", _PEER_IDLE, str(port)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        assert peer.stdout is not None
        peer.stdout.readline()  # "ready": connected and its network thread running
        ours0, peer0 = _process_cpu_s(table.process.pid), _process_cpu_s(peer.pid)
        start = time.monotonic()
        time.sleep(window_s)
        elapsed = time.monotonic() - start
        ours = _process_cpu_s(table.process.pid) - ours0
        theirs = _process_cpu_s(peer.pid) - peer0
    finally:
        peer.kill()
        peer.wait()
    return 100 * ours / elapsed, 100 * theirs / elapsed


def figures(samples: int = 300, hands: int = 25, repeats: int = MIN_REPEATS) -> dict[str, Any]:
    idle50 = Figure("e2e_idle_p50_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 1 ms")
    idle99 = Figure("e2e_idle_p99_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 3 ms")
    hand50 = Figure("e2e_hands_p50_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 1 ms")
    hand99 = Figure("e2e_hands_p99_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 3 ms")
    idle_cpu = Figure(
        "controller_idle_cpu_pct",
        "% of a core",
        "python + paho connected, idle",
        higher_is_better=False,
        target="<= 2 %",
        note="pokertable run with its pty reader and node heartbeats (2/s)",
    )
    silent = 0
    with tempfile.TemporaryDirectory(prefix="pokertable-bench-e2e-") as tmp:
        workdir = Path(tmp)
        with MosquittoProcess.from_shipped(workdir) as broker:
            table = _Table(workdir, broker.port)
            try:
                for _ in range(max(repeats, MIN_REPEATS)):
                    idle_cpu.add(*_idle_cpu(table, broker.port))
                    ours, quiet = table.idle_round(samples)
                    silent += quiet
                    peer = _peer_round(broker.port, samples)
                    idle50.add(percentile(ours, 50), percentile(peer, 50))
                    idle99.add(percentile(ours, 99), percentile(peer, 99))
                    ours, quiet = table.hand_round(hands)
                    silent += quiet
                    peer = _peer_round(broker.port, len(ours))
                    hand50.add(percentile(ours, 50), percentile(peer, 50))
                    hand99.add(percentile(ours, 99), percentile(peer, 99))
            finally:
                table.close()
    note = f"{silent} frames caused no message (not counted)" if silent else ""
    out = {}
    for fig in (idle50, idle99, hand50, hand99):
        fig.note = note
        out[fig.name] = fig.to_json()
    out[idle_cpu.name] = idle_cpu.to_json()
    return out


if __name__ == "__main__":
    print(json.dumps(figures(samples=100, hands=5), indent=2))
