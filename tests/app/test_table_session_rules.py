"""Rules at the live table: through ``TableSession``'s public ``apply``, as the readers, the
dealer console and the room feed it. Each test checks the outcome a floor person would
check (who got which chips, what the next player faces), not the layer that computed it.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Level, Phase, Street
from pokertable.controller.engine.seating import TableSeat
from pokertable.controller.table.inputs import (
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    Input,
    RoomCommand,
)
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import (
    Output,
    SessionConfig,
    TableSession,
    apply,
    new_session,
)


class LiveTable:
    """A session fed one input at a time, keeping every output, as the application does."""

    def __init__(self, level: Level, stacks: dict[int, int], first_button: int) -> None:
        seats = tuple(TableSeat(n, f"P{n}", stack) for n, stack in sorted(stacks.items()))
        config = SessionConfig(venue="v", table="t1", first_button=first_button)
        self.session: TableSession = new_session(config, level, seats)
        self.out: list[Output] = []
        self.t = 0

    def feed(self, item: Input) -> tuple[Output, ...]:
        self.session, out = apply(self.session, item)
        self.out.extend(out)
        return out

    def ms(self) -> int:
        self.t += 10
        return self.t

    def press(self, *buttons: str) -> None:
        for button in buttons:
            self.feed(ConsolePress(button, self.ms()))

    def push(self, seat: int, *chips: int) -> tuple[Output, ...]:
        items = tuple(ChipItem(d) for d in chips)
        return self.feed(ChipsMoved(f"seat{seat}.bet", seat, items, (), self.ms()))

    def card(self, zone: str, card: str) -> None:
        seat = int(zone[4:].split(".")[0]) if zone.startswith("seat") else None
        self.feed(CardDetected(zone, seat, card, self.ms()))

    def deal(self, holes: dict[int, tuple[str, str]]) -> None:
        """Two rounds, one card at a time, in the order given (clockwise from the button)."""
        for i in range(2):
            for seat, cards in holes.items():
                self.card(f"seat{seat}.cards", cards[i])

    def command(self, name: str, **fields: Any) -> dict[str, Any]:
        request_id = f"r{self.ms()}"
        payload = {"command": name, "request_id": request_id, **fields}
        out = self.feed(RoomCommand(name, request_id, payload, self.t))
        replies = [o.payload for o in out if o.channel == "reply"]
        assert len(replies) == 1, out
        return replies[0]

    def state(self) -> dict[str, Any]:
        return table_state(self.session, self.t)

    def events(self, kind: str) -> list[dict[str, Any]]:
        return [o.payload for o in self.out if o.channel == "event" and o.payload["kind"] == kind]

    def rule_ids(self) -> set[str]:
        return {
            rule
            for o in self.out
            if o.channel == "event"
            for r in o.payload["rulings"]
            for rule in r["rule_ids"]
        }


# -- Rule 20-A -----------------------------------------------------------------------------


def test_TDA24_20A_live_odd_chip_goes_clockwise_from_the_button_not_to_the_lowest_seat() -> None:
    """Button 2: clockwise the seats run 3, 4, 1. Seats 4 and 1 tie; seat 4 is first."""
    table = LiveTable(Level(small_blind=25, big_blind=50, chip_unit=25),
                      {1: 1000, 2: 1000, 3: 1000, 4: 1000}, first_button=2)
    table.press("hand_start")
    hand = table.session.hand
    assert hand is not None
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (2, 3, 4)
    # Seats 4 and 1 both make A K Q J 9 on this board: a tie.
    table.deal({3: ("2s", "3d"), 4: ("As", "Qs"), 1: ("Ah", "Qh"), 2: ("4c", "5c")})
    table.press("check_call", "fold", "fold", "check_call")  # 1 calls, 2 and 3 fold, 4 checks
    for zone, card in (("burn", "8s"), ("board", "2c"), ("board", "7d"), ("board", "9h")):
        table.card(zone, card)
    for burn, card in (("8d", "Js"), ("8h", "Kd")):
        table.press("check_call", "check_call")
        table.card("burn", burn)
        table.card("board", card)
    table.press("check_call", "check_call", "confirm")  # river checked, hands tabled
    hand = table.session.hand
    assert hand is not None and hand.phase is Phase.COMPLETE
    # The pot is 125 in 25 chips (the small blind's 25 is dead): five units, one odd.
    awards = table.events("hand_complete")[0]["data"]["awards"]
    assert {a["seat"]: a["amount"] for a in awards} == {4: 75, 1: 50}
    stacks = {s.seat: s.stack for s in table.session.table.seats}
    assert stacks == {1: 1000, 2: 1000, 3: 975, 4: 1025}
    assert "TDA2024-20A" in table.rule_ids()


# -- Rule 43 Ex. 3, read from the chips ----------------------------------------------------


def test_TDA24_43_EX3_live_two_500_chips_over_a_300_bet_raise_to_1000() -> None:
    """The case as the table sees it: seat 2's two 500 chips, no word spoken (R45-B)."""
    table = LiveTable(Level(small_blind=100, big_blind=200),
                      {1: 20_000, 2: 20_000, 3: 20_000}, first_button=3)
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")})
    table.press("check_call", "check_call", "check_call")  # 3 and 1 call, 2 checks
    for zone, card in (("burn", "2h"), ("board", "2c"), ("board", "7d"), ("board", "9h")):
        table.card(zone, card)
    table.press("check_call", "check_call", "check_call")
    table.card("burn", "3h")
    table.card("board", "Jc")
    hand = table.session.hand
    assert hand is not None and hand.street is Street.TURN and hand.action_on == 1
    table.push(1, 100, 100, 100)  # A bets 300
    out = table.push(2, 500, 500)  # B: two 500s, silently
    hand = table.session.hand
    assert hand is not None
    assert (hand.seat(2).bet, hand.call_to, hand.increment) == (1000, 1000, 700)
    texts = [r for o in out if o.channel == "event" for r in o.payload["rulings"]]
    assert any("TDA2024-45B1" in r["rule_ids"] for r in texts), texts
    state = table.state()
    # C may call 1,000 or raise to at least 1,700.
    assert (state["action_on"], state["to_call"], state["min_raise_to"]) == (3, 1000, 1700)


