"""Action out of turn (R53) and non-standard folds (R58), driven through the tracked hand."""

from __future__ import annotations

from pokertable.controller.engine.model import Level, SeatStatus
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities.events import FloorDecision, SkippedChoice
from tests.irregularities.table_driver import Table, codes, find, rejected, setup


def flop_3456(stacks: int = 10_000, level: Level | None = None) -> Table:
    """Live seats 3, 4, 5, 6 on the flop (button 2), acting in that order."""
    table = Table(setup({2: stacks, 3: stacks, 4: stacks, 5: stacks, 6: stacks}, button=2,
                        sb=3, bb=4, level=level))
    table.deal()
    table.acts((5, "call"), (6, "call"), (2, "fold"), (3, "call"), (4, "check"))
    table.street(3)
    assert table.t.hand.action_on == 3
    return table


def test_TDA24_53A_EX1_a_oot_raise_binds_when_seat_5_calls() -> None:
    table = flop_3456()
    table.acts((3, "bet", 300), (4, "fold"))
    out = table.act(6, "raise", 800)
    assert find(out, "out_of_turn").rule_ids == ("TDA2024-53A",)
    assert find(out, "penalty_candidate").seat == 6
    assert table.t.hand.action_on == 5 and table.t.hand.seat(6).bet == 0  # backed up
    out = table.act(5, "call")
    assert find(out, "oot_binding").kind is RulingKind.BINDING
    hand = table.t.hand
    assert hand.seat(6).bet == 800 and hand.call_to == 800 and hand.increment == 500
    assert hand.action_on == 3  # seat 3 faces 500 more


def test_TDA24_53A_EX1_b_oot_raise_binds_when_seat_5_folds() -> None:
    table = flop_3456()
    table.acts((3, "bet", 300), (4, "fold"))
    table.act(6, "raise", 800)
    table.act(5, "fold")
    assert table.t.hand.seat(6).bet == 800


def test_TDA24_53A_EX1_c_seat_5_raises_oot_raise_void_all_options() -> None:
    table = flop_3456()
    table.acts((3, "bet", 300), (4, "fold"))
    table.act(6, "raise", 800)
    out = table.act(5, "raise", 600)
    void = find(out, "oot_void")
    assert void.options == ("fold", "call 600", "raise to 900..9900")
    assert table.t.hand.action_on == 6 and table.t.hand.seat(6).bet == 0
    table.acts((6, "raise", 900))


def test_TDA24_53A_EX2_a_oot_check_binds() -> None:
    table = flop_3456()
    table.acts((3, "check"), (4, "check"))
    table.act(6, "check")
    out = table.act(5, "check")
    assert "oot_binding" in codes(out)
    assert table.t.hand.phase.value == "dealing"  # the flop is checked through


def test_TDA24_53A_EX2_b_seat_5_bets_oot_check_void() -> None:
    table = flop_3456()
    table.acts((3, "check"), (4, "check"))
    table.act(6, "check")
    out = table.act(5, "bet", 300)
    assert find(out, "oot_void").options == ("fold", "call 300", "raise to 600..9900")
    assert table.t.hand.action_on == 6


def test_ACE_53A_EX1_a_oot_bet_binds_after_a_check() -> None:
    """Heads-up on the flop: A (seat 1, big blind) acts first, B (seat 2, button) second."""
    table2 = Table(setup({1: 20_000, 2: 20_000}, button=2, sb=2, bb=1,
                         level=Level(small_blind=100, big_blind=200)))
    table2.deal()
    table2.acts((2, "call"), (1, "check"))
    table2.street(3)
    out = table2.act(2, "bet", 1000)  # B bets before A (seat 1) acts
    assert "out_of_turn" in codes(out)
    out = table2.act(1, "check")
    assert "oot_binding" in codes(out) and table2.t.hand.seat(2).bet == 1000


