"""Every broker login against the shipped ACL: what it must read and write, and what not.

One exchange against a real mosquitto running the shipped config and ACL: every login
subscribes to the whole tree (mosquitto filters each delivery by the reader's ACL) and
publishes one probe on every probe topic (mosquitto drops a publish the ACL refuses and
still acknowledges it). A probe's arrival anywhere shows its writer may write the topic; a
login receiving anything on a topic shows it may read it. After every probe is
acknowledged (mosquitto routes a message before it acknowledges it), the director
publishes a barrier on the venue clock, which every login reads: a login that has the
barrier has everything it will ever get. Then one test per login compares what it read and
wrote with what docs/mqtt.md gives its role. The anonymous pages' client (the clock display,
the leaderboard, the overlay page) is one more "login": anonymous, on the WebSocket
listener, it reads only the venue clock and its status, the leaderboard, the delayed
broadcast feed and the services' status, and writes nothing.

The expectations are written from the roles' descriptions, not read from the ACL file;
``POKERTABLE_TEST_ACL`` names another ACL to run instead of the shipped one (the ACL
mutation job, bench/acl_mutation.py, issue #20).
"""

from __future__ import annotations

import json
import os
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from mqtt_samples import OTHER_TABLE, PASSWORDS, TABLE
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess

pytestmark = pytest.mark.needs("mosquitto")

V = "pokertable/v1/casino"
T7 = f"{V}/t07"
T8 = f"{V}/t08"
CLOCK, CLOCK_STATUS, CLOCK_CONTROL = f"{V}/clock", f"{V}/clock/status", f"{V}/clock/control"
LEADERBOARD, SEATING, SEATING_CONTROL = f"{V}/leaderboard", f"{V}/seating", f"{V}/seating/control"
STATE, EVENTS, STATUS, REPLY = f"{T7}/state", f"{T7}/events", f"{T7}/status", f"{T7}/reply"
DIRECTOR, REBIRTH = f"{T7}/cmd/director", f"{T7}/cmd/rebirth"
# Commands are published on cmd/<login> (the ACL's %u pattern): the topic names the sender.
CMD_FLOOR, CMD_CLOCK, CMD_ANN = f"{T7}/cmd/floor", f"{T7}/cmd/clock", f"{T7}/cmd/director/ann"
CMD_OTHERS = {CMD_FLOOR, CMD_CLOCK, CMD_ANN}
HOLE_CARDS, EQUITIES, BROADCAST = f"{T7}/secure/hole_cards/1", f"{T7}/secure/equities", (
    f"{T7}/broadcast/state")
# A room service's status, under its own login (the clock's here): every login and page reads.
SERVICE = f"{V}/services/clock/clock"
T8_STATE, T8_DIRECTOR, T8_HOLE_CARDS = f"{T8}/state", f"{T8}/cmd/director", (
    f"{T8}/secure/hole_cards/1")
PROBES = (CLOCK, CLOCK_STATUS, CLOCK_CONTROL, LEADERBOARD, SEATING, SEATING_CONTROL, STATE,
          EVENTS, STATUS, REPLY, DIRECTOR, REBIRTH, HOLE_CARDS, EQUITIES, BROADCAST, T8_STATE,
          T8_DIRECTOR, T8_HOLE_CARDS, CMD_FLOOR, CMD_CLOCK, CMD_ANN, SERVICE)
PUBLIC = {STATE, EVENTS, STATUS, REPLY, T8_STATE}  # a table's public tree, both tables


@dataclass(frozen=True)
class Role:
    reads: frozenset[str]
    writes: frozenset[str]


def _role(reads: set[str], writes: set[str]) -> Role:
    # every login reads the clock and the room services' status
    return Role(frozenset(reads | {CLOCK, SERVICE}), frozenset(writes))


ANONYMOUS = "anonymous"
"""No login, on the WebSocket listener: the pages that hold no secret."""


# docs/mqtt.md "Roles": one login per table (its own subtree only), the room's services.
ROLES: dict[str, Role] = {
    TABLE: _role(
        {DIRECTOR, REBIRTH} | CMD_OTHERS, {STATE, EVENTS, STATUS, REPLY, HOLE_CARDS, EQUITIES}
    ),
    OTHER_TABLE: _role({T8_DIRECTOR}, {T8_STATE, T8_HOLE_CARDS}),
    # The clock sends no director command: cmd/clock only (clock_expired, resume_runout).
    "clock": _role(
        {CLOCK_STATUS, CLOCK_CONTROL, LEADERBOARD, STATE, T8_STATE, STATUS, REPLY},
        {CLOCK, CLOCK_STATUS, LEADERBOARD, CMD_CLOCK, SERVICE},
    ),
    "director": _role(
        {CLOCK_STATUS, LEADERBOARD, SEATING, SEATING_CONTROL, DIRECTOR, REBIRTH, T8_DIRECTOR}
        | PUBLIC | CMD_OTHERS,
        {CLOCK, CLOCK_CONTROL, SEATING, SEATING_CONTROL, DIRECTOR, REBIRTH, T8_DIRECTOR},
    ),
    # One person as director: signs only as herself.
    "director/ann": _role(
        {CLOCK_STATUS, LEADERBOARD, SEATING, SEATING_CONTROL, DIRECTOR, REBIRTH, T8_DIRECTOR}
        | PUBLIC | CMD_OTHERS,
        {CLOCK, CLOCK_CONTROL, SEATING, SEATING_CONTROL, CMD_ANN, REBIRTH},
    ),
    "floor": _role(
        {CLOCK_STATUS, SEATING, DIRECTOR, REBIRTH, T8_DIRECTOR} | PUBLIC | CMD_OTHERS,
        {SEATING_CONTROL, CMD_FLOOR},
    ),
    "overlay": _role({CLOCK_STATUS, LEADERBOARD} | PUBLIC, {REBIRTH}),
    # The venue clock's status, <venue>/clock/status, is where a table named "clock" would
    # publish its status: every login that reads the tables' status (+/+/status) reads it.
    "overlay-secure": _role(
        PUBLIC | {HOLE_CARDS, EQUITIES, T8_HOLE_CARDS, CLOCK_STATUS}, {REBIRTH}
    ),
    "broadcaster": _role(
        {STATE, EVENTS, STATUS, T8_STATE, HOLE_CARDS, T8_HOLE_CARDS, CLOCK_STATUS},
        {EQUITIES, BROADCAST},
    ),
    "archive": _role({EVENTS, HOLE_CARDS, T8_HOLE_CARDS}, set()),
    "broadcast": _role({BROADCAST}, set()),
    # The clock display, the leaderboard and the overlay page: read-only. The ACL's
    # `pattern` lines apply to anonymous clients too: the venue clock and the services'
    # status (a `%u` pattern matches no anonymous client).
    ANONYMOUS: _role({CLOCK_STATUS, LEADERBOARD, BROADCAST}, set()),
}
LOGINS = PASSWORDS | {"archive": "archive-pw", "director/ann": "ann-pw"}
BARRIER = "barrier"


