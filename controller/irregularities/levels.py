"""Levels (R23): a new level applies to the next hand; the hand-start event freezes it.

A hand begins on the first riffle, the shuffler button or the dealer push. A level
announced after that waits for the next hand; a level that starts during a dealer push
gives the incoming dealer one more hand at the prior level. A hand started at the prior
level by mistake is corrected before substantial action and continues after it.

>>> from pokertable.controller.engine.model import Level
>>> from pokertable.controller.irregularities.events import HandStart, HandStartKind, LevelStarted
>>> clock = LevelClock(current=Level(number=1, small_blind=100, big_blind=200))
>>> clock, _ = level_started(clock, LevelStarted(Level(number=2, small_blind=150,
...     big_blind=300), during_dealer_push=True))
>>> clock, level = hand_started(clock, HandStart(HandStartKind.DEALER_PUSH))
>>> level.number
1
>>> clock, level = hand_started(clock, HandStart(HandStartKind.FIRST_RIFFLE))
>>> level.number
2
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import DealHole
from pokertable.controller.engine.model import Level, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert
from pokertable.controller.irregularities.events import HandStart, LevelStarted
from pokertable.controller.irregularities.hand import Step, TrackedHand
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.rules import TDA_2024, RuleProfile


@dataclass(frozen=True, slots=True, kw_only=True)
class LevelClock:
    current: Level  # the level the next hand is dealt at
    waiting: Level | None = None  # announced during a dealer push
    hands_before_waiting: int = 0  # hands still dealt at ``current`` before ``waiting`` starts


def level_started(
    clock: LevelClock, event: LevelStarted, rules: RuleProfile = TDA_2024
) -> tuple[LevelClock, Ruling]:
    """Announce a level; it never touches the hand already begun (R23)."""
    if event.during_dealer_push and rules.level_push_extra_hand:
        clock = evolve(clock, waiting=event.level, hands_before_waiting=1)
        text = (f"level {event.level.number} started during the dealer push: the incoming "
                f"dealer deals one more hand at level {clock.current.number} (R23)")
    else:
        clock = LevelClock(current=event.level)
        text = f"level {event.level.number} applies from the next hand (R23)"
    return clock, Ruling(RulingKind.INFO, (rules.cite("level_change"),), text, code="level_started")


def hand_started(clock: LevelClock, event: HandStart) -> tuple[LevelClock, Level]:
    """The level this hand is dealt at; it stays for the hand (and its re-deal, R35-C)."""
    if clock.waiting is not None:
        if clock.hands_before_waiting > 0:
            return evolve(clock, hands_before_waiting=clock.hands_before_waiting - 1), clock.current
        clock = LevelClock(current=clock.waiting)
    return clock, clock.current


def correct_level(t: TrackedHand, level: Level, rules: RuleProfile) -> Step:
    """The floor finds the hand began at the wrong level: fix it before SA only (R23)."""
    if t.hand.level == level:
        return t, []
    if t.sa(rules):
        return t, [alert(rules, ("level_change", "substantial_action"), "level_stands",
                         f"this hand started at level {t.hand.level.number} by mistake but "
                         "substantial action has occurred: it continues at that level; level "
                         f"{level.number} starts with the next hand (R23)")]
    setup = evolve(t.setup, level=level)
    rebuilt, out = rebuild(t, setup, rules)
    if rebuilt is None:
        return t, out
    return rebuilt, [alert(rules, ("level_change",), "level_corrected",
                           f"no substantial action yet: the hand is corrected to level "
                           f"{level.number} ({level.small_blind}-{level.big_blind}); adjust the "
                           "posted blinds and antes (R23)", kind=RulingKind.INFO), *out]


def rebuild(t: TrackedHand, setup: HandSetup, rules: RuleProfile) -> tuple[
    TrackedHand | None, list[Ruling]
]:
    """Replay the hand so far on a corrected setup (level or positions), before SA."""
    hand, _ = engine.start_hand(setup, rules)
    for old in t.hand.seats:
        if old.hole and hand.has_seat(old.seat):
            hand, _ = engine.step(hand, DealHole(old.seat, old.hole), rules)
    for seat in t.killed:
        if hand.has_seat(seat):
            hand, _ = kill_hand(hand, seat, rules, refund_uncalled=False)
    for action in t.played:
        hand, out = engine.step(hand, action, rules)
        if any(r.kind is RulingKind.REJECTED for r in out):
            return None, [alert(rules, ("level_change", "reader_fault"), "rebuild_failed",
                                f"cannot replay seat {action.seat}'s {action.kind} on the "
                                "corrected hand: the floor decides", seat=action.seat,
                                kind=RulingKind.FLOOR, options=("keep", "misdeal"))]
    return evolve(t, hand=hand, setup=setup), []
