"""Words and the floor: Add. 40-A, 41, 43, 47, 49, 50-B, 51, 52, 54-B, 55, 57 cases."""

from __future__ import annotations

import pytest

from pokertable.controller.engine.betting import Options, options_for
from pokertable.controller.engine.model import SeatStatus, Street, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import (
    CountErrorNoticed,
    FloorDecision,
    InterpretedHand,
    PotCountGiven,
    Precedence,
)
from tests.interpretation.helpers import (
    check,
    floor_rules,
    options,
    postflop,
    preflop,
    push,
    ruled,
    run,
    say,
)


def _opts(hand: InterpretedHand) -> Options:
    opts = options_for(hand.state, hand.rules)
    assert opts is not None
    return opts


def test_TDA24_40A_EX1_unclear_words_and_chips_contradict_floor_holds_the_hand() -> None:
    hand = postflop({1: 100000, 2: 100000}, button=2, big=4000, street=Street.RIVER)
    hand, out = run(hand, say(1, "amount", 42000, Precedence.UNCLEAR), push(1, 5000))
    interp = ruled(out)
    assert options(interp) == {"chips": ("bet", 5000, 0, 0), "verbal": ("bet", 42000, 0, 37000)}
    assert floor_rules(interp) == ("TDA2024-40A", "TDA2024-1")
    hand, out = hand.step(push(2, 5000))  # B's chips wait: the bet is not known yet
    assert [r.code for r in out.alerts] == ["amount_pending"]
    assert hand.state.call_to == 0
    hand, out = run(hand, FloorDecision(interp.floor.ruling_id, "verbal"))  # type: ignore[union-attr]
    assert hand.state.seat(1).bet == 42000
    # B's 5000 is now ruled in turn: an undercall heads-up is a mandatory full call (R51-B(1)).
    check(ruled(out), "call", 42000, add=37000, rules=("51B",))


def test_TDA24_41_EX1_tiny_chip_against_a_big_bet_goes_to_the_floor() -> None:
    hand = postflop({1: 200000, 2: 200000, 3: 200000}, button=3, big=4000)
    hand, out = run(hand, say(1, "bet", 50000), push(2, 1000))
    interp = ruled(out)
    assert options(interp) == {"full_call": ("call", 50000, 0, 49000),
                               "forfeit_fold": ("fold", 0, 0, 0)}
    assert {"TDA2024-41", "TDA2024-51B"} <= set(floor_rules(interp))
    assert "subject to penalty" in interp.text and "full call" in interp.text


def _flop_4(bb: int = 200, stacks: int = 20000) -> InterpretedHand:
    return postflop({1: stacks, 2: stacks, 3: stacks, 4: stacks}, button=4, big=bb)


def test_TDA24_43_EX1_min_raise_is_the_largest_increment() -> None:
    hand, out = run(_flop_4(), say(1, "bet", 600), say(2, "raise", 1600), say(3, "raise", 3600))
    check(ruled(out), "raise", 3600, add=3600, rules=("43B",))
    assert (hand.state.increment, _opts(hand).min_to) == (2000, 5600)
    _, out = run(hand, say(4, "raise", 5000))
    check(ruled(out), "raise", 5600, add=5600, rules=("43A", "52A"))
    assert ruled(out).kind is RulingKind.CORRECTED


def test_TDA24_43_EX2_short_all_in_does_not_raise_the_minimum() -> None:
    hand = preflop({1: 10000, 2: 10000, 3: 150, 4: 10000}, button=4, sb=1, bb=2,
                   small=50, big=100)
    hand, out = run(hand, say(3, "all_in"))
    check(ruled(out), "all_in", 150, add=150)
    assert (hand.state.call_to, hand.state.increment, _opts(hand).min_to) == (150, 100, 250)


