"""Silent chips: Add. 43, 44, 45, 46 and 61 cases from shared/spec/addendum-cases.md."""

from __future__ import annotations

import pytest

from pokertable.controller.engine.betting import Options, options_for
from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import SeatStatus, Street
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import ChipMotion, FloorDecision, InterpretedHand
from tests.interpretation.helpers import (
    check,
    floor_rules,
    options,
    postflop,
    preflop,
    pull,
    push,
    ruled,
    run,
    say,
)


def _opts(hand: InterpretedHand) -> Options:
    opts = options_for(hand.state, hand.rules)
    assert opts is not None
    return opts


def test_TDA24_43_EX3_two_500s_over_300_raise_to_1000() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200, street=Street.TURN)
    hand, out = run(hand, say(1, "bet", 300), push(2, 500, 500))
    check(ruled(out), "raise", 1000, rules=("45B1", "43A"))
    assert hand.state.increment == 700
    assert (_opts(hand).to_call, _opts(hand).min_to) == (1000, 1700)


def test_T24_44_D1_overchip_not_facing_a_bet_is_a_bet_of_the_chip() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200)
    hand, out = run(hand, push(1, 1000))
    check(ruled(out), "bet", 1000, rules=("44",))


def test_T24_44_D2_overchip_facing_a_bet_is_a_call_unless_raise_first() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 300))
    _, out = run(hand, push(2, 1000))
    check(ruled(out), "call", 300, returned=700, rules=("44",))
    _, out = run(hand, say(2, "raise"), push(2, 1000))
    check(ruled(out), "raise", 1000, rules=("51A",))


def test_TDA24_45_EX1A_two_1000s_against_1200_call() -> None:
    hand = postflop({1: 10000, 2: 10000}, button=2, big=400)
    hand, out = run(hand, say(1, "bet", 1200), push(2, 1000, 1000))
    check(ruled(out), "call", 1200, returned=800, rules=("45A",))


def test_TDA24_45_EX1A_D_last_chips_all_needed_is_a_call_not_all_in() -> None:
    hand = postflop({1: 10000, 2: 2000}, button=2, big=400)
    hand, out = run(hand, say(1, "bet", 1200), push(2, 1000, 1000))
    check(ruled(out), "call", 1200, returned=800, rules=("45A",))
    assert hand.state.seat(2).stack == 800
    assert hand.state.seat(2).status is SeatStatus.LIVE


def _utg_raise_1100() -> InterpretedHand:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=250, big=500)
    hand, _ = run(hand, say(3, "raise", 1100))
    assert hand.state.increment == 600
    return hand


def test_TDA24_45_EX1B_500_and_1000_against_1100_call() -> None:
    _, out = run(_utg_raise_1100(), push(4, 500, 1000))
    check(ruled(out), "call", 1100, returned=400, rules=("45A",))


def test_TDA24_45_EX2_1000_and_five_100s_must_raise_to_1700() -> None:
    hand, out = run(_utg_raise_1100(), push(4, 1000, 100, 100, 100, 100, 100))
    check(ruled(out), "raise", 1700, add=200, rules=("45B1", "43A"))
    assert (hand.state.call_to, hand.state.increment) == (1700, 600)
    hand, _ = run(hand, say(1, "fold"), say(2, "fold"))
    assert hand.state.action_on == 3 and _opts(hand).can_raise  # UTG re-opened


def test_TDA24_45_EX3_1000_and_three_100s_call_200_back() -> None:
    _, out = run(_utg_raise_1100(), push(4, 1000, 100, 100, 100))
    check(ruled(out), "call", 1100, returned=200, rules=("45B1", "43A"))


def _bet_1400(b_stack: int = 20000) -> InterpretedHand:
    hand = postflop({1: 20000, 2: b_stack, 3: 20000}, button=3, big=400)
    hand, _ = run(hand, say(1, "bet", 1400))
    return hand


