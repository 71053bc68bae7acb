"""R35 misdeals and fouled decks, R30 at the re-deal, R71-C penalties: driven by reader events."""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine.model import Level, SeatStatus
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities import HandStatus, redeal
from pokertable.controller.irregularities.events import (
    Absent,
    BoxedCard,
    ConfirmMisdeal,
    DealerExposure,
    Present,
)
from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, codes, find, rejected, setup

SIX = {1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000, 6: 5000}
NZ_LIKE = replace(TDA_2024, name="clubs-nz-2022-dealing", misdeal_on_card_count=False,
                  redeal_absent_players_play=False)


def six_handed(**kw: object) -> Table:
    return Table(setup(SIX, button=6, sb=1, bb=2), **kw)  # type: ignore[arg-type]


def test_T24_35_D1_first_card_to_the_wrong_seat_is_a_misdeal() -> None:
    table = Table(setup({4: 5000, 5: 5000, 6: 5000, 7: 5000}, button=4, sb=5, bb=6))
    out = table.seat(6)
    ruling = find(out, "misdeal_first_card")
    assert ruling.rule_ids[0] == "TDA2024-35A2"
    assert "seat 5" in ruling.text and "exact replay" in ruling.text
    assert table.t.misdeal is not None and table.t.misdeal.codes == ("misdeal_first_card",)


def test_T24_35_D1_dead_small_blind_first_card_goes_to_the_big_blind() -> None:
    table = Table(setup({4: 5000, 6: 5000, 7: 5000}, button=4, sb=None, bb=6))  # seat 5 empty
    out = table.deal()
    assert out == [] and table.t.misdeal is None
    assert table.t.hand.seat(6).hole and table.t.status is HandStatus.PLAYING


def test_TDA24_35A3_card_to_a_seat_not_dealt_in() -> None:
    table = six_handed()
    table.seat(1)
    out = table.seat(8)
    assert find(out, "misdeal_not_entitled").rule_ids[0] == "TDA2024-35A3"


def test_TDA24_35A4_entitled_seat_dealt_out() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 6, 1, 2, 3, 4, 6])  # seat 5 skipped
    out = table.act(3, "fold")
    ruling = find(out, "misdeal_dealt_out")
    assert ruling.seat == 5 and ruling.rule_ids[0] == "TDA2024-35A4"
    assert table.t.misdeal is not None


def test_NZ22_35A_D1_wrong_number_of_cards_before_SA_T24_misdeal() -> None:
    table = six_handed()
    out = table.deal([1, 2, 3, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6])  # seat 3 gets 3 cards
    ruling = find(out, "misdeal_card_count")
    assert ruling.seat == 3 and ruling.rule_ids[0] == "TDA2024-35A5"
    assert not table.t.hand.seat(3).hole  # the engine never saw a wrong hand


def test_NZ22_35A_D1_wrong_number_of_cards_profile_without_the_trigger_asks_the_floor() -> None:
    table = six_handed(rules=NZ_LIKE)
    out = table.deal([1, 2, 3, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6])
    ruling = find(out, "card_count_floor")
    assert ruling.kind is RulingKind.FLOOR and ruling.options == ("misdeal", "dead_hand")
    assert table.t.misdeal is None


def test_T24_35_D2_joker_before_SA_is_a_misdeal_after_SA_a_scrap_of_paper() -> None:
    table = six_handed()
    table.seat(1)
    out = table.seat(2, "Jk", "joker-1")
    assert find(out, "misdeal_nonstandard_card").rule_ids[0] == "TDA2024-35A6"
    later = six_handed()
    later.deal()
    later.acts((3, "fold"), (4, "call"))
    assert later.sa
    before = later.t
    out = later.card("burn", "Jk", "joker-1")
    ruling = find(out, "scrap_of_paper")
    assert ruling.rule_ids == ("TDA2024-35A6", "TDA2024-35D")
    assert later.t.misdeal is None and later.t.hand == before.hand


