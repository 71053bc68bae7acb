"""A byte-timed, half-duplex RS-485 bus on a virtual clock (issue #28, goal 2).

Built from how the parts behave, not from our code:

- **UART, 8N1** (TIA-232/any UART datasheet): one byte is 10 bit times on the line (start,
  8 data, stop), so at 115,200 Bd a byte takes 86.8 µs; a transmitter sends the bytes it
  is given back to back from its FIFO; a receiver hands a byte over when its stop bit
  has arrived.
- **RS-485 transceiver, half duplex** (TIA-485-A; MAX3485 datasheet): a node drives the
  pair only while DE is high; with DE and /RE tied, a node does not hear itself. The
  master's port is in the kernel's RS-485 mode (RTS drives DE while it transmits, its
  receiver is off meanwhile). When two drivers are on at once the receivers see neither
  signal: every byte that overlaps another talker's byte arrives corrupted, and the bus
  counts a collision. A byte written while DE is low never reaches the pair.

Time is virtual (microseconds): it moves only when the master waits for bytes (its port's
``read`` with a timeout, ``flush``), and then every node gets its loop turns and every
byte its delivery time in order. So the test is deterministic however busy the machine.
"""

from __future__ import annotations

import heapq
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))  # the firmware imports itself flat, as on the board
if "micropython" not in sys.modules:  # `const` is a compile-time hint on MicroPython
    sys.modules["micropython"] = types.SimpleNamespace(const=lambda x: x)  # type: ignore[assignment]

import link as fw_link  # noqa: E402  (the real firmware, flat imports as on the board)
import node as fw_node  # noqa: E402
import node_config  # noqa: E402
import zone_scanner  # noqa: E402

__all__ = ["DePin", "MasterPort", "NodePort", "TimedBus", "VirtualClock", "fw_link", "fw_node",
           "node_config", "zone_scanner"]

BITS_PER_BYTE = 10  # 8N1


class VirtualClock:
    """Microseconds; the firmware's clock interface and a ``monotonic()`` for the master."""

    def __init__(self) -> None:
        self.now_us = 0

    def ticks_ms(self) -> int:
        return self.now_us // 1000

    def ticks_us(self) -> int:
        return self.now_us

    def sleep_us(self, us: int) -> None:  # a node busy-waiting: not used on the bus
        raise AssertionError("a node slept on the virtual bus")

    def monotonic(self) -> float:
        return self.now_us / 1e6


@dataclass
class _Byte:
    talker: str
    start: int
    end: int
    value: int
    corrupted: bool = False


@dataclass
class _Talker:
    name: str
    rx: bytearray = field(default_factory=bytearray)
    tx_free_at: int = 0  # when its UART finishes the bytes it has been given
    driving: Callable[[], bool] = lambda: True


