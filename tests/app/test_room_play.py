"""The room's play at the live table, through ``TableSession``: penalties that sit a player
out for exactly N hands or rounds (TDA 2024 R71, TDA 2011 R50, ACE), hand-for-hand holds
(RP-8), and the player clock in the published state (R29)."""

from __future__ import annotations

from typing import Any

import pytest

from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.rules_table import RulesTable

RANKS = "AKQJT98765432"


def _seats(table: RulesTable) -> dict[int, str]:
    return {s.seat: s.status.name for s in table.hand.seats}


def _play_folded(table: RulesTable, deck: Any = None) -> dict[str, Any]:
    """Start a hand, deal it, everyone folds to one player; the published state after."""
    table.press("hand_start")
    cards = deck or (f"{r}{s}" for r in RANKS for s in "shdc")
    table.deal({s.seat: (next(cards), next(cards)) for s in table.hand.seats})
    while table.hand.phase.name != "COMPLETE" and table.hand.action_on is not None:
        table.press("fold")
    return _state(table)


def _state(table: RulesTable) -> dict[str, Any]:
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s",
                       "seq": 1, "schema_version": 1})
    return state


def test_TDA24_71A_missed_hands_penalty_sits_the_player_out_for_exactly_those_hands() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.command("penalty", seat=1, penalty="missed_hands", count=2, rule_ids=["TDA2024-71"])
    assert _state(table)["penalties"] == [{"seat": 1, "hands_left": 2, "rule_ids": ["TDA2024-71"]}]
    [event] = table.events("penalty")
    assert "away for the next 2 hands" in event["rulings"][0]["text"]

    stacks = []
    for hand in (1, 2, 3):
        state = _play_folded(table)
        killed = [
            r
            for e in table.events()
            for r in e["rulings"]
            if r.get("seat") == 1 and "on penalty" in r["text"]
        ]
        stacks.append(next(s["stack"] for s in state["seats"] if s["seat"] == 1))
        if hand < 3:
            # R71-C: dealt in, blinds posted, the hand killed after the deal
            assert table.hand.seat(1).status.name == "FOLDED"
            assert len(killed) == hand
            assert [p["seat"] for p in state["penalties"]] == [1]
        else:
            assert len(killed) == 2  # no third penalty hand
            assert state["penalties"] == []
    # hand 1: seat 1 posted the small blind and lost it; hand 2 on the button; back in hand 3
    assert stacks[0] == 4900 and stacks[1] == 4900


def test_TDA24_71A_missed_round_is_one_hand_per_player_at_the_table() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4)
    table.command("penalty", seat=2, penalty="missed_rounds", count=1, rule_ids=["TDA2024-71"])
    assert _state(table)["penalties"][0]["hands_left"] == 4  # four players at the table
    folded = []
    for _ in range(5):
        _play_folded(table)
        folded.append(2 in table.session.tracked.killed)
    assert folded == [True, True, True, True, False]


def test_TDA24_35C_a_redeal_counts_once_for_a_penalty() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.command("penalty", seat=1, penalty="missed_hands", count=1, rule_ids=["TDA2024-71"])
    table.press("hand_start")
    table.card("seat2.cards", "As")  # the first card to the wrong seat: misdeal (R35-A2)
    table.press("confirm")
    table.press("hand_start")  # the re-deal: the same hand
    assert table.session.penalties == ((1, 0, ("TDA2024-71",)),)
    table.deal({1: ("Ks", "Kd"), 2: ("Qs", "Qd"), 3: ("Js", "Jd")})
    assert 1 in table.session.tracked.killed


@pytest.mark.parametrize(
    ("profile", "penalty", "count_", "refused"),
    [
        ("tda-2011", "missed_hands", 2, "TDA 2011 R50: a missed-hand penalty is one hand"),
        ("tda-2011", "missed_rounds", 5, "TDA 2011 R50: 1, 2, 3 or 4 rounds"),
        ("ace-league", "missed_hands", 1, "no missed-hand or missed-round penalties"),
        ("tda-2011", "missed_hands", 1, None),
        ("tda-2011", "missed_rounds", 4, None),
        ("ace-league", "warning", 1, None),
    ],
)
def test_row_penalties_scheme_T24_any_T11_hand_or_rounds_ACE_no_sit_out(
    profile: str, penalty: str, count_: int, refused: str | None
) -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, profile=profile)
    out = table.command("penalty", seat=1, penalty=penalty, count=count_, rule_ids=["TDA2024-71"])
    [answer] = [o.payload for o in out if o.channel == "reply"]
    if refused is None:
        assert answer["ok"] is True
    else:
        assert answer["ok"] is False and refused in answer["error"]
        assert answer["field"] == "penalty" and table.session.penalties == ()


