"""The broadcast once a hand is over (issue #29): the state says who won what and who
folded; the overlay in Debian's Chromium crowns the winner with the pot he won, the folded
player stays folded, and no seat shows a win % for a hand that is decided.

The hand is played through ``TableSession`` (Ann folds the best hand, Bob's kings beat
Cat's queens); what the table publishes goes out on the shipped broker with the table's own
login; the relay and the page are the real ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from pokertable.room.broadcast import BroadcastLane
from tests.app.session_table import Table
from tests.room.conftest import ARTIFACTS, overlay_on_air

pytestmark = pytest.mark.needs("mosquitto")

PLAYERS = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000))
HOLES = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


def _play(table: Table, publish: Any) -> None:
    """Cat calls, Ann folds her aces, Bob checks; checked down, Bob's kings win."""
    table.press("hand_start")
    publish()
    for seat, cards in HOLES.items():
        for card in cards:
            table.card(f"seat{seat}.cards", card)
    publish()
    table.press("check_call")  # Cat calls
    table.press("fold")  # Ann folds the best hand
    table.press("check_call")  # Bob checks
    publish()
    for street in (("2c", "7d", "9h", "3c"), ("4d", "Jh"), ("5h", "8c")):
        table.card("burn", street[0])
        for card in street[1:]:
            table.card("board", card)
        publish()
        while (hand := table.session.hand) is not None and hand.action_on is not None:
            table.press("check_call")
        publish()
    table.press("confirm")
    publish()


def test_state_after_a_hand_names_the_winner_and_keeps_the_fold() -> None:
    table = Table(PLAYERS, first_button=3)
    states: list[dict[str, Any]] = []
    _play(table, lambda: states.append(table_state(table.session, table.t)))
    final = states[-1]
    validate("state", {**final, "venue": "club", "table": "t9", "session": "s",
                       "seq": 1, "schema_version": 1})
    assert final["street"] == "complete"
    assert [(a["player"], a["amount"], a["hand_name"]) for a in final["awards"]] == [
        ("Bob", 500, "Pair")
    ]
    status = {s["player"]: s["status"] for s in final["seats"] if s["player"]}
    assert status == {"Ann": "folded", "Bob": "active", "Cat": "active"}
    # the broadcast lane computes no equities for a decided hand (Ann's aces would be 100 %)
    lane = BroadcastLane(delay_s=0)
    lane.on_message("state", states[-2], now_s=0)
    for seat, cards in HOLES.items():
        lane.on_message(
            f"secure/hole_cards/{seat}", {"hand_id": final["hand_id"], "seat": seat,
                                          "cards": list(cards)}, now_s=0)
    assert not any(m.leaf == "secure/equities" for m in lane.on_message("state", final, 0))


def test_overlay_after_a_hand_shows_the_winner_and_the_pot_he_won(
    tmp_path: Path, browser: Any
) -> None:
    with overlay_on_air(tmp_path, browser) as (page, sender, _):
        table = Table(PLAYERS, first_button=3)
        sent = {"outputs": 0, "seq": 0}

        def publish() -> None:
            """What the table's bridge publishes: hole cards, then the state."""
            assert sender is not None
            for output in table.out[sent["outputs"]:]:
                if output.channel == "hole_cards":
                    sent["seq"] += 1
                    seat = output.payload["seat"]
                    sender.publish(f"{PREFIX}/secure/hole_cards/{seat}",
                                   {**output.payload, "seq": sent["seq"]})
            sent["outputs"] = len(table.out)
            sent["seq"] += 1
            state = table_state(table.session, table.t)
            sender.publish(f"{PREFIX}/state", {**state, "venue": "club", "table": "t9",
                                               "session": "s", "seq": sent["seq"]})

        _play(table, publish)
        page.wait_for_function(
            "() => document.querySelector('.seat.winner') !== null", timeout=120_000
        )
        page.screenshot(path=str(ARTIFACTS / "overlay-hand-complete.png"), omit_background=True)
        assert page.inner_text("#pot") == "Bob wins 500 with Pair"
        winners = page.eval_on_selector_all(
            ".seat.winner .name", "els => els.map(e => e.textContent)"
        )
        assert winners == ["Bob"]
        assert page.inner_text(".seat[data-seat='2'] .win") == "wins 500"
        assert "folded" in (page.get_attribute(".seat[data-seat='1']", "class") or "")
        for seat in (1, 3):  # no win % for a decided hand: Ann's folded aces are not 100 %
            assert page.inner_text(f".seat[data-seat='{seat}'] .win") == ""