def test_TDA24_43_EX4A_and_EX4B_min_raise_after_several_raises() -> None:
    stacks = {s: 10000 for s in range(1, 7)}
    start = preflop(stacks, button=6, sb=1, bb=2, small=25, big=50)
    hand, _ = run(start, say(3, "raise", 125), say(4, "raise", 200), say(5, "raise", 500))
    assert _opts(hand).min_to == 800
    hand, _ = run(start, say(3, "raise", 500), say(4, "call"), say(5, "call"))
    assert _opts(hand).min_to == 950


@pytest.mark.parametrize(("case", "events", "action", "total", "returned", "add", "rule"), [
    ("i", [say(2, "amount", 1400)], "call", 1000, 0, 1000, "40C"),
    ("ii", [push(2, 1000, 100, 100, 100, 100)], "call", 1000, 400, 0, "45B1"),
    ("iii", [say(2, "raise"), push(2, 1000, 100, 100, 100, 100)], "raise", 2000, 0, 600, "43A"),
    ("iv", [say(2, "amount", 1500)], "raise", 2000, 0, 2000, "43A"),
])
def test_TDA24_43A_EX1_fourteen_hundred_facing_1000(case: str, events: list[object],
                                                   action: str, total: int, returned: int,
                                                   add: int, rule: str) -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=400)
    hand, _ = run(hand, say(1, "bet", 1000))
    hand, out = run(hand, *events)  # type: ignore[arg-type]
    check(ruled(out), action, total, returned=returned, add=add, rules=(rule,))
    if case == "i":  # pushing 1400 afterwards: 400 comes back as change
        _, paid = run(hand, push(2, 1000, 100, 100, 100, 100))
        assert (ruled(paid).returned, ruled(paid).add) == (400, 0)


def test_TDA24_43B_EX1_raise_eight_thousand_is_the_total() -> None:
    hand = postflop({1: 50000, 2: 50000, 3: 50000}, button=3, big=1000)
    hand, out = run(hand, say(1, "bet", 2000), say(2, "raise", 8000))
    check(ruled(out), "raise", 8000, add=8000, rules=("43B",))
    assert (hand.state.increment, _opts(hand).min_to) == (6000, 14000)


def test_TDA24_47_EX1_cumulative_short_all_ins_reopen_and_EX1A_EX1B() -> None:
    hand = postflop({1: 5000, 2: 125, 3: 5000, 4: 200, 5: 5000}, button=5, big=100)
    hand, _ = run(hand, say(1, "bet", 100), say(2, "all_in"), say(3, "call"), say(4, "all_in"),
                  say(5, "call"))
    assert hand.state.action_on == 1 and _opts(hand).can_raise and _opts(hand).min_to == 300
    called, _ = run(hand, say(1, "call"))
    assert called.state.action_on == 3 and not _opts(called).can_raise  # EX1A
    raised, _ = run(hand, say(1, "raise", 300))
    assert raised.state.action_on == 3 and _opts(raised).can_raise  # EX1B
    assert _opts(raised).min_to == 400
    # C said "raise" although not re-opened: he may only call (R47-A).
    _, out = run(called, say(3, "raise", 1000))
    check(ruled(out), "call", 200, add=75, rules=("47A",))


def test_TDA24_47_EX3A_short_all_in_preflop_limper_not_reopened_EX3B_reopened() -> None:
    stacks = {1: 100000, 2: 100000, 3: 100000, 4: 100000, 5: 7500, 6: 100000}
    hand = preflop(stacks, button=6, sb=1, bb=2, small=2000, big=4000)
    hand, _ = run(hand, say(3, "call"), say(4, "fold"), say(5, "all_in"), say(6, "fold"),
                  say(1, "fold"))
    assert hand.state.action_on == 2 and _opts(hand).min_to == 11500
    called, _ = run(hand, say(2, "call"))
    assert called.state.action_on == 3 and not _opts(called).can_raise
    raised, _ = run(hand, say(2, "raise", 11500))
    assert raised.state.action_on == 3 and _opts(raised).min_to == 15500


