"""The big blind ante in the big blind's bet zone at the live table (issue #26).

With the big blind ante (RP-11) the big blind puts the table's ante out beside his blind.
The ante is dead money, the pot's from the start, never part of his blind or of a bet: his
zone makes up the ante first and only the rest is his blind, so a check on his option keeps
both, and a call or raise counts only the chips beyond them. A big blind who cannot cover
both is split as the rulebook says (TDA 2024: big blind first; Clubs NZ: ante first).
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine.model import AnteFormat, Level
from pokertable.controller.table.inputs import ChipsMoved
from tests.app.rules_table import RulesTable
from tests.app.test_blind_zones import HOLES, _data

BBA = Level(small_blind=100, big_blind=200, ante=200, ante_format=AnteFormat.BIG_BLIND_ANTE)


def _table(bob: int = 5000, *, profile: str = "tda-2024") -> RulesTable:
    """Button 3: Ann (1) the small blind, Bob (2) the big blind posting the ante, Cat (3)
    first to act; the readers have reported the three bet zones (empty)."""
    table = RulesTable({1: 5000, 2: bob, 3: 5000}, button=3, level=BBA, profile=profile)
    table.first_view(1, 2, 3)
    return table


def _to_option(table: RulesTable) -> None:
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    table.push(1, 100)  # Ann completes
    assert table.hand.action_on == 2 and table.hand.call_to == 200


def test_RP11_ante_and_blind_put_out_before_the_start_a_check_keeps_both() -> None:
    """Bob puts 200 ante and 200 blind out before the start: 200 is the ante (the pot's),
    200 his blind; his check on the option keeps both, nothing is change."""
    table = _table()
    table.push(1, 100)
    table.push(2, 100, 100, 100, 100)
    table.press("hand_start")
    zone = table.session.pending.zone(2)
    assert sum(c.denomination for c in zone.prior) == 200
    _to_option(table)
    checked = table.press("check_call")
    assert _data(checked) == {"seat": 2, "action": "check", "total": 200, "returned": 0,
                              "add": 0}
    zone = table.session.pending.zone(2)
    assert (zone.owed, zone.change) == (0, 0)
    assert table.hand.phase.name == "DEALING"
    # the ante is in the pot; the blinds and the call lie in front of the seats
    assert [p["amount"] for p in table.state()["pots"]] == [200]


def test_RP11_ante_and_blind_put_out_after_the_start_are_no_action() -> None:
    """Bob puts his 400 out after the dealer started the hand, before the action reaches
    him: ante and blind, nothing out of turn and no raise."""
    table = _table()
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 200, 200)
    assert not table.session.alerts
    assert sum(c.denomination for c in table.session.pending.zone(2).prior) == 200
    _to_option(table)
    checked = table.press("check_call")
    assert _data(checked)["returned"] == 0 and _data(checked)["add"] == 0


def test_RP11_chips_on_his_option_count_beyond_blind_and_ante() -> None:
    """Bob's ante and blind lie out; on his option he silently adds 400: his street total
    is 600 (his 200 blind plus 400), the ante not in it. Silent chips on the option are the
    TD's call in this profile (A6); the call names 600."""
    table = _table()
    table.push(1, 100)
    table.push(2, 200, 200)
    table.press("hand_start")
    _to_option(table)
    out = table.push(2, 200, 200)
    [floor] = [r for r in table.rulings(out) if r["kind"] == "floor"]
    assert "pushed 600 on his big-blind option" in floor["text"]


def test_RP11_the_dealer_pulling_the_ante_in_decides_nothing() -> None:
    """Cat raises to 600 and Ann folds; the dealer pulls Bob's ante into the pot: that is
    not Bob pulling his prior chips back facing a raise (R46-B), so he may still fold."""
    table = _table()
    table.push(1, 100)
    table.push(2, 200)
    table.push(2, 200)
    table.press("hand_start")
    table.deal(HOLES)
    table.push(3, 500, 100)  # Cat raises to 600
    table.press("fold")  # Ann folds
    ante = table.session.zone(2)[:1]
    out = table(ChipsMoved("seat2.bet", 2, (), ante, table.ms()))
    assert not table.rulings(out) and not table.session.pending.zone(2).no_fold
    table.press("fold")  # Bob folds: Cat wins
    assert table.hand.phase.name == "COMPLETE" and table.hand.seat(2).status.value == "folded"


@pytest.mark.parametrize(("profile", "blind_before"), [("tda-2024", 200),
                                                     ("clubs-nz-2022", 0)],
                         ids=["big_blind_first", "ante_first"])
def test_RP11_a_short_big_blind_makes_up_blind_and_ante_in_the_rulebooks_order(
    profile: str, blind_before: int,
) -> None:
    """Bob has 300 for a 200 blind and a 200 ante. TDA 2024 (big blind first) posts his
    blind of 200 and 100 of the ante; Clubs NZ (ante first) the ante of 200 and 100 of the
    blind. He puts 200 out before the start and his last 100 after it: his zone makes them
    up in the same order, so his blind is what the engine posted and the rest is the pot's."""
    table = _table(300, profile=profile)
    table.push(1, 100)
    table.push(2, 100, 100)
    table.press("hand_start")
    bob = table.hand.seat(2)
    assert (bob.bet, bob.dead) == (200, 100) if blind_before else (100, 200)
    zone = table.session.pending.zone(2)
    assert sum(c.denomination for c in zone.prior) == blind_before
    table.push(2, 100)
    zone = table.session.pending.zone(2)
    assert not table.session.alerts
    assert sum(c.denomination for c in zone.prior) == bob.bet
    assert sum(c.denomination for c in zone.ante) == bob.dead
    assert (zone.owed, zone.change) == (0, 0)


def test_RP11_per_player_antes_a_small_blinds_ante_is_not_his_blind() -> None:
    """Per-player antes of 25: Ann puts her ante and her small blind out (125) before the
    start; 25 is the pot's, 100 her blind, so her 100 more calls 200 with nothing back."""
    level = Level(small_blind=100, big_blind=200, ante=25, ante_format=AnteFormat.PER_PLAYER)
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, level=level)
    table.first_view(1, 2, 3)
    table.push(1, 100, 25)
    table.push(2, 200, 25)
    table.press("hand_start")
    assert [c.denomination for c in table.session.pending.zone(1).prior] == [100]
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls (her ante went straight to the pot)
    out = table.push(1, 100)
    assert _data(out) == {"seat": 1, "action": "call", "total": 200, "returned": 0, "add": 0}


def test_RP11_big_blind_first_the_ante_put_straight_into_the_pot() -> None:
    """TDA 2024 (big blind first): Bob puts his ante straight into the pot and only his
    blind in his zone: that is his blind, nothing owed when he checks; 400 more on his
    option is a street total of 600, not the ante made up late."""
    table = _table()
    table.push(1, 100)
    table.push(2, 200)
    table.press("hand_start")
    assert [c.denomination for c in table.session.pending.zone(2).prior] == [200]
    _to_option(table)
    out = table.push(2, 200, 200)
    [floor] = [r for r in table.rulings(out) if r["kind"] == "floor"]
    assert "pushed 600 on his big-blind option" in floor["text"]
