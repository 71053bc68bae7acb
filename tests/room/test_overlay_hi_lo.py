"""The broadcast after an Omaha hi-lo hand (issue #30): the overlay in Debian's Chromium
names both halves' winners (R20-C), the high and the low, with the hands that won them.

The hand is played through ``TableSession`` (Ann's A-3 wins the low, Bob's kings the
high); what the table publishes goes out on the shipped broker with the table's login;
the relay and the page are the real ones."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX
from pokertable.controller.engine.model import Variant
from pokertable.controller.table.public_state import table_state
from tests.app.session_table import Table
from tests.room.conftest import ARTIFACTS, overlay_on_air

pytestmark = pytest.mark.needs("mosquitto")

PLAYERS = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000))
HOLES = {
    1: ("As", "3d", "Jc", "Jd"),
    2: ("Kc", "Kd", "9s", "9h"),
    3: ("Th", "Tc", "8s", "8h"),
}


def test_overlay_after_an_omaha_hi_lo_hand_names_the_high_and_the_low_R20C(
    tmp_path: Path, browser: Any
) -> None:
    with overlay_on_air(tmp_path, browser) as (page, sender, _):
        table = Table(PLAYERS, first_button=3, variant=Variant.PLO8)
        seq = {"n": 0}

        def publish() -> None:
            assert sender is not None
            seq["n"] += 1
            state = table_state(table.session, table.t)
            sender.publish(
                f"{PREFIX}/state",
                {**state, "venue": "club", "table": "t9", "session": "s", "seq": seq["n"]},
            )

        table.press("hand_start")
        for i in range(4):
            for seat in (1, 2, 3):
                table.card(f"seat{seat}.cards", HOLES[seat][i])
        publish()
        for street in (("4s", "2c", "5d", "7h"), ("6s", "Ks"), ("6c", "Qd")):
            while (hand := table.session.hand) is not None and hand.action_on is not None:
                table.press("check_call")
            table.card("burn", street[0])
            for card in street[1:]:
                table.card("board", card)
            publish()
        while (hand := table.session.hand) is not None and hand.action_on is not None:
            table.press("check_call")
        table.press("confirm")
        publish()
        page.wait_for_function(
            "() => document.querySelectorAll('.seat.winner').length === 2", timeout=120_000
        )
        page.screenshot(path=str(ARTIFACTS / "overlay-hi-lo-complete.png"), omit_background=True)
        # One entry a winner (seats in order), each with the halves he won.
        assert page.inner_text("#pot") == (
            "Ann wins 300 (low 7-5-3-2-A low) \u00b7 Bob wins 300 (high Trips)"
        )


def test_no_high_only_equities_are_published_during_a_hi_lo_hand() -> None:
    """The relay's equities are high-only: in a hi-lo game they would mislead viewers, so
    none go out (a PLO hand with the same cards gets them)."""
    from pokertable.room.broadcast import BroadcastLane

    for game, expected in (("PO/8", False), ("PO", True)):
        table = Table(PLAYERS, first_button=3, variant=Variant(game))
        table.press("hand_start")
        for i in range(4):
            for seat in (1, 2, 3):
                table.card(f"seat{seat}.cards", HOLES[seat][i])
        state = table_state(table.session, table.t)
        assert state["game"] == game
        lane = BroadcastLane(delay_s=0)
        lane.on_message("state", state, now_s=0)
        sent = []
        for seat, cards in HOLES.items():
            sent += lane.on_message(
                f"secure/hole_cards/{seat}",
                {"hand_id": state["hand_id"], "seat": seat, "cards": list(cards)},
                now_s=0,
            )
        assert any(m.leaf == "secure/equities" for m in sent) is expected, game
