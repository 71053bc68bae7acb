"""A whole table for end-to-end tests: mosquitto with the shipped ACL, simulated reader nodes
running the real firmware, and ``pokertable run`` as a subprocess, plus a scripted dealer.

Everything between the simulated antennas and the subscriber is the real thing: firmware
under the MicroPython unix port, ptys, pyserial, the engine, the journal, the MQTT outbox,
mosquitto and its password file and ACL.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.waiting import wait_for
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import (
    ClearZone,
    DealCard,
    NodeSpec,
    PushChips,
    SyntheticTags,
    TableSimulator,
)
from pokertable.mqtt.mosquitto import MosquittoProcess

REPO = Path(__file__).resolve().parents[1]
TABLE_LOGIN = "club/t9"  # each table has its own broker login, <venue>/<table>
USERS = {
    TABLE_LOGIN: "table-secret",
    "director": "director-secret",
    "overlay": "overlay-secret",
    # For the hostile-input drills (tests/reliability): another table and another observer.
    "club/t8": "t8-secret",
    "overlay-secure": "secure-secret",
    "broadcaster": "relay-secret",
    "broadcast": "page-secret",
    "floor": "floor-secret",
    "clock": "clock-secret",
    "archive": "archive-secret",
    "director/ann": "ann-secret",  # one person as director (the ACL's example block)
}
TIMING = {"present_after": 2, "absent_after": 2, "settle_ms": 80, "heartbeat_ms": 500}
PREFIX = "pokertable/v1/club/t9"


@dataclass
class Watcher:
    """A client of the room (the overlay or the director) recording what it receives."""

    port: int
    user: str
    topics: tuple[str, ...]
    client_id: str = ""  # several watchers with one login on one broker need their own
    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._ready = threading.Event()
        self.client = mqtt.Client(
            CallbackAPIVersion.VERSION2, client_id=self.client_id or f"rig-{self.user}"
        )
        self.client.username_pw_set(self.user, USERS[self.user])
        self.client.on_connect = lambda c, u, f, rc, p: c.subscribe([(t, 1) for t in self.topics])
        self.client.on_subscribe = lambda c, u, mid, rc, p: self._ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", self.port)
        self.client.loop_start()
        assert self._ready.wait(10), f"{self.user} could not subscribe"

    def _on_message(self, client: Any, userdata: Any, msg: Any) -> None:
        with self._lock:
            self.messages.append((msg.topic, json.loads(msg.payload)))

    def on(self, leaf: str) -> list[dict[str, Any]]:
        with self._lock:
            return [p for t, p in self.messages if t.endswith(leaf)]

    def state(self) -> dict[str, Any] | None:
        states = self.on("/state")
        return max(states, key=lambda s: s["seq"]) if states else None

    def wait_state(
        self, predicate: Callable[[dict[str, Any]], bool], what: str, timeout: float = 90.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            state = self.state()
            if state is not None and predicate(state):
                return state
            time.sleep(0.02)
        raise AssertionError(f"timed out waiting for {what}; last state: {self.state()}")

    def publish(self, topic: str, payload: dict[str, Any]) -> None:
        self.client.publish(topic, json.dumps(payload), qos=1).wait_for_publish(5)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class TableRig:
    """Broker + simulated felt + controller process, torn down in ``close``."""

    def __init__(
        self,
        workdir: Path,
        players: list[tuple[int, str, int]],
        first_button: int,
        seats_per_node: int = 0,  # 0: one node reads every seat
        broker: MosquittoProcess | None = None,  # another table's: several tables, one room
        table_id: str = "t9",  # with a shared broker: "t8" (its login is in USERS)
        table_lines: tuple[str, ...] = (),  # more [table] keys: profile, overrides
        simulated_time: bool = False,  # the nodes' RF on simulated time (sim_node.py)
    ) -> None:
        self.workdir = workdir
        workdir.mkdir(parents=True, exist_ok=True)
        self.own_broker = broker is None
        self.broker = broker or MosquittoProcess.from_shipped(workdir, users=USERS)
        if broker is None:
            self.broker.start()
        login = f"club/{table_id}"
        self.table_id = table_id
        self.prefix = prefix = f"pokertable/v1/club/{table_id}"
        self.registry = TagRegistry(workdir / "registry.sqlite3")
        SyntheticTags.enroll(self.registry)
        seats = [p[0] for p in players]
        per_node = seats_per_node or len(seats)
        specs = [
            NodeSpec(
                n + 1,
                tuple(
                    f"seat{s}.{z}"
                    for s in seats[n * per_node : (n + 1) * per_node]
                    for z in ("bet", "stack", "cards")
                ),
            )
            for n in range((len(seats) + per_node - 1) // per_node)
        ]
        specs.append(NodeSpec(len(specs) + 1, ("board", "burn", "muck")))
        self.sim = TableSimulator(self.registry, specs, node_config=TIMING,
                                  simulated_time=simulated_time)
        (workdir / "table.secret").write_text(USERS[login])
        lines = [
            "[table]",
            'venue = "club"',
            f'id = "{table_id}"',
            "seats = 9",
            f"first_button = {first_button}",
            *table_lines,
            "[[levels]]",
            "number = 1",
            "small_blind = 100",
            "big_blind = 200",
            "chip_unit = 25",
            "[registry]",
            'path = "registry.sqlite3"',
            "[journal]",
            'path = "journal.jsonl"',
        ]
        for seat, name, stack in players:
            lines += ["[[players]]", f"seat = {seat}", f'name = "{name}"', f"stack = {stack}"]
        for node in sorted(self.sim.nodes):
            lines += ["[[readers]]", f'port = "{self.sim.port_of(node)}"']
        lines += [
            "[mqtt]",
            f"port = {self.broker.port}",
            f'username = "{login}"',
            'password_file = "table.secret"',
            'outbox = "outbox.sqlite3"',
        ]
        self.config = workdir / "table.toml"
        self.config.write_text("\n".join(lines) + "\n")
        self.process: subprocess.Popen[bytes] | None = None
        self.overlay = Watcher(
            self.broker.port,
            "overlay",
            (f"{prefix}/state", f"{prefix}/events", f"{prefix}/status"),
            client_id=f"rig-overlay-{table_id}",
        )
        self.director = Watcher(self.broker.port, "director", (f"{prefix}/reply",),
                                client_id=f"rig-director-{table_id}")

    def start_controller(self) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        log = (self.workdir / "controller.log").open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pokertable.controller.cli", "run",
             "--config", str(self.config)],
            cwd=REPO,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()

    def kill_controller(self) -> None:
        """Power cut: SIGKILL, no chance to flush or say goodbye."""
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)
            self.process = None

    def stop_controller(self) -> int:
        assert self.process is not None
        self.process.terminate()
        code = self.process.wait(15)
        self.process = None
        return code

    def journaled(self) -> list[dict[str, Any]]:
        """The controller's journal records so far (whole lines only: a line being written
        or torn by a kill is not a record yet)."""
        path = self.workdir / "journal.jsonl"
        if not path.exists():
            return []
        lines = path.read_bytes().split(b"\n")[:-1]
        # each line is ``<json>\t<crc32>`` (docs: controller/app/journal.py); JSON escapes tabs
        return [json.loads(line.split(b"\t", 1)[0]) for line in lines if line.strip()]

    def wait_first_inventory(self) -> None:
        """Wait until the controller holds every chip zone's first complete view from its
        node: a node still booting when the hand starts reports its zones mid-deal."""
        zones = {z for z in self.sim.on_felt if z.endswith((".bet", ".stack"))}

        def viewed() -> set[str]:
            return {r["zone"] for r in self.journaled() if r["kind"] == "chips" and r["complete"]}

        wait_for(lambda: zones <= viewed(),
                 f"every node's first inventory of {sorted(zones)}; log: {self.log()}",
                 timeout=120)

    def log(self) -> str:
        path = self.workdir / "controller.log"
        return path.read_text()[-4000:] if path.exists() else ""

    # -- the dealer --------------------------------------------------------------------

    def button(self, button: str, amount: int | None = None) -> None:
        payload: dict[str, Any] = {
            "command": "dealer_button",
            "request_id": f"b{time.monotonic_ns()}",
            "button": button,
        }
        if amount is not None:
            payload["amount"] = amount
        self.director.publish(f"{self.prefix}/cmd/director", payload)

    def push(self, seat: int, *chips: int, read: bool = True) -> None:
        """Chips into a seat's bet zone; by default wait until the controller has taken the
        read, as a dealer's next step comes after the readers settled. On a busy machine a
        read can otherwise land after the next button press (e.g. the big blind's own blind
        chips taken as a silent raise on his option). ``read=False`` while the controller is
        down."""
        zone = f"seat{seat}.bet"
        uids = set(self.sim.perform(PushChips(zone, chips)))
        if read:
            wait_for(
                lambda: uids <= journaled_felt(self.journaled()).get(zone, set()),
                f"the controller to read {chips} in {zone}; log: {self.log()}",
                timeout=120,
            )

    def deal(self, zone: str, card: str) -> None:
        self.sim.perform(DealCard(zone, card))

    def clear(self, zone: str) -> None:
        if self.sim.on_felt.get(zone):
            self.sim.perform(ClearZone(zone))

    def close(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(10)
        self.overlay.stop()
        self.director.stop()
        self.sim.close()
        self.registry.close()
        if self.own_broker:
            self.broker.stop()


def journaled_felt(records: list[dict[str, Any]]) -> dict[str, set[str]]:
    """Which tag lies in which zone, as the controller's journal records tell it."""
    felt: dict[str, set[str]] = {}
    for record in records:
        here = felt.setdefault(record.get("zone") or "", set())
        if record["kind"] == "chips":
            if record["complete"]:  # the readers' full view of the zone after a restart
                here.clear()
            here |= {c["uid"] for c in record["arrived"]}
            here -= {c["uid"] for c in record["left"]}
        elif record["kind"] == "card" and "uid" in record:  # a sealed card has no clear uid
            here.add(record["uid"])
        elif record["kind"] == "card_cleared" and "uid" in record:
            here.discard(record["uid"])
    return {zone: uids for zone, uids in felt.items() if uids and zone}
