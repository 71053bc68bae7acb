"""Chip and declaration interpretation: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/interpretation/ got past the
interpretation tests (docs/testing.md, "Mutation testing"); through ``InterpretedHand``.
"""

from __future__ import annotations

from pokertable.controller.interpretation import ChipItem, ChipMotion
from tests.interpretation.helpers import options, postflop, push, ruled, run, say


def test_T24_RP22_a_bounty_chip_marked_with_a_value_adds_nothing_to_the_push() -> None:
    # Facing 1,000, seat 2 pushes a 1,000 chip and a bounty chip printed "5000": the bounty
    # is no money (RP-22), so calling leaves no change and all in adds 19,000.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = hand.step(ChipMotion(2, (ChipItem(1000), ChipItem(5000, "bounty"))))
    assert [r.code for r in out.alerts] == ["non_value_item"]
    assert options(ruled(out)) == {
        "call": ("call", 1000, 0, 0),
        "all_in": ("all_in", 20000, 0, 19000),
    }
    assert hand.state.seat(2).bet == 0  # waits for the floor


def test_TDA24_40_a_bare_amount_equal_to_his_stack_is_all_in_not_an_undercall() -> None:
    # Seat 2 has 500 facing a bet of 1,000 and says "500": that is every chip he has, a call
    # all in; the dealer is not told it is an undercall.
    hand = postflop({1: 20000, 2: 500, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = run(hand, say(2, "amount", 500))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.code) == ("all_in", 500, "call_all_in")
    assert "all his chips" in reading.text and "undercall" not in reading.text


def test_TDA24_45_pushing_every_chip_is_announced_as_all_in() -> None:
    # Seat 2 pushes all 5,000 (five 1,000s) over a bet of 1,000: the dealer hears "all in
    # for 5,000", not "raises to 5,000".
    hand = postflop({1: 20000, 2: 5000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = run(hand, push(2, 1000, 1000, 1000, 1000, 1000))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.code) == ("all_in", 5000, "all_in")
    assert reading.text.startswith("seat 2 is all in for 5000"), reading.text
