"""Wire codec shared by the reader nodes (MicroPython) and the Pi (CPython).

One source file, run unchanged on both interpreters, so the two ends of the bus can
never disagree about the byte layout. A frame on the wire is::

    COBS(header + payload + CRC32) 0x00
    header = version:u8  node:u8  msg_type:u8  seq:u16be  length:u16be
    CRC-32 (ISO-HDLC, as zlib/binascii.crc32) over header + payload, big-endian

The length field is covered by the CRC and must equal the decoded payload size, so a
byte inserted, deleted or cut off is rejected even where COBS alone would accept it.

Intended use::

    frame = encode_frame(3, MSG_SNAPSHOT, seq, pack_snapshot("seat1.bet", True, uids))
    dec = FrameDecoder()
    for node, msg_type, seq, payload in dec.feed(chunk_from_serial):
        zone, settled, uids = unpack_snapshot(payload)

The firmware uses `encode_into` with a preallocated buffer (see `MAX_FRAME`) so that
sending a frame allocates nothing. Only bytearray, memoryview, struct and array are
used: those behave the same on MicroPython and CPython.
"""

import struct
from array import array

try:
    from micropython import const  # type: ignore[import-not-found,unused-ignore]
except ImportError:  # CPython: `const` is only a compile-time hint on MicroPython

    def const(x: int) -> int:  # type: ignore[misc,unused-ignore]
        return x


try:  # C speed where the port has it (CPython, the unix port, most boards)
    from binascii import crc32 as _c_crc32
except ImportError:  # pragma: no cover - a board built without it uses the table
    _c_crc32 = None  # type: ignore[assignment,unused-ignore]


PROTOCOL_VERSION = const(2)  # 1 had no length field and a CRC-16 (see docs/wire-protocol.md)
BROADCAST = const(0)  # node address 0 = the Pi (as sender) or every node (as target)

# Node -> Pi
MSG_BIRTH = const(0x01)
MSG_SNAPSHOT = const(0x02)
MSG_HEARTBEAT = const(0x03)
MSG_ACK = const(0x04)
# Pi -> node
MSG_CMD_LED = const(0x10)
MSG_CMD_CONFIGURE = const(0x11)
MSG_CMD_REBIRTH = const(0x12)
MSG_CMD_PING = const(0x13)
MSG_POLL = const(0x14)
MSG_CMD_SNAPSHOT = const(0x15)  # send again the current snapshot of one zone or of all

MSG_NAMES = {
    MSG_BIRTH: "BIRTH",
    MSG_SNAPSHOT: "SNAPSHOT",
    MSG_HEARTBEAT: "HEARTBEAT",
    MSG_ACK: "ACK",
    MSG_CMD_LED: "CMD_LED",
    MSG_CMD_CONFIGURE: "CMD_CONFIGURE",
    MSG_CMD_REBIRTH: "CMD_REBIRTH",
    MSG_CMD_PING: "CMD_PING",
    MSG_POLL: "POLL",
    MSG_CMD_SNAPSHOT: "CMD_SNAPSHOT",
}

HEADER_LEN = const(7)
CRC_LEN = const(4)
MAX_PAYLOAD = const(1024)
MAX_RAW = const(1035)  # HEADER_LEN + MAX_PAYLOAD + CRC_LEN
# COBS adds one code byte per started 254-byte block (+1), then the 0x00 delimiter.
MAX_ENCODED = const(1040)  # MAX_RAW + 1 + MAX_RAW // 254
MAX_FRAME = const(1041)  # MAX_ENCODED + delimiter: size a buffer for encode_into with this

# LED modes for MSG_CMD_LED (a mode may also be given by name to pack_led).
LED_OFF = const(0)
LED_ON = const(1)
LED_BLINK = const(2)
LED_PULSE = const(3)
LED_MODE_NAMES = ("off", "on", "blink", "pulse")

# A snapshot part carries at most this many UIDs: 32 eight-byte UIDs make a ~320-byte
# frame, 28 ms at 115,200 Bd, inside the RS-485 master's 50 ms response window.
SNAPSHOT_PART_UIDS = const(32)

