"""The wire codec: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to firmware/wire.py got past the codec tests
(docs/testing.md, "Mutation testing").
"""

import pytest

from pokertable.firmware import wire


@pytest.mark.parametrize("payload_len", [0, 5, 240, 254, wire.MAX_PAYLOAD])
def test_encode_into_needs_room_for_the_delimiter(payload_len: int) -> None:
    payload = bytes((i % 255) + 1 for i in range(payload_len))
    size = wire.encoded_size(payload_len)
    exact = bytearray(size)
    assert wire.encode_into(exact, 3, wire.MSG_SNAPSHOT, 7, payload) == size
    assert exact[-1] == 0 and 0 not in exact[:-1]
    with pytest.raises(ValueError, match="buf: %d bytes, frame needs %d" % (size - 1, size)):
        wire.encode_into(bytearray(size - 1), 3, wire.MSG_SNAPSHOT, 7, payload)


@pytest.mark.parametrize("mode", [-1, 4, 255])
def test_led_mode_number_out_of_range_names_the_mode(mode: int) -> None:
    with pytest.raises(ValueError, match="mode: %d out of range" % mode):
        wire.pack_led(1, mode)


def test_led_modes_zero_to_three_pack_as_their_number() -> None:
    assert [wire.pack_led(2, m) for m in range(4)] == [bytes((2, m)) for m in range(4)]
    assert wire.pack_led(0, "pulse") == bytes((0, wire.LED_PULSE))


@pytest.mark.parametrize("payload_len", [243, 497, 498, 751, 1005, 1008])
def test_cobs_overhead_counts_every_started_254_byte_block(payload_len: int) -> None:
    # Raw frame sizes 254, 508, 509, 762, 1016, 1019: where n // 254 and n // 255 differ.
    # Node 1, seq 0x0101 and a length with no zero byte: the frame is one long run of
    # non-zero bytes, the case where in-place COBS needs every code byte of room.
    payload = bytes((i % 255) + 1 for i in range(payload_len))
    size = wire.encoded_size(payload_len)
    buf = bytearray(size)
    written = wire.encode_into(buf, 1, 0x7E, 0x0101, payload)
    assert written <= size and buf[written - 1] == 0
    dec = wire.FrameDecoder()
    assert list(dec.feed(bytes(buf[:written]))) == [(1, 0x7E, 0x0101, payload)]


def test_a_snapshot_declaring_256_uids_is_read_as_256_not_0() -> None:
    payload = bytearray(wire.pack_snapshot("z", True, [bytes(range(1, 9))]))
    assert payload[2:5] == b"\x01\x00\x01"  # flags, count u16 big-endian
    payload[3:5] = b"\x01\x00"  # count 256, one uid present
    with pytest.raises(ValueError, match="uids: truncated at uid 1 of 256"):
        wire.unpack_snapshot(bytes(payload))


def test_configure_that_is_not_utf8_is_refused_naming_configure() -> None:
    with pytest.raises(ValueError, match="configure: not valid UTF-8"):
        wire.unpack_configure(b'{"a": "\xff"}')
    assert wire.unpack_configure('{"zone": "é"}'.encode()) == '{"zone": "é"}'.encode()
