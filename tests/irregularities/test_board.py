"""Burns (R38), button with too few cards (R37), irregular flops (R39), premature cards (RP-5)."""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, SeatStatus, Street
from pokertable.controller.irregularities import HandStatus, redeal
from pokertable.controller.irregularities.events import ConfirmMisdeal
from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, codes, find, rejected, setup

SIX = {1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000, 6: 5000}


def six_handed() -> Table:
    return Table(setup(SIX, button=6, sb=1, bb=2))


def to_flop(table: Table) -> None:
    table.deal()
    table.acts((3, "call"), (4, "fold"), (5, "fold"), (6, "fold"), (1, "call"), (2, "check"))
    assert table.t.hand.phase is Phase.DEALING


def test_TDA24_38_EX1A_a_short_hand_before_SA_is_a_misdeal() -> None:
    table = six_handed()
    out = table.deal([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 6])  # seat 5 gets one card
    out += table.act(3, "fold")  # nothing noticed at the deal: the first action closes it
    ruling = find(out, "misdeal_card_count")
    assert ruling.seat == 5 and ruling.rule_ids[0] == "TDA2024-35A5"
    assert table.t.misdeal is not None and not table.sa
    # The dealer confirms: a misdeal (R35-A5), every chip back where it was.
    assert "misdeal_declared" in codes(table.send(ConfirmMisdeal()))
    assert table.t.status is HandStatus.MISDEAL
    assert all(s.committed == 0 and s.stack == 5000 for s in table.t.hand.seats)
    # The re-deal is an exact replay (R35-C): same button and blinds, same six players.
    t2, _ = redeal(table.t, TDA_2024)
    assert (t2.hand.button, t2.hand.small_blind_seat, t2.hand.big_blind_seat) == (6, 1, 2)
    assert [s.seat for s in t2.hand.seats] == [1, 2, 3, 4, 5, 6]
    assert t2.redeal_of == "h1" and t2.hand.seat(2).committed == 100
    again = Table.from_tracked(t2)
    assert again.deal() == []  # dealt right this time: no ruling
    assert again.t.status is HandStatus.PLAYING
    assert all(len(s.hole) == 2 for s in again.t.hand.seats)
    assert again.t.hand.action_on == 3 and not rejected(again.act(3, "fold"))


def test_TDA24_38_EX1A_b_short_hand_after_SA_is_dead_and_one_burn_only() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 6])
    table.act(3, "fold")
    out = table.act(4, "call")  # fold + call = SA
    dead = find(out, "dead_hand_card_count")
    assert dead.rule_ids == ("TDA2024-38", "TDA2024-35D") and "never more" in dead.text
    assert table.t.hand.seat(5).status is SeatStatus.FOLDED
    assert table.t.hand.action_on == 6  # pre-flop continues with seat 6
    table.acts((6, "fold"), (1, "call"), (2, "check"))
    assert table.burn() == []
    second = table.burn()
    assert find(second, "extra_burn").rule_ids == ("TDA2024-38",)


def test_TDA24_38_EX1B_long_hand_after_SA_dead_and_flop_needs_a_stub_burn() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 5, 5, 6, 1, 2, 3, 4, 5, 6])  # seat 5 gets three cards
    table.act(3, "fold")
    out = table.act(4, "call")
    assert "dead_hand_card_count" in codes(out)
    table.acts((6, "fold"), (1, "call"), (2, "check"))
    flop = table.board(table.next_card(), table.next_card(), table.next_card())  # no burn
    ruling = find(flop, "flop_no_burn")
    assert ruling.rule_ids == ("TDA2024-39B", "TDA2024-38")


