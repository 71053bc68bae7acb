"""Chip counts from the tables' states: ranking, big blinds, the audit against entries."""

from __future__ import annotations

import csv
import doctest
import io

from pokertable.room import chipcounts
from pokertable.room.chipcounts import Entries, as_csv, leaderboard


def _seat(
    seat: int, player: str | None, stack: int, bet: int = 0, status: str = "active"
) -> dict[str, object]:
    return {"seat": seat, "player": player, "stack": stack, "bet": bet, "status": status}


STATES = {
    "t2": {
        "level": {"big_blind": 400},
        "pots": [{"amount": 1200, "eligible": [1, 3]}],
        "seats": [
            _seat(1, "Cy", 0, status="all_in"),
            _seat(2, None, 0, status="empty"),
            _seat(3, "Di", 20_000, bet=800),
        ],
    },
    "t1": {
        "level": {"big_blind": 400},
        "pots": [],
        "seats": [_seat(1, "Ann", 12_000), _seat(2, "Bob", 0, status="folded")],
    },
}


def test_module_examples_run() -> None:
    result = doctest.testmod(chipcounts)
    assert result.attempted > 0 and result.failed == 0


def test_every_chip_counts_and_a_busted_player_drops_off() -> None:
    board = leaderboard(STATES)
    assert [(r["rank"], r["player"], r["table"], r["stack"]) for r in board["rows"]] == [
        (1, "Di", "t2", 20_800),
        (2, "Ann", "t1", 12_000),
        (3, "Cy", "t2", 0),
    ]
    assert board["players_left"] == 3  # Cy is all in with his chips in the pot
    assert board["chips_in_play"] == 12_000 + 20_800 + 1200
    assert board["rows"][0]["big_blinds"] == 52.0
    assert board["audit"] is None


def test_the_audit_names_chips_that_appeared_or_vanished() -> None:
    entries = Entries(players=3, re_entries=1, starting_stack=8000, add_on_chips=2000)
    board = leaderboard(STATES, entries)
    assert board["audit"] == {"expected": 34_000, "counted": 34_000, "difference": 0, "ok": True}
    STATES_ONE_CHIP_MORE = {
        **STATES,
        "t1": {
            **STATES["t1"],
            "seats": [_seat(1, "Ann", 12_025), _seat(2, "Bob", 0, status="folded")],
        },
    }
    audit = leaderboard(STATES_ONE_CHIP_MORE, entries)["audit"]
    assert audit["difference"] == 25 and audit["ok"] is False


def test_csv_export_has_one_row_per_player() -> None:
    rows = list(csv.DictReader(io.StringIO(as_csv(leaderboard(STATES)))))
    assert [r["player"] for r in rows] == ["Di", "Ann", "Cy"]
    assert rows[0] == {
        "rank": "1",
        "player": "Di",
        "table": "t2",
        "seat": "3",
        "stack": "20800",
        "big_blinds": "52.0",
    }


def test_a_finished_hands_pots_are_not_counted_twice() -> None:
    # Once the hand is complete the state lists the awarded pots, already in the stacks.
    done = {
        "t1": {
            "level": {"big_blind": 200},
            "street": "complete",
            "pots": [{"amount": 600, "eligible": [1, 2]}],
            "seats": [_seat(1, "Ann", 10_300), _seat(2, "Bob", 9_700)],
        }
    }
    board = leaderboard(done, Entries(players=2, starting_stack=10_000))
    assert board["chips_in_play"] == 20_000 and board["audit"]["ok"]


def test_the_desks_adjustments_enter_the_audit() -> None:
    # An ACE late arrival reduced by 300 (R8) and a chip race that made 75 (R24).
    states = {
        "t1": {
            "level": {"big_blind": 200},
            "pots": [],
            "seats": [_seat(1, "Ann", 10_075), _seat(2, "Late", 9_700)],
        }
    }
    board = leaderboard(states, Entries(players=2, starting_stack=10_000, adjustments=-225))
    assert board["audit"] == {"expected": 19_775, "counted": 19_775, "difference": 0, "ok": True}
