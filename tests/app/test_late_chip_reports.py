"""Chips read after the table has moved on: a bet declared first, its chips reported late.

The readers report a chip motion once the chips have settled, up to ``chip_report_lag_ms``
after they land, while a word on the console is read at once. A player who declares a bet
(an all in, capped at the limit) and pushes its chips may be raised and fold, or see the
hand end, before the readers report those chips. They are the chips of his declared bet,
which he owes: paid, not "chips at a folded seat" or "chips with no hand in progress" for
the floor. (The HORSE demo met both under load, hand 9 of stud hi-lo and the 8-game mix.)
These tests drive ``TableSession`` with the inputs in that order.
"""

from __future__ import annotations

from pokertable.controller.engine.model import Level, Phase, Variant
from tests.app.rules_table import RulesTable
from tests.app.stud_table import StudTable


def _alerts(table: RulesTable) -> list[str]:
    return [r["text"] for r in table.rulings() if r["kind"] == "alert"]


def test_R51A_an_all_ins_chips_read_after_he_folded_to_a_raise_pay_his_bet() -> None:
    """Stud hi-lo, fourth street (the HORSE demo's hand 9): seat 2 declares all in (the
    maximum, 100) and seat 3 too (a raise to 200); before the readers report seat 3's
    chips, seat 1 calls, seat 2 raises to 300 and seat 3 folds. Seat 3's 200 then read are
    his raise, owed since he declared it: his bet is complete, nothing for the floor."""
    table = StudTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, variant=Variant.STUD_HILO)
    table.press("hand_start")
    table.third({1: ("3c", "3d", "9h"), 2: ("Ks", "Qh", "6c"), 3: ("Tc", "Td", "Kc"),
                 4: ("Th", "As", "Kh")})
    table.push(2, 100)  # the bring-in completed
    table.push(3, 100)
    table.press("fold")
    table.push(1, 100)
    table.deal_street("5s", {1: "5d", 2: "5h", 3: "9d"})
    table.press("check_call")  # seat 3
    table.press("check_call")  # seat 1
    table.press("all_in")  # seat 2: bets the maximum, 100
    table.press("all_in")  # seat 3: raises the maximum, to 200
    table.push(2, 100)  # seat 2's chips are read; seat 3's are still on their way
    table.push(1, 100, 100)  # seat 1 calls 200
    table.push(2, 100, 100)  # seat 2 raises to 300
    table.press("fold")  # seat 3 folds
    assert table.hand.seat(3).bet == 200 and table.hand.action_on == 1
    late = table.push(3, 100, 100)
    [paid] = table.rulings(late)
    assert paid["kind"] == "accepted" and paid["text"] == "seat 3's bet of 200 is complete"
    assert paid["rule_ids"] == ["TDA2024-51A"]  # a declaration binds; the chips pay it
    assert _alerts(table) == [] and not table.session.alerts
    table.push(1, 100)  # seat 1 calls 300: the street goes on as if read in time
    assert table.hand.phase is Phase.DEALING and _alerts(table) == []


def test_R51A_a_folded_player_who_owed_nothing_still_raises_the_alert() -> None:
    """Chips at a folded seat that owed none are still news for the floor."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, variant=Variant.FLHE,
                       level=Level(small_blind=100, big_blind=200))
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.deal({1: ("2c", "3c"), 2: ("4c", "5c"), 3: ("6c", "7c")})
    table.press("fold")  # seat 3
    table.push(3, 100)
    assert _alerts(table) == ["chips arrived at seat 3, which has folded"]


def test_R51A_a_declared_all_ins_chips_read_after_everyone_folded_are_that_hands() -> None:
    """Fixed-limit hold'em: the button declares all in (a raise to the maximum, 400) and
    the blinds fold before his chips are read; the hand is over when they arrive. They are
    that hand's chips, not news "with no hand in progress", and never the next hand's bet."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, variant=Variant.FLHE,
                       level=Level(small_blind=100, big_blind=200))
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.deal({1: ("2c", "3c"), 2: ("4c", "5c"), 3: ("6c", "7c"), 4: ("8c", "9c")})
    table.press("fold")  # seat 3
    table.press("all_in")  # seat 4: raises the maximum, to 400
    table.press("fold")  # seat 1
    table.press("fold")  # seat 2: the hand is over
    assert table.session.hand_number == 1 and table.hand.phase is Phase.COMPLETE
    table.push(4, 100, 100, 100, 100)
    assert _alerts(table) == []
    assert dict(table.session.pending.uncollected) == {1: 100, 2: 200, 4: 400}
    table.collect()  # the dealer pulls the last hand's chips in, seat 4's with them
    assert not table.session.pending.uncollected
    table.press("hand_start")
    assert table.hand.seat(4).bet == 0 and _alerts(table) == []
