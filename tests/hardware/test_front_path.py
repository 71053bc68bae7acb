"""The quick paths of a frame's way in (issue #26): the COBS undo of frames without a 0xFF
byte (hardware/frames.py) and the reading of a whole snapshot (hardware/snapshot_join.py)
give exactly what the firmware's codec gives, on good, corrupted and cut payloads."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.firmware import wire
from pokertable.hardware.frames import HostFrameDecoder
from pokertable.hardware.snapshot_join import SnapshotJoiner, _whole_snapshot

# Bytes a card or chip frame is made of: zeros (UIDs and u16 high bytes), small values, and
# 0xFF, which sends a frame down the block-at-a-time path.
_DENSE = st.one_of(
    st.lists(st.sampled_from([0, 0, 0, 1, 2, 8, 0xE0, 0xFE]), max_size=300).map(bytes),
    st.lists(st.sampled_from([0, 0, 0, 1, 2, 8, 0xE0, 0xFE, 0xFF]), max_size=300).map(bytes),
)
_UIDS = st.lists(st.sampled_from(wire.UID_LENGTHS).flatmap(lambda n: st.binary(min_size=n,
                                                                               max_size=n)),
                 max_size=40)
_ZONES = st.sampled_from(["seat1.cards", "seat3.bet", "board", "muck", "enroll", "x", "", "é"])


_DAMAGE = st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255),
                             st.sampled_from(["flip", "drop", "insert", "zero", "cut"])),
                   max_size=5)


def _damage(data: bytearray, at: int, value: int, how: str) -> None:
    """Flip, drop, insert or zero the byte at ``at`` (modulo the length), or cut there."""
    at %= len(data)
    if how == "flip":
        data[at] ^= value or 1
    elif how == "drop":
        del data[at]
    elif how == "insert":
        data.insert(at, value)
    elif how == "zero":
        data[at] = 0
    else:
        del data[at:]


@st.composite
def _snapshot_payloads(draw: st.DrawFn) -> bytes:
    """Payloads from the packer (one part or numbered parts), then maybe damaged."""
    uids = draw(_UIDS)
    zone, settled, incomplete = draw(_ZONES), draw(st.booleans()), draw(st.booleans())
    if len(uids) <= wire.SNAPSHOT_PART_UIDS and draw(st.booleans()):
        payload = bytearray(wire.pack_snapshot(zone, settled, uids, incomplete))
    else:
        parts = wire.snapshot_parts(zone, settled, uids, incomplete, draw(st.integers(0, 255)))
        payload = bytearray(draw(st.sampled_from(parts)))
    for at, value, how in draw(_DAMAGE)[:2]:
        if payload:
            _damage(payload, at, value, how)
    return bytes(payload)


Answer = tuple[str, bool, list[bytes], bool, tuple[int, int, int] | None]


def _wire_answer(payload: bytes) -> Answer | str:
    try:
        return wire.unpack_snapshot_part(payload)
    except ValueError as exc:
        return f"ValueError: {exc}"


@settings(max_examples=600)
@given(st.one_of(_snapshot_payloads(), st.binary(max_size=80), _DENSE))
def test_a_whole_snapshot_reads_as_the_wire_codec_reads_it(payload: bytes) -> None:
    expected = _wire_answer(payload)
    quick = _whole_snapshot(payload)
    if isinstance(expected, tuple) and expected[4] is None:
        assert quick == expected[:4]  # every good one-part snapshot takes the quick path
    else:
        assert quick is None  # a part, or a payload the codec rejects with its message


@settings(max_examples=300)
@given(st.lists(st.tuples(st.integers(0, 3), _snapshot_payloads()), max_size=12))
def test_the_joiner_answers_and_raises_as_before(feeds: list[tuple[int, bytes]]) -> None:
    """Against the joiner as it was (every payload through ``wire``), kept here."""
    joiner = SnapshotJoiner()
    pending: dict[tuple[int, str], tuple[int, int, dict[int, list[bytes]]]] = {}
    dropped = 0
    for node, payload in feeds:
        expected = _wire_answer(payload)
        if isinstance(expected, str):
            try:
                joiner.feed(node, payload)
            except ValueError as exc:
                assert f"ValueError: {exc}" == expected
            else:
                raise AssertionError("a bad payload was read")
            continue
        zone, settled, uids, incomplete, part = expected
        key = (node, zone)
        answer: tuple[str, bool, list[bytes], bool] | None
        if part is None:
            dropped += pending.pop(key, None) is not None
            answer = (zone, settled, uids, incomplete)
        else:
            gen, index, count = part
            had = pending.get(key)
            if had is not None and had[0] != gen and (gen - had[0]) & 0xFF >= 128:
                dropped += 1
                answer = None
            else:
                if had is None or had[0] != gen or had[1] != count:
                    dropped += had is not None
                    had = pending[key] = (gen, count, {})
                had[2][index] = uids
                answer = None
                if len(had[2]) >= count:
                    del pending[key]
                    answer = (zone, settled, [u for k in range(count) for u in had[2][k]],
                              incomplete)
        assert joiner.feed(node, payload) == answer
        assert joiner.dropped == dropped


_FRAMES = st.lists(st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 0xFFFF),
                             _DENSE), min_size=1, max_size=5)


@settings(max_examples=400)
@given(_FRAMES, _DAMAGE, st.lists(st.integers(0, 10_000), max_size=6))
def test_zero_dense_frames_decode_as_the_firmware_decodes_them(
    items: list[tuple[int, int, int, bytes]], damage: list[tuple[int, int, str]],
    cuts: list[int],
) -> None:
    """Frames full of zeros (long chains of COBS codes), damaged, in cut-up chunks."""
    stream = bytearray(b"".join(wire.encode_frame(*f) for f in items))
    for at, value, how in damage:
        if stream:
            _damage(stream, at, value, how)
    firmware, host = wire.FrameDecoder(), HostFrameDecoder()
    start = 0
    for end in [*sorted(c % (len(stream) + 1) for c in cuts), len(stream)]:
        chunk = bytes(stream[start:end])
        start = max(start, end)
        assert host.feed(chunk) == firmware.feed(chunk)
        assert vars(host) | {"_pending": None, "_buf": None, "_n": None} == vars(
            firmware) | {"_pending": None, "_buf": None, "_n": None}
    if not damage:
        assert host.frames == len(items)
