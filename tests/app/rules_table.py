"""A live table for rule tests: inputs through ``TableSession``, every output kept.

Like the application, it stores each input through the journal round trip before it is
applied, so what the tests drive is what a table replays after a crash.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import HandState, Level, Phase, Variant
from pokertable.controller.engine.seating import TableSeat
from pokertable.controller.rules.profiles import load_profile
from pokertable.controller.table.inputs import (
    CardCleared,
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    Input,
    RoomCommand,
    from_record,
    to_record,
)
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import (
    Output,
    SessionConfig,
    TableSession,
    apply,
    new_session,
)
from pokertable.mqtt.payloads import validate


class RulesTable:
    """Drive one table: console presses, chips, cards and room commands."""

    def __init__(
        self,
        stacks: dict[int, int],
        *,
        profile: str = "tda-2024",
        button: int | None = None,
        level: Level | None = None,
        variant: Variant = Variant.NLHE,
    ) -> None:
        seats = tuple(TableSeat(s, f"P{s}", stack) for s, stack in sorted(stacks.items()))
        config = SessionConfig(
            venue="v",
            table="t1",
            rules=load_profile(profile),
            variant=variant,
            first_button=button if button is not None else max(stacks),
        )
        self.session: TableSession = new_session(
            config, level or Level(small_blind=100, big_blind=200), seats
        )
        self.out: list[Output] = []
        self.t = 0
        self.requests = 0

    def __call__(self, item: Input) -> tuple[Output, ...]:
        assert from_record(to_record(item)) == item
        self.session, out = apply(self.session, item)
        for o in out:
            if o.channel == "event":
                validate("event", {**o.payload, "venue": "v", "table": "t1", "session": "s",
                                   "seq": 1, "schema_version": 1})
        self.out.extend(out)
        return out

    @property
    def hand(self) -> HandState:
        assert self.session.hand is not None
        return self.session.hand

    def ms(self) -> int:
        self.t += 10
        return self.t

    def press(self, button: str, amount: int | None = None) -> tuple[Output, ...]:
        return self(ConsolePress(button, self.ms(), amount))

    def push(self, seat: int, *denoms: int) -> tuple[Output, ...]:
        chips = tuple(ChipItem(d, uid=f"c{self.ms()}-{i}") for i, d in enumerate(denoms))
        return self(ChipsMoved(f"seat{seat}.bet", seat, chips, (), self.ms()))

    def first_view(self, *seats: int) -> None:
        """The readers' first view of these bet zones: empty (as at power-on)."""
        for seat in seats:
            self(ChipsMoved(f"seat{seat}.bet", seat, (), (), self.ms(), complete=True))

    def collect(self) -> None:
        """The dealer pulls every bet zone into the pot."""
        for seat, chips in self.session.bet_zones:
            if chips:
                self(ChipsMoved(f"seat{seat}.bet", seat, (), chips, self.ms()))

    def card(self, zone: str, card: str) -> tuple[Output, ...]:
        seat = int(zone[4:].split(".")[0]) if zone.startswith("seat") else None
        return self(CardDetected(zone, seat, card, self.ms(), uid=f"tag-{card}"))

    def cleared(self, zone: str, card: str) -> tuple[Output, ...]:
        return self(CardCleared(zone, None, card, self.ms(), uid=f"tag-{card}"))

    def command(self, command: str, source: str = "director", **payload: Any) -> tuple[Output, ...]:
        self.requests += 1
        body = {"command": command, "request_id": f"r{self.requests}", **payload}
        validate(source, body)  # type: ignore[arg-type]
        return self(RoomCommand(command, f"r{self.requests}", payload, self.ms()))

    def deal(self, holes: dict[int, tuple[str, ...]]) -> None:
        """The initial deal, one card a round from the small blind's seat, as dealers do."""
        hand = self.hand
        order = [s.seat for s in hand.seats_clockwise_from(hand.button)]
        for round_index in range(len(holes[order[0]])):
            for seat in order:
                self.card(f"seat{seat}.cards", holes[seat][round_index])

    def street(self, burn: str, *cards: str) -> None:
        self.collect()
        self.card("burn", burn)
        for card in cards:
            self.card("board", card)

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            o.payload
            for o in self.out
            if o.channel == "event" and (kind is None or o.payload["kind"] == kind)
        ]

    def replies(self) -> list[dict[str, Any]]:
        return [o.payload for o in self.out if o.channel == "reply"]

    def rulings(self, out: tuple[Output, ...] | None = None) -> list[dict[str, Any]]:
        source = self.out if out is None else out
        return [r for o in source if o.channel == "event" for r in o.payload["rulings"]]

    def rule_ids(self, out: tuple[Output, ...] | None = None) -> list[str]:
        return [i for r in self.rulings(out) for i in r["rule_ids"]]

    def alert_ids(self) -> list[str]:
        return [a.id for a in self.session.alerts]

    def check_around(self) -> None:
        """Check (or call) round until the betting round closes."""
        while self.hand.phase is Phase.BETTING:
            self.press("check_call")

    def state(self) -> dict[str, Any]:
        """The public state as published, checked against the state schema."""
        state = table_state(self.session, self.t)
        validate("state", {**state, "venue": "v", "table": "t1", "session": "s", "seq": 1,
                           "schema_version": 1})
        return state

    def stacks(self) -> dict[int, int]:
        return {s.seat: s.stack for s in self.session.table.seats}

    def alert_codes(self) -> list[str]:
        """Codes of the hand's alerts and floor calls (the irregularities layer's log)."""
        assert self.session.tracked is not None
        return [r.code for r in self.session.tracked.alerts]

    def texts(self, rule_id: str) -> list[str]:
        """The rulings published citing ``rule_id``."""
        return [r["text"] for r in self.rulings() if rule_id in r["rule_ids"]]
