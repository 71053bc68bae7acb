"""Dead hands and stopped hands: killing one seat's hand, and returning every bet (R65, R35-E).

A killed hand (dealer error, fouled hand, absent player, wrong card count after SA,
button that acted short) leaves the hand without being an action in turn, so it never
counts toward substantial action. What happens to its chips depends on why it died:
R65-A returns an uncalled bet and keeps called ones; R30 keeps posted blinds and antes.

>>> from pokertable.controller.engine import HandSetup, start_hand
>>> from pokertable.controller.engine.model import Level, Variant
>>> setup = HandSetup(hand_id="k", variant=Variant.NLHE, level=Level(small_blind=50,
...     big_blind=100), button=3, small_blind_seat=1, big_blind_seat=2,
...     players=((1, "A", 1000), (2, "B", 1000), (3, "C", 1000)))
>>> state, _ = start_hand(setup)
>>> stopped = return_all_bets(state)
>>> [s.stack for s in stopped.seats], stopped.phase.value
([1000, 1000, 1000], 'complete')
"""

from __future__ import annotations

from pokertable.controller.engine import betting, settle
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile


def uncalled_part(state: HandState, seat_no: int) -> int:
    """The part of ``seat_no``'s street bet that nobody has matched (R65-A: returned)."""
    seat = state.seat(seat_no)
    others = [s.bet for s in state.seats if s.seat != seat_no]
    return max(0, seat.bet - max(others, default=0))


def kill_hand(
    state: HandState, seat_no: int, rules: RuleProfile, *, refund_uncalled: bool
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Fold ``seat_no`` outside the turn order and run the engine's follow-ups.

    ``refund_uncalled``: R65-A gives back a bet nobody called; R30 (absent) and
    penalties keep the posted blinds and antes in the pot, so they pass False.
    """
    seat = state.seat(seat_no)
    if seat.status is SeatStatus.FOLDED or state.phase is Phase.COMPLETE:
        return state, ()
    rulings: list[Ruling] = []
    back = uncalled_part(state, seat_no) if refund_uncalled else 0
    dead = evolve(
        seat,
        status=SeatStatus.FOLDED,
        stack=seat.stack + back,
        bet=seat.bet - back,
        committed=seat.committed - back,
    )
    state = state.with_seat(dead)
    if back:
        state = evolve(state, returned=(*state.returned, (seat_no, back)))
        rulings.append(Ruling(RulingKind.INFO, (rules.cite("uncalled_bet"),),
                              f"uncalled {back} returned to seat {seat_no}; called bets stay "
                              "in the pot", seat=seat_no, code="uncalled_returned"))
        state = _withdraw_raise(state, seat_no)
    if back or state.action_on == seat_no:
        after = seat_no if state.action_on in (seat_no, None) else state.action_on - 1
        state = evolve(state, action_on=betting.next_to_act_among(
            state.seats, state.call_to, after))
    state, more = settle(state, rules)
    return state, (*rulings, *more)


def _withdraw_raise(state: HandState, seat_no: int) -> HandState:
    """The bet a killed hand had made and nobody called is gone (R65-A): the street stands
    at the last bet or raise still in front of a live player, so the players who had
    matched it owe nothing more and the round may be over."""
    call_to = max((s.bet for s in state.seats), default=0)
    if call_to >= state.call_to:
        return state
    street = [a for a in state.actions if a.street is state.street]
    withdrawn = [a for a in street if a.seat == seat_no and a.kind in ("bet", "raise")
                 and a.to > call_to]
    standing = [a for a in street if a.kind in ("bet", "raise") and a not in withdrawn]
    previous_to = standing[-2].to if len(standing) > 1 else 0
    increment = call_to - previous_to if standing else state.level.big_blind
    return evolve(
        state,
        call_to=call_to,
        increment=max(increment, state.level.big_blind),
        last_full_to=min(state.last_full_to, call_to),
        bets_this_street=max(0, state.bets_this_street - len(withdrawn)),
        last_aggressor=standing[-1].seat if standing else None,
    )


def return_all_bets(state: HandState) -> HandState:
    """R35-E fouled deck: play stops and every chip committed this hand goes back to its owner."""
    seats = tuple(
        evolve(s, stack=s.stack + s.committed, bet=0, committed=0, dead=0,
               status=SeatStatus.LIVE if s.status is SeatStatus.ALL_IN else s.status)
        for s in state.seats
    )
    returned = tuple((s.seat, s.committed) for s in state.seats if s.committed)
    return evolve(state, seats=seats, phase=Phase.COMPLETE, action_on=None, pots=(),
                  awards=(), returned=(*state.returned, *returned))
