"""Property tests of the wire codec on CPython (the same file runs on the node)."""

import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.firmware import wire

from .codec_vectors import vectors

frames = st.tuples(
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
    st.binary(max_size=wire.MAX_PAYLOAD),
)


@given(frames)
def test_round_trip(f: tuple[int, int, int, bytes]) -> None:
    node, t, seq, payload = f
    data = wire.encode_frame(node, t, seq, payload)
    assert data[-1] == 0 and data.count(0) == 1
    assert len(data) <= wire.encoded_size(len(payload)) <= wire.MAX_FRAME
    assert wire.FrameDecoder().feed(data) == [f]


def test_encoded_size_is_the_cobs_worst_case_not_every_frames_size() -> None:
    """A 600-byte payload: 611 raw bytes, so at most two extra COBS code bytes.

    Without zeros the encoder needs both (a block per 254 non-zero bytes): 611 + 1 + 2 + 1
    (delimiter) = 615. Zeros end blocks early, so all zeros take no extra byte: 613.
    """
    assert wire.encoded_size(600) == 615
    assert len(wire.encode_frame(1, 2, 3, b"\x01" * 600)) == 615
    assert len(wire.encode_frame(1, 2, 3, b"\x00" * 600)) == 613
    assert len(wire.encode_frame(1, 2, 3, b"\x01" * 200)) == wire.encoded_size(200) == 213


@given(frames, st.lists(st.binary(max_size=40), max_size=4))
def test_encode_into_matches_encode_frame(
    f: tuple[int, int, int, bytes], _noise: list[bytes]
) -> None:
    buf = bytearray(wire.MAX_FRAME)
    n = wire.encode_into(buf, *f)
    assert bytes(buf[:n]) == wire.encode_frame(*f)


@given(st.lists(st.tuples(st.binary(max_size=64), frames), min_size=1, max_size=6), st.data())
def test_garbage_between_frames_never_yields_a_wrong_frame(
    items: list[tuple[bytes, tuple[int, int, int, bytes]]], data: st.DataObject
) -> None:
    """Noise followed by a delimiter costs nothing: every real frame comes out, nothing else."""
    stream = bytearray()
    for garbage, f in items:
        stream += garbage + b"\x00" + wire.encode_frame(*f)
    dec = wire.FrameDecoder()
    out = []
    i = 0
    while i < len(stream):  # arbitrary chunking, as serial reads arrive
        n = data.draw(st.integers(1, 64))
        out += dec.feed(bytes(stream[i : i + n]))
        i += n
    assert out == [f for _g, f in items]


@given(frames, st.data())
def test_single_bit_corruption_is_detected(
    f: tuple[int, int, int, bytes], data: st.DataObject
) -> None:
    frame = bytearray(wire.encode_frame(*f))
    pos = data.draw(st.integers(0, len(frame) - 2))
    frame[pos] ^= 1 << data.draw(st.integers(0, 7))
    dec = wire.FrameDecoder()
    got = dec.feed(bytes(frame) + b"\x00")
    assert got == []
    assert dec.errors() >= 1
    # and the decoder is back in sync for the next good frame
    assert dec.feed(wire.encode_frame(*f)) == [f]


@given(frames, st.data())
def test_truncated_frame_is_dropped_and_next_frame_survives(
    f: tuple[int, int, int, bytes], data: st.DataObject
) -> None:
    frame = wire.encode_frame(*f)
    cut = data.draw(st.integers(1, len(frame) - 2))
    dec = wire.FrameDecoder()
    assert dec.feed(frame[:cut] + b"\x00" + frame) == [f]
    assert dec.errors() == 1


def test_crc_is_crc32_iso_hdlc_on_both_code_paths() -> None:
    """The C routine and the table (for a port without binascii.crc32) agree."""
    assert wire.crc32(b"123456789") == 0xCBF43926
    assert wire.crc32_table(b"123456789") == 0xCBF43926


@given(st.binary(max_size=300), st.data())
def test_table_crc_matches_binascii(data: bytes, draw: st.DataObject) -> None:
    start = draw.draw(st.integers(0, len(data)))
    assert wire.crc32_table(data, start) == wire.crc32(data, start) == zlib.crc32(data[start:])


def test_oversize_stream_is_dropped_and_counted() -> None:
    dec = wire.FrameDecoder()
    good = wire.encode_frame(1, wire.MSG_ACK, 1, wire.pack_ack(1))
    assert dec.feed(b"\x01" * (wire.MAX_FRAME + 10) + b"\x00" + good) == [
        (1, wire.MSG_ACK, 1, b"\x00\x01")
    ]
    assert dec.oversize_errors == 1


def test_payload_over_max_is_refused() -> None:
    with pytest.raises(ValueError, match="payload"):
        wire.encode_frame(1, 2, 3, bytes(wire.MAX_PAYLOAD + 1))