# -- a floor decision from the room ---------------------------------------------------------


def big_blind_pushes_on_his_option() -> LiveTable:
    """Rules-spec A6: chips pushed silently on the big blind's option go to the floor."""
    table = LiveTable(Level(small_blind=100, big_blind=200),
                      {1: 5000, 2: 5000, 3: 5000}, first_button=3)
    table.press("hand_start")
    table.push(1, 100)  # the blinds go out
    table.push(2, 100, 100)
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")})
    table.push(3, 100, 100)  # Cat calls
    table.push(1, 100)  # Ann completes the small blind
    table.push(2, 500)  # Bob, on his option, pushes a 500 without a word
    return table


def test_A6_floor_call_waits_for_the_room_and_names_its_options() -> None:
    table = big_blind_pushes_on_his_option()
    hand = table.session.hand
    assert hand is not None and hand.action_on == 2 and hand.call_to == 200  # nothing guessed
    (alert,) = table.state()["alerts"]
    assert alert["options"] == ["check", "raise"]
    assert "TDA2024-1" in alert["rule_ids"]


def test_A6_floor_decision_raise_from_the_room_applies_and_the_action_moves_on() -> None:
    table = big_blind_pushes_on_his_option()
    (alert,) = table.state()["alerts"]
    reply = table.command("floor_decision", alert_id=alert["id"], decision="raise")
    assert reply["ok"] is True
    hand = table.session.hand
    assert hand is not None and hand.phase is Phase.BETTING
    assert (hand.seat(2).bet, hand.call_to, hand.action_on) == (700, 700, 3)
    assert table.state()["alerts"] == []
    decided = table.events("floor_decision")
    assert decided and decided[0]["data"] == {
        "alert_id": alert["id"], "decision": "raise", "by": None  # no broker login in-process
    }


def test_A6_floor_decision_check_from_the_room_returns_the_chip_and_ends_the_street() -> None:
    table = big_blind_pushes_on_his_option()
    (alert,) = table.state()["alerts"]
    assert table.command("floor_decision", alert_id=alert["id"], decision="check")["ok"]
    hand = table.session.hand
    assert hand is not None and hand.phase is Phase.DEALING  # pre-flop is over: the flop
    assert {s.seat: s.bet for s in hand.seats} == {1: 200, 2: 200, 3: 200}
    assert table.state()["alerts"] == []


def test_floor_decision_outside_the_options_or_for_no_alert_changes_nothing() -> None:
    table = big_blind_pushes_on_his_option()
    before = table.session
    (alert,) = table.state()["alerts"]
    reply = table.command("floor_decision", alert_id=alert["id"], decision="fold")
    assert reply["ok"] is False and reply["field"] == "decision"
    reply = table.command("floor_decision", alert_id="a-999", decision="check")
    assert reply["ok"] is False and reply["field"] == "alert_id"
    assert table.session.hand == before.hand
    assert table.state()["alerts"] == [alert]
