"""The broadcast overlay page holds no secret (issue #27): it reads the delayed feed
anonymously over the broker's WebSocket listener, which the shipped ACL lets read the
``broadcast/`` subtree and nothing live or secure; and it says "offline — reconnecting" when
the broker goes away, then comes back by itself.

Real mosquitto with the shipped config and ACL, the real relay, Debian's Chromium. The
screenshot in docs/overlay.md (overlay-offline.png) is from this test.
"""

from __future__ import annotations

import json
import threading
import urllib.request
import uuid
from typing import Any

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS
from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.overlay_service import OverlayService, load_layout, page_config
from tests.room.conftest import ARTIFACTS

pytestmark = pytest.mark.needs("mosquitto")

LIVE_STATE, HOLE_CARDS = f"{PREFIX}/state", f"{PREFIX}/secure/hole_cards/1"
EQUITIES = f"{PREFIX}/secure/equities"
DELAYED_STATE, DELAYED_HOLES = f"{PREFIX}/broadcast/state", f"{PREFIX}/broadcast/hole_cards/1"
BARRIER = f"{PREFIX}/broadcast/heartbeat"
CLOCK = "pokertable/v1/club/clock"


class Client:
    """A paho client that records every message it is delivered."""

    def __init__(self, port: int, login: str | None, *, websocket: bool = False) -> None:
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2,
                                  client_id=f"test-{uuid.uuid4().hex[:10]}",
                                  transport="websockets" if websocket else "tcp")
        if login is not None:
            self.client.username_pw_set(login, USERS[login])
        self.lock = threading.Lock()
        self.seen: list[tuple[str, bytes]] = []
        self.subscribed = threading.Event()
        self.refused = threading.Event()
        self.client.on_connect = self._on_connect
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._on_message
        self.client.reconnect_delay_set(1, 2)  # the broker restarts in one test
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def _on_connect(self, c: Any, u: Any, flags: Any, rc: Any, props: Any) -> None:
        if rc.is_failure:
            self.refused.set()
            return
        c.subscribe("pokertable/v1/#", qos=1)  # the broker filters each delivery by its ACL

    def _on_message(self, c: Any, u: Any, message: Any) -> None:
        with self.lock:
            self.seen.append((message.topic, message.payload))

    def topics(self) -> set[str]:
        with self.lock:
            return {topic for topic, _ in self.seen}

    def publish(self, topic: str, payload: object) -> None:
        """Returns once the broker acknowledged it: mosquitto routes before it acknowledges."""
        self.client.publish(topic, json.dumps(payload), qos=1).wait_for_publish(30)

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def _state(hand_id: str, player: str) -> dict[str, Any]:
    """A table state as the overlay page draws it (docs/mqtt.md)."""
    return {"hand_id": hand_id, "hand_number": 1, "street": "preflop", "board": [],
            "pots": [], "action_on": None, "clock": None, "ts_ms": 0,
            "seats": [{"seat": 1, "player": player, "status": "active", "stack": 5000,
                       "bet": 0, "cards_held": 2}]}


def test_anonymous_page_reads_the_delayed_feed_and_nothing_live_or_secure(
    broker: MosquittoProcess,
) -> None:
    assert broker.ws_port is not None
    page = Client(broker.ws_port, None, websocket=True)
    table = Client(broker.port, TABLE_LOGIN)
    relay = Client(broker.port, "broadcaster")
    # witnesses of a forged write: the director reads every command and the clock, the
    # `broadcast` login the delayed feed
    director = Client(broker.port, "director")
    witness = Client(broker.port, "broadcast")
    clients = (page, table, relay, director, witness)
    try:
        for client in clients:
            wait_for(client.subscribed.is_set, "every client subscribed")
        assert not page.refused.is_set(), "the WebSocket listener refused an anonymous page"
        table.publish(LIVE_STATE, _state("h1", "Ann"))
        table.publish(HOLE_CARDS, {"hand_id": "h1", "seat": 1, "cards": ["As", "Ah"]})
        relay.publish(EQUITIES, {"hand_id": "h1", "seats": []})
        relay.publish(DELAYED_STATE, _state("h1", "Ann"))
        relay.publish(DELAYED_HOLES, {"hand_id": "h1", "seat": 1, "cards": ["As", "Ah"]})
        # what the anonymous page may not write: a command, the feed, the clock
        for topic in (f"{PREFIX}/cmd/rebirth", DELAYED_STATE, CLOCK):
            page.publish(topic, {"forged": True})
        # barriers, after everything else was routed: what came before is all they will get
        director.publish(CLOCK, {"barrier": True})
        relay.publish(BARRIER, {"delay_s": 0})
        wait_for(lambda: CLOCK in director.topics(), "the barrier at the director")
        wait_for(lambda: BARRIER in page.topics() and BARRIER in witness.topics(),
                 "the barrier at the page and the witness")

        # the venue clock (levels, breaks) is public to every client (docs/mqtt.md)
        assert page.topics() == {DELAYED_STATE, DELAYED_HOLES, BARRIER, CLOCK}
        forged = [(t, p) for client in clients for t, p in client.seen if b"forged" in p]
        assert forged == [], "an anonymous page wrote to the broker"
    finally:
        for client in clients:
            client.stop()


def test_anonymous_page_is_refused_on_the_plain_listener(broker: MosquittoProcess) -> None:
    client = Client(broker.port, None)
    try:
        wait_for(client.refused.is_set, "the plain listener to refuse an anonymous client")
    finally:
        client.stop()


def test_overlay_page_holds_no_password_and_reconnects_after_a_broker_restart(
    broker: MosquittoProcess, browser: Any
) -> None:
    service = OverlayService(
        host="127.0.0.1", port=broker.port, venue="club", table="t9", delay_s=0.2,
        relay_login=("broadcaster", USERS["broadcaster"]), heartbeat_s=0.5,
        page_config=page_config(f"ws://127.0.0.1:{broker.ws_port}", load_layout(None)))
    service.start()
    table = Client(broker.port, TABLE_LOGIN)
    try:
        assert service.wait_subscribed(), "the relay could not subscribe"
        with urllib.request.urlopen(service.url + "config.json", timeout=30) as response:
            served = response.read().decode()
        assert "password" not in json.loads(served) and "username" not in json.loads(served)
        assert not [login for login, secret in USERS.items() if secret in served]

        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(service.url)
        table.publish(LIVE_STATE, _state("h1", "Ann"))
        page.wait_for_function(
            "() => document.querySelector('.seat .name')?.textContent === 'Ann'",
            timeout=60_000)
        assert page.is_hidden("#offline")

        broker.stop()
        page.wait_for_selector("#offline", state="visible", timeout=60_000)
        assert page.inner_text("#offline") == "offline — reconnecting"
        page.screenshot(path=str(ARTIFACTS / "overlay-offline.png"))

        broker.start()
        page.wait_for_selector("#offline", state="hidden", timeout=60_000)
        # the relay is back too, and the page draws what the table says next
        wait_for(lambda: service.client.is_connected() and table.client.is_connected(),
                 "the relay and the table reconnected")
        table.publish(LIVE_STATE, _state("h2", "Bob"))
        page.wait_for_function(
            "() => document.querySelector('.seat .name')?.textContent === 'Bob'",
            timeout=60_000)
    finally:
        table.stop()
        service.stop()
