"""A draw table for rule tests: ``RulesTable`` dealing 2-7 triple draw, 2-7 single draw or
badugi from each seat's pad (``seat<N>.cards``), the discards read in the muck.

    table = DrawTable({1: 2000, 2: 2000, 3: 2000}, variant=Variant.TRIPLE_DRAW_27)
    table.press("hand_start")
    table.deal({1: (...five cards...), ...})
    table.draw_round("Tc", {1: (("Ks",), ("6c",)), 2: ((), ())})  # burn, then each seat
"""

from __future__ import annotations

from pokertable.controller.engine.model import Level, Variant
from tests.app.rules_table import RulesTable

# fixed limit: small bet 100 (the big blind), big bet 200
DRAW_LEVEL = Level(small_blind=50, big_blind=100)

Draw = tuple[tuple[str, ...], tuple[str, ...]]  # (discards, new cards); ((), ()) stands pat


class DrawTable(RulesTable):
    """Each player's draw as a dealer plays it: his discards off his pad into the muck,
    then his new cards onto his pad; standing pat is the dealer's ``check_call``."""

    def __init__(self, stacks: dict[int, int], *, variant: Variant = Variant.TRIPLE_DRAW_27,
                 profile: str = "tda-2024", level: Level = DRAW_LEVEL,
                 button: int | None = None) -> None:
        super().__init__(stacks, profile=profile, level=level, variant=variant,
                         button=button if button is not None else max(stacks))

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
