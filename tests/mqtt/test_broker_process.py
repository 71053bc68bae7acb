"""The suite's own mosquitto is ready only when mosquitto itself listens on every port.

CI once failed with "connection refused" from a broker that `start()` had called ready:
a port that answers need not be mosquitto's (another listener, or a probe that connected
to itself), and mosquitto then exits on the bind it could not make.
"""

from __future__ import annotations

import socket
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from pokertable.mqtt.mosquitto import BrokerError, MosquittoProcess

pytestmark = pytest.mark.needs("mosquitto")


def test_a_websocket_port_held_by_someone_else_is_a_failed_start_not_a_ready_broker(
    tmp_path: Path,
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path)
    assert broker.ws_port is not None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as squatter:
        squatter.bind(("127.0.0.1", broker.ws_port))
        squatter.listen()  # answers every connect, as a ready broker's port would
        with pytest.raises(BrokerError, match=r"exited|did not listen"):
            broker.start(timeout=10.0)
    assert not broker.running


def test_a_started_broker_takes_a_client_on_its_port_at_once(tmp_path: Path) -> None:
    with MosquittoProcess.from_shipped(tmp_path) as broker:
        assert broker.port != broker.ws_port
        client = mqtt.Client(CallbackAPIVersion.VERSION2)
        assert client.connect("127.0.0.1", broker.port) == mqtt.MQTT_ERR_SUCCESS
        client.disconnect()
