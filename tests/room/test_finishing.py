"""Finishing places from the tables' states (room/finishing.py): players busting on the
same hand-for-hand hand share the place (TDA 2024 RP-8-A), across tables."""

from __future__ import annotations

import doctest
from typing import Any

from pokertable.room import finishing
from pokertable.room.finishing import Finishes, players_left


def _seat(seat: int, player: str, stack: int, status: str = "active") -> dict[str, Any]:
    return {"seat": seat, "player": player, "stack": stack, "bet": 0, "status": status}


def _playing(hand_id: str, *seats: dict[str, Any]) -> dict[str, Any]:
    return {"hand_id": hand_id, "street": "river", "seats": list(seats)}


def _done(hand_id: str, *seats: dict[str, Any]) -> dict[str, Any]:
    return {"hand_id": hand_id, "street": "complete", "seats": list(seats)}


def _room_of_52() -> dict[str, dict[str, Any]]:
    """Two tables in a hand, 47 more players elsewhere (t3): 52 left."""
    return {
        "t1": _playing("t1-h9", _seat(1, "Ann", 0, "all_in"), _seat(2, "Bob", 0, "all_in"),
                       _seat(3, "Cat", 5000)),
        "t2": _playing("t2-h7", _seat(1, "Dan", 0, "all_in"), _seat(2, "Eve", 5000)),
        "t3": _done("t3-h4", *(_seat(n, f"P{n}", 1000) for n in range(1, 48))),
    }


def _watch(room: dict[str, dict[str, Any]], h4h: int | None) -> Finishes:
    f = Finishes()
    for table, state in room.items():
        f = f.seen(table, state, players_left=players_left(room), hand_for_hand=h4h)
    return f


def test_module_examples_run() -> None:
    result = doctest.testmod(finishing)
    assert result.attempted > 0 and result.failed == 0


def test_TDA24_RP8A_EX1_three_busts_on_the_hand_of_the_announcement_share_50th() -> None:
    room = _room_of_52()
    assert players_left(room) == 52
    f = _watch(room, h4h=0)  # announced during these hands: hand-for-hand hand 0
    room["t1"] = _done("t1-h9", _seat(3, "Cat", 15000))  # Ann and Bob bust at t1
    f = f.seen("t1", room["t1"], players_left=players_left(room), hand_for_hand=0)
    assert {(r["player"], r["place"]) for r in f.rows()} == {("Ann", 51), ("Bob", 51)}
    room["t2"] = _done("t2-h7", _seat(2, "Eve", 10000))  # Dan busts at t2, same H4H hand
    f = f.seen("t2", room["t2"], players_left=players_left(room), hand_for_hand=0)
    rows = f.rows()
    assert [(r["player"], r["place"], r["tied"]) for r in rows] == [
        ("Ann", 50, 3), ("Bob", 50, 3), ("Dan", 50, 3)]
    assert all(r["hand_for_hand"] and r["rule_ids"] == ["TDA2024-RP-8A"] for r in rows)


def test_TDA24_RP8A_busts_on_different_hand_for_hand_hands_take_their_own_places() -> None:
    room = _room_of_52()
    f = _watch(room, h4h=1)
    room["t1"] = _done("t1-h9", _seat(2, "Bob", 1000), _seat(3, "Cat", 14000))  # Ann out
    f = f.seen("t1", room["t1"], players_left=players_left(room), hand_for_hand=1)
    room["t2"] = _done("t2-h7", _seat(1, "Dan", 100), _seat(2, "Eve", 9900))
    f = f.seen("t2", room["t2"], players_left=players_left(room), hand_for_hand=1)
    room["t1"] = _playing("t1-h10", _seat(2, "Bob", 0, "all_in"), _seat(3, "Cat", 14000))
    f = f.seen("t1", room["t1"], players_left=players_left(room), hand_for_hand=2)
    room["t1"] = _done("t1-h10", _seat(3, "Cat", 15000))  # Bob out on the next hand
    f = f.seen("t1", room["t1"], players_left=players_left(room), hand_for_hand=2)
    assert [(r["player"], r["place"], r["tied"]) for r in f.rows()] == [
        ("Bob", 51, 1), ("Ann", 52, 1)]
    assert "rule_ids" not in f.rows()[0]  # no tie, nothing shared


def test_outside_hand_for_hand_busts_at_two_tables_are_two_places() -> None:
    room = _room_of_52()
    f = _watch(room, h4h=None)
    room["t1"] = _done("t1-h9", _seat(3, "Cat", 15000))
    f = f.seen("t1", room["t1"], players_left=players_left(room))
    room["t2"] = _done("t2-h7", _seat(2, "Eve", 10000))
    f = f.seen("t2", room["t2"], players_left=players_left(room))
    rows = f.rows()
    assert [(r["player"], r["place"], r["tied"]) for r in rows] == [
        ("Dan", 50, 1), ("Ann", 51, 2), ("Bob", 51, 2)]  # 52 left: 51-52 tie, then 50th
    assert not any(r["hand_for_hand"] or "rule_ids" in r for r in rows)


def test_a_player_moved_between_hands_is_not_a_bust() -> None:
    room = {"t1": _done("t1-h3", _seat(1, "Ann", 900), _seat(2, "Bob", 900)),
            "t2": _done("t2-h3", _seat(1, "Cat", 900), _seat(2, "Dan", 900))}
    f = _watch(room, h4h=None)
    room["t1"] = _done("t1-h3", _seat(2, "Bob", 900))  # Ann is moved to t2 (R11)
    f = f.seen("t1", room["t1"], players_left=players_left(room))
    room["t2"] = _done("t2-h3", _seat(1, "Cat", 900), _seat(2, "Dan", 900),
                       _seat(3, "Ann", 900))
    f = f.seen("t2", room["t2"], players_left=players_left(room))
    assert f.rows() == []
