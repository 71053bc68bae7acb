"""Node side of the serial link: framing, sequence numbers, and the two transports.

`SerialLink` is point to point (UART or USB-CDC): frames go out as soon as they are
sent. `Rs485Link` shares a multi-drop bus with other nodes: it only queues, and
transmits when the Pi polls this node (MSG_POLL), driving the transceiver's DE/RE
line high for exactly that burst. Snapshots are full zone states, so a newer snapshot
of a zone replaces a queued older one instead of growing the queue::

    link = Rs485Link(uart, node_id=3, de=Pin(2, Pin.OUT))
    link.send(MSG_SNAPSHOT, payload, key="seat1.bet")
    for node, msg_type, seq, payload in link.receive(): ...
"""

from micropython import const

import wire

try:
    from typing import Any
except ImportError:
    pass

_RX_CHUNK = const(64)
_MAX_QUEUE = const(32)
_KEY_BIRTH = "\x00birth"
_KEY_HEARTBEAT = "\x00heartbeat"


class SerialLink:
    """Point-to-point link; the port needs read(n) -> bytes|None, write(buf), any()."""

    def __init__(self, port: Any, node_id: int) -> None:
        self._port = port
        self.node_id = node_id
        self._tx = bytearray(wire.MAX_FRAME)
        self._txv = memoryview(self._tx)
        self.decoder = wire.FrameDecoder()
        self.seq = 0
        self.frames_sent = 0
        self.foreign_frames = 0  # valid frames for another node (normal on RS-485)

    @property
    def crc_errors(self) -> int:
        return int(self.decoder.crc_errors)

    def restart(self) -> None:
        """Node reset: the sequence number starts again at 0."""
        self.seq = 0
        self.decoder.reset()

    def _transmit(self, msg_type: int, payload: bytes) -> int:
        seq = self.seq
        self.seq = (seq + 1) & 0xFFFF
        n = wire.encode_into(self._tx, self.node_id, msg_type, seq, payload)
        self._write(self._txv[:n])
        self.frames_sent += 1
        return seq

    def _write(self, data: memoryview) -> None:
        self._port.write(data)

    def send(self, msg_type: int, payload: bytes, key: str | None = None) -> int:
        """Send now; returns the sequence number used (-1 if only queued)."""
        return self._transmit(msg_type, payload)

    def send_group(self, msg_type: int, payloads: list[bytes], key: str | None = None) -> None:
        """Frames that belong together (the parts of one zone snapshot): sent back to back."""
        for payload in payloads:
            self._transmit(msg_type, payload)

    def receive(self) -> list[tuple[int, int, int, bytes]]:
        """Frames addressed to this node or broadcast; answers POLL itself."""
        out = []
        while True:
            data = self._port.read(_RX_CHUNK)
            if not data:
                break
            for frame in self.decoder.feed(data):
                node, msg_type, seq, _payload = frame
                if node not in (self.node_id, wire.BROADCAST):
                    self.foreign_frames += 1
                    continue
                if msg_type == wire.MSG_POLL:
                    if node == self.node_id:
                        self.on_poll(seq)
                    continue
                out.append(frame)
        return out

    def on_poll(self, seq: int) -> None:
        """Point to point has nothing queued: a POLL is just acknowledged."""
        self._transmit(wire.MSG_ACK, wire.pack_ack(seq))

    def pending(self) -> int:
        return 0

    def resync(self) -> None:
        """A lone 0x00 ends whatever noise the receiver has buffered (boot glitches)."""
        self._port.write(b"\x00")


class Rs485Link(SerialLink):
    """Multi-drop: queue until polled; DE/RE high only while this node transmits."""

    def __init__(
        self, port: Any, node_id: int, de: Any, max_burst: int = 8, burst_bytes: int = 384
    ) -> None:
        super().__init__(port, node_id)
        self._de = de
        self._de.value(0)  # receive by default: never hold the bus
        self.max_burst = max_burst
        # The master's response window is short (tens of ms): at 115200 baud 384 bytes
        # take ~33 ms. The first frame always goes, however long it is.
        self.burst_bytes = burst_bytes
        self._queue: list[tuple[str | None, int, bytes]] = []
        self.dropped = 0
        self.polls = 0

    def restart(self) -> None:
        super().restart()
        del self._queue[:]

    def resync(self) -> None:
        """On a shared bus a node never speaks unpolled; each burst starts with 0x00."""

    def send(self, msg_type: int, payload: bytes, key: str | None = None) -> int:
        if msg_type == wire.MSG_BIRTH:
            key = _KEY_BIRTH
        elif msg_type == wire.MSG_HEARTBEAT:
            key = _KEY_HEARTBEAT
        if key is not None:
            for i, (k, _t, _p) in enumerate(self._queue):
                if k == key:
                    self._queue[i] = (key, msg_type, payload)  # newer full state wins
                    return -1
        if len(self._queue) >= _MAX_QUEUE:
            self._queue.pop(0)
            self.dropped += 1
        self._queue.append((key, msg_type, payload))
        return -1

    def pending(self) -> int:
        return len(self._queue)

    def send_group(self, msg_type: int, payloads: list[bytes], key: str | None = None) -> None:
        """Queue frames that go out together in one burst (the parts of one snapshot).

        One queue entry: a newer state of the zone replaces all its parts at once, so the
        Pi never gets parts of two generations, and a refresh never starves a part.
        """
        self.send(msg_type, payloads, key)  # type: ignore[arg-type]

    def on_poll(self, seq: int) -> None:
        """Answer a poll with queued frames (bounded burst), or an ACK if none.

        ACKs go last in a burst: the master may close its window on the first ACK.
        """
        self.polls += 1
        burst = self._take_burst()
        self._de.value(1)
        try:
            self._port.write(b"\x00")  # ends any turnaround glitch at the receiver
            if not burst:
                self._transmit(wire.MSG_ACK, wire.pack_ack(seq))
            for msg_type, payload in burst:
                self._transmit(msg_type, payload)
            self._drain()
        finally:
            self._de.value(0)

    def _take_burst(self) -> list[tuple[int, bytes]]:
        frames: list[tuple[int, bytes]] = []
        acks: list[tuple[int, bytes]] = []
        budget = self.burst_bytes
        while self._queue and len(frames) + len(acks) < self.max_burst:
            entry = self._queue[0][2]
            group = entry if isinstance(entry, list) else [entry]
            size = 0
            for payload in group:
                size += wire.encoded_size(len(payload))
            if (frames or acks) and size > budget:
                break
            _key, msg_type, _entry = self._queue.pop(0)
            budget -= size
            for payload in group:
                (acks if msg_type == wire.MSG_ACK else frames).append((msg_type, payload))
        return frames + acks

    def _drain(self) -> None:
        """Wait until the last stop bit left the UART before releasing the bus."""
        port = self._port
        if hasattr(port, "flush"):
            port.flush()
        if hasattr(port, "txdone"):
            while not port.txdone():
                pass
