"""Chip and declaration interpretation: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/interpretation/ got past the
interpretation tests (docs/testing.md, "Mutation testing"); through ``InterpretedHand``.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import SeatStatus, Street, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import (
    ChipItem,
    ChipMotion,
    CountErrorNoticed,
    FloorDecision,
    PotCountGiven,
    Precedence,
    PriorChipsPulled,
    interpret,
)
from pokertable.controller.interpretation.events import chip_value
from pokertable.controller.interpretation.late import ShortBetNoticed
from pokertable.controller.interpretation.zones import Pending, SeatZone
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.rules import TDA_2024
from pokertable.controller.rules.profiles import load_profile
from pokertable.controller.table.hands import interpret_at_table
from tests.interpretation.helpers import (
    options,
    postflop,
    preflop,
    pull,
    push,
    ruled,
    run,
    say,
)
from tests.irregularities.table_driver import Table, setup


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


def test_TDA24_40C_the_big_blind_saying_his_blind_amount_on_his_option_checks() -> None:
    # Everyone limped; the big blind (200) says "200": an amount alone is what pushing it
    # would be, and 200 on his option adds nothing: a check, not a raise.
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "call"), say(1, "call"))
    _, out = hand.step(say(2, "amount", 200))
    assert (ruled(out).action, ruled(out).total, ruled(out).rule_ids) == (
        ActionKind.CHECK, 200, ("TDA2024-40C",))


def test_TDA24_51C_the_forfeit_offered_in_sequence_is_the_undercall_beyond_his_blind() -> None:
    # Seat 3 undercalls the big blind with 150 (full call owed); seat 4 folds; the small
    # blind (100 in) adds 50: an undercall in sequence. Forfeiting means the 50 he added,
    # not his blind as well.
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=100, big=200)
    hand, _ = run(hand, push(3, 100, 25, 25), say(4, "fold"))
    _, out = hand.step(push(1, 25, 25))
    floor = ruled(out).floor
    assert floor is not None and "TDA2024-51C" in floor.rule_ids
    fold = next(o for o in floor.options if o.name == "forfeit_fold")
    assert (fold.action, fold.total, fold.returned, fold.forfeit) == (ActionKind.FOLD, 100, 0, 50)


@pytest.mark.parametrize(("street", "when"), [(Street.FLOP, "the next card is out"),
                                              (Street.RIVER, "showdown has started")])
def test_TDA24_52A_a_short_bet_noticed_too_late_says_why_it_stands(street: Street,
                                                                   when: str) -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, street=street)
    _, out = hand.step(ShortBetNoticed(1))
    assert [r.code for r in out.alerts] == ["short_bet_stands"]
    assert f"({when}, or none was let stand)" in out.alerts[0].text


def test_TDA24_51C_a_full_call_in_between_ends_the_sequence() -> None:
    # Seat 2 undercalls (owes 1), seat 3 calls in full, then seat 4 undercalls: not an
    # undercall in sequence (only folds lie between sequenced undercalls); seat 4's own
    # undercall against the opening bet is a full call (R51-B).
    hand = postflop({1: 200, 2: 200, 3: 200, 4: 200}, button=4, big=2)
    hand, _ = run(hand, say(1, "bet", 10), push(2, 5, 1, 1, 1, 1), say(3, "call"))
    _, out = hand.step(push(4, 5, 1, 1, 1))
    assert (ruled(out).code, ruled(out).add) == ("undercall_full_call", 2)
    assert "undercall_sequence" not in [r.code for r in out.rulings]


def test_TDA24_51B_forfeiting_every_chip_of_the_undercall_returns_nothing() -> None:
    # Add. 51 Ex 1: 2,000 pushed facing 8,000 multi-way; the TD rules forfeit and fold:
    # all 2,000 go to the pot, none back.
    hand = postflop({1: 50000, 2: 50000, 3: 50000}, button=3, big=2000)
    hand, out = run(hand, say(1, "bet", 2000), say(2, "raise", 8000), push(3, 1000, 1000))
    floor = ruled(out).floor
    assert floor is not None
    _, out = hand.step(FloorDecision(floor.ruling_id, "forfeit_fold"))
    assert (ruled(out).action, ruled(out).forfeit, ruled(out).returned) == (
        ActionKind.FOLD, 2000, 0)
    assert ruled(out).text.endswith("forfeits 2000 and folds; 0 returned")


def test_TDA24_59A_a_fold_chosen_for_conditional_words_forfeits_nothing() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = hand.step(say(2, "conditional"))
    floor = ruled(out).floor
    assert floor is not None and "fold_0" in options(ruled(out))
    _, out = hand.step(FloorDecision(floor.ruling_id, "fold_0"))
    assert (ruled(out).action, ruled(out).forfeit) == (ActionKind.FOLD, 0)
    assert ruled(out).text == f"floor ruling {floor.ruling_id}: ruled a fold"


def test_TDA24_40A_change_from_a_verbal_call_is_recorded_as_due_back() -> None:
    # "Call" (600) then 1,100 pushed: 500 is change. The zone records it, so the dealer
    # taking it back is making change, not the player pulling back chips (R46).
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, out = run(hand, say(3, "call"), push(3, 1000, 100))
    assert (ruled(out).code, ruled(out).returned) == ("paid", 500)
    assert hand.pending.zone(3).change == 500


def test_TDA24_64_unknown_chips_are_named_in_the_alert() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    _, out = hand.step(ChipMotion(1, (ChipItem(100, "weird"),)))
    assert [r.code for r in out.alerts] == ["unknown_chip"]
    assert "kind='weird'" in out.alerts[0].text
    _, out = hand.step(ChipMotion(1, ()))
    assert "unknown tag or value (none)" in out.alerts[0].text


def test_TDA24_43B_raise_declared_to_no_more_than_the_call_is_a_minimum_raise() -> None:
    # Facing 1,000, "raise 500": 500 cannot be a raise total, so the word "raise" binds him
    # to the minimum raise, 2,000 (not an amount completed to the minimum).
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = hand.step(say(2, "raise", 500))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.code, reading.complete_to) == (
        ActionKind.RAISE, 2000, "raise", None)
    assert "'raise 500' cannot be a total above 1000" in reading.text


@pytest.mark.parametrize(("word", "why"), [("bet", "'bet' declared"),
                                           ("complete", "complete to the full bet")])
def test_fixed_limit_bet_and_complete_are_the_fixed_bet_for_their_own_reason(word: str,
                                                                          why: str) -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, variant=Variant.FLHE)
    _, out = hand.step(say(1, word))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.BET, 200)
    assert ruled(out).text == f"seat 1 bets to 200: {why}"
    assert ruled(out).rule_ids == ("TDA2024-51A",)  # no "raise" said: not R55-B


def test_TDA24_50A_chips_after_the_round_closed_are_refused_from_a_seat_that_owes_none() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "check"), say(2, "check"), say(3, "check"))
    _, out = hand.step(push(1, 100))
    assert [r.code for r in out.alerts] == ["no_betting_round"]


def test_TDA24_46B_prior_chips_pulled_back_facing_a_raise_still_allow_a_raise() -> None:
    # Seat 1 bet 1,000 in chips and pulls them back facing a raise to 3,000: he may not
    # fold (R46-B), but he may still call or raise.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000), push(2, 1000),
                  say(3, "raise", 3000))
    hand, out = hand.step(pull(1, 1000))
    assert [r.code for r in out.rulings] == ["pulled_back_bound"]
    _, out = hand.step(say(1, "raise", 9000))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.RAISE, 9000)
    assert out.alerts == ()


def test_TDA24_49_a_pot_count_given_to_one_seat_is_not_cited_on_another_seats_call() -> None:
    hand = postflop({1: 50000, 2: 50000, 3: 50000}, button=3, big=1000, pot=10500,
                    variant=Variant.PLO)
    hand, out = hand.step(PotCountGiven(1, 10500))  # the right count, to seat 1
    assert out.alerts == ()
    hand, _ = run(hand, say(1, "bet", 2000))
    _, out = hand.step(say(2, "call"))
    assert (ruled(out).action, ruled(out).rule_ids) == (ActionKind.CALL, ("TDA2024-51A",))


def test_TDA24_54_pot_on_the_big_blind_option_is_not_a_preflop_call_plus_pot() -> None:
    # Pot limit, everyone limped: the big blind's "pot" has no call in it, so R54-B (the
    # pre-flop pot counted with a call) is not cited.
    hand = preflop({1: 50000, 2: 50000, 3: 50000}, button=3, sb=1, bb=2, small=500, big=1000,
                   variant=Variant.PLO)
    hand, _ = run(hand, say(3, "call"), say(1, "call"))
    _, out = hand.step(say(2, "pot"))
    assert (ruled(out).action, ruled(out).total, ruled(out).rule_ids) == (
        ActionKind.RAISE, 4000, ("TDA2024-54",))


def test_TDA24_59A_options_for_conditional_words_count_the_blind_and_the_chips_out() -> None:
    # The big blind (200 in) has 300 more on its way (not settled) facing 600 and speaks
    # conditionally: a call adds only the last 100.
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "raise", 600), say(1, "fold"),
                  push(2, 100, 100, 100, settled=False))
    _, out = hand.step(say(2, "conditional"))
    assert options(ruled(out))["call_600"] == ("call", 600, 0, 100)


def test_TDA24_46B_a_chip_pulled_back_by_its_tag_is_that_chip() -> None:
    # Two 1,000 chips with tags "a" and "b"; "b" and then "a" are pulled back: each is found.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    chips = (ChipItem(1000, uid="a"), ChipItem(1000, uid="b"))
    hand, _ = run(hand, say(1, "bet", 2000), ChipMotion(1, chips), say(2, "raise", 5000))
    for uid in ("b", "a"):
        hand, out = hand.step(PriorChipsPulled(1, (ChipItem(1000, uid=uid),)))
        assert [r.code for r in out.rulings] == ["pulled_back_bound"], uid


def test_TDA24_46C_all_chips_that_exactly_call_are_an_accepted_call() -> None:
    # Seat 1 bet 2,000 in chips, faces 4,000, pulls one 1,000 back and pushes three: the
    # 4,000 now out are one bet, exactly the call (accepted, nothing corrected).
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 2000), push(1, 1000, 1000), say(2, "raise", 4000),
                  say(3, "fold"))
    hand, _ = hand.step(pull(1, 1000))
    _, out = hand.step(push(1, 1000, 1000, 1000))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.kind) == (
        ActionKind.CALL, 4000, RulingKind.ACCEPTED)


def test_TDA24_40C_an_amount_equal_to_the_call_is_a_call_by_R40C_alone() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = hand.step(say(2, "amount", 1000))
    assert (ruled(out).action, ruled(out).total, ruled(out).rule_ids) == (
        ActionKind.CALL, 1000, ("TDA2024-40C",))


def test_TDA24_55_check_facing_a_bet_then_all_in_is_held_to_a_call() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = hand.step(say(2, "check"))
    assert ruled(out).code == "check_facing_bet"
    _, out = hand.step(say(2, "all_in"))
    assert (ruled(out).action, ruled(out).total, ruled(out).rule_ids) == (
        ActionKind.CALL, 1000, ("TDA2024-55",))


def test_TDA24_52A_a_correction_the_street_cannot_replay_is_not_announced() -> None:
    # Seat 1's bet of 100 (minimum 200) was let stand and seat 2 raised to 300. Corrected
    # to 200, the raise to 300 is no longer a legal raise: the correction is refused and
    # nothing is said to be corrected.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = hand.step(PlayerAction(1, ActionKind.BET, 100, short_stands=True))
    hand, _ = hand.step(PlayerAction(2, ActionKind.RAISE, 300))
    after, out = hand.step(ShortBetNoticed(1))
    assert [r.code for r in out.rulings] == ["amend_failed"]
    assert after.state.seat(1).bet == 100 and after.state.call_to == 300


def test_TDA24_52A_a_bet_above_the_minimum_has_nothing_to_correct() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    after, out = hand.step(ShortBetNoticed(1))
    assert [r.code for r in out.alerts] == ["short_bet_none"]
    assert after.state.seat(1).bet == 1000


def test_TDA24_51C_a_raise_in_between_ends_the_sequence() -> None:
    # Seat 2 undercalls (owes 1), seat 3 raises, seat 4 puts 10 facing 20: his own
    # undercall of the raise (the TD's call, R51-B), not one in sequence with seat 2's.
    hand = postflop({1: 200, 2: 200, 3: 200, 4: 200}, button=4, big=2)
    hand, _ = run(hand, say(1, "bet", 10), push(2, 5, 1, 1, 1, 1), say(3, "raise", 20))
    _, out = hand.step(push(4, 5, 5))
    floor = ruled(out).floor
    assert floor is not None and floor.rule_ids == ("TDA2024-51B",)
    assert "undercall_sequence" not in [r.code for r in out.rulings]


def test_TDA24_56_chips_settling_within_the_motion_window_are_one_motion() -> None:
    # 500 and, 800 ms later (the window), 500 more: one motion of 1,000 calling 1,000.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = hand.step(push(2, 500, settled=False, at_ms=1000))
    assert out.rulings == ()
    _, out = hand.step(push(2, 500, at_ms=1800))
    assert (ruled(out).action, ruled(out).total, ruled(out).add) == (ActionKind.CALL, 1000, 0)


def test_TDA24_40A_chips_after_a_verbal_call_say_what_is_still_owed() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, _ = run(hand, say(3, "call"))
    hand, out = hand.step(push(3, 500))
    assert (ruled(out).code, ruled(out).text) == ("owed", "seat 3 still owes 100")
    _, out = hand.step(push(3, 100))
    assert (ruled(out).code, ruled(out).text) == ("paid", "seat 3's bet of 600 is complete")


def test_TDA24_45A_a_call_by_needed_chips_says_what_one_chip_less_leaves() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1200))
    _, out = hand.step(push(2, 1000, 1000))
    assert (ruled(out).action, ruled(out).returned) == (ActionKind.CALL, 800)
    assert ruled(out).text.endswith("(without one 1000 only 1000 is left)")


def test_a_seat_zone_owes_no_change_until_chips_come_back() -> None:
    # The session reads chips leaving a zone that is owed change as the dealer making change
    # (by_dealer), any other as the player pulling back (R46): no zone starts owed any.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    assert [hand.pending.zone(s).change for s in (1, 2, 3)] == [0, 0, 0]


def test_TDA24_46_prior_chips_paid_in_two_motions_are_not_read_as_pulled_back() -> None:
    # Seat 1 said "bet 1000" and paid it 500 at a time; facing 3,000 he adds 2,000: his
    # prior chips are all there (nothing pulled back), the new chips make the call.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 500), push(1, 500),
                  say(2, "raise", 3000), say(3, "fold"))
    _, out = hand.step(push(1, 1000, 1000))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.CALL, 3000)
    assert ruled(out).text == (
        "seat 1 calls 3000: every new chip is needed (without one 1000 only 2000 is left)")


def test_TDA24_53A_held_chips_become_the_bet_when_the_held_call_binds() -> None:
    # At the table the irregularities layer applies actions (R53): seat 4's chips pushed out
    # of turn are held; when seat 3 calls, seat 4's held call binds and his 100 are his bet,
    # no longer held (as the session runs it, through ``interpret_at_table``).
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2))
    table.deal()
    tracked, pending = table.t, Pending(street=table.t.hand.street)
    for event in (push(4, 100), say(3, "call")):
        tracked, pending, out = interpret_at_table(tracked, pending, event, TDA_2024)
    assert ("oot_binding", 4) in [(r.code, r.seat) for r in out.rulings]
    zone = pending.zone(4)
    assert (zone.held, chip_value(zone.prior), tracked.hand.seat(4).bet) == (False, 100, 100)


def test_TDA24_50B_a_second_floor_call_in_the_hand_gets_its_own_id() -> None:
    hand = postflop({1: 50000, 2: 50000, 3: 50000, 4: 50000}, button=4, big=2000)
    hand, out = run(hand, say(1, "bet", 2000), say(2, "raise", 8000), push(3, 1000, 1000))
    first = ruled(out).floor
    _, out = hand.step(say(4, "conditional"))
    second = ruled(out).floor
    assert first is not None and second is not None
    assert (first.ruling_id, second.ruling_id) == ("t/F1", "t/F2")


def test_TDA24_52B_EX1_a_count_error_that_stands_is_an_accepted_ruling() -> None:
    hand = postflop({s: 50000 for s in (1, 2, 3)}, button=3, big=1000, pot=10500,
                    variant=Variant.PLO)
    hand, _ = hand.step(PotCountGiven(1, 9500))
    _, out = run(hand, push(1, 5000, 1000, 1000, 1000, 1000, 500), say(2, "fold"),
                 say(3, "call"), CountErrorNoticed())
    assert [(r.code, r.kind) for r in out.rulings] == [
        ("count_error_stands", RulingKind.ACCEPTED)]


def test_TDA24_45B_chips_beyond_the_call_short_of_half_a_raise_are_a_corrected_call() -> None:
    # Facing 1,000: 1,000 + three 100s. One 100 can go (R45-B), 300 is under half the last
    # raise: a call, corrected, 300 back.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = hand.step(push(2, 1000, 100, 100, 100))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.returned, reading.kind) == (
        ActionKind.CALL, 1000, 300, RulingKind.CORRECTED)
    assert "one 100 can go and 1200 still calls 1000" in reading.text


def test_ACE61_call_declared_then_exactly_a_raise_pushed_owes_nothing_more() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600, rules=load_profile("ace-league"))
    hand, out = run(hand, say(3, "call"), push(3, 1000, 200))
    reading = ruled(out)
    assert (reading.code, reading.total, reading.add) == ("overbet_raise", 1200, 0)
    assert hand.pending.zone(3).owed == 0


def test_TDA24_59A_conditional_words_with_chips_on_their_way_count_those_chips() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(2, 500, 500, settled=False))
    _, out = hand.step(say(2, "conditional"))
    assert options(ruled(out))["call_1000"] == ("call", 1000, 0, 0)


def test_TDA24_51A_a_bet_declared_waiting_for_chips_may_be_entered_by_the_dealer() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, out = hand.step(say(1, "bet"))
    assert ruled(out).waiting
    after, out = hand.step(PlayerAction(1, ActionKind.BET, 500))
    assert out.alerts == () and after.state.seat(1).bet == 500


def test_a_zone_holds_its_prior_chips_plus_the_chips_moving() -> None:
    zone = SeatZone(1, prior=(ChipItem(1000),), motion=(ChipItem(1000), ChipItem(500)))
    assert zone.value == 2500


def test_TDA24_40A_words_entered_as_after_the_chips_wait_for_the_chips() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    after, out = hand.step(say(1, "bet", 500, precedence=Precedence.CHIPS_FIRST))
    assert ruled(out).waiting and ruled(out).action is None
    assert after.state.seat(1).bet == 0


def test_TDA24_41_a_chip_of_exactly_five_percent_of_the_call_is_not_relatively_tiny() -> None:
    # R41's "relatively tiny" is below 5% of the call: 100 facing the opening bet of 2,000
    # is an ordinary undercall against the opening bet, a full call (R51-B).
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 2000))
    _, out = hand.step(push(2, 100))
    assert (ruled(out).code, ruled(out).rule_ids) == ("undercall_full_call", ("TDA2024-51B",))


def test_TDA24_46C_a_pull_reported_as_full_while_chips_remain_is_refused() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 2000), push(1, 1000, 1000), say(2, "raise", 5000))
    _, out = hand.step(PriorChipsPulled.of(1, 1000, fully=True))
    assert [r.code for r in out.alerts] == ["pull_mismatch"]


def test_TDA24_52A_the_correction_says_what_each_bettor_adds() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = hand.step(PlayerAction(1, ActionKind.BET, 100, short_stands=True))
    hand, _ = hand.step(PlayerAction(2, ActionKind.CALL))
    _, out = hand.step(ShortBetNoticed(1))
    reading = ruled(out)
    assert (reading.code, reading.total, reading.add) == ("short_bet_corrected", 200, 100)
    assert reading.text.endswith("(seat 1 adds 100, seat 2 adds 100)")


def test_TDA24_40A_change_taken_back_by_the_dealer_is_no_longer_due() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, _ = run(hand, say(3, "call"), push(3, 1000, 100))
    hand, _ = hand.step(PriorChipsPulled.of(3, 100, by_dealer=True))
    assert hand.pending.zone(3).change == 400


def test_TDA24_53A_words_out_of_turn_before_anyone_acted_are_refused() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    _, out = hand.step(say(2, "check"))
    assert [r.code for r in out.alerts] == ["out_of_turn"]


def test_TDA24_56_more_chips_after_a_call_made_by_chips_are_a_string_bet() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1200), push(2, 1000, 1000))
    _, out = hand.step(push(2, 500))
    assert [r.code for r in out.alerts] == ["string_bet"]


def test_TDA24_40A_chips_after_a_call_entered_as_an_action_pay_the_call() -> None:
    # The call came first (entered as an action, no chips read): it defines the bet, and the
    # 600 that then arrives pays it; only chips beyond the call are change.
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, _ = hand.step(PlayerAction(3, ActionKind.CALL))
    assert hand.pending.zone(3).owed == 600
    paid, out = hand.step(push(3, 500, 100))
    assert (ruled(out).code, ruled(out).text) == ("paid", "seat 3's bet of 600 is complete")
    assert ruled(out).returned == 0 and paid.pending.zone(3).change == 0
    _, out = hand.step(push(3, 500, 500))
    assert (ruled(out).returned, ruled(out).text) == (
        400, "seat 3's bet of 600 is complete; 400 is change")


def test_TDA24_56_the_string_bet_options_say_what_the_bet_becomes() -> None:
    # The TD reads the options on the console: "count all" must name the bet it makes.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), say(2, "raise"), push(2, 1000))
    _, out = hand.step(push(2, 1000, 500))
    floor = ruled(out).floor
    assert floor is not None
    assert [(o.name, o.text) for o in floor.options] == [
        ("first_motion", "the bet stays 2000; 500 goes back"),
        ("count_all", "the bet becomes 2500")]


def test_TDA24_40A_EX1_the_floor_text_quotes_the_unclear_words() -> None:
    hand = postflop({1: 100000, 2: 100000}, button=2, big=4000, street=Street.RIVER)
    _, out = run(hand, say(1, "amount", 42000, Precedence.UNCLEAR), push(1, 5000))
    assert ruled(out).text.startswith(
        "seat 1: words 'amount 42000' (unclear) and chips 5000 disagree; the TD determines "
        "the bet. Words read: seat 1 bets to 42000"), ruled(out).text


def test_TDA11_37_the_50pct_basis_floor_says_how_much_went_over_the_call() -> None:
    # T11: "50% of the previous bet" has no settled basis (A31); the TD reads what was put over.
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2, small=250,
                   big=500, rules=load_profile("tda-2011"))
    hand, _ = run(hand, say(3, "raise", 1100))
    _, out = run(hand, push(4, 500, 1000))
    assert ruled(out).text == (
        "seat 4 put 400 over 1100: 50% of the last raise (600) and 50% of the previous bet "
        "(1100) disagree; the TD chooses the basis (open question A31)")


def test_TDA24_47_no_limit_chips_over_a_lone_all_in_are_a_call_for_want_of_a_raiser() -> None:
    # No-limit: nobody is left to raise, so the reason is R47's, never the fixed-limit cap.
    hand = postflop({1: 1000, 2: 20000}, button=2, big=200)
    hand, _ = run(hand, push(1, 1000))
    _, out = run(hand, push(2, 1000, 1000, 1000))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.code) == ("call", 1000, "raise_not_allowed")
    assert reading.text.endswith(
        "he may not raise: no chips beyond the call or nobody left to raise"), reading.text
    assert reading.rule_ids[-1] == "TDA2024-47A"


def test_TDA11_36_more_chips_after_a_call_by_mixed_chips_are_a_string_bet() -> None:
    # T11 reads mixed denominations by the 50% standard; the call they make is the chips'
    # bet, so a second motion is R56's string bet, not more change.
    rules = load_profile("tda-2011", {"fifty_basis": "previous_bet"})
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2, small=250,
                   big=500, rules=rules)
    hand, _ = run(hand, say(3, "raise", 1100))
    hand, out = run(hand, push(4, 500, 1000))
    assert (ruled(out).action, ruled(out).total, ruled(out).returned) == ("call", 1100, 400)
    _, out = hand.step(push(4, 1000))
    assert [a.code for a in out.alerts] == ["string_bet"]


def test_TDA24_48_a_raise_at_the_fixed_limit_cap_with_chips_behind_is_capped() -> None:
    # Seat 2 (400 in, 600 behind) says "raise" at the cap of 800: he has chips beyond the
    # 400 he needs, so the reason is the cap, with its rule.
    hand = postflop({1: 20000, 2: 1000, 3: 20000}, button=3, big=200, variant=Variant.FLHE)
    hand, _ = run(hand, say(1, "bet"), say(2, "raise"), say(3, "raise"), say(1, "raise"))
    _, out = run(hand, say(2, "raise"))
    reading = ruled(out)
    assert (reading.action, reading.total) == ("call", 800)
    assert reading.text.endswith("he may not raise: the raise cap is reached (or nobody is "
                                 "left to raise)"), reading.text
    assert reading.rule_ids[-1] == "TDA2024-48"


def test_TDA24_59A_conditional_words_over_raising_chips_still_offer_call_and_fold() -> None:
    # Unclear conditional words, then 3,000 pushed facing 1,000: the TD sees the chips'
    # raise and every legal ruling of the words, each once.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    _, out = run(hand, say(2, "conditional", precedence=Precedence.UNCLEAR),
                 push(2, 1000, 1000, 1000))
    assert options(ruled(out)) == {
        "chips": ("raise", 3000, 0, 0), "raise_3000": ("raise", 3000, 0, 0),
        "call_1000": ("call", 1000, 2000, 0), "fold_0": ("fold", 0, 0, 0),
        "raise_2000": ("raise", 2000, 1000, 0)}


def test_TDA24_53A_a_call_said_out_of_turn_binds_when_the_action_reaches_him() -> None:
    # Seat 4 says "call" before seat 3 acts: his words are held as the call they would be;
    # seat 3's call leaves his action unchanged, so his call binds (as the session runs it).
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2))
    table.deal()
    tracked, pending = table.t, Pending(street=table.t.hand.street)
    for event in (say(4, "call"), say(3, "call")):
        tracked, pending, out = interpret_at_table(tracked, pending, event, TDA_2024)
    assert ("oot_binding", 4) in [(r.code, r.seat) for r in out.rulings]
    assert (tracked.hand.seat(4).bet, tracked.hand.action_on) == (100, 1)


def test_TDA24_51C_a_blinds_full_call_while_an_undercall_awaits_the_floor_is_no_sequence() -> None:
    # Seat 4 undercalls a raise to 2,000 (the TD's R51-B call); the small blind (100 posted
    # in chips) then pushes the 1,900 he needs: a full call, held for the floor, not an
    # undercall in sequence (R51-C counts his blind in).
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=100, big=200)
    hand, _ = hand.step(push(1, 100))  # the small blind posted in chips
    hand, _ = run(hand, say(3, "raise", 2000))
    hand, out = hand.step(push(4, 1000))
    assert ruled(out).floor is not None and ruled(out).rule_ids == ("TDA2024-51B",)
    _, out = hand.step(push(1, 1000, 500, 200, 200))
    assert [r.code for r in out.alerts] == ["amount_pending"]


@pytest.mark.parametrize("quoted", [9500, 11500])
def test_TDA24_52B_a_pot_count_too_low_or_too_high_is_flagged_at_once(quoted: int) -> None:
    hand = postflop({s: 50000 for s in (1, 2, 3)}, button=3, big=1000, pot=10500,
                    variant=Variant.PLO)
    _, out = hand.step(PotCountGiven(1, quoted))
    assert [(r.code, r.text) for r in out.alerts] == [
        ("pot_miscount", f"pot count quoted {quoted}; a pot-sized bet for seat 1 is 10500")]


def test_TDA24_51C_an_undercaller_whose_full_call_is_all_in_still_starts_a_sequence() -> None:
    # Seat 2 (1,000 behind) undercalls the opening 1,000 with 500: a full call, all in, 500
    # still owed. Seat 3's undercall next is an undercall in sequence: play backs up to
    # seat 2 (R51-C), being all in changes nothing about his undercall.
    hand = postflop({1: 20000, 2: 1000, 3: 20000, 4: 20000}, button=4, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = hand.step(push(2, 500))
    assert (ruled(out).action, ruled(out).total, ruled(out).add) == ("all_in", 1000, 500)
    _, out = hand.step(push(3, 500))
    assert [(r.seat, r.rule_ids) for r in out.rulings if r.code == "undercall_sequence"] == [
        (2, ("TDA2024-51C", "TDA2024-51B"))]
    floor = ruled(out).floor
    assert floor is not None and floor.seat == 3 and "TDA2024-51C" in floor.rule_ids


# --- seed 23 (session 13): survivors of a fresh sample of 150 --------------------------------


def test_TDA24_54B_pot_facing_a_bet_cites_the_call_counted_into_the_pot() -> None:
    # Pot limit, pre-flop: seat 3's "pot" is a call of 200 plus the pot after it (R54-B).
    hand = preflop({s: 20000 for s in range(1, 5)}, button=4, sb=1, bb=2, small=100, big=200,
                   variant=Variant.PLO)
    _, out = hand.step(say(3, "pot"))
    assert (ruled(out).total, ruled(out).rule_ids) == (700, ("TDA2024-54", "TDA2024-54B"))


def test_A6_a_one_chip_big_blind_on_his_option_is_still_the_floors_call() -> None:
    # A level of 1-1: the big blind faces only his own one-chip blind; a silent 5 chip is
    # check or raise for the TD (open question A6), not a bet of the chip.
    hand = preflop({1: 500, 2: 500, 3: 500}, button=3, sb=1, bb=2, small=1, big=1)
    hand, _ = run(hand, say(3, "call"), push(3, 1), say(1, "call"))
    _, out = hand.step(push(2, 5))
    assert options(ruled(out)) == {"check": ("check", 1, 5, 0), "raise": ("raise", 6, 0, 0)}


def test_TDA24_42_several_chips_opening_a_street_are_one_bet_not_an_overchip() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200)
    _, out = hand.step(push(1, 500, 500))
    assert (ruled(out).action, ruled(out).total, ruled(out).rule_ids) == (
        ActionKind.BET, 1000, ("TDA2024-42",))
    assert ruled(out).text == "seat 1 bets to 1000: 1000 pushed in one motion"


def test_TDA24_46_S3_partly_pulled_prior_chips_and_new_ones_all_needed_say_so() -> None:
    # THE 25-50: the BB posted two 25s, faces 610 and pulls one back; 25 + 500 + 100 = 625,
    # and without the 25 only 600 is left: a call, 15 change, and the text says why.
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=25, big=50)
    hand, _ = run(hand, push(3, 25, 25), say(1, "raise", 610), say(2, "fold"), pull(3, 25))
    _, out = hand.step(push(3, 500, 100))
    assert (ruled(out).action, ruled(out).total, ruled(out).returned) == (ActionKind.CALL, 610, 15)
    assert ruled(out).kind is RulingKind.CORRECTED  # 15 of it goes back
    assert ruled(out).text.endswith("prior chips partly pulled back: all chips are one bet; "
                                    "every chip is needed (without one 25 only 600 is left)")


def test_TDA24_46_prior_chips_read_back_from_the_journal_are_pulled_by_value() -> None:
    # After a restart every chip's kind comes out of JSON: equal strings, not the same
    # object. Pulling one 25 of the two posted still finds it (R46-B).
    import json

    def kind() -> str:
        return str(json.loads('{"kind": "value"}')["kind"])

    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=25, big=50)
    posted = ChipMotion(3, (ChipItem(25, kind()), ChipItem(25, kind())))
    hand, _ = run(hand, posted, say(1, "raise", 600), say(2, "fold"))
    hand, out = hand.step(PriorChipsPulled(3, (ChipItem(25, kind()),)))
    assert [r.code for r in out.rulings] == ["pulled_back_bound"]
    assert [c.denomination for c in hand.pending.zone(3).prior] == [25]


def test_TDA24_52B_a_count_error_noticed_before_any_bet_changes_nothing() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200, pot=1000, variant=Variant.PLO)
    hand, _ = hand.step(PotCountGiven(1, 500))
    after, out = hand.step(CountErrorNoticed())
    assert [(r.code, r.text) for r in out.rulings] == [
        ("no_count_bet", "seat 1: no bet followed the wrong count")]
    assert after.state == hand.state


def test_TDA24_40_change_from_several_later_motions_adds_up() -> None:
    # "Call" 300 paid with a 500 (200 change), then two more 100 chips: each is change.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=100)
    hand, _ = run(hand, say(1, "bet", 300), push(1, 100, 100, 100), say(2, "call"), push(2, 500))
    assert hand.pending.zone(2).change == 200
    for change in (300, 400):
        hand, out = hand.step(push(2, 100))
        assert ruled(out).text == "seat 2's bet of 300 is complete; 100 is change"
        assert hand.pending.zone(2).change == change


def test_TDA24_57_nonstandard_words_with_an_amount_offer_that_amount() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=100)
    _, out = hand.step(say(1, "nonstandard", 1000, words="I'll go a thousand"))
    assert options(ruled(out)) == {"check_0": ("check", 0, 0, 0),
                                   "bet_1000": ("bet", 1000, 0, 1000)}


def test_TDA24_51B_forfeit_of_a_blind_undercalling_counts_only_chips_beyond_his_blind() -> None:
    # The big blind (200 in) puts 500 more against 1,000 multi-way: he intended 500 more, so
    # that is what he may forfeit; the TD sets 300 and the other 200 go back to him.
    hand = preflop({s: 20000 for s in range(1, 5)}, button=4, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "raise", 1000), say(4, "call"), say(1, "fold"))
    hand, out = hand.step(push(2, 500))
    floor = ruled(out).floor
    assert floor is not None
    fold = next(o for o in floor.options if o.name == "forfeit_fold")
    assert (fold.total, fold.returned, fold.forfeit) == (200, 0, 500)
    after, out = hand.step(FloorDecision(floor.ruling_id, "forfeit_fold", forfeit=300))
    assert (ruled(out).returned, ruled(out).forfeit) == (200, 300)
    assert after.state.seat(2).stack == 20000 - 200 - 300


def test_TDA24_50B_a_premature_fold_does_not_hold_up_the_seats_after_it() -> None:
    # Button 2: seat 3 bets, seat 4 says "raise" (amount to come), seat 1 folds early: his
    # floor call waits for the raise, it does not block seat 4 pushing his raise.
    hand = postflop({s: 20000 for s in range(1, 5)}, button=2, big=200)
    hand, _ = run(hand, say(3, "bet", 300), say(4, "raise"))
    hand, out = hand.step(say(1, "fold"))
    assert [r.code for r in out.alerts] == ["amount_pending"]
    hand, out = hand.step(push(4, 500, 100))
    assert (ruled(out).action, ruled(out).total, hand.state.action_on) == (ActionKind.RAISE, 600, 1)


def test_TDA24_46_non_value_items_on_the_big_blind_option_are_not_his_blind() -> None:
    # The zone was read empty, the blind's chips were never seen: 200 with a bounty chip
    # pushed on his option is not quietly taken as the missing blind; the bounty is named
    # (RP-22) and the push is read as the option's, for the TD (A6).
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "call"), push(3, 200), say(1, "call"), push(1, 100))
    after, out = hand.step(ChipMotion(2, (ChipItem(200), ChipItem(5000, "bounty")),
                                      zone_read=True))
    assert [r.code for r in out.alerts][:1] == ["non_value_item"]
    assert not after.pending.zone(2).prior_start


# --- seed 24 (session 13): survivors of a second fresh sample --------------------------------


def test_TDA24_57_the_short_seats_call_option_says_all_in() -> None:
    hand = postflop({1: 20000, 2: 500}, button=2, big=100, pot=300)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    _, out = hand.step(say(2, "raise", 5, magnitude_unclear=True, words="five"))
    floor = ruled(out).floor
    assert floor is not None and [o.text for o in floor.options] == ["call all in to 500"]


def test_TDA24_57_a_magnitude_read_says_how_it_was_read() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=100, pot=2000)
    _, out = hand.step(say(1, "bet", 5, magnitude_unclear=True, words="five"))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.BET, 500)
    assert ruled(out).text.endswith("('five' read as 500: the highest reasonable amount not "
                                    "above the pot 2000)")


def test_TDA24_all_in_declared_by_the_big_blind_counts_his_blind() -> None:
    hand = preflop({1: 20000, 2: 5000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "call"), say(1, "call"))
    _, out = hand.step(say(2, "all_in"))
    assert (ruled(out).action, ruled(out).total, ruled(out).add) == (ActionKind.ALL_IN, 5000, 4800)


def test_RP22_a_chip_with_a_negative_value_is_refused() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200)
    after, out = hand.step(ChipMotion(1, (ChipItem(-500),)))
    assert [r.code for r in out.alerts] == ["unknown_chip"] and after.state == hand.state


def test_TDA24_52B_three_actions_after_the_bet_are_substantial_so_the_count_error_stands() -> None:
    hand = postflop({s: 20000 for s in range(1, 6)}, button=5, big=200, pot=1000,
                    variant=Variant.PLO)
    hand, _ = hand.step(PotCountGiven(1, 500))
    hand, _ = run(hand, say(1, "bet", 500), push(1, 500), say(2, "fold"), say(3, "fold"),
                  say(4, "fold"))
    _, out = hand.step(CountErrorNoticed())
    assert [r.code for r in out.rulings] == ["count_error_stands"]


def test_TDA24_49_only_the_seat_given_the_count_has_his_call_cite_the_count() -> None:
    # Seat 3 asked for the count and bet the pot; seat 1's call is an ordinary call.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=1, big=200, pot=1000,
                    variant=Variant.PLO)
    hand, _ = run(hand, say(2, "check"), PotCountGiven(3, 1000), say(3, "bet", 1000),
                  push(3, 1000))
    _, out = hand.step(push(1, 1000))
    assert (ruled(out).action, ruled(out).rule_ids) == (ActionKind.CALL, ("TDA2024-44",))


def test_TDA24_40A_late_words_replace_the_second_action_of_the_street() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 600), push(1, 500, 100), push(2, 1000, 100))
    assert len(hand.pending.log) == 2
    _, out = hand.step(say(2, "call", precedence=Precedence.VERBAL_FIRST))
    assert (ruled(out).action, ruled(out).total, ruled(out).returned) == (ActionKind.CALL, 600, 500)


def test_TDA24_55_all_in_for_exactly_the_call_after_check_facing_a_bet_stands() -> None:
    hand = postflop({1: 20000, 2: 600}, button=2, big=200)
    hand, _ = run(hand, say(1, "bet", 600), push(1, 500, 100), say(2, "check"))
    _, out = hand.step(say(2, "all_in"))
    assert (ruled(out).code, ruled(out).total, ruled(out).rule_ids) == (
        "call_all_in", 600, ("TDA2024-51A",))


def test_TDA24_40A_an_action_entered_over_a_bigger_posted_chip_leaves_change() -> None:
    # THE 50-100: the big blind posted one 1,000 chip; facing 700 his call is entered as an
    # action: 300 of the chip is change.
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=50, big=100)
    hand, _ = run(hand, push(3, 1000), say(1, "raise", 700), say(2, "fold"))
    hand, _ = hand.step(PlayerAction(3, ActionKind.CALL))
    assert (hand.pending.zone(3).change, hand.pending.zone(3).owed) == (300, 0)


def test_TDA24_53_chips_first_words_from_a_seat_yet_to_act_are_out_of_turn() -> None:
    hand = postflop({s: 20000 for s in range(1, 5)}, button=4, big=200)
    hand, _ = run(hand, push(1, 500), push(2, 500))
    _, out = hand.step(say(4, "fold", precedence=Precedence.CHIPS_FIRST))
    assert [r.code for r in out.rulings] == ["out_of_turn"]


def test_TDA24_40C_an_amount_below_the_blind_on_the_option_is_a_check() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "call"), say(1, "call"))
    _, out = hand.step(say(2, "amount", 100))
    assert (ruled(out).action, ruled(out).total) == (ActionKind.CHECK, 200)


def test_TDA24_51A_a_declared_raise_beyond_his_stack_is_all_in_not_a_capped_raise() -> None:
    hand = postflop({1: 20000, 2: 5000}, button=2, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    _, out = hand.step(say(2, "raise", 50000))
    assert (ruled(out).action, ruled(out).total, ruled(out).code) == (
        ActionKind.ALL_IN, 5000, "all_in")


def test_TDA24_51C_an_undercaller_who_paid_up_starts_no_sequence() -> None:
    hand = postflop({s: 20000 for s in range(1, 5)}, button=4, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000), push(2, 500))
    hand, out = hand.step(push(2, 500))  # the rest of his call
    assert ruled(out).code == "paid"
    _, out = hand.step(push(3, 500))
    assert (ruled(out).code, [r.code for r in out.alerts]) == ("undercall_full_call", [])


def test_fixed_limit_raise_words_say_what_was_declared() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, variant=Variant.FLHE)
    hand, _ = run(hand, say(1, "bet"), push(1, 100, 100))
    _, out = hand.step(say(2, "raise"))
    assert (ruled(out).total, ruled(out).text) == (400, "seat 2 raises to 400: 'raise' declared")


def test_TDA24_57_the_call_option_gives_back_chips_beyond_the_call() -> None:
    # Facing 500 with a 1,000 chip out, seat 2 says "five": the TD may rule a call, and
    # then 500 of the chip goes back.
    hand = postflop({1: 20000, 2: 20000}, button=2, big=100, pot=300)
    hand, _ = run(hand, say(1, "bet", 500), push(1, 500))
    hand, _ = hand.step(push(2, 1000, settled=False))
    _, out = hand.step(say(2, "raise", 5, magnitude_unclear=True, words="five"))
    assert options(ruled(out)) == {"call": ("call", 500, 500, 0),
                                   "to_5000": ("raise", 5000, 0, 4000)}


def test_fixed_limit_raise_words_from_a_seat_short_of_the_call_cite_no_cap() -> None:
    # 150 behind facing 200: he may not raise because he has nothing beyond the call, not
    # because the cap is reached (R47-A, not R48).
    hand = postflop({1: 20000, 2: 150, 3: 20000}, button=3, big=200, variant=Variant.FLHE)
    hand, _ = run(hand, say(1, "bet"), push(1, 100, 100))
    _, out = hand.step(say(2, "raise"))
    assert (ruled(out).code, ruled(out).total, ruled(out).rule_ids) == (
        "call_all_in", 150, ("TDA2024-51A", "TDA2024-47A"))
    assert ruled(out).text.endswith("he may not raise: no chips beyond the call or nobody left "
                                    "to raise")


# --- seed 25 (session 13): survivors of a third fresh sample ---------------------------------


def test_TDA11_37_both_fifty_bases_agreeing_need_no_floor() -> None:
    # T11, an opening bet of 1,000: the last raise and the previous bet are the same 1,000,
    # so 500 over the call is a raise (completed to 2,000) without asking the TD (A31).
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200,
                    rules=load_profile("tda-2011"))
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    _, out = hand.step(push(2, 500, 500, 500))
    assert (ruled(out).action, ruled(out).total, ruled(out).floor) == (ActionKind.RAISE, 2000, None)


def test_TDA24_40A_simultaneous_unclear_words_wait_for_the_chips_to_define_the_bet() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    hand, _ = hand.step(push(2, 1000, settled=False))
    _, out = hand.step(say(2, "nonstandard", words="I'm in", precedence=Precedence.SIMULTANEOUS))
    assert (ruled(out).code, ruled(out).floor) == ("amount_pending", None)


def test_ACE_54D_pot_in_no_limit_is_no_bet_and_owes_nothing() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200, rules=load_profile("ace-league"))
    _, out = hand.step(say(1, "pot"))
    assert (ruled(out).code, ruled(out).add, ruled(out).returned) == ("pot_not_a_bet", 0, 0)


def test_A6_words_from_the_seat_whose_floor_is_open_wait_for_it() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, say(3, "call"), say(1, "call"))
    hand, out = hand.step(push(2, 500))
    assert ruled(out).floor is not None
    _, out = hand.step(say(2, "check"))
    assert [r.code for r in out.rulings] == ["floor_pending"] and out.interpretation is None


def test_TDA24_45B_chips_beyond_a_full_raise_say_so() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    _, out = hand.step(push(2, 1000, 1000, 500))
    assert (ruled(out).total, ruled(out).text) == (
        2500, "seat 2 raises to 2500: one 500 can go and 2000 still calls 1000; a full raise")


def test_TDA24_57_the_td_is_offered_at_most_four_meanings() -> None:
    hand = postflop({1: 100000, 2: 100000}, button=2, big=5, pot=3)
    _, out = hand.step(say(1, "bet", 5, magnitude_unclear=True, words="five"))
    assert list(options(ruled(out))) == ["to_5", "to_50", "to_500", "to_5000"]


def test_TDA11_36_raise_declared_with_less_than_the_call_is_no_two_motion_raise() -> None:
    # T11: "raise" and 500 facing 1,000 is a raise completed to the minimum, owing 1,500;
    # the two-motion allowance is for exactly the call amount pushed first.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200,
                    rules=load_profile("tda-2011"))
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000), say(2, "raise"))
    _, out = hand.step(push(2, 500))
    assert (ruled(out).code, ruled(out).total, ruled(out).add) == ("completed", 2000, 1500)


def test_TDA24_40_chips_owed_after_the_round_closed_still_pay_the_call() -> None:
    # Seats 2 and 3 say "call": the round is over, seat 2's chips arrive after seat 3 acted.
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 500), push(1, 500), say(2, "call"), say(3, "call"))
    _, out = hand.step(push(2, 500))
    assert (ruled(out).code, [r.code for r in out.alerts]) == ("paid", [])


def test_TDA24_chips_after_the_round_from_a_seat_that_neither_owes_nor_acted_last() -> None:
    # Button 2, checked around (3, 4, 1, 2): seat 3's chips belong to no betting round.
    hand = postflop({s: 20000 for s in range(1, 5)}, button=2, big=200)
    hand, _ = run(hand, say(3, "check"), say(4, "check"), say(1, "check"), say(2, "check"))
    _, out = hand.step(push(3, 500))
    assert [r.code for r in out.rulings] == ["no_betting_round"]


def test_TDA24_46_the_big_blind_pulling_his_blind_back_on_his_option_is_not_bound() -> None:
    # Facing nothing more than his own blind, he may still check: no R46-B restriction.
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, push(2, 100, 100), say(3, "call"), say(1, "call"))
    after, out = hand.step(pull(2, 100))
    assert out.rulings == () and not after.pending.zone(2).no_fold


def test_TDA24_43A_a_completion_in_the_2024_rules_names_no_house_minimum() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 600), push(1, 500, 100))
    _, out = hand.step(push(2, 1000, 100))
    assert ruled(out).rule_ids == ("TDA2024-45B1", "TDA2024-61", "TDA2024-43A")
    assert ruled(out).text.startswith("seat 2 must raise to the minimum 1200 (he put 1100): ")


@pytest.mark.parametrize(("posted", "chips", "code"), [
    (True, (1000, 500, 200, 100), "undercall_sequence"),  # 100 + 1,800 = 1,900
    (True, (1000, 500, 200, 200), "amount_pending"),  # 100 + 1,900: a full call, held
])
def test_TDA24_51C_a_blinds_undercall_while_another_awaits_the_floor_counts_the_blind_once(
        posted: bool, chips: tuple[int, ...], code: str) -> None:
    # Seat 4 undercalls a raise to 2,000 (R51-B floor open); the small blind adds chips.
    # Found by a seed-25 mutant: the blind's chips in the zone were counted twice, so 1,900
    # passed as the full 2,000 and the undercall in sequence went unnoticed.
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=100, big=200)
    if posted:
        hand, _ = hand.step(push(1, 100))
    hand, _ = run(hand, say(3, "raise", 2000))
    hand, _ = hand.step(push(4, 1000))
    _, out = hand.step(push(1, *chips))
    assert [r.code for r in out.rulings] == [code]
