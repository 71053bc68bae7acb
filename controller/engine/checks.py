"""Checks every engine event shares: a refusal as a ruling, and new cards that may be dealt.

A refused event leaves the state exactly as it was and says why, with the rule id.
"""

from __future__ import annotations

from collections.abc import Sequence

from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.model import HandState, Phase, SeatState
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile

_COMPLETE = Phase.COMPLETE  # a module global: an enum member read through its class is slower


def reject(
    state: HandState, seat: int | None, text: str, rule_id: str, code: str
) -> tuple[HandState, tuple[Ruling, ...]]:
    return state, (Ruling(RulingKind.REJECTED, (rule_id,), text, seat=seat, code=code),)


def dealt_in_seat(
    state: HandState, number: int, rules: RuleProfile
) -> SeatState | tuple[HandState, tuple[Ruling, ...]]:
    """The seat a hole card is for, or the refusal when no running hand deals it in."""
    seat = None
    for s in state.seats:  # a loop, not ``next`` over a generator: every card comes here
        if s.seat == number:
            seat = s
            break
    if state.phase is _COMPLETE or seat is None:
        return reject(
            state,
            number,
            f"seat {number} is not dealt in to a running hand",
            rules.cite("rules"),
            "seat_not_dealt_in",
        )
    return seat


def cards_in_play(state: HandState) -> set[str]:
    seen = set(state.board)
    for s in state.seats:
        seen.update(s.hole)
    for _, card in state.exposed:  # stud: a replaced card is out of play (RP-10-B)
        seen.add(card)
    return seen


def check_new_cards(
    state: HandState, cards: Sequence[str], seat: int | None, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]] | None:
    if not STANDARD_DECK.issuperset(cards):
        unknown = [c for c in cards if c not in STANDARD_DECK]
        return reject(
            state,
            seat,
            f"unknown card(s) {unknown}",
            rules.cite("nonstandard_card"),
            "unknown_card",
        )
    seen = cards_in_play(state)
    if seen.isdisjoint(cards) and len(set(cards)) == len(cards):
        return None
    dup = [c for c in cards if c in seen] + [c for i, c in enumerate(cards) if c in cards[:i]]
    if dup:
        return reject(
            state,
            seat,
            f"card(s) {dup} are already in play: fouled deck?",
            rules.cite("fouled_deck"),
            "duplicate_card",
        )
    return None
