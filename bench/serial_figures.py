"""Serial bus figures: frames/s through the Pi's transport, and pty-to-event latency.

Both figures run the real path (a pseudo-terminal opened with ``serial_for_url``,
pyserial's ``ReaderThread``, our :class:`~hardware.transport.NodeLink`, the frame
decoder, the interpreter and the tag registry) next to a naive peer on the same kind
of pty in the same run: pyserial's own ``threaded.Packetizer``, which only splits the
stream on 0x00 and decodes nothing. The peer is the ceiling the OS and pyserial set; the
gap to it is what COBS, CRC, dedupe and registry lookups cost us.

    >>> figures = measure(frames=3000, latency_samples=1000)   # doctest: +SKIP
    >>> figures["frames_per_s"]["ours"]                          # doctest: +SKIP
"""

from __future__ import annotations

import os
import threading
import time
import tty
from collections.abc import Callable
from typing import Any

import serial.threaded

from pokertable.bench.measure import MIN_REPEATS, Figure, percentile
from pokertable.firmware import wire
from pokertable.hardware.clock import MonotonicClock
from pokertable.hardware.events import ChipsSettled, HardwareEvent
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.transport import BusSession, NodeLink, open_port

PEER_NAME = "pyserial threaded.Packetizer (splits on 0x00, no COBS/CRC/registry)"
_CHIP_A = bytes.fromhex("e004090000000001")
_CHIP_B = bytes.fromhex("e004090000000002")


def _frames(count: int, start_seq: int = 1) -> list[bytes]:
    """Settled snapshots that alternate one chip in and out: each one is one ChipsSettled."""
    with_b = wire.pack_snapshot("seat1.bet", True, [_CHIP_A, _CHIP_B])
    without_b = wire.pack_snapshot("seat1.bet", True, [_CHIP_A])
    return [
        wire.encode_frame(
            1, wire.MSG_SNAPSHOT, (start_seq + i) & 0xFFFF, with_b if i % 2 == 0 else without_b
        )
        for i in range(count)
    ]


class _Pty:
    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(self.master, view) :]

    def close(self) -> None:
        os.close(self.master)
        os.close(self.slave)


class _Counter:
    """Counts arrivals and stamps the time of the latest one (perf_counter_ns)."""

    def __init__(self) -> None:
        self.count = 0
        self.last_ns = 0
        self._cond = threading.Condition()

    def hit(self) -> None:
        now = time.perf_counter_ns()
        with self._cond:
            self.count += 1
            self.last_ns = now
            self._cond.notify_all()

    def wait(self, count: int, timeout: float = 30.0) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: self.count >= count, timeout)


def _ours(pty: _Pty) -> tuple[_Counter, Callable[[], None]]:
    registry = TagRegistry(":memory:")
    registry.add_chip(_CHIP_A, denomination=100)
    registry.add_chip(_CHIP_B, denomination=500)
    counter = _Counter()

    def sink(event: HardwareEvent) -> None:
        if isinstance(event, ChipsSettled):
            counter.hit()

    session = BusSession(BusInterpreter(registry), MonotonicClock(), sink)
    session.deliver([(1, wire.MSG_BIRTH, 0, wire.pack_birth(1, "bench", "none", ["seat1.bet"]))])
    reader = serial.threaded.ReaderThread(open_port(pty.path), lambda: NodeLink(session, "bench"))
    reader.start()
    reader.connect()

    def close() -> None:
        reader.close()
        registry.close()

    return counter, close


def _peer(pty: _Pty) -> tuple[_Counter, Callable[[], None]]:
    counter = _Counter()

    class Split(serial.threaded.Packetizer):  # type: ignore[misc]
        def handle_packet(self, packet: bytes) -> None:
            counter.hit()

    reader = serial.threaded.ReaderThread(open_port(pty.path), Split)
    reader.start()
    reader.connect()
    return counter, reader.close


def _throughput(
    start: Callable[[_Pty], tuple[_Counter, Callable[[], None]]], frames: list[bytes]
) -> float:
    pty = _Pty()
    counter, close = start(pty)
    try:
        blob = b"".join(frames)
        t0 = time.perf_counter_ns()
        pty.write(blob)
        if not counter.wait(len(frames)):
            raise RuntimeError(f"only {counter.count} of {len(frames)} frames arrived")
        return len(frames) / ((counter.last_ns - t0) / 1e9)
    finally:
        close()
        pty.close()


def _latencies(
    start: Callable[[_Pty], tuple[_Counter, Callable[[], None]]], frames: list[bytes]
) -> list[float]:
    """Milliseconds from writing a frame's last byte (its 0x00 delimiter) to its event."""
    pty = _Pty()
    counter, close = start(pty)
    out: list[float] = []
    try:
        for i, frame in enumerate(frames, start=1):
            pty.write(frame[:-1])
            written = time.perf_counter_ns()
            pty.write(frame[-1:])
            if not counter.wait(i, timeout=5.0):
                raise RuntimeError(f"frame {i} produced no event")
            out.append((counter.last_ns - written) / 1e6)
        return out
    finally:
        close()
        pty.close()


def measure(
    frames: int = 5000, latency_samples: int = 2000, repeats: int = 3
) -> dict[str, dict[str, Any]]:
    """Both figures for us and the peer, alternating round by round on the same frames."""
    burst = _frames(frames)
    singles = _frames(latency_samples)
    fps = Figure("frames_per_s", "frames/s", PEER_NAME, higher_is_better=True)
    p50 = Figure("pty_to_event_p50_ms", "ms", PEER_NAME, higher_is_better=False)
    p99 = Figure("pty_to_event_p99_ms", "ms", PEER_NAME, higher_is_better=False, target="<= 1 ms")
    for _ in range(max(repeats, MIN_REPEATS)):
        fps.add(_throughput(_ours, burst), _throughput(_peer, burst))
        ours_lat = _latencies(_ours, singles)
        peer_lat = _latencies(_peer, singles)
        p50.add(percentile(ours_lat, 50), percentile(peer_lat, 50))
        p99.add(percentile(ours_lat, 99), percentile(peer_lat, 99))
    return {f.name: f.to_json() for f in (fps, p50, p99)}


def figures(frames: int = 3000, latency_samples: int = 1000) -> dict[str, dict[str, Any]]:
    return measure(frames=frames, latency_samples=latency_samples)


if __name__ == "__main__":
    import json

    print(json.dumps(measure(), indent=2))
