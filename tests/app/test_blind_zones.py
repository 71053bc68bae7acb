"""The blinds' bet zones at the live table (issue #26): what the readers have seen decides.

A zone the readers have reported is ``seen``: its chips are all that lies there, so a blind
never put out is owed with the action the dealer enters at the console (R46-C, Add. 46),
and on the big blind's option chips holding his unseen blind are read against it (R44,
R45). Chips put out before the dealer starts the hand are the blinds, held for it; chips
the last hand left uncollected are not (docs/interpretation.md, "Blinds at the table").
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

from typing import Any

import pytest

from pokertable.controller.table.inputs import ChipsMoved
from tests.app.rules_table import RulesTable

HOLES: dict[int, tuple[str, ...]] = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


def _table(*, seen: bool = True) -> RulesTable:
    """Button 3: Ann (1) is the small blind, Bob (2) the big blind, Cat (3) first to act.
    ``seen``: the readers have reported the three bet zones (empty) before the hand."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    if seen:
        table.first_view(1, 2, 3)
    return table


def _data(out: Any) -> dict[str, Any]:
    [data] = [o.payload["data"] for o in out if o.channel == "event" and o.payload["data"]]
    return dict(data)


def _texts(out: Any) -> list[str]:
    return [r["text"] for o in out if o.channel == "event" for r in o.payload["rulings"]]


def _warnings(table: RulesTable, code: str) -> list[dict[str, Any]]:
    return [e for e in table.events() if e["kind"] == code]


# -- 1. a blind never put out, his action entered at the console -----------------------------


@pytest.mark.parametrize(("seen", "add"), [(True, 200), (False, 100)],
                         ids=["zone_seen", "zone_never_read"])
def test_TDA2024_46C_a_call_entered_for_a_blind_never_put_out_asks_for_blind_and_call(
    seen: bool, add: int,
) -> None:
    """Ann's small blind never went out and the dealer enters her call at the console. Her
    zone has been read empty, so she owes all 200 (her blind and the call), and one 100
    chip leaves 100 owed. Where the readers never reported her zone the table cannot know,
    and takes her posted blind to lie there: she owes the call's 100."""
    table = _table(seen=seen)
    table.press("hand_start")
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    called = table.press("check_call")  # Ann calls, at the console
    assert _data(called) == {"seat": 1, "action": "call", "total": 200, "returned": 0,
                             "add": add}
    assert table.session.pending.zone(1).owed == add
    said = "seat 1: his posted blind of 100 is not in his bet zone (never put out): the 200 " \
        "he owes holds it"
    assert (said in _texts(called)) is seen
    if seen:
        assert "seat 1 still owes 100" in _texts(table.push(1, 100))
        assert "seat 1's bet of 200 is complete" in _texts(table.push(1, 100))
        assert table.session.pending.zone(1).owed == 0


def test_TDA2024_46C_a_raise_entered_for_a_blind_never_put_out_is_owed_whole() -> None:
    table = _table()
    table.press("hand_start")
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    raised = table.press("bet_raise", 600)  # Ann raises to 600, at the console
    assert _data(raised)["add"] == 600 and table.hand.seat(1).bet == 600


