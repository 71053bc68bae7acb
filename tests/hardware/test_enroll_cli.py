"""``pokertable enroll`` end to end over a real pty, the node played by CPython's wire codec."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from hw_testkit import Pty

from pokertable.controller.cli import main
from pokertable.firmware import wire
from pokertable.hardware.enroll import DECK_ORDER
from pokertable.hardware.registry import Chip, TagRegistry


class PadNode:
    """A node with one zone, the enrollment pad; every snapshot is a settled full view."""

    def __init__(self, pty: Pty) -> None:
        self.pty, self.seq = pty, 0

    def send(self, msg_type: int, payload: bytes) -> None:
        self.pty.write(wire.encode_frame(4, msg_type, self.seq, payload))
        self.seq += 1

    def pad(self, uids: list[bytes]) -> None:
        self.send(wire.MSG_SNAPSHOT, wire.pack_snapshot("enroll", True, uids))


def run_cli(argv: list[str]) -> tuple[threading.Thread, list[int]]:
    result: list[int] = []
    thread = threading.Thread(target=lambda: result.append(main(argv)), daemon=True)
    thread.start()
    return thread, result


def test_enroll_chips_stores_the_stable_pile(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tags.sqlite"
    thread, result = run_cli(["enroll", "chips", "--denomination", "500", "--chip-set", "club",
                              "--colour", "purple", "--registry", str(db), "--port", pty.path,
                              "--stable-ms", "1000", "--timeout-s", "20"])
    node = PadNode(pty)
    time.sleep(0.3)  # the port opens
    node.send(wire.MSG_BIRTH, wire.pack_birth(4, "1.0", "sim", ["enroll"]))
    chips = [bytes.fromhex(f"e00406000000{n:04x}") for n in range(25)]
    node.pad(chips[:10])  # the pile is still being built
    time.sleep(0.1)
    node.pad(chips)
    thread.join(20)
    assert result == [0]
    registry = TagRegistry(db)
    stored = registry.chips("club")
    assert len(stored) == 25
    assert {c.denomination for c in stored} == {500} and {c.colour for c in stored} == {"purple"}
    registry.close()
    assert "enrolled 25 chips of 500" in capsys.readouterr().out


def test_enroll_deck_in_documented_order(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tags.sqlite"
    thread, result = run_cli(["enroll", "deck", "--deck-id", "red-1", "--registry", str(db),
                              "--port", pty.path, "--stable-ms", "30", "--timeout-s", "60"])
    node = PadNode(pty)
    time.sleep(0.3)
    cards = [bytes.fromhex(f"e00407000000{n:04x}") for n in range(52)]
    printed = ""
    for code, uid in zip(DECK_ORDER, cards, strict=True):
        node.pad([uid])
        deadline = time.monotonic() + 10
        while f"{code} = {uid.hex()}" not in printed and time.monotonic() < deadline:
            time.sleep(0.01)  # like the dealer: wait for "take it away"
            printed += capsys.readouterr().out
        node.pad([])
    thread.join(30)
    assert result == [0]
    registry = TagRegistry(db)
    deck = registry.deck("red-1")
    assert [c.code for c in deck] == list(DECK_ORDER)
    assert [c.uid for c in deck] == [u.hex() for u in cards]
    assert not isinstance(registry.lookup(cards[0]), Chip)
    registry.close()


def test_enroll_times_out_with_a_clear_message(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["enroll", "chips", "--denomination", "25", "--registry",
                 str(tmp_path / "t.sqlite"), "--port", pty.path, "--timeout-s", "0.3"])
    assert code == 1
    assert "timeout" in capsys.readouterr().err
