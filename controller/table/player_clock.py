"""Calling the clock on a player (R29), at the live table.

The floor (the dealer console's "clock" button, or the director's ``clock_call``) puts the
player on the action on the clock: ``clock_seconds`` plus a ``clock_countdown_seconds``
countdown. Nothing here reads a clock: time is the inputs' ``at_ms``. When the time is up
the room says so (``clock_expired``, from the floor tablet or the tournament clock); if he
has still not acted, facing a bet his hand is dead, otherwise it is checked (TDA 2024; TDA
2011 R24: dead in every case). An action that arrives first, even at the last instant,
stands ("a tie goes to the player"). Whether enough time had passed to call the clock
(ACE: about two minutes) stays the floor's judgement.

``console_words`` and ``room_commands`` route the calls here; ``session.apply`` stops the
clock once the player acts (``follow``).
"""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import ClockExpiry
from pokertable.controller.table.hands import run_event
from pokertable.controller.table.outputs import event_out, warn
from pokertable.controller.table.state import Output, TableSession


def call_clock(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """Put the player on the action on the clock (R29)."""
    hand = session.hand
    rules = session.config.rules
    if hand is None or hand.phase is not Phase.BETTING or hand.action_on is None:
        warn(out, session, "clock", "nobody is on the action: no clock to run", "no_clock",
                   at_ms)
        return session
    seat = hand.action_on
    if session.clock is not None and session.clock[0] == seat:
        left = max(0, session.clock[1] - at_ms) // 1000
        warn(out, session, "clock", f"seat {seat} is already on the clock ({left} s left)",
                   "clock_running", at_ms, seat)
        return session
    total = rules.clock_seconds + rules.clock_countdown_seconds
    deadline = at_ms + total * 1000
    facing = hand.call_to > hand.seat(seat).bet
    outcome = ("his hand is dead" if facing or rules.clock_expiry_not_facing_bet is
               ClockExpiry.DEAD_HAND else "his hand is checked")
    ruling = Ruling(
        RulingKind.ACCEPTED, (rules.cite("clock"),),
        f"seat {seat} is on the clock: {rules.clock_seconds} s, then a "
        f"{rules.clock_countdown_seconds} s countdown; if he has not acted by then {outcome}",
        seat=seat, code="clock_started",
    )
    data = {"seat": seat, "expires_at_ms": deadline, "seconds": rules.clock_seconds,
            "countdown": rules.clock_countdown_seconds}
    out.append(event_out(session, "clock_started", (ruling,), data, at_ms))
    return evolve(session, clock=(seat, deadline))


def clock_expired(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """The room says the time is up: act for the player who has not (R29)."""
    hand = session.hand
    rules = session.config.rules
    if session.clock is None or hand is None or hand.action_on != session.clock[0]:
        warn(out, session, "clock", "no player is on the clock", "no_clock", at_ms)
        return evolve(session, clock=None)
    seat, deadline = session.clock
    if at_ms <= deadline:  # the time is not up yet; at the last instant it is still his
        warn(out, session, "clock", f"seat {seat}'s clock runs until {deadline} ms "
                   f"({(deadline - at_ms) // 1000} s left)", "clock_running", at_ms, seat)
        return session
    opts = betting.options_for(hand, rules)
    check = (opts is not None and opts.can_check
             and rules.clock_expiry_not_facing_bet is ClockExpiry.CHECK)
    kind = ActionKind.CHECK if check else ActionKind.FOLD
    ruling = Ruling(
        RulingKind.BINDING, (rules.cite("clock"),),
        f"seat {seat}'s time ran out: " + ("his hand is checked" if check else "his hand is dead"),
        seat=seat, code="clock_expired",
    )
    out.append(event_out(session, "clock_expired", (ruling,), {"seat": seat}, at_ms))
    session = evolve(session, clock=None)
    return run_event(session, PlayerAction(seat, kind, at_ms=at_ms), out, at_ms, "clock")


def follow(session: TableSession) -> TableSession:
    """The clock stops once the player acts (the action moves on) or the hand ends."""
    if session.clock is None:
        return session
    hand = session.hand
    if hand is None or hand.phase is not Phase.BETTING or hand.action_on != session.clock[0]:
        return evolve(session, clock=None)
    return session
