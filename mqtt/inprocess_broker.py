"""An MQTT 3.1.1 broker inside this process (amqtt), for the demo and for tests without mosquitto.

``pokertable demo`` must run on a laptop with no broker installed; amqtt in its own
thread and event loop is enough for one table and a viewer. It binds 127.0.0.1 only and
allows anonymous clients, so it is never a production broker (use mosquitto with the
shipped ACL for that).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from pokertable.mqtt.mosquitto import free_port


class AmqttBroker:
    """amqtt in its own thread and event loop; restartable on the same port."""

    kind = "amqtt"

    def __init__(self, port: int | None = None, ws_port: int | None = None) -> None:
        self.port = port or free_port()
        self.ws_port = ws_port
        """MQTT over WebSockets as well (the demo's overlay and floor pages), when set."""
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._broker: Any = None

    def start(self) -> None:
        from amqtt.broker import Broker

        ready = threading.Event()
        failure: list[BaseException] = []
        loop = asyncio.new_event_loop()

        def main() -> None:
            asyncio.set_event_loop(loop)
            listeners: dict[str, Any] = {
                "default": {"type": "tcp", "bind": f"127.0.0.1:{self.port}"}}
            if self.ws_port is not None:
                listeners["websockets"] = {"type": "ws", "bind": f"127.0.0.1:{self.ws_port}"}
            config = {
                "listeners": listeners,
                "plugins": {
                    "amqtt.plugins.authentication.AnonymousAuthPlugin": {"allow_anonymous": True}
                },
            }
            try:
                self._broker = Broker(config, loop=loop)
                loop.run_until_complete(self._broker.start())
            except BaseException as exc:  # reported to the caller below
                failure.append(exc)
                ready.set()
                return
            ready.set()
            loop.run_forever()

        self._loop = loop
        self._thread = threading.Thread(target=main, name="amqtt", daemon=True)
        self._thread.start()
        if not ready.wait(10) or failure:
            raise RuntimeError(f"amqtt did not start on port {self.port}: {failure[:1]}")

    def stop(self) -> None:
        if self._loop is None or self._thread is None:
            return
        future = asyncio.run_coroutine_threadsafe(self._broker.shutdown(), self._loop)
        future.result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)
        self._loop.close()
        self._loop = self._thread = None
