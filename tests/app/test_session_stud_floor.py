"""Stud dealing procedures the dealer and the floor report at the live table (issue #30):
the engine's events go from the dealer's ``card_exposed`` (``CardExposed``, RP-10-B), the
floor's ``upcards_picked_up`` (``UpcardsPickedUp``, R66) and the floor's answers to the
engine's calls where the profile leaves the procedure to the floor (TDA 2011 has no RP-10:
``KillAtDeal`` RP-10-C, ``CardExposed`` RP-10-B)."""

from __future__ import annotations

import pytest

from pokertable.controller.engine.model import Phase
from pokertable.controller.table.inputs import RoomCommand
from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.payloads import validate
from tests.app.stud_table import StudTable
from tests.app.test_session_mixed_stud_games import flop_table
from tests.app.test_session_stud import STUD_HOLES, STUD_STREETS, THREE, _bring_in_and_complete


def decide(table: StudTable, code_text: str, decision: str) -> None:
    [alert] = [a for a in table.state()["alerts"] if code_text in a["text"]]
    table(RoomCommand("floor_decision", f"d-{decision}", {"alert_id": alert["id"],
                                                         "decision": decision}, table.ms()))
    assert table.replies()[-1]["ok"], table.replies()[-1]


def absent_bring_in(profile: str) -> StudTable:
    """Seat 1, absent, is dealt the bring-in card (2c)."""
    table = StudTable(THREE, profile=profile)
    table.command("player_absent", seat=1)
    table.press("hand_start")
    table.third(STUD_HOLES)
    return table


def test_T11_26_RP10C_absent_bring_in_floor_says_the_next_low_card_brings_in() -> None:
    table = absent_bring_in("tda-2011")
    [call] = table.state()["alerts"]
    assert call["options"] == ["posts_bring_in", "next_low_card_brings_in"]
    assert "TDA2011-26" in call["rule_ids"]
    assert table.hand.seat(1).status.value != "folded"  # waits for the floor
    decide(table, "bring-in card", "next_low_card_brings_in")
    hand = table.hand
    assert hand.seat(1).status.value == "folded" and hand.seat(1).committed == 10
    assert hand.bring_in_seat == 2 and hand.action_on == 2  # 9h: the next low upcard
    assert table.state()["alerts"] == []
    table.push(2, 25)  # seat 2's bring-in, read from the chips
    assert table.hand.call_to == 25 and table.hand.action_on == 3
    assert killed(table) == [1]  # the floor's kill is published like any other


def killed(table: StudTable) -> list[int]:
    """The hand's published ``killed`` seats (the irregularity part of the table state)."""
    tracked = table.session.tracked
    assert tracked is not None
    seats = tracked.published(table.session.config.rules)["killed"]
    assert isinstance(seats, list)
    return seats


def test_T11_26_RP10C_absent_bring_in_floor_says_he_posts_it() -> None:
    table = absent_bring_in("tda-2011")
    assert killed(table) == []  # the floor decides first
    decide(table, "bring-in card", "posts_bring_in")
    hand = table.hand
    assert hand.seat(1).status.value == "folded" and hand.seat(1).committed == 10 + 25
    assert hand.call_to == 25 and hand.action_on == 2
    assert killed(table) == [1]


def seventh_street(profile: str) -> StudTable:
    """Third to sixth street played (checked through), seventh dealt down to every seat."""
    table = StudTable(THREE, profile=profile)
    table.press("hand_start")
    table.third(STUD_HOLES)
    _bring_in_and_complete(table)
    for burn, cards in STUD_STREETS[:3]:
        table.deal_street(burn, cards)
        table.check_around()
    table.deal_street(*STUD_STREETS[3])
    assert [len(table.hand.seat(s).hole) for s in (1, 2, 3)] == [7, 7, 7]
    return table


