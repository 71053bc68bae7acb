"""Sections D (TDA 2011) and E (Clubs NZ 2022) of shared/spec/addendum-cases.md.

Each test carries its case id. Where the controller has the layer, the same events run
under two profiles and both outcomes are asserted; where no module reads a parameter yet
(clock, colour-up, hand-for-hand, seating, balancing),
the test pins the value each profile carries, and docs/rules-coverage.md says so.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine import step
from pokertable.controller.engine.betting import options_for
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Level, SeatStatus, Street, Variant
from pokertable.controller.engine.pots import split_hi_lo
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import FloorDecision, InterpretedHand
from pokertable.controller.irregularities import redeal
from pokertable.controller.irregularities.events import Absent, ConfirmMisdeal, Present
from pokertable.controller.irregularities.showdown_requests import showdown_order
from pokertable.controller.rules import (
    BalanceHalt,
    BreakingMethod,
    ClockExpiry,
    ColorUp,
    HandForHandClock,
    PriorChipsOrder,
    RuleProfile,
)
from pokertable.controller.rules.profiles import ProfileError, load_profile
from tests.engine.helpers import preflop as engine_preflop
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
from tests.irregularities.table_driver import Table, find, setup

T24 = load_profile("tda-2024")
T22 = load_profile("tda-2022")
T11 = load_profile("tda-2011")
NZ = load_profile("clubs-nz-2022")
ACE = load_profile("ace-league")
ALL = {"tda-2024": T24, "tda-2022": T22, "tda-2011": T11, "clubs-nz-2022": NZ, "ace-league": ACE}

# --- D. TDA 2011 ---------------------------------------------------------------------------


def _blinds_200_400(rules: RuleProfile) -> InterpretedHand:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2, small=200,
                   big=400, rules=rules)
    hand, _ = run(hand, say(3, "raise", 1200))
    return hand


@pytest.mark.parametrize("name", sorted(ALL))
def test_TDA11_39_EX1_two_1000s_against_1200_is_a_call_in_every_profile(name: str) -> None:
    rules = ALL[name]
    _, out = run(_blinds_200_400(rules), push(4, 1000, 1000))
    reading = ruled(out)
    assert (reading.action, reading.total, reading.returned) == (ActionKind.CALL, 1200, 800)
    cited = {"tda-2011": "TDA2011-39"}.get(name, f"{rules.citation_prefix}-45A")
    assert cited in reading.rule_ids


def test_TDA11_44_EX1_I_bet_five_is_the_lesser_value_under_T11() -> None:
    def bet(rules: RuleProfile) -> tuple[int, tuple[str, ...]]:
        hand = postflop({1: 100000, 2: 100000}, button=2, big=400, pot=5000, rules=rules)
        _, out = run(hand, say(1, "bet", 5, magnitude_unclear=True, words="five"))
        return ruled(out).total, ruled(out).rule_ids

    total, ids = bet(T11)
    assert total == 500 and "TDA2011-44" in ids
    for rules in (T24, T22, NZ, ACE):
        total, ids = bet(rules)
        assert total == 5000 and f"{rules.citation_prefix}-57" in ids


def _utg_raise_1100(rules: RuleProfile) -> InterpretedHand:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2, small=250,
                   big=500, rules=rules)
    hand, _ = run(hand, say(3, "raise", 1100))
    return hand


def test_TDA11_39_D2_mixed_denominations_under_T11_go_to_the_50pct_standard() -> None:
    _, out = run(_utg_raise_1100(T24), push(4, 500, 1000))
    check(ruled(out), "call", 1100, returned=400, rules=("45A",))  # every chip needed
    # T11: the basis of "50% of the previous bet" is unset -> the TD chooses (A31).
    hand, out = run(_utg_raise_1100(T11), push(4, 500, 1000))
    reading = ruled(out)
    assert options(reading) == {"last_increment": ("raise", 1700, 0, 200),
                                "previous_bet": ("call", 1100, 400, 0)}
    assert "TDA2011-39" in floor_rules(reading) and "TDA2011-37" in floor_rules(reading)
    assert reading.floor is not None
    hand, out = hand.step(FloorDecision(reading.floor.ruling_id, "last_increment"))
    assert hand.state.seat(4).bet == 1700
    by_increment = load_profile("tda-2011", {"fifty_basis": "last_increment"})
    _, out = run(_utg_raise_1100(by_increment), push(4, 500, 1000))
    check(ruled(out), "raise", 1700, add=200)
    by_bet = load_profile("tda-2011", {"fifty_basis": "previous_bet"})
    _, out = run(_utg_raise_1100(by_bet), push(4, 500, 1000))
    check(ruled(out), "call", 1100, returned=400)


def test_TDA11_36_D1_two_motion_raise_valid_under_T11_string_bet_under_T24() -> None:
    def declared(rules: RuleProfile) -> InterpretedHand:
        hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=100, rules=rules)
        hand, _ = run(hand, say(1, "bet", 1000), say(2, "raise"))
        return hand

    hand, out = run(declared(T11), push(2, 1000))
    assert ruled(out).code == "two_motion_pending" and ruled(out).rule_ids == ("TDA2011-36",)
    assert hand.state.action_on == 2  # nothing ruled yet: the raise motion follows
    hand, out = run(hand, push(2, 1000, 500, at_ms=2000))
    reading = ruled(out)
    assert (reading.action, reading.total) == (ActionKind.RAISE, 2500)
    assert hand.state.increment == 1500 and out.alerts == ()
    hand, out = run(declared(T24), push(2, 1000))
    check(ruled(out), "raise", 2000, add=1000, rules=("51A", "43A"))
    _, out = hand.step(push(2, 1000, 500, at_ms=2000))
    assert [r.code for r in out.alerts] == ["string_bet"]


def test_TDA11_24_D1_clock_one_minute_ten_second_countdown_hand_dead() -> None:
    """No clock module yet (docs/rules-coverage.md R29): the profiles carry the rule."""
    assert (T11.clock_seconds, T11.clock_countdown_seconds) == (60, 10)
    assert T11.clock_expiry_not_facing_bet is ClockExpiry.DEAD_HAND
    assert T11.cite("clock") == "TDA2011-24"
    for rules in (T24, T22, NZ, ACE):
        assert (rules.clock_seconds, rules.clock_countdown_seconds) == (25, 5)
        assert rules.clock_expiry_not_facing_bet is ClockExpiry.CHECK
    assert ACE.clock_min_wait_seconds == 120 and T24.clock_min_wait_seconds is None


def _river_checked_2_5_8(rules: RuleProfile) -> Table:
    stacks = {s: 5000 for s in (1, 2, 5, 8)}
    table = Table(setup(stacks, button=1, sb=2, bb=5, level=Level(small_blind=50, big_blind=100)),
                  rules=rules)
    table.deal()
    table.acts((8, "call"), (1, "fold"), (2, "call"), (5, "check"))
    for n in (3, 1, 1):
        table.street(n)
        table.acts((2, "check"), (5, "check"), (8, "check"))
    return table


def test_TDA11_12_D1_show_order_mandatory_clockwise_under_T11() -> None:
    hand = _river_checked_2_5_8(T11).t.hand
    assert hand.street is Street.RIVER and hand.action_on is None
    assert showdown_order(hand, T11) == ((2, 5, 8), True)
    hand = _river_checked_2_5_8(T24).t.hand
    assert showdown_order(hand, T24) == ((2,), False)  # the TD may ask seat 2 first, no more


def test_TDA11_12_D1_last_river_aggressor_shows_first() -> None:
    table = Table(setup({1: 5000, 2: 5000, 5: 5000}, button=1, sb=2, bb=5,
                        level=Level(small_blind=50, big_blind=100)), rules=T11)
    table.deal()
    table.acts((1, "call"), (2, "call"), (5, "check"))
    for n in (3, 1):
        table.street(n)
        table.acts((2, "check"), (5, "check"), (1, "check"))
    table.street(1)
    table.acts((2, "bet", 200), (5, "raise", 600), (1, "call"), (2, "call"))
    assert showdown_order(table.t.hand, T11) == ((5, 1, 2), True)


# --- E. Clubs NZ 2022 ----------------------------------------------------------------------


def test_NZ22_24_EXA_and_EXB_colour_up_rounds_up_without_a_race() -> None:
    """No colour-up module yet (R24 row in docs/rules-coverage.md): the profiles carry it."""
    assert NZ.color_up is ColorUp.ROUND_UP_NO_RACE and ACE.color_up is ColorUp.ROUND_UP_NO_RACE
    assert T24.color_up is ColorUp.RACE_THEN_EXCHANGE
    assert T11.color_up is ColorUp.RACE_NO_EXCHANGE and T11.cite("color_up") == "TDA2011-20"


def test_NZ22_RP8B_EX1_hand_for_hand_runs_two_minutes_per_hand() -> None:
    assert NZ.hand_for_hand_clock is HandForHandClock.FIXED_2_MIN_PER_HAND
    assert T24.hand_for_hand_clock is HandForHandClock.DEDUCT_UP_TO_3_MIN
    assert T22.hand_for_hand_clock is HandForHandClock.DEDUCT_UP_TO_3_MIN  # not recoverable


def test_NZ22_20F_EX1_omaha_hi_lo_identical_hands_split_33_33_NZ_34_32_T24() -> None:
    """A (seat 2) and B (seat 5) both hold 2-3-4-5-6 for high and low; 66 chips; button 1."""
    for rules in (NZ, T11):
        assert split_hi_lo(66, [2, 5], [2, 5], 1, rules) == ((2, 33), (5, 33))
    for rules in (T24, T22, ACE):  # R20-D deleted 2022: halves 33/33, each 17/16 (A16)
        assert split_hi_lo(66, [2, 5], [2, 5], 1, rules) == ((2, 34), (5, 32))


def test_NZ22_20F_EX2_stud_hi_lo_identical_hands_split_evenly() -> None:
    """Stud: the odd unit of each half goes to the high card by suit, A's 6 of spades."""
    by_suit = [2, 5]  # A (6s) before B (6c): the caller orders stud winners by suit
    assert split_hi_lo(66, by_suit, by_suit, 1, NZ) == ((2, 33), (5, 33))
    assert split_hi_lo(66, by_suit, by_suit, 1, T24) == ((2, 34), (5, 32))


