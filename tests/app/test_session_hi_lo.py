"""Omaha hi-lo at the live table (issue #30): four hole cards a seat read from the card
zones, the hand played through ``TableSession``, and both halves' winners in the
published state and the hand_complete event (R20-C, R21)."""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Phase, Variant
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.rules_table import RulesTable

HOLES = {
    1: ("As", "3d", "Jc", "Jd"),  # A-3 with 2-5-7: the nut low
    2: ("Kc", "Kd", "9s", "9h"),  # kings with the board king: trips, the high
    3: ("Th", "Tc", "8s", "8h"),  # no low (one low rank), a pair for high
}


def _checked_down(table: RulesTable) -> None:
    for burn, cards in (("4s", ("2c", "5d", "7h")), ("6s", ("Ks",)), ("6c", ("Qd",))):
        while table.hand.phase is Phase.BETTING:
            table.press("check_call")
        table.street(burn, *cards)
    while table.hand.phase is Phase.BETTING:
        table.press("check_call")
    table.press("confirm")  # the dealer: every live hand is tabled


def _state(table: RulesTable) -> dict[str, Any]:
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s", "seq": 1,
                       "schema_version": 1})
    return state


def test_TDA24_20C_live_omaha_hi_lo_high_and_low_halves_published() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, variant=Variant.PLO8)
    table.press("hand_start")
    table.deal(HOLES)
    assert {s.seat: len(s.hole) for s in table.hand.seats} == {1: 4, 2: 4, 3: 4}
    _checked_down(table)
    hand = table.hand
    assert hand.phase is Phase.COMPLETE
    awards = _state(table)["awards"]
    assert [(a["seat"], a["half"], a["amount"], a["hand_name"]) for a in awards] == [
        (2, "high", 300, "Trips"),
        (1, "low", 300, "7-5-3-2-A low"),
    ]
    done = table.events("hand_complete")[0]["data"]["awards"]
    assert {(a["seat"], a["half"]) for a in done} == {(2, "high"), (1, "low")}
    assert "TDA2024-20C" in table.rule_ids()
    assert {s.seat: s.stack for s in table.session.table.seats} == {1: 5100, 2: 5100, 3: 4800}


def test_TDA24_21_live_side_pot_without_a_low_of_its_own_goes_to_the_high() -> None:
    """Seat 1 (the only low) is all in for 600 pre-flop; seats 2 and 3 bet on. The main pot
    is split high/low; the side pot, where nobody has a low, goes whole to seat 2's high."""
    table = RulesTable({1: 600, 2: 5000, 3: 5000}, button=3, variant=Variant.PLO8)
    table.press("hand_start")
    table.deal(HOLES)
    table.press("bet_raise", 600)  # seat 3
    table.press("all_in")  # seat 1: 600
    table.press("check_call")  # seat 2
    table.street("4s", "2c", "5d", "7h")
    table.press("bet_raise", 400)  # seat 2 bets the flop
    table.press("check_call")  # seat 3 calls
    for burn, card in (("6s", "Ks"), ("6c", "Qd")):
        table.street(burn, card)
        while table.hand.phase is Phase.BETTING:
            table.press("check_call")
    table.press("confirm")
    hand = table.hand
    assert hand.phase is Phase.COMPLETE
    by_pot = {(a.pot_index, a.seat, a.half): a.amount for a in hand.awards}
    assert by_pot == {(0, 2, "high"): 900, (0, 1, "low"): 900, (1, 2, "high"): 800}
    ids = {tuple(r["rule_ids"]) for r in table.rulings() if "side pot 1" in r["text"]}
    assert ids == {("TDA2024-20C", "TDA2024-21")}


def test_live_hi_lo_hand_exported_as_phh_replays_to_the_same_stacks() -> None:
    """The hand_complete event's PHH (the room's archive) names the game and replays."""
    from pokertable.controller.history.render import replayed_stacks

    for variant in (Variant.FLO8, Variant.PLO8):
        table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, variant=variant)
        table.press("hand_start")
        table.deal(HOLES)
        _checked_down(table)
        phh = table.events("hand_complete")[0]["data"]["phh"]
        assert f'variant = "{variant.value}"' in phh, phh
        stacks = replayed_stacks(phh, "live")
        assert stacks == (5100, 5100, 4800)  # p1 small blind, p2 big blind, p3 button
