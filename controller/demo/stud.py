"""The simulated stud dealer and players: seven-card stud, stud hi-lo and razz on the felt.

No button, no blinds, no board: the table takes the antes; the dealer deals, from the seat
on his left round the table, two cards down and one up to every player (third street),
then after a burn one card up on fourth, fifth and sixth street and one down on seventh,
to the players still in. When the stub is short on seventh street one community card
goes face up in the middle for everybody (RP-10-H). The player with the bring-in card
pushes the bring-in (or completes to the small bet), and a later player may complete it,
with chips, as at a real table (RP-10-E); from then on the players bet as in any
fixed-limit game (``Dealer.act``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Literal, Protocol

from pokertable.controller.engine.betting import Options
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, Street
from pokertable.controller.table.session import TableSession
from pokertable.hardware.zones import seat_zone

# A seat's downcards lie on its hole-card pad, its upcards on the upcard pad beside it.
DOWN: Literal["cards"] = "cards"
UP: Literal["up"] = "up"

STREET_NAMES = ("third", "fourth", "fifth", "sixth", "seventh")


class _Dealer(Protocol):
    """What the stud dealing needs of ``Dealer`` (which holds a ``StudDealing``)."""

    def deal(self, zone: str, card: str) -> None: ...

    def collect_bets(self) -> None: ...

    def wait(self, predicate: Callable[[TableSession], bool], what: str) -> TableSession: ...


class StudDealing:
    """The stud part of the demo's dealer: it deals through ``Dealer.deal`` and waits on
    the table's state as the dealer does."""

    def __init__(self, dealer: _Dealer) -> None:
        self.dealer = dealer

    def third_street(self, hand: HandState, deck: list[str]) -> None:
        """Two down and one up to each player, one card at a time round the table."""
        order = sorted(s.seat for s in hand.seats)
        for area in (DOWN, DOWN, UP):
            for seat in order:
                self.dealer.deal(seat_zone(seat, area), deck.pop())
        self._street_read(Street.THIRD, "third street")

    def next_street(self, session: TableSession, deck: list[str]) -> None:
        """The bets to the pot, a burn, then one card to each player still in the hand."""
        hand = session.hand
        assert hand is not None
        self.dealer.collect_bets()
        street = Street(hand.street + 1)
        live = sorted(s.seat for s in hand.seats if s.status is not SeatStatus.FOLDED)
        self.dealer.deal("burn", deck.pop())
        if street is Street.SEVENTH and len(deck) < len(live):
            self.dealer.deal("board", deck.pop())  # RP-10-H: one community card for all
        else:
            area = DOWN if street is Street.SEVENTH else UP
            for seat in live:
                self.dealer.deal(seat_zone(seat, area), deck.pop())
        self._street_read(street, f"{STREET_NAMES[street]} street")

    def _street_read(self, street: Street, what: str) -> None:
        self.dealer.wait(
            lambda s: (
                s.hand is None
                or s.hand.phase is not Phase.DEALING
                or s.hand.street > street
                or bool(s.alerts)
            ),
            f"{what} to be read",
        )

    def forced(self, hand: HandState, opts: Options, roll: float) -> Options | None:
        """Third street's own moves, as the chips the player pushes (``min_to``): the
        bring-in card's owner brings in, or now and then completes to the small bet; a
        later player may complete a bring-in nobody has completed yet. None: the move is
        an ordinary fixed-limit one (fold, call, raise, check)."""
        if hand.street is not Street.THIRD:
            return None
        small = hand.level.big_blind
        seat = hand.seat(opts.seat)
        if hand.call_to == 0 and opts.seat == hand.bring_in_seat:
            to = min(hand.level.bring_in if roll < 0.75 else small, opts.all_in_to)
            return dataclasses.replace(opts, min_to=to, max_to=to)
        completing = 0 < hand.call_to < small and not hand.bets_this_street
        if completing and opts.can_raise and roll > 0.8 and seat.stack + seat.bet > small:
            return dataclasses.replace(opts, min_to=small, max_to=small)
        return None
