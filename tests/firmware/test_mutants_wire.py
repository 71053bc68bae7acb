"""The wire codec: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to firmware/wire.py got past the codec tests
(docs/testing.md, "Mutation testing").
"""

import re
import zlib
from pathlib import Path

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


def test_message_types_are_the_numbers_in_the_protocol_table() -> None:
    # docs/wire-protocol.md is the contract with nodes already flashed: a renumbered type
    # would still round-trip between two copies of this file, but not with them.
    doc = (Path(__file__).resolve().parents[2] / "docs" / "wire-protocol.md").read_text()
    table = dict(re.findall(r"^\| (0x[0-9a-f]{2}) \| ([A-Z_]+) \|", doc, re.M))
    assert {int(k, 16): v for k, v in table.items()} == wire.MSG_NAMES
    assert len(table) == 10 and all(getattr(wire, "MSG_" + v) == int(k, 16)
                                    for k, v in table.items())


def test_strings_of_exactly_255_bytes_are_carried_and_256_refused() -> None:
    zone = "z" * 255
    assert wire.unpack_snapshot(wire.pack_snapshot(zone, False, [])) == (zone, False, [])
    with pytest.raises(ValueError, match="zone: longer than 255 bytes"):
        wire.pack_snapshot(zone + "z", False, [])


def test_a_string_cut_short_is_refused_naming_its_field() -> None:
    # fw_version says 2 bytes, 1 is there: refused as fw_version, not read as "a".
    with pytest.raises(ValueError, match=r"fw_version: truncated \(1 of 2 bytes\)"):
        wire.unpack_birth(b"\x01\x02a")


def test_snapshot_with_flags_or_count_missing_is_refused_naming_flags() -> None:
    for payload in (b"\x01z", b"\x01z\x01", b"\x01z\x01\x00"):
        with pytest.raises(ValueError, match="flags: truncated"):
            wire.unpack_snapshot(payload)


@pytest.mark.parametrize("arrived", [b"ab", b"abc"])
def test_snapshot_uid_cut_short_is_refused_naming_the_uid(arrived: bytes) -> None:
    # zone "z", settled, one uid of 4 bytes of which 2 (or all but the last) arrived.
    with pytest.raises(ValueError, match="uids: uid 0 truncated"):
        wire.unpack_snapshot(b"\x01z\x01\x00\x01\x04" + arrived)


@pytest.mark.parametrize("extra", [1, 2, 7])
def test_trailing_bytes_are_counted_in_the_message(extra: int) -> None:
    tail = b"\x00" * extra
    snapshot = wire.pack_snapshot("seat1.bet", True, [bytes(range(1, 5))])
    with pytest.raises(ValueError, match="uids: %d trailing bytes" % extra):
        wire.unpack_snapshot(snapshot + tail)
    birth = wire.pack_birth(3, "1", "PN5180", ["seat1.bet"])
    with pytest.raises(ValueError, match="zones: %d trailing bytes" % extra):
        wire.unpack_birth(birth + tail)
    with pytest.raises(ValueError, match="zone: %d trailing bytes" % extra):
        wire.unpack_snapshot_request(wire.pack_snapshot_request("seat1.bet") + tail)


def test_a_birth_longer_than_256_bytes_round_trips() -> None:
    # Offsets past 256 are not CPython's cached small ints: compared by value.
    zones = ["seat%d.%s" % (s, z) for s in range(1, 11) for z in ("cards", "bet", "stack")]
    payload = wire.pack_birth(9, "1.2.3", "PN5180", zones)
    assert len(payload) > 256
    assert wire.unpack_birth(payload) == (9, "1.2.3", "PN5180", zones)


@pytest.mark.parametrize("zone", ["", "seat1.bet", "board"])
def test_snapshot_request_round_trips_one_zone_or_every_zone(zone: str) -> None:
    payload = wire.pack_snapshot_request(zone)
    assert (payload == b"") is (zone == "")
    assert wire.unpack_snapshot_request(payload) == zone


def test_configure_over_max_payload_is_refused_naming_configure() -> None:
    with pytest.raises(ValueError, match="configure: 1025 bytes exceeds MAX_PAYLOAD"):
        wire.pack_configure(b"x" * (wire.MAX_PAYLOAD + 1))
    assert wire.pack_configure(b"x" * wire.MAX_PAYLOAD) == b"x" * wire.MAX_PAYLOAD


@pytest.mark.parametrize("seat", [0, 1, 254, 255])
def test_led_seat_numbers_0_to_255_are_sent(seat: int) -> None:
    assert wire.unpack_led(wire.pack_led(seat, "on")) == (seat, wire.LED_ON)


@pytest.mark.parametrize("seat", [-1, 256, 1000])
def test_led_seat_out_of_range_is_refused_naming_the_seat(seat: int) -> None:
    with pytest.raises(ValueError, match="seat: %d out of range 0..255" % seat):
        wire.pack_led(seat, "on")


