"""A three-handed table driven through ``TableSession.apply`` as the application drives it.

    table = Table()
    table.press("hand_start")
    _deal(table)
    table.push(3, 1000)
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Level, Variant
from pokertable.controller.engine.seating import TableSeat
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.table.inputs import (
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    from_record,
    to_record,
)
from pokertable.controller.table.session import (
    Output,
    SessionConfig,
    TableSession,
    apply,
    new_session,
)

LEVEL = Level(small_blind=100, big_blind=200)


THREE_HANDED = ((1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500))


def _session(
    players: tuple[tuple[int, str, int], ...] = THREE_HANDED,
    first_button: int = 3,
    rules: RuleProfile = TDA_2024,
    variant: Variant = Variant.NLHE,
) -> TableSession:
    seats = tuple(TableSeat(*p) for p in players)
    config = SessionConfig(
        venue="v", table="t1", first_button=first_button, rules=rules, variant=variant
    )
    return new_session(config, LEVEL, seats)


class Table:
    """Feeds inputs through ``apply`` and keeps every output, like the application does."""

    def __init__(
        self,
        players: tuple[tuple[int, str, int], ...] = THREE_HANDED,
        first_button: int = 3,
        rules: RuleProfile = TDA_2024,
        variant: Variant = Variant.NLHE,
    ) -> None:
        self.session = _session(players, first_button, rules, variant)
        self.out: list[Output] = []
        self.t = 0

    def __call__(self, item: Any) -> tuple[Output, ...]:
        # Every input survives the journal round trip unchanged.
        assert from_record(to_record(item)) == item
        self.session, out = apply(self.session, item)
        self.out.extend(out)
        return out

    def ms(self) -> int:
        self.t += 10
        return self.t

    def press(self, button: str, amount: int | None = None) -> tuple[Output, ...]:
        return self(ConsolePress(button, self.ms(), amount))

    def push(self, seat: int, *denoms: int) -> tuple[Output, ...]:
        return self(
            ChipsMoved(f"seat{seat}.bet", seat, tuple(ChipItem(d) for d in denoms), (), self.ms())
        )

    def collect(self) -> None:
        for seat, chips in self.session.bet_zones:
            if chips:
                self(ChipsMoved(f"seat{seat}.bet", seat, (), chips, self.ms()))

    def card(self, zone: str, card: str) -> tuple[Output, ...]:
        seat = int(zone[4:].split(".")[0]) if zone.startswith("seat") else None
        return self(CardDetected(zone, seat, card, self.ms()))

    def events(self, kind: str | None = None) -> list[dict[str, Any]]:
        return [
            o.payload
            for o in self.out
            if o.channel == "event" and (kind is None or o.payload["kind"] == kind)
        ]


def _deal(table: Table) -> None:
    for seat, cards in ((1, ("As", "Ad")), (2, ("Ks", "Kd")), (3, ("Qs", "Qd"))):
        for c in cards:
            table.card(f"seat{seat}.cards", c)
