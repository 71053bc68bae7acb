"""The event runner behind ``InterpretedHand.step``: one event, run to completion.

``EventRun`` is the only mutable object of the layer and lives for one event: it routes chips,
words, floor decisions and pot counts, decides actions and yields them to its caller as
``Apply`` decisions (applied by ``engine.step`` on its own; at the live table by the
irregularities layer's ``TrackedHand`` step, which also holds out-of-turn actions, R53), and
keeps the betting zones in step with the hand (prior chips, chips owed, change, R52 replays).
"""

from __future__ import annotations

from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import (
    ActionKind,
    PlayerAction,
)
from pokertable.controller.engine.model import (
    Betting,
    HandState,
    Phase,
    SeatStatus,
    evolve,
)
from pokertable.controller.engine.rulings import FloorDecision, Ruling, RulingKind
from pokertable.controller.interpretation import floor as floors
from pokertable.controller.interpretation import held
from pokertable.controller.interpretation.chips import ZoneView, read_chips
from pokertable.controller.interpretation.context import BetContext, context_for
from pokertable.controller.interpretation.decisions import EngineEvent, Steps
from pokertable.controller.interpretation.declarations import combine
from pokertable.controller.interpretation.events import (
    KNOWN_KINDS,
    ChipMotion,
    ChipsFoundBehind,
    CountErrorNoticed,
    Declaration,
    DeclKind,
    PotCountGiven,
    Precedence,
    PriorChipsPulled,
    chip_value,
)
from pokertable.controller.interpretation.late import (
    BlindRead,
    ShortBetNoticed,
    blind_chips_first,
    blind_inside,
    correct_short_bet,
    count_on_earlier_street,
    on_option,
    undercall_in_sequence,
)
from pokertable.controller.interpretation.outcome import FloorRuling, Interpretation
from pokertable.controller.interpretation.pot_limit import judge_count_error, quote
from pokertable.controller.interpretation.raises import call
from pokertable.controller.interpretation.run_base import EventRunBase, TableEvent
from pokertable.controller.interpretation.stud_chips import bring_in_reading, declared_bring_in
from pokertable.controller.interpretation.zones import LogEntry, SeatZone, remove_chips
from pokertable.controller.rules import OverbetChange