def test_crc_of_an_empty_range_is_zero_on_both_code_paths() -> None:
    # data[start:end] with end=0 is empty; only a negative end means "to the end".
    assert wire.crc32(b"123456789", 0, 0) == 0 == wire.crc32_table(b"123456789", 0, 0)
    assert wire.crc32(b"123456789", 0, 9) == 0xCBF43926 == wire.crc32_table(b"123456789", 0, -1)


def test_reset_drops_the_partial_frame_and_the_next_frame_decodes() -> None:
    frame = wire.encode_frame(3, wire.MSG_ACK, 9, wire.pack_ack(0x0102))
    dec = wire.FrameDecoder()
    assert dec.feed(frame[:5]) == []
    dec.reset()
    assert dec.feed(frame) == [(3, wire.MSG_ACK, 9, b"\x01\x02")]
    assert (dec.errors(), dec.frames) == (0, 1)


def test_led_mode_constants_are_the_documented_numbers() -> None:
    # docs/wire-protocol.md, CMD_LED: 0 off, 1 on, 2 blink, 3 pulse.
    modes = (wire.LED_OFF, wire.LED_ON, wire.LED_BLINK, wire.LED_PULSE)
    assert modes == (0, 1, 2, 3)
    assert [wire.pack_led(1, name)[1] for name in wire.LED_MODE_NAMES] == list(modes)


def test_broadcast_is_node_address_0() -> None:
    # docs/wire-protocol.md: node 0 is the Pi as sender and every node as target.
    frame = wire.encode_frame(wire.BROADCAST, wire.MSG_CMD_PING, 1)
    assert wire.BROADCAST == 0
    assert wire.FrameDecoder().feed(frame) == [(0, wire.MSG_CMD_PING, 1, b"")]


@pytest.mark.parametrize(("node", "msg_type", "field"), [(256, 1, "node"), (-1, 1, "node"),
                                                         (1, 256, "msg_type"),
                                                         (1, -1, "msg_type")])
def test_header_byte_out_of_range_is_refused_naming_the_field(node: int, msg_type: int,
                                                             field: str) -> None:
    bad = node if field == "node" else msg_type
    with pytest.raises(ValueError, match="%s: %d out of range 0..255" % (field, bad)):
        wire.encode_frame(node, msg_type, 0)


@pytest.mark.parametrize("decoded", [b"\x05", b"\x02\x03\x01", bytes(range(2, 12))])
def test_a_frame_shorter_than_header_and_crc_is_a_framing_error(decoded: bytes) -> None:
    # 1 to 10 bytes after COBS decoding: too short to hold a header and a CRC.
    dec = wire.FrameDecoder()
    assert dec.feed(bytes((len(decoded) + 1,)) + decoded + b"\x00") == []
    assert (dec.framing_errors, dec.errors(), dec.frames) == (1, 1, 0)


def test_a_long_snapshot_missing_its_last_uid_is_refused_naming_it() -> None:
    # 61 UIDs declared, 60 present: past 256 bytes, offsets are compared by value.
    payload = bytearray(wire.pack_snapshot("z", True, [bytes((1, 2, 3, k)) for k in range(60)]))
    assert len(payload) > 256
    payload[3:5] = b"\x00\x3d"  # count 61
    with pytest.raises(ValueError, match="uids: truncated at uid 60 of 61"):
        wire.unpack_snapshot(bytes(payload))


@pytest.mark.parametrize(("given", "sent"), [(-5, 0), (0, 0), (70_000, 0xFFFF)])
def test_heartbeat_scans_per_second_saturate_at_both_ends(given: int, sent: int) -> None:
    assert wire.unpack_heartbeat(wire.pack_heartbeat(1, given, 2, 3)) == (1, sent, 2, 3)


def test_errors_adds_up_every_kind_of_dropped_frame() -> None:
    dec = wire.FrameDecoder()
    good = bytearray(wire.encode_frame(1, wire.MSG_ACK, 1, b"\x00\x01"))
    assert dec.feed(b"\x02\x05\x00") == []  # too short: a framing error
    good[1] = 1  # the header's first byte (after the COBS code byte): version 1
    assert dec.feed(bytes(good)) == []
    assert (dec.framing_errors, dec.version_errors) == (1, 1)
    assert dec.errors() == 2


@pytest.mark.parametrize("mode", [4, 9])
def test_led_with_an_unknown_mode_names_that_mode(mode: int) -> None:
    # Modes 0-3 exist (LED_OFF..LED_PULSE); 4 is the first unknown one.
    with pytest.raises(ValueError, match="mode: %d unknown" % mode):
        wire.unpack_led(bytes((1, mode)))


@pytest.mark.parametrize(("start", "end"), [(0, 4), (2, 9), (3, 5)])
def test_table_crc_of_a_slice_is_the_crc_of_those_bytes(start: int, end: int) -> None:
    data = b"123456789"
    assert wire.crc32_table(data, start, end) == zlib.crc32(data[start:end])
    assert wire.crc32(data, start, end) == zlib.crc32(data[start:end])