def test_TDA24_45_EX4A_chips_behind_min_raise_to_2800() -> None:
    hand, out = run(_bet_1400(), push(2, 1000, 500, 500, 500))
    check(ruled(out), "raise", 2800, add=300, rules=("45B1", "43A"))
    assert (hand.state.call_to, hand.state.increment) == (2800, 1400)


def test_TDA24_45_EX4A_LAST_last_chips_short_all_in() -> None:
    hand, out = run(_bet_1400(2500), push(2, 1000, 500, 500, 500))
    check(ruled(out), "all_in", 2500, rules=("45B2",))
    assert hand.state.increment == 1400
    assert (_opts(hand).to_call, _opts(hand).min_to) == (2500, 3900)
    hand, _ = run(hand, say(3, "call"))
    assert hand.state.action_on == 1 and not _opts(hand).can_raise  # A not re-opened


def test_TDA24_45_EX4B_call_600_back() -> None:
    _, out = run(_bet_1400(), push(2, 1000, 500, 500))
    check(ruled(out), "call", 1400, returned=600, rules=("45B1",))


def test_TDA24_45_EX4B_LAST_last_chips_all_in_below_threshold() -> None:
    hand, out = run(_bet_1400(2000), push(2, 1000, 500, 500))
    check(ruled(out), "all_in", 2000, rules=("45B2",))
    assert _opts(hand).min_to == 3400


def test_TDA24_45A_EX1_500_and_1000_against_1100_call() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, out = run(hand, say(1, "bet", 400), say(2, "raise", 1100), push(3, 500, 1000))
    check(ruled(out), "call", 1100, returned=400, rules=("45A",))


def _a_opens_1050(b_stack: int = 2000) -> InterpretedHand:
    hand = postflop({1: 10000, 2: b_stack}, button=2, big=50)
    hand, _ = run(hand, say(1, "bet", 1050))
    return hand


def test_TDA24_45A_EX2_last_chips_two_1000s_against_1050_call() -> None:
    hand, out = run(_a_opens_1050(), push(2, 1000, 1000))
    check(ruled(out), "call", 1050, returned=950, rules=("45A",))
    assert hand.state.seat(2).status is not SeatStatus.ALL_IN


@pytest.mark.parametrize("words", ["all_in", "raise"])
def test_TDA24_45A_EX2_D_all_in_or_raise_declared_first_is_all_in(words: str) -> None:
    hand, said = run(_a_opens_1050(), say(2, words))
    hand, out = run(hand, push(2, 1000, 1000))
    if words == "all_in":  # decided by the words; the chips then pay for it
        check(ruled(said), "all_in", 2000, add=2000, rules=("51A",))
        assert (ruled(out).code, ruled(out).add) == ("paid", 0)
    else:  # "raise" waits for the chips to give the amount
        assert ruled(said).waiting
        check(ruled(out), "all_in", 2000, rules=("51A",))
    assert hand.state.increment == 1050  # short: A may only call or fold


def test_TDA24_61_EX1_over_betting_expecting_change_raise_to_650() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, out = run(hand, say(1, "bet", 325), push(2, 500, 25))
    check(ruled(out), "raise", 650, add=125, rules=("45B1", "61", "43A"))
    assert hand.state.increment == 325


def test_ACE_61_EX1_a_1100_silently_against_600_bb_must_raise_to_1200() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    _, out = run(hand, push(3, 1000, 100))
    check(ruled(out), "raise", 1200, add=100, rules=("45B1",))
    _, out = run(hand, say(3, "call"), push(3, 1000, 100))
    assert ruled(out).returned == 500 and ruled(out).code == "paid"


# --- Rule 46: prior-bet chips (Add. 46 Situations 1-5) ---------------------------------------


