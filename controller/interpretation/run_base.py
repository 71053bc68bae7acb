"""The core of ``EventRun``: its scratch state and the one place it decides to apply.

``EventRunBase`` holds the hand, the betting zones and what the event said so far, and hands
every decided action back to its caller as an ``Apply`` decision (``decisions``): it never
applies one itself; ``runner.EventRun`` adds the routing of chips, words and floor decisions.
"""

from __future__ import annotations

from pokertable.controller.engine.events import PlayerAction
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation import floor as floors
from pokertable.controller.interpretation import held
from pokertable.controller.interpretation.antes import ante_owed
from pokertable.controller.interpretation.context import BetContext, context_for
from pokertable.controller.interpretation.decisions import Applied, Apply, EngineEvent, Steps
from pokertable.controller.interpretation.events import (
    Declaration,
    InterpretationEvent,
    chip_value,
)
from pokertable.controller.interpretation.late import (
    ShortBetNoticed,
    completes_undercall,
    unseen_blind_owed,
)
from pokertable.controller.interpretation.outcome import FloorRuling, Interpretation, alert
from pokertable.controller.interpretation.zones import LogEntry, Pending, SeatZone
from pokertable.controller.rules import RuleProfile

TableEvent = InterpretationEvent | ShortBetNoticed | EngineEvent


