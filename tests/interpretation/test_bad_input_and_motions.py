"""Bad input (alert naming seat and rule, no state change) and chip-motion grouping (R56)."""

from __future__ import annotations

import pytest

from pokertable.controller.engine.model import Street
from pokertable.controller.interpretation import (
    ChipItem,
    ChipMotion,
    Declaration,
    DeclKind,
    InterpretedHand,
)
from pokertable.controller.interpretation.hand import TableEvent
from tests.interpretation.helpers import (
    check,
    options,
    postflop,
    pull,
    push,
    ruled,
    run,
    say,
)


def _facing_bet() -> InterpretedHand:
    hand = postflop({1: 20000, 2: 20000, 3: 20000}, button=3, big=200)
    hand, _ = run(hand, say(1, "bet", 1000))
    return hand


def _folded() -> InterpretedHand:
    hand, _ = run(_facing_bet(), say(2, "fold"))
    return hand


@pytest.mark.parametrize(("name", "event", "seat", "rule", "code"), [
    ("empty seat chips", push(7, 500), 7, "TDA2024-1", "seat_not_in_hand"),
    ("unknown tag", ChipMotion(2, (ChipItem(500, kind="unknown"),)), 2, "TDA2024-64",
     "unknown_chip"),
    ("zero value chip", ChipMotion(2, (ChipItem(0),)), 2, "TDA2024-64", "unknown_chip"),
    ("no chips", ChipMotion(2, ()), 2, "TDA2024-64", "unknown_chip"),
    ("declaration seat not in hand", say(8, "call"), 8, "TDA2024-1", "seat_not_in_hand"),
    ("negative amount", say(2, "raise", -500), 2, "TDA2024-40B", "bad_amount"),
    ("non-integer amount", Declaration(2, DeclKind.RAISE, 1500.5), 2, "TDA2024-40B",
     "bad_amount"),
    ("zero amount", Declaration(2, DeclKind.AMOUNT, 0), 2, "TDA2024-40B", "bad_amount"),
    ("boolean amount", Declaration(2, DeclKind.BET, True), 2, "TDA2024-40B", "bad_amount"),
    ("pull of chips not in the zone", pull(2, 5000), 2, "TDA2024-46C", "pull_unknown_chips"),
    ("declaration out of turn", say(3, "call"), 3, "TDA2024-53A", "out_of_turn"),
])
def test_bad_input_alerts_and_changes_nothing(name: str, event: TableEvent, seat: int,
                                              rule: str, code: str) -> None:
    hand = _facing_bet()
    after, out = hand.step(event)
    assert [(r.seat, r.rule_ids, r.code) for r in out.alerts] == [(seat, (rule,), code)], name
    assert after.state is hand.state and after.pending == hand.pending
    assert f"seat {seat}" in out.alerts[0].text


@pytest.mark.parametrize("event", [push(2, 500), say(2, "call")])
def test_folded_seat_input_alerts_and_changes_nothing(event: TableEvent) -> None:
    hand = _folded()
    after, out = hand.step(event)
    assert [(r.seat, r.code) for r in out.alerts] == [(2, "seat_folded")]
    assert after.state is hand.state and after.pending == hand.pending


def test_chips_within_the_window_are_one_motion() -> None:
    hand = _facing_bet()
    hand, first = hand.step(push(2, 1000, at_ms=0, settled=False))
    assert first.interpretation is None and hand.state.action_on == 2
    _, out = run(hand, push(2, 1000, 500, at_ms=300))
    check(ruled(out), "raise", 2500, rules=("45B1",))


def test_a_second_motion_after_the_window_is_a_string_bet() -> None:
    hand = _facing_bet()
    hand, _ = hand.step(push(2, 1000, at_ms=0, settled=False))
    hand, out = hand.step(push(2, 1000, 500, at_ms=5000))
    first = out.interpretations[0]
    check(first, "call", 1000, rules=("44",))
    assert [r.code for r in out.alerts] == ["string_bet"]
    assert options(ruled(out))["first_motion"] == (None, 0, 1500, 0)


def test_chips_pushed_before_the_turn_are_held_then_ruled_in_turn() -> None:
    hand = _facing_bet()
    hand, out = hand.step(push(3, 500, 500))
    assert [r.code for r in out.alerts] == ["out_of_turn"] and hand.state.action_on == 2
    hand, out = run(hand, say(2, "call"))
    assert [i.seat for i in out.interpretations] == [2, 3]
    check(out.interpretations[1], "call", 1000, rules=("45A",))


def test_dealer_making_change_reduces_change_due_without_binding() -> None:
    hand, _ = run(_facing_bet(), push(2, 5000))
    assert hand.pending.zone(2).change == 4000
    hand, out = run(hand, pull(2, 5000), push(2, 1000))
    assert hand.pending.zone(2).change == 4000  # not by the dealer: still owed back
    from pokertable.controller.interpretation import PriorChipsPulled

    hand2, _ = run(_facing_bet(), push(2, 5000))
    hand2, out = hand2.step(PriorChipsPulled.of(2, 5000, by_dealer=True))
    assert hand2.pending.zone(2).change == 0 and not out.alerts


def test_zones_are_cleared_when_the_street_changes() -> None:
    from pokertable.controller.engine.events import DealBoard

    hand, _ = run(_facing_bet(), say(2, "call"), say(3, "fold"))
    assert hand.state.street is Street.FLOP and hand.pending.zones
    hand, _ = hand.step(DealBoard(("Ah",)))
    assert hand.state.street is Street.TURN and hand.pending.zones == ()
    assert hand.pending.log == ()


def test_floor_decision_with_unknown_id_or_option_alerts() -> None:
    from pokertable.controller.interpretation import FloorDecision

    hand, out = run(_facing_bet(), ChipMotion(2, (ChipItem(0, kind="clock_token"),)))
    ruling_id = ruled(out).floor.ruling_id  # type: ignore[union-attr]
    for decision in (FloorDecision("nope", "full_call"), FloorDecision(ruling_id, "nope")):
        after, out = hand.step(decision)
        assert len(out.alerts) == 1 and after.state is hand.state
        assert after.pending == hand.pending
