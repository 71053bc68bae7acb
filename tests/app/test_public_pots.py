"""Public ``pots``: the pots the dealer has formed, never layers of the chips still in front
of the seats (issue #11). Played through ``TableSession`` with two all-ins."""

from __future__ import annotations

from typing import Any

from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.payloads import validate
from tests.app.session_table import Table

PLAYERS = ((1, "Ann", 5000), (2, "Bob", 3000), (3, "Cat", 1500), (4, "Dan", 5000))


def _state(table: Table) -> dict[str, Any]:
    state = table_state(table.session, table.t)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s",
                       "seq": 1, "schema_version": 1})
    return state


def _bets(state: dict[str, Any]) -> dict[int, int]:
    return {s["seat"]: s["bet"] for s in state["seats"] if s["bet"]}


def test_TDA2024_20_21_public_pots_with_two_all_ins_are_the_pots_the_dealer_formed() -> None:
    table = Table(PLAYERS, first_button=4)  # blinds: Ann 100, Bob 200; Cat acts first
    table.press("hand_start")
    state = _state(table)
    assert state["pots"] == []  # the blinds are in front of the seats, not a pot
    assert _bets(state) == {1: 100, 2: 200}
    for seat, cards in ((1, "As Ad"), (2, "Ks Kd"), (3, "Qs Qd"), (4, "Js Jd")):
        for card in cards.split():
            table.card(f"seat{seat}.cards", card)
    table.press("all_in")  # Cat: all in for 1,500
    table.press("check_call")  # Dan calls
    state = _state(table)
    assert state["pots"] == []
    assert _bets(state) == {1: 100, 2: 200, 3: 1500, 4: 1500}
    table.press("check_call")  # Ann calls
    table.press("check_call")  # Bob calls: the round is over
    table.collect()
    for zone, card in (("burn", "2c"), ("board", "3h"), ("board", "7d"), ("board", "9c")):
        table.card(zone, card)
    state = _state(table)
    assert state["street"] == "flop"
    assert state["pots"] == [{"amount": 6000, "eligible": [1, 2, 3, 4]}]
    assert _bets(state) == {}
    table.press("bet_raise", 1000)  # Ann bets 1,000
    table.press("all_in")  # Bob: all in for his last 1,500
    state = _state(table)
    # Nobody has formed a side pot yet: Ann's and Bob's chips are in front of them.
    assert state["pots"] == [{"amount": 6000, "eligible": [1, 2, 3, 4]}]
    assert _bets(state) == {1: 1000, 2: 1500}
    table.press("check_call")  # Dan calls 1,500
    table.press("check_call")  # Ann calls 1,500: the flop round is over
    table.collect()
    table.card("burn", "4c")
    table.card("board", "5h")
    state = _state(table)
    assert state["street"] == "turn"
    assert state["pots"] == [
        {"amount": 6000, "eligible": [1, 2, 3, 4]},
        {"amount": 4500, "eligible": [1, 2, 4]},
    ]
    table.press("check_call")  # Ann checks
    table.press("bet_raise", 1000)  # Dan bets 1,000
    state = _state(table)
    assert len(state["pots"]) == 2 and _bets(state) == {4: 1000}
    table.press("check_call")  # Ann calls
    table.collect()
    table.card("burn", "6c")
    table.card("board", "Th")
    state = _state(table)
    # Bob is all in: Ann's and Dan's turn chips form a pot only they contest.
    assert state["pots"] == [
        {"amount": 6000, "eligible": [1, 2, 3, 4]},
        {"amount": 4500, "eligible": [1, 2, 4]},
        {"amount": 2000, "eligible": [1, 4]},
    ]
    table.press("check_call")
    table.press("check_call")
    table.press("confirm")  # hands tabled
    state = _state(table)
    assert state["street"] == "complete"
    assert sum(p["amount"] for p in state["pots"]) == 12500
    assert state["pots"][0] == {"amount": 6000, "eligible": [1, 2, 3, 4]}
