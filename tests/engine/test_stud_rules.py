"""Seven-card stud, stud/8 and razz in the engine, one test per rule (issue #30).

Seat numbers are the players' places round the table; stud has no button, so the rules
name the seat by its cards: the bring-in (RP-10-E), the opener (RP-10-D), the odd chip
(R20-B) and the hi/lo halves (R20-C).
"""

from __future__ import annotations

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import AnteFormat, HandState, Level, Phase, Street, Variant
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import TDA_2024

A = ActionKind


def new_hand(
    variant: Variant, stacks: dict[int, int], ante: int = 1, bring_in: int = 2, small: int = 4
) -> HandState:
    setup = HandSetup(
        hand_id="stud",
        variant=variant,
        level=Level(
            small_blind=0,
            big_blind=small,
            bring_in=bring_in,
            ante=ante,
            ante_format=AnteFormat.PER_PLAYER,
        ),
        button=max(stacks),
        small_blind_seat=None,
        big_blind_seat=min(stacks),
        players=tuple((seat, f"p{seat}", stack) for seat, stack in sorted(stacks.items())),
    )
    state, _ = start_hand(setup)
    return state


def deal(state: HandState, cards: dict[int, str]) -> tuple[HandState, list[Ruling]]:
    out: list[Ruling] = []
    for seat, text in cards.items():
        state, rulings = step(
            state, DealHole(seat, tuple(text[i : i + 2] for i in range(0, len(text), 2)))
        )
        assert not any(r.kind is RulingKind.REJECTED for r in rulings), rulings
        out += rulings
    return state, out


def act(state: HandState, *actions: tuple[int, ActionKind, int | None]) -> HandState:
    for seat, kind, amount in actions:
        state, rulings = step(state, PlayerAction(seat, kind, amount))
        assert not any(r.kind is RulingKind.REJECTED for r in rulings), rulings
    return state


def refused(state: HandState, seat: int, kind: ActionKind, amount: int | None = None) -> Ruling:
    after, rulings = step(state, PlayerAction(seat, kind, amount))
    assert after is state
    assert rulings[0].kind is RulingKind.REJECTED
    return rulings[0]


def check_round(state: HandState) -> HandState:
    """Everyone checks; after seventh street every live hand is tabled (R13-A)."""
    while state.phase is Phase.BETTING and state.action_on is not None:
        state = act(state, (state.action_on, A.CHECK, None))
    for seat in state.in_hand if state.phase is Phase.SHOWDOWN else ():
        state, _ = step(state, ShowHand(seat.seat))
    return state


def test_rp10e_the_lowest_upcard_by_suit_brings_in() -> None:
    """RP-10-E: two deuces showing: the club (lowest suit) brings in, not the first seat."""
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100})
    state, rulings = deal(state, {1: "AsKs2d", 2: "AhKh9c", 3: "AdKd2c"})
    assert state.bring_in_seat == 3 and state.action_on == 3 and state.street is Street.THIRD
    assert any(r.code == "bring_in_card" and "TDA2024-RP-10E" in r.rule_ids for r in rulings)


def test_rp10e_razz_the_highest_upcard_by_suit_brings_in_the_ace_being_low() -> None:
    state = new_hand(Variant.RAZZ, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "2s3sKc", 2: "2h3hAc", 3: "2d3dKs"})
    assert state.bring_in_seat == 3


def test_rp10e_the_bring_in_must_post_or_complete_and_may_not_fold_or_check() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh9c", 3: "AdKd2c"})
    for kind in (A.CHECK, A.FOLD, A.CALL):
        ruling = refused(state, 3, kind)
        assert ruling.code == "bring_in_required" and ruling.rule_ids == ("TDA2024-RP-10E",)
    after = act(state, (3, A.BRING_IN, None))
    assert after.call_to == 2 and after.seat(3).stack == 100 - 1 - 2 and after.action_on == 1