def test_T24_37_D1_button_short_is_replaced_even_after_SA() -> None:
    table = six_handed()
    out = table.deal([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5])  # the button (6) holds one card
    out += table.acts((3, "fold"), (4, "call"))
    assert find(out, "button_short").rule_ids == ("TDA2024-37",)
    assert table.t.misdeal is None and table.sa
    assert table.t.hand.seat(6).status is SeatStatus.LIVE  # not killed by R38 at SA
    out = table.seat(6)
    assert "button_short_replaced" in codes(out)
    assert len(table.t.hand.seat(6).hole) == 2
    table.acts((5, "call"), (6, "call"))


def test_T24_37_D1_button_acting_with_too_few_cards_is_dead() -> None:
    table = six_handed()
    table.deal([1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5])
    table.acts((3, "fold"), (4, "call"), (5, "fold"))
    out = table.act(6, "call")
    ruling = find(out, "button_short_dead")
    assert ruling.rule_ids == ("TDA2024-37",)
    assert table.t.hand.seat(6).status is SeatStatus.FOLDED
    assert table.t.hand.seat(6).committed == 0 and table.t.hand.action_on == 1


def test_T24_39_D1_four_card_flop_floor_picks_the_burn() -> None:
    table = six_handed()
    to_flop(table)
    table.street(3)
    assert table.t.hand.phase is Phase.BETTING
    fourth = table.next_card()
    out = table.card("board", fourth)
    ruling = find(out, "four_card_flop")
    assert ruling.kind.value == "floor" and ruling.rule_ids == ("TDA2024-39A",)
    assert rejected(table.act(1, "check"))  # the floor is at the table: no action yet
    chosen = table.t.hand.board[1]
    table.remove("board", chosen)
    out = table.card("burn", chosen)
    assert "four_card_flop_resolved" in codes(out)
    assert len(table.t.hand.board) == 3 and chosen not in table.t.hand.board
    assert fourth in table.t.hand.board
    table.acts((1, "check"), (2, "check"), (3, "check"))
    table.card("board")  # the turn: the chosen card was already its burn
    assert table.t.hand.street is Street.TURN
    assert "extra_burn" not in codes(table.log) and "missing_burn" not in codes(table.log)


def test_T24_39_D2_flop_without_burn_no_action_scramble_one_becomes_the_burn() -> None:
    table = six_handed()
    to_flop(table)
    cards = [table.next_card() for _ in range(3)]
    out = table.board(*cards)
    assert "flop_no_burn" in codes(out)
    table.remove("board", cards[0])
    out = table.card("burn", cards[0])
    assert "flop_no_burn_burned" in codes(out)
    new = table.next_card()
    out = table.card("board", new)
    assert "flop_repaired" in codes(out)
    assert set(table.t.hand.board) == {cards[1], cards[2], new}
    table.acts((1, "check"))
    table.acts((2, "check"), (3, "check"))
    table.street(1)
    assert table.t.hand.street is Street.TURN and "extra_burn" not in codes(table.log)


def test_T24_39_D2_variant_flop_without_burn_after_a_check_stands() -> None:
    table = six_handed()
    to_flop(table)
    cards = [table.next_card() for _ in range(3)]
    table.board(*cards)
    out = table.act(1, "check")
    assert "flop_no_burn_stands" in codes(out)
    assert sorted(table.t.hand.board) == sorted(cards)  # flop order is canonical, not read order
    table.acts((2, "check"), (3, "check"))
    assert table.street(1) == []  # one burn for the turn only
    assert table.t.hand.street is Street.TURN


def test_TDA24_RP5_D1_premature_flop() -> None:
    table = six_handed()
    table.deal()
    table.acts((3, "call"), (4, "fold"), (5, "fold"))  # seat 6 still to act
    burn = table.burn()
    assert burn == []
    flop = [table.next_card() for _ in range(3)]
    out = table.board(*flop)
    ruling = find(out, "premature_flop")
    assert ruling.rule_ids == ("TDA2024-RP-5", "TDA2024-39D")
    assert "without another burn" in ruling.text and "face down" in ruling.text
    assert table.t.hand.board == () and table.t.board.premature == tuple(flop)
    removed: list[str] = []
    for card in sorted(flop, reverse=True):  # the highest first: each goes back on its own
        back = table.remove("board", card)
        removed.append(card)
        assert table.t.board.premature == tuple(c for c in flop if c not in removed)
    assert "premature_returned" in codes(back)
    table.acts((6, "fold"), (1, "call"), (2, "check"))
    out = table.board(flop[1], table.next_card(), flop[0])  # reshuffled stub, no new burn
    assert "flop_no_burn" not in codes(out) and len(table.t.hand.board) == 3


