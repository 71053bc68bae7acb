"""Stud antes in the players' bet zones at the live table (issue #26, RP-11).

In stud every player antes and nobody posts a blind. A player who puts his ante in his bet
zone, before the dealer starts the hand or after, before the deal, has put out his ante:
the pot's, never a bet or chips out of round; the dealer pulling it in during the betting
decides nothing (not prior chips pulled back, R46-B).
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

from pokertable.controller.table.inputs import ChipsMoved
from tests.app.stud_table import StudTable

THIRD = {1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9c"), 3: ("Qs", "Qd", "Tc")}


def _table() -> StudTable:
    """Ante 10, bring-in 25; the readers have reported the three bet zones (empty)."""
    table = StudTable({1: 2000, 2: 2000, 3: 2000})
    table.first_view(1, 2, 3)
    return table


def test_RP11_stud_antes_put_out_before_and_after_the_start_are_the_antes() -> None:
    """Ann antes before the dealer starts the hand, Bob after it, before the deal: no
    alert, each zone holds its ante (the pot's) and no bet."""
    table = _table()
    assert not table.rulings(table.push(1, 10))
    table.press("hand_start")
    assert not table.rulings(table.push(2, 10))
    for seat in (1, 2):
        zone = table.session.pending.zone(seat)
        assert [c.denomination for c in zone.ante] == [10]
        assert (zone.ante_due, zone.prior, zone.owed) == (0, (), 0)
    assert not table.session.alerts


def test_RP11_stud_the_dealer_pulling_an_ante_in_decides_nothing() -> None:
    """Ann (the low card) brings in for 25 beside her ante, Bob calls; the dealer pulls
    Ann's ante into the pot: no ruling, her bring-in stands."""
    table = _table()
    table.push(1, 10)
    table.press("hand_start")
    table.third(THIRD)
    assert table.hand.action_on == 1
    table.push(1, 25)
    table.push(2, 25)
    ante = tuple(c for c in table.session.zone(1) if c.denomination == 10)
    out = table(ChipsMoved("seat1.bet", 1, (), ante, table.ms()))
    assert not table.rulings(out)
    zone = table.session.pending.zone(1)
    assert [c.denomination for c in zone.prior] == [25] and not zone.no_fold


def test_RP11_stud_chips_beyond_the_ante_before_the_deal_are_out_of_round() -> None:
    """Ann puts 10 and 25 out after the start, before the deal: 10 is her ante, the 25 is
    chips while no betting round is open (an alert), not held as an early bring-in."""
    table = _table()
    table.press("hand_start")
    [said] = table.rulings(table.push(1, 10, 25))
    assert said["kind"] == "alert" and "beyond his ante" in said["text"]
    zone = table.session.pending.zone(1)
    assert [c.denomination for c in zone.ante] == [10] and zone.motion == ()