def test_T24_20_D2_hi_lo_odd_unit_of_the_pot_goes_high_in_every_profile() -> None:
    for rules in (T24, NZ, T11):
        assert split_hi_lo(1075, [3], [7], 25, rules) == ((3, 550), (7, 525))


def test_NZ22_10_EX1_breaking_tables_by_table_card_draw() -> None:
    assert NZ.seating_breaking is BreakingMethod.TD_ASSIGNED_CARD_DRAW
    assert T24.seating_breaking is BreakingMethod.RANDOM_TWO_STEP


def test_NZ22_46_D1_covering_chip_pulled_back_plus_overchip_goes_to_the_floor() -> None:
    for rules in (T24, NZ):
        hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=50,
                       big=100, rules=rules)
        hand, _ = run(hand, push(2, 1000), say(3, "raise", 700), say(1, "fold"))
        _, out = run(hand, pull(2, 1000), push(2, 5000))
        reading = ruled(out)
        assert reading.kind is RulingKind.FLOOR
        assert set(options(reading)) == {"call", "bet_of_chip"}
        assert f"{rules.citation_prefix}-46C" in floor_rules(reading)
    assert NZ.prior_chips_order is PriorChipsOrder.NZ_2022


def _flop_bet_200_raise_600(rules: RuleProfile) -> InterpretedHand:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=100, rules=rules)
    hand, _ = run(hand, say(1, "bet", 200), say(2, "raise", 600))
    return hand


