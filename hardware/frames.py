"""The Pi's frame decoder: ``wire.FrameDecoder``'s contract, without its per-byte loops.

``firmware/wire.py`` is the node's code too, so it stays plain MicroPython: it walks a
chunk byte by byte to find the delimiters and again to undo COBS. On the Pi that walk was
a visible step of a chip's path to the room (docs/benchmarks.md, e2e). Here the chunk is
split on 0x00 and COBS is undone a block at a time, with slices; what comes out (frames,
the counters of dropped frames, what a partial frame carries to the next chunk) is exactly
``wire.FrameDecoder``'s, which tests/hardware/test_host_frames.py checks on random,
corrupted and cut-up byte streams.
"""

from __future__ import annotations

import struct
from zlib import crc32

from pokertable.firmware import wire

_HEADER = struct.Struct(wire._HEADER_FMT)
_CRC = struct.Struct(">I")
_SHORTEST = wire.HEADER_LEN + wire.CRC_LEN
_CAP = wire.MAX_ENCODED  # the firmware decoder's buffer: a longer run of bytes is oversize


class HostFrameDecoder(wire.FrameDecoder):
    """Stream decoder: feed it any chunks; it returns every complete valid frame, as
    ``wire.FrameDecoder.feed`` does, and counts the bad ones in the same counters (its
    ``errors`` and counters are the firmware class's own)."""

    def __init__(self) -> None:
        super().__init__()
        self._pending = b""  # the bytes of a frame whose delimiter has not come yet

    def reset(self) -> None:
        """Drop a partial frame (e.g. after the port was reopened)."""
        super().reset()
        self._pending = b""

    def feed(self, data: bytes | bytearray | memoryview) -> list[tuple[int, int, int, bytes]]:
        chunk = bytes(data)
        out: list[tuple[int, int, int, bytes]] = []
        if b"\0" not in chunk:
            self._carry(chunk)
            return out
        parts = chunk.split(b"\0")
        tail = parts.pop()  # after the last delimiter: the next frame's start
        first = parts[0]
        if self._overflow or len(self._pending) + len(first) > _CAP:
            self.oversize_errors += 1
            parts[0] = b""
        else:
            parts[0] = self._pending + first
        self._pending = b""
        self._overflow = False
        for part in parts:
            if not part:
                continue  # back-to-back delimiters: nothing between them
            if len(part) > _CAP:
                self.oversize_errors += 1
                continue
            frame = self._decode_part(part)
            if frame is not None:
                out.append(frame)
        self._carry(tail)
        return out

    def _carry(self, more: bytes) -> None:
        """Keep what has come of the next frame (only whether it overflowed, once it has)."""
        if self._overflow or not more:
            return
        if len(self._pending) + len(more) > _CAP:
            self._overflow = True
            self._pending = b""
        else:
            self._pending += more

    def _decode_part(self, raw: bytes) -> tuple[int, int, int, bytes] | None:
        """One frame between delimiters (non-empty, no 0x00): COBS undone, then checked."""
        n = len(raw)
        blocks: list[bytes] = []
        i = 0
        while i < n:
            code = raw[i]
            end = i + code
            if end > n:
                self.framing_errors += 1
                return None
            blocks.append(raw[i + 1 : end])
            i = end
            if code != 0xFF and i < n:
                blocks.append(b"\0")
        body = b"".join(blocks)
        size = len(body)
        if size < _SHORTEST:
            self.framing_errors += 1
            return None
        version, node, msg_type, seq, length = _HEADER.unpack_from(body)
        if version != wire.PROTOCOL_VERSION:
            self.version_errors += 1
            return None
        if length > wire.MAX_PAYLOAD:
            self.oversize_errors += 1
            return None
        end = wire.HEADER_LEN + length
        if size != end + wire.CRC_LEN:
            self.length_errors += 1  # a byte inserted, dropped or cut off
            return None
        if crc32(memoryview(body)[:end]) != _CRC.unpack_from(body, end)[0]:
            self.crc_errors += 1
            return None
        self.frames += 1
        return (node, msg_type, seq, body[wire.HEADER_LEN : end])