class EventRun(EventRunBase):
    """Scratch for one event: the only mutable object, discarded when the event is done."""

    # --- dispatch ------------------------------------------------------------------------

    def handle(self, event: TableEvent) -> Steps[None]:
        match event:
            case ChipMotion():
                yield from self._motion(event)
            case PriorChipsPulled():
                self._pull(event)
            case Declaration():
                yield from self._declaration(event)
            case FloorDecision():
                yield from self._decide(event)
            case PotCountGiven():
                self._count(event)
            case CountErrorNoticed():
                yield from self._count_error()
            case ChipsFoundBehind():
                self._found_behind(event)
            case ShortBetNoticed():
                yield from correct_short_bet(self, event)
            case _:
                yield from self._engine_event(event)

    # --- chips ---------------------------------------------------------------------------

    def _motion(self, event: ChipMotion) -> Steps[None]:
        if self._owed_by_folded(event.seat):  # they pay what he owes; any more is change
            zone = self.zone(event.seat)
            yield from self._fulfil(event.seat, evolve(zone, motion=zone.motion + event.chips))
            return
        if not self._seat_ok(event.seat, "chips arrived"):
            return
        bad = [c for c in event.chips if c.kind not in KNOWN_KINDS
               or (c.has_value and c.denomination <= 0)]
        if bad or not event.chips:
            self.alert(event.seat, "foreign_chip",
                       f"seat {event.seat}: chips with unknown tag or value {bad or '(none)'}; "
                       "nothing counted", "unknown_chip")
            return
        last = self.pending.log[-1].action.seat if self.pending.log else None
        if self.state.phase is not Phase.BETTING and not (
                self.zone(event.seat).awaits or last == event.seat):
            self.alert(event.seat, "in_turn_binding",
                       f"seat {event.seat}: chips in the betting zone while no betting round is "
                       "open", "no_betting_round")
            return
        items = sorted({c.kind for c in event.chips if not c.has_value})
        if items:
            self.alert(event.seat, "non_value_items", f"seat {event.seat}: {', '.join(items)} in "
                       "the betting zone: no value, never counted", "non_value_item")
        zone = self.zone(event.seat)
        if zone.motion_open and event.at_ms - zone.motion_last_ms > self.rules.motion_window_ms:
            self.put(evolve(zone, motion_open=False))
            yield from self._settled(event.seat, zone_read=event.zone_read)
            zone = self.zone(event.seat)
        self.put(evolve(zone, motion=zone.motion + event.chips, motion_open=not event.settled,
                        motion_last_ms=event.at_ms,
                        combined_gesture=zone.combined_gesture or event.combined_gesture))
        if event.settled:
            yield from self._settled(event.seat, event.at_ms, zone_read=event.zone_read)

    def _settled(self, seat: int, at_ms: int = 0, *, zone_read: bool = False) -> Steps[None]:
        if not self._ante_first(seat):  # a blind's posted ante first: the pot's (RP-11)
            return
        late = BlindRead.NOT_LATE
        if zone_read and seat == self.state.action_on:
            late = blind_chips_first(self, seat)
            if late is BlindRead.LATE:
                return  # his blind put out late: play stays on him (Add. 46)
        zone, me = self.zone(seat), self.state.seat(seat)
        if seat == self.state.action_on and self._blocked_for(seat) is None:
            yield from self._rule_turn(seat, zone, at_ms, inside=late is BlindRead.INSIDE)
            return
        if (self.pending.log and self.pending.log[-1].action.seat == seat) or zone.owed:
            yield from self._fulfil(seat, zone)
            return
        if not me.acted and chip_value(zone.prior) < me.bet and seat != self.state.action_on:
            self._as_posted(zone)  # posting a blind: these chips are the posted bet (Add. 46)
            return
        blocking = self._blocked_for(seat)
        if blocking is not None and blocking.topic == "" and \
                zone.view(me.bet).value < self.state.call_to \
                and "51B" in " ".join(blocking.rule_ids):
            self.alert(seat, "undercall_sequence",
                       f"seat {seat} undercalled while seat {blocking.seat}'s undercall awaits "
                       "the floor: play backs up to the first undercaller; the TD decides how "
                       "the later bettors' chips are treated", "undercall_sequence")
        elif blocking is not None:
            self.alert(seat, "wait_for_amount",
                       f"seat {seat} put chips out before seat {blocking.seat}'s ruling: held "
                       "until the floor decides", "amount_pending")
        elif not (yield from self._hold_out_of_turn(zone, at_ms)):
            self.alert(seat, "acting_in_turn",
                       f"seat {seat} put {zone.value} out of turn (action on seat "
                       f"{self.state.action_on}): chips held", "out_of_turn")

    def _as_posted(self, zone: SeatZone) -> None:
        """The open motion joins the prior chips: a blind's posted chips, no action."""
        self.put(evolve(zone, prior_start=zone.prior_start + zone.motion,
                        prior=zone.prior + zone.motion, motion=()))

    def _hold_out_of_turn(self, zone: SeatZone, at_ms: int,
                          decl: Declaration | None = None) -> Steps[bool]:
        """R53-A: chips or words out of turn are the action they would be now; the applying
        layer holds it until the action reaches the seat (the engine alone refuses it)."""
        if zone.held:
            return False
        reading = (held.reading_out_of_turn(self.state, zone, self.rules) if decl is None
                   else held.words_out_of_turn(self.state, decl, zone, self.rules))
        action = reading.player_action(at_ms) if reading is not None else None
        if action is None:
            return False
        new, out = yield from self.decide(action)
        if any(r.kind is RulingKind.REJECTED for r in out):
            return False
        # Held words hold the chips that follow them too: they are the same action (R53-A).
        self.put(evolve(zone, held=bool(zone.motion) or decl is not None))
        self.rulings.extend(out)
        self.state = new
        return True

    def _rule_turn(self, seat: int, zone: SeatZone, at_ms: int, *,
                   inside: bool = False) -> Steps[None]:
        ctx, own = self.ctx(seat), self.state.seat(seat).bet
        if ctx is None:
            return
        if inside:
            ctx = blind_inside(ctx)  # the chips hold his unseen blind (Add. 46)
        view = zone.view(ctx.own)
        if zone.declaration is not None:
            reading = combine(ctx, zone.declaration, view, True, self.rules)
        else:  # stud: the first chips on third street are the bring-in or the completion
            reading = bring_in_reading(self.state, view, self.rules) or read_chips(
                ctx, view, self.rules)
        reading = undercall_in_sequence(self, on_option(reading, own) if inside else reading)
        yield from self._apply(self._restrict(reading, zone, ctx), at_ms)

    def _fulfil(self, seat: int, zone: SeatZone) -> Steps[None]:
        """Chips after this seat's ruling: they pay what is owed; the rest is change or R56."""
        value = chip_value(zone.motion)
        pay = min(value, zone.owed)
        excess = value - pay
        last = self.pending.log[-1] if self.pending.log else None
        mine_last = last is not None and last.action.seat == seat
        zone = evolve(zone, prior_start=zone.prior_start + zone.motion,
                      prior=zone.prior + zone.motion, motion=(), owed=zone.owed - pay)
        if excess and zone.chip_defined and mine_last:
            total = self.state.seat(seat).bet
            ruling = floors.string_bet(seat, total, excess, self.state.action_on is not None,
                                       self.rules)
            self.put(zone)
            self.alert(seat, "string_bet", f"seat {seat}: a second motion of {excess} after "
                       f"the bet of {total} was ruled: string bet", "string_bet")
            self._register(ruling, seat)
            return
        if excess and mine_last and last is not None and (yield from self._overbet_after_call(
                seat, zone, last, value, excess)):
            return
        if excess:
            zone = evolve(zone, change=zone.change + excess)
        self.put(zone)
        me = self.state.seat(seat)
        text = (f"seat {seat} still owes {zone.owed}" if zone.owed
                else f"seat {seat}'s bet of {me.bet} is complete")
        if excess:
            text += f"; {excess} is change"
        self.interps.append(Interpretation(
            seat=seat, action=None, total=me.bet, returned=excess, add=zone.owed,
            rule_ids=(self.rules.cite("general_declaration"),), text=text, kind=RulingKind.INFO,
            code="owed" if zone.owed else "paid"))
        self.rulings.append(self.interps[-1].to_ruling())

    def _overbet_after_call(self, seat: int, zone: SeatZone, last: LogEntry, value: int,
                            excess: int) -> Steps[bool]:
        """ACE R61: over-betting unasked is a raise "even if you declare call"."""
        if (self.rules.overbet_change is not OverbetChange.RAISE_EVEN_IF_CALL_DECLARED
                or last.action.kind is not ActionKind.CALL or zone.chip_defined
                or last.before.seat(seat).bet or chip_value(zone.prior) != value):
            return False
        ctx = context_for(last.before, seat, self.rules)
        if ctx is None:
            return False
        reading = read_chips(ctx, ZoneView.fresh(*zone.prior), self.rules)
        if reading.action not in (ActionKind.RAISE, ActionKind.ALL_IN) or \
                reading.total <= ctx.call_to or reading.floor is not None:
            return False
        self.put(evolve(zone, owed=0))
        if not (yield from self._amend_last(seat, reading.total)):
            return False
        zone = self.zone(seat)
        self.put(evolve(zone, owed=max(0, zone.owed - excess)))
        why = (f"seat {seat} declared call but pushed {value} unasked: a raise to "
               f"{reading.total} even though call was declared (house rule)")
        self._note(evolve(reading, text=why, rule_ids=tuple(dict.fromkeys(
            (*reading.rule_ids, self.rules.cite("overbet_change")))), returned=0,
            add=self.zone(seat).owed, kind=RulingKind.CORRECTED, code="overbet_raise"))
        return True

    def _pull(self, event: PriorChipsPulled) -> None:
        if not self._seat_ok(event.seat, "chips pulled back"):
            return
        zone = self.zone(event.seat)
        left = remove_chips(zone.prior, event.chips)
        if left is None or not event.chips:
            self.alert(event.seat, "prior_chips", f"seat {event.seat}: pulled chips "
                       f"{[c.denomination for c in event.chips]} are not prior chips in the "
                       "zone", "pull_unknown_chips")
            return
        if event.fully is not None and event.fully != (not left):
            self.alert(event.seat, "prior_chips", f"seat {event.seat}: reported fully={event.fully}"
                       f" but {len(left)} prior chip(s) remain", "pull_mismatch")
            return
        if event.by_dealer:
            start = remove_chips(zone.prior_start, event.chips) or ()
            value = chip_value(event.chips)
            self.put(evolve(zone, prior=left, prior_start=start,
                            change=max(0, zone.change - value)))
            return
        me = self.state.seat(event.seat)
        facing = self.state.call_to > me.bet
        self.put(evolve(zone, prior=left, no_fold=zone.no_fold or facing))
        if facing:
            self.rulings.append(Ruling(
                RulingKind.BINDING, (self.rules.cite("prior_chips_pulled"),),
                f"seat {event.seat} pulled back prior chips facing a raise: he must call or "
                "raise, he may not fold", seat=event.seat, code="pulled_back_bound"))

    # --- words ---------------------------------------------------------------------------

    def _declaration(self, decl: Declaration) -> Steps[None]:
        if not self._seat_ok(decl.seat, f"a '{decl.kind}' declaration"):
            return
        amount = decl.amount
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)
                                   or amount <= 0):
            self.alert(decl.seat, "declaration_forms",
                       f"seat {decl.seat}: declared amount {amount!r} is not a positive whole "
                       "number of chips", "bad_amount")
            return
        waiting = self.pending.waiting_seat()
        blocking = self._blocked_for(decl.seat)
        if blocking is not None and blocking.seat == decl.seat:
            self.alert(decl.seat, "floor_discretion", f"seat {decl.seat} waits for floor ruling "
                       f"{blocking.ruling_id}", "floor_pending")
            return
        if (waiting is not None and waiting != decl.seat) or blocking is not None:
            on = waiting if waiting is not None else blocking.seat if blocking else decl.seat
            self.alert(decl.seat, "wait_for_amount", f"seat {decl.seat} acted before seat "
                       f"{on}'s amount was clear", "amount_pending")
            self._register(floors.premature(decl, on, self.rules), decl.seat)
            return
        if decl.seat != self.state.action_on:
            mine_last = bool(self.pending.log) and self.pending.log[-1].action.seat == decl.seat
            if mine_last and self.zone(decl.seat).chip_defined and decl.precedence in (
                    Precedence.VERBAL_FIRST, Precedence.SIMULTANEOUS) and (
                    yield from self._late_words(decl)):
                return
            if mine_last and decl.precedence is Precedence.CHIPS_FIRST:
                self.rulings.append(Ruling(
                    RulingKind.INFO, (self.rules.cite("verbal_chips"),),
                    f"seat {decl.seat}: the chips came first and defined the bet",
                    seat=decl.seat, code="chips_defined"))
                return
            if not (yield from self._hold_out_of_turn(self.zone(decl.seat), decl.at_ms, decl)):
                self.alert(decl.seat, "acting_in_turn", f"seat {decl.seat} declared {decl.kind} "
                           f"but the action is on seat {self.state.action_on}", "out_of_turn")
            return
        zone = self.zone(decl.seat)
        if decl.kind is DeclKind.FOLD and zone.no_fold:
            self.alert(decl.seat, "prior_chips_pulled", f"seat {decl.seat} pulled back prior "
                       "chips facing a raise: he may not fold; call or raise", "fold_not_allowed")
            return
        yield from self._words(decl, zone)

    def _words(self, decl: Declaration, zone: SeatZone) -> Steps[None]:
        ctx = self.ctx(decl.seat)
        if ctx is None:
            return
        chips_present = bool(zone.motion) and not zone.motion_open
        view = zone.view(ctx.own)
        reading = (declared_bring_in(self.state, decl, view.value, self.rules)  # stud
                   or combine(ctx, decl, view, chips_present, self.rules))
        if reading.waiting:
            self.put(evolve(zone, declaration=decl, waiting=True))
            self._note(reading)
            return
        if reading.code == "check_facing_bet":
            self.put(evolve(zone, no_raise=True))
            self._note(reading)
            return
        yield from self._apply(self._restrict(reading, zone, ctx), decl.at_ms)

    def _restrict(self, reading: Interpretation, zone: SeatZone,
                  ctx: BetContext) -> Interpretation:
        """R55: after "check" facing a bet only call or fold remain."""
        if not zone.no_raise or reading.action is None:
            return reading
        if reading.action in (ActionKind.BET, ActionKind.RAISE) or (
                reading.action is ActionKind.ALL_IN and reading.total > ctx.call_to):
            value = zone.view(ctx.own).value
            return call(ctx, value, (self.rules.cite("check_facing_bet"),),
                        "he said check facing a bet: he may call or fold only",
                        kind=RulingKind.CORRECTED)
        return reading

    def note_ruling(self, reading: Interpretation) -> None:
        """Publish an interpretation (for the correction modules beside the runner)."""
        self._note(reading)

    def amend(self, index: int, replacement: PlayerAction) -> Steps[bool]:
        """Replay this street with one action replaced (R52-A late corrections)."""
        return (yield from self._amend(index, replacement))

    # --- applying rulings ----------------------------------------------------------------

    def _apply(self, reading: Interpretation, at_ms: int) -> Steps[None]:
        if reading.floor is not None:
            zone = self.zone(reading.seat)
            self.put(evolve(zone, waiting=False))
            self._register(reading.floor, reading.seat, reading)
            return
        if reading.waiting or reading.action is None:
            self._note(reading)
            return
        given = self.pending.quote
        if given is not None and given.seat == reading.seat and reading.action is ActionKind.CALL:
            reading = evolve(reading, rule_ids=(*reading.rule_ids,
                                                self.rules.cite("accepted_action")))
        action = reading.player_action(at_ms)
        assert action is not None
        if not (yield from self._engine_action(action, reading)):
            return

    def _engine_event(self, event: EngineEvent) -> Steps[None]:
        if isinstance(event, PlayerAction):
            if not self._seat_ok(event.seat, f"a {event.kind}"):
                return
            blocking = self._blocked_for(event.seat)
            waiting = self.pending.waiting_seat()
            if blocking is not None or (waiting is not None and waiting != event.seat):
                self.alert(event.seat, "wait_for_amount",
                           f"seat {event.seat} must wait: a ruling or an amount is pending",
                           "amount_pending")
                return
            yield from self._engine_action(event, None)
            return
        new, out = yield from self.decide(event)
        self.rulings.extend(out)
        if any(r.kind is RulingKind.REJECTED for r in out):
            return
        self.state = new
        yield from self._after_engine()

    # --- floor decisions and amendments ---------------------------------------------------

    def _decide(self, decision: FloorDecision) -> Steps[None]:
        ruling = self.pending.floor(decision.ruling_id)
        if ruling is None:
            self.alert(None, "floor_discretion", f"no pending floor ruling "
                       f"{decision.ruling_id!r}", "unknown_floor_ruling")
            return
        option = ruling.option(decision.option)
        if option is None:
            self.alert(ruling.seat, "floor_discretion", f"ruling {ruling.ruling_id} has no option "
                       f"{decision.option!r}; options: {[o.name for o in ruling.options]}",
                       "unknown_floor_option")
            return
        if option.action is not None and ruling.topic == "" and \
                self.state.action_on != ruling.seat:
            self.alert(ruling.seat, "floor_discretion", f"seat {ruling.seat} is no longer on the"
                       " action; the ruling cannot be applied", "floor_stale")
            return
        self.pending = evolve(self.pending, floors=tuple(
            f for f in self.pending.floors if f.ruling_id != ruling.ruling_id))
        self.rulings.append(Ruling(RulingKind.INFO, ruling.rule_ids,
                                   f"floor chose '{option.name}': {option.text}",
                                   seat=ruling.seat, code="floor_decided"))
        zone = self.zone(ruling.seat)
        if ruling.topic == floors.PREMATURE:
            if option.name == "binding" and ruling.held is not None:
                self.put(evolve(zone, declaration=ruling.held, waiting=False))
            yield from self._after_engine()
            return
        if ruling.topic == floors.CHIPS_BEHIND:
            yield from self._chips_behind_decided(ruling, option.name == "in_action")
            return
        if ruling.topic == floors.STRING_BET:
            if option.action is None:
                self.put(evolve(zone, change=zone.change + ruling.excess))
            elif (yield from self._amend_last(ruling.seat, option.total)):
                zone = self.zone(ruling.seat)  # the later chips are already in the zone
                self.put(evolve(zone, owed=max(0, zone.owed - ruling.excess)))
            return
        if option.action is None:
            return
        own = self.state.seat(ruling.seat).bet
        value = zone.view(own).value
        reading = floors.chosen(ruling, option, decision, value, own)
        yield from self._apply(evolve(reading, chip_defined=bool(zone.motion)), decision.at_ms)

    def _amend_last(self, seat: int, total: int) -> Steps[bool]:
        index = max(i for i, e in enumerate(self.pending.log) if e.action.seat == seat)
        kind = ActionKind.RAISE if self.pending.log[index].before.call_to else ActionKind.BET
        return (yield from self._amend(index, PlayerAction(seat, kind, total)))

    def _amend(self, index: int, replacement: PlayerAction,
               start: HandState | None = None) -> Steps[bool]:
        """Replay this street from ``index`` with one action replaced (R40-A, R52, R56, R62)."""
        log = self.pending.log
        state = start or log[index].before
        new_log = list(log[:index])
        zones = [log[index].zone, *(e.zone for e in log[index + 1:])]
        for action, zone in zip((replacement, *(e.action for e in log[index + 1:])), zones,
                                strict=True):
            before = state
            state, out = engine.step(state, action, self.rules)
            if any(r.kind is RulingKind.REJECTED for r in out):
                self.alert(action.seat, "floor_discretion", f"correction not possible: seat "
                           f"{action.seat}'s {action.kind} no longer fits", "amend_failed")
                return False
            new_log.append(LogEntry(before, state, zone))
        old = self.state
        self.state = state
        self.pending = evolve(self.pending, log=tuple(new_log))
        for s in state.seats:
            diff = s.bet - old.seat(s.seat).bet
            if diff > 0:
                zone = self.zone(s.seat)
                self.put(evolve(zone, owed=zone.owed + diff))
        yield from self._after_engine()
        return True

    def _late_words(self, decl: Declaration) -> Steps[bool]:
        """R40-A: words spoken first but entered after the chips were ruled replace that ruling."""
        index = len(self.pending.log) - 1
        entry = self.pending.log[index]
        ctx = context_for(entry.before, decl.seat, self.rules)
        if entry.zone is None or ctx is None:
            return False
        zone = entry.zone
        reading = combine(ctx, decl, zone.view(ctx.own), True, self.rules)
        action = reading.player_action(decl.at_ms)
        if action is None:
            self.alert(decl.seat, "verbal_chips", f"seat {decl.seat}: words entered after the "
                       "chips were ruled do not give a clear action: the floor should look",
                       "late_words_unclear")
            return True
        note = " (words spoken first, entered after the chips: R40-A)"
        if action != entry.action and not (yield from self._amend(index, action)):
            return True
        chips = zone.prior + zone.motion
        self.put(evolve(self.zone(decl.seat).afresh(), prior_start=chips, prior=chips,
                        owed=reading.add, change=reading.returned))
        self._note(evolve(reading, text=reading.text + note,
                          rule_ids=(*reading.rule_ids, self.rules.cite("verbal_chips"))))
        return True

    # --- chips found behind an all-in (R62) -----------------------------------------------

    def _found_behind(self, event: ChipsFoundBehind) -> None:
        if not self._seat_ok(event.seat, "chips found behind"):
            return
        value = chip_value(event.chips)
        if self.state.seat(event.seat).status is not SeatStatus.ALL_IN or value <= 0:
            self.alert(event.seat, "chips_behind", f"seat {event.seat} is not all in (or the "
                       "chips have no value): nothing to rule", "not_all_in")
            return
        self._register(floors.chips_behind(event.seat, value, self.rules), event.seat)

    def _chips_behind_decided(self, ruling: FloorRuling, in_action: bool) -> Steps[None]:
        if not in_action:
            return
        seat = ruling.seat
        index = next((i for i in range(len(self.pending.log) - 1, -1, -1)
                      if self.pending.log[i].action.seat == seat), None)
        if index is None:  # the all-in's street is closed: the callers add it now (R62)
            count_on_earlier_street(self, seat, ruling.excess)
            return
        before = self.pending.log[index].before
        me = before.seat(seat)
        start = before.with_seat(evolve(me, stack=me.stack + ruling.excess))
        owed_before = self.zone(seat).owed
        if (yield from self._amend(index, PlayerAction(seat, ActionKind.ALL_IN), start)):
            self.put(evolve(self.zone(seat), owed=owed_before))  # the chips are already out

    # --- pot-limit counts (R54-A, R52-B) -------------------------------------------------

    def _count(self, event: PotCountGiven) -> None:
        if not self._seat_ok(event.seat, "a pot count"):
            return
        if self.state.variant.betting is not Betting.POT_LIMIT:
            self.alert(event.seat, "pot_count", "pot counts are given in pot limit only",
                       "no_pot_count")
            return
        given = quote(self.state, event.seat, event.quoted, self.rules)
        if given is None:
            self.alert(event.seat, "pot_count", f"seat {event.seat} is not on the action",
                       "count_not_in_turn")
            return
        self.pending = evolve(self.pending, quote=given)
        if given.quoted != given.correct:
            self.alert(event.seat, "pl_miscount", f"pot count quoted {given.quoted}; a pot-sized "
                       f"bet for seat {event.seat} is {given.correct}", "pot_miscount")

    def _count_error(self) -> Steps[None]:
        given = self.pending.quote
        if given is None:
            self.alert(None, "pl_miscount", "no pot count on this street to correct",
                       "no_count")
            return
        self.pending = evolve(self.pending, quote=None)
        verdict = judge_count_error(self.state, given, self.rules)
        ids = (self.rules.cite("pl_miscount"),)
        if verdict.code == "no_count_bet":
            self.alert(given.seat, "pl_miscount", verdict.text, verdict.code)
            return
        if verdict.code != "correct":
            quiet = verdict.code == "count_error_none"
            self.rulings.append(Ruling(RulingKind.INFO if quiet else RulingKind.ACCEPTED, ids,
                                       verdict.text, seat=given.seat, code=verdict.code))
            return
        index = next((i for i, e in enumerate(self.pending.log)
                      if len(e.before.actions) == given.actions_before), None)
        if index is None:
            self.alert(given.seat, "pl_miscount", f"seat {given.seat}'s bet is on an earlier "
                       "street: it stands", "count_error_late")
            return
        action = self.state.actions[given.actions_before]
        kind = ActionKind(action.kind)
        if (yield from self._amend(index, PlayerAction(given.seat, kind, given.correct))):
            self._note(Interpretation(
                seat=given.seat, action=kind, total=given.correct,
                add=given.correct - verdict.bet_to, complete_to=given.correct, rule_ids=ids,
                kind=RulingKind.CORRECTED, text=verdict.text, code="count_corrected"))