def _situation_1_to_3() -> InterpretedHand:
    """THE 25-50, BB posts two 25s, button raises to 600, SB folds: BB faces 550 more."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=25, big=50)
    hand, _ = run(hand, push(3, 25, 25), say(1, "raise", 600), say(2, "fold"))
    assert (hand.state.action_on, hand.state.call_to, hand.state.increment) == (3, 600, 550)
    return hand


@pytest.mark.parametrize(("case", "chips", "action", "total", "returned", "add"), [
    ("S1-1", (1000,), "call", 600, 450, 0),
    ("S1-2a", (500, 500), "call", 600, 450, 0),
    ("S1-2b", (100, 500), "call", 600, 50, 0),
    ("S1-3", (1000, 500), "raise", 1550, 0, 0),
])
def test_TDA24_46_S1_prior_chips_left_alone(case: str, chips: tuple[int, ...], action: str,
                                            total: int, returned: int, add: int) -> None:
    hand, out = run(_situation_1_to_3(), push(3, *chips))
    check(ruled(out), action, total, returned=returned, add=add, rules=("46C",))
    if case == "S1-3":
        assert hand.state.increment == 950 and _opts(hand).min_to == 2500


@pytest.mark.parametrize(("case", "chips", "action", "total", "returned", "add"), [
    ("S2-1", (1000,), "call", 600, 400, 0),
    ("S2-2a", (500, 500), "call", 600, 400, 0),
    ("S2-2b", (1000, 500), "raise", 1500, 0, 0),
    ("S2-2c", (500, 100, 100, 100), "call", 600, 200, 0),
    ("S2-2d", (500, 100, 100, 100, 100, 100), "raise", 1150, 0, 150),
])
def test_TDA24_46_S2_prior_chips_fully_pulled_back(case: str, chips: tuple[int, ...],
                                                   action: str, total: int, returned: int,
                                                   add: int) -> None:
    hand, pulled = run(_situation_1_to_3(), pull(3, 25, 25))
    assert [r.code for r in pulled.rulings] == ["pulled_back_bound"]  # R46-B
    _, out = run(hand, push(3, *chips))
    check(ruled(out), action, total, returned=returned, add=add)


@pytest.mark.parametrize(("case", "chips", "action", "total", "returned", "add", "rule"), [
    ("S3-1a", (1000,), "raise", 1150, 0, 125, "45B1"),
    ("S3-1b", (500, 100), "call", 600, 25, 0, "45B1"),
    ("S3-1c", (500,), "call", 600, 0, 75, "51B"),
])
def test_TDA24_46_S3_prior_chips_partly_pulled_back(case: str, chips: tuple[int, ...],
                                                    action: str, total: int, returned: int,
                                                    add: int, rule: str) -> None:
    hand, _ = run(_situation_1_to_3(), pull(3, 25))
    _, out = run(hand, push(3, *chips))
    check(ruled(out), action, total, returned=returned, add=add, rules=("46C", rule))


def test_TDA24_46_late_blind_chips_on_the_small_blind_turn_are_the_blind() -> None:
    """The small blind's chip is read only once the action reaches him, in a zone the
    readers had seen empty: it holds his posted 100 and no more, so the chip is the blind,
    not a call; the next 100 is the call."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, push(2, 100, 100), say(3, "call"), push(3, 100, 100))
    assert hand.state.action_on == 1
    before = hand
    hand, out = hand.step(ChipMotion.of(1, 100, zone_read=True))  # read empty before
    assert out.interpretation is None
    [said] = out.rulings  # the table says what it decided
    assert (said.kind, said.code, said.rule_ids) == (RulingKind.INFO, "late_blind",
                                                      ("TDA2024-46C",))
    assert (hand.state.action_on, hand.state.seat(1).bet) == (1, 100)
    assert [c.denomination for c in hand.pending.zone(1).prior] == [100]
    _, out = run(hand, push(1, 100))
    check(ruled(out), "call", 200)
    # A zone never read: the posted 100 is taken to lie there unseen, the chip is the call.
    _, out = run(before, push(1, 100))
    check(ruled(out), "call", 200)