# Tag UIDs we carry: ISO 14443A single/double/triple size and ISO 15693.
UID_LENGTHS = (4, 7, 8, 10)

_HEADER_FMT = ">BBBHH"
_HEARTBEAT_FMT = ">IHII"
_HEARTBEAT_LEN = const(14)
_SNAP_SETTLED = const(0x01)
_SNAP_INCOMPLETE = const(0x02)
_SNAP_PART = const(0x04)
_BIRTH_FAULTS = const(0x46)  # "F": a fault section follows the zones


def _make_crc32_tables() -> "tuple[array[int], array[int]]":
    """CRC-32 (reflected 0xEDB88320) table split in 16-bit halves.

    Halves keep every value a small int on MicroPython (no bigint per byte).
    """
    high = array("H", [0] * 256)
    low = array("H", [0] * 256)
    for i in range(256):
        hi, lo = 0, i
        for _ in range(8):
            carry = lo & 1
            lo = (lo >> 1) | ((hi & 1) << 15)
            hi >>= 1
            if carry:
                hi ^= 0xEDB8
                lo ^= 0x8320
        high[i] = hi
        low[i] = lo
    return high, low


_CRC_HIGH, _CRC_LOW = _make_crc32_tables()


def crc32_table(data: bytes | bytearray | memoryview, start: int = 0, end: int = -1) -> int:
    """CRC-32 of data[start:end] from the table: the fallback for a port without binascii.

    >>> hex(crc32_table(b"123456789"))
    '0xcbf43926'
    """
    if end < 0:
        end = len(data)
    hi = 0xFFFF
    lo = 0xFFFF
    high = _CRC_HIGH
    low = _CRC_LOW
    for i in range(start, end):
        idx = (lo ^ data[i]) & 0xFF
        lo = (((hi & 0xFF) << 8) | (lo >> 8)) ^ low[idx]
        hi = (hi >> 8) ^ high[idx]
    return ((hi ^ 0xFFFF) << 16) | (lo ^ 0xFFFF)


def crc32(data: bytes | bytearray | memoryview, start: int = 0, end: int = -1) -> int:
    """CRC-32/ISO-HDLC of data[start:end] (the zlib one); check value 0xCBF43926."""
    if end < 0:
        end = len(data)
    if _c_crc32 is not None:
        return int(_c_crc32(memoryview(data)[start:end])) & 0xFFFFFFFF
    return crc32_table(data, start, end)


