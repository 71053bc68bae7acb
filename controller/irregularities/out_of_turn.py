"""Action out of turn (R53) and non-standard folds (R58).

The engine only takes actions in turn. An action from another live seat is held here:
the action backs up to the seat on turn, and when the action reaches the out-of-turn
player his action binds if the action to him did not change (checks, calls and folds in
between do not change it; a bet or raise does). An OOT fold always binds. If the skipped
player stays silent until the OOT actions after him amount to substantial action, they
bind and the floor decides what happens to the skipped hand (R53-B).
"""

from __future__ import annotations

from pokertable.controller.engine import betting
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert, floor
from pokertable.controller.irregularities.events import FloorDecision, SkippedChoice
from pokertable.controller.irregularities.hand import (
    PendingOot,
    Step,
    TrackedHand,
    apply_engine,
    betting_open,
)
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.irregularities.substantial import is_substantial
from pokertable.controller.rules import RuleProfile

_CHIPS_IN = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)
_AGGRESSIVE = (ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN)


def _describe(action: PlayerAction) -> str:
    return f"{action.kind} to {action.amount}" if action.amount is not None else str(action.kind)


def _reject(rules: RuleProfile, concept: str, code: str, text: str, seat: int | None) -> Ruling:
    return Ruling(RulingKind.REJECTED, (rules.rule_id(concept),), text, seat=seat, code=code)


def on_action(t: TrackedHand, action: PlayerAction, rules: RuleProfile) -> Step:
    """A player action from the interpretation layer: in turn to the engine, OOT held here."""
    seat = action.seat
    if t.board.four_card_flop:
        return t, [_reject(rules, "four_card_flop", "waiting_for_floor",
                           "the floor is fixing a four-card flop: no action yet", seat)]
    if t.oot.floor_pending == seat:
        return t, [_reject(rules, "skipped_player", "waiting_for_floor",
                           f"the floor has not yet ruled on skipped seat {seat}", seat)]
    if seat in t.oot.limited and action.kind in _AGGRESSIVE:
        return t, [_reject(rules, "skipped_player", "limited_to_call_or_fold",
                           f"the floor limited seat {seat} to call or fold", seat)]
    hand = t.hand
    on_turn = hand.action_on
    if betting_open(t) and seat != on_turn and hand.has_seat(seat) and (
        hand.seat(seat).status is SeatStatus.LIVE
    ):
        return _hold(t, action, rules)
    t, rulings = apply_engine(t, action, rules)
    if any(r.kind is RulingKind.REJECTED for r in rulings):
        return t, rulings
    t, more = resolve_pending(t, rules)
    return t, rulings + more


def _hold(t: TrackedHand, action: PlayerAction, rules: RuleProfile) -> Step:
    hand = t.hand
    on_turn = hand.action_on
    assert on_turn is not None
    if any(p.action.seat == action.seat for p in t.oot.pending):
        return t, [_reject(rules, "acting_in_turn", "oot_repeated",
                           f"seat {action.seat} already has an action out of turn waiting",
                           action.seat)]
    pending = PendingOot(action, on_turn, hand.call_to, hand.street)
    t = evolve(t, oot=evolve(t.oot, pending=(*t.oot.pending, pending)))
    fold = action.kind is ActionKind.FOLD
    concepts = ("acting_in_turn", "nonstandard_fold") if fold else ("acting_in_turn",)
    binding = ("An OOT fold is binding." if fold else
               f"It binds if the action to seat {action.seat} does not change (a check, call or "
               "fold does not change it; a bet or raise does, and then he has all options).")
    rulings = [
        alert(rules, concepts, "out_of_turn",
              f"Seat {action.seat} acted out of turn ({_describe(action)}) while the action is "
              f"on seat {on_turn}: back the action up to seat {on_turn}. {binding}",
              seat=action.seat),
        alert(rules, concepts, "penalty_candidate",
              f"seat {action.seat}: action out of turn is subject to penalty", seat=action.seat),
    ]
    t, more = _check_skipped(t, on_turn, rules)
    return t, rulings + more


def _check_skipped(t: TrackedHand, skipped: int, rules: RuleProfile) -> Step:
    """R53-B: substantial action out of turn after a silent skipped player."""
    if skipped in t.oot.referred:
        return t, []
    after = [p for p in t.oot.pending if p.skipped == skipped and p.street is t.hand.street]
    pairs = [(str(p.action.kind), p.action.kind in _CHIPS_IN) for p in after]
    if not is_substantial(pairs, rules):
        return t, []
    bound = tuple(
        evolve(p, bound=True) if p.skipped == skipped else p for p in t.oot.pending
    )
    t = evolve(t, oot=evolve(t.oot, pending=bound, floor_pending=skipped,
                             referred=t.oot.referred | {skipped}))
    seats = ", ".join(str(p.action.seat) for p in after)
    return t, [floor(rules, ("skipped_player",), "skipped_player",
                     f"Substantial action out of turn after skipped seat {skipped} (seats "
                     f"{seats}): those actions are binding. Call the floor to rule on seat "
                     f"{skipped}'s hand, then the action backs up to him (R53-B).",
                     tuple(str(c) for c in SkippedChoice), seat=skipped)]