def test_TDA24_46_late_blind_chips_on_the_big_blind_option_are_not_a_raise() -> None:
    """The big blind's own chips read on his option complete the blind, they do not raise;
    chips pushed after them are the silent option push of A6, read on top of the blind."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, push(1, 100), say(3, "call"), push(3, 200), say(1, "call"), push(1, 100))
    assert hand.state.action_on == 2
    hand, out = hand.step(ChipMotion.of(2, 200, zone_read=True))
    assert out.interpretation is None and [r.code for r in out.rulings] == ["late_blind"]
    assert (hand.state.action_on, hand.state.seat(2).bet) == (2, 200)
    _, out = run(hand, push(2, 100, 100))
    assert options(ruled(out)) == {"check": ("check", 200, 200, 0),
                                   "raise": ("raise", 400, 0, 0)}


def _small_blind_to_act() -> InterpretedHand:
    """100-200, the big blind's chips out, the button calls: the small blind to act, his
    posted 100 never seen."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = run(hand, push(2, 100, 100), say(3, "call"), push(3, 100, 100))
    assert hand.state.action_on == 1 and not hand.pending.zone(1).prior
    return hand


def test_TDA24_46_late_blind_and_call_in_one_read_are_the_blind_then_a_call() -> None:
    """Two 100s read at once in a zone read without his blind: one is the blind put out late,
    the other calls (R46 Sit. 1: prior chips left alone, an overchip is a call). Read on top
    of a blind taken to lie there unseen they would be a raise the felt does not show."""
    hand, out = _small_blind_to_act().step(ChipMotion.of(1, 100, 100, zone_read=True))
    assert [r.code for r in out.rulings][:1] == ["late_blind"]
    check(ruled(out), "call", 200, rules=("46C",))
    assert (hand.state.action_on, hand.state.seat(1).bet) == (2, 200)


def test_TDA24_46_late_blind_is_the_fewest_chips_that_make_it_whatever_the_order() -> None:
    """A 500 and two 100s facing 200 with the 100 blind unseen: one 100 is the blind; the
    500 and the other 100 on it are one R45 bet of 700, a raise to 700 (add nothing)."""
    for chips in ((500, 100, 100), (100, 500, 100), (100, 100, 500)):
        hand, out = _small_blind_to_act().step(ChipMotion.of(1, *chips, zone_read=True))
        assert [r.code for r in out.rulings][:1] == ["late_blind"], chips
        assert [c.denomination for c in hand.pending.zone(1).prior_start][:1] == [100]
        reading = ruled(out)
        assert (reading.action, reading.total, reading.add) == (ActionKind.RAISE, 700, 0), chips


def test_TDA24_46_chips_that_cannot_make_the_blind_hold_it_inside_them() -> None:
    """One 500 chip facing 200 cannot be split into the 100 blind and an action: it holds
    both, so it is his whole bet, an overchip call (R44) with 300 back, not 400 back as if
    his blind also lay there. Never read, the blind is taken to lie there unseen."""
    hand, out = _small_blind_to_act().step(ChipMotion.of(1, 500, zone_read=True))
    assert [r.code for r in out.rulings][:1] == ["late_blind"]
    check(ruled(out), "call", 200, returned=300, rules=("44",))
    assert (hand.state.action_on, hand.state.seat(1).bet, hand.state.seat(1).stack) == (
        2, 200, 19800)
    _, out = _small_blind_to_act().step(ChipMotion.of(1, 500))
    check(ruled(out), "call", 200, returned=400, rules=("44",))