def test_TDA24_49_D1_call_after_a_wrong_count_is_the_full_correct_amount() -> None:
    hand = postflop({1: 50000, 2: 50000, 3: 50000}, button=3, big=1000, pot=10500,
                    variant=Variant.PLO)
    hand, _ = run(hand, say(1, "bet", 6000))
    hand, out = hand.step(PotCountGiven(2, 9000))  # wrong: B could pot to 28500
    assert [r.code for r in out.alerts] == ["pot_miscount"]
    hand, out = run(hand, say(2, "call"))
    check(ruled(out), "call", 6000, add=6000, rules=("49", "51A"))


def test_TDA24_50B_EX1_premature_fold_before_the_raise_amount_is_known() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 300))
    hand, out = run(hand, say(2, "raise"))
    assert ruled(out).waiting and ruled(out).code == "amount_pending"
    hand, out = hand.step(say(3, "fold"))
    assert [r.code for r in out.alerts] == ["amount_pending"]
    assert out.alerts[0].rule_ids == ("TDA2024-50B",)
    premature = ruled(out)
    assert options(premature) == {"binding": (None, 0, 0, 0), "void": (None, 0, 0, 0)}
    assert hand.state.seat(3).status is SeatStatus.LIVE
    hand, out = run(hand, push(2, 500, 100))  # A's raise is at least a minimum raise (R51-A)
    check(ruled(out), "raise", 600, rules=("51A",))
    assert hand.state.action_on == 3  # C waits for the floor
    hand, _ = run(hand, FloorDecision(premature.floor.ruling_id, "binding"))  # type: ignore[union-attr]
    assert hand.state.seat(3).status is SeatStatus.FOLDED


def _flop_abc(bb: int = 2000, stacks: int = 50000, seats: int = 3) -> InterpretedHand:
    return postflop({s: stacks for s in range(1, seats + 1)}, button=seats, big=bb)


def test_TDA24_51_EX1_undercall_of_a_raise_multiway_is_td_discretion() -> None:
    hand, out = run(_flop_abc(), say(1, "bet", 2000), say(2, "raise", 8000), push(3, 1000, 1000))
    interp = ruled(out)
    assert options(interp) == {"full_call": ("call", 8000, 0, 6000),
                               "forfeit_fold": ("fold", 0, 0, 0)}
    assert floor_rules(interp) == ("TDA2024-51B",)
    assert hand.state.action_on == 3 and hand.state.seat(3).bet == 0
    hand, _ = run(hand, FloorDecision(interp.floor.ruling_id, "full_call"))  # type: ignore[union-attr]
    assert hand.state.seat(3).bet == 8000


def test_TDA24_51_EX2_undercall_of_the_opening_bet_is_a_full_call() -> None:
    _, out = run(_flop_abc(seats=4), say(1, "bet", 8000), push(2, 1000, 1000))
    check(ruled(out), "call", 8000, add=6000, rules=("51B",))
    assert ruled(out).kind is RulingKind.CORRECTED


def test_TDA24_51_EX3_call_declared_commits_to_the_full_amount() -> None:
    hand, out = run(_flop_abc(), say(1, "bet", 2000), say(2, "raise", 8000), say(3, "call"))
    check(ruled(out), "call", 8000, add=8000, rules=("51A",))
    _, out = run(hand, push(3, 1000, 1000))
    assert (ruled(out).code, ruled(out).add) == ("owed", 6000)


def test_TDA24_51_EX4_undercall_forfeit_400_of_a_500_chip_and_fold() -> None:
    hand, out = run(_flop_abc(bb=400, stacks=20000), say(1, "bet", 400), say(2, "raise", 1200),
                    push(3, 500))
    interp = ruled(out)
    assert set(options(interp)) == {"full_call", "forfeit_fold"}
    hand, out = run(hand, FloorDecision(interp.floor.ruling_id, "forfeit_fold", forfeit=400))  # type: ignore[union-attr]
    assert (ruled(out).action, ruled(out).returned) == ("fold", 100)
    assert "forfeits 400" in ruled(out).text
    assert hand.state.seat(3).status is SeatStatus.FOLDED
    # The 400 reaches the pot as dead money; the other 100 went back to his stack.
    before = _flop_abc(bb=400, stacks=20000).state.seat(3)
    after = hand.state.seat(3)
    assert (before.stack - after.stack, after.committed - before.committed) == (400, 400)
    assert hand.state.pot_total - _flop_abc(bb=400, stacks=20000).state.pot_total == (
        400 + 1200 + 400)