def test_RP10B_exposed_seventh_street_card_with_betting_to_come_is_replaced() -> None:
    table = seventh_street("tda-2024")
    table.command("card_exposed", seat=1, card_index=7)  # 5s, dealt face up by mistake
    hand = table.hand
    assert hand.seat(1).hole[-1] != "5s" and len(hand.seat(1).hole) == 6
    assert (1, "5s") in hand.exposed and hand.phase is Phase.DEALING
    assert any("deal him another card down" in t for t in table.texts("TDA2024-RP-10B"))


def test_T11_1_exposed_seventh_street_card_floor_lets_it_stand() -> None:
    table = seventh_street("tda-2011")
    table.command("card_exposed", seat=1, card_index=7)
    [call] = table.state()["alerts"]
    assert call["options"] == ["replace", "card_stands"] and "TDA2011-1" in call["rule_ids"]
    decide(table, "seventh-street card", "card_stands")
    assert table.hand.seat(1).hole[-1] == "5s" and table.state()["alerts"] == []
    assert any("stands" in r["text"] for r in table.rulings())


def test_T11_1_exposed_seventh_street_card_floor_replaces_it() -> None:
    table = seventh_street("tda-2011")
    table.command("card_exposed", seat=1, card_index=7)
    decide(table, "seventh-street card", "replace")
    assert len(table.hand.seat(1).hole) == 6 and (1, "5s") in table.hand.exposed


def test_RP10B_the_replacement_card_is_dealt_down_and_seventh_street_is_bet() -> None:
    table = seventh_street("tda-2024")
    table.command("card_exposed", seat=1, card_index=7)
    table.card("seat1.cards", "Kh")  # the next card off the deck, down
    hand = table.hand
    assert hand.seat(1).hole[-1] == "Kh" and len(hand.seat(1).hole) == 7
    assert hand.phase is Phase.BETTING and "5s" not in hand.seat(1).hole


def dealt(profile: str = "tda-2024") -> StudTable:
    table = StudTable(THREE, profile=profile)
    table.press("hand_start")
    table.third(STUD_HOLES)
    return table


def test_TDA24_66_the_floor_reports_upcards_picked_up_facing_the_bring_in() -> None:
    table = dealt()
    table.push(1, 25)  # the bring-in: seats 2 and 3 face it
    table.command("upcards_picked_up", seat=3)  # not his turn: still facing a bet
    assert table.replies()[-1]["ok"]
    hand = table.hand
    assert hand.seat(3).status.value == "folded" and hand.action_on == 2
    assert any("facing action: his hand is dead" in t for t in table.texts("TDA2024-66"))


def test_TDA24_66_reported_on_the_action_with_nothing_to_call_the_floor_decides() -> None:
    table = dealt()  # seat 1 is on the action to bring it in, nothing to call
    table.command("upcards_picked_up", seat=1)
    [call] = table.state()["alerts"]
    assert call["options"] == ["dead_hand", "hand_live"] and call["rule_ids"][0] == "TDA2024-66"
    decide(table, "nothing to call", "hand_live")
    assert table.hand.seat(1).status.value != "folded" and table.state()["alerts"] == []


def test_TDA24_66_upcards_picked_up_is_refused_outside_stud() -> None:
    table = StudTable(THREE)
    table.command("upcards_picked_up", seat=1)  # no hand yet
    assert not table.replies()[-1]["ok"]
    table = dealt()
    table.command("upcards_picked_up", seat=4)
    refused = table.replies()[-1]
    assert not refused["ok"] and refused["field"] == "seat"
    holdem = flop_table()
    holdem.press("hand_start")
    holdem.command("upcards_picked_up", seat=1)
    refused = holdem.replies()[-1]
    assert not refused["ok"] and "has no upcards" in refused["error"]


def test_upcards_picked_up_and_choose_game_commands_follow_the_director_schema() -> None:
    validate("director", {"command": "upcards_picked_up", "request_id": "r1", "seat": 3})
    validate("director", {"command": "choose_game", "request_id": "r2", "game": "F7S/8"})
    with pytest.raises(PayloadError):
        validate("director", {"command": "choose_game", "request_id": "r3", "game": "HORSE"})
