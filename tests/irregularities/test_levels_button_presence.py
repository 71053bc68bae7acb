"""Levels (R23), button placement (R34), at-your-seat (R30) and killed hands (R65)."""

from __future__ import annotations

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.model import Level, Phase, SeatStatus, Variant
from pokertable.controller.engine.seating import TableSeat, TableState, after_hand, next_hand
from pokertable.controller.irregularities import HandStatus, redeal
from pokertable.controller.irregularities.dealing import first_seat
from pokertable.controller.irregularities.events import (
    Absent,
    CorrectButton,
    CorrectLevel,
    HandStart,
    HandStartKind,
    KillHand,
    LevelStarted,
    Present,
)
from pokertable.controller.irregularities.levels import LevelClock, hand_started, level_started
from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, codes, find, setup

L100 = Level(number=1, small_blind=100, big_blind=200)
L150 = Level(number=2, small_blind=150, big_blind=300)
NINE = {s: 20_000 for s in range(1, 10)}


def test_T24_23_D1_level_signal_after_hand_start_waits_for_the_next_hand() -> None:
    clock = LevelClock(current=L100)
    clock, level = hand_started(clock, HandStart(HandStartKind.SHUFFLER_BUTTON))
    assert level == L100
    table = Table(setup(NINE, button=1, sb=2, bb=3, level=level))
    clock, ruling = level_started(clock, LevelStarted(L150))
    assert ruling.rule_ids == ("TDA2024-23",)
    out = table.send(LevelStarted(L150))
    assert find(out, "level_next_hand").kind.value == "info"
    assert table.t.hand.level == L100 and table.t.hand.seat(3).committed == 200
    clock, level = hand_started(clock, HandStart(HandStartKind.FIRST_RIFFLE))
    assert level == L150


def test_T24_23_D1_level_during_dealer_push_gives_one_more_hand_at_the_prior_level() -> None:
    clock = LevelClock(current=L100)
    clock, _ = level_started(clock, LevelStarted(L150, during_dealer_push=True))
    clock, first = hand_started(clock, HandStart(HandStartKind.DEALER_PUSH))
    clock, second = hand_started(clock, HandStart(HandStartKind.FIRST_RIFFLE))
    assert (first, second) == (L100, L150)


def test_T24_23_D2_prior_level_by_mistake_after_SA_continues() -> None:
    table = Table(setup(NINE, button=1, sb=2, bb=3, level=L100))
    table.deal()
    table.acts((4, "fold"), (5, "call"))
    out = table.send(CorrectLevel(L150))
    assert find(out, "level_stands").rule_ids == ("TDA2024-23", "TDA2024-36")
    assert table.t.hand.level == L100


def test_T24_23_D2_prior_level_by_mistake_before_SA_is_corrected() -> None:
    table = Table(setup(NINE, button=1, sb=2, bb=3, level=L100))
    table.deal()
    table.acts((4, "fold"))
    out = table.send(CorrectLevel(L150))
    assert "level_corrected" in codes(out)
    hand = table.t.hand
    assert hand.level == L150 and hand.seat(3).committed == 300 and hand.seat(2).committed == 150
    assert hand.seat(4).status is SeatStatus.FOLDED and hand.action_on == 5
    assert hand.seat(5).hole  # the dealt cards survive the correction
    table.acts((5, "call"))
    assert hand.call_to == 300


def _button_moved_twice() -> Table:
    expected = setup(NINE, button=4, sb=5, bb=6, level=L100)
    actual = setup(NINE, button=5, sb=6, bb=7, level=L100)
    return Table(actual, expected=expected)


def test_TDA24_34A_EX1_button_mismatch_is_alerted_at_hand_start() -> None:
    table = _button_moved_twice()
    ruling = find(table.log, "button_mismatch")
    assert ruling.rule_ids == ("TDA2024-34A",) and "seat 4" in ruling.text


def test_TDA24_34A_EX1_a_after_SA_the_error_stands_and_is_not_backed_up() -> None:
    table = _button_moved_twice()
    table.deal()
    table.acts((8, "fold"), (9, "call"))
    out = table.send(CorrectButton())
    assert "button_error_stands" in codes(out) and table.t.hand.button == 5
    for seat in (1, 2, 3, 4, 5, 6, 7):
        table.acts((seat, "fold"))
    assert table.t.hand.phase is Phase.COMPLETE
    seats = tuple(TableSeat(s.seat, s.player, s.stack) for s in table.t.hand.seats)
    before = TableState(seats=seats, max_seats=9, button=4, small_blind_position=5,
                        big_blind_seat=6, big_blind_player="P6")
    nxt = next_hand(after_hand(before, table.t.hand), hand_id="h2", variant=Variant.NLHE,
                    level=L100)
    assert (nxt.button, nxt.small_blind_seat, nxt.big_blind_seat) == (6, 7, 8)


def test_TDA24_34A_EX1_b_before_SA_corrected_cards_out_means_misdeal() -> None:
    table = _button_moved_twice()
    table.deal()
    out = table.send(CorrectButton())
    ruling = find(out, "button_corrected")
    assert ruling.rule_ids == ("TDA2024-34A", "TDA2024-35A2")
    assert table.t.status is HandStatus.MISDEAL
    t2, _ = redeal(table.t, TDA_2024)
    assert (t2.hand.button, t2.hand.small_blind_seat, t2.hand.big_blind_seat) == (4, 5, 6)
    assert first_seat(t2) == 5