def test_r3_completing_the_bring_in_is_to_the_small_bet_then_raises_are_a_bet() -> None:
    """A raise of the bring-in completes it to the small bet (R3 'complete'); the next
    raise is a full small bet on top, and the bring-in may raise again."""
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh9c", 3: "AdKd2c"})
    state = act(state, (3, A.BRING_IN, None))
    ruling = refused(state, 1, A.RAISE, 6)
    assert ruling.code == "complete_amount" and ruling.rule_ids == ("TDA2024-3",)
    state, rulings = step(state, PlayerAction(1, A.RAISE, 4))
    assert rulings[0].code == "complete" and state.call_to == 4
    state = act(state, (2, A.RAISE, 8))
    state = act(state, (3, A.RAISE, 12))  # the bring-in re-raises: completion re-opened it
    assert state.call_to == 12 and state.bets_this_street == 3


def test_rp10e_bring_in_all_in_for_the_ante_action_starts_on_his_left() -> None:
    """RP-10-E: the low card is all in for the ante: the next seat must bet at least the
    bring-in or fold."""
    state = new_hand(Variant.STUD, {1: 100, 2: 1, 3: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c", 3: "AdKd9c"})
    assert state.bring_in_seat == 2 and state.action_on == 3
    assert refused(state, 3, A.CHECK).code == "bring_in_required"
    state = act(state, (3, A.BRING_IN, None), (1, A.CALL, None))
    assert state.street is Street.THIRD and state.phase is Phase.DEALING


def test_rp10d_the_high_hand_showing_opens_fourth_street_and_a_pair_beats_it() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh9c", 3: "AdKd2c"})
    state = act(state, (3, A.BRING_IN, None), (1, A.CALL, None), (2, A.CALL, None))
    state, rulings = deal(state, {1: "Qc", 2: "Jc", 3: "2h"})
    assert state.opener_seat == 3 and state.action_on == 3  # a pair of deuces showing
    assert any(r.code == "opener" and "TDA2024-17A" in r.rule_ids for r in rulings)


def test_rp10d_razz_the_lowest_showing_hand_opens() -> None:
    state = new_hand(Variant.RAZZ, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "2s3s4c", 2: "2h3hKc", 3: "2d3d6s"})
    state = act(state, (2, A.BRING_IN, None), (3, A.CALL, None), (1, A.CALL, None))
    state, _ = deal(state, {1: "Kd", 2: "Ac", 3: "5d"})
    assert state.action_on == 3  # 6-5 beats K-4 and K-A in razz


def test_rp10f_bets_are_not_doubled_on_fourth_street_for_a_pair_showing() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c"})
    state = act(state, (2, A.BRING_IN, None), (1, A.CALL, None))
    state, _ = deal(state, {1: "9c", 2: "3h"})
    assert state.action_on == 1  # the open nines
    ruling = refused(state, 1, A.BET, 8)
    assert ruling.rule_ids == ("TDA2024-RP-10F",)
    assert act(state, (1, A.BET, 4)).call_to == 4


def test_rp5d_a_card_dealt_before_the_betting_is_complete_is_premature() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c"})
    after, rulings = step(state, DealHole(1, ("9c",)))
    assert after is state and rulings[0].code == "premature_card"
    assert rulings[0].rule_ids == ("TDA2024-RP-5",)


def _tie_to_showdown(variant: Variant) -> HandState:
    """Seats 1 and 2 make the same king-high straight (seat 2 holds the spade king); seat 3
    brings in and folds to the completion: a pot of 13, odd."""
    state = new_hand(variant, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "9cTdJc", 2: "9dThJh", 3: "5s6s2h"})
    state = act(state, (3, A.BRING_IN, None), (1, A.RAISE, 4), (2, A.CALL, None), (3, A.FOLD, None))
    for cards in ({1: "Qd", 2: "Qh"}, {1: "Kc", 2: "Ks"}, {1: "2c", 2: "2d"}, {1: "3d", 2: "4c"}):
        state, _ = deal(state, cards)
        assert state.action_on == 2, "tied showing hands: the high card by suit opens (RP-10-D)"
        state = check_round(state)
    return state