def test_ACE_53A_EX1_b_oot_bet_void_after_a_bet() -> None:
    table = Table(setup({1: 20_000, 2: 20_000}, button=2, sb=2, bb=1,
                        level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((2, "call"), (1, "check"))
    table.street(3)
    table.act(2, "bet", 1000)
    out = table.act(1, "bet", 500)
    assert find(out, "oot_void").options == ("fold", "call 500", "raise to 1000..19800")


def test_ACE_53A_EX2_oot_fold_binds_whatever_happens() -> None:
    table = flop_3456()
    out = table.act(5, "fold")  # seat 3 is on the action
    assert find(out, "out_of_turn").rule_ids == ("TDA2024-53A", "TDA2024-58")
    table.acts((3, "bet", 300), (4, "raise", 900))
    assert table.t.hand.seat(5).status is SeatStatus.FOLDED
    assert table.t.hand.action_on == 6


def test_TDA24_53B_EX1_skipped_player_SA_out_of_turn_binds_floor_decides() -> None:
    table = Table(setup({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
                        button=6, sb=1, bb=2, level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "raise", 600))
    first = table.act(5, "call")  # seat 4 skipped
    assert "skipped_player" not in codes(first)
    out = table.act(6, "fold")
    ruling = find(out, "skipped_player")
    assert ruling.kind is RulingKind.FLOOR and ruling.rule_ids == ("TDA2024-53B",)
    assert ruling.options == ("dead_hand", "call_or_fold_only", "all_options")
    assert all(p.bound for p in table.t.oot.pending)
    assert rejected(table.act(4, "call"))  # waiting for the floor
    out = table.send(FloorDecision("R53-B seat 4", SkippedChoice.DEAD_HAND))
    hand = table.t.hand
    assert hand.seat(4).status is SeatStatus.FOLDED
    assert hand.seat(5).bet == 600 and hand.seat(6).status is SeatStatus.FOLDED
    assert hand.action_on == 1


def test_TDA24_53B_EX1_limited_to_call_or_fold() -> None:
    table = Table(setup({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
                        button=6, sb=1, bb=2, level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "call")
    table.act(6, "fold")
    table.send(FloorDecision("R53-B seat 4", SkippedChoice.CALL_OR_FOLD_ONLY))
    assert rejected(table.act(4, "raise", 1200))[0].code == "limited_to_call_or_fold"
    table.acts((4, "call"))
    assert table.t.hand.seat(5).bet == 600 and table.t.hand.action_on == 1


def test_TDA24_53B_EX1_derived_skipped_player_speaks_up_before_SA() -> None:
    table = Table(setup({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
                        button=6, sb=1, bb=2, level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "call")
    out = table.act(4, "raise", 1500)  # seat 4 speaks up and raises: 5 gets all options
    assert find(out, "oot_void").seat == 5
    assert table.t.hand.action_on == 5 and table.t.hand.seat(5).bet == 0


def test_TDA24_53B_EX2_skipped_on_the_turn_check_facing_a_bet() -> None:
    table = flop_3456(20_000, Level(small_blind=100, big_blind=200))
    table.acts((3, "check"), (4, "check"), (5, "check"), (6, "check"))
    table.street(1)
    table.acts((3, "bet", 600))
    table.act(5, "check")  # OOT, facing 600
    out = table.act(6, "call")
    assert "skipped_player" in codes(out)
    table.send(FloorDecision("R53-B seat 4", SkippedChoice.ALL_OPTIONS))
    out = table.act(4, "call")
    # seat 5's OOT "check" facing a bet cannot stand (A13, R55): call or fold only
    invalid = find(out, "oot_not_valid")
    assert invalid.options[:2] == ("fold", "call 600") and table.t.hand.action_on == 5
    table.acts((5, "call"))
    assert table.t.hand.seat(6).bet == 600


def test_ACE_53B_D1_T24_backs_up_to_the_skipped_seat() -> None:
    table = Table(setup({1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
                        button=6, sb=1, bb=2, level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "call")
    table.act(6, "fold")
    assert table.t.hand.action_on == 4 and table.t.oot.floor_pending == 4


def test_T24_58_D1_fold_facing_no_bet_is_binding() -> None:
    table = flop_3456()
    out = table.act(3, "fold")
    ruling = find(out, "nonstandard_fold")
    assert ruling.kind is RulingKind.BINDING and ruling.rule_ids == ("TDA2024-58",)
