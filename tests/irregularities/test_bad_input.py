"""Bad reader input never changes the hand; every alert names its rule and says what to do."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from pokertable.controller.engine.events import ActionKind, DealBoard, PlayerAction
from pokertable.controller.engine.model import Phase
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities.events import (
    Absent,
    BoxedCard,
    CardSeen,
    ConfirmMisdeal,
    DealerExposure,
    FloorDecision,
    KillHand,
    SkippedChoice,
)
from pokertable.controller.irregularities.hand import TrackedHand
from tests.irregularities.table_driver import Table, codes, find, rejected, setup

FOUR = {1: 5000, 2: 5000, 3: 5000, 4: 5000}


def dealt() -> Table:
    table = Table(setup(FOUR, button=4, sb=1, bb=2))
    table.deal()
    return table


def same_hand(a: TrackedHand, b: TrackedHand) -> bool:
    """Equal apart from the published alert log."""
    return (a.hand, a.deal, a.ledger, a.board, a.oot, a.status, a.misdeal) == (
        b.hand, b.deal, b.ledger, b.board, b.oot, b.status, b.misdeal)


@pytest.mark.parametrize("zone", ["seat3.bet", "stub", "seat11.cards", "flop-zone", ""])
def test_card_in_a_zone_that_is_not_a_card_zone(zone: str) -> None:
    table = dealt()
    before = table.t
    out = table.send(CardSeen(zone, "Ah", "tag-x"))
    ruling = find(out, "card_bad_zone")
    assert ruling.rule_ids == ("TDA2024-1",) and "zone" in ruling.text
    assert same_hand(before, table.t)
    assert table.t.ledger.by_card("Ah") is None


def test_same_tag_at_two_seats_keeps_the_first_seat() -> None:
    table = dealt()
    card = table.t.hand.seat(3).hole[0]
    before = table.t
    out = table.seat(4, card)
    ruling = find(out, "card_two_zones")
    assert ruling.rule_ids == ("TDA2024-1",) and "seat3.cards" in ruling.text
    assert same_hand(before, table.t)


def test_unknown_tag_alerts_and_changes_nothing() -> None:
    table = dealt()
    before = table.t
    out = table.send(CardSeen("board", "", "e0040150deadbeef"))
    ruling = find(out, "card_unknown_tag")
    assert ruling.rule_ids == ("TDA2024-35A6", "TDA2024-35D")
    assert "e0040150deadbeef" in ruling.text
    assert same_hand(before, table.t)


def test_garbage_card_text_is_an_unknown_tag() -> None:
    table = dealt()
    out = table.send(CardSeen("seat1.cards", "Zz9", "tag-z"))
    assert codes(out) == ["card_unknown_tag"]


def finished() -> Table:
    table = dealt()
    table.acts((3, "fold"), (4, "fold"), (1, "fold"))
    assert table.t.hand.phase is Phase.COMPLETE
    return table


@pytest.mark.parametrize("zone", ["board", "burn", "seat2.cards"])
def test_cards_after_the_hand_ended(zone: str) -> None:
    table = finished()
    before = table.t
    out = table.card(zone)
    ruling = find(out, "card_after_hand")
    assert ruling.rule_ids == ("TDA2024-28",)
    assert same_hand(before, table.t)


def test_cards_swept_into_the_muck_after_the_hand_are_silent() -> None:
    table = finished()
    assert table.card("muck", table.t.hand.seat(3).hole[0]) == []


def test_engine_events_and_actions_after_the_hand_are_rejected() -> None:
    table = finished()
    before = table.t
    assert rejected(table.send(DealBoard(("2h", "3h", "4h"))))
    assert rejected(table.send(PlayerAction(2, ActionKind.CHECK)))
    assert table.t is before


def test_duplicate_card_in_the_same_zone_different_tag_is_fouled_not_a_reread() -> None:
    table = dealt()
    card = table.t.hand.seat(3).hole[0]
    out = table.seat(3, card, "another-tag")
    assert "fouled_deck" in codes(out)


RULE_ID = re.compile(r"TDA2024-(\d+[A-Z]?\d?|RP-\d+)")
SCENARIOS: dict[str, Callable[[], Table]] = {}


def scenario(fn: Callable[[], Table]) -> Callable[[], Table]:
    SCENARIOS[fn.__name__] = fn
    return fn


@scenario
def misdeals_and_dealer_entries() -> Table:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000}, button=5, sb=1, bb=2))
    table.seat(2)
    table.seat(7)
    table.send(BoxedCard())
    table.send(BoxedCard())
    table.deal([1, 3, 4, 5, 1, 3, 4, 5, 5, 3])
    table.send(DealerExposure(3, 1))
    table.send(DealerExposure(4, 1))
    table.send(DealerExposure(4, 9))
    table.card("muck", "Jk", "jk")
    table.acts((3, "fold"), (4, "call"))
    table.send(ConfirmMisdeal())
    table.send(Absent(4))
    return table


@scenario
def board_irregularities() -> Table:
    table = dealt()
    table.acts((3, "call"))
    table.street(3)  # premature flop
    for card in table.t.board.premature:
        table.remove("board", card)
    table.acts((4, "call"), (1, "call"), (2, "check"))
    table.board(table.next_card(), table.next_card(), table.next_card())
    table.card("board")  # four-card flop
    moved = table.t.hand.board[0]
    table.remove("board", moved)
    table.card("burn", moved)
    table.acts((1, "check"), (2, "check"), (3, "check"), (4, "check"))
    table.burn()
    table.card("board")
    table.acts((1, "check"), (2, "check"), (3, "check"), (4, "check"))
    table.card("board")  # river without a burn
    table.send(KillHand(9))
    table.card("seat3.bet")
    table.remove("board", table.t.hand.board[0])
    return table


@scenario
def out_of_turn_and_floor() -> Table:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000, 6: 5000}, button=6, sb=1,
                        bb=2))
    table.deal()
    table.act(3, "raise", 300)
    table.act(5, "call")
    table.act(5, "fold")
    table.act(6, "fold")
    table.send(FloorDecision("R53-B seat 4", SkippedChoice.ALL_OPTIONS))
    table.act(4, "raise", 1000)
    table.card("muck", table.t.hand.seat(1).hole[0])
    return table


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_alert_names_a_rule_and_a_procedure(name: str) -> None:
    table = SCENARIOS[name]()
    alerts = [r for r in table.log if r.kind in (RulingKind.ALERT, RulingKind.FLOOR)]
    assert len(alerts) >= 5
    for ruling in alerts:
        assert ruling.rule_ids, ruling
        assert all(RULE_ID.fullmatch(i) for i in ruling.rule_ids), ruling
        assert len(ruling.text) >= 30 and ruling.code, ruling
    assert alerts == list(table.t.alerts)  # every alert is kept in the published state
    assert len(table.t.published(table.rules)["alerts"]) == len(alerts)  # type: ignore[arg-type]


def test_cards_to_the_muck_on_turn_are_a_fold_out_of_turn_an_alert() -> None:
    table = dealt()
    on_turn = table.t.hand.action_on
    assert on_turn == 3
    assert table.card("muck", table.t.hand.seat(3).hole[0]) == []
    out = table.card("muck", table.t.hand.seat(4).hole[0])
    ruling = find(out, "live_card_in_muck")
    assert ruling.rule_ids == ("TDA2024-14", "TDA2024-65A") and ruling.seat == 4
    assert table.t.hand.seat(4).status.value == "live"