def reference_cobs(data: bytes) -> bytes:
    """Textbook COBS (Cheshire & Baker), written independently of the codec."""
    out = bytearray()
    for block in data.split(b"\x00"):
        while len(block) >= 254:
            out += b"\xff" + block[:254]
            block = block[254:]
        out += bytes([len(block) + 1]) + block
    return bytes(out)


def reference_frame(
    version: int, node: int, t: int, seq: int, payload: bytes, length: int | None = None
) -> bytes:
    """Built from docs/wire-protocol.md with zlib's CRC-32, not the codec's."""
    n = len(payload) if length is None else length
    body = bytes([version, node, t, seq >> 8, seq & 0xFF, n >> 8, n & 0xFF]) + payload
    return reference_cobs(body + zlib.crc32(body).to_bytes(4, "big")) + b"\x00"


@given(frames)
def test_frame_layout_matches_the_documented_bytes(f: tuple[int, int, int, bytes]) -> None:
    """header (version, node, type, seq BE, length BE) + payload + CRC-32 BE, COBS, 0x00."""
    node, t, seq, payload = f
    ref = reference_frame(wire.PROTOCOL_VERSION, node, t, seq, payload)
    assert wire.FrameDecoder().feed(ref) == [f]
    # Our encoder may differ from the textbook one only at an exact 254-byte run end.
    assert wire.FrameDecoder().feed(wire.encode_frame(*f)) == wire.FrameDecoder().feed(ref)


def test_other_protocol_version_is_not_decoded() -> None:
    dec = wire.FrameDecoder()
    assert dec.feed(reference_frame(3, 1, 2, 3, b"x")) == []
    assert dec.version_errors == 1
    assert dec.feed(reference_frame(2, 1, 2, 3, b"x")) == [(1, 2, 3, b"x")]


def test_protocol_1_frame_is_refused() -> None:
    """A node still on version 1 (CRC-16, no length) is counted, never half-read."""
    v1 = bytes.fromhex("0601020300070568656c6c6f")  # a v1 header and payload, no valid CRC
    dec = wire.FrameDecoder()
    assert dec.feed(reference_cobs(v1 + b"\x12\x34") + b"\x00") == []
    assert dec.errors() == 1


# Fixed bytes written by hand from docs/wire-protocol.md ("Frame" and its examples).
DOC_EXAMPLES = [
    # PING from the Pi to node 3, seq 7, empty payload
    ("ping", (3, wire.MSG_CMD_PING, 7, b""), "0402031302070105ae68472e00"),
    # ACK from node 3 for seq 0x0102, seq 0x0009
    ("ack", (3, wire.MSG_ACK, 9, b"\x01\x02"), "040203040209080201024bbef9aa00"),
]


@pytest.mark.parametrize(("name", "frame", "hex_bytes"), DOC_EXAMPLES, ids=lambda v: str(v))
def test_documented_example_bytes(
    name: str, frame: tuple[int, int, int, bytes], hex_bytes: str
) -> None:
    assert wire.encode_frame(*frame).hex() == hex_bytes, name
    assert wire.FrameDecoder().feed(bytes.fromhex(hex_bytes)) == [frame]


def test_one_byte_before_the_delimiter_is_rejected() -> None:
    """Issue #12 item 3: 0x01 inserted before the 0x00 passed the CRC-16 in 10,000 of 10,000."""
    dec = wire.FrameDecoder()
    for seq in range(2_000):
        payload = bytes([seq % 251]) * (seq % 40)
        frame = wire.encode_frame(seq % 7 + 1, wire.MSG_SNAPSHOT, seq, payload)
        assert dec.feed(frame[:-1] + b"\x01\x00") == []
    assert dec.length_errors == 2_000 and dec.frames == 0


Mutation = tuple[str, int, int]


def mutate(frame: bytes, mutation: Mutation) -> bytes:
    """Insert/delete/flip/truncate one spot of a frame's body (the delimiter stays)."""
    op, pos, value = mutation
    body = bytearray(frame[:-1])
    if not body:
        return bytes([value or 1, 0])
    pos %= len(body)
    if op == "insert":
        body[pos:pos] = bytes([value or 1])
    elif op == "delete":
        del body[pos]
    elif op == "flip":
        body[pos] ^= 1 << (value % 8)
    else:
        del body[max(1, pos):]
    return bytes(body) + b"\x00"


mutations = st.tuples(
    st.sampled_from(["insert", "delete", "flip", "truncate"]), st.integers(0, 2_000),
    st.integers(0, 255),
)


@settings(max_examples=400)
@given(frames, st.lists(mutations, min_size=1, max_size=4))
def test_mutated_frames_are_never_accepted(f: tuple[int, int, int, bytes],
                                           ms: list[Mutation]) -> None:
    """Insertions, deletions, bit flips and truncations: zero false accepts, then resync."""
    frame = wire.encode_frame(*f)
    bad = frame
    for m in ms:
        bad = mutate(bad, m)
    dec = wire.FrameDecoder()
    got = dec.feed(bad)
    assert got in ([], [f])  # never a different frame (a 0x00 inserted gives f back)
    assert dec.feed(frame) == [f]