def test_NZ22_48_D1_minimum_reraise_double_the_previous_bet() -> None:
    t24 = _flop_bet_200_raise_600(T24)
    nz = _flop_bet_200_raise_600(NZ)
    t24_options, nz_options = options_for(t24.state, T24), options_for(nz.state, NZ)
    assert t24_options is not None and nz_options is not None
    assert (t24_options.min_to, nz_options.min_to) == (1000, 1200)
    _, out = run(nz, say(3, "raise", 1000))
    check(ruled(out), "raise", 1200, add=1200)
    assert "NZ2022-48" in ruled(out).rule_ids  # the completion cites the NZ rule
    _, out = run(t24, say(3, "raise", 1000))
    check(ruled(out), "raise", 1000, add=1000)
    same, rulings = step(nz.state, PlayerAction(3, ActionKind.RAISE, 1000), NZ)
    assert same is nz.state and rulings[0].kind is RulingKind.REJECTED
    after, _ = step(t24.state, PlayerAction(3, ActionKind.RAISE, 1000), T24)
    assert after.call_to == 1000
    # all in for less is always allowed ("unless an all-in bet is declared")
    short = postflop({1: 20000, 2: 20000, 3: 1100}, button=3, big=100, rules=NZ)
    short, _ = run(short, say(1, "bet", 200), say(2, "raise", 600))
    after, rulings = step(short.state, PlayerAction(3, ActionKind.ALL_IN), NZ)
    assert after.seat(3).status is SeatStatus.ALL_IN and after.call_to == 1100


