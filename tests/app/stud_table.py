"""A stud table for rule tests: ``RulesTable`` with each seat's downcard pad
(``seat<N>.cards``) and upcard pad (``seat<N>.up``), dealt as a stud dealer deals.

    table = StudTable({1: 2000, 2: 2000, 3: 2000}, variant=Variant.RAZZ)
    table.press("hand_start")
    table.third({1: ("As", "Ad", "2c"), ...})   # two down, one up, round by round
    table.push(1, 25)                            # the bring-in, read from chips
    table.deal_street("2d", {1: "3c", 2: "9c"})  # burn, then one card a live seat
"""

from __future__ import annotations

from collections.abc import Mapping

from pokertable.controller.engine.model import AnteFormat, Level, Variant
from tests.app.rules_table import RulesTable

# ante 10, bring-in 25, small bet 100 (big_blind), big bet 200
STUD_LEVEL = Level(small_blind=0, big_blind=100, ante=10, ante_format=AnteFormat.PER_PLAYER,
                   bring_in=25)


class StudTable(RulesTable):
    """Deals third street round by round from the dealer's left, later streets seat by seat."""

    def __init__(self, stacks: dict[int, int], *, variant: Variant = Variant.STUD,
                 profile: str = "tda-2024", level: Level = STUD_LEVEL) -> None:
        super().__init__(stacks, profile=profile, level=level, variant=variant,
                         button=max(stacks))

    def third(self, holes: Mapping[int, tuple[str, ...]]) -> None:
        """Two rounds down, one up, each round from the lowest seat (the dealer's left)."""
        for round_index in range(max(len(cards) for cards in holes.values())):
            for seat in sorted(holes):
                if round_index < len(holes[seat]):
                    pad = "up" if round_index == 2 else "cards"
                    self.card(f"seat{seat}.{pad}", holes[seat][round_index])

    def deal_street(self, burn: str | None, cards: dict[int, str]) -> None:
        """Bets in, one burn, one card a live seat: up on fourth to sixth, down on seventh."""
        self.collect()
        if burn is not None:
            self.card("burn", burn)
        for seat, card in cards.items():
            seventh = len(self.hand.seat(seat).hole) == 6
            self.card(f"seat{seat}.{'cards' if seventh else 'up'}", card)
