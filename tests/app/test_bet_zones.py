"""Each bet zone's state is held once: in the session's ``pending`` (issue #11).

The readers' view of a zone (the tags on the felt, every street until the dealer collects
them) and the rules' reading of this street's chips (prior chips, the open motion, chips
owed and change) live in one ``SeatZone``; ``TableSession.zone`` and ``bet_zones`` read it.
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.table.inputs import ChipItem, ChipsMoved
from tests.app.rules_table import RulesTable

HOLES = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


def _preflop() -> RulesTable:
    """Button 3: Ann (1) posts 100, Bob (2) posts 200, the cards are dealt; Cat is first."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.deal(HOLES)
    return table


def _uids(chips: tuple[ChipItem, ...]) -> list[str]:
    return sorted(c.uid for c in chips)


def test_the_zone_the_session_shows_is_the_rules_zone_record() -> None:
    table = _preflop()
    table.push(3, 500, 100)  # Cat raises to 600 by chips
    session = table.session
    assert session.zone(3) is session.pending.zone(3).felt  # one record, not a copy
    assert [c.denomination for c in session.zone(3)] == [500, 100]
    assert all(c.uid for c in session.zone(3))  # the tags the readers gave
    assert dict(session.bet_zones) == {s: session.pending.zone(s).felt for s in (1, 2, 3)}
    assert table.hand.seat(3).bet == 600
    # the rules read the same chips as Cat's prior bet for R46
    assert [c.denomination for c in session.pending.zone(3).prior] == [500, 100]


def test_chips_stay_on_the_felt_into_the_next_street_until_the_dealer_collects() -> None:
    table = _preflop()
    table.press("check_call")  # Cat calls 200
    table.push(3, 100, 100)
    table.press("check_call")  # Ann completes
    table.push(1, 100)
    before = {s: _uids(table.session.zone(s)) for s in (1, 2, 3)}
    table.press("check_call")  # Bob checks: the round is over
    table.card("burn", "2c")  # the dealer burns and turns the flop before pulling the bets in
    for card in ("7d", "8d", "9d"):
        table.card("board", card)
    assert table.hand.street.name == "FLOP"
    zone = table.session.pending.zone(3)
    assert not zone.prior and not zone.motion  # a new street's reading starts afresh
    assert {s: _uids(table.session.zone(s)) for s in (1, 2, 3)} == before  # still on the felt
    events = len(table.events())
    table.collect()  # the dealer pulls the bets in: no ruling, nothing published
    assert not any(c for _, c in table.session.bet_zones) and len(table.events()) == events
    assert table.hand.street.name == "FLOP" and table.hand.action_on == 1


def test_a_restart_re_report_is_not_a_second_bet_and_a_missing_tag_leaves_quietly() -> None:
    table = _preflop()
    table.push(3, 500, 100)  # Cat raises to 600
    chips = table.session.zone(3)
    events = len(table.events())
    # The readers' full view after a controller restart: the same tags again, one gone.
    table(ChipsMoved("seat3.bet", 3, chips[:1], (), table.ms(), complete=True))
    assert table.hand.seat(3).bet == 600 and len(table.events()) == events
    assert table.session.zone(3) == chips[:1]
    # A tag the zone never held cannot leave it.
    stray = ChipItem(1000, uid="never-seen")
    table(ChipsMoved("seat3.bet", 3, (), (stray,), table.ms()))
    assert table.session.zone(3) == chips[:1] and len(table.events()) == events


def test_a_folded_hands_chips_stay_on_the_felt_and_leave_with_the_dealer() -> None:
    table = _preflop()
    table.press("fold")  # Cat folds
    table.press("fold")  # Ann folds her small blind: Bob wins
    assert table.hand.phase.name == "COMPLETE"
    assert [c.denomination for c in table.session.zone(1)] == [100]  # her blind lies there
    assert [c.denomination for c in table.session.zone(2)] == [100, 100]
    table.collect()
    assert not any(c for _, c in table.session.bet_zones)
    assert not [e for e in table.events() if e["kind"] == "chips_out_of_round"]


def test_chips_out_of_turn_returned_stay_on_the_felt_until_taken_back() -> None:
    table = _preflop()
    table.push(1, 100)  # Ann calls out of turn (held, R53-A)
    table.push(3, 500, 100)  # Cat raises to 600: the action to Ann changed
    zone = table.session.pending.zone(1)
    assert zone.change == 100 and not zone.motion and not zone.held  # the rules: it goes back
    assert [c.denomination for c in table.session.zone(1)] == [100, 100]  # the felt: still there
    returned = table.session.zone(1)[-1:]
    table(ChipsMoved("seat1.bet", 1, (), returned, table.ms()))  # Ann takes it back
    assert [c.denomination for c in table.session.zone(1)] == [100]
    assert table.session.pending.zone(1).change == 0
    assert table.hand.action_on == 1 and table.hand.seat(1).bet == 100


