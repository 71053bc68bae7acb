"""Each bet zone's state is held once: in the session's ``pending`` (issue #11).

The readers' view of a zone (the tags on the felt, every street until the dealer collects
them) and the rules' reading of this street's chips (prior chips, the open motion, chips
owed and change) live in one ``SeatZone``; ``TableSession.zone`` and ``bet_zones`` read it.
These tests drive ``TableSession`` with tagged chips, as the readers report them.
"""

from __future__ import annotations

from typing import Any

import pytest

from pokertable.controller.table.inputs import ChipItem, ChipsMoved
from tests.app.rules_table import RulesTable

HOLES: dict[int, tuple[str, ...]] = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


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


def _late_blind(ruling: dict[str, Any]) -> bool:
    """The table's published reading of a blind put out late (Add. 46, R46-C)."""
    return (ruling["kind"], ruling["rule_ids"]) == ("accepted", ["TDA2024-46C"]) and (
        "put out late (Add. 46)" in ruling["text"])


@pytest.mark.parametrize("read_first", [True, False], ids=["read_empty_first", "never_read"])
def test_TDA2024_46_a_blind_read_only_on_the_seats_turn_is_the_blind_not_a_call(
    read_first: bool,
) -> None:
    """Ann's small-blind chip reaches the controller after Cat's call (put out late, a slow
    read): the felt shows her posted 100 and nothing more, so she has not acted, and the
    table says so; her next 100 is the call. The same whether the readers had reported her
    zone empty before or this is their first view of it (which is all that lies there)."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    if read_first:
        table.first_view(1, 2, 3)
    table.press("hand_start")
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls 200
    assert (table.hand.action_on, table.hand.seat(1).bet) == (1, 100)
    [said] = table.rulings(table.push(1, 100))  # the late read of her blind
    assert _late_blind(said) and said["seat"] == 1, said
    assert (table.hand.action_on, table.hand.seat(1).bet, table.hand.seat(1).acted) == (
        1, 100, False)
    assert [c.denomination for c in table.session.zone(1)] == [100]
    texts = [r["text"] for r in table.rulings(table.push(1, 100))]  # now she calls
    assert (table.hand.action_on, table.hand.seat(1).bet) == (2, 200)
    assert "seat 1 calls to 200" in texts, texts


@pytest.mark.parametrize("read_first", [True, False], ids=["read_empty_first", "never_read"])
def test_TDA2024_46_the_big_blinds_200_on_his_option_is_his_blind_not_a_push_of_400(
    read_first: bool,
) -> None:
    """Bob's blind chips never went out; on his option he puts out 200. That is his blind put
    out late, not 200 on top of a blind taken to lie there unseen (a silent 400 on the
    option, a floor call, open question A6): play stays on him and he checks."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    if read_first:
        table.first_view(1, 2, 3)
    table.press("hand_start")
    table.push(1, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    table.push(1, 100)  # Ann completes
    assert table.hand.action_on == 2
    [said] = table.rulings(table.push(2, 100, 100))
    assert _late_blind(said) and said["seat"] == 2, said
    assert not table.session.alerts  # no floor call
    assert (table.hand.action_on, table.hand.seat(2).bet, table.hand.call_to) == (2, 200, 200)
    table.press("check_call")  # Bob checks his option: pre-flop is over
    assert table.hand.phase.name == "DEALING"
    assert {s.seat: s.bet for s in table.hand.seats} == {1: 200, 2: 200, 3: 200}


@pytest.mark.parametrize("read_first", [True, False], ids=["read_empty_first", "never_read"])
@pytest.mark.parametrize("blinds", ["before_start", "after_start"])
def test_TDA2024_46_the_small_blinds_completing_chip_is_a_call_whatever_the_read_order(
    blinds: str, read_first: bool,
) -> None:
    """The blinds go out as the dealer presses hand start: whether the readers report their
    chips before or after the start, and whether they had reported the zones before, the
    chips are the posted blinds (Add. 46 prior chips), and Ann's one more 100 is her call."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    if read_first:
        table.first_view(1, 2, 3)
    if blinds == "after_start":
        table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    if blinds == "before_start":
        table.press("hand_start")
    assert [c.denomination for c in table.session.pending.zone(1).prior] == [100]
    assert [c.denomination for c in table.session.pending.zone(2).prior] == [100, 100]
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    rulings = table.rulings(table.push(1, 100))  # Ann completes
    assert "seat 1 calls to 200" in [r["text"] for r in rulings], rulings
    assert not any(_late_blind(r) for r in rulings)
    assert (table.hand.action_on, table.hand.seat(1).bet) == (2, 200)
    table.push(2, 500)  # Bob's silent 500 on his option, on his 200 blind: the floor (A6)
    [call] = table.session.alerts
    assert call.ruling.options == ("check", "raise")
    assert ("raise", 700) in [(o.name, o.total) for o in table.session.pending.floors[0].options]


@pytest.mark.parametrize(("chips", "text", "returned"), [
    ((100, 100), "seat 1 calls to 200", 0),  # one 100 is the blind, the other calls
    ((500,), "seat 1 calls to 200", 300),  # one chip holds the blind and the call (R44)
])
def test_TDA2024_46_chips_read_with_a_blind_never_put_out_hold_the_blind(
    chips: tuple[int, ...], text: str, returned: int,
) -> None:
    """Ann never put her blind out; on her turn she puts out chips that hold it and her
    call: the felt holds all of her bet, none of it lies there unseen. Read on top of her
    blind, two 100s would be a raise to 300 and the 500 a call with 400 back."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.push(2, 100, 100)
    table.deal(HOLES)
    table.push(3, 100, 100)  # Cat calls
    out = table.push(1, *chips)
    rulings = table.rulings(out)
    assert _late_blind(rulings[0]), rulings
    assert text in [r["text"] for r in rulings], rulings
    [event] = [o.payload for o in out if o.channel == "event" and o.payload["data"]]
    assert (event["data"]["total"], event["data"]["returned"]) == (200, returned)
    assert (table.hand.action_on, table.hand.seat(1).bet) == (2, 200)


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
    table.first_view(1, 2)  # the readers' first view: both bet zones empty
    for hand_no in range(1, 5):
        button, rulings = _heads_up_hand(table, hand_no, blinds_out=True)
        assert button == (2 if hand_no % 2 else 1)
        assert f"seat {button} calls to 200" in [r["text"] for r in rulings], (hand_no, rulings)
        assert "TDA2024-50A" in {i for r in rulings for i in r["rule_ids"]}
        assert (table.hand.action_on, table.hand.seat(button).bet) == (3 - button, 200)
        _end_hand(table)


def test_TDA2024_46_heads_up_a_lone_chip_that_is_the_posted_blind_is_it_in_every_hand() -> None:
    """Why the e2e bench saw the small blind's calling chip publish nothing: it never put the
    blinds' chips out. Heads-up the button acts first, so a lone 100 chip brings his zone to
    exactly the posted small blind: that is the blind, put out as play begins, not a call;
    play stays. The same in hand 1 (his zone never read: the readers' first view is all that
    lies there) as in hand 2 (read, and hand 1's chips collected)."""
    table = RulesTable({1: 1_000_000, 2: 1_000_000}, button=1)
    table.first_view(2)  # seat 1 never read
    for hand_no, button in ((1, 1), (2, 2)):
        assert _heads_up_hand(table, hand_no, blinds_out=False) == (button, [])
        hand = table.hand
        assert (hand.action_on, hand.seat(button).bet, hand.seat(button).acted) == (
            button, 100, False)
        # His next 100 is the call.
        texts = [r["text"] for r in table.rulings(table.push(button, 100))]
        assert f"seat {button} calls to 200" in texts and table.hand.action_on == 3 - button
        _end_hand(table)
