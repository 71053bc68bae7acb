"""Protocol 2 additions of issue #28: BIRTH faults, SNAPSHOT parts and the incomplete flag."""

import pytest
import wire


def test_birth_faults_round_trip_and_a_birth_without_faults_has_none() -> None:
    faults = [("", "reader PN5180: not answering"), ("seat3.cards", "channel 8: 0..3")]
    payload = wire.pack_birth(2, "0.1.0", "PN5180", ["seat1.bet"], faults)
    assert wire.unpack_birth(payload) == (2, "0.1.0", "PN5180", ["seat1.bet"])
    assert wire.unpack_birth_faults(payload) == faults
    plain = wire.pack_birth(2, "0.1.0", "PN5180", ["seat1.bet"])
    assert wire.unpack_birth_faults(plain) == [] and len(plain) < len(payload)
    with pytest.raises(ValueError, match="faults: 1 trailing bytes"):
        wire.unpack_birth(payload + b"\x00")


@pytest.mark.parametrize("n", [0, 1, 32, 33, 64, 150, 255])
def test_snapshot_parts_carry_every_uid_once_in_order(n: int) -> None:
    uids = [b"\xe0\x04" + i.to_bytes(6, "big") for i in range(n)]
    parts = wire.snapshot_parts("seat1.stack", True, uids, incomplete=True, gen=300)
    decoded = [wire.unpack_snapshot_part(p) for p in parts]
    assert [u for d in decoded for u in d[2]] == uids
    assert all(d[1] and d[3] for d in decoded)  # settled and incomplete on every part
    assert all(len(d[2]) <= wire.SNAPSHOT_PART_UIDS for d in decoded)
    if n <= wire.SNAPSHOT_PART_UIDS:
        assert decoded[0][4] is None and wire.unpack_snapshot(parts[0])[2] == uids
    else:
        assert [d[4] for d in decoded] == [(300 & 0xFF, k, len(parts)) for k in range(len(parts))]
        with pytest.raises(ValueError, match="part"):
            wire.unpack_snapshot(parts[0])  # a part is never taken for the whole zone
    assert max(wire.encoded_size(len(p)) for p in parts) <= 330  # 28.6 ms at 115,200 Bd


def test_a_part_index_past_its_count_is_rejected() -> None:
    bad = b"\x03bet" + bytes([0x04, 1, 3, 3]) + b"\x00\x00"
    with pytest.raises(ValueError, match="part: index 3 not below count 3"):
        wire.unpack_snapshot_part(bad)