def test_TDA2024_46_a_blind_read_only_on_the_seats_turn_is_the_blind_not_a_call() -> None:
    """Ann's small-blind chip reaches the controller after Cat's call (put out late, a slow
    read) in a zone the readers had reported empty: the felt shows her posted 100 and
    nothing more, so she has not acted; her next 100 is the call."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    for seat in (1, 2, 3):  # the readers' first view: every bet zone empty
        table(ChipsMoved(f"seat{seat}.bet", seat, (), (), table.ms(), complete=True))
    table.press("hand_start")
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.press("check_call")  # Cat calls 200
    table.push(3, 100, 100)
    assert (table.hand.action_on, table.hand.seat(1).bet) == (1, 100)
    assert not table.rulings(table.push(1, 100))  # the late read of her blind
    assert (table.hand.action_on, table.hand.seat(1).bet, table.hand.seat(1).acted) == (
        1, 100, False)
    assert [c.denomination for c in table.session.zone(1)] == [100]
    texts = [r["text"] for r in table.rulings(table.push(1, 100))]  # now she calls
    assert (table.hand.action_on, table.hand.seat(1).bet) == (2, 200)
    assert "seat 1 calls to 200" in texts, texts


_DECK = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]


def _heads_up_hand(
    table: RulesTable, hand_no: int, *, blinds_out: bool
) -> tuple[int, list[dict[str, Any]]]:
    """Start a heads-up hand, put the blinds' chips out (or not), deal, and push one 100
    chip for the button (the small blind, first to act, TDA2024-34B). Returns the button
    and the rulings that chip caused."""
    table.press("hand_start")
    button = table.hand.button
    big = 3 - button
    if blinds_out:
        assert not table.rulings(table.push(button, 100)) + table.rulings(table.push(big, 100, 100))
    cards = iter(_DECK[4 * (hand_no - 1) : 4 * hand_no])
    table.deal({s: (next(cards), next(cards)) for s in (big, button)})
    return button, table.rulings(table.push(button, 100))


def _end_hand(table: RulesTable) -> None:
    """The dealer folds the big blind, pulls the chips and cards in, and confirms."""
    table.press("fold")
    table.collect()
    for seat in (1, 2):
        for card in table.session.cards_at(seat):
            table.cleared(f"seat{seat}.cards", card)
    table.press("confirm")


def test_TDA2024_50A_heads_up_small_blind_calls_with_one_chip_in_every_hand() -> None:
    """The e2e bench's hands: the readers have seen both bet zones (their first view), the
    blinds go out as chips, and the button's one more 100 chip is a call to 200, published
    in every hand, whichever seat has the button."""
    table = RulesTable({1: 1_000_000, 2: 1_000_000}, button=2)
    for seat in (1, 2):  # the readers' first view: both bet zones empty
        table(ChipsMoved(f"seat{seat}.bet", seat, (), (), table.ms(), complete=True))
    for hand_no in range(1, 5):
        button, rulings = _heads_up_hand(table, hand_no, blinds_out=True)
        assert button == (2 if hand_no % 2 else 1)
        assert f"seat {button} calls to 200" in [r["text"] for r in rulings], (hand_no, rulings)
        assert "TDA2024-50A" in {i for r in rulings for i in r["rule_ids"]}
        assert (table.hand.action_on, table.hand.seat(button).bet) == (3 - button, 200)
        _end_hand(table)


def test_TDA2024_46_a_lone_chip_that_is_the_posted_blind_is_the_blind_from_hand_two_on() -> None:
    """Why the e2e bench saw the small blind's calling chip publish nothing from hand 2 on:
    it never put the blinds' chips out. In hand 1 the button's zone had never been read, so
    its posted 100 is taken to lie there unseen and the chip is the call on top. Once the
    zone has been read (hand 1's chips collected), a lone 100 chip brings it to exactly the
    posted small blind: that is the blind read late (Add. 46), not a call; play stays."""
    table = RulesTable({1: 1_000_000, 2: 1_000_000}, button=1)
    table(ChipsMoved("seat2.bet", 2, (), (), table.ms(), complete=True))  # seat 1 never read
    button, rulings = _heads_up_hand(table, 1, blinds_out=False)
    assert button == 1 and "seat 1 calls to 200" in [r["text"] for r in rulings]
    _end_hand(table)
    button, rulings = _heads_up_hand(table, 2, blinds_out=False)
    assert button == 2 and rulings == []
    hand = table.hand
    assert (hand.action_on, hand.seat(2).bet, hand.seat(2).acted) == (2, 100, False)
    # Her next 100 is the call.
    texts = [r["text"] for r in table.rulings(table.push(2, 100))]
    assert "seat 2 calls to 200" in texts and table.hand.action_on == 1
