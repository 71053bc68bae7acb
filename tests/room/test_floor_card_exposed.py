"""The floor console's "card exposed" entry against a real table, in Debian's Chromium
(issue #30): the dealer's report reaches the table as ``card_exposed`` with the seat and
the card's place in his deal, the one command a stud exposure (RP-10-A, card 7: RP-10-B)
and a flop-game exposure (R35-A7) share; here the second card off the deck, a misdeal
offer under R35-A7. The R66 and dealer's choice entries reach the table as
``upcards_picked_up`` and ``choose_game``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig
from pokertable.bench.waiting import wait_for
from pokertable.room.floor_service import console
from tests.room.conftest import signed_in

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000)]
CARD = ".table[data-table='t9']"


def _replies(rig: TableRig) -> dict[str, dict[str, Any]]:
    return {r["command"]: r for r in rig.director.on("/reply")
            if r["command"] in ("upcards_picked_up", "choose_game")}


@pytest.mark.needs("mosquitto", "micropython")
def test_TDA24_35A7_the_console_reports_a_card_exposed_by_the_dealer(
    table: Callable[..., TableRig], browser: Any
) -> None:
    rig = table(PLAYERS, 3)
    server = console("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    server.start()
    try:
        page = signed_in(browser, server.url, "director")
        rig.button("hand_start")
        rig.overlay.wait_state(lambda s: s["hand_number"] == 1, "hand 1")
        rig.deal("seat1.cards", "As")
        rig.deal("seat2.cards", "Kd")  # the second card off the deck, exposed
        rig.overlay.wait_state(
            lambda s: [x["cards_held"] for x in s["seats"] if x["seat"] in (1, 2)] == [1, 1],
            "two cards read",
        )
        page.click(f"{CARD} .dealer summary")
        page.select_option(f"{CARD} .entry-command", "card_exposed")
        page.fill(f"{CARD} .entry-seat", "2")
        page.fill(f"{CARD} .entry-card", "1")
        page.click(f"{CARD} .send-entry")
        [reply] = wait_for(
            lambda: [r for r in rig.director.on("/reply") if r["command"] == "card_exposed"],
            "the table's reply",
        )
        assert reply["ok"], reply
        rulings = wait_for(
            lambda: [r for e in rig.overlay.on("/events") for r in e["rulings"]
                     if "TDA2024-35A7" in r["rule_ids"]],
            "the R35-A7 ruling",
        )
        assert any(r["text"].startswith("Misdeal: one of the first two cards") for r in rulings)
        # R66 and dealer's choice entries reach the table too; a hold'em table at a level
        # without a mix refuses both, and says why
        page.select_option(f"{CARD} .entry-command", "upcards_picked_up")
        page.click(f"{CARD} .send-entry")
        page.select_option(f"{CARD} .entry-command", "choose_game")
        page.select_option(f"{CARD} .entry-game", "F7S")
        page.click(f"{CARD} .send-entry")
        refused = wait_for(lambda: _replies(rig) if len(_replies(rig)) == 2 else None,
                           "the table's replies")
        assert "has no upcards" in refused["upcards_picked_up"]["error"]
        assert "no dealer's choice" in refused["choose_game"]["error"]
    finally:
        server.stop()