def test_TDA24_35A6_short_deck_low_card_is_non_standard() -> None:
    short_deck = frozenset(r + s for r in "6789TJQKA" for s in "cdhs")
    table = six_handed(deck=short_deck)
    out = table.seat(1, "5h")
    assert "misdeal_nonstandard_card" in codes(out)


def test_TDA24_35A1_two_boxed_cards_one_is_not_enough() -> None:
    table = six_handed()
    table.seat(1)
    first = table.send(BoxedCard())
    assert find(first, "boxed_card").kind is RulingKind.ALERT and table.t.misdeal is None
    second = table.send(BoxedCard())
    assert find(second, "misdeal_boxed").rule_ids[0] == "TDA2024-35A1"


def test_TDA24_35A7_exposure_of_one_of_the_first_two_cards() -> None:
    table = six_handed()
    table.deal()
    out = table.send(DealerExposure(seat=2, card_index=1))  # 2nd card off the deck
    assert find(out, "misdeal_exposed").rule_ids[0] == "TDA2024-35A7"


def test_TDA24_35A7_two_other_downcards_exposed() -> None:
    table = six_handed()
    table.deal()
    once = table.send(DealerExposure(seat=4, card_index=1))
    assert codes(once) == ["card_exposed"] and table.t.misdeal is None
    twice = table.send(DealerExposure(seat=5, card_index=2))
    assert "misdeal_exposed" in codes(twice)
    thrice = table.send(DealerExposure(seat=3, card_index=2))  # more than two: still one
    assert codes(thrice) == ["misdeal_exposed"] and table.t.misdeal is not None


def test_TDA24_35B_button_may_get_two_consecutive_cards() -> None:
    table = six_handed()
    out = table.deal([1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6, 6])
    assert out == [] and table.t.misdeal is None and len(table.t.hand.seat(6).hole) == 2


def test_TDA24_35D_misdeal_offer_withdrawn_at_SA_and_cannot_be_declared() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 6, 1, 2, 3, 4, 6])  # seat 5 dealt out
    table.act(3, "fold")
    assert table.t.misdeal is not None
    out = table.act(4, "call")
    assert "misdeal_withdrawn" in codes(out) and table.t.misdeal is None
    assert table.t.hand.seat(5).status is SeatStatus.FOLDED  # dead: dealt out after SA
    refused = table.send(ConfirmMisdeal())
    assert rejected(refused)[0].rule_ids == ("TDA2024-35D",)
    assert table.t.status is HandStatus.PLAYING


def test_TDA24_35C_redeal_is_an_exact_replay() -> None:
    level = Level(number=3, small_blind=100, big_blind=200)
    table = Table(setup(SIX, button=6, sb=1, bb=2, level=level))
    table.seat(2)  # first card to the wrong seat
    out = table.send(ConfirmMisdeal())
    assert "misdeal_declared" in codes(out)
    assert table.t.status is HandStatus.MISDEAL
    assert all(s.committed == 0 and s.stack == 5000 for s in table.t.hand.seats)
    t2, _ = redeal(table.t, TDA_2024)
    assert (t2.hand.button, t2.hand.small_blind_seat, t2.hand.big_blind_seat) == (6, 1, 2)
    assert t2.hand.level == level and t2.redeal_of == "h1"
    assert [s.seat for s in t2.hand.seats] == [1, 2, 3, 4, 5, 6]
    assert t2.hand.seat(2).committed == 200  # blinds posted again, same limits


