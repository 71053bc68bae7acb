"""At your seat (R30), penalties (R71-C) and hands killed by the dealer (R65).

A player must be within reach of his chair when the last card of the initial deal lands;
otherwise his hand is killed at once and his posted blinds and antes stay in the pot (a
dead big blind still sets the amount to call). Players on penalty are dealt in and killed
the same way. Presence is not RFID-observable, so ``Absent``/``Present`` are dealer entries.
"""

from __future__ import annotations

from pokertable.controller.engine.events import DeadAtDeal, KillAtDeal
from pokertable.controller.engine.model import evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert
from pokertable.controller.irregularities.hand import Step, TrackedHand, apply_engine, live_seat
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.rules import RuleProfile


def set_presence(t: TrackedHand, seat: int, present: bool, rules: RuleProfile) -> Step:
    absent = t.absent - {seat} if present else t.absent | {seat}
    t = evolve(t, absent=absent)
    if not present and t.deal.closed and live_seat(t, seat) and not t.over:
        return t, [alert(rules, ("leave_table",), "left_with_live_hand",
                         f"seat {seat} left the table with a live hand: players must stay for "
                         "every betting round and the showdown; subject to penalty (R31)",
                         seat=seat)]
    return t, []


def kill_at_deal(t: TrackedHand, rules: RuleProfile) -> Step:
    """At the end of the initial deal: kill absent (R30) and penalised (R71-C) players' hands."""
    rulings: list[Ruling] = []
    for s in t.hand.seats:
        if s.seat in t.absent:
            why, concept = "was not at his seat when the last card was dealt", "at_seat"
        elif s.seat in t.on_penalty:
            why, concept = "is on penalty", "penalty_hand"
        elif s.seat in t.kill_at_deal:
            why, concept = "was away for the original deal", "redeal"
        else:
            continue
        if t.hand.variant.is_stud:
            # RP-10-C, R30, R71-C: the engine kills it; dealt the bring-in card he posts it
            reason = DeadAtDeal.PENALTY if concept == "penalty_hand" else DeadAtDeal.ABSENT
            t, said = apply_engine(t, KillAtDeal(s.seat, reason), rules)
            out = tuple(said)
            if t.hand.seat(s.seat).in_hand:  # the floor decides (a FLOOR ruling): not yet
                rulings += out
                continue
        else:
            hand, out = kill_hand(t.hand, s.seat, rules, refund_uncalled=False)
            t = evolve(t, hand=hand)
        t = evolve(t, killed=(*t.killed, s.seat))
        rulings.append(alert(rules, (concept,), "dead_hand_at_deal",
                             f"seat {s.seat} {why}: kill the hand now (the player may not look "
                             "at the cards); posted blinds and antes stay in the pot",
                             seat=s.seat, kind=RulingKind.INFO))
        rulings += out
    return t, rulings


def killed_at_deal(t: TrackedHand, event: KillAtDeal, rules: RuleProfile) -> Step:
    """Stud: the floor's answer on who brings in for a hand killed at the deal (RP-10-C
    left to the floor, TDA 2011): the engine kills it, and the seat is published among the
    killed hands as one the table killed itself (``kill_at_deal``)."""
    was_live = live_seat(t, event.seat)
    t, said = apply_engine(t, event, rules)
    if was_live and not live_seat(t, event.seat):
        t = evolve(t, killed=(*t.killed, event.seat))
    return t, said


def dealer_killed(t: TrackedHand, seat: int, rules: RuleProfile) -> Step:
    """R65-A: no redress, called bets stay, an uncalled bet or raise goes back."""
    if not live_seat(t, seat) or t.over:
        return t, [alert(rules, ("fouled_hand",), "kill_not_live",
                         f"seat {seat} has no live hand to kill", seat=seat)]
    hand, out = kill_hand(t.hand, seat, rules, refund_uncalled=True)
    t = evolve(t, hand=hand, killed=(*t.killed, seat))
    return t, [alert(rules, ("fouled_hand",), "hand_killed",
                     f"seat {seat}'s hand is dead: no refund of called bets; an uncalled bet "
                     "is returned (R65-A)", seat=seat, kind=RulingKind.INFO), *out]
