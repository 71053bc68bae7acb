"""The Pi's frame decoder (hardware/frames.py) decodes exactly what the firmware's
``wire.FrameDecoder`` decodes: the same frames, the same counted errors, chunk by chunk, on
random, corrupted and cut-up byte streams."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.firmware import wire
from pokertable.hardware.frames import HostFrameDecoder

COUNTERS = ("frames", "crc_errors", "framing_errors", "length_errors", "oversize_errors",
            "version_errors")

frames = st.tuples(
    st.integers(0, 255),
    st.integers(0, 255),
    st.integers(0, 0xFFFF),
    st.one_of(
        st.binary(max_size=40),
        st.binary(max_size=wire.MAX_PAYLOAD),
        # runs of 254 non-zero bytes and more: COBS's full blocks (code 0xFF)
        st.builds(lambda n, b: bytes([b]) * n, st.integers(250, wire.MAX_PAYLOAD),
                  st.integers(1, 255)),
    ),
)


def _counters(decoder: object) -> dict[str, int]:
    return {name: getattr(decoder, name) for name in COUNTERS}


def _same_in_chunks(stream: bytes, cuts: list[int]) -> list[tuple[int, int, int, bytes]]:
    """Feed both decoders the stream cut at ``cuts``; they agree after every chunk."""
    firmware, host = wire.FrameDecoder(), HostFrameDecoder()
    found: list[tuple[int, int, int, bytes]] = []
    start = 0
    for end in [*sorted(c % (len(stream) + 1) for c in cuts), len(stream)]:
        chunk = stream[start:end]
        start = max(start, end)
        expected = firmware.feed(chunk)
        assert host.feed(chunk) == expected
        assert _counters(host) == _counters(firmware)
        assert host.errors() == firmware.errors()
        found += expected
    return found


@st.composite
def corrupted_streams(draw: st.DrawFn) -> bytes:
    """Good frames with bytes flipped, dropped, inserted or cut, noise and stray 0x00s."""
    stream = bytearray()
    for f in draw(st.lists(frames, max_size=5)):
        stream += draw(st.binary(max_size=8)) + wire.encode_frame(*f)
    for _ in range(draw(st.integers(0, 6))):
        if not stream:
            break
        at = draw(st.integers(0, len(stream) - 1))
        match draw(st.sampled_from(["flip", "drop", "insert", "zero"])):
            case "flip":
                stream[at] ^= draw(st.integers(1, 255))
            case "drop":
                del stream[at]
            case "insert":
                stream.insert(at, draw(st.integers(0, 255)))
            case "zero":
                stream[at] = 0
    return bytes(stream)


@given(st.lists(frames, min_size=1, max_size=6), st.lists(st.integers(0, 10_000), max_size=8))
def test_good_frames_come_out_of_both_alike_however_the_stream_is_cut(
    items: list[tuple[int, int, int, bytes]], cuts: list[int]
) -> None:
    stream = b"".join(wire.encode_frame(*f) for f in items)
    assert _same_in_chunks(stream, cuts) == items


@settings(max_examples=400)
@given(corrupted_streams(), st.lists(st.integers(0, 10_000), max_size=8))
def test_corrupted_streams_give_the_same_frames_and_errors(
    stream: bytes, cuts: list[int]
) -> None:
    _same_in_chunks(stream, cuts)


@settings(max_examples=200)
@given(st.binary(max_size=3000), st.lists(st.integers(0, 10_000), max_size=8))
def test_random_bytes_give_the_same_frames_and_errors(data: bytes, cuts: list[int]) -> None:
    _same_in_chunks(data, cuts)


@given(st.integers(wire.MAX_ENCODED - 2, wire.MAX_ENCODED + 2), st.lists(st.integers(0, 3000),
                                                                        max_size=4))
def test_runs_at_the_buffer_size_are_oversize_alike(length: int, cuts: list[int]) -> None:
    """A run of bytes as long as the firmware's buffer is a frame; one longer is oversize,
    whether it arrives whole or in pieces, and the next frame still decodes."""
    good = wire.encode_frame(1, wire.MSG_HEARTBEAT, 7, b"x")
    assert _same_in_chunks(b"\x01" * length + b"\x00" + good, cuts)[-1:] == [
        (1, wire.MSG_HEARTBEAT, 7, b"x")
    ]


def test_reset_drops_the_partial_frame_as_the_firmware_does() -> None:
    good = wire.encode_frame(2, wire.MSG_SNAPSHOT, 9, b"abc")
    firmware, host = wire.FrameDecoder(), HostFrameDecoder()
    for decoder in (firmware, host):
        decoder.feed(good[:5])
        decoder.reset()
    assert host.feed(good) == firmware.feed(good) == [(2, wire.MSG_SNAPSHOT, 9, b"abc")]
    assert _counters(host) == _counters(firmware)