def test_TDA24_51C_undercalls_in_sequence_back_up_to_the_first() -> None:
    hand, out = run(_flop_abc(seats=4), say(1, "bet", 2000), say(2, "raise", 8000),
                    push(3, 1000, 1000))
    first = ruled(out)
    hand, out = hand.step(push(4, 1000, 1000))
    assert [r.code for r in out.alerts] == ["undercall_sequence"]
    assert out.alerts[0].rule_ids == ("TDA2024-51C",)
    hand, out = run(hand, FloorDecision(first.floor.ruling_id, "full_call"))  # type: ignore[union-attr]
    second = ruled(out)  # the later undercaller is ruled in turn: again the TD's call
    assert second.seat == 4 and set(options(second)) == {"full_call", "forfeit_fold"}


def test_TDA24_52A_EX1_underraise_must_be_raised_to_the_minimum() -> None:
    hand = postflop({s: 20000 for s in range(1, 6)}, button=5, big=200)
    hand, out = run(hand, say(1, "bet", 600), say(2, "raise", 1000))
    check(ruled(out), "raise", 1200, add=1200, rules=("43A", "52A"))
    assert ruled(out).complete_to == 1200


def _plo_flop(seats: int = 3) -> InterpretedHand:
    return postflop({s: 50000 for s in range(1, seats + 1)}, button=seats, big=1000,
                    pot=10500, variant=Variant.PLO)


def test_TDA24_52B_EX1_too_low_count_stands_after_substantial_action() -> None:
    hand, out = _plo_flop().step(PotCountGiven(1, 9500))
    assert [r.code for r in out.alerts] == ["pot_miscount"]
    hand, out = run(hand, push(1, 5000, 1000, 1000, 1000, 1000, 500), say(2, "fold"),
                    say(3, "call"), CountErrorNoticed())
    assert [r.code for r in out.rulings] == ["count_error_stands"]
    assert out.rulings[0].rule_ids == ("TDA2024-52B",)
    assert hand.state.seat(1).bet == 9500


def test_TDA24_52B_EX2_too_low_count_corrected_before_substantial_action() -> None:
    hand, _ = _plo_flop().step(PotCountGiven(1, 9500))
    hand, out = run(hand, push(1, 5000, 1000, 1000, 1000, 1000, 500), say(2, "fold"),
                    CountErrorNoticed())
    check(ruled(out), "bet", 10500, add=1000, rules=("52B",))
    assert hand.state.seat(1).bet == 10500 and hand.state.seat(2).status is SeatStatus.FOLDED
    assert hand.state.action_on == 3 and _opts(hand).to_call == 10500


def test_TDA24_52B_EX3_overbet_from_a_too_high_count_is_reduced_at_once() -> None:
    hand, _ = _plo_flop(4).step(PotCountGiven(1, 11500))
    hand, out = run(hand, push(1, 5000, 5000, 1000, 500))
    check(ruled(out), "bet", 10500, returned=1000, rules=("54",))
    assert ruled(out).kind is RulingKind.CORRECTED


@pytest.mark.parametrize("dead_sb", [True, False])
def test_TDA24_54B_EX1_EX2_pot_preflop_assumes_full_blinds(dead_sb: bool) -> None:
    stacks = {1: 20000, 2: 100 if not dead_sb else 20000, 3: 20000, 4: 20000}
    hand = preflop(stacks, button=4, sb=None if dead_sb else 1, bb=2, small=100, big=200,
                   variant=Variant.PLO)
    _, out = run(hand, say(3, "pot"))
    check(ruled(out), "raise", 700, add=700, rules=("54",))