def encoded_size(payload_len: int) -> int:
    """The most bytes `encode_into` can write for this payload length, delimiter included.

    COBS's worst case (an extra code byte per 254 non-zero bytes): size a buffer with it;
    the frame actually written may be shorter, as `encode_into` returns.
    """
    raw = HEADER_LEN + payload_len + CRC_LEN
    return int(raw + 1 + raw // 254 + 1)


def encode_into(
    buf: bytearray | memoryview,
    node: int,
    msg_type: int,
    seq: int,
    payload: bytes | bytearray | memoryview,
) -> int:
    """Write one complete frame (with trailing 0x00) into buf; return its length.

    Allocation-free: the raw frame is laid out in buf past the COBS overhead and then
    encoded in place (the write index never overtakes the read index).
    """
    plen = len(payload)
    if plen > MAX_PAYLOAD:
        raise ValueError("payload: %d bytes exceeds MAX_PAYLOAD %d" % (plen, MAX_PAYLOAD))
    if not 0 <= node <= 255:
        raise ValueError("node: %r out of range 0..255" % (node,))
    if not 0 <= msg_type <= 255:
        raise ValueError("msg_type: %r out of range 0..255" % (msg_type,))
    n = HEADER_LEN + plen + CRC_LEN
    shift = 1 + n // 254
    total = n + shift + 1
    if len(buf) < total:
        raise ValueError("buf: %d bytes, frame needs %d" % (len(buf), total))
    struct.pack_into(
        _HEADER_FMT, buf, shift, PROTOCOL_VERSION, node, msg_type, seq & 0xFFFF, plen
    )
    p0 = shift + HEADER_LEN
    buf[p0 : p0 + plen] = payload
    struct.pack_into(">I", buf, p0 + plen, crc32(buf, shift, p0 + plen))
    # In-place COBS: every 254 non-zero bytes start a new block (code 0xFF).
    code_idx = 0
    o = 1
    code = 1
    for i in range(shift, shift + n):
        b = buf[i]
        if b == 0:
            buf[code_idx] = code
            code_idx = o
            o += 1
            code = 1
        else:
            buf[o] = b
            o += 1
            code += 1
            if code == 0xFF:
                buf[code_idx] = code
                code_idx = o
                o += 1
                code = 1
    buf[code_idx] = code
    buf[o] = 0
    return o + 1


def encode_frame(
    node: int, msg_type: int, seq: int, payload: bytes | bytearray | memoryview = b""
) -> bytes:
    """Return one complete frame (trailing 0x00 included) as bytes."""
    buf = bytearray(encoded_size(len(payload)))
    n = encode_into(buf, node, msg_type, seq, payload)
    return bytes(buf[:n])


class FrameDecoder:
    """Stream decoder: feed it any chunks; it returns every complete valid frame.

    Bad frames are dropped and counted (`framing_errors`, `length_errors`,
    `crc_errors`, `oversize_errors`, `version_errors`); the decoder resyncs on the next
    0x00, so noise between frames never costs the next good frame. A corrupted frame
    is accepted only if its CRC-32 still matches: about 1 in 2**32 corrupted frames
    (see docs/wire-protocol.md for the bound).
    """

    def __init__(self) -> None:
        self._buf = bytearray(MAX_ENCODED)
        self._n = 0
        self._overflow = False
        self.frames = 0
        self.crc_errors = 0
        self.framing_errors = 0
        self.length_errors = 0
        self.oversize_errors = 0
        self.version_errors = 0

    def errors(self) -> int:
        """Every frame dropped so far, whatever the reason."""
        return int(
            self.crc_errors
            + self.framing_errors
            + self.length_errors
            + self.oversize_errors
            + self.version_errors
        )

    def reset(self) -> None:
        """Drop a partial frame (e.g. after the port was reopened)."""
        self._n = 0
        self._overflow = False

    def feed(self, data: bytes | bytearray | memoryview) -> list[tuple[int, int, int, bytes]]:
        out: list[tuple[int, int, int, bytes]] = []
        buf = self._buf
        cap = len(buf)
        n = self._n  # locals in the per-byte loop: an attribute per byte was half its cost
        overflow = self._overflow
        for b in data:
            if b == 0:
                if overflow:
                    self.oversize_errors += 1
                elif n:
                    frame = self._decode(n)
                    if frame is not None:
                        out.append(frame)
                n = 0
                overflow = False
            elif overflow:
                continue
            elif n < cap:
                buf[n] = b
                n += 1
            else:
                overflow = True
        self._n = n
        self._overflow = overflow
        return out

    def _decode(self, n: int) -> tuple[int, int, int, bytes] | None:
        buf = self._buf
        # In-place COBS decode: output index trails the input index.
        i = 0
        o = 0
        while i < n:
            code = buf[i]
            i += 1
            end = i + code - 1
            if end > n:
                self.framing_errors += 1
                return None
            while i < end:
                buf[o] = buf[i]
                o += 1
                i += 1
            if code != 0xFF and i < n:
                buf[o] = 0
                o += 1
        if o < HEADER_LEN + CRC_LEN:
            self.framing_errors += 1
            return None
        version, node, msg_type, seq, length = struct.unpack_from(_HEADER_FMT, buf, 0)
        if version != PROTOCOL_VERSION:
            self.version_errors += 1
            return None
        if length > MAX_PAYLOAD:
            self.oversize_errors += 1
            return None
        body = HEADER_LEN + length
        if o != body + CRC_LEN:
            self.length_errors += 1  # a byte inserted, dropped or cut off
            return None
        if crc32(buf, 0, body) != struct.unpack_from(">I", buf, body)[0]:
            self.crc_errors += 1
            return None
        self.frames += 1
        return (node, msg_type, seq, bytes(buf[HEADER_LEN:body]))


# ---------------------------------------------------------------- payload helpers


def _put_str(out: bytearray, field: str, s: str) -> None:
    raw = s.encode("utf-8")
    if len(raw) > 255:
        raise ValueError("%s: longer than 255 bytes" % field)
    out.append(len(raw))
    out.extend(raw)


def _get_str(p: bytes, i: int, field: str) -> tuple[str, int]:
    if i >= len(p):
        raise ValueError("%s: missing length byte" % field)
    n = p[i]
    i += 1
    if i + n > len(p):
        raise ValueError("%s: truncated (%d of %d bytes)" % (field, len(p) - i, n))
    try:
        s = bytes(p[i : i + n]).decode("utf-8")
    except UnicodeError:
        raise ValueError("%s: not valid UTF-8" % field) from None
    return s, i + n


def _check_len(payload: bytearray) -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload: %d bytes exceeds MAX_PAYLOAD %d" % (len(payload), MAX_PAYLOAD))
    return bytes(payload)


def pack_birth(
    node_id: int,
    fw_version: str,
    reader_type: str,
    zones: list[str],
    faults: list[tuple[str, str]] | None = None,
) -> bytes:
    """BIRTH: node_id:u8, fw_version:str8, reader_type:str8, n:u8, n * zone:str8
    [, 'F', m:u8, m * (zone:str8, reason:str8)].

    `zones` are the zones the node scans; `faults` the zones it cannot (a channel its
    antenna switch cannot reach) and node-wide faults (zone "", e.g. a reader that does
    not answer). The fault section is only sent when there is a fault.
    """
    if not 0 <= node_id <= 255:
        raise ValueError("node_id: %r out of range 0..255" % (node_id,))
    if len(zones) > 255:
        raise ValueError("zones: more than 255")
    out = bytearray()
    out.append(node_id)
    _put_str(out, "fw_version", fw_version)
    _put_str(out, "reader_type", reader_type)
    out.append(len(zones))
    for z in zones:
        _put_str(out, "zones", z)
    if faults:
        if len(faults) > 255:
            raise ValueError("faults: more than 255")
        out.append(_BIRTH_FAULTS)
        out.append(len(faults))
        for zone, reason in faults:
            _put_str(out, "faults.zone", zone)
            _put_str(out, "faults.reason", reason[:255])
    return _check_len(out)


def _parse_birth(p: bytes) -> tuple[int, str, str, list[str], list[tuple[str, str]]]:
    if len(p) < 1:
        raise ValueError("node_id: missing")
    node_id = p[0]
    fw_version, i = _get_str(p, 1, "fw_version")
    reader_type, i = _get_str(p, i, "reader_type")
    if i >= len(p):
        raise ValueError("zones: missing count")
    count = p[i]
    i += 1
    zones = []
    for _ in range(count):
        z, i = _get_str(p, i, "zones")
        zones.append(z)
    faults = []
    if i + 1 < len(p) and p[i] == _BIRTH_FAULTS:
        nf = p[i + 1]
        i += 2
        for _ in range(nf):
            zone, i = _get_str(p, i, "faults.zone")
            reason, i = _get_str(p, i, "faults.reason")
            faults.append((zone, reason))
        if i != len(p):
            raise ValueError("faults: %d trailing bytes" % (len(p) - i))
    if i != len(p):
        raise ValueError("zones: %d trailing bytes" % (len(p) - i))
    return node_id, fw_version, reader_type, zones, faults


def unpack_birth(p: bytes) -> tuple[int, str, str, list[str]]:
    """-> (node_id, fw_version, reader_type, zones); the zones the node scans."""
    node_id, fw_version, reader_type, zones, _faults = _parse_birth(p)
    return node_id, fw_version, reader_type, zones


def unpack_birth_faults(p: bytes) -> list[tuple[str, str]]:
    """-> [(zone, reason)]: zones the node cannot scan ("" = the whole node)."""
    return _parse_birth(p)[4]


def pack_snapshot(
    zone: str,
    settled: bool,
    uids: list[bytes],
    incomplete: bool = False,
    part: tuple[int, int, int] | None = None,
) -> bytes:
    """SNAPSHOT: zone:str8, flags:u8, [gen:u8, part:u8, parts:u8,] n:u16, n * (len:u8, uid).

    flags: bit0 settled; bit1 incomplete (the zone's inventory could not finish: tags
    may be missing from the list); bit2 part: `part` = (gen, index, count) follows, and
    this frame holds part `index` of `count` of snapshot `gen` of the zone (the Pi
    joins the parts of one gen; see `snapshot_parts`).
    """
    out = bytearray()
    _put_str(out, "zone", zone)
    flags = (_SNAP_SETTLED if settled else 0) | (_SNAP_INCOMPLETE if incomplete else 0)
    if part is not None:
        gen, index, count = part
        if not 0 <= index < count <= 255 or not 0 <= gen <= 255:
            raise ValueError("part: %r not (gen 0..255, index < count <= 255)" % (part,))
        out.append(flags | _SNAP_PART)
        out.append(gen)
        out.append(index)
        out.append(count)
    else:
        out.append(flags)
    out.append((len(uids) >> 8) & 0xFF)
    out.append(len(uids) & 0xFF)
    for u in uids:
        if len(u) not in UID_LENGTHS:
            raise ValueError("uids: length %d not one of %r" % (len(u), UID_LENGTHS))
        out.append(len(u))
        out.extend(u)
    return _check_len(out)


def snapshot_parts(
    zone: str, settled: bool, uids: list[bytes], incomplete: bool = False, gen: int = 0
) -> list[bytes]:
    """One zone state as SNAPSHOT payloads of at most SNAPSHOT_PART_UIDS UIDs each.

    A state that fits one part is a plain SNAPSHOT; a bigger one is numbered parts of
    generation `gen` (0..255, the node counts it up per zone), so each frame fits the
    RS-485 response window (docs/wire-protocol.md, bus timing).
    """
    if len(uids) <= SNAPSHOT_PART_UIDS:
        return [pack_snapshot(zone, settled, uids, incomplete)]
    count = (len(uids) + SNAPSHOT_PART_UIDS - 1) // SNAPSHOT_PART_UIDS
    if count > 255:
        raise ValueError("uids: %d need more than 255 parts" % len(uids))
    out = []
    for k in range(count):
        chunk = uids[k * SNAPSHOT_PART_UIDS : (k + 1) * SNAPSHOT_PART_UIDS]
        out.append(pack_snapshot(zone, settled, chunk, incomplete, (gen & 0xFF, k, count)))
    return out


def unpack_snapshot_part(
    p: bytes,
) -> tuple[str, bool, list[bytes], bool, tuple[int, int, int] | None]:
    """-> (zone, settled, uids, incomplete, part); part is (gen, index, count) or None."""
    zone, i = _get_str(p, 0, "zone")
    if i + 3 > len(p):
        raise ValueError("flags: truncated")
    flags = p[i]
    if flags & ~(_SNAP_SETTLED | _SNAP_INCOMPLETE | _SNAP_PART):
        raise ValueError("flags: unknown bits 0x%02x" % flags)
    i += 1
    part = None
    if flags & _SNAP_PART:
        if i + 5 > len(p):
            raise ValueError("part: truncated")
        gen, index, count = p[i], p[i + 1], p[i + 2]
        if not index < count:
            raise ValueError("part: index %d not below count %d" % (index, count))
        part = (gen, index, count)
        i += 3
    count = (p[i] << 8) | p[i + 1]
    i += 2
    uids = []
    for k in range(count):
        if i >= len(p):
            raise ValueError("uids: truncated at uid %d of %d" % (k, count))
        n = p[i]
        if n not in UID_LENGTHS:
            raise ValueError("uids: uid %d has length %d, not one of %r" % (k, n, UID_LENGTHS))
        if i + 1 + n > len(p):
            raise ValueError("uids: uid %d truncated" % k)
        uids.append(bytes(p[i + 1 : i + 1 + n]))
        i += 1 + n
    if i != len(p):
        raise ValueError("uids: %d trailing bytes" % (len(p) - i))
    return zone, bool(flags & _SNAP_SETTLED), uids, bool(flags & _SNAP_INCOMPLETE), part


def unpack_snapshot(p: bytes) -> tuple[str, bool, list[bytes]]:
    """-> (zone, settled, uids) of a whole (one-part) snapshot; a part raises ValueError."""
    zone, settled, uids, _incomplete, part = unpack_snapshot_part(p)
    if part is not None:
        raise ValueError("part: a snapshot part; join parts with unpack_snapshot_part")
    return zone, settled, uids


def pack_heartbeat(uptime_ms: int, scans_per_s: int, crc_errors: int, resets: int) -> bytes:
    """HEARTBEAT: uptime_ms:u32 (wraps), scans_per_s:u16 (saturates), crc_errors:u32, resets:u32."""
    return struct.pack(
        _HEARTBEAT_FMT,
        int(uptime_ms) & 0xFFFFFFFF,
        min(max(int(scans_per_s), 0), 0xFFFF),
        int(crc_errors) & 0xFFFFFFFF,
        int(resets) & 0xFFFFFFFF,
    )


def unpack_heartbeat(p: bytes) -> tuple[int, int, int, int]:
    """-> (uptime_ms, scans_per_s, crc_errors, resets)."""
    if len(p) != _HEARTBEAT_LEN:
        raise ValueError("heartbeat: %d bytes, expected %d" % (len(p), _HEARTBEAT_LEN))
    uptime, sps, crc, resets = struct.unpack(_HEARTBEAT_FMT, p)
    return uptime, sps, crc, resets


def pack_ack(acked_seq: int) -> bytes:
    """ACK: acked_seq:u16 (the seq of the frame being answered)."""
    return struct.pack(">H", acked_seq & 0xFFFF)


def unpack_ack(p: bytes) -> tuple[int]:
    """-> (acked_seq,)."""
    if len(p) != 2:
        raise ValueError("acked_seq: %d bytes, expected 2" % len(p))
    return ((p[0] << 8) | p[1],)


def pack_led(seat: int, mode: int | str) -> bytes:
    """CMD_LED: seat:u8 (0 = all seats), mode:u8 (LED_OFF/ON/BLINK/PULSE or its name)."""
    if isinstance(mode, str):
        if mode not in LED_MODE_NAMES:
            raise ValueError("mode: %r not one of %r" % (mode, LED_MODE_NAMES))
        mode = LED_MODE_NAMES.index(mode)
    if not 0 <= seat <= 255:
        raise ValueError("seat: %r out of range 0..255" % (seat,))
    if not 0 <= mode < len(LED_MODE_NAMES):
        raise ValueError("mode: %r out of range" % (mode,))
    return bytes((seat, mode))


def unpack_led(p: bytes) -> tuple[int, int]:
    """-> (seat, mode)."""
    if len(p) != 2:
        raise ValueError("led: %d bytes, expected 2 (seat, mode)" % len(p))
    if p[1] >= len(LED_MODE_NAMES):
        raise ValueError("mode: %d unknown" % p[1])
    return p[0], p[1]


def pack_configure(json_bytes: bytes) -> bytes:
    """CMD_CONFIGURE: the node config as UTF-8 JSON text, verbatim."""
    if len(json_bytes) > MAX_PAYLOAD:
        raise ValueError("configure: %d bytes exceeds MAX_PAYLOAD" % len(json_bytes))
    return bytes(json_bytes)


def unpack_configure(p: bytes) -> bytes:
    """-> the JSON bytes (checked to be UTF-8; the node parses them)."""
    try:
        bytes(p).decode("utf-8")
    except UnicodeError:
        raise ValueError("configure: not valid UTF-8") from None
    return bytes(p)


def pack_snapshot_request(zone: str = "") -> bytes:
    """CMD_SNAPSHOT: empty = every zone of the node, else zone:str8 = that zone only."""
    if not zone:
        return b""
    out = bytearray()
    _put_str(out, "zone", zone)
    return bytes(out)


def unpack_snapshot_request(p: bytes) -> str:
    """-> the zone asked for, "" for every zone."""
    if not p:
        return ""
    zone, i = _get_str(p, 0, "zone")
    if i != len(p):
        raise ValueError("zone: %d trailing bytes" % (len(p) - i))
    return zone
