"""Fuzzed frames at small size (issue #12): zero false accepts, no crash, no hang.

The full size (1,000,000 frames) is bench/frame_fuzz.py, run by bench/link_drills.py; the
figures are in docs/reliability.md, "Reader link".
"""

from __future__ import annotations

from pokertable.bench.frame_fuzz import fuzz_frames, mutate
from pokertable.firmware import wire


def test_twenty_thousand_mutated_frames_no_false_accept_no_crash() -> None:
    figures = fuzz_frames(20_000, seed=7, with_peer=False)
    assert figures["false_accepts"] == 0
    assert figures["crashes"] == 0
    mutated = figures["frames"] - figures["unchanged_skipped"]
    assert mutated > 19_000
    # Nearly every mutated frame is refused (the rest decode to the very frame sent,
    # e.g. a 0x00 inserted in front of it).
    assert figures["decoder_rejects"] >= mutated * 0.95


def test_protocol_1_peer_really_accepted_wrong_frames() -> None:
    """The drill has teeth: the same mutations through the old format do get through."""
    figures = fuzz_frames(3_000, seed=7, with_peer=True)
    assert figures["peer_protocol_1_false_accepts"] > 0
    assert figures["false_accepts"] == 0


def test_mutate_keeps_one_delimiter_at_the_end() -> None:
    import random

    rng = random.Random(3)
    frame = wire.encode_frame(1, wire.MSG_ACK, 5, wire.pack_ack(9))
    for _ in range(200):
        assert mutate(frame, rng).endswith(b"\x00")