@dataclass
class Login:
    name: str
    client: mqtt.Client
    ready: threading.Event = field(default_factory=threading.Event)
    barrier: threading.Event = field(default_factory=threading.Event)
    granted: list[int] = field(default_factory=list)
    received: set[tuple[str, str]] = field(default_factory=set)  # (topic, writer)


@dataclass
class Exchange:
    logins: dict[str, Login]

    def read_by(self, name: str) -> set[str]:
        return {topic for topic, _ in self.logins[name].received if topic in PROBES}

    def written_by(self, name: str) -> set[str]:
        return {t for login in self.logins.values() for t, w in login.received if w == name}


def _connect(name: str, broker: MosquittoProcess) -> Login:
    anonymous = name == ANONYMOUS
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"acl-{uuid.uuid4().hex[:10]}",
                         transport="websockets" if anonymous else "tcp")
    if not anonymous:
        client.username_pw_set(name, LOGINS[name])
    login = Login(name, client)

    def on_connect(c: mqtt.Client, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
        assert not rc.is_failure, f"{name} refused: {rc}"
        c.subscribe("pokertable/v1/#", qos=1)

    def on_subscribe(c: mqtt.Client, userdata: Any, mid: int, rcs: Any, props: Any) -> None:
        login.granted = [rc.value for rc in rcs]
        login.ready.set()

    def on_message(c: mqtt.Client, userdata: Any, msg: mqtt.MQTTMessage) -> None:
        writer = json.loads(msg.payload)["from"]
        if writer == BARRIER:
            login.barrier.set()
        else:
            login.received.add((msg.topic, writer))

    client.on_connect, client.on_subscribe, client.on_message = (
        on_connect, on_subscribe, on_message)
    port = broker.ws_port if anonymous else broker.port
    assert port is not None
    client.connect("127.0.0.1", port, keepalive=30)
    client.loop_start()
    return login


@pytest.fixture(scope="module")
def exchange(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Exchange]:
    workdir = tmp_path_factory.mktemp("acl")
    broker = MosquittoProcess.from_shipped(workdir, users=LOGINS)
    under_test = os.environ.get("POKERTABLE_TEST_ACL")
    if under_test:
        (workdir / "pokertable.acl").write_text(Path(under_test).read_text(encoding="utf-8"))
    broker.start()
    logins: dict[str, Login] = {}
    try:
        for name in ROLES:
            logins[name] = _connect(name, broker)
        for login in logins.values():
            assert login.ready.wait(30), f"{login.name}: no SUBACK"
        sent = [
            login.client.publish(topic, json.dumps({"from": login.name}), qos=1)
            for login in logins.values()
            for topic in PROBES
        ]
        for info in sent:
            info.wait_for_publish(30)  # acknowledged: routed (or refused) by now
        barrier = logins["director"].client.publish(CLOCK, json.dumps({"from": BARRIER}), qos=1)
        barrier.wait_for_publish(30)
        wait_for(lambda: all(login.barrier.is_set() for login in logins.values()),
                 "every login to get the barrier on the venue clock", timeout=30)
        yield Exchange(logins)
    finally:
        for login in logins.values():
            login.client.disconnect()
            login.client.loop_stop()
        broker.stop()


def test_every_probe_topic_has_a_writer_and_a_reader() -> None:
    """The matrix can see every grant: a write needs a reader to show, a read a writer."""
    for topic in PROBES:
        assert any(topic in r.writes for r in ROLES.values()), topic
        assert any(topic in r.reads for r in ROLES.values()), topic


@pytest.mark.parametrize("name", list(ROLES))
def test_each_login_reads_and_writes_exactly_its_role(exchange: Exchange, name: str) -> None:
    role = ROLES[name]
    read, written = exchange.read_by(name), exchange.written_by(name)
    assert (sorted(read - role.reads), sorted(role.reads - read)) == ([], []), (
        "read: extra, missing")
    assert (sorted(written - role.writes), sorted(role.writes - written)) == ([], []), (
        "written: extra, missing")
