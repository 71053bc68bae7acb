"""A stud street's cards dealt together (``stud.deal_run``, the replay's way) reach the state
``step`` reaches card by card, stop before the street's last card and before any card
``step`` refuses, and a replay names a refused card in a run as it names any action."""

from __future__ import annotations

import pytest

from pokertable.controller.engine import step
from pokertable.controller.engine.events import DealHole
from pokertable.controller.engine.model import Phase, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.engine.stud import deal_run
from pokertable.controller.history.phh import PhhError, parse_hand
from pokertable.controller.history.phh_toml import loads
from pokertable.controller.history.replay import replay_hand
from tests.engine.test_stud_rules import new_hand

THIRD = {1: "2c3c4c", 2: "5d6d7d", 3: "8h9hTh", 4: "JsQsKs"}


def _cards(text: str) -> tuple[str, ...]:
    return tuple(text[i : i + 2] for i in range(0, len(text), 2))


def test_the_cards_before_the_streets_last_are_dealt_as_step_deals_them() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100, 3: 100, 4: 100})
    events = [DealHole(seat, _cards(text)) for seat, text in THIRD.items()]
    together, dealt = deal_run(state, events)
    assert dealt == 3  # the fourth card opens the street: ``step`` deals it
    one_by_one = state
    for event in events[:3]:
        one_by_one, rulings = step(one_by_one, event)
        assert rulings == ()
    assert together == one_by_one and together.phase is Phase.DEALING


def test_a_run_stops_at_a_card_in_play_and_step_refuses_it() -> None:
    state = new_hand(Variant.RAZZ, {1: 100, 2: 100, 3: 100})
    events = [DealHole(1, _cards("2c3c4c")), DealHole(2, _cards("4c6d7d"))]
    state, dealt = deal_run(state, events)
    assert dealt == 1
    _, rulings = step(state, events[1])
    assert rulings[0].kind is RulingKind.REJECTED and rulings[0].code == "duplicate_card"


def test_a_refused_card_in_a_replayed_street_is_named_by_its_action() -> None:
    doc = (
        "variant = 'F7S'\nantes = [1, 1, 1]\nbring_in = 2\nsmall_bet = 4\nbig_bet = 8\n"
        "starting_stacks = [100, 100, 100]\n"
        "actions = ['d dh p1 2c3c4c', 'd dh p2 4c6d7d', 'd dh p3 8h9hTh']\n"
    )
    with pytest.raises(PhhError, match=r"action 1 \('d dh p2 4c6d7d'\): illegal: .*fouled deck"):
        replay_hand(parse_hand(loads(doc), "dup"))
