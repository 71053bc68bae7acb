"""The irregularities layer's draw readers (``draw_cards``, issue #30): one burn a draw
(R38), a draw held open while a card of the player is off his pad, a card in the muck after
he was served (R14, R35-A7), exposed cards on the draw and on the deal (house rules,
R35-A7). The live table's tests are tests/app/test_session_draw_irregular.py."""

from __future__ import annotations

import dataclasses

from pokertable.controller.engine.events import Discard
from pokertable.controller.engine.model import Phase, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities.events import DealerExposure
from pokertable.controller.rules import TDA_2024, DrawDealExposure, RuleProfile
from tests.irregularities.table_driver import Table, codes, find, setup


def _first_draw(rules: RuleProfile = TDA_2024, variant: Variant = Variant.TRIPLE_DRAW_27) -> Table:
    """Three players limp in: the first draw is open (the readers' window is 0 here)."""
    table = Table(setup({1: 2000, 2: 2000, 3: 2000}, button=3, sb=1, bb=2, variant=variant),
                  rules=rules)
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    assert table.t.hand.phase is Phase.DEALING
    return table


def _discard(table: Table, seat: int, *cards: str) -> None:
    for card in cards:
        table.remove(f"seat{seat}.cards", card)
        table.card("muck", card)


def test_R38_draw_second_burn_is_an_extra_burn() -> None:
    table = _first_draw()
    assert codes(table.burn()) == []
    extra = find(table.burn(), "extra_burn")
    assert extra.rule_ids == ("TDA2024-38",) and "for the first draw" in extra.text


def test_R38_draw_first_card_without_a_burn_is_a_missing_burn() -> None:
    table = _first_draw()
    _discard(table, 1, table.t.hand.seat(1).hole[0])
    new = table.next_card()
    missing = find(table.seat(1, new), "missing_burn")
    assert missing.rule_ids == ("TDA2024-38",) and "first draw" in missing.text
    assert new in table.t.hand.seat(1).hole  # served all the same: the floor rules


def test_R38_burn_after_the_last_draw_has_nothing_to_deal() -> None:
    table = _first_draw(variant=Variant.SINGLE_DRAW_27)
    table.burn()
    for _ in (1, 2, 3):
        table.send(Discard(0, ()))  # the dealer's check_call: the seat on the draw knocks
    assert table.t.hand.phase is Phase.BETTING
    assert find(table.burn(), "burn_after_last_draw").rule_ids == ("TDA2024-38",)


def test_R35A7_draw_waits_while_a_released_discard_is_off_his_pad() -> None:
    table = _first_draw()
    table.burn()
    first, second = table.t.hand.seat(1).hole[:2]
    table.remove("seat1.cards", second)  # pushed forward, not in the muck yet
    _discard(table, 1, first)
    table.seat(1)
    draw = table.t.hand.draw
    assert draw is not None and draw.order[0] == 1  # no one-card draw on the count alone
    table.card("muck", second)
    table.seat(1)
    hand = table.t.hand
    assert hand.draw is not None and hand.draw.order[0] == 2
    assert first not in hand.seat(1).hole and second not in hand.seat(1).hole
    assert len(hand.seat(1).hole) == 5
    assert not [r for r in table.log if r.kind is RulingKind.ALERT]


def test_R14_R35A7_card_in_the_muck_after_he_was_served_goes_to_the_floor() -> None:
    table = _first_draw()
    table.burn()
    first, second = table.t.hand.seat(1).hole[:2]
    _discard(table, 1, first)
    table.seat(1)  # a one-card draw, as read
    table.remove("seat1.cards", second)
    call = find(table.card("muck", second), "draw_discard_after_served")
    assert call.kind is RulingKind.FLOOR and call.options == ("take_back", "dead_hand")
    assert call.rule_ids == ("TDA2024-14", "TDA2024-35A7")
    assert codes(table.seat(1, second)) == []  # taken back to his pad: his own card


def test_R35A7_draw_card_exposed_goes_to_the_muck_not_a_discard() -> None:
    table = _first_draw()
    table.burn()
    first = table.t.hand.seat(1).hole[0]
    _discard(table, 1, first)
    new = table.next_card()
    table.seat(1, new)
    ruled = table.send(DealerExposure(1, 5))
    assert find(ruled, "draw_exposed_replaced").rule_ids == ("TDA2024-35A7",)
    assert table.t.draw.exposed == (new,) and new not in table.t.hand.seat(1).hole
    table.remove("seat1.cards", new)
    assert codes(table.card("muck", new)) == []
    draw = table.t.hand.draw
    assert draw is not None and draw.last == (1,) and draw.owed == ((1, (new,)),)


def test_R35A7_draw_deal_exposure_left_to_the_floor_by_the_house() -> None:
    house = dataclasses.replace(TDA_2024, draw_deal_exposure=DrawDealExposure.FLOOR)
    table = Table(setup({1: 2000, 2: 2000, 3: 2000}, button=3, sb=1, bb=2,
                        variant=Variant.BADUGI), rules=house)
    table.seat(1)
    call = find(table.send(DealerExposure(1, 1)), "draw_deal_exposed")
    assert call.kind is RulingKind.FLOOR and call.options == ("misdeal", "play_on")
    assert call.rule_ids == ("TDA2024-35A7", "TDA2024-35C")
    table.deal([2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3])
    table.acts((3, "call"), (1, "call"))  # substantial action (R36)
    late = find(table.send(DealerExposure(2, 2)), "no_misdeal_after_sa")
    assert late.rule_ids == ("TDA2024-35A7", "TDA2024-35D")


def test_R35A7_discard_taken_back_to_his_pad_before_he_declared_is_not_a_discard() -> None:
    table = _first_draw()
    table.burn()
    card = table.t.hand.seat(1).hole[0]
    _discard(table, 1, card)
    table.remove("muck", card)
    assert codes(table.seat(1, card)) == []  # he changed his mind before the dealer served
    table.send(Discard(0, ()))  # the dealer's check_call: he stands pat
    hand = table.t.hand
    assert card in hand.seat(1).hole and hand.draw is not None and hand.draw.order[0] == 2
    assert hand.draw.log[-1] == (1, 1, "sd", ())
