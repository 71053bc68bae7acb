"""A player's request for a clock (R29), checked against the profile before it runs.

Staff call the clock whenever they judge it right ("If in TD's judgement reasonable time
has passed"): a ``clock_call`` with no requester always runs. A player's request relayed
by the dealer or the floor names the requesting seat (``requested_by_seat``) and how long
the player on the action has had (``waited_s``, measured by the console from the table's
states), and the profile decides whether it stands:

- ``clock_callers``: ``seated_player`` (TDA R29/R30): any player in the event, who must be
  at his seat; ``hand_player_or_staff`` (ACE R29): only a player in the hand.
- ``clock_min_wait_seconds`` (ACE: about two minutes): a request before that is refused;
  the director may still call the clock himself (a call with no requester).

A refused request changes nothing: the reply names the rule and the parameter.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Phase, SeatStatus
from pokertable.controller.rules import ClockCallers
from pokertable.controller.table.state import TableSession


def request_refusal(session: TableSession, payload: dict[str, Any]) -> str | None:
    """Why a player's clock request does not stand under the profile, or None."""
    if "requested_by_seat" not in payload:
        return None  # staff call the clock: the TD's judgement (R29)
    rules = session.config.rules
    rule = rules.rule_id("clock")
    seat = int(payload["requested_by_seat"])
    hand = session.hand
    if session.table.occupied(seat) is None:
        return f"{rule}: seat {seat} is empty"
    if seat in session.absent:
        return f"{rule}: seat {seat} must be at his seat to call for a clock (R30)"
    if rules.clock_callers is ClockCallers.HAND_PLAYER_OR_STAFF:
        live = (hand is not None and hand.phase is not Phase.COMPLETE and hand.has_seat(seat)
                and hand.seat(seat).status in (SeatStatus.LIVE, SeatStatus.ALL_IN))
        if not live:
            return (f"{rule}: only a player in the hand, the dealer or the director may call "
                    f"for a clock (clock_callers=hand_player_or_staff); seat {seat} is not in "
                    "the hand")
    wait = rules.clock_min_wait_seconds
    waited = payload.get("waited_s")
    if wait is not None and (waited is None or int(waited) < wait):
        had = "unknown" if waited is None else f"{int(waited)} s"
        return (f"{rule}: a clock may be called after about {wait} s "
                f"(clock_min_wait_seconds={wait}); the player has had {had}: the director "
                "may call it himself")
    return None
