"""The room's archive of draw hands (issue #30): the public PHH says only how many cards each
player threw and drew; the archive writes in his deal, discards and new cards from the
successive hands of the secure lane, and the hand replays to the table's stacks."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from pokertable.controller.engine.model import Variant
from pokertable.controller.history.render import hand_to_phh
from pokertable.room.hand_archive import hand_record
from tests.app.draw_table import DrawTable
from tests.app.test_session_draw_random import LEVEL, _play


def _private_actions(table: DrawTable) -> list[str]:
    """The hand's actions as the table's own full PHH writes them (its journal export)."""
    session = table.session
    tracked = session.tracked
    assert tracked is not None
    text = hand_to_phh(tracked.setup, tracked.hand, venue="v", table="t1", seat_count=10,
                       number=session.hand_number, started_ms=None)
    actions: list[str] = tomllib.loads(text)["actions"]
    return actions


def _hand(table: DrawTable) -> tuple[dict[str, Any], dict[int, list[list[str]]]]:
    """The hand_complete event and each seat's successive hands, as the table sent them."""
    hands: dict[int, list[list[str]]] = {}
    event: dict[str, Any] = {}
    for output in table.out:
        payload = dict(output.payload)
        if output.channel == "hole_cards":
            hands.setdefault(payload["seat"], []).append(payload["cards"])
        elif output.channel == "event" and payload["kind"] == "hand_complete":
            event = payload
    return event, hands


@pytest.mark.parametrize("variant",
                         [Variant.TRIPLE_DRAW_27, Variant.SINGLE_DRAW_27, Variant.BADUGI])
def test_R35A7_draw_hands_are_archived_with_their_draws_and_replay(variant: Variant) -> None:
    rng = random.Random(f"archive-{variant.value}")
    drawn = 0
    for _ in range(4):
        table = DrawTable({1: 900, 2: 2000, 3: 2000, 4: 300}, variant=variant, level=LEVEL)
        table.press("hand_start")
        _play(table, rng)
        event, hands = _hand(table)
        last = {seat: seen[-1] for seat, seen in hands.items()}
        record = hand_record("v", "t1", event, last, None, hands)
        assert record.verified, record.problem
        assert record.phh is not None
        actions = tomllib.loads(record.phh)["actions"]
        assert actions == _private_actions(table)  # every card the table read, as it wrote
        draws = [a for a in actions if len(a.split()) == 3 and a.split()[1] == "sd"]
        drawn += len(draws)
        if draws:  # the public PHH alone, or the last hand only, does not replay
            assert not hand_record("v", "t1", event, last, None).verified
    assert drawn, "no player drew a card in these hands"
