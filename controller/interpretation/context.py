"""The betting facts one seat faces, read once from the engine state.

Every interpretation module reads the same ``BetContext`` (call amount, own street total,
last full increment, legal minimum and maximum from ``betting.options_for``), so the layer
never disagrees with the engine about what is legal.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine import betting
from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Betting, HandState, Street
from pokertable.controller.rules import RuleProfile


@dataclass(frozen=True, slots=True)
class BetContext:
    seat: int
    call_to: int  # highest street total to match
    own: int  # this seat's street total so far
    inc: int  # last full bet/raise increment (R43-A)
    stack: int  # chips behind
    min_to: int  # smallest legal bet/raise total (or all-in when smaller)
    max_to: int  # largest legal total (PL pot, FL fixed, NL all-in)
    can_raise: bool
    reopened: bool
    betting: Betting
    heads_up: bool  # two players contest the pot (R51-B(1), open question A10)
    opening_bet: bool  # the amount faced is the round's opening bet (R51-B(2))
    pot: int  # all chips in the pot and in front of players (R57)
    players_in_hand: int

    @property
    def all_in_to(self) -> int:
        return self.own + self.stack

    @property
    def facing(self) -> bool:
        return self.call_to > self.own

    @property
    def need(self) -> int:
        return max(0, self.call_to - self.own)

    @property
    def full_raise_to(self) -> int:
        return self.call_to + self.inc

    def bet_word(self) -> ActionKind:
        return ActionKind.RAISE if self.call_to > 0 else ActionKind.BET

    def aggressive(self, total: int) -> ActionKind:
        """BET/RAISE to ``total``, or ALL_IN when that is everything he has."""
        return ActionKind.ALL_IN if total >= self.all_in_to else self.bet_word()


def context_for(state: HandState, seat: int, rules: RuleProfile) -> BetContext | None:
    """The context of ``seat`` if the action is on it, else None."""
    if state.action_on != seat:
        return None
    opts = betting.options_for(state, rules)
    if opts is None:
        return None
    me = state.seat(seat)
    opening = state.bets_this_street == (0 if state.street is Street.PREFLOP else 1)
    return BetContext(
        seat=seat,
        call_to=state.call_to,
        own=me.bet,
        inc=state.increment,
        stack=me.stack,
        min_to=opts.min_to,
        max_to=opts.max_to,
        can_raise=opts.can_raise,
        reopened=opts.reopened,
        betting=state.variant.betting,
        heads_up=state.players_in_hand == 2,
        opening_bet=opening,
        pot=state.pot_total,
        players_in_hand=state.players_in_hand,
    )
