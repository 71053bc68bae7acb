"""The broadcast lane's rules, with time passed in: the whole feed is held for the delay,
equities go out live only when every live hand is known, and a new hand forgets the old."""

from __future__ import annotations

import doctest
from typing import Any

import pytest

from pokertable.room import broadcast
from pokertable.room.broadcast import BroadcastLane


def _state(hand: str, statuses: dict[int, str], board: tuple[str, ...] = ()) -> dict[str, Any]:
    return {"hand_id": hand, "board": list(board),
            "seats": [{"seat": s, "status": st} for s, st in statuses.items()]}


def _hole(hand: str, seat: int, *cards: str) -> dict[str, Any]:
    return {"hand_id": hand, "seat": seat, "cards": list(cards)}


def test_module_examples_run() -> None:
    result = doctest.testmod(broadcast)
    assert result.attempted > 0 and result.failed == 0


def test_everything_is_held_for_the_delay_in_arrival_order() -> None:
    lane = BroadcastLane(delay_s=60)
    lane.on_message("status", {"status": "online"}, now_s=10)
    lane.on_message("state", _state("h1", {1: "active", 2: "active"}), now_s=11)
    lane.on_message("events", {"kind": "action", "rulings": []}, now_s=11)
    assert lane.due(now_s=69.9) == []
    released = lane.due(now_s=71)
    assert [m.leaf for m in released] == ["broadcast/status", "broadcast/state",
                                          "broadcast/events"]
    assert [m.retain for m in released] == [True, True, False]
    assert lane.next_release_s() is None


def test_equities_wait_for_every_live_hand_and_skip_folded_seats() -> None:
    lane = BroadcastLane(delay_s=0)
    lane.on_message("state", _state("h1", {1: "active", 2: "folded", 3: "all_in"},
                                    ("2c", "7d", "9h")), 0)
    assert lane.on_message("secure/hole_cards/1", _hole("h1", 1, "As", "Ah"), 0) == []
    # seat 2 folded: its known cards are dead, not a live hand
    assert lane.on_message("secure/hole_cards/2", _hole("h1", 2, "Kc", "Kd"), 0) == []
    out = lane.on_message("secure/hole_cards/3", _hole("h1", 3, "Ks", "Kh"), 0)
    assert [m.leaf for m in out] == ["secure/equities"]
    seats = {s["seat"]: s for s in out[0].payload["seats"]}
    assert set(seats) == {1, 3}
    assert out[0].payload["exact"] and out[0].payload["boards"] == 43 * 42 // 2
    # with Kc Kd dead, seat 3 has no king to hit: only runner-runner helps it
    assert seats[3]["equity"] < 0.05
    # the same spot again is not news
    assert lane.on_message("state", _state("h1", {1: "active", 2: "folded", 3: "all_in"},
                                           ("2c", "7d", "9h")), 1) == []


def test_a_new_hand_forgets_the_last_hands_cards() -> None:
    lane = BroadcastLane(delay_s=0)
    lane.on_message("state", _state("h1", {1: "active", 2: "active"}), 0)
    lane.on_message("secure/hole_cards/1", _hole("h1", 1, "As", "Ah"), 0)
    lane.on_message("secure/hole_cards/2", _hole("h1", 2, "Ks", "Kh"), 0)
    assert lane.on_message("state", _state("h2", {1: "active", 2: "active"}), 1) == []
    out = lane.on_message("secure/hole_cards/1", _hole("h2", 1, "2c", "2d"), 1)
    assert out == []  # seat 2's h1 cards are not h2's


def test_an_impossible_spot_is_reported_not_raised() -> None:
    lane = BroadcastLane(delay_s=0)
    lane.on_message("state", _state("h1", {1: "active", 2: "active"}, ("As", "2c", "3d")), 0)
    lane.on_message("secure/hole_cards/1", _hole("h1", 1, "As", "Ah"), 0)
    out = lane.on_message("secure/hole_cards/2", _hole("h1", 2, "Ks", "Kh"), 0)
    assert "As is also in" in out[0].payload["error"]


def test_other_topics_are_not_relayed_and_a_negative_delay_is_refused() -> None:
    lane = BroadcastLane(delay_s=5)
    assert lane.on_message("reply", {"ok": True}, 0) == []
    assert lane.due(100) == []
    with pytest.raises(ValueError, match="broadcast_delay_s"):
        BroadcastLane(delay_s=-1)