@pytest.mark.parametrize("v", vectors(), ids=lambda v: v[0])
def test_shared_vectors_round_trip(v: tuple[str, int, int, int, bytes]) -> None:
    _name, node, t, seq, payload = v
    assert wire.FrameDecoder().feed(wire.encode_frame(node, t, seq, payload)) == [
        (node, t, seq, payload)
    ]


uids = st.one_of(*(st.binary(min_size=n, max_size=n) for n in wire.UID_LENGTHS))
names = st.text(max_size=30).filter(lambda s: len(s.encode()) <= 255)


@given(names, st.booleans(), st.lists(uids, max_size=60))
def test_snapshot_round_trip(zone: str, settled: bool, u: list[bytes]) -> None:
    assert wire.unpack_snapshot(wire.pack_snapshot(zone, settled, u)) == (zone, settled, u)


@given(st.integers(0, 255), names, names, st.lists(names, max_size=8))
def test_birth_round_trip(node: int, fw: str, reader: str, zones: list[str]) -> None:
    assert wire.unpack_birth(wire.pack_birth(node, fw, reader, zones)) == (node, fw, reader, zones)


@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 0xFFFF),
    st.integers(0, 2**32 - 1),
    st.integers(0, 2**32 - 1),
)
def test_heartbeat_round_trip(up: int, sps: int, crc: int, resets: int) -> None:
    assert wire.unpack_heartbeat(wire.pack_heartbeat(up, sps, crc, resets)) == (
        up,
        sps,
        crc,
        resets,
    )


def test_small_payload_round_trips() -> None:
    assert wire.unpack_ack(wire.pack_ack(513)) == (513,)
    assert wire.unpack_led(wire.pack_led(5, "blink")) == (5, wire.LED_BLINK)
    assert wire.unpack_configure(wire.pack_configure(b'{"a": 1}')) == b'{"a": 1}'


def test_malformed_payloads_raise_value_error_or_decode() -> None:
    """Any bytes either unpack or raise ValueError; never another exception. Valid
    payloads are mixed in, and some input must unpack: a decoder refusing everything
    would pass the first half alone."""
    unpackers = (
        wire.unpack_snapshot,
        wire.unpack_birth,
        wire.unpack_heartbeat,
        wire.unpack_ack,
        wire.unpack_led,
    )
    valid = st.one_of(
        st.builds(wire.pack_snapshot, names, st.booleans(), st.lists(uids, max_size=6)),
        st.builds(wire.pack_birth, st.integers(0, 255), names, names, st.lists(names, max_size=3)),
        st.builds(wire.pack_ack, st.integers(0, 0xFFFF)),
        st.builds(wire.pack_led, st.integers(1, 10), st.sampled_from(["off", "on", "blink"])),
    )
    unpacked: set[str] = set()

    @settings(max_examples=300)
    @given(st.one_of(st.binary(max_size=80), valid))
    def any_bytes(p: bytes) -> None:
        for unpack in unpackers:
            try:
                unpack(p)
            except ValueError as e:
                assert ":" in str(e)  # the message names the field
            else:
                unpacked.add(unpack.__name__)

    any_bytes()
    assert {"unpack_snapshot", "unpack_birth", "unpack_ack", "unpack_led"} <= unpacked


@pytest.mark.parametrize(
    ("unpack", "payload", "field"),
    [
        (wire.unpack_snapshot, b"\x09seat1.bet\x01\x00\x01\x05abcde", "uids"),
        (wire.unpack_snapshot, b"\x09seat1.bet\x08\x00\x00", "flags"),
        (wire.unpack_snapshot, b"\x09seat1.bet\x01\x00\x02\x04abcd", "uids"),
        (wire.unpack_snapshot, b"\x09seat1", "zone"),
        (wire.unpack_birth, b"\x01\x05ab", "fw_version"),
        (wire.unpack_birth, b"\x01\x01a\x01b\x02\x01z", "zones"),
        (wire.unpack_heartbeat, b"\x00" * 13, "heartbeat"),
        (wire.unpack_ack, b"\x00", "acked_seq"),
        (wire.unpack_led, b"\x01\x09", "mode"),
    ],
)
def test_malformed_payload_names_the_field(unpack: object, payload: bytes, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        unpack(payload)  # type: ignore[operator]


@pytest.mark.parametrize(
    ("call", "field"),
    [
        (lambda: wire.pack_snapshot("z", True, [b"\x01\x02"]), "uids"),
        (lambda: wire.pack_led(1, "disco"), "mode"),
        (lambda: wire.pack_birth(300, "a", "b", []), "node_id"),
        (lambda: wire.pack_snapshot("z" * 300, True, []), "zone"),
        (lambda: wire.pack_snapshot("z", True, [bytes(8)] * 200), "payload"),
    ],
)
def test_bad_pack_arguments_name_the_field(call: object, field: str) -> None:
    with pytest.raises(ValueError, match=field):
        call()  # type: ignore[operator]