def _situation_4() -> InterpretedHand:
    """THE 50-100, BB posts one 1k chip, raise to 700, SB folds: the prior chip covers."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=50, big=100)
    hand, _ = run(hand, push(3, 1000), say(1, "raise", 700), say(2, "fold"))
    assert (hand.state.call_to, hand.state.increment) == (700, 600)
    return hand


def test_TDA24_46_S4_a_covering_prior_chip_plus_500_raise_to_1500() -> None:
    _, out = run(_situation_4(), push(3, 500))
    check(ruled(out), "raise", 1500, rules=("46C", "45B1"))


def test_TDA24_46_S4_b_covering_prior_chip_plus_100_must_raise_to_1300() -> None:
    _, out = run(_situation_4(), push(3, 100))
    check(ruled(out), "raise", 1300, add=200, rules=("46C", "45B1", "43A"))


def test_TDA24_46_S4_c_covering_chip_pulled_back_then_1000_and_500_raise_to_1500() -> None:
    _, out = run(_situation_4(), pull(3, 1000), push(3, 1000, 500))
    check(ruled(out), "raise", 1500, rules=("45B1",))


def test_TDA24_46_S4_d_call_declared_first_change_300() -> None:
    _, out = run(_situation_4(), say(3, "call"))
    check(ruled(out), "call", 700, returned=300, rules=("51A",))


def test_TDA24_46_S4_e_covering_chip_pulled_single_5000_goes_to_the_floor() -> None:
    hand, out = run(_situation_4(), pull(3, 1000), push(3, 5000))
    interp = ruled(out)
    assert options(interp) == {"call": ("call", 700, 4300, 0),
                               "bet_of_chip": ("raise", 5000, 0, 0)}
    assert "TDA2024-44" in floor_rules(interp) and "TDA2024-46C" in floor_rules(interp)
    assert hand.state.action_on == 3 and hand.state.seat(3).bet == 100  # waits for the floor
    hand, out = run(hand, FloorDecision(interp.floor.ruling_id, "bet_of_chip"))  # type: ignore[union-attr]
    assert hand.state.call_to == 5000 and hand.state.seat(3).bet == 5000


def test_TDA24_46_S5_combined_gesture_goes_to_the_floor() -> None:
    hand, out = run(_situation_1_to_3(), push(3, 1000, combined=True))
    interp = ruled(out)
    assert options(interp) == {"as_situations": ("call", 600, 450, 0),
                               "all_chips": ("raise", 1150, 0, 100)}
    assert floor_rules(interp) == ("TDA2024-46C", "TDA2024-1")
    assert hand.state.seat(3).bet == 50


def test_TDA24_46_B_D1_fold_after_pulling_back_prior_chips_is_refused() -> None:
    hand, out = run(_situation_1_to_3(), pull(3, 25, 25))
    assert out.rulings[0].kind is RulingKind.BINDING
    after, out = hand.step(say(3, "fold"))
    assert [r.code for r in out.alerts] == ["fold_not_allowed"]
    assert out.alerts[0].rule_ids == ("TDA2024-46B",) and out.alerts[0].seat == 3
    assert after.state is hand.state
    _, out = run(after, say(3, "call"))
    check(ruled(out), "call", 600, add=600)


def test_T24_RP22_D1_bounty_chip_alert_and_floor_call_or_all_in() -> None:
    from pokertable.controller.interpretation import ChipItem, ChipMotion

    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 2000))
    hand, out = hand.step(ChipMotion(2, (ChipItem(0, "bounty"),)))
    assert [r.code for r in out.alerts] == ["non_value_item"]
    assert out.alerts[0].rule_ids == ("TDA2024-RP-22",)
    interp = ruled(out)
    assert options(interp) == {"call": ("call", 2000, 0, 2000),
                               "all_in": ("all_in", 20000, 0, 20000)}
    assert hand.state.action_on == 2 and hand.state.seat(2).bet == 0


def test_R44_last_chip_as_an_overchip_is_a_call_not_all_in() -> None:
    hand = postflop({1: 10000, 2: 500, 3: 10000}, button=3, big=100)
    hand, out = run(hand, say(1, "bet", 300), push(2, 500))
    check(ruled(out), "call", 300, returned=200, rules=("44",))
    assert hand.state.seat(2).stack == 200 and hand.state.seat(2).status is SeatStatus.LIVE


def test_R44_overchip_facing_the_blind_is_a_call() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, out = run(hand, push(3, 1000))
    check(ruled(out), "call", 600, returned=400, rules=("44",))
    _, out = run(hand, say(4, "raise"), push(4, 1000))  # raise first: max for the chip ...
    check(ruled(out), "raise", 1200, add=200, rules=("51A", "43A"))  # ... completed (A6)


def test_R52A_silent_underbet_is_completed_to_the_minimum_bet() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=100)
    _, out = run(hand, push(1, 25, 25))
    check(ruled(out), "bet", 100, add=50, rules=("52A",))
    assert ruled(out).complete_to == 100
