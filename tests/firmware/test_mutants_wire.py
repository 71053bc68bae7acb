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
