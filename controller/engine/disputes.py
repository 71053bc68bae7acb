"""Disputed hands and pots (R22): is a dispute still in time? Pure; the TD rules on it.

TDA 2024 R22: the reading of a tabled hand may be disputed until the next hand begins; an
accounting error (calculating or awarding the pot) until substantial action on the next
hand; a hand that finished during a break, until one minute after the pot was awarded.
TDA 2011 R18: until a new hand begins. ACE R22: before the dealer picks up the cards,
which no reader sees: once the hand is over and the next has not begun, the TD is told to
check that.

>>> from pokertable.controller.rules.profiles import load_profile
>>> facts = DisputeFacts(hand_id="h1", finished_at_ms=1000, finished_in_break=False,
...     next_hand_started=True, next_hand_sa=False, now_ms=5000)
>>> judge(facts, DisputeKind.READING, load_profile("tda-2024")).in_time
False
>>> judge(facts, DisputeKind.ACCOUNTING, load_profile("tda-2024")).in_time
True
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pokertable.controller.rules import DisputeWindows, RuleProfile

BREAK_WINDOW_MS = 60_000  # R22: one minute after the pot is awarded, for a hand ended in a break


class DisputeKind(StrEnum):
    READING = "reading"  # the reading of a tabled hand
    ACCOUNTING = "accounting"  # calculating or awarding the pot


@dataclass(frozen=True, slots=True, kw_only=True)
class DisputeFacts:
    """What the table knows about the disputed hand and what followed it."""

    hand_id: str
    finished_at_ms: int
    finished_in_break: bool
    next_hand_started: bool
    next_hand_sa: bool  # substantial action on the next hand (R36)
    now_ms: int


@dataclass(frozen=True, slots=True)
class Verdict:
    in_time: bool
    text: str
    ask_floor_about_cards: bool = False  # ACE: in time only if the cards were not picked up


def judge(facts: DisputeFacts, kind: DisputeKind, rules: RuleProfile) -> Verdict:
    """Whether a dispute of ``kind`` about ``facts.hand_id`` is still in time (R22)."""
    hand = facts.hand_id
    if rules.dispute_windows is DisputeWindows.NEW_HAND:
        if facts.next_hand_started:
            return Verdict(False, f"a new hand has begun: hand {hand} can no longer be disputed")
        return Verdict(True, f"hand {hand} may be disputed until a new hand begins")
    if rules.dispute_windows is DisputeWindows.CARDS_PICKED_UP:
        if facts.next_hand_started:
            return Verdict(False, f"the cards of hand {hand} were picked up: too late to dispute")
        return Verdict(True, f"hand {hand} may be disputed if the dealer has not yet picked up "
                       "the cards", ask_floor_about_cards=True)
    if facts.finished_in_break and facts.now_ms - facts.finished_at_ms > BREAK_WINDOW_MS:
        return Verdict(False, f"hand {hand} ended during a break: disputes end one minute "
                       "after the pot was awarded")
    if kind is DisputeKind.READING:
        if facts.next_hand_started:
            return Verdict(False, f"the next hand has begun: the reading of hand {hand} "
                           "stands")
        return Verdict(True, f"the reading of hand {hand} may be disputed until the next hand "
                       "begins")
    if facts.next_hand_sa:
        return Verdict(False, f"substantial action on the next hand: the pot of hand {hand} "
                       "stands")
    return Verdict(True, f"the pot of hand {hand} may be disputed until substantial action on "
                   "the next hand")