def test_RP8_hand_for_hand_holds_the_next_hand_until_the_room_deals() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.command("hand_for_hand", enabled=True)  # announced during hand 1
    cards = (f"{r}{s}" for r in RANKS for s in "shdc")
    table.deal({s.seat: (next(cards), next(cards)) for s in table.hand.seats})
    while table.hand.action_on is not None:  # hand 1 is finished as usual
        table.press("fold")
    assert table.session.hand_number == 1

    table.press("hand_start")  # the dealer is ready: held
    state = _state(table)
    assert state["hand_number"] == 1 and state["deal_held"] is True and state["hand_for_hand"]
    assert any(
        r["text"].startswith("hand-for-hand: hold the deal") and r["rule_ids"] == ["TDA2024-RP-8"]
        for e in table.events()
        for r in e["rulings"]
    )
    table.press("hand_start")  # pressing again changes nothing
    assert table.session.hand_number == 1

    out = table.command("deal_next", source="clock")  # the room: every table deals now
    assert [o.payload["ok"] for o in out if o.channel == "reply"] == [True]
    assert table.session.hand_number == 2 and _state(table)["deal_held"] is False

    # hand 2 in play: a second release is refused, and after it the next start holds again
    refused = table.command("deal_next", source="clock")
    assert [o.payload["ok"] for o in refused if o.channel == "reply"] == [False]
    table.deal({s.seat: (next(cards), next(cards)) for s in table.hand.seats})
    while table.hand.action_on is not None:
        table.press("fold")
    table.command("deal_next", source="clock")  # released before the dealer is ready
    table.press("hand_start")
    assert table.session.hand_number == 3
    table.deal({s.seat: (next(cards), next(cards)) for s in table.hand.seats})
    while table.hand.action_on is not None:
        table.press("fold")
    table.press("hand_start")
    assert table.session.hand_number == 3  # held again
    table.command("hand_for_hand", source="clock", enabled=False)  # over: the held start goes
    assert table.session.hand_number == 4 and not _state(table)["hand_for_hand"]


def test_TDA24_29_the_player_on_the_clock_is_in_the_published_state() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")})
    at = table.t
    table.command("clock_call")
    clock = _state(table)["clock"]
    assert clock == {"seat": 3, "expires_at_ms": at + 10 + 30_000, "seconds": 25, "countdown": 5}
    table.press("fold")  # he acts: the clock stops
    assert _state(table)["clock"] is None


def _answer(out: tuple[Any, ...]) -> dict[str, Any]:
    [answer] = [o.payload for o in out if o.channel == "reply"]
    return answer


def _on_the_action(profile: str) -> RulesTable:
    """Four players; seat 3 folds pre-flop; seat 4 (the button) is on the action."""
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=1, profile=profile)
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd"), 4: ("Js", "Jd")})
    assert table.hand.action_on == 4
    table.press("fold")
    assert table.hand.action_on == 1
    return table


def test_ACE_29_D1_a_clock_request_from_outside_the_hand_or_too_early_is_refused() -> None:
    table = _on_the_action("ace-league")
    table.command("player_absent", seat=4)
    out = table.command("clock_call", requested_by_seat=4, waited_s=150)
    assert "must be at his seat" in _answer(out)["error"]
    table.command("player_present", seat=4)
    out = table.command("clock_call", requested_by_seat=4, waited_s=150)  # folded: not in it
    answer = _answer(out)
    assert answer["ok"] is False and answer["field"] == "requested_by_seat"
    assert "ACE-29" in answer["error"] and "not in the hand" in answer["error"]
    out = table.command("clock_call", requested_by_seat=2, waited_s=60)  # in it, too early
    assert "clock_min_wait_seconds=120" in _answer(out)["error"]
    assert table.session.clock is None
    out = table.command("clock_call", requested_by_seat=2, waited_s=125)
    assert _answer(out)["ok"] is True and table.session.clock is not None


def test_ACE_29_D1_the_director_calls_the_clock_himself_at_any_time() -> None:
    table = _on_the_action("ace-league")
    assert _answer(table.command("clock_call"))["ok"] is True
    assert table.session.clock is not None and table.session.clock[0] == 1


def test_TDA24_29_any_seated_player_may_ask_and_the_td_judges_the_time() -> None:
    table = _on_the_action("tda-2024")
    out = table.command("clock_call", requested_by_seat=4, waited_s=5)  # folded, at his seat
    assert _answer(out)["ok"] is True and table.session.clock is not None


def test_TDA24_71D_a_disqualified_players_chips_leave_play_when_his_hand_ends() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    cards = (f"{r}{s}" for r in RANKS for s in "shdc")
    table.deal({s.seat: (next(cards), next(cards)) for s in table.hand.seats})
    # Seat 1 posted the small blind; the director disqualifies him during the hand.
    table.command("penalty", seat=1, penalty="disqualification", rule_ids=["TDA2024-71"])
    [event] = table.events("penalty")
    assert "chips removed from play when this hand ends (TDA2024-71D)" in (
        event["rulings"][0]["text"]
    )
    assert any(s["seat"] == 1 for s in _state(table)["seats"])  # still in this hand
    while table.hand.phase.name != "COMPLETE" and table.hand.action_on is not None:
        table.press("fold")
    state = _state(table)
    [removed] = table.events("chips_removed")
    # the blind he posted stays in the pot he lost; the rest of his stack leaves play
    assert removed["data"] == {"seat": 1, "player": removed["data"]["player"], "removed": 4900}
    assert removed["rulings"][0]["rule_ids"] == ["TDA2024-71D"]
    assert [s["seat"] for s in state["seats"] if s["status"] != "empty"] == [2, 3]
    assert sum(s["stack"] for s in state["seats"]) == 15000 - 4900


def test_TDA11_50_disqualification_between_hands_removes_the_chips_at_once() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3, profile="tda-2011")
    table.command("penalty", seat=2, penalty="disqualification", rule_ids=["TDA2011-50"])
    [removed] = table.events("chips_removed")
    assert removed["data"]["removed"] == 5000 and removed["rulings"][0]["rule_ids"] == [
        "TDA2011-50"
    ]
    assert table.session.table.occupied(2) is None
