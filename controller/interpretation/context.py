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


# The last hand state's options and its context (both immutable, so identity is the key):
# the public state asks for the options of the hand each input leaves, and the chips of the
# seat on the action are read against that same hand object next, so that turn's facts are
# worked out once, while the last input's state is built, not again on the chip's path.
_last_options: tuple[HandState, RuleProfile, betting.Options | None] | None = None
_last_context: tuple[HandState, RuleProfile, BetContext | None] | None = None


def turn_options(state: HandState, rules: RuleProfile) -> betting.Options | None:
    """``betting.options_for`` of ``state``, derived once per hand object."""
    global _last_options
    last = _last_options
    if last is not None and last[0] is state and last[1] is rules:
        return last[2]
    opts = betting.options_for(state, rules)
    _last_options = (state, rules, opts)
    return opts


def context_for(state: HandState, seat: int, rules: RuleProfile) -> BetContext | None:
    """The context of ``seat`` if the action is on it, else None."""
    global _last_context
    if state.action_on != seat:
        return None
    last = _last_context
    if last is not None and last[0] is state and last[1] is rules:
        return last[2]
    ctx = _context(state, turn_options(state, rules))
    _last_context = (state, rules, ctx)
    return ctx


def prime(state: HandState | None, rules: RuleProfile) -> None:
    """Work out the facts of the seat on the action now: called between inputs (once an
    input's messages are out), so the chips read against them next find them ready."""
    if state is not None and state.action_on is not None:
        context_for(state, state.action_on, rules)


def _context(state: HandState, opts: betting.Options | None) -> BetContext | None:
    if opts is None:
        return None
    seat = opts.seat
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
