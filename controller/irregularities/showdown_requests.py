"""Requests to see a hand at showdown (R18): a right, the TD's call, or no standing at all.

A player who no longer holds cards, or who released them face down without tabling, has
lost every right to ask (R18-A). If there was a river bet, a caller who tabled or kept his
cards has an inalienable right to see the last river aggressor's hand (R18-B). Everything
else is the TD's discretion.

>>> SeeAnswer.MUST_TABLE.value
'must_table'
"""

from __future__ import annotations

from collections.abc import Collection
from enum import StrEnum

from pokertable.controller.engine.model import HandState, Street
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile, SeeHandRule


class SeeAnswer(StrEnum):
    MUST_TABLE = "must_table"
    TD_DISCRETION = "td_discretion"
    DENIED = "denied"


def river_aggressor(hand: HandState) -> int | None:
    """The last bettor or raiser on the river, or None when the river was checked through."""
    last = None
    for a in hand.actions:
        if a.street is Street.RIVER and a.kind in ("bet", "raise"):
            last = a.seat
    return last


def request_to_see(
    hand: HandState,
    requester: int,
    target: int,
    rules: RuleProfile,
    *,
    released: Collection[int] = (),
) -> tuple[SeeAnswer, Ruling]:
    """Answer ``requester``'s request to see ``target``'s hand.

    ``released``: seats that pushed their cards away face down without tabling (a dealer
    entry; cards read in the muck are ``mucked`` in the engine state already).
    """
    asker = hand.seat(requester) if hand.has_seat(requester) else None
    if asker is None or not asker.in_hand or asker.mucked or (
        requester in released and not asker.shown
    ):
        return SeeAnswer.DENIED, Ruling(
            RulingKind.REJECTED, (rules.cite("see_hand_lost"),),
            f"seat {requester} no longer holds a hand or discarded it untabled: no right to "
            "see any hand", seat=requester, code="see_hand_denied")
    if not hand.has_seat(target) or not hand.seat(target).in_hand or hand.seat(target).mucked:
        return SeeAnswer.DENIED, Ruling(
            RulingKind.REJECTED, (rules.cite("see_hand_lost"),),
            f"seat {target} has no hand left to table", seat=target, code="see_hand_denied")
    aggressor = river_aggressor(hand)
    called = any(a.street is Street.RIVER and a.seat == requester and a.kind == "call"
                 for a in hand.actions)
    if (aggressor is not None and target == aggressor and called
            and rules.see_hand is not SeeHandRule.TD_PRIVILEGE):
        return SeeAnswer.MUST_TABLE, Ruling(
            RulingKind.ACCEPTED, (rules.cite("see_hand"),),
            f"seat {requester} called the river aggressor: seat {target} must table his hand",
            seat=target, code="must_table")
    if rules.see_hand is SeeHandRule.PAID_CALLER:
        # ACE R18: only the hand a caller paid to see must be shown; others "do not expect".
        return SeeAnswer.DENIED, Ruling(
            RulingKind.INFO, (rules.cite("see_hand"),),
            f"seat {requester} may ask, but seat {target} need not show: only a caller who "
            "paid to see the last river aggressor is entitled", seat=target,
            code="see_hand_not_required")
    why = ("asking to see a hand is a privilege the TD grants" if rules.see_hand is
           SeeHandRule.TD_PRIVILEGE else "there was no river bet" if aggressor is None
           else "only a caller of the last river aggressor has that right")
    return SeeAnswer.TD_DISCRETION, Ruling(
        RulingKind.FLOOR, (rules.cite("see_hand"),),
        f"seat {requester} asks to see seat {target}'s hand: {why}; the TD decides",
        seat=target, options=("show", "refuse"), code="see_hand_td")


def showdown_order(hand: HandState, rules: RuleProfile) -> tuple[tuple[int, ...], bool]:
    """Who shows at a non-all-in showdown, and whether the order binds (R17-A; T11 R12).

    The last river aggressor shows first, else the first live hand left of the button.
    TDA 2024 R17-A only lets the TD require that first hand (one seat, not mandatory);
    TDA 2011 R12 makes it mandatory and continues clockwise ("and so on clockwise").
    """
    live = [s.seat for s in hand.seats_clockwise_from(hand.button) if s.in_hand and not s.mucked]
    if not live:
        return (), rules.show_order_mandatory
    first = river_aggressor(hand)
    start = live.index(first) if first in live else 0
    order = tuple(live[start:] + live[:start])
    if not rules.show_order_mandatory:
        return order[:1], False
    return order, True
