"""The floor console's penalties and floor entries against a real table, in Debian's
Chromium: a missed-hand penalty recorded on the console sits the player out for exactly
that hand (R71-C: dealt in, blind posted, hand killed) and the console shows it; a dispute
sent from the console's entries becomes a floor call with the rule's text (R22)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig
from pokertable.bench.waiting import wait_for
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, signed_in

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000)]
CARD = ".table[data-table='t9']"


def _seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["seat"] == number)


def _deal(rig: TableRig, hand: int) -> None:
    """The initial deal, one card a round from the small blind (seat 1; button 3)."""
    for round_ in range(2):
        for seat in (1, 2, 3):
            rig.deal(f"seat{seat}.cards", "AKQJT98"[seat + hand * 2 - 3] + "shdc"[round_ + hand])
    rig.overlay.wait_state(
        lambda s: all(
            _seat(s, n)["cards_held"] == 2 or _seat(s, n)["status"] == "folded" for n in (1, 2, 3)
        ),
        f"hand {hand} dealt",
    )


@pytest.mark.needs("mosquitto", "micropython")
def test_a_penalty_and_a_dispute_from_the_console(
    table: Callable[..., TableRig], browser: Any
) -> None:
    rig = table(PLAYERS, 3)
    server = console("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    server.start()
    try:
        page = signed_in(browser, server.url, "director")

        page.click(f"{CARD} .penalty-form summary")
        page.fill(f"{CARD} .penalty-seat", "1")
        page.select_option(f"{CARD} .penalty-kind", "missed_hands")
        page.fill(f"{CARD} .penalty-count", "1")
        page.click(f"{CARD} .record-penalty")
        state = rig.overlay.wait_state(lambda s: bool(s["penalties"]), "the penalty")
        assert state["penalties"] == [{"seat": 1, "hands_left": 1, "rule_ids": ["TDA2024-71"]}]
        page.wait_for_function(
            f'() => document.querySelector("{CARD} .penalties").textContent'
            ".startsWith('On penalty: seat 1 (1 hand to sit out,')",
            timeout=60_000,
        )

        rig.button("hand_start")
        rig.overlay.wait_state(lambda s: s["hand_number"] == 1, "hand 1")
        _deal(rig, 1)
        # R71-C: Ann was dealt in, her small blind stays in the pot, her hand is killed
        state = rig.overlay.wait_state(
            lambda s: _seat(s, 1)["status"] == "folded", "Ann's hand killed at the deal"
        )
        assert _seat(state, 1)["stack"] == 4900
        page.wait_for_function(
            f"() => document.querySelector(\"{CARD} tbody tr[data-seat='1']\")"
            ".textContent.includes('penalty')",
            timeout=60_000,
        )
        page.screenshot(path=str(ARTIFACTS / "floor-penalty.png"), full_page=True)
        rig.button("fold")  # Cat folds; Bob, the big blind, wins
        rig.overlay.wait_state(lambda s: s["street"] == "complete", "hand 1 over")

        # a dispute of hand 1 from the console's entries (the table's last hand): R22
        page.click(f"{CARD} .dealer summary")
        page.select_option(f"{CARD} .entry-command", "dispute")
        page.select_option(f"{CARD} .entry-about", "accounting")
        page.click(f"{CARD} .send-entry")
        state = rig.overlay.wait_state(lambda s: bool(s["alerts"]), "the dispute's floor call")
        alert = state["alerts"][0]
        assert alert["kind"] == "dispute" and alert["options"] == ["upheld", "rejected"]
        card = page.wait_for_selector(f".call[data-alert='{alert['id']}']", timeout=60_000)
        assert card is not None and "TDA2024-22" in card.inner_text()
        page.click(f".call[data-alert='{alert['id']}'] button[data-option='rejected']")
        rig.overlay.wait_state(lambda s: not s["alerts"], "the dispute ruled")

        # the room bar (director): players left in the event (R48) and a colour-up (R24)
        page.fill("#players-left", "12")
        page.click("#send-players-left")
        page.fill("#color-up-removed", "25")
        page.click("#send-color-up")
        told = wait_for(
            lambda: (
                {
                    r["command"]
                    for r in rig.director.on("/reply")
                    if r["ok"] and r["command"] in ("players_left", "color_up")
                }
                == {"players_left", "color_up"}
            ),
            "the tables' replies",
        )
        assert told

        for seat in (1, 2, 3):  # the dealer gathers the cards
            rig.clear(f"seat{seat}.cards")
        rig.button("hand_start")  # the penalty is served: Ann plays hand 2
        rig.overlay.wait_state(lambda s: s["hand_number"] == 2, "hand 2")
        _deal(rig, 2)
        state = rig.overlay.wait_state(lambda s: s["penalties"] == [], "the penalty served")
        assert _seat(state, 1)["status"] != "folded" and _seat(state, 1)["cards_held"] == 2
        page.wait_for_function(
            f"() => document.querySelector(\"{CARD} .penalties\").textContent === ''",
            timeout=60_000,
        )
    finally:
        server.stop()