def test_T24_35_D4_penalised_player_dealt_and_killed_on_the_redeal_counts_once() -> None:
    table = Table(setup({6: 5000, 7: 5000, 8: 5000, 9: 5000}, button=6, sb=7, bb=8),
                  on_penalty=[8])
    table.seat(9)
    table.seat(8)  # wrong first card: seat 7 was due
    table.send(ConfirmMisdeal())
    t2, _ = redeal(table.t, TDA_2024)
    again = Table.from_tracked(t2)
    out = again.deal()
    assert find(out, "dead_hand_at_deal").rule_ids == ("TDA2024-71C",)
    assert again.t.hand.seat(8).status is SeatStatus.FOLDED
    assert again.t.hand.seat(8).committed == 100  # his big blind stays in the pot
    assert t2.redeal_of == "h1"  # original + re-deal are one hand for the penalty count


def test_NZ22_35C_D1_absent_at_original_deal_plays_the_redeal_under_T24() -> None:
    table = six_handed()
    table.send(Absent(4))
    table.deal([2, 1, 3, 4, 5, 6])  # first card wrong
    table.act(3, "fold")  # closes the deal: seat 4 was away
    assert table.t.deal.absent_at_deal == frozenset({4})
    table.send(ConfirmMisdeal())
    t2, _ = redeal(table.t, TDA_2024)
    again = Table.from_tracked(t2)
    again.send(Present(4))
    again.deal()
    assert again.t.hand.seat(4).status is SeatStatus.LIVE and again.t.hand.seat(4).hole


def test_NZ22_35C_D1_absent_at_original_deal_killed_on_redeal_in_NZ_profile() -> None:
    table = six_handed(rules=NZ_LIKE)
    table.send(Absent(4))
    table.deal([2, 1, 3, 4, 5, 6])
    table.act(3, "fold")
    table.send(ConfirmMisdeal())
    t2, _ = redeal(table.t, NZ_LIKE)
    again = Table.from_tracked(t2, NZ_LIKE)
    again.send(Present(4))
    out = again.deal()
    assert again.t.hand.seat(4).status is SeatStatus.FOLDED
    assert find(out, "dead_hand_at_deal").rule_ids == ("TDA2024-35C",)


def test_T24_35_D3_fouled_deck_after_SA_returns_every_bet() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 5, 6, 1, 2, 3])
    table.seat(4, "Kc", "tag-1")
    table.seat(5)
    table.seat(6)
    table.acts((3, "call"), (4, "raise", 300), (5, "fold"), (6, "fold"), (1, "fold"),
               (2, "call"), (3, "call"))
    table.street(3)
    table.acts((2, "check"), (3, "check"), (4, "check"))
    table.burn()
    table.card("board", "9s")
    table.acts((2, "bet", 400))
    assert table.sa
    same_tag = table.card("muck", "Kc", "tag-1")  # a re-read of the same tag: not fouled
    assert "fouled_deck" not in codes(same_tag)
    out = table.card("board", "Kc", "tag-2")
    ruling = find(out, "fouled_deck")
    assert ruling.rule_ids == ("TDA2024-35E",) and "return all bets" in ruling.text
    assert table.t.status is HandStatus.FOULED
    assert [s.stack for s in table.t.hand.seats] == [5000] * 6
    assert table.t.hand.awards == () and table.t.hand.phase.value == "complete"


def test_TDA24_35E_reread_of_the_same_tag_is_not_a_duplicate() -> None:
    table = six_handed()
    table.deal()
    hole = table.t.hand.seat(3).hole
    before = table.t.hand
    table.remove("seat3.cards", hole[0])  # the player lifts his cards
    out = table.seat(3, hole[0])
    assert out == [] and table.t.hand == before


def test_TDA24_35A5_extra_card_after_the_deal_closed_then_dead_at_SA() -> None:
    table = six_handed()
    table.deal()
    assert len(table.t.hand.seat(3).hole) == 2
    out = table.seat(3)  # a third card pitched to seat 3
    assert find(out, "misdeal_card_count").seat == 3
    table.acts((3, "call"), (4, "fold"))
    assert table.sa and table.t.hand.seat(3).status is SeatStatus.FOLDED
    assert table.t.hand.seat(3).committed == 100  # his call stays: called chips are not refunded
    assert "dead_hand_card_count" in codes(table.log)
