"""A login publishing on another role's topic is denied by the broker and logged (issue #27,
"Bad input"): with ``log_type debug`` in the shipped config, as docs/mqtt.md says to turn on
to investigate, mosquitto names the client and the topic of each publish its ACL refused,
and of none it allowed. Against a real mosquitto with the shipped config and ACL."""

from __future__ import annotations

import uuid
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from mqtt_samples import PASSWORDS
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.bench.waiting import wait_for
from pokertable.mqtt.mosquitto import MosquittoProcess

V = "pokertable/v1/casino"
# (login, topic outside its role), and one inside it that must not be logged as denied
DENIED = [
    ("clock", f"{V}/t07/cmd/director"),  # the clock signing as the director
    ("floor", f"{V}/clock"),  # the floor setting a level
    ("overlay", f"{V}/t07/secure/hole_cards/1"),  # a public login forging hole cards
    ("broadcaster", f"{V}/t07/state"),  # the relay writing a table's live state
    ("archive", f"{V}/t07/cmd/rebirth"),  # the archive only reads
]
ALLOWED = ("director", f"{V}/t07/cmd/director")
LOGINS = PASSWORDS | {"archive": "archive-pw"}


@pytest.mark.needs("mosquitto")
def test_a_publish_outside_a_role_is_denied_and_logged_with_its_client_and_topic(
    tmp_path: Path,
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=LOGINS)
    with broker.config_path.open("a") as config:
        config.write("\nlog_type debug\n")
    broker.start()
    clients = []
    try:
        sent: dict[str, str] = {}  # client id -> topic
        for login, topic in [*DENIED, ALLOWED]:
            client_id = f"{login}-{uuid.uuid4().hex[:8]}"
            client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
            client.username_pw_set(login, LOGINS[login])
            client.connect("127.0.0.1", broker.port)
            client.loop_start()
            clients.append(client)
            # acknowledged: the broker has routed or refused it (and logged it)
            client.publish(topic, b'{"probe": true}', qos=1).wait_for_publish(30)
            sent[client_id] = topic

        def denied() -> dict[str, str]:
            found = {}
            for line in broker.log_path.read_text().splitlines():
                if "Denied PUBLISH from " in line:
                    client_id = line.split("Denied PUBLISH from ", 1)[1].split(" ", 1)[0]
                    found[client_id] = line.split("'")[1]
            return found

        expected = {
            cid: topic for cid, topic in sent.items() if not cid.startswith(f"{ALLOWED[0]}-")
        }
        wait_for(lambda: denied() == expected, "each refused publish in the broker's log")
    finally:
        for client in clients:
            client.disconnect()
            client.loop_stop()
        broker.stop()