class EventRunBase:
    """Scratch for one event: the only mutable object, discarded when the event is done."""

    def __init__(self, state: HandState, pending: Pending, rules: RuleProfile) -> None:
        self.state, self.pending, self.rules = state, pending, rules
        self.interps: list[Interpretation] = []
        self.rulings: list[Ruling] = []

    def decide(self, event: EngineEvent) -> Steps[Applied]:
        """Hand ``event`` back to the caller to apply to the hand; get what that made."""
        return (yield Apply(self.state, event))

    def alert(self, seat: int | None, concept: str, text: str, code: str) -> None:
        self.rulings.append(alert(seat, self.rules.cite(concept), text, code))

    def zone(self, seat: int) -> SeatZone:
        return self.pending.zone(seat)

    def put(self, zone: SeatZone) -> None:
        self.pending = self.pending.with_zone(zone)

    def _ante_first(self, seat: int) -> bool:
        """RP-11: chips a blind puts out while posting (before his turn, or his blind not
        yet whole, or all in) make up the ante he posted first (dead money, the pot's: no
        action, ``SeatZone.ante_first``); on his turn with his blind out whole they are
        action (his ante went into the pot). In stud every player antes, before the betting
        opens: chips beyond his ante then are out of round. Whether chips are left to read."""
        zone, me = self.zone(seat), self.state.seat(seat)
        posting = seat != self.state.action_on or chip_value(zone.prior) < me.bet \
            or me.status is SeatStatus.ALL_IN
        stud = self.state.variant.is_stud
        if stud:
            posting = self.state.phase is not Phase.BETTING
        if zone.ante_due and zone.motion and not me.acted and posting:
            zone, rest = zone.ante_first(zone.motion)
            if rest and stud:
                rest = ()
                self.alert(seat, "in_turn_binding", f"seat {seat}: chips in the betting zone "
                           "beyond his ante while no betting round is open", "no_betting_round")
            self.put(evolve(zone, motion=rest))
        return bool(self.zone(seat).motion)

    def ctx(self, seat: int) -> BetContext | None:
        return context_for(self.state, seat, self.rules)

    def _owed_by_folded(self, seat: int) -> bool:
        """He folded still owing the chips of a bet he declared (an all in, a bet said on the
        console): chips the readers report after his fold are those chips, read late (a
        report lags the chips by up to ``chip_report_lag_ms``), not chips out of turn."""
        return self.state.has_seat(seat) and self.zone(seat).owed > 0 \
            and self.state.seat(seat).status is SeatStatus.FOLDED

    def _seat_ok(self, seat: int, what: str) -> bool:
        if not self.state.has_seat(seat):
            self.alert(seat, "floor_discretion", f"{what} at seat {seat}, which is not dealt in",
                       "seat_not_in_hand")
            return False
        if self.state.seat(seat).status is SeatStatus.FOLDED:
            self.alert(seat, "in_turn_binding", f"{what} at seat {seat}, which has folded",
                       "seat_folded")
            return False
        return True

    def _blocked_for(self, seat: int) -> FloorRuling | None:
        """A floor ruling that must be answered before this seat may act."""
        return next((f for f in self.pending.floors
                     if f.seat == seat or (f.blocks_table and f.seat != seat)), None)

    def _note(self, reading: Interpretation) -> None:
        self.interps.append(reading)
        self.rulings.append(reading.to_ruling())

    def _register(self, ruling: FloorRuling, seat: int,
                  reading: Interpretation | None = None) -> None:
        numbered = floors.with_id(ruling, self.pending.next_floor, self.state.hand_id)
        self.pending = evolve(self.pending, floors=(*self.pending.floors, numbered),
                              next_floor=self.pending.next_floor + 1)
        base = reading or Interpretation(seat=seat, action=None, total=self.state.seat(seat).bet,
                                         rule_ids=numbered.rule_ids, text=numbered.text,
                                         kind=RulingKind.FLOOR, code="floor")
        self._note(evolve(base, floor=numbered))

    def apply_reading(self, zones: Pending, reading: Interpretation, at_ms: int) -> Steps[None]:
        """A decided reading made before the run (``in_turn.plain_turn``) over ``zones``,
        applied as one read in the run is (no floor, not waiting, an action)."""
        self.pending = zones
        action = reading.player_action(at_ms)
        assert action is not None
        yield from self._engine_action(action, reading)

    def _engine_action(self, action: PlayerAction, reading: Interpretation | None) -> Steps[bool]:
        before = self.state
        zone_before = self.zone(action.seat)
        new, out = yield from self.decide(action)
        # An ordinary action says nothing more (``out`` empty): none of the checks of what
        # it said below runs then, each a cost per chip from cold caches.
        rejected = [r for r in out if r.kind is RulingKind.REJECTED] if out else None
        if rejected:
            # the engine's own rule ids too (a house rule's refusal names its rule, RP-17)
            ids = (self.rules.cite("floor_discretion"),
                   *(i for i in rejected[0].rule_ids if i != self.rules.cite("floor_discretion")))
            self.rulings.append(Ruling(RulingKind.ALERT, ids,
                                       f"seat {action.seat}: the engine refused {action.kind}: "
                                       f"{rejected[0].text}", seat=action.seat,
                                       code="engine_rejected"))
            return False
        self.state = new
        if reading is not None:
            self.interps.append(reading)
            self.rulings.append(reading.to_ruling())
        if out:
            said = {r.text for r in self.rulings}
            self.rulings.extend(r for r in out if r.text not in said)  # nothing said twice
            self.pending = held.settle_held(self.pending, out)  # R53-A: held chips bound/back
        if len(new.actions) > len(before.actions):  # R37: an action that killed his hand
            # records nothing, and the street's log (R52 replays) holds recorded actions only
            self.pending = evolve(self.pending,
                                  log=(*self.pending.log, LogEntry(before, new, zone_before)))
        self._commit(action.seat, reading, self._dues(action, reading, before, zone_before))
        owed = self.zone(action.seat).owed
        told = unseen_blind_owed(before.seat(action.seat), zone_before, owed,
                                 self.rules) if owed > 0 else None
        if told is not None:  # a console entry for a blind never put out (Add. 46)
            self.rulings.append(told)
        yield from self._after_engine()
        return True

    def _dues(self, action: PlayerAction, reading: Interpretation | None, before: HandState,
              zone: SeatZone) -> tuple[int, int]:
        """(chips owed, change) in the actor's zone once his action is applied."""
        if reading is not None:
            return reading.add, reading.returned
        if action.short_stands:  # R52: the floor enters a bet whose chips are already out
            return 0, 0
        # R40-A: an action entered as such (no chips read) came first and defines the bet;
        # the chips that follow pay it, and only chips beyond it are change.
        value = zone.view(before.seat(action.seat).bet).value
        bet = self.state.seat(action.seat).bet
        return max(0, bet - value), max(0, value - bet)

    def _commit(self, seat: int, reading: Interpretation | None,
                dues: tuple[int, int]) -> None:
        zone = self.zone(seat)
        if self.state.seat(seat).status is SeatStatus.FOLDED:  # his bet's chips still owed
            self.put(evolve(zone.afresh(), owed=zone.owed))
            return
        chips = zone.prior + zone.motion
        owed, change = dues
        self.put(evolve(
            zone.afresh(), prior_start=chips, prior=chips, owed=owed, change=change,
            chip_defined=reading.chip_defined if reading else False,
            undercall=reading is not None and completes_undercall(reading, self.rules),
        ))

    def _after_engine(self) -> Steps[None]:
        state = self.state
        closed = state.street != self.pending.street or state.phase is Phase.COMPLETE
        # RP-11: an ante not put out is told when the action reaches him or the round closes
        for zone in self.pending.zones:
            if zone.ante_due > 0 and (closed or zone.seat == state.action_on):
                self._ante_owed(zone)
        if closed:
            self.pending = self.pending.next_street(state.street,
                                                    over=state.phase is Phase.COMPLETE)
            return
        seat = state.action_on
        if seat is None or self._blocked_for(seat) is not None:
            return
        zone = self.zone(seat)
        if zone.motion and not zone.motion_open and not zone.held:
            yield from self._rule_turn(seat, zone, 0)  # chips put out early are ruled in turn
        elif zone.declaration is not None and not zone.waiting:
            self.put(evolve(zone, declaration=None))
            yield from self._words(zone.declaration, evolve(zone, declaration=None))

    def _ante_owed(self, zone: SeatZone) -> None:
        told = ante_owed(self.state, zone, self.rules)
        if told is not None:
            self.put(told[0])
            self.rulings.append(told[1])

    def _rule_turn(self, seat: int, zone: SeatZone, at_ms: int) -> Steps[None]:
        raise NotImplementedError  # chips ruled in turn: ``runner.EventRun``

    def _words(self, decl: Declaration, zone: SeatZone) -> Steps[None]:
        raise NotImplementedError  # words ruled in turn: ``runner.EventRun``
