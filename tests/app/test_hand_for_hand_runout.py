"""An all-in and call during hand-for-hand (TDA 2024 RP-8-F), at the live table through
``TableSession``: the hands stay face down, no card is dealt until the room's
``resume_runout``, and a card read before it raises an alert citing RP-8-F."""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Phase
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.rules_table import RulesTable

HOLES: dict[int, tuple[str, ...]] = {1: ("7c", "2d"), 2: ("Ks", "Kd"), 3: ("As", "Ad")}


def _state(table: RulesTable) -> dict[str, Any]:
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s",
                       "seq": 1, "schema_version": 1})
    return state


def _all_in_and_call(profile: str = "tda-2024", h4h: bool = True) -> RulesTable:
    """Button 3 all in pre-flop, seat 1 folds, seat 2 calls: no more betting possible."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, profile=profile)
    if h4h:
        table.command("hand_for_hand", source="clock", enabled=True)
        table.command("deal_next", source="clock")
    table.press("hand_start")
    table.deal(HOLES)
    table.press("all_in")
    table.press("fold")
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING and table.hand.action_on is None
    return table


def _run_out_and_table(table: RulesTable) -> None:
    table.street("3c", "4h", "8s", "9d")
    table.street("5c", "Jc")
    table.street("6c", "2s")
    table.press("confirm")  # the dealer: live hands tabled


def test_TDA24_RP8F_D1_all_in_and_call_during_hand_for_hand_stays_face_down() -> None:
    table = _all_in_and_call()
    held = [r for r in table.rulings() if r["rule_ids"] == ["TDA2024-RP-8F"]]
    assert len(held) == 1 and held[0]["text"].startswith("all in and called during hand-for")
    assert not any("tabled now" in r["text"] for r in table.rulings())  # no R16 call
    assert _state(table)["runout_held"] is True

    table.press("confirm")  # the dealer tries to table the hands: refused
    assert [r["rule_ids"] for r in table.rulings(tuple(table.out[-1:]))] == [["TDA2024-RP-8F"]]
    assert not any(s.shown for s in table.hand.seats)
    assert table.hand.phase is Phase.DEALING

    out = table.card("burn", "3c")  # a card before the instruction: alert, the card stands
    alerts = [r for r in table.rulings(out) if r["kind"] == "alert"]
    assert [r["rule_ids"] for r in alerts] == [["TDA2024-RP-8F"]]
    assert "burn" in alerts[0]["text"]
    assert table.session.burn_cards == ("3c",)

    out = table.command("resume_runout", source="director")
    assert [o.payload["ok"] for o in out if o.channel == "reply"] == [True]
    [released] = table.rulings(out)
    assert released["rule_ids"] == ["TDA2024-RP-8F", "TDA2024-16"]
    assert "tabled now" in released["text"]
    assert _state(table)["runout_held"] is False

    for card in ("4h", "8s", "9d"):  # the rest runs out without alerts
        assert not [r for r in table.rulings(table.card("board", card)) if r["kind"] == "alert"]
    table.street("5c", "Jc")
    table.street("6c", "2s")
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE
    stacks = {s.seat: s.stack for s in table.session.table.seats}
    assert stacks == {1: 4900, 3: 10100}  # aces hold; the small blind folded


def test_TDA24_RP8F_a_release_with_no_runout_held_is_refused() -> None:
    table = RulesTable({1: 5000, 2: 5000}, button=2)
    out = table.command("resume_runout", source="director")
    [answer] = [o.payload for o in out if o.channel == "reply"]
    assert answer["ok"] is False and "no runout is held" in answer["error"]


def test_TDA24_RP8F_turning_hand_for_hand_off_releases_the_runout() -> None:
    table = _all_in_and_call()
    out = table.command("hand_for_hand", source="clock", enabled=False)
    assert any("tabled now" in r["text"] for r in table.rulings(out))
    _run_out_and_table(table)
    assert table.hand.phase is Phase.COMPLETE


def test_R16_outside_hand_for_hand_the_all_in_hands_are_tabled_at_once() -> None:
    table = _all_in_and_call(h4h=False)
    assert any(r["text"].startswith("all-in and no further") for r in table.rulings())
    assert _state(table)["runout_held"] is False
    _run_out_and_table(table)
    assert table.hand.phase is Phase.COMPLETE
    assert not [r for r in table.rulings() if "TDA2024-RP-8F" in r["rule_ids"]]


def test_TDA11_no_RP8F_the_runout_goes_on_during_hand_for_hand() -> None:
    table = _all_in_and_call(profile="tda-2011")
    assert table.session.config.rules.hand_for_hand_runout_held is False
    assert any(r["text"].startswith("all-in and no further") for r in table.rulings())
    assert _state(table)["runout_held"] is False
    _run_out_and_table(table)
    assert table.hand.phase is Phase.COMPLETE


def test_TDA24_RP8F_all_in_and_call_on_the_river_waits_for_the_room_to_table() -> None:
    table = RulesTable({1: 5000, 2: 3000}, button=1)
    table.command("hand_for_hand", source="clock", enabled=True)
    table.command("deal_next", source="clock")
    table.press("hand_start")
    table.deal({2: ("Ks", "Kd"), 1: ("As", "Ad")})
    table.press("check_call")  # the button calls, the big blind checks
    table.press("check_call")
    for burn, *cards in (("3c", "4h", "8s", "9d"), ("5c", "Jc"), ("6c", "2s")):
        table.street(burn, *cards)
        if len(table.hand.board) < 5:
            table.press("check_call")
            table.press("check_call")
    table.press("all_in")  # the big blind shoves the river, the button calls
    table.press("check_call")
    assert table.hand.phase is Phase.SHOWDOWN and _state(table)["runout_held"] is True
    table.press("confirm")  # no hand is tabled before the room says so
    assert not any(s.shown for s in table.hand.seats)
    table.command("resume_runout")
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE
    assert _state(table)["runout_held"] is False
    assert {s.seat: s.stack for s in table.session.table.seats} == {1: 8000}