def test_TDA2024_46C_the_big_blinds_check_entered_on_his_option_asks_for_his_blind() -> None:
    """Bob never put his blind out; the dealer enters his check on the option: the street is
    over and his 200 is still owed; his two 100s pay it, with nothing taken as change."""
    table = _table()
    table.press("hand_start")
    table.push(1, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    table.push(1, 100)  # Ann completes
    checked = table.press("check_call")
    assert _data(checked)["add"] == 200 and table.hand.phase.name == "DEALING"
    assert "TDA2024-46C" in table.rule_ids(checked)
    assert "seat 2's bet of 200 is complete" in _texts(table.push(2, 100, 100))
    zone = table.session.pending.zone(2)
    assert (zone.owed, zone.change) == (0, 0)


# -- 2. the big blind's option with chips that cannot make his blind -------------------------


def _option(table: RulesTable) -> None:
    """Bob's blind never goes out; Cat calls, Ann completes: Bob is on his option."""
    table.press("hand_start")
    table.push(1, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)
    table.push(1, 100)
    assert table.hand.action_on == 2 and table.hand.call_to == 200


@pytest.mark.parametrize("seen", [True, False], ids=["zone_seen", "zone_never_read"])
def test_TDA2024_44_one_oversized_chip_holding_the_unseen_big_blind_checks_his_option(
    seen: bool,
) -> None:
    """Bob puts one 500 chip out on his option, his blind never put out: the chip holds his
    blind (Add. 46), he faces his blind, and a single oversized chip without "raise"
    declared calls it (R44): he checks and 300 is change. No floor call (was A6)."""
    table = _table(seen=seen)
    _option(table)
    out = table.push(2, 500)
    assert not table.session.alerts
    assert _data(out) == {"seat": 2, "action": "check", "total": 200, "returned": 300,
                          "add": 0}
    ids = table.rule_ids(out)
    assert {"TDA2024-44", "TDA2024-46C"} <= set(ids), ids
    assert table.hand.phase.name == "DEALING"
    assert {s.seat: s.bet for s in table.hand.seats} == {1: 200, 2: 200, 3: 200}
    assert table.session.pending.zone(2).change == 300


def test_TDA2024_45B_chips_holding_the_unseen_big_blind_are_a_raise_by_the_fifty_standard() -> None:
    """Two 500s, no part of which makes his 200: a multiple-chip bet against his blind, one
    500 can go and still call it, so the 50% standard rules: a raise to 1000 (R45-B1)."""
    table = _table()
    _option(table)
    out = table.push(2, 500, 500)
    assert not table.session.alerts
    assert "TDA2024-45B1" in table.rule_ids(out)
    assert (table.hand.seat(2).bet, table.hand.call_to, table.hand.action_on) == (1000, 1000, 3)


def test_TDA2024_46C_chips_short_of_the_unseen_big_blind_are_part_of_it_not_an_action() -> None:
    table = _table()
    _option(table)
    out = table.push(2, 25)
    assert any("part of his posted blind of 200" in t for t in _texts(out))
    assert (table.hand.action_on, table.hand.seat(2).acted) == (2, False)
    table.press("check_call")  # he checks: the rest of his blind is owed
    assert table.session.pending.zone(2).owed == 175


# -- 3. blinds put out before the hand starts ------------------------------------------------


def test_TDA2024_46C_blinds_put_out_before_the_start_are_held_for_the_hand_silently() -> None:
    """Before hand 1 and between hands 1 and 2 the blinds go out before the dealer presses
    start: no "no hand in progress" alert, and they are the hand's posted chips. Chips in a
    zone that posts nothing are still news."""
    table = _table()
    table.push(1, 100)
    table.push(2, 100, 100)
    assert not _warnings(table, "chips_out_of_round")
    table.press("hand_start")
    assert [c.denomination for c in table.session.pending.zone(2).prior] == [100, 100]
    table.deal(HOLES)
    table.press("fold")  # Cat folds
    table.press("fold")  # Ann folds: Bob wins
    table.collect()
    table.push(2, 100)  # hand 2: button 1, Bob is the small blind, Cat the big blind
    table.push(3, 100, 100)
    assert not _warnings(table, "chips_out_of_round")
    table.push(1, 500)  # the button's chips: no blind of the next hand
    [warned] = _warnings(table, "chips_out_of_round")
    assert warned["rulings"][0]["seat"] == 1
    table.press("hand_start")
    assert (table.hand.button, table.hand.seat(2).bet, table.hand.seat(3).bet) == (1, 100, 200)
    assert [c.denomination for c in table.session.pending.zone(3).prior] == [100, 100]
    assert not table.session.pending.zone(1).prior  # the button's 500 counts for nothing


# -- 4. chips the last hand left in a zone ---------------------------------------------------


def _hand_one_left_uncollected(table: RulesTable) -> None:
    """Hand 1: Cat raises to 600 by chips and the blinds fold; the dealer pushes Cat the pot
    but leaves her 600 in her zone. Hand 2 (button 1): Bob posts 100, Cat 200."""
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.push(3, 500, 100)
    table.press("fold")
    table.press("fold")
    assert table.hand.phase.name == "COMPLETE"
    for seat in (1, 2):
        table(ChipsMoved(f"seat{seat}.bet", seat, (), table.session.zone(seat), table.ms()))


def test_TDA2024_46C_chips_the_last_hand_left_in_a_zone_are_not_the_next_hands_blind() -> None:
    """Cat's 600 from hand 1 still lies in her zone when hand 2 starts with her big blind:
    it is not her blind (it was there before hand 2 began); the dealer is told to pull it
    in, which then decides nothing; her blind is owed until put out."""
    table = _table()
    _hand_one_left_uncollected(table)
    table.press("hand_start")
    [alert] = _warnings(table, "zone_not_collected")
    [said] = alert["rulings"]
    assert (alert["hand_id"], said["seat"], said["kind"]) == ("t1-h00002", 3, "alert")
    assert said["rule_ids"] == ["TDA2024-46C"]
    assert "still holds 600 from the last hand" in said["text"]
    assert not table.session.pending.zone(3).prior  # not her posted blind
    events = len(table.events())
    table.collect()  # the dealer pulls the 600 in: nothing to rule
    assert not table.session.zone(3) and len(table.events()) == events
    table.push(2, 100)  # Bob's small blind, put out now
    table.deal({2: ("2c", "3c"), 3: ("4c", "5c"), 1: ("6c", "7c")})
    table.press("check_call")  # Ann (the button) calls at the console
    table.push(1, 100, 100)
    table.push(2, 100)  # Bob completes
    checked = table.press("check_call")  # Cat checks her option: her blind is still owed
    assert _data(checked)["add"] == 200


def test_TDA2024_46C_blind_chips_put_out_after_the_last_hand_ended_are_the_blind() -> None:
    """The same, but the dealer pulls Cat's 600 in and she puts her blind out before the
    start: that is her blind, and nothing is said."""
    table = _table()
    _hand_one_left_uncollected(table)
    table.collect()
    table.push(3, 100, 100)
    table.press("hand_start")
    assert not _warnings(table, "zone_not_collected")
    assert [c.denomination for c in table.session.pending.zone(3).prior] == [100, 100]


def test_TDA2024_46C_uncollected_chips_beside_a_blind_put_out_later_are_not_his_bet() -> None:
    """Cat leaves her 600 out and puts her blind out beside it before the start: the blind
    counts, the 600 does not; the dealer pulling the 600 during the betting is not her
    pulling her blind back (R46-B)."""
    table = _table()
    _hand_one_left_uncollected(table)
    table.push(3, 100, 100)
    table.press("hand_start")
    assert [c.denomination for c in table.session.pending.zone(3).prior] == [100, 100]
    table.deal({2: ("2c", "3c"), 3: ("4c", "5c"), 1: ("6c", "7c")})
    stale = table.session.pending.zone(3).last_hand
    assert [c.denomination for c in stale] == [500, 100]
    out = table(ChipsMoved("seat3.bet", 3, (), stale, table.ms()))  # the dealer pulls it in
    assert not table.rulings(out) and not table.session.pending.zone(3).no_fold
    assert [c.denomination for c in table.session.pending.zone(3).prior] == [100, 100]


def test_TDA2024_35C_blinds_left_out_over_a_misdeal_are_the_redeals_blinds() -> None:
    """A misdeal is not the end of a hand whose chips the dealer should pull in: the blinds
    left out are the re-deal's posted chips (R35-C: the same hand), and nothing is said."""
    table = _table()
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.card("seat2.cards", "As")  # the first card to the big blind: a misdeal (R35-A2)
    table.press("confirm")
    assert table.session.tracked is not None and table.session.tracked.status.value == "misdeal"
    table.press("hand_start")  # the re-deal
    assert "redeal" in table.hand.hand_id and not _warnings(table, "zone_not_collected")
    assert [c.denomination for c in table.session.pending.zone(2).prior] == [100, 100]
    assert [c.denomination for c in table.session.pending.zone(1).prior] == [100]
