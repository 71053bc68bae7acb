"""Irregularities: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/irregularities/ got past the
irregularity tests (docs/testing.md, "Mutation testing"); driven through the tracked hand.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine import start_hand, step
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Level, Phase, SeatStatus, Street, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities.events import (
    Absent,
    CardRemoved,
    CardSeen,
    ConfirmMisdeal,
    CorrectButton,
    DealerExposure,
    FloorDecision,
    KillHand,
    Present,
    SkippedChoice,
)
from pokertable.controller.irregularities.killed import return_all_bets
from pokertable.controller.irregularities.showdown_requests import SeeAnswer, request_to_see
from pokertable.controller.irregularities.substantial import ReferencePoints
from pokertable.controller.irregularities.tracked import redeal, start_tracked
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.rules.profiles import load_profile
from tests.irregularities.table_driver import Table, codes, find, river_three_way, setup

L100 = Level(small_blind=50, big_blind=100)


def test_TDA24_53B_the_floor_is_asked_once_about_a_skipped_seat() -> None:
    # Seat 4 is skipped; seat 5 calls and seat 6 folds out of turn: substantial action,
    # the floor is called about seat 4. Seats 1 and 2 folding out of turn after that are
    # out of turn too, but the question about seat 4 is not asked again.
    table = Table(
        setup(
            {1: 20_000, 2: 20_000, 3: 20_000, 4: 20_000, 5: 20_000, 6: 20_000},
            button=6,
            sb=1,
            bb=2,
            level=Level(small_blind=100, big_blind=200),
        )
    )
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "call")
    assert find(table.act(6, "fold"), "skipped_player").seat == 4
    for seat in (1, 2):
        out = table.act(seat, "fold")
        assert "out_of_turn" in codes(out) and "skipped_player" not in codes(out)
    assert table.t.oot.floor_pending == 4


def test_TDA24_65A_a_killed_hand_keeps_the_called_part_of_its_street_bet() -> None:
    # Seat 4 raised to 1,500 over a called 400 and its hand is killed: 1,100 goes back,
    # the 400 that was called stays as its street bet and in the pot.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "raise", 600), (4, "call"), (1, "fold"), (2, "call"))
    table.street(3)
    table.acts((2, "bet", 400), (3, "call"), (4, "raise", 1500))
    pot_before = table.t.hand.pot_total
    table.send(KillHand(4))
    seat4 = table.t.hand.seat(4)
    assert (seat4.bet, seat4.stack, seat4.committed) == (400, 4000, 1000)
    assert table.t.hand.pot_total == pot_before - 1100
    # The withdrawn raise no longer counts: one bet on this street (seat 2's), as if
    # seat 4 had only called.
    assert (table.t.hand.bets_this_street, table.t.hand.call_to) == (1, 400)
    assert table.t.hand.increment == 400  # the bet is the last full increment again


def test_readers_a_removal_read_at_another_antenna_leaves_the_board_card_in_place() -> None:
    # A flop card flickers at seat 2's antenna: seen there (one card in two zones: nothing
    # changed), then read leaving seat 2. It never left the board, so the turn card that
    # follows is the fourth board card and is dealt.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    table.street(3)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    flop_card = table.t.hand.board[0]
    assert codes(table.seat(2, flop_card)) == ["card_two_zones"]
    assert table.remove("seat2.cards", flop_card) == []
    assert table.t.ledger.in_zone("board").count(flop_card) == 1
    table.street(1)
    assert len(table.t.hand.board) == 4 and table.t.hand.board[0] == flop_card


def _flop(rules: object = TDA_2024) -> Table:
    """Three players, the flop dealt with its burn, nobody has acted on it."""
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100),
                  rules=rules)  # type: ignore[arg-type]
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    table.street(3)
    return table


def test_readers_a_board_card_read_in_the_muck_is_one_card_in_two_zones() -> None:
    # A live board card read at the muck antenna (a stray read, or the dealer mucking it):
    # nothing moves; the dealer is asked where the card is.
    table = _flop()
    card = table.t.hand.board[1]
    assert codes(table.card("muck", card)) == ["card_two_zones"]
    assert card in table.t.ledger.in_zone("board")


def test_readers_a_flop_card_leaving_the_board_before_any_action_is_alerted() -> None:
    # No four-card flop and no missing burn: a flop card lifted before anyone acted is not a
    # repair on its way to the burn; the dealer is told to put it back.
    table = _flop()
    card = table.t.hand.board[0]
    assert codes(table.remove("board", card)) == ["board_card_removed"]


def test_TDA24_34A_a_button_placed_one_seat_early_is_alerted_and_a_right_one_is_not() -> None:
    expected = setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2, level=L100)
    early = setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=3, sb=4, bb=1, level=L100)
    assert find(Table(early, expected=expected).log, "button_mismatch").rule_ids == (
        "TDA2024-34A",)
    assert "button_mismatch" not in codes(Table(expected, expected=expected).log)


def test_TDA24_35C_only_a_declared_misdeal_is_redealt() -> None:
    table = _flop()
    with pytest.raises(ValueError, match="is not a declared misdeal"):
        redeal(table.t, TDA_2024)


def test_TDA24_35E_a_stopped_hand_returns_every_bet_and_leaves_folds_folded() -> None:
    setup3 = setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100)
    state, _ = start_hand(setup3)
    state, _ = step(state, PlayerAction(3, ActionKind.FOLD))
    state, _ = step(state, PlayerAction(1, ActionKind.ALL_IN))
    stopped = return_all_bets(state)
    assert [(s.stack, s.bet, s.committed) for s in stopped.seats] == [(5000, 0, 0)] * 3
    assert [s.status for s in stopped.seats] == [
        SeatStatus.LIVE, SeatStatus.LIVE, SeatStatus.FOLDED]
    assert stopped.phase is Phase.COMPLETE


def test_TDA24_35A5_one_card_is_said_in_the_singular() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    out = table.deal([1, 2, 3, 1, 3])  # seat 2 gets one card
    out += table.act(3, "fold")
    assert "seat 2 holds 1 card, 2 expected" in find(out, "misdeal_card_count").text


def test_TDA24_35A7_the_third_card_off_the_deck_exposed_is_not_a_misdeal() -> None:
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2))
    table.deal()
    assert codes(table.send(DealerExposure(seat=3, card_index=1))) == ["card_exposed"]


def _river(rules: RuleProfile = TDA_2024) -> Table:
    return river_three_way(50_000, L100, rules)


@pytest.mark.parametrize("asker", [3, 7])
def test_TDA24_18_a_seat_without_a_hand_may_not_ask_to_see_one(asker: int) -> None:
    table = Table(setup({1: 50_000, 2: 50_000, 3: 50_000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "fold"), (1, "call"), (2, "check"))
    for n in (3, 1, 1):
        table.street(n)
        table.acts((1, "check"), (2, "check"))
    answer, ruling = request_to_see(table.t.hand, asker, 1, TDA_2024)
    assert (answer, ruling.code) == (SeeAnswer.DENIED, "see_hand_denied")


def test_TDA24_18_why_the_TD_decides_a_request_to_see() -> None:
    _, ruling = request_to_see(_river().t.hand, 1, 3, TDA_2024)
    assert "there was no river bet; the TD decides" in ruling.text
    t11 = load_profile("tda-2011")
    _, ruling = request_to_see(_river(t11).t.hand, 1, 3, t11)
    assert "a privilege the TD grants; the TD decides" in ruling.text


def test_a_refused_action_is_not_kept_for_the_replay() -> None:
    # ``played`` rebuilds the hand exactly (re-deal, restart): a refused raise is not in it.
    table = _flop()
    played = table.t.played
    out = table.act(1, "raise", 50)
    assert [r.kind for r in out if r.code != "out_of_turn"] and table.t.played == played


def test_TDA24_35A7_the_last_seats_second_card_is_not_among_the_first_two() -> None:
    # Three-handed, seat 3's second card is the sixth off the deck.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    assert codes(table.send(DealerExposure(seat=3, card_index=2))) == ["card_exposed"]


def test_TDA24_35A7_two_later_downcards_exposed_are_named_as_such() -> None:
    # The fourth and then the third card off the deck: neither is one of the first two.
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2))
    table.deal()
    table.send(DealerExposure(seat=4, card_index=1))
    out = table.send(DealerExposure(seat=3, card_index=1))
    assert "two downcards were exposed by the dealer" in find(out, "misdeal_exposed").text


def test_TDA24_53_a_folded_seat_acting_is_refused_not_held() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2,
                        level=L100))
    table.deal()
    table.acts((3, "fold"))
    out = table.act(3, "call")
    assert [r.kind for r in out] == [RulingKind.REJECTED] and table.t.oot.pending == ()
    assert table.t.hand.action_on == 4


def test_TDA24_35C_a_re_deal_misdealt_again_is_the_second_re_deal() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal([1, 2, 3, 1, 3])  # seat 2 gets one card
    table.act(3, "fold")
    table.send(ConfirmMisdeal())
    first, _ = redeal(table.t, TDA_2024)
    again = Table.from_tracked(first)
    again.deal([1, 2, 3, 1, 3])
    again.act(3, "fold")
    again.send(ConfirmMisdeal())
    second, _ = redeal(again.t, TDA_2024)
    assert (first.hand.hand_id, second.hand.hand_id, second.redeal_of) == (
        "h1-redeal1", "h1-redeal2", "h1")


def test_TDA24_53B_a_bound_raise_still_legal_is_offered_when_the_action_changes() -> None:
    # Seat 4 skipped; seat 5 raised to 3,000 and seat 6 called out of turn (bound, R53-B);
    # the floor gives seat 4 all options and he raises to 1,200: seat 5's raise to 3,000
    # is still a legal raise, so the floor may let it stand.
    table = Table(setup({s: 20_000 for s in range(1, 7)}, button=6, sb=1, bb=2,
                        level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "raise", 600))
    table.act(5, "raise", 3000)
    table.act(6, "call")
    table.send(FloorDecision("R53-B seat 4", SkippedChoice.ALL_OPTIONS))
    out = table.act(4, "raise", 1200)
    assert find(out, "oot_void").options == (
        "fold", "call 1200", "raise to 1800..20000", "raise to 3000")


def test_TDA24_39A_the_fourth_card_chosen_as_burn_leaves_the_dealt_flop_as_it_is() -> None:
    # The floor picks the card that arrived fourth: the three on the board are the flop the
    # engine already has, so nothing is replaced.
    table = _flop()
    fourth = table.next_card()
    assert "four_card_flop" in codes(table.card("board", fourth))
    flop = table.t.hand.board
    table.remove("board", fourth)
    assert codes(table.card("burn", fourth)) == ["four_card_flop_resolved"]
    assert table.t.hand.board == flop


def test_TDA24_39B_the_flop_card_moved_to_the_burn_is_the_flops_one_burn() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    cards = [table.next_card() for _ in range(3)]
    assert "flop_no_burn" in codes(table.board(*cards))
    table.remove("board", cards[0])
    assert "flop_no_burn_burned" in codes(table.card("burn", cards[0]))
    assert table.t.board.burns[Street.FLOP] == 1


def test_TDA24_38_a_turn_read_just_before_its_burn_is_the_turns_burn() -> None:
    # Readers report the turn card 100 ms before its burn (read window 500 ms): the burn
    # is the turn's, so the turn is not "dealt without a burn" and the river's burn is
    # not a second one.
    t, _ = start_tracked(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100),
                         TDA_2024, read_window_ms=500)
    table = Table.from_tracked(t)
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    table.street(3)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    turn, burn = table.next_card(), table.next_card()
    table.send(CardSeen("board", turn, f"tag-{turn}", 100_000))
    table.send(CardSeen("burn", burn, f"tag-{burn}", 100_100))
    assert table.t.hand.board[3:] == (turn,)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    river_burn, river = table.next_card(), table.next_card()
    table.send(CardSeen("burn", river_burn, f"tag-{river_burn}", 200_000))
    table.send(CardSeen("board", river, f"tag-{river}", 200_100))
    assert table.t.hand.board[3:] == (turn, river)
    assert not {"missing_burn", "extra_burn"} & set(codes(table.log))


def test_TDA24_65A_a_hand_killed_for_its_card_count_gets_its_uncalled_raise_back() -> None:
    # After SA (a raise and a fold) a third card reaches the raiser: his hand is dead
    # (R38) and the 200 of his raise that nobody called goes back to him (R65-A); the
    # blinds play on facing the big blind only.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2,
                        level=L100))
    table.deal()
    table.acts((3, "raise", 300), (4, "fold"))
    out = table.seat(3)
    assert "dead_hand_card_count" in codes(out) and "uncalled_returned" in codes(out)
    hand = table.t.hand
    assert (hand.seat(3).stack, hand.seat(3).bet, hand.call_to, hand.action_on) == (
        4900, 100, 100, 1)


def test_TDA24_53A_an_out_of_turn_action_lapses_when_the_hand_ends_first() -> None:
    # The big blind checks out of turn; the button and the small blind fold: the hand is
    # over before the action reaches him, so his held check lapses (said, and dropped).
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    assert "out_of_turn" in codes(table.act(2, "check"))
    table.act(3, "fold")
    out = table.act(1, "fold")
    assert find(out, "oot_lapsed").seat == 2
    assert table.t.over and table.t.oot.pending == ()


def test_TDA24_28_a_board_card_at_showdown_is_not_a_premature_card() -> None:
    # All five cards are out and the hands are being tabled: a sixth board card is no
    # street's card (no rabbit hunting), not a premature one.
    assert codes(_river().card("board")) == ["board_card_no_street"]


def test_TDA24_31_a_player_coming_back_to_his_seat_is_not_alerted() -> None:
    table = _flop()
    assert codes(table.send(Absent(2))) == ["left_with_live_hand"]
    assert table.send(Present(2)) == [] and 2 not in table.t.absent


def test_TDA24_65A_a_withdrawn_reraise_leaves_the_raise_before_it_as_the_increment() -> None:
    # Bet 200, raise to 600, seat 3 re-raises to 2,000 and his hand is killed: the street
    # stands at 600 and the last full raise is 400 again (a re-raise is to 1,000 or more).
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, sb=1, bb=2,
                        level=L100))
    table.deal()
    table.acts((3, "call"), (4, "call"), (1, "call"), (2, "check"))
    table.street(3)
    table.acts((1, "bet", 200), (2, "raise", 600), (3, "raise", 2000))
    table.send(KillHand(3))
    hand = table.t.hand
    assert (hand.call_to, hand.increment, hand.bets_this_street, hand.action_on) == (
        600, 400, 2, 4)


def test_TDA24_36_marking_a_reference_point_again_keeps_the_others() -> None:
    # Names sorting before and after "hand_start": re-marking one replaces only that one.
    for name in ("after_bet", "r52b_erroneous_bet"):
        points = ReferencePoints().mark(name, 3).mark(name, 5)
        assert (points.index("hand_start"), points.index(name)) == (0, 5)


@pytest.mark.parametrize(("profile", "said"), [("tda-2024", ["flop_no_burn_stands"]),
                                               ("tda-2011", [])])
def test_R39B_the_flop_without_burn_stands_after_action_only_where_R39B_says_so(
        profile: str, said: list[str]) -> None:
    # TDA 2024 R39-B tells the table the flop now stands; TDA 2011 left it to the floor.
    rules = load_profile(profile)
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100),
                  rules=rules)
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    table.board(*(table.next_card() for _ in range(3)))
    out = table.act(1, "check")
    assert [c for c in codes(out) if c.startswith("flop_no_burn")] == said


@pytest.mark.parametrize("event", [
    CardRemoved("board", "As", "uid1"), DealerExposure(2, 1), Absent(3), CorrectButton(),
], ids=lambda e: type(e).__name__)
def test_an_entry_given_no_time_is_at_the_start_of_the_hands_clock(
        event: CardRemoved | DealerExposure | Absent | CorrectButton) -> None:
    # The windows judge_due measures (burns, R35 misdeals, R30 absences) count from the
    # entry's time; an entry the dealer makes without one is at 0, never after a real read.
    assert event.at_ms == 0


def test_TDA11_31_a_late_card_leaving_the_short_button_short_is_a_wrong_count() -> None:
    # PLO under TDA 2011 (no R37 replacement): the button got 2 of 4 cards; a late third
    # card still leaves him short, so it is a wrong card count for the floor, not the late
    # card that completes a short button's hand.
    table = Table(setup({s: 5000 for s in range(1, 7)}, button=6, sb=1, bb=2,
                        variant=Variant.PLO), rules=load_profile("tda-2011"))
    table.deal([1, 2, 3, 4, 5, 6] * 2 + [1, 2, 3, 4, 5] * 2)
    assert "button_short" in codes(table.act(3, "fold"))
    out = table.seat(6)
    assert codes(out) == ["card_count_floor"]
    assert find(out, "card_count_floor").rule_ids == ("TDA2011-31",)
    assert find(out, "card_count_floor").text == (
        "seat 6 holds 3 cards, 4 expected: the rules leave this to the floor (misdeal or dead "
        "hand)")


# --- seed 23 (session 13): survivors of a fresh sample of 150 --------------------------------


def test_TDA24_18B_a_seat_all_in_before_the_river_did_not_call_the_river_aggressor() -> None:
    # Seat 4 went all in pre-flop; on the river seats 1 and 2 call seat 3's raise. Only a
    # river caller may demand seat 3's hand; seat 4's request is the TD's to decide.
    table = Table(setup({1: 50_000, 2: 50_000, 3: 50_000, 4: 500}, button=4, sb=1, bb=2,
                        level=Level(small_blind=100, big_blind=200)))
    table.deal()
    table.acts((3, "call"), (4, "all_in"), (1, "call"), (2, "call"), (3, "call"))
    for n in (3, 1):
        table.street(n)
        table.acts((1, "check"), (2, "check"), (3, "check"))
    table.street(1)
    table.acts((1, "bet", 1000), (2, "call"), (3, "raise", 5000), (1, "call"), (2, "call"))
    hand = table.t.hand
    assert request_to_see(hand, 4, 3, TDA_2024, released={3})[0] is SeeAnswer.TD_DISCRETION
    assert request_to_see(hand, 2, 3, TDA_2024, released={3})[0] is SeeAnswer.MUST_TABLE


def test_TDA24_65A_killing_a_folded_hand_or_one_in_a_finished_hand_changes_nothing() -> None:
    from pokertable.controller.irregularities.killed import kill_hand

    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    table.acts((3, "raise", 300), (1, "fold"))
    state = table.t.hand
    assert kill_hand(state, 1, TDA_2024, refund_uncalled=True) == (state, ())
    table.acts((2, "fold"))  # seat 3 wins the blinds: the hand is over
    over = table.t.hand
    assert over.phase is Phase.COMPLETE and over.seat(3).status is not SeatStatus.FOLDED
    assert kill_hand(over, 3, TDA_2024, refund_uncalled=True) == (over, ())


def test_readers_a_hole_card_read_at_the_burn_antenna_is_one_card_in_two_zones() -> None:
    # A stray read of seat 1's card at the burn antenna: not a burn, nothing moves.
    table = Table(setup({1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=L100))
    table.deal()
    card = table.t.hand.seat(1).hole[0]
    burns = table.t.board.burns
    assert codes(table.card("burn", card)) == ["card_two_zones"]
    assert table.t.board.burns == burns and card in table.t.hand.seat(1).hole