def test_NZ22_11D_D1_halting_without_the_blinds_condition() -> None:
    assert NZ.balance_halt is BalanceHalt.THREE_SHORT
    assert T11.balance_halt is BalanceHalt.THREE_SHORT
    assert T24.balance_halt is BalanceHalt.BY_ELIMINATION_BLINDS_IMPACTED


def _misdeal_with_seat_4_away(rules: RuleProfile) -> Table:
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2), rules=rules)
    table.send(Absent(4))
    table.deal([2, 1, 3, 4, 5, 6])  # first card to the wrong seat
    table.act(3, "fold")
    table.send(ConfirmMisdeal())
    t2, _ = redeal(table.t, rules)
    again = Table.from_tracked(t2, rules)
    again.send(Present(4))
    again.deal()
    return again


def test_NZ22_35C_D1_absent_player_plays_the_redeal_T24_killed_NZ_and_T22() -> None:
    assert _misdeal_with_seat_4_away(T24).t.hand.seat(4).status is SeatStatus.LIVE
    for rules in (NZ, T22):
        again = _misdeal_with_seat_4_away(rules)
        assert again.t.hand.seat(4).status is SeatStatus.FOLDED
        assert find(again.log, "dead_hand_at_deal").rule_ids == (f"{rules.citation_prefix}-35C",)


def test_NZ22_54B_D1_plo_dead_small_blind() -> None:
    def max_to(rules: RuleProfile) -> int:
        state = engine_preflop({2: 10_000, 3: 10_000, 4: 10_000}, button=4, sb=None, bb=2,
                               level=Level(small_blind=100, big_blind=200), variant=Variant.PLO,
                               rules=rules)
        opts = options_for(state, rules)
        assert opts is not None
        return opts.max_to

    assert max_to(T24) == max_to(ACE) == 700
    assert max_to(NZ) == max_to(T22) == 600


def test_NZ22_35A_D1_wrong_number_of_cards_misdeal_T24_floor_NZ() -> None:
    order = [1, 2, 3, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6]  # seat 3 gets 3 cards
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2), rules=T24)
    assert find(table.deal(order), "misdeal_card_count").rule_ids[0] == "TDA2024-35A5"
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2), rules=NZ)
    ruling = find(table.deal(order), "card_count_floor")
    assert ruling.kind is RulingKind.FLOOR and ruling.rule_ids == ("NZ2022-35A",)
    assert table.t.misdeal is None


@pytest.mark.parametrize("key", ["clock_seconds", "clock_countdown_seconds",
                                 "clock_min_wait_seconds"])
def test_R29_a_negative_clock_duration_is_refused_naming_the_parameter(key: str) -> None:
    with pytest.raises(ProfileError, match=rf"parameter '{key}': .*greater than or equal to 0"):
        load_profile("tda-2024", {key: -1})