def test_rp10d_tied_showing_hands_the_high_card_by_suit_opens() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "9cTdJc", 2: "9dThJh", 3: "5s6s2h"})
    state = act(state, (3, A.BRING_IN, None), (1, A.RAISE, 4), (2, A.CALL, None), (3, A.FOLD, None))
    state, rulings = deal(state, {1: "Qd", 2: "Qh"})
    assert state.action_on == 2
    opener = next(r for r in rulings if r.code == "opener")
    assert opener.rule_ids == ("TDA2024-RP-10D", "TDA2024-17A")


def test_r20b_the_odd_chip_goes_to_the_high_card_by_suit_in_the_five_card_hand() -> None:
    """R20-B: a split stud pot of 13: the odd chip to seat 2's spade king, not to the first
    seat (PokerKit gives it to the first seat)."""
    state = _tie_to_showdown(Variant.STUD)
    assert state.phase is Phase.COMPLETE
    assert [(a.seat, a.amount) for a in state.awards] == [(2, 7), (1, 6)]
    assert state.seat(2).stack == 100 - 5 + 7 and state.seat(1).stack == 100 - 5 + 6


def test_r20c_hi_lo_the_high_takes_the_odd_chip_and_tied_lows_are_quartered() -> None:
    """R20-C: a pot of 15: 8 to the high, 7 to the low half, split between two identical
    7-5-4-3-2 lows with the odd chip to the seven of hearts (R20-B)."""
    state = new_hand(Variant.STUD_HILO, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "KsKdKh", 2: "2c3c4d", 3: "2d3h4c"})
    assert state.bring_in_seat == 3
    state = act(state, (3, A.BRING_IN, None), (1, A.RAISE, 4), (2, A.CALL, None), (3, A.CALL, None))
    for cards in (
        {1: "Qs", 2: "5d", 3: "5c"},
        {1: "Qd", 2: "7h", 3: "7d"},
        {1: "Js", 2: "9c", 3: "9s"},
        {1: "Jd", 2: "Tc", 3: "Ts"},
    ):
        state, _ = deal(state, cards)
        state = check_round(state)
    assert state.phase is Phase.COMPLETE
    assert [s.stack for s in state.seats] == [103, 99, 98]
    # The awards are shaped like Omaha hi-lo's: one per half won, the half named.
    assert [(a.pot_index, a.seat, a.half, a.amount, a.hand_name) for a in state.awards] == [
        (0, 1, "high", 8, "Full House"),
        (0, 2, "low", 4, "7-5-4-3-2 low"),
        (0, 3, "low", 3, "7-5-4-3-2 low"),
    ]


def test_r20c_the_award_rulings_cite_r20c_and_r20b() -> None:
    state = new_hand(Variant.STUD_HILO, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "KsKdKh", 2: "2c3c4d", 3: "2d3h4c"})
    state = act(state, (3, A.BRING_IN, None), (1, A.RAISE, 4), (2, A.CALL, None), (3, A.CALL, None))
    rulings: list[Ruling] = []
    for cards in (
        {1: "Qs", 2: "5d", 3: "5c"},
        {1: "Qd", 2: "7h", 3: "7d"},
        {1: "Js", 2: "9c", 3: "9s"},
        {1: "Jd", 2: "Tc", 3: "Ts"},
    ):
        state, _ = deal(state, cards)
        while state.action_on is not None:
            state, out = step(state, PlayerAction(state.action_on, A.CHECK))
            rulings += out
    for seat in state.in_hand:
        state, out = step(state, ShowHand(seat.seat))
        rulings += out
    awarded = [r for r in rulings if r.code == "pot_awarded"]
    assert awarded and all(r.rule_ids == ("TDA2024-20C", "TDA2024-20B") for r in awarded)


def test_razz_plays_the_best_a5_low_pairs_count_straights_do_not() -> None:
    state = new_hand(Variant.RAZZ, {1: 100, 2: 100})
    state, _ = deal(state, {1: "As2s3c", 2: "Ah2h9c"})
    state = act(state, (2, A.BRING_IN, None), (1, A.CALL, None))
    for cards in ({1: "4c", 2: "3h"}, {1: "5c", 2: "4h"}, {1: "Kd", 2: "9d"}, {1: "Qd", 2: "Td"}):
        state, _ = deal(state, cards)
        state = check_round(state)
    # seat 1: the wheel A-2-3-4-5 (a straight does not count); seat 2: 9-4-3-2-A
    assert state.awards[0].seat == 1 and state.seat(1).stack == 100 - 3 + 6


