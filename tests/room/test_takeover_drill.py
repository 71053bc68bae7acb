"""The takeover drill (issue #27): with every role's credentials, a second client tries to
knock the room's services off the broker and to act beyond its role.

A real table, the clock, the seating desk, the broadcast relay and the hand archive run
against a real mosquitto with the shipped config and ACL. For every login an attacker
connects once with each client id it could guess (the login, the service names the room
used to use, the table's plain id) and once with a random one, and publishes what its role
may not: director commands on every command topic, a level on the venue clock, a forged
``lost`` for every service. Then the drill checks that no service and no table lost its
connection (no ``lost`` will was ever published), that the table acted on none of it, and
that the services' retained status still says ``online``.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.table_rig import PREFIX, USERS, TableRig
from pokertable.bench.waiting import wait_for
from pokertable.room.archive_service import ArchiveService
from pokertable.room.clock_service import ClockService
from pokertable.room.hand_store import open_store
from pokertable.room.overlay_service import OverlayService
from pokertable.room.seating_service import SeatingService

pytestmark = pytest.mark.needs("mosquitto", "micropython")
BASE = "pokertable/v1/club"
STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 20\n"
GUESSED_IDS = ("clock", "director", "broadcaster", "archive", "floor", "seating-club",
               "pokertable-archive-club", "pokertable-club-t9", "club/t9", "relay-t9",
               "relay-club-t9", "archive-club", "seating", "overlay")
# Who may command a table: director on cmd/director, director/ann (one person) on
# cmd/director/ann, floor on cmd/floor. Everything an attacker sends below is outside its role.
COMMAND_TOPICS = ("cmd/director", "cmd/floor", "cmd/clock", "cmd/director/ann")


class Recorder:
    """Every status a service or the table ever published, with its retained flag."""

    def __init__(self, port: int) -> None:
        self.seen: list[tuple[str, str]] = []
        self.ready = threading.Event()
        self.lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"rec-{uuid.uuid4()}")
        self.client.username_pw_set("director", USERS["director"])
        self.client.on_connect = lambda c, *_: c.subscribe(
            [(f"{BASE}/services/#", 1), (f"{PREFIX}/status", 1), (f"{PREFIX}/reply", 1),
             (f"{BASE}/clock", 1), (f"{BASE}/clock/status", 1)])
        self.client.on_subscribe = lambda *_: self.ready.set()
        self.client.on_message = self._on_message
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.lock:
            self.seen.append((message.topic, message.payload.decode()))

    def on(self, suffix: str) -> list[dict[str, Any]]:
        with self.lock:
            return [json.loads(p) for t, p in self.seen if t.endswith(suffix)]

    def lost(self) -> list[str]:
        """Topics on which a will (``lost``) was published: someone lost his connection."""
        with self.lock:
            return [t for t, p in self.seen
                    if ("/services/" in t or t.endswith("/status"))
                    and json.loads(p).get("state") == "lost"]

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _attacker(port: int, login: str, client_id: str, *, websocket_port: int | None = None
              ) -> mqtt.Client | None:
    """Connected, or None when the broker refuses the login on that listener."""
    transport = "websockets" if websocket_port else "tcp"
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, transport=transport)
    if login:
        client.username_pw_set(login, USERS[login])
    connected = threading.Event()
    refused = threading.Event()

    def on_connect(c: Any, u: Any, flags: Any, rc: Any, props: Any) -> None:
        (refused if rc.is_failure else connected).set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", websocket_port or port)
    client.loop_start()
    wait_for(lambda: connected.is_set() or refused.is_set(), f"{login} {client_id} to connect")
    if refused.is_set():
        client.loop_stop()
        return None
    return client


@pytest.fixture
def room(table: Callable[..., TableRig], tmp_path: Path) -> Iterator[tuple[TableRig, list[Any]]]:
    rig = table([(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000)], 3)
    port = rig.broker.port
    store = open_store(str(tmp_path / "hands.sqlite3"))
    services: list[Any] = [
        ClockService(host="127.0.0.1", port=port, venue="club", structure_text=STRUCTURE,
                     login=("clock", USERS["clock"])),
        SeatingService(host="127.0.0.1", port=port, venue="club",
                       login=("director", USERS["director"])),
        ArchiveService(host="127.0.0.1", port=port, venue="club",
                       login=("archive", USERS["archive"]), store=store),
        OverlayService(host="127.0.0.1", port=port, venue="club", table="t9", delay_s=1,
                       relay_login=("broadcaster", USERS["broadcaster"]),
                       page_config={"ws_url": "ws://127.0.0.1:1"}),
    ]
    for service in services:
        service.start()
    try:
        yield rig, services
    finally:
        for service in reversed(services):
            service.stop()
        store.close()


def test_no_login_can_take_over_a_room_service_or_act_beyond_its_role(
    room: tuple[TableRig, list[Any]],
) -> None:
    rig, services = room
    port, ws_port = rig.broker.port, rig.broker.ws_port
    recorder = Recorder(port)
    assert recorder.ready.wait(30)
    expected = {"clock/clock", "director/seating", "archive/archive-club",
                "broadcaster/relay-club-t9"}
    wait_for(lambda: expected <= {t.split("/services/", 1)[1] for t, p in recorder.seen
                                  if "/services/" in t and '"online"' in p},
             "every service online")
    attackers: list[mqtt.Client] = []
    attack_ids: set[str] = set()

    def attack(login: str, client: mqtt.Client) -> None:
        """Everything outside ``login``'s role, published and acknowledged (routed or
        dropped by the broker) before the next attacker connects: attackers sharing a
        guessed id take over each other, and that is all they can take over."""
        number = len(attackers)
        attackers.append(client)
        sent = []
        for leaf in COMMAND_TOPICS:
            if (login, leaf) in {("director", "cmd/director"), ("floor", "cmd/floor"),
                                  ("director/ann", "cmd/director/ann")}:
                continue  # its own topic: allowed, not an attack
            request_id = f"attack-{number}-{leaf.replace('/', '-')}"
            attack_ids.add(request_id)
            sent.append(client.publish(f"{PREFIX}/{leaf}", json.dumps(
                {"command": "pause", "request_id": request_id, "note": "by director"}), 1))
        if login not in ("director", "director/ann", "clock"):
            sent.append(client.publish(f"{BASE}/clock", json.dumps(
                {"command": "break_start", "request_id": f"attack-{number}-clock",
                 "minutes": 60}), 1))
        for topic in expected:
            if topic.startswith(f"{login}/"):
                continue  # the service's own login: the broker cannot tell them apart
            sent.append(client.publish(f"{BASE}/services/{topic}", json.dumps(
                {"state": "lost", "forged": True}), 1, retain=True))
        for info in sent:
            info.wait_for_publish(30)
        # gone before the next one: paho would reconnect it and take the guessed id back
        client.disconnect()
        client.loop_stop()

    try:
        for login in USERS:
            for client_id in (*GUESSED_IDS, f"{login.replace('/', '-')}-{uuid.uuid4().hex}"):
                client = _attacker(port, login, client_id)
                assert client is not None, f"{login} could not connect at all"
                attack(login, client)
        # anonymous pages on the WebSocket listener, with the same guessed ids
        for client_id in GUESSED_IDS:
            client = _attacker(port, "", client_id, websocket_port=ws_port)
            assert client is not None, "the WebSocket listener refused an anonymous page"
            attack("anonymous", client)
        # anonymous on the plain listener: refused
        assert _attacker(port, "", f"anon-{uuid.uuid4().hex}") is None
        # The barrier: the director's own pause, answered once the table has read the rest.
        director = _attacker(port, "director", f"director-{uuid.uuid4().hex}")
        assert director is not None
        attackers.append(director)
        director.publish(f"{PREFIX}/cmd/director", json.dumps(
            {"command": "pause", "request_id": "barrier"}), 1).wait_for_publish(30)
        wait_for(lambda: any(r["request_id"] == "barrier" for r in recorder.on("/reply")),
                 "the director's pause to be answered", timeout=120)

        acted = [r for r in rig.journaled()
                 if r.get("kind") == "command" and r["request_id"] in attack_ids]
        assert acted == [], "the table acted on a command outside the sender's role"
        answered = [r for r in recorder.on("/reply") if r["request_id"] in attack_ids]
        # only the clock's own topic is answered, with a refusal
        assert answered and all(not r["ok"] and r["field"] == "command" for r in answered)
        assert not [c for c in recorder.on("/clock") if c.get("request_id", "").startswith(
            "attack-")], "an attacker set the venue clock"
        assert recorder.lost() == [], "a service or the table was knocked off the broker"
        assert all(service.client.is_connected() for service in services)

        fresh = Recorder(port)  # what a display arriving now reads (retained)
        try:
            wait_for(lambda: len({t for t, _ in fresh.seen if "/services/" in t}) >= 4,
                     "the services' retained status")
            states = {t.split("/services/", 1)[1]: json.loads(p)["state"]
                      for t, p in fresh.seen if "/services/" in t}
            assert {t: states[t] for t in expected} == dict.fromkeys(expected, "online")
        finally:
            fresh.stop()
    finally:
        for client in attackers:
            client.disconnect()
            client.loop_stop()
        recorder.stop()