def floor_decision(t: TrackedHand, event: FloorDecision, rules: RuleProfile) -> Step:
    """R53-B: the floor's choice for the skipped seat (one question is open at a time)."""
    seat = t.oot.floor_pending
    if seat is None:
        return t, [_reject(rules, "skipped_player", "no_floor_question",
                           f"no floor decision is pending for a skipped seat "
                           f"({event.ruling_id})", None)]
    if event.option not in {str(c) for c in SkippedChoice}:
        return t, [_reject(rules, "skipped_player", "unknown_floor_option",
                           f"{event.option!r} is not one of "
                           f"{[str(c) for c in SkippedChoice]}", seat)]
    choice = SkippedChoice(event.option)
    t = evolve(t, oot=evolve(t.oot, floor_pending=None))
    rulings: list[Ruling] = [alert(rules, ("skipped_player",), "floor_ruled",
                                   f"floor: seat {seat} {choice}", seat=seat,
                                   kind=RulingKind.INFO)]
    if choice is SkippedChoice.DEAD_HAND:
        hand, out = kill_hand(t.hand, seat, rules, refund_uncalled=True)
        t = evolve(t, hand=hand, killed=(*t.killed, seat))
        rulings += out
        t, more = resolve_pending(t, rules)
        return t, rulings + more
    if choice is SkippedChoice.CALL_OR_FOLD_ONLY:
        t = evolve(t, oot=evolve(t.oot, limited=t.oot.limited | {seat}))
    t, more = resolve_pending(t, rules)
    return t, rulings + more


def resolve_pending(t: TrackedHand, rules: RuleProfile) -> Step:
    """Apply or void held OOT actions as the action reaches their seats."""
    rulings: list[Ruling] = []
    stale = [p for p in t.oot.pending if p.street is not t.hand.street or t.over]
    if stale:
        t = evolve(t, oot=evolve(t.oot, pending=tuple(
            p for p in t.oot.pending if p not in stale)))
        for p in stale:
            rulings.append(alert(rules, ("acting_in_turn",), "oot_lapsed",
                                 f"seat {p.action.seat}'s out-of-turn {_describe(p.action)} "
                                 "lapsed: the betting round ended before the action reached "
                                 "him", seat=p.action.seat, kind=RulingKind.INFO))
    while betting_open(t) and t.oot.floor_pending is None:
        on_turn = t.hand.action_on
        held = next((p for p in t.oot.pending if p.action.seat == on_turn), None)
        if held is None:
            break
        t = evolve(t, oot=evolve(t.oot, pending=tuple(p for p in t.oot.pending if p != held)))
        changed = t.hand.call_to != held.faced_call_to
        seat = held.action.seat
        if held.action.kind is ActionKind.FOLD or not changed:
            t, out = apply_engine(t, held.action, rules)
            if any(r.kind is RulingKind.REJECTED for r in out):
                opts = betting.options_for(t.hand, rules)
                can = _options_text(t, rules)
                rulings.append(alert(
                    rules, ("acting_in_turn", "check_facing_bet"), "oot_not_valid",
                    f"seat {seat}'s out-of-turn {_describe(held.action)} is not a legal action "
                    f"now; he may {can}", seat=seat,
                    options=_options(opts)))
                break
            why = "binding (R53-B)" if held.bound else "binding: the action to him did not change"
            rulings.append(alert(rules, ("acting_in_turn",), "oot_binding",
                                 f"seat {seat}'s out-of-turn {_describe(held.action)} is {why}",
                                 seat=seat, kind=RulingKind.BINDING))
            rulings += out
            continue
        opts = betting.options_for(t.hand, rules)
        text = (f"the action to seat {seat} changed (now {t.hand.call_to} to call, was "
                f"{held.faced_call_to}): his out-of-turn {_describe(held.action)} does not bind; "
                f"any chips go back to him and he has all options: {_options_text(t, rules)}")
        kind = RulingKind.ALERT
        if held.bound:
            text = (f"seat {seat}'s out-of-turn {_describe(held.action)} was bound by R53-B but "
                    f"the action to him changed: the floor rules; options now "
                    f"{_options_text(t, rules)}")
            kind = RulingKind.FLOOR
        options = _options(opts)
        if held.bound:
            options += _stands(held.action, opts)
        rulings.append(alert(rules, ("acting_in_turn",), "oot_void", text, seat=seat,
                             kind=kind, options=options))
        break
    return t, rulings


def _options(opts: betting.Options | None) -> tuple[str, ...]:
    if opts is None:
        return ()
    out = ["fold", "check" if opts.can_check else f"call {opts.to_call}"]
    if opts.can_raise:
        out.append(f"{'bet' if opts.can_check else 'raise'} to {opts.min_to}..{opts.max_to}")
    return tuple(out)


def _stands(action: PlayerAction, opts: betting.Options | None) -> tuple[str, ...]:
    """The bound bet or raise itself, as a choice for the floor, if it is still legal."""
    if opts is None or not opts.can_raise or action.kind not in _AGGRESSIVE:
        return ()
    to = opts.all_in_to if action.kind is ActionKind.ALL_IN else action.amount
    if to is None or not opts.min_to <= to <= opts.max_to:
        return ()
    return (f"{'bet' if opts.can_check else 'raise'} to {to}",)


def _options_text(t: TrackedHand, rules: RuleProfile) -> str:
    return ", ".join(_options(betting.options_for(t.hand, rules))) or "nothing"