def test_rp10h_one_community_card_serves_every_player_on_seventh_street() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c"})
    state = act(state, (2, A.BRING_IN, None), (1, A.CALL, None))
    for cards in ({1: "Qc", 2: "Jc"}, {1: "3d", 2: "4d"}, {1: "5h", 2: "6h"}):
        state, _ = deal(state, cards)
        state = check_round(state)
    sixth_opener = state.opener_seat
    state, rulings = step(state, DealBoard(("Ac",)))
    assert rulings[0].code == "community_card" and rulings[0].rule_ids == ("TDA2024-RP-10H",)
    assert state.street is Street.SEVENTH and state.action_on == sixth_opener
    state = check_round(state)
    # Both play the ace on the board: seat 1 aces with K-Q, seat 2 aces with K-J.
    assert state.phase is Phase.COMPLETE and state.awards[0].seat == 1


def test_stud_rulings_cite_the_profiles_edition() -> None:
    from pokertable.controller.rules.profiles import load_profile

    t11 = load_profile("tda-2011")
    assert t11.cite("odd_chip_stud") == "TDA2011-16" and TDA_2024.cite("odd_chip_stud") == (
        "TDA2024-20B"
    )


def test_a_stud_phh_file_without_a_bring_in_is_refused_naming_the_field() -> None:
    import pytest

    from pokertable.controller.history.phh import PhhError, parse_hand

    data = {
        "variant": "F7S",
        "antes": [1, 1],
        "small_bet": 4,
        "big_bet": 8,
        "starting_stacks": [100, 100],
        "actions": [],
    }
    with pytest.raises(PhhError, match="bring_in"):
        parse_hand(data, "bad.phh")
    hand = parse_hand({**data, "bring_in": 2}, "good.phh")
    assert hand.setup.level.bring_in == 2 and hand.setup.level.big_blind == 4


def test_pb_in_phh_is_the_bring_in() -> None:
    from pokertable.controller.history.phh import to_event

    assert to_event("p2 pb", 3, "here", 0) == PlayerAction(2, A.BRING_IN)


def test_r47b_a_short_all_in_over_the_bring_in_does_not_reopen_it_for_the_bring_in() -> None:
    """R47-B: bring-in 4, small bet 20; an all-in to 12 is 8 more, under half a bet: the
    bring-in, who has acted, may call or fold but not raise (PokerKit lets him raise)."""
    state = new_hand(Variant.STUD, {1: 16, 2: 118, 3: 530}, ante=4, bring_in=4, small=20)
    state, _ = deal(state, {1: "9s7sJd", 2: "7dAc3d", 3: "2s2dTs"})
    state = act(state, (2, A.BRING_IN, None), (3, A.CALL, None), (1, A.ALL_IN, None))
    assert state.call_to == 12
    ruling = refused(state, 2, A.RAISE, 32)
    assert ruling.code == "not_reopened" and ruling.rule_ids == ("TDA2024-47B",)
    assert act(state, (2, A.CALL, None)).seat(2).bet == 12


def test_r47b_completing_even_a_large_bring_in_reopens_the_betting() -> None:
    """The completion is a full bet whatever the bring-in: bring-in 15 on a small bet of 20,
    completed to 20 (5 more), the bring-in and his caller may raise."""
    state = new_hand(Variant.STUD, {1: 200, 2: 200, 3: 200}, ante=5, bring_in=15, small=20)
    state, _ = deal(state, {1: "9s7sJd", 2: "7dAc3d", 3: "2s2dTs"})
    assert state.bring_in_seat == 2  # the three of diamonds
    state = act(state, (2, A.BRING_IN, None), (3, A.CALL, None), (1, A.RAISE, 20))
    state = act(state, (2, A.RAISE, 40), (3, A.RAISE, 60))
    assert state.call_to == 60 and state.bets_this_street == 3
