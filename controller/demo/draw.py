"""The simulated draw dealer and players: 2-7 triple draw, 2-7 single draw and badugi.

The deal and the betting are the board games' (``Dealer``): five cards down from the small
blind (badugi four), blinds and bets pushed as chips. At each draw the dealer pulls the bets
in, gathers the folded hands into the muck, burns one card, then takes the players in turn
from the button's left: a player who stands pat knocks (the dealer's ``check_call``); one
who draws slides his discards into the muck and is served as many new cards on his pad
(docs/irregularities.md, "Draw games"). When the stub cannot serve him, the dealer picks the
discards and folded hands up from the muck (never the drawer's own) and shuffles them with
what is left of the stub, as the house says (R39-D, ``draw_last_card_dealt``; the draws are
house rules, R35-A7).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Protocol

from pokertable.controller.engine.cards import RANKS
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, Variant
from pokertable.controller.table.session import TableSession

# 2-7 lowball: the ace is high; badugi: the ace is the lowest card.
_LOWBALL_ORDER = {rank: i for i, rank in enumerate(RANKS)}  # RANKS runs 2 .. A
_BADUGI_ORDER = {rank: (i + 1) % len(RANKS) for i, rank in enumerate(RANKS)}  # A .. K


class _Dealer(Protocol):
    """What the draw dealing needs of ``Dealer`` (which holds a ``DrawDealing``)."""

    sim: Any
    app: Any
    rng: random.Random

    def deal(self, zone: str, card: str) -> None: ...

    def press(self, button: str, amount: int | None = None) -> None: ...

    def collect_bets(self) -> None: ...

    def wait(self, predicate: Callable[[TableSession], bool], what: str) -> TableSession: ...


def discards(variant: Variant, hole: tuple[str, ...]) -> tuple[str, ...]:
    """What a bot throws: 2-7, the pairs and the cards above an eight; badugi, the cards
    that repeat a rank or a suit of a lower card kept, and the cards above a nine.

    >>> discards(Variant.TRIPLE_DRAW_27, ("2c", "7d", "7h", "Ks", "4s"))
    ('7h', 'Ks')
    >>> discards(Variant.BADUGI, ("Ac", "2c", "5d", "9h"))
    ('2c',)
    """
    badugi = variant is Variant.BADUGI
    order = _BADUGI_ORDER if badugi else _LOWBALL_ORDER
    worst = "T" if badugi else "9"
    ranks: set[str] = set()
    suits: set[str] = set()
    thrown = []
    for card in sorted(hole, key=lambda c: (order[c[0]], c[1])):
        rank, suit = card[0], card[1]
        if rank in ranks or (badugi and suit in suits) or order[rank] >= order[worst]:
            thrown.append(card)
        else:
            ranks.add(rank)
            suits.add(suit)
    return tuple(c for c in hole if c in thrown)


class DrawDealing:
    """The draw part of the demo's dealer: it deals through ``Dealer.deal`` and waits on the
    table's state as the dealer does; it knows what it put in the muck this hand."""

    def __init__(self, dealer: _Dealer) -> None:
        self.dealer = dealer
        self._hand_id = ""
        self._muck: list[str] = []  # the discards and folded hands lying in the muck
        self._gathered: set[int] = set()  # folded seats whose cards are in the muck
        self._burned = 0  # the draw whose burn is out

    def draw(self, session: TableSession, deck: list[str]) -> None:
        """One draw: the bets in, the folded hands gathered, a burn, then each player in
        turn stands pat or discards and is served."""
        hand = session.hand
        assert hand is not None and hand.draw is not None
        if hand.hand_id != self._hand_id:
            self._hand_id, self._muck, self._gathered, self._burned = hand.hand_id, [], set(), 0
        if self._burned != hand.draw.number:
            self.dealer.collect_bets()
            self._gather_folded(hand)
            if deck:  # the engine burns one a draw while the stub has a card (R38)
                self.dealer.deal("burn", deck.pop())
            self._burned = hand.draw.number
        while True:
            session = self.dealer.app.snapshot()
            hand = session.hand
            if session.alerts or hand is None or hand.draw is None or not hand.draw.order:
                return
            if hand.phase is not Phase.DEALING:
                return
            self._one_player(session, hand, hand.draw.order[0], deck)

    def _gather_folded(self, hand: HandState) -> None:
        for seat in hand.seats:
            if seat.status is SeatStatus.FOLDED and seat.seat not in self._gathered:
                self._gathered.add(seat.seat)
                if seat.hole:
                    self._to_muck(seat.seat, seat.hole)

    def _to_muck(self, seat: int, cards: tuple[str, ...]) -> None:
        """The cards off his pad into the muck, in one motion."""
        from pokertable.hardware.simulator import RemoveCard

        for card in cards:
            self.dealer.sim.perform(RemoveCard(f"seat{seat}.cards", card))
        self._put("muck", cards)
        self._muck.extend(cards)

    def _put(self, zone: str, cards: tuple[str, ...]) -> None:
        """Cards into one zone together, then a wait until the table has read them all:
        they are one player's, so their order among themselves says nothing."""
        from pokertable.hardware.simulator import DealCard

        for card in cards:
            self.dealer.sim.perform(DealCard(zone, card))
        self.dealer.wait(
            lambda s: set(cards) <= set(s.cards_in(zone)) or s.hand is None or bool(s.alerts),
            f"{' '.join(cards)} in {zone} to be read",
        )

    def _one_player(self, session: TableSession, hand: HandState, seat: int,
                    deck: list[str]) -> None:
        number = hand.draw.number if hand.draw is not None else 0
        thrown = discards(hand.variant, hand.seat(seat).hole)
        if self.dealer.rng.random() < 0.15:
            thrown = thrown[:1]  # now and then a player breaks a draw late, or keeps more
        if not thrown:
            self.dealer.press("check_call")  # he knocks: he stands pat
        else:
            self._to_muck(seat, thrown)
            rules = session.config.rules
            if len(thrown) > len(deck) - (0 if rules.draw_last_card_dealt else 1):
                self._reshuffle(deck, thrown)
            self._put(f"seat{seat}.cards", tuple(deck.pop() for _ in thrown))
        self.dealer.wait(
            lambda s: (
                s.hand is None
                or s.hand.phase is not Phase.DEALING
                or s.hand.draw is None
                or s.hand.draw.number != number
                or (seat not in s.hand.draw.order and seat not in dict(s.hand.draw.owed))
                or bool(s.alerts)
            ),
            f"seat {seat}'s draw to be read",
        )

    def _reshuffle(self, deck: list[str], own: tuple[str, ...]) -> None:
        """R39-D: the muck but the drawer's own discards, shuffled face down with the stub's
        last cards into a new stub (the house's ``draw_reshuffle = "discards"``, every
        shipped profile's; PokerKit's ``all_not_in_play`` would take the burns too)."""
        from pokertable.hardware.simulator import RemoveCard

        pile = [c for c in self._muck if c not in own]
        for card in pile:
            self.dealer.sim.perform(RemoveCard("muck", card))
        self._muck = list(own)
        deck.extend(pile)
        self.dealer.rng.shuffle(deck)
