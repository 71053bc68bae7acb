"""A table for tests: drives a ``TrackedHand`` with reader and dealer events, as a real one would.

The driver is mutable for convenience; the hand inside stays frozen. Cards come off a
fixed stub (skipping any card a test names itself), and a card's tag is ``tag-<card>``
unless the test gives one, so reading a card again is a re-read of the same tag.
"""

from __future__ import annotations

from collections.abc import Iterable

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.cards import RANKS, STANDARD_DECK, SUITS
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Level, Phase, Variant
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities import start_tracked, step
from pokertable.controller.irregularities.events import CardRemoved, CardSeen, TableEvent
from pokertable.controller.irregularities.hand import TrackedHand
from pokertable.controller.rules import TDA_2024, RuleProfile

STUB = [r + s for s in SUITS for r in RANKS]


def setup(
    stacks: dict[int, int],
    *,
    button: int,
    sb: int | None,
    bb: int,
    level: Level | None = None,
    variant: Variant = Variant.NLHE,
    hand_id: str = "h1",
) -> HandSetup:
    return HandSetup(
        hand_id=hand_id, variant=variant, level=level or Level(small_blind=50, big_blind=100),
        button=button, small_blind_seat=sb, big_blind_seat=bb,
        players=tuple((seat, f"P{seat}", stack) for seat, stack in sorted(stacks.items())),
    )


class Table:
    def __init__(
        self,
        hand_setup: HandSetup,
        *,
        rules: RuleProfile = TDA_2024,
        expected: HandSetup | None = None,
        deck: frozenset[str] = STANDARD_DECK,
        absent: Iterable[int] = (),
        on_penalty: Iterable[int] = (),
    ) -> None:
        self.rules = rules
        self.t, self.rulings = start_tracked(
            hand_setup, rules, expected=expected, deck=deck, absent=frozenset(absent),
            on_penalty=frozenset(on_penalty))
        self.used: set[str] = set()
        self.log: list[Ruling] = list(self.rulings)

    @classmethod
    def from_tracked(cls, t: TrackedHand, rules: RuleProfile = TDA_2024) -> Table:
        table = cls.__new__(cls)
        table.rules, table.t, table.rulings, table.used, table.log = rules, t, [], set(), []
        return table

    def send(self, event: TableEvent) -> list[Ruling]:
        self.t, out = step(self.t, event, self.rules)
        self.log += out
        return out

    def next_card(self) -> str:
        card = next(c for c in STUB if c not in self.used)
        self.used.add(card)
        return card

    def card(self, zone: str, card: str | None = None, tag: str | None = None) -> list[Ruling]:
        card = card or self.next_card()
        self.used.add(card)
        return self.send(CardSeen(zone, card, tag or f"tag-{card}"))

    def remove(self, zone: str, card: str, tag: str | None = None) -> list[Ruling]:
        return self.send(CardRemoved(zone, card, tag or f"tag-{card}"))

    def seat(self, seat: int, card: str | None = None, tag: str | None = None) -> list[Ruling]:
        return self.card(f"seat{seat}.cards", card, tag)

    def deal(self, order: Iterable[int] | None = None) -> list[Ruling]:
        """The initial deal; by default rounds clockwise from the first seat after the button."""
        if order is None:
            seats = [s.seat for s in self.t.hand.seats_clockwise_from(self.t.hand.button)]
            order = seats * self.t.hand.variant.hole_cards
        out: list[Ruling] = []
        for seat in order:
            out += self.seat(seat)
        return out

    def act(self, seat: int, kind: str, amount: int | None = None) -> list[Ruling]:
        return self.send(PlayerAction(seat, ActionKind(kind), amount))

    def acts(self, *actions: tuple[int, str] | tuple[int, str, int]) -> list[Ruling]:
        out: list[Ruling] = []
        for spec in actions:
            amount = spec[2] if len(spec) == 3 else None
            got = self.act(spec[0], spec[1], amount)
            assert not rejected(got), got
            out += got
        return out

    def burn(self, card: str | None = None) -> list[Ruling]:
        return self.card("burn", card)

    def board(self, *cards: str) -> list[Ruling]:
        out: list[Ruling] = []
        for card in cards:
            out += self.card("board", card)
        return out

    def street(self, n: int) -> list[Ruling]:
        """Burn and deal ``n`` board cards off the stub."""
        out = self.burn()
        for _ in range(n):
            out += self.card("board")
        return out

    @property
    def sa(self) -> bool:
        return self.t.sa(self.rules)


def river_three_way(stack: int, level: Level, rules: RuleProfile = TDA_2024) -> Table:
    """Three seats checked down to the river: a showdown with every hand still live."""
    table = Table(setup({1: stack, 2: stack, 3: stack}, button=3, sb=1, bb=2, level=level),
                  rules=rules)
    table.deal()
    table.acts((3, "call"), (1, "call"), (2, "check"))
    for n in (3, 1, 1):
        table.street(n)
        table.acts((1, "check"), (2, "check"), (3, "check"))
    assert table.t.hand.phase is Phase.SHOWDOWN
    return table


def codes(rulings: Iterable[Ruling]) -> list[str]:
    return [r.code for r in rulings]


def rejected(rulings: Iterable[Ruling]) -> list[Ruling]:
    return [r for r in rulings if r.kind is RulingKind.REJECTED]


def find(rulings: Iterable[Ruling], code: str) -> Ruling:
    hits = [r for r in rulings if r.code == code]
    assert hits, f"no ruling {code!r} in {codes(rulings)}"
    return hits[0]
