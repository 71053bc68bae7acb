"""The table's bus as one object: every port, its supervisor, the heartbeat watch, one event queue.

This is what the application wires in. Ports come from config; the clock is chosen by
the caller (the composition root passes :class:`~hardware.clock.MonotonicClock`)::

    bus = TableBus(registry, MonotonicClock(), BusConfig(ports=("/dev/ttyUSB0", "/dev/ttyUSB1")))
    bus.start()
    event = bus.events.get()            # ChipsSettled, CardSeen, NodeDown, Alert, ...
    bus.show_led(3, "blink")           # every node; sent again to a node that lost it
    bus.stop()

With ``rs485_addresses`` set, each port is a multi-drop bus polled for those addresses.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

from pokertable.firmware import wire
from pokertable.hardware.clock import Clock
from pokertable.hardware.events import HardwareEvent
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.rs485 import Rs485Supervisor
from pokertable.hardware.transport import BusSession, HeartbeatWatch, PortSupervisor


@dataclass(frozen=True, slots=True, kw_only=True)
class BusConfig:
    ports: tuple[str, ...]
    baudrate: int = 115_200
    rs485_addresses: tuple[int, ...] = ()  # empty: point to point, one node per port
    response_window_s: float = 0.05
    heartbeat_timeout_ms: int = 1_600
    backoff_max_s: float = 2.0
    announce_first_view: bool = False  # the controller sets it: see BusInterpreter


class TableBus:
    """Owns the supervisors of every port and the heartbeat watch; events go to ``events``."""

    def __init__(self, registry: TagRegistry, clock: Clock, config: BusConfig) -> None:
        if not config.ports:
            raise ValueError("ports: at least one serial port is needed")
        self.config = config
        self.events: queue.Queue[HardwareEvent] = queue.Queue()
        self.session = BusSession(
            BusInterpreter(registry, heartbeat_timeout_ms=config.heartbeat_timeout_ms,
                           announce_first_view=config.announce_first_view),
            clock, self.events.put,
        )
        self.supervisors: dict[str, PortSupervisor | Rs485Supervisor] = {}
        for url in config.ports:
            if config.rs485_addresses:
                self.supervisors[url] = Rs485Supervisor(
                    url, config.rs485_addresses, self.session, baudrate=config.baudrate,
                    response_window_s=config.response_window_s,
                    backoff_max_s=config.backoff_max_s)
            else:
                self.supervisors[url] = PortSupervisor(
                    url, self.session, baudrate=config.baudrate,
                    backoff_max_s=config.backoff_max_s)
        self.watch = HeartbeatWatch(self.session)
        # Seat LEDs as the table wants them: a node that rebooted or dropped our frames
        # gets them again, so the LED the dealer looks at is never stale.
        self.leds: dict[int, bytes] = {}
        self._leds_lock = threading.Lock()  # the engine sets them, reader threads resend
        self.session.command_sender = self.send
        self.session.state_refresher = self._resend_leds

    def start(self) -> None:
        for supervisor in self.supervisors.values():
            supervisor.start()
        self.watch.start()

    def stop(self) -> None:
        self.watch.stop()
        for supervisor in self.supervisors.values():
            supervisor.stop()

    def threads(self) -> list[threading.Thread]:
        """The bus's worker threads (one per port, the heartbeat watch), once started: the
        table feeds the systemd watchdog only while every one of them runs."""
        found = [s.thread for s in self.supervisors.values()] + [self.watch.thread]
        return [t for t in found if t is not None and t.ident is not None]

    def zone_view(self, zone: str) -> frozenset[str]:
        """The UIDs the readers last reported in ``zone``."""
        return self.session.interpreter.zone_view(zone)

    def show_led(self, seat: int, mode: str) -> None:
        """Show ``mode`` (a ``wire.LED_MODE_NAMES`` name) on ``seat``'s LED on every node."""
        payload = wire.pack_led(seat, mode)
        with self._leds_lock:
            if mode == "off":
                self.leds.pop(seat, None)
            else:
                self.leds[seat] = payload
        for node in sorted(self.session.node_ports):
            self.send(node, wire.MSG_CMD_LED, payload)

    def _resend_leds(self, node: int) -> None:
        with self._leds_lock:
            lit = sorted(self.leds.items())
        self.send(node, wire.MSG_CMD_LED, wire.pack_led(0, "off"))  # seat 0 = all seats
        for _seat, payload in lit:
            self.send(node, wire.MSG_CMD_LED, payload)

    def send(self, node: int, msg_type: int, payload: bytes = b"") -> bool:
        """Send a command to a node on the port it was last heard on; False if unknown/down."""
        url = self.session.node_ports.get(node)
        supervisor = self.supervisors.get(url) if url is not None else None
        return supervisor.send(node, msg_type, payload) if supervisor is not None else False
