"""Chip and declaration interpretation: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/interpretation/ got past the
interpretation tests (docs/testing.md, "Mutation testing"); through ``InterpretedHand``.
"""

from __future__ import annotations

from pokertable.controller.events import ActionKind, PlayerAction
from pokertable.controller.interpretation import ChipItem, ChipMotion, FloorDecision, interpret
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.model import SeatStatus
from pokertable.controller.profiles import load_profile
from pokertable.controller.rules import TDA_2024
from tests.interpretation.helpers import options, postflop, preflop, push, ruled, run, say


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


def test_TDA24_51C_an_undercaller_owing_one_chip_still_starts_a_sequence() -> None:
    # A game with 1 chips: seat 1 bets 10, seat 2 puts 9 (a full call against the opening
    # bet, R51-B: he owes 1), then seat 3 puts 8 before seat 2's last chip arrives: an
    # undercall in sequence (R51-C), however little the first undercaller still owes.
    hand = postflop({1: 200, 2: 200, 3: 200}, button=3, big=2)
    hand, out = run(hand, say(1, "bet", 10), push(2, 5, 1, 1, 1, 1))
    assert (ruled(out).code, ruled(out).add) == ("undercall_full_call", 1)
    _, out = hand.step(push(3, 5, 1, 1, 1))
    assert [(r.seat, r.rule_ids) for r in out.rulings if r.code == "undercall_sequence"] == [
        (2, ("TDA2024-51C", "TDA2024-51B"))]
    assert ruled(out).floor is not None and ruled(out).seat == 3


def test_ACE61_a_call_of_exactly_his_stack_is_no_overbet() -> None:
    # ACE R61 makes chips pushed beyond a declared call a raise. Seat 3 has exactly the
    # 600 to call: the dealer enters his call, then his 600 arrive. Nothing is beyond the
    # call (he has nothing left to raise with), so no raise is tried and nothing alerts.
    hand = preflop({1: 20000, 2: 20000, 3: 600, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600, rules=load_profile("ace-league"))
    hand, _ = run(hand, PlayerAction(3, ActionKind.CALL))
    hand, out = hand.step(push(3, 500, 100))
    assert out.alerts == () and ruled(out).code != "overbet_raise"
    me = hand.state.seat(3)
    assert (me.bet, me.status, hand.state.call_to, hand.state.action_on) == (
        600, SeatStatus.ALL_IN, 600, 4)


def test_TDA24_51B_a_floor_decision_after_the_action_moved_on_is_not_applied() -> None:
    # Seat 3 undercalls a raise multi-way: the TD is to choose full call or forfeit. Before
    # the choice arrives seat 3's hand is killed at the table (the irregularities layer, as
    # the session runs it) and the action passes back to seat 1. The full call chosen for
    # seat 3 is stale: it is refused and the hand is left as it is.
    hand = postflop({1: 50000, 2: 50000, 3: 50000}, button=3, big=2000)
    hand, out = run(hand, say(1, "bet", 2000), say(2, "raise", 8000), push(3, 1000, 1000))
    pending = ruled(out).floor
    assert pending is not None and pending.seat == 3
    killed, _ = kill_hand(hand.state, 3, TDA_2024, refund_uncalled=True)
    assert killed.action_on == 1
    state, _, out = interpret(killed, hand.pending, FloorDecision(pending.ruling_id, "full_call"))
    assert [r.code for r in out.alerts] == ["floor_stale"]
    assert state is killed