def test_T24_54_D1_pot_limit_repots() -> None:
    hand = preflop({s: 20000 for s in range(1, 5)}, button=4, sb=1, bb=2, small=100, big=200,
                   variant=Variant.PLO)
    hand, _ = run(hand, say(3, "pot"), say(4, "pot"), say(1, "fold"))
    _, out = run(hand, say(2, "pot"))
    check(ruled(out), "raise", 8000, add=7800)


def test_TDA24_54D_I_bet_the_pot_in_no_limit_binds_to_a_valid_bet() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200, pot=1000)
    hand, out = run(hand, say(1, "pot"))
    assert ruled(out).waiting
    _, out = run(hand, push(1, 100))
    check(ruled(out), "bet", 200, add=100, rules=("54D", "52A"))


def test_T24_55_D1_invalid_declarations() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=100)
    _, out = run(hand, say(1, "call"))
    check(ruled(out), "check", 0, rules=("55A",))
    _, out = run(hand, say(1, "raise"), push(1, 50))
    check(ruled(out), "bet", 100, add=50, rules=("55B",))
    facing, _ = run(hand, say(1, "bet", 300))
    facing, out = run(facing, say(2, "check"))
    assert ruled(out).code == "check_facing_bet" and ruled(out).rule_ids == ("TDA2024-55",)
    _, out = run(facing, push(2, 500, 500))  # would be a raise to 1000: only call or fold
    check(ruled(out), "call", 300, returned=700, rules=("55",))


@pytest.mark.parametrize(("pot", "bet"), [(4900, 500), (5000, 5000), (5100, 5000)])
def test_TDA24_57_EX1_I_bet_five(pot: int, bet: int) -> None:
    hand = postflop({1: 100000, 2: 100000}, button=2, big=400, pot=pot)
    _, out = run(hand, say(1, "bet", 5, magnitude_unclear=True, words="five"))
    check(ruled(out), "bet", bet, add=bet, rules=("57",))


def test_TDA24_57_A21_no_meaning_within_the_pot_goes_to_the_floor() -> None:
    hand = postflop({1: 100000, 2: 100000}, button=2, big=400, pot=300)
    _, out = run(hand, say(1, "bet", 5, magnitude_unclear=True))
    assert set(options(ruled(out))) == {"to_500", "to_5000", "to_50000"}


def test_TDA24_57_A21_a_short_seat_saying_five_may_mean_his_all_in_call() -> None:
    """500 behind facing 1,000: "five" can only be 500, a call all in; the TD gets it."""
    hand = postflop({1: 20000, 2: 500}, button=2, big=100, pot=300)
    hand, _ = run(hand, say(1, "bet", 1000), push(1, 1000))
    hand, out = run(hand, say(2, "raise", 5, magnitude_unclear=True, words="five"))
    interp = ruled(out)
    assert options(interp) == {"call": ("call", 500, 0, 500)}
    called, _ = run(hand, FloorDecision(interp.floor.ruling_id, "call"))  # type: ignore[union-attr]
    assert called.state.seat(2).stack == 0 and called.state.seat(2).bet == 500


def test_TDA11_36_D1_two_motion_raise_is_a_string_bet_under_T24() -> None:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000), say(2, "raise"))
    hand, out = run(hand, push(2, 1000))
    check(ruled(out), "raise", 2000, add=1000, rules=("51A", "43A"))
    hand, out = hand.step(push(2, 1000, 500))
    assert [r.code for r in out.alerts] == ["string_bet"]
    interp = ruled(out)
    assert options(interp) == {"first_motion": (None, 0, 500, 0),
                               "count_all": ("raise", 2500, 0, 0)}
    assert "TDA2024-56" in floor_rules(interp)
    counted, _ = run(hand, FloorDecision(interp.floor.ruling_id, "count_all"))  # type: ignore[union-attr]
    assert counted.state.seat(2).bet == 2500 and counted.pending.zone(2).owed == 0
    kept, _ = run(hand, FloorDecision(interp.floor.ruling_id, "first_motion"))  # type: ignore[union-attr]
    assert kept.state.seat(2).bet == 2000 and kept.pending.zone(2).change == 500


