"""Sample payloads as the application will hand them to the bridge (before stamping)."""

from __future__ import annotations

from typing import Any

from pokertable.mqtt.mosquitto import ROLES, table_login

# Role passwords of the test broker (hashed into a real mosquitto password file), and the
# logins of two tables (each table has its own, <venue>/<table>).
TABLE = table_login("casino", "t07")
OTHER_TABLE = table_login("casino", "t08")
PASSWORDS = {role: f"{role}-pw" for role in ROLES} | {TABLE: "t07-pw", OTHER_TABLE: "t08-pw"}


def sample_state(**overrides: Any) -> dict[str, Any]:
    state: dict[str, Any] = {
        "hand_id": "h-0042",
        "hand_number": 42,
        "level": {"number": 7, "small_blind": 200, "big_blind": 400, "ante": 400,
                  "ante_format": "bb_ante"},
        "pending_level": None,
        "paused": False,
        "hand_for_hand": False,
        "button": 3,
        "street": "flop",
        "board": ["As", "Kd", "7c"],
        "pots": [{"amount": 2600, "eligible": [1, 3, 5]}],
        "seats": [
            {"seat": 1, "player": "Ada", "stack": 31_000, "bet": 800, "status": "active",
             "cards_held": 2},
            {"seat": 2, "player": None, "stack": 0, "bet": 0, "status": "empty", "cards_held": 0},
            {"seat": 3, "player": "Grace", "stack": 12_500, "bet": 0, "status": "active",
             "cards_held": 2},
            {"seat": 5, "player": "Linus", "stack": 0, "bet": 4_000, "status": "all_in",
             "cards_held": 2},
        ],
        "action_on": 3,
        "to_call": 4_000,
        "min_raise_to": 7_200,
        "substantial_action": True,
        "alerts": [
            {"id": "a-1", "rule_ids": ["TDA2024-45B"], "kind": "string_bet",
             "text": "Seat 1 moved chips twice: floor decides call or raise",
             "options": ["call", "raise"]}
        ],
    }
    state.update(overrides)
    return state


def sample_event(n: int = 1, **overrides: Any) -> dict[str, Any]:
    event: dict[str, Any] = {
        "hand_id": "h-0042",
        "kind": "bet",
        "rulings": [{"rule_ids": ["TDA2024-43"], "kind": "accepted", "seat": 1,
                     "text": f"Seat 1 bets {100 * n}"}],
        "data": {"seat": 1, "amount": 100 * n, "n": n},
    }
    event.update(overrides)
    return event


def sample_hole_cards(seat: int = 1, cards: tuple[str, ...] = ("Ah", "Qh")) -> dict[str, Any]:
    return {"hand_id": "h-0042", "seat": seat, "cards": list(cards)}
