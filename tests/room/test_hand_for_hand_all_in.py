"""All-ins during hand-for-hand across two real tables (TDA 2024 RP-8-A and RP-8-F): two
``pokertable run`` processes on simulated felt, the clock process, the floor console in
Debian's Chromium, real mosquitto.

Both tables go all in and called on the same hand-for-hand hand: each holds its runout
face down (``runout_held``); a card burned early raises an RP-8-F alert. The director
runs t9's out from the console; t8's waits until t9's hand is over, then the clock sends
``resume_runout``. Both short stacks bust and the leaderboard gives them the same
finishing place (RP-8-A)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from pokertable.bench.table_rig import TableRig, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.room.floor_service import console
from tests.room.conftest import ARTIFACTS, signed_in
from tests.room.test_hand_for_hand import room_clock

BOARD = (("burn", "3c"), ("board", "4h"), ("board", "8s"), ("board", "9d"), ("burn", "5c"),
         ("board", "Jc"), ("burn", "6c"), ("board", "2s"))


def _all_in_and_call(rig: TableRig, holes: dict[int, tuple[str, str]]) -> None:
    """Heads-up, button 1: the big blind (seat 2) gets the first card (R34-B); the button
    goes all in, the big blind calls all in for less."""
    rig.button("hand_start")
    rig.overlay.wait_state(lambda s: s["hand_number"] == 1, f"hand 1 at {rig.table_id}")
    for index in (0, 1):
        for seat in (2, 1):
            rig.deal(f"seat{seat}.cards", holes[seat][index])
    rig.overlay.wait_state(
        lambda s: s["action_on"] == 1 and all(x["cards_held"] == 2 for x in s["seats"][:2]),
        f"the deal at {rig.table_id}",
    )
    rig.button("all_in")
    rig.overlay.wait_state(lambda s: s["action_on"] == 2, f"the all-in at {rig.table_id}")
    rig.button("check_call")


def _run_out(rig: TableRig, cards: tuple[tuple[str, str], ...]) -> None:
    rig.overlay.wait_state(lambda s: not s["runout_held"], f"{rig.table_id} released")
    for zone, card in cards:
        rig.deal(zone, card)
    rig.overlay.wait_state(lambda s: len(s["board"]) == 5, f"{rig.table_id}'s board")
    rig.button("confirm")  # the dealer: hands tabled
    rig.overlay.wait_state(lambda s: s["street"] == "complete", f"{rig.table_id}'s award")


def _released(rig: TableRig) -> bool:
    return any(e["kind"] == "runout_released" for e in rig.overlay.on("/events"))


def _rulings(rig: TableRig) -> list[dict[str, Any]]:
    return [r for e in rig.overlay.on("/events") for r in e["rulings"]]


@pytest.mark.needs("mosquitto", "micropython", "chromium")
def test_TDA24_RP8F_and_RP8A_all_ins_on_one_hand_for_hand_hand_at_two_tables(
    table: Callable[..., TableRig], browser: Any
) -> None:
    t9 = table([(1, "Ann", 5000), (2, "Bob", 2000)], 1)
    t8 = table([(1, "Cat", 5000), (2, "Dan", 3000)], 1, table_id="t8", broker=t9.broker)
    service = room_clock(t9.broker.port)
    board = Watcher(t9.broker.port, "overlay", ("pokertable/v1/club/leaderboard",),
                    client_id="rig-overlay-leaderboard")
    service.start()
    assert service.subscribed.wait(60), "the clock could not subscribe"
    server = console("club", f"ws://127.0.0.1:{t9.broker.ws_port}")
    server.start()
    try:
        page = signed_in(browser, server.url, "director", ("t8", "t9"))
        t9.director.publish("pokertable/v1/club/clock/control",
                            {"command": "hand_for_hand", "enabled": True})
        for rig in (t9, t8):
            rig.overlay.wait_state(lambda s: s["hand_for_hand"], "hand-for-hand at the table")

        _all_in_and_call(t9, {1: ("As", "Ad"), 2: ("Ks", "Kd")})
        t9.overlay.wait_state(lambda s: s["runout_held"], "t9 holds its runout face down")
        assert any(r["rule_ids"] == ["TDA2024-RP-8F"] for r in _rulings(t9))
        assert not any("tabled now" in r["text"] for r in _rulings(t9))  # no R16 call yet
        t9.deal("burn", "3c")  # the dealer burns before the room says so: alert
        wait_for(
            lambda: any(r["kind"] == "alert" and r["rule_ids"] == ["TDA2024-RP-8F"]
                        for r in _rulings(t9)),
            "the RP-8-F alert for the early burn",
        )
        assert (t9.overlay.state() or {})["runout_held"]  # t8 still plays: the room waits
        t9_card = page.locator(".table[data-table='t9']")
        t9_card.locator(".hand").filter(has_text="cards face down").wait_for(timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "floor-runout-held.png"), full_page=True)
        t9_card.locator("button[data-command='resume_runout']").click()  # the director
        wait_for(partial(_released, t9), "t9's runout released from the console")
        _run_out(t9, BOARD[1:])

        _all_in_and_call(t8, {1: ("Qs", "Qd"), 2: ("7s", "7d")})  # every other table done:
        wait_for(partial(_released, t8), "t8's runout released by the clock")
        for rig in (t9, t8):
            kinds = [e["kind"] for e in rig.overlay.on("/events")]
            held = [e["kind"] for e in rig.overlay.on("/events")
                    if any(r["text"].startswith("all in and called during hand-for-hand")
                           for r in e["rulings"])]
            assert held and kinds.index(held[0]) < kinds.index("runout_released")
        _run_out(t8, BOARD)

        final = wait_for(
            lambda: next((b for b in reversed(board.on("/leaderboard"))
                          if len(b.get("eliminated", ())) == 2), None),
            "both busts on the leaderboard",
        )
        assert final["players_left"] == 2
        assert [(r["player"], r["hand_id"], r["place"], r["tied"], r["rule_ids"])
                for r in final["eliminated"]] == [  # two tables' hands, one H4H hand: a tie
            ("Bob", "t9-h00001", 3, 2, ["TDA2024-RP-8A"]),
            ("Dan", "t8-h00001", 3, 2, ["TDA2024-RP-8A"])]
    finally:
        server.stop()
        service.stop()
        board.stop()
