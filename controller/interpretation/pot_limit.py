"""Pot sizes: "pot" declarations (R54-B/D), ambiguous amounts (R57) and pot-count errors (R52-B).

The pot-limit maximum itself comes from ``betting.pot_limit_max_to`` via the context's
``max_to`` (R54-B's pre-flop full-blinds assumption included), so the interpretation layer and
the engine cannot disagree about it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Betting, HandState
from pokertable.controller.interpretation.context import BetContext
from pokertable.controller.interpretation.outcome import FloorOption, Interpretation
from pokertable.controller.interpretation.raises import floor, raise_to
from pokertable.controller.rules import RuleProfile


def pot_declaration(ctx: BetContext, zone: int, rules: RuleProfile) -> Interpretation | None:
    """ "Pot" in pot limit: a bet or raise to the maximum (R54). None when not pot limit."""
    if ctx.betting is not Betting.POT_LIMIT:
        return None
    ids = (rules.cite("pot_limit"),) + ((rules.cite("pot_limit_preflop"),)
                                        if ctx.call_to and ctx.own < ctx.call_to else ())
    return raise_to(ctx, ctx.max_to, zone, ids, rules,
                    f"a pot-sized {ctx.bet_word()} is {ctx.max_to}")


def ambiguous_amount(ctx: BetContext, spoken: int, rules: RuleProfile) -> tuple[int | None,
                                                                                tuple[int, ...]]:
    """R57: the meanings of a number such as "five" that are legal, and the one that stands.

    The highest reasonable amount not above the pot (the pot counts bets not yet pulled in);
    T11 R44 takes the lesser value instead. None when no legal meaning is within the pot
    (open question A21: the TD decides between the legal meanings).

    >>> from pokertable.controller.engine.model import Betting
    >>> ctx = BetContext(seat=1, call_to=0, own=0, inc=400, stack=100000, min_to=400,
    ...     max_to=100000, can_raise=True, reopened=True, betting=Betting.NO_LIMIT,
    ...     heads_up=True, opening_bet=False, pot=4900, players_in_hand=2)
    >>> from pokertable.controller.rules import TDA_2024
    >>> ambiguous_amount(ctx, 5, TDA_2024)
    (500, (500, 5000, 50000))
    """
    meanings = tuple(spoken * 10**k for k in range(13))
    legal = tuple(m for m in meanings
                  if (m >= ctx.min_to or m == ctx.all_in_to) and m <= min(ctx.all_in_to,
                                                                           ctx.max_to)
                  and m > ctx.call_to)
    within = [m for m in legal if m <= ctx.pot]
    if not within:
        return None, legal
    return (max(within) if rules.ambiguous_amount_highest else min(within)), legal


def ambiguous_floor(ctx: BetContext, spoken: int, legal: tuple[int, ...], zone: int,
                    rules: RuleProfile) -> Interpretation:
    """R57 with no meaning standing: the TD picks among the legal meanings.

    A meaning that is exactly his call (all in when he is short) is one of them: a seat
    facing more than he has can mean nothing else, and must not reach the TD with no
    option to pick.
    """
    options = tuple(
        FloorOption(f"to_{m}", f"{ctx.bet_word()} to {m}", ctx.aggressive(m), m,
                    max(0, zone - m), max(0, m - zone))
        for m in legal[:4]
    )
    call_total = min(ctx.call_to, ctx.all_in_to)
    if ctx.facing and any(spoken * 10**k == call_total for k in range(13)):
        all_in = " all in" if call_total == ctx.all_in_to else ""
        call_option = FloorOption("call", f"call{all_in} to {call_total}", ActionKind.CALL,
                                  call_total, max(0, zone - call_total),
                                  max(0, call_total - zone))
        options = (call_option, *options)
    return floor(ctx, (rules.cite("unclear_betting"), rules.cite("floor_discretion")),
                 f"seat {ctx.seat} said {spoken}: no legal meaning is within the pot "
                 f"({ctx.pot}); the TD decides", options)


@dataclass(frozen=True, slots=True)
class CountQuote:
    """A pot count given in pot limit, kept to judge a later correction (R52-B)."""

    seat: int
    quoted: int
    correct: int  # the pot-sized total the seat could really make
    actions_before: int  # len(state.actions) when the count was given


def quote(state: HandState, seat: int, quoted: int, rules: RuleProfile) -> CountQuote | None:
    """Record a count for the seat on the action; None when there is nothing to check."""
    from pokertable.controller.interpretation.context import context_for

    ctx = context_for(state, seat, rules)
    if ctx is None:
        return None
    return CountQuote(seat, quoted, min(ctx.max_to, ctx.all_in_to), len(state.actions))


@dataclass(frozen=True, slots=True)
class CountVerdict:
    """What R52-B makes of a count error: ``correct`` means raise the bet to the real pot."""

    code: str  # no_count_bet, count_error_none, count_error_stands, correct
    text: str
    bet_to: int = 0


def judge_count_error(state: HandState, given: CountQuote, rules: RuleProfile) -> CountVerdict:
    """R52-B: a too-low count is corrected until substantial action follows the bet."""
    bet = (state.actions[given.actions_before]
           if len(state.actions) > given.actions_before else None)
    if bet is None or bet.seat != given.seat or bet.kind not in ("bet", "raise"):
        return CountVerdict("no_count_bet", f"seat {given.seat}: no bet followed the wrong count")
    if bet.to >= given.correct:
        return CountVerdict("count_error_none", f"seat {given.seat}'s bet of {bet.to} is not "
                            "below the pot", bet.to)
    if state.substantial_since(given.actions_before + 1, rules):  # R36 from after the bet
        return CountVerdict("count_error_stands", f"seat {given.seat}'s bet of {bet.to} stands: "
                            "the count was too low but substantial action followed", bet.to)
    return CountVerdict("correct", f"seat {given.seat} must increase to {given.correct}: the "
                        "count was too low and no substantial action followed", bet.to)
