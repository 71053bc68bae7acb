"""The Pi's frame decoder: ``wire.FrameDecoder``'s contract, without its per-byte loops.

``firmware/wire.py`` is the node's code too, so it stays plain MicroPython: it walks a
chunk byte by byte to find the delimiters and again to undo COBS. On the Pi that walk was
a visible step of a chip's path to the room (docs/benchmarks.md, e2e). Here the chunk is
split on 0x00 and COBS is undone with bytes operations: a frame without a 0xFF byte (the
usual one) by zeroing its code bytes in one copy, any other a block at a time, with
slices. What comes out (frames, the counters of dropped frames, what a partial frame
carries to the next chunk) is exactly ``wire.FrameDecoder``'s, which
tests/hardware/test_host_frames.py and test_front_path.py check on random, corrupted and
cut-up byte streams.
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
        # 0, not b"\0": given bytes, ``in`` tries them as an int first (and makes, then
        # drops, a TypeError) before it searches.
        end = chunk.find(0)
        if end == len(chunk) - 1 and end > 0 and not self._pending and not self._overflow:
            # The usual chunk: one whole frame, with nothing before it.
            if end > _CAP:
                self.oversize_errors += 1
                return []
            frame = self._decode_part(chunk[:end])
            return [] if frame is None else [frame]
        out: list[tuple[int, int, int, bytes]] = []
        if end < 0:
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
        if tail:  # a chunk that ends on a delimiter (most do) carries nothing over
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
        if 0xFF in raw:
            body = self._unstuff_blocks(raw)
            if body is None:
                return None
            at = 0
        else:
            # No full block (code 0xFF), so every code byte after the first stands for a
            # 0x00 in the frame: zero them in a copy and read the frame from offset 1.
            zeroed = bytearray(raw)
            i = raw[0]
            while i < n:
                zeroed[i] = 0
                i += raw[i]
            if i > n:  # a block runs past the delimiter
                self.framing_errors += 1
                return None
            body = bytes(zeroed)
            at = 1
        if len(body) - at < _SHORTEST:
            self.framing_errors += 1
            return None
        version, node, msg_type, seq, length = _HEADER.unpack_from(body, at)
        if version != wire.PROTOCOL_VERSION:
            self.version_errors += 1
            return None
        if length > wire.MAX_PAYLOAD:
            self.oversize_errors += 1
            return None
        end = at + wire.HEADER_LEN + length
        if len(body) != end + wire.CRC_LEN:
            self.length_errors += 1  # a byte inserted, dropped or cut off
            return None
        if crc32(body[at:end]) != _CRC.unpack_from(body, end)[0]:
            self.crc_errors += 1
            return None
        self.frames += 1
        return (node, msg_type, seq, body[at + wire.HEADER_LEN : end])

    def _unstuff_blocks(self, raw: bytes) -> bytes | None:
        """COBS undone a block at a time (a frame with a 0xFF byte, which may be a code)."""
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
        return b"".join(blocks)
