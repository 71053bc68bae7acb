"""A draw table for rule tests: ``RulesTable`` dealing 2-7 triple draw, 2-7 single draw or
badugi from each seat's pad (``seat<N>.cards``), the discards read in the muck.

    table = DrawTable({1: 2000, 2: 2000, 3: 2000}, variant=Variant.TRIPLE_DRAW_27)
    table.press("hand_start")
    table.deal({1: (...five cards...), ...})
    table.draw_round("Tc", {1: (("Ks",), ("6c",)), 2: ((), ())})  # burn, then each seat
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pokertable.controller.engine.model import Level, Variant
from tests.app.rules_table import RulesTable

# fixed limit: small bet 100 (the big blind), big bet 200
DRAW_LEVEL = Level(small_blind=50, big_blind=100)
THREE = {1: 2000, 2: 2000, 3: 2000}
# dealt from the small blind (seat 1; the button is seat 3)
SINGLE_HOLES: dict[int, tuple[str, ...]] = {
    1: ("2c", "3d", "4h", "7s", "Ks"),
    2: ("2h", "4c", "6d", "9h", "Tc"),
    3: ("3h", "5c", "6h", "Qs", "As"),
}

Draw = tuple[tuple[str, ...], tuple[str, ...]]  # (discards, new cards); ((), ()) stands pat


class DrawTable(RulesTable):
    """Each player's draw as a dealer plays it: his discards off his pad into the muck,
    then his new cards onto his pad; standing pat is the dealer's ``check_call``."""

    def __init__(self, stacks: dict[int, int], *, variant: Variant = Variant.TRIPLE_DRAW_27,
                 profile: str = "tda-2024", level: Level = DRAW_LEVEL,
                 button: int | None = None) -> None:
        super().__init__(stacks, profile=profile, level=level, variant=variant,
                         button=button if button is not None else max(stacks))

    def house(self, **changes: Any) -> None:
        """The table's profile with the house's own draw rules (R35-A7)."""
        config = self.session.config
        rules = replace(config.rules, **changes)
        self.session = replace(self.session, config=replace(config, rules=rules))

    def to_first_draw(self, holes: dict[int, tuple[str, ...]] = SINGLE_HOLES) -> None:
        """A hand dealt, everybody limping in, the big blind checking: the first draw is
        open and the bets are in the pot (no burn yet)."""
        self.press("hand_start")
        self.deal(holes)
        self.check_around()
        self.collect()

    def discard(self, seat: int, *cards: str) -> None:
        for card in cards:
            self.cleared(f"seat{seat}.cards", card)
            self.card("muck", card)

    def serve(self, seat: int, *cards: str) -> None:
        for card in cards:
            self.card(f"seat{seat}.cards", card)

    def draw_round(self, burn: str, draws: dict[int, Draw]) -> None:
        """Bets in, one burn, then each seat in the draw's turn: pat, or discard and serve."""
        self.collect()
        self.card("burn", burn)
        assert self.hand.draw is not None
        for seat in self.hand.draw.order:
            discards, new = draws[seat]
            if not discards:
                self.press("check_call")  # he stands pat (knocks)
                continue
            self.discard(seat, *discards)
            self.serve(seat, *new)