def test_TDA24_34A_before_the_deal_the_button_is_simply_moved() -> None:
    table = _button_moved_twice()
    table.send(CorrectButton())
    assert table.t.status is HandStatus.DEALING and table.t.hand.button == 4
    assert table.t.hand.seat(6).committed == 200
    assert table.deal() == []


def test_T24_34_D1_heads_up_first_card_to_the_big_blind() -> None:
    table_state = TableState(
        seats=(TableSeat(2, "B", 5000), TableSeat(3, "C", 5000)), max_seats=9, button=1,
        small_blind_position=2, big_blind_seat=3, big_blind_player="C")
    hand_setup: HandSetup = next_hand(table_state, hand_id="hu", variant=Variant.NLHE,
                                      level=L100)
    assert (hand_setup.button, hand_setup.small_blind_seat, hand_setup.big_blind_seat) == (3, 3, 2)
    table = Table(hand_setup)
    assert first_seat(table.t) == 2
    assert table.deal([2, 3, 2, 3]) == []
    assert table.t.hand.action_on == 3  # the button acts first pre-flop
    table.acts((3, "call"), (2, "check"))
    table.street(3)
    assert table.t.hand.action_on == 2  # and last after the flop
    wrong = Table(hand_setup)
    assert "misdeal_first_card" in codes(wrong.seat(3))


def test_T24_30_D1_absent_big_blind_dead_blind_stays_and_opens() -> None:
    table = Table(setup({5: 5000, 6: 5000, 7: 5000, 8: 5000}, button=5, sb=6, bb=7, level=L100))
    table.send(Absent(7))
    out = table.deal()
    ruling = find(out, "dead_hand_at_deal")
    assert ruling.rule_ids == ("TDA2024-30",) and ruling.seat == 7
    hand = table.t.hand
    assert hand.seat(7).status is SeatStatus.FOLDED and hand.seat(7).committed == 200
    assert hand.call_to == 200 and hand.action_on == 8
    table.acts((8, "call"), (5, "fold"), (6, "call"))
    assert table.t.hand.phase is Phase.DEALING
    assert table.t.hand.pot_total == 600


def test_TDA24_30_absent_player_back_before_the_last_card_plays() -> None:
    table = Table(setup({5: 5000, 6: 5000, 7: 5000}, button=5, sb=6, bb=7, level=L100))
    table.send(Absent(7))
    table.deal([6, 7, 5, 6])
    table.send(Present(7))  # back within reach of his chair before the last card
    table.deal([7, 5])
    assert table.t.hand.seat(7).status is SeatStatus.LIVE


def test_TDA24_31_leaving_with_a_live_hand_alerts() -> None:
    table = Table(setup({5: 5000, 6: 5000, 7: 5000}, button=5, sb=6, bb=7, level=L100))
    table.deal()
    out = table.send(Absent(6))
    assert find(out, "left_with_live_hand").rule_ids == ("TDA2024-31",)
    assert table.t.hand.seat(6).status is SeatStatus.LIVE


def test_TDA24_65A_killed_hand_uncalled_bet_returned_called_bets_stay() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "raise", 600), (4, "call"), (1, "fold"), (2, "call"))
    table.street(3)
    table.acts((2, "bet", 400), (3, "call"), (4, "raise", 1500))
    out = table.send(KillHand(4))  # the dealer kills seat 4's hand by mistake
    assert find(out, "hand_killed").rule_ids == ("TDA2024-65A",)
    returned = find(out, "uncalled_returned")
    assert returned.seat == 4 and "1100" in returned.text
    seat4 = table.t.hand.seat(4)
    assert seat4.status is SeatStatus.FOLDED
    assert seat4.committed == 600 + 400  # called: pre-flop 600 and the 400 matched on the flop
    # The raise nobody called is gone: seats 2 and 3 had matched the 400 bet, which stands,
    # so the flop's betting is over and the turn is next (they owe nothing to a dead raise).
    hand = table.t.hand
    assert hand.action_on is None and hand.phase is Phase.DEALING
    assert [hand.seat(n).committed for n in (2, 3)] == [1000, 1000]
    assert hand.pot_total == 600 * 3 + 100 + 400 * 3


def test_TDA24_65A_killed_raiser_preflop_the_blinds_keep_their_turn_and_option() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "call"), (4, "raise", 800))
    table.send(KillHand(4))  # killed before anyone answered the raise: 600 uncalled goes back
    hand = table.t.hand
    assert hand.seat(4).committed == 200 and hand.call_to == 200
    assert hand.action_on == 1 and hand.last_aggressor is None
    table.acts((1, "call"))
    assert table.t.hand.action_on == 2  # the big blind's option survives the dead raise
    table.acts((2, "raise", 400))  # the minimum raise is back to one big blind
    assert table.t.hand.call_to == 400


def test_TDA24_65A_kill_of_a_folded_hand_is_refused_without_change() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "fold"))
    before = table.t.hand
    out = table.send(KillHand(3))
    assert codes(out) == ["kill_not_live"] and table.t.hand == before