def test_TDA24_RP5_D2_premature_turn() -> None:
    table = six_handed()
    to_flop(table)
    table.street(3)
    table.act(1, "check")
    assert table.burn() == []
    turn = table.next_card()
    out = table.card("board", turn)
    assert "premature_turn" in codes(out)
    assert find(out, "premature_turn").text.count("RP-5-B") == 1
    table.remove("board", turn)
    table.acts((2, "check"), (3, "check"))
    out = table.card("board")  # turn without another burn
    assert codes(out) == [] and table.t.hand.street is Street.TURN
    table.acts((1, "check"), (2, "check"), (3, "check"))
    assert table.street(1) == [] and table.t.hand.street.name == "RIVER"  # river: burn + card


def test_NZ22_RP5B_premature_turn_set_aside_with_an_extra_burn() -> None:
    """Clubs NZ RP-5-B in the layer: the turn takes a second burn, the river none."""
    from pokertable.controller.rules.profiles import load_profile

    nz = load_profile("clubs-nz-2022")
    table = Table(setup(SIX, button=6, sb=1, bb=2), rules=nz)
    to_flop(table)
    table.street(3)
    table.act(1, "check")
    assert table.burn() == []
    turn = table.next_card()
    out = table.card("board", turn)
    assert "put it to the side" in find(out, "premature_turn").text
    assert table.t.board.burns_due[Street.TURN] == 2 and table.t.board.burns_due[Street.RIVER] == 0
    assert "set aside" in find(table.remove("board", turn), "premature_returned").text
    table.acts((2, "check"), (3, "check"))
    assert table.burn() == []  # NZ's extra burn: not R38's error
    assert table.card("board") == [] and table.t.hand.street is Street.TURN
    table.acts((1, "check"), (2, "check"), (3, "check"))
    assert table.card("board", turn) == []  # reshuffled into the stub: no burn
    assert table.t.hand.street is Street.RIVER


def test_NZ22_RP5B_premature_turn_left_on_the_board_is_put_aside_not_reshuffled() -> None:
    from pokertable.controller.rules.profiles import load_profile

    table = Table(setup(SIX, button=6, sb=1, bb=2), rules=load_profile("clubs-nz-2022"))
    to_flop(table)
    table.street(3)
    table.act(1, "check")
    table.burn()
    table.card("board", table.next_card())  # premature turn, left on the board
    table.acts((2, "check"), (3, "check"))
    out = table.card("board", table.next_card())
    assert "put it to the side" in find(out, "premature_still_out").text


def test_TDA24_RP5_D3_premature_river() -> None:
    table = six_handed()
    to_flop(table)
    table.street(3)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    table.street(1)
    table.acts((1, "bet", 200))
    table.burn()
    river = table.next_card()
    out = table.card("board", river)
    assert "premature_river" in codes(out)
    table.remove("board", river)
    table.acts((2, "call"), (3, "fold"))
    out = table.card("board", river)  # the same card may come back after the reshuffle
    assert codes(out) == [] and table.t.hand.street is Street.RIVER
    assert table.t.hand.board[-1] == river


def test_TDA24_38_turn_without_a_burn_alerts() -> None:
    table = six_handed()
    to_flop(table)
    table.street(3)
    table.acts((1, "check"), (2, "check"), (3, "check"))
    out = table.card("board")
    assert find(out, "missing_burn").rule_ids == ("TDA2024-38",)
