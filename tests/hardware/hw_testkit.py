"""Test helpers for real pseudo-terminals and threaded event sinks (imported by the fixtures)."""

from __future__ import annotations

import os
import select
import threading
import time
import tty
from collections.abc import Callable

from pokertable.firmware import wire
from pokertable.hardware.events import HardwareEvent

CHIP = bytes.fromhex("e004050000000001")


class Pty:
    """A real pseudo-terminal: the test holds the master end, the code under test opens ``path``.

    The slave is put in raw mode at once (pyserial does it again on open) so bytes written
    before the port is opened are not cooked or echoed.
    """

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self._closed = False

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self.master, view)
            view = view[n:]

    def read_available(self, timeout: float = 0.5) -> bytes:
        out = bytearray()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if ready:
                out += os.read(self.master, 4096)
            elif out:
                break
        return bytes(out)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            os.close(self.master)
            os.close(self.slave)


class EventLog:
    """A thread-safe event sink the test can wait on."""

    def __init__(self) -> None:
        self.events: list[HardwareEvent] = []
        self._cond = threading.Condition()

    def __call__(self, event: HardwareEvent) -> None:
        with self._cond:
            self.events.append(event)
            self._cond.notify_all()

    def of(self, kind: type) -> list[HardwareEvent]:
        with self._cond:
            return [e for e in self.events if isinstance(e, kind)]

    def wait_for(
        self, predicate: Callable[[list[HardwareEvent]], bool], timeout: float = 5.0
    ) -> bool:
        deadline = time.monotonic() + timeout
        with self._cond:
            while not predicate(self.events):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True


class PolledNodes(threading.Thread):
    """The far end of the bus: nodes 1 and 2 answer polls addressed to them, nothing else."""

    def __init__(self, pty: Pty) -> None:
        super().__init__(daemon=True)
        self.pty = pty
        self.polls_seen: list[int] = []
        self.seq = {1: 0, 2: 0}
        self.queued = {
            1: [(wire.MSG_BIRTH, wire.pack_birth(1, "1.0", "sim", ["seat2.bet"])),
                (wire.MSG_SNAPSHOT, wire.pack_snapshot("seat2.bet", True, [CHIP]))],
            2: [(wire.MSG_BIRTH, wire.pack_birth(2, "1.0", "sim", ["board"]))],
        }
        self.mute = {2: False}
        self.stop = threading.Event()

    def frame(self, node: int, msg_type: int, payload: bytes) -> bytes:
        seq = self.seq[node]
        self.seq[node] = (seq + 1) & 0xFFFF
        return wire.encode_frame(node, msg_type, seq, payload)

    def run(self) -> None:
        decoder = wire.FrameDecoder()
        while not self.stop.is_set():
            try:
                ready, _, _ = select.select([self.pty.master], [], [], 0.05)
                if not ready:
                    continue
                data = os.read(self.pty.master, 4096)
            except (OSError, ValueError):
                return  # the pty was closed: the bus was unplugged
            for node, msg_type, poll_seq, _ in decoder.feed(data):
                if msg_type != wire.MSG_POLL:
                    continue
                self.polls_seen.append(node)
                if node not in self.seq or self.mute.get(node):
                    continue  # no such node on the bus (or it died): silence
                out = b"".join(self.frame(node, t, p) for t, p in self.queued[node])
                self.queued[node] = []
                out += self.frame(node, wire.MSG_ACK, wire.pack_ack(poll_seq))
                self.pty.write(out)