def test_ACE_51B_EX1_and_EX2_T24_undercall_of_the_opening_bet() -> None:
    _, out = run(_flop_abc(bb=200, stacks=20000), say(1, "bet", 1000), push(2, 500))
    check(ruled(out), "call", 1000, add=500, rules=("51B",))
    hand = postflop({1: 3000, 2: 20000, 3: 20000, 4: 20000}, button=4, big=200)
    _, out = run(hand, say(1, "all_in"), push(2, 100, 100))
    check(ruled(out), "call", 3000, add=2800, rules=("51B",))


def test_R59A_conditional_declaration_goes_to_the_floor() -> None:
    hand = postflop({1: 20000, 2: 20000}, button=2, big=200)
    hand, _ = run(hand, say(1, "bet", 500))
    hand, out = run(hand, say(2, "conditional", words="if you bet I raise"))
    interp = ruled(out)
    assert set(options(interp)) == {"call_500", "fold_0", "raise_1000"}
    assert floor_rules(interp)[0] == "TDA2024-59A"
    hand, _ = run(hand, FloorDecision(interp.floor.ruling_id, "raise_1000"))  # type: ignore[union-attr]
    assert hand.state.call_to == 1000


def test_R40A_words_spoken_first_but_entered_after_the_chips_replace_the_chip_ruling() -> None:
    hand = preflop({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2,
                   small=300, big=600)
    hand, out = run(hand, push(3, 1000, 100))
    check(ruled(out), "raise", 1200, add=100)
    hand, out = run(hand, say(3, "call", precedence=Precedence.VERBAL_FIRST))
    check(ruled(out), "call", 600, returned=500, rules=("51A", "40A"))
    assert (hand.state.call_to, hand.state.seat(3).bet, hand.state.action_on) == (600, 600, 4)
    assert hand.pending.zone(3).change == 500 and hand.pending.zone(3).owed == 0


def test_R62_chips_found_behind_an_all_in_floor_decides() -> None:
    from pokertable.controller.interpretation import ChipsFoundBehind

    hand = postflop({1: 3000, 2: 20000}, button=2, big=200)
    hand, _ = run(hand, say(1, "all_in"), say(2, "call"))
    hand, out = hand.step(ChipsFoundBehind.of(1, 1000))
    interp = ruled(out)
    assert set(options(interp)) == {"in_action", "not_in_action"}
    assert floor_rules(interp) == ("TDA2024-62", "TDA2024-49")
    kept, _ = run(hand, FloorDecision(interp.floor.ruling_id, "not_in_action"))  # type: ignore[union-attr]
    assert kept.state.seat(1).bet == 3000 and not kept.pending.floors
    counted, _ = run(hand, FloorDecision(interp.floor.ruling_id, "in_action"))  # type: ignore[union-attr]
    assert (counted.state.seat(1).bet, counted.state.seat(2).bet) == (4000, 4000)
    assert counted.pending.zone(2).owed == 1000 + hand.pending.zone(2).owed


def test_TDA24_47_EX2_min_raise_after_several_short_all_ins() -> None:
    hand = postflop({1: 10000, 2: 500, 3: 650, 4: 800, 5: 10000, 6: 10000}, button=6, big=100)
    hand, out = run(hand, say(1, "bet", 300), say(2, "all_in"), say(3, "all_in"), push(4, 500, 100,
                    100, 100), say(5, "call"))
    check(ruled(out), "call", 800, add=800, rules=("51A",))
    assert hand.state.increment == 300 and _opts(hand).min_to == 1100
    hand, _ = run(hand, say(6, "call"))
    assert hand.state.action_on == 1 and _opts(hand).can_raise  # faced 500 >= 300
