"""Codec test vectors shared by CPython (pytest) and MicroPython (mp_codec_check.py).

Plain data and a plain function, nothing either interpreter lacks.
"""

import wire

UID_A = b"\xe0\x04\x01\x00\x12\x34\x56\x78"
UID_B = b"\xe0\x04\x01\x00\x9a\xbc\xde\xf0"


def vectors():
    """[(name, node, msg_type, seq, payload)]: every message type, edge sizes, zeros."""
    return [
        (
            "birth",
            3,
            wire.MSG_BIRTH,
            0,
            wire.pack_birth(3, "0.1.0", "PN5180", ["seat1.bet", "seat1.stack"]),
        ),
        (
            "snapshot",
            3,
            wire.MSG_SNAPSHOT,
            1,
            wire.pack_snapshot("seat1.bet", True, [UID_A, UID_B]),
        ),
        ("snapshot_empty", 3, wire.MSG_SNAPSHOT, 2, wire.pack_snapshot("seat1.cards", False, [])),
        (
            "snapshot_14443",
            4,
            wire.MSG_SNAPSHOT,
            3,
            wire.pack_snapshot(
                "seat2.cards", True, [b"\xde\xad\xbe\xef", b"\x04\x11\x22\x33\x44\x55\x66"]
            ),
        ),
        ("heartbeat", 3, wire.MSG_HEARTBEAT, 65535, wire.pack_heartbeat(123456789, 42, 7, 1)),
        ("ack", 3, wire.MSG_ACK, 4, wire.pack_ack(513)),
        ("led", 0, wire.MSG_CMD_LED, 9, wire.pack_led(5, wire.LED_BLINK)),
        ("configure", 3, wire.MSG_CMD_CONFIGURE, 10, wire.pack_configure(b'{"settle_ms": 250}')),
        ("rebirth", 0, wire.MSG_CMD_REBIRTH, 11, b""),
        ("ping", 3, wire.MSG_CMD_PING, 12, b""),
        ("poll", 7, wire.MSG_POLL, 13, b""),
        ("snapshot_all", 3, wire.MSG_CMD_SNAPSHOT, 16, wire.pack_snapshot_request()),
        ("snapshot_one", 3, wire.MSG_CMD_SNAPSHOT, 17, wire.pack_snapshot_request("seat1.bet")),
        ("zeros", 255, 0x7F, 300, bytes(300)),
        ("run_254", 1, 0x7E, 14, bytes([0x55] * 254)),
        ("max_payload", 2, 0x7D, 15, bytes([(i * 7 + 1) % 256 for i in range(wire.MAX_PAYLOAD)])),
    ]