class TimedBus:
    """The pair: bytes with start/end times, collisions, deliveries in time order."""

    def __init__(self, baudrate: int = 115_200) -> None:
        self.clock = VirtualClock()
        self.baudrate = baudrate
        self.byte_us = BITS_PER_BYTE * 1_000_000 / baudrate
        self.talkers: dict[str, _Talker] = {}
        self._on_air: list[_Byte] = []  # not yet delivered
        self._events: list[tuple[int, int, str, Any]] = []  # (time, order, kind, payload)
        self._order = 0
        self.collisions = 0  # bytes that overlapped another talker's byte
        self.bytes_sent = 0
        self.undriven = 0  # bytes written with DE low (never on the pair)

    def attach(self, name: str, driving: Callable[[], bool] = lambda: True) -> _Talker:
        talker = _Talker(name, driving=driving)
        self.talkers[name] = talker
        return talker

    def _push(self, at: int, kind: str, payload: Any) -> None:
        self._order += 1
        heapq.heappush(self._events, (at, self._order, kind, payload))

    def transmit(self, name: str, data: bytes) -> int:
        """Queue bytes on `name`'s UART now; returns when the last stop bit leaves."""
        talker = self.talkers[name]
        now = self.clock.now_us
        if not talker.driving():
            self.undriven += len(data)
            return now
        t = max(now, talker.tx_free_at)
        for value in data:
            start, end = t, round(t + self.byte_us)
            byte = _Byte(name, start, end, value)
            for other in self._on_air:
                if other.talker != name and other.start < end and start < other.end:
                    other.corrupted = byte.corrupted = True
                    self.collisions += 1
            self._on_air.append(byte)
            self._push(end, "byte", byte)
            self.bytes_sent += 1
            t = end
        talker.tx_free_at = t
        return t

    def run_loop(self, loop: Callable[[int], int], first_us: int = 0) -> None:
        """Run loop(now) at first_us and then whenever it asks (it returns its next time)."""
        self._push(first_us, "loop", loop)

    def advance_to(self, t: int) -> None:
        """Deliver every byte and run every loop turn due up to t, in time order."""
        while self._events and self._events[0][0] <= t:
            at, _order, kind, payload = heapq.heappop(self._events)
            self.clock.now_us = max(self.clock.now_us, at)
            if kind == "byte":
                self._deliver(payload)
            else:
                nxt = payload(at)
                self._push(max(nxt, at + 1), "loop", payload)
        self.clock.now_us = max(self.clock.now_us, t)

    def next_event_at(self) -> int | None:
        return self._events[0][0] if self._events else None

    def _deliver(self, byte: _Byte) -> None:
        self._on_air.remove(byte)
        value = byte.value ^ 0x5A if byte.corrupted else byte.value
        for talker in self.talkers.values():
            if talker.name != byte.talker:
                talker.rx.append(value)


class MasterPort:
    """The Pi's serial port on the bus, with the pyserial calls Rs485Master makes."""

    def __init__(self, bus: TimedBus, name: str = "virtual-rs485") -> None:
        self.bus = bus
        self.name = name
        self.port = name
        self.timeout: float | None = 0.002
        self._me = bus.attach("master")

    @property
    def in_waiting(self) -> int:
        return len(self._me.rx)

    def write(self, data: bytes) -> int:
        self.bus.transmit("master", bytes(data))
        return len(data)

    def flush(self) -> None:
        self.bus.advance_to(self._me.tx_free_at)

    def read(self, n: int = 1) -> bytes:
        deadline = self.bus.clock.now_us + round((self.timeout or 0) * 1e6)
        while not self._me.rx:
            nxt = self.bus.next_event_at()
            if nxt is None or nxt > deadline:
                self.bus.advance_to(deadline)
                break
            self.bus.advance_to(nxt)
        data = bytes(self._me.rx[:n])
        del self._me.rx[:n]
        return data


class DePin:
    """The node's DE/RE line; a drop while its UART still sends waits for the last stop bit
    (the firmware's flush/txdone wait, which costs no virtual time here)."""

    def __init__(self) -> None:
        self.level = 0

    def value(self, v: int | None = None) -> int | None:
        if v is None:
            return self.level
        self.level = 1 if v else 0
        return None


class NodePort:
    """A node's UART on the bus: read(n)/write(buf)/any() like machine.UART."""

    def __init__(self, bus: TimedBus, name: str, de: DePin) -> None:
        self.bus = bus
        self.name = name
        self.de = de
        self._me = bus.attach(name, driving=lambda: bool(de.level))

    def any(self) -> int:
        return len(self._me.rx)

    def read(self, n: int) -> bytes | None:
        if not self._me.rx:
            return None
        data = bytes(self._me.rx[:n])
        del self._me.rx[:n]
        return data

    def write(self, buf: Any) -> int:
        data = bytes(buf)
        self.bus.transmit(self.name, data)
        return len(data)

    @property
    def tx_done_at(self) -> int:
        return self._me.tx_free_at
