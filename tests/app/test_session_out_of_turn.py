"""Action out of turn at the live table (R53), through ``TableSession`` (issue #11).

Interpretation reads the chips as the action they would be now; the irregularities layer
holds that action until the action reaches the seat, and the chips in the zone follow.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.public_state import table_state
from tests.app.session_table import Table, _deal


def _table() -> Table:
    """Button 3: Ann 100 and Bob 200 post (chips out); Cat is first to act."""
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.push(1, 100)
    table.push(2, 100, 100)
    return table


def _rulings(table: Table) -> list[dict[str, Any]]:
    return [r for e in table.events() for r in e["rulings"]]


def test_TDA2024_53A_out_of_turn_call_binds_when_the_action_to_him_did_not_change() -> None:
    table = _table()
    out = table.push(1, 100)  # Ann completes her small blind while Cat is on the action
    assert out[0].payload["kind"] == "out_of_turn"
    assert out[0].payload["rulings"][0]["rule_ids"] == ["TDA2024-53A"]
    hand = table.session.hand
    assert hand is not None and hand.action_on == 3 and hand.seat(1).bet == 100  # held
    table.press("check_call")  # Cat calls: the action to Ann did not change
    hand = table.session.hand
    assert hand is not None and hand.seat(1).bet == 200 and hand.action_on == 2
    assert any("is binding: the action to him did not change" in r["text"] for r in _rulings(table))
    zone = table.session.pending.zone(1)
    assert zone.change == 0 and not zone.held  # her chips are her call


def test_TDA2024_53A_action_changed_chips_go_back_and_he_has_all_options() -> None:
    table = _table()
    table.push(1, 100)  # Ann's out-of-turn call of 200
    table.push(3, 500, 100)  # Cat raises to 600 by chips: the action to Ann changed
    hand = table.session.hand
    assert hand is not None and hand.action_on == 1 and hand.seat(1).bet == 100
    zone = table.session.pending.zone(1)
    assert zone.change == 100 and not zone.motion and not zone.held  # the 100 goes back
    void = [r for r in _rulings(table) if "does not bind" in r["text"]]
    assert void and void[0]["rule_ids"] == ["TDA2024-53A"]
    assert "fold, call 500, raise to 1000..5000" in void[0]["text"]  # all options
    state = table_state(table.session, table.t)
    assert state["action_on"] == 1 and state["min_raise_to"] == 1000
    table.press("bet_raise", 1200)  # and she may raise: all her options
    hand = table.session.hand
    assert hand is not None and hand.seat(1).bet == 1200


FOUR = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000), (4, "Dan", 5000))


def test_TDA2024_53B_substantial_action_out_of_turn_binds_floor_rules_the_skipped_seat() -> None:
    table = Table(FOUR, first_button=4)  # Ann 100, Bob 200; Cat is first to act
    table.press("hand_start")
    for seat, cards in ((1, "As Ad"), (2, "Ks Kd"), (3, "Qs Qd"), (4, "Js Jd")):
        for card in cards.split():
            table.card(f"seat{seat}.cards", card)
    table.push(1, 100)
    table.push(2, 100, 100)
    table.push(4, 100, 100)  # Dan calls out of turn: Cat is skipped
    table.push(1, 100)  # Ann calls out of turn: two actions with chips, substantial (R36)
    state = table_state(table.session, table.t)
    [alert] = state["alerts"]
    assert alert["kind"] == "skipped_player" and alert["id"] == "t1-h00001/F1"
    assert alert["options"] == ["dead_hand", "call_or_fold_only", "all_options"]
    assert alert["rule_ids"] == ["TDA2024-53B"]
    raised = [r for r in _rulings(table) if r["kind"] == "floor"]
    assert [r["alert_id"] for r in raised] == [alert["id"]]
    refused = table.press("check_call")  # Cat may not act before the floor rules
    assert refused[0].payload["kind"] == "rejected"
    assert table.session.hand is not None and table.session.hand.action_on == 3

    out = table(
        RoomCommand(
            "floor_decision", "f1", {"alert_id": alert["id"], "decision": "call_or_fold_only"}, 1
        )
    )
    assert next(o.payload for o in out if o.channel == "reply")["ok"] is True
    assert table_state(table.session, table.t)["alerts"] == []
    table.press("bet_raise", 1000)  # limited to call or fold: a raise is refused
    hand = table.session.hand
    assert hand is not None and hand.action_on == 3 and hand.seat(3).bet == 0
    table.press("check_call")  # Cat calls; Dan's and Ann's calls bind (R53-B)
    hand = table.session.hand
    assert hand is not None
    assert [hand.seat(n).bet for n in (1, 2, 3, 4)] == [200, 200, 200, 200]
    assert hand.action_on == 2  # Bob's option
    assert table.session.pending.zone(4).change == 0  # Dan's chips are his call


def test_TDA2024_53A_spoken_out_of_turn_call_is_held_and_binds_in_turn() -> None:
    table = _table()
    out = table(RoomCommand("dealer_button", "b1", {"button": "check_call", "seat": 1}, 1))
    event = next(o.payload for o in out if o.channel == "event")
    assert event["kind"] == "out_of_turn" and event["rulings"][0]["rule_ids"] == ["TDA2024-53A"]
    hand = table.session.hand
    assert hand is not None and hand.action_on == 3 and hand.seat(1).bet == 100
    table.press("check_call")  # Cat calls: Ann's spoken call binds
    hand = table.session.hand
    assert hand is not None and hand.seat(1).bet == 200 and hand.action_on == 2


def test_TDA2024_53A_spoken_out_of_turn_fold_binds_even_after_a_raise() -> None:
    table = _table()
    table(RoomCommand("dealer_button", "b1", {"button": "fold", "seat": 2}, 1))  # binds
    table.press("bet_raise", 600)  # Cat raises to 600
    hand = table.session.hand
    assert hand is not None and hand.action_on == 1
    table.press("check_call")  # Ann calls; Bob's out-of-turn fold binds (an OOT fold always does)
    hand = table.session.hand
    assert hand is not None and hand.seat(2).status.value == "folded"


def _bound_call_changed_by_a_raise() -> tuple[Table, dict[str, Any]]:
    """Dan and Ann call out of turn (R53-B binds both), then Cat raises to 600: Dan's
    bound call faced 200 and now faces 600, an action changed; its floor alert."""
    table = Table(FOUR, first_button=4)
    table.press("hand_start")
    for seat, cards in ((1, "As Ad"), (2, "Ks Kd"), (3, "Qs Qd"), (4, "Js Jd")):
        for card in cards.split():
            table.card(f"seat{seat}.cards", card)
    table.push(1, 100)
    table.push(2, 100, 100)
    table.push(4, 100, 100)  # Dan calls out of turn
    table.push(1, 100)  # Ann calls out of turn: SA, both bind (R53-B)
    [skipped] = table_state(table.session, table.t)["alerts"]
    table(
        RoomCommand(
            "floor_decision", "f1", {"alert_id": skipped["id"], "decision": "all_options"}, 1
        )
    )
    table.press("bet_raise", 600)  # Cat raises: Dan's bound call faced 200, now 600
    alerts: list[dict[str, Any]] = table_state(table.session, table.t)["alerts"]
    [changed] = alerts
    return table, changed


def test_TDA2024_53B_bound_action_changed_goes_to_the_floor_and_its_answer_is_applied() -> None:
    table, changed = _bound_call_changed_by_a_raise()
    assert changed["kind"] == "oot_void" and changed["id"] == "t1-h00001/F2"
    assert changed["options"][:2] == ["fold", "call 600"]
    assert table.session.pending.zone(4).change == 200  # his chips go back meanwhile
    out = table(
        RoomCommand("floor_decision", "f2", {"alert_id": changed["id"], "decision": "call 600"}, 1)
    )
    assert next(o.payload for o in out if o.channel == "reply")["ok"] is True
    hand = table.session.hand
    assert hand is not None and hand.seat(4).bet == 600 and hand.action_on == 1
    # Ann's bound call changed too: her own floor call, answered the same way.
    [ann] = table_state(table.session, table.t)["alerts"]
    assert ann["id"] == "t1-h00001/F3" and ann["options"][:2] == ["fold", "call 500"]
    table(RoomCommand("floor_decision", "f3", {"alert_id": ann["id"], "decision": "fold"}, 1))
    hand = table.session.hand
    assert hand is not None and hand.seat(1).status.value == "folded" and hand.action_on == 2
    assert table_state(table.session, table.t)["alerts"] == []


def _bound_raises_then_changed(table: Table) -> dict[str, Any]:
    """Ann and Bob say "raise to 600" out of turn (the dealer enters their words), skipping
    Cat: substantial action, both bind (R53-B). The floor gives Cat all options; Cat raises
    to 400, which changes the action to Ann: her bound raise goes to the floor (``oot_void``)."""
    for seat in (1, 2):
        words = {"button": "bet_raise", "amount": 600, "seat": seat}
        table(RoomCommand("dealer_button", f"w{seat}", words, 1))
    [skipped] = table_state(table.session, table.t)["alerts"]
    assert skipped["kind"] == "skipped_player"
    table(
        RoomCommand(
            "floor_decision", "f1", {"alert_id": skipped["id"], "decision": "all_options"}, 1
        )
    )
    table.press("bet_raise", 400)  # Cat raises to 400: Ann faced 200, now 400
    [changed] = table_state(table.session, table.t)["alerts"]
    return changed


def test_TDA2024_53B_floor_rules_the_bound_raise_stands_and_the_hand_goes_on() -> None:
    table = _table()
    changed = _bound_raises_then_changed(table)
    assert changed["kind"] == "oot_void" and changed["text"].startswith("seat 1")
    # her options now, and her own raise to 600 (still a legal raise: minimum 600)
    assert changed["options"] == ["fold", "call 300", "raise to 600..5000", "raise to 600"]
    out = table(
        RoomCommand(
            "floor_decision", "f2", {"alert_id": changed["id"], "decision": "raise to 600"}, 1
        )
    )
    assert next(o.payload for o in out if o.channel == "reply")["ok"] is True
    hand = table.session.hand
    assert hand is not None and hand.seat(1).bet == 600 and hand.seat(1).stack == 4400
    assert hand.call_to == 600
    # Bob's bound raise faced 200, now 600: his own floor call; the floor names an amount.
    [bob] = table_state(table.session, table.t)["alerts"]
    assert bob["kind"] == "oot_void" and bob["text"].startswith("seat 2")
    assert bob["options"] == ["fold", "call 400", "raise to 800..5000"]  # his 600 no raise now
    refused = table(
        RoomCommand("floor_decision", "f3", {"alert_id": bob["id"], "decision": "raise to 700"}, 1)
    )
    reply = next(o.payload for o in refused if o.channel == "reply")
    assert reply["ok"] is False and "800..5000" in reply["error"]
    assert table_state(table.session, table.t)["alerts"] == [bob]  # still open
    table(
        RoomCommand("floor_decision", "f4", {"alert_id": bob["id"], "decision": "raise to 1500"}, 1)
    )
    hand = table.session.hand
    assert hand is not None and hand.seat(2).bet == 1500 and hand.seat(2).stack == 3500
    assert hand.action_on == 3 and hand.call_to == 1500  # back to Cat: call (all in) or fold
    assert table_state(table.session, table.t)["alerts"] == []
    table.press("check_call")  # Cat calls all in; Ann is next
    hand = table.session.hand
    assert hand is not None and hand.seat(3).stack == 0 and hand.action_on == 1


def test_TDA2024_40A_chips_after_the_floors_call_answer_pay_that_call() -> None:
    # The floor answers Dan's changed bound call with "call 600" (his 200 went back): the
    # call is his bet, so the chips that then arrive pay it instead of being change.
    table, changed = _bound_call_changed_by_a_raise()
    table(RoomCommand("floor_decision", "f2", {"alert_id": changed["id"],
                                               "decision": "call 600"}, 1))
    assert table.session.pending.zone(4).owed == 600
    table.push(4, 100, 100, 100, 100)
    assert _rulings(table)[-1]["text"] == "seat 4 still owes 200"
    table.push(4, 100, 100)
    assert _rulings(table)[-1]["text"] == "seat 4's bet of 600 is complete"
