"""Reader-link frame fuzz (issue #12): mutated frames fed to the decoder and the Pi.

``fuzz_frames(1_000_000)`` gives ``{"frames": ..., "false_accepts": 0, "crashes": 0, ...}``.
It also runs the same mutations against protocol 1 (CRC-16, no length field: the peer it
replaced), in the same run, so the figure shows what the new format buys. The line-noise
drills and ``run_all`` are ``bench/link_drills.py``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from pokertable.firmware import wire
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import TagRegistry

Figures = dict[str, Any]

# -- mutated frames -----------------------------------------------------------------------

_MUTATIONS = ("insert", "delete", "flip", "truncate", "insert_01_before_delimiter")


def _random_frame(rng: random.Random, seq: int) -> tuple[int, int, int, bytes]:
    node = rng.randrange(1, 12)
    kind = rng.randrange(5)
    if kind == 0:
        uids = [bytes([0xE0, 4, 1, 0]) + rng.randbytes(4) for _ in range(rng.randrange(0, 30))]
        zone = f"seat{rng.randrange(1, 11)}.{rng.choice(('bet', 'stack', 'cards'))}"
        return node, wire.MSG_SNAPSHOT, seq, wire.pack_snapshot(zone, rng.random() < 0.5, uids)
    if kind == 1:
        return node, wire.MSG_HEARTBEAT, seq, wire.pack_heartbeat(
            rng.randrange(2**32), rng.randrange(200), rng.randrange(9), rng.randrange(9))
    if kind == 2:
        return node, wire.MSG_ACK, seq, wire.pack_ack(rng.randrange(65536))
    if kind == 3:
        return 0, wire.MSG_CMD_LED, seq, wire.pack_led(rng.randrange(11), rng.randrange(4))
    return node, wire.MSG_BIRTH, seq, wire.pack_birth(node, "0.1.0", "PN5180",
                                                       ["seat1.bet", "seat1.stack", "board"])


def mutate(frame: bytes, rng: random.Random) -> bytes:
    """One to three insertions, deletions, bit flips or a truncation; the 0x00 stays."""
    body = bytearray(frame[:-1])
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        if not body:
            body.append(rng.randrange(1, 256))
        op = rng.choice(_MUTATIONS)
        pos = rng.randrange(len(body))
        if op == "insert":
            body.insert(pos, rng.randrange(256))
        elif op == "insert_01_before_delimiter":
            body.append(1)
        elif op == "delete":
            del body[pos]
        elif op == "flip":
            body[pos] ^= 1 << rng.randrange(8)
        else:
            del body[max(1, pos):]
    return bytes(body) + b"\x00"


def _cobs_decode(data: bytes) -> bytes | None:
    out = bytearray()
    i = 0
    while i < len(data):
        code = data[i]
        if code == 0 or i + code > len(data):
            return None
        out += data[i + 1:i + code]
        i += code
        if code != 0xFF and i < len(data):
            out.append(0)
    return bytes(out)


def _crc16_ccitt_false(data: bytes) -> int:
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
            crc &= 0xFFFF
    return crc


def _v1_frame(node: int, msg_type: int, seq: int, payload: bytes) -> bytes:
    """Protocol 1 as docs/wire-protocol.md described it before issue #12 (the peer)."""
    body = bytes([1, node, msg_type, seq >> 8, seq & 0xFF]) + payload
    raw = body + _crc16_ccitt_false(body).to_bytes(2, "big")
    out = bytearray()
    for block in raw.split(b"\x00"):
        while len(block) >= 254:
            out += b"\xff" + block[:254]
            block = block[254:]
        out += bytes([len(block) + 1]) + block
    return bytes(out) + b"\x00"


def _v1_accepts(data: bytes) -> bytes | None:
    raw = _cobs_decode(data[:-1])
    if raw is None or len(raw) < 7 or raw[0] != 1:
        return None
    ok = _crc16_ccitt_false(raw[:-2]) == int.from_bytes(raw[-2:], "big")
    return raw if ok else None


def fuzz_frames(count: int = 20_000, seed: int = 12, *, with_peer: bool = True) -> Figures:
    """Mutate ``count`` frames; feed each to a fresh decoder and what passes to the Pi.

    A false accept is a frame that decodes to anything other than what was sent. Crashes
    are exceptions out of the decoder or the interpreter; the slowest single feed shows
    there is no hang. With ``with_peer`` the same mutations go through protocol 1.
    """
    rng = random.Random(seed)
    registry = TagRegistry(":memory:")
    interpreter = BusInterpreter(registry)
    decoder = wire.FrameDecoder()
    false_accepts = crashes = unchanged = peer_false = 0
    slowest = 0.0
    started = time.perf_counter()
    for i in range(count):
        frame_fields = _random_frame(rng, i & 0xFFFF)
        good = wire.encode_frame(*frame_fields)
        state = rng.getstate()
        bad = mutate(good, rng)
        if bad == good:
            unchanged += 1
            continue
        t0 = time.perf_counter()
        try:
            for node, msg_type, seq, payload in decoder.feed(bad):
                if (node, msg_type, seq, payload) != frame_fields:
                    false_accepts += 1  # the same frame back (a 0x00 inserted) is no harm
                interpreter.on_frame(node, msg_type, seq, payload, i)
            interpreter.take_commands()
        except Exception:  # counting crashes is the point of the drill
            crashes += 1
        slowest = max(slowest, time.perf_counter() - t0)
        if with_peer:
            peer_rng = random.Random()
            peer_rng.setstate(state)
            v1_good = _v1_frame(*frame_fields)
            v1_bad = mutate(v1_good, peer_rng)
            raw = _v1_accepts(v1_bad)
            if raw is not None and raw != _cobs_decode(v1_good[:-1]):
                peer_false += 1
    registry.close()
    return {
        "frames": count,
        "unchanged_skipped": unchanged,
        "false_accepts": false_accepts,
        "crashes": crashes,
        "slowest_feed_ms": round(slowest * 1000, 3),
        "decoder_rejects": decoder.errors(),
        "seconds": round(time.perf_counter() - started, 1),
        "peer_protocol_1_false_accepts": peer_false if with_peer else None,
    }
