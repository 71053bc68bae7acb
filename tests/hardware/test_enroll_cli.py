"""``pokertable enroll`` end to end over a real pty, the node played by CPython's wire codec.

The node speaks only once the CLI says its port is open (opening a port flushes what
was written before), and each step waits for the CLI's answer: never for a guessed time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from hw_testkit import Pty

from pokertable.controller.cli import main
from pokertable.firmware import wire
from pokertable.hardware.enroll import DECK_ORDER, DECK_ORDERS
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


STALL_S = 120.0  # the last resort: the CLI said nothing new for this long


def output_waiter(capsys: pytest.CaptureFixture[str]) -> Callable[[str], str]:
    """Returns ``wait(text)``: everything printed so far, once ``text`` is among it."""
    printed = [""]

    def wait(text: str) -> str:
        deadline = time.monotonic() + STALL_S
        while text not in printed[0]:
            assert time.monotonic() < deadline, f"the CLI never printed {text!r}: {printed[0]}"
            time.sleep(0.01)  # polls the captured output; the condition is the text
            printed[0] += capsys.readouterr().out
        return printed[0]

    return wait


def test_enroll_chips_stores_the_stable_pile(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tags.sqlite"
    thread, result = run_cli(["enroll", "chips", "--denomination", "500", "--chip-set", "club",
                              "--colour", "purple", "--registry", str(db), "--port", pty.path,
                              "--stable-ms", "1000", "--timeout-s", "300"])
    wait = output_waiter(capsys)
    node = PadNode(pty)
    wait(f"port {pty.path} open")
    node.send(wire.MSG_BIRTH, wire.pack_birth(4, "1.0", "sim", ["enroll"]))
    chips = [bytes.fromhex(f"e00406000000{n:04x}") for n in range(25)]
    node.pad(chips[:10])  # the pile is still being built
    wait("10 chips on the pad")
    node.pad(chips)
    printed = wait("enrolled 25 chips of 500")
    thread.join(STALL_S)
    assert result == [0]
    registry = TagRegistry(db)
    stored = registry.chips("club")
    assert len(stored) == 25
    assert {c.denomination for c in stored} == {500} and {c.colour for c in stored} == {"purple"}
    registry.close()
    assert "25 chips on the pad" in printed


@pytest.mark.parametrize("order", ["new-deck", "suits"])
def test_enroll_deck_in_the_order_it_comes(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str], order: str
) -> None:
    db = tmp_path / "tags.sqlite"
    thread, result = run_cli(["enroll", "deck", "--deck-id", "red-1", "--registry", str(db),
                              "--port", pty.path, "--stable-ms", "30", "--timeout-s", "600",
                              "--order", order])
    wait = output_waiter(capsys)
    node = PadNode(pty)
    wait(f"port {pty.path} open")
    cards = [bytes.fromhex(f"e00407000000{n:04x}") for n in range(52)]
    expected = DECK_ORDERS[order]
    for code, uid in zip(expected, cards, strict=True):
        node.pad([uid])
        wait(f"{code} = {uid.hex()}")  # like the dealer: wait for "take it away"
        node.pad([])
    wait("enrolled deck red-1: 52 cards")
    thread.join(STALL_S)
    assert result == [0]
    registry = TagRegistry(db)
    deck = registry.deck("red-1")
    # The registry lists a deck by suit; each tag must carry the card laid when it was read.
    assert {c.code: c.uid for c in deck} == {
        code: uid.hex() for code, uid in zip(expected, cards, strict=True)
    }
    assert not isinstance(registry.lookup(cards[0]), Chip)
    registry.close()


def test_enroll_times_out_with_a_clear_message(
    pty: Pty, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["enroll", "chips", "--denomination", "25", "--registry",
                 str(tmp_path / "t.sqlite"), "--port", pty.path, "--timeout-s", "0.3"])
    assert code == 1
    assert "timeout" in capsys.readouterr().err


def test_enroll_on_a_port_that_does_not_exist_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "ttyUSB9")
    code = main(["enroll", "chips", "--denomination", "25", "--registry",
                 str(tmp_path / "t.sqlite"), "--port", missing])
    assert code == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith(f"enroll: port {missing}: cannot open it:")
    assert "No such file or directory" in err and "/dev/serial/by-id/" in err


def test_new_deck_order_is_the_usual_makers_order() -> None:
    """A new US Playing Card Co. deck spread face up: A-K spades, A-K diamonds, K-A clubs,
    K-A hearts; from the top face down it is the reverse."""
    new = DECK_ORDERS["new-deck"]
    assert new == DECK_ORDER
    assert new[:2] == ("As", "2s") and new[12:15] == ("Ks", "Ad", "2d")
    assert new[25:28] == ("Kd", "Kc", "Qc") and new[38:40] == ("Ac", "Kh")
    assert new[-1] == "Ah" and len(set(new)) == 52
    assert DECK_ORDERS["face-down"] == new[::-1]
