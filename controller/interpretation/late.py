"""Corrections noticed after the fact (R52-A) and undercalls in sequence (R51-C).

R52-A: an opening bet or raise below the minimum that the dealer let stand is corrected
"anywhere on the current street" (on the river until showdown starts: the first hand tabled,
not the last call) to the legal minimum
"for all bettors": the street is replayed with the corrected amount and everyone who
matched the short amount owes the difference. Once the next card is dealt the error stands.

R51-C: an undercall while an earlier undercaller's full call is still owed is an undercall
in sequence: play backs up to the first undercaller, who must complete his call (R51-B),
and the TD decides how to treat the later bettors, whose seats are held meanwhile.

R62: chips found behind an all-in made on a street that has closed, ruled part of the
action: the callers who covered him add them now.

Add. 46: a posted blind whose chips the readers never saw, read only on the seat's turn:
the chips that arrive make up the blind first (put out late), and only the rest is action.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol

from pokertable.controller.engine import betting
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import ActionKind, CountFoundChips, PlayerAction
from pokertable.controller.engine.model import HandState, Phase, SeatState, Street, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.context import BetContext, context_for
from pokertable.controller.interpretation.decisions import Steps
from pokertable.controller.interpretation.events import chip_value
from pokertable.controller.interpretation.outcome import FloorRuling, Interpretation
from pokertable.controller.interpretation.raises import option_from
from pokertable.controller.interpretation.undercalls import forfeit_option
from pokertable.controller.interpretation.zones import Pending, SeatZone, making, remove_chips
from pokertable.controller.rules import RuleProfile

UNDERCALL = "undercall_full_call"  # the interpretation's code for a mandatory full call


class Run(Protocol):
    """What the corrections need of the event being run (``runner.EventRun``), named here
    so this module need not import the runner that imports it."""

    rules: RuleProfile
    state: HandState
    pending: Pending
    rulings: list[Ruling]

    def alert(self, seat: int | None, concept: str, text: str, code: str) -> None: ...

    def zone(self, seat: int) -> SeatZone: ...

    def put(self, zone: SeatZone) -> None: ...

    def amend(self, index: int, replacement: PlayerAction) -> Steps[bool]: ...

    def note_ruling(self, reading: Interpretation) -> None: ...


@dataclass(frozen=True, slots=True)
class ShortBetNoticed:
    """Dealer entry: ``seat``'s bet or raise on this street was below the minimum and was let
    stand; it is noticed now (R52-A)."""

    seat: int
    at_ms: int = 0


def correct_short_bet(run: Run, event: ShortBetNoticed) -> Steps[None]:
    """R52-A: raise the short bet to the minimum for all bettors, or say why it stands."""
    rules = run.rules
    state = run.state
    index = next(
        (
            i
            for i in range(len(run.pending.log) - 1, -1, -1)
            if run.pending.log[i].action.seat == event.seat
            and run.pending.log[i].action.kind in (ActionKind.BET, ActionKind.RAISE)
        ),
        None,
    )
    # Showdown starts when a hand is tabled (or mucked), not when the river betting ends.
    showdown_started = state.phase is Phase.COMPLETE or (
        state.phase is Phase.SHOWDOWN and any(s.shown or s.mucked for s in state.seats)
    )
    late = showdown_started or run.pending.street != state.street
    if index is None or late:
        when = "showdown has started" if state.street is Street.RIVER else "the next card is out"
        run.alert(event.seat, "underbet", f"seat {event.seat}: no short bet of his on this "
                  f"street to correct ({when}, or none was let stand): the error stands "
                  "(R52-A)", "short_bet_stands")
        return
    entry = run.pending.log[index]
    opts = betting.options_for(entry.before, rules)
    assert opts is not None  # the action was in turn
    amount = entry.action.amount or 0
    if amount >= opts.min_to:
        run.alert(event.seat, "underbet", f"seat {event.seat}'s {entry.action.kind} to {amount} "
                  f"was not below the minimum {opts.min_to}: nothing to correct",
                  "short_bet_none")
        return
    if not rules.underraise_corrected:
        run.alert(event.seat, "floor_discretion", f"seat {event.seat}'s {entry.action.kind} to "
                  f"{amount} was below the minimum {opts.min_to}; this rulebook has no "
                  "correction rule: the floor decides whether it stands", "short_bet_floor")
        return
    target = opts.min_to
    fixed = PlayerAction(event.seat, entry.action.kind, target, event.at_ms)
    before = {s.seat: s.bet for s in state.seats}
    if not (yield from run.amend(index, fixed)):
        return
    owed = {s.seat: s.bet - before[s.seat] for s in run.state.seats if s.bet > before[s.seat]}
    who = ", ".join(f"seat {s} adds {n}" for s, n in sorted(owed.items()))
    text = (f"seat {event.seat}'s {entry.action.kind} to {amount} was below the minimum: "
            f"corrected to {target} for all bettors ({who})")
    run.note_ruling(Interpretation(
        seat=event.seat, action=entry.action.kind, total=target, add=owed.get(event.seat, 0),
        complete_to=target, rule_ids=(rules.cite("underbet"), rules.cite("min_raise")),
        kind=RulingKind.CORRECTED, text=text, code="short_bet_corrected"))


def undercall_in_sequence(run: Run, reading: Interpretation) -> Interpretation:
    """R51-C: a second undercall while the first undercaller still owes his full call."""
    if reading.code != UNDERCALL and not (
        reading.floor is not None and run.rules.cite("call_undercall") in reading.rule_ids
    ):
        return reading
    first = _owing_undercaller(run.pending, reading.seat)
    if first is None:
        return reading
    rules = run.rules
    ids = tuple(dict.fromkeys((rules.cite("undercall_sequence"), *reading.rule_ids)))
    base = reading.floor.options if reading.floor is not None else ()
    full = next((o for o in base if o.name == "full_call"), None)
    options = base if full is not None else ()
    if not options:
        ctx = context_for(run.state, reading.seat, rules)
        assert ctx is not None
        zone = run.zone(reading.seat).view(ctx.own).value
        options = (option_from("full_call", reading), forfeit_option(ctx, zone,
                                                                    max(0, zone - ctx.own)))
    text = (f"seat {reading.seat} undercalled while seat {first}'s undercall is still owed: "
            f"undercalls in sequence. Play backs up to seat {first}, who must complete his "
            "call (R51-B); the TD decides how to treat seat "
            f"{reading.seat} and the bettors after him, who wait")
    floor = FloorRuling("", reading.seat, ids, text, tuple(options))
    run.rulings.append(Ruling(RulingKind.BINDING, ids, f"seat {first} must complete his call of "
                              f"{run.state.call_to} first (R51-C)", seat=first,
                              code="undercall_sequence"))
    return evolve(reading, action=None, floor=floor, rule_ids=ids, text=text,
                  kind=RulingKind.FLOOR, code="floor")


def completes_undercall(reading: Interpretation, rules: RuleProfile) -> bool:
    """A full call ruled on an undercall (R51-B at once, also when it puts him all in, or the
    floor's full call): the chips still owed are an uncorrected undercall until they arrive
    (R51-C)."""
    return reading.code == UNDERCALL or (
        reading.code in ("floor_full_call", "call_all_in")
        and rules.cite("call_undercall") in reading.rule_ids
    )


def _owing_undercaller(pending: Pending, seat: int) -> int | None:
    """The seat that undercalled just before ``seat`` and still owes chips, if any."""
    for entry in reversed(pending.log):
        if entry.action.seat == seat:
            return None
        zone = pending.zone(entry.action.seat)
        if zone.undercall and zone.owed > 0:
            return entry.action.seat
        if entry.action.kind is not ActionKind.FOLD:
            return None
    return None


def count_on_earlier_street(run: Run, seat: int, amount: int) -> None:
    """R62: found chips ruled part of an all-in made on a street that has closed: the
    engine adds them to his all-in and the callers who covered him match them."""
    new, out = engine.step(run.state, CountFoundChips(seat, amount), run.rules)
    run.rulings.extend(out)
    if not any(r.kind is RulingKind.REJECTED for r in out):
        run.state = new


class BlindRead(StrEnum):
    """How chips read on a blind's turn stand to his posted blind no chips were seen for."""

    NOT_LATE = "not_late"  # his blind's chips were seen, or the chips are not read alone
    LATE = "late"  # the chips are the blind alone (or part of it), put out late: no action
    SPLIT = "split"  # some chips make the blind, the rest is his action on top of them
    INSIDE = "inside"  # no chips make the blind alone: they are blind and action in one


def blind_chips_first(run: Run, seat: int) -> BlindRead:
    """Add. 46: chips read on a blind's turn in a zone read without the chips of his blind.

    The readers have reported the zone (at the live table always: their first view of a zone
    is everything that lies there), so the chips read are all it holds, never chips on top
    of a blind lying there unseen. The fewest of them that make exactly his posted blind are
    that blind, put out late: his prior-bet chips (R46), not an action (LATE, play stays on
    the seat, when nothing is left). The rest is his action, read against them (SPLIT).
    Chips short of the blind are part of it, put out late (LATE). Chips no part of which
    makes the blind hold it inside them (INSIDE: read as his whole street total,
    ``blind_inside``), facing a bet and on his big-blind option alike: he faces his blind,
    so one oversized chip is a call of it (R44), on his option his check (``on_option``).
    Once someone has acted, the table says what it decided (a ruling citing R46-C); before
    that (heads-up the small blind acts first) he is only posting his blind.
    """
    me = run.state.seat(seat)
    zone = run.zone(seat)
    if me.acted or me.bet <= 0 or zone.declaration is not None or zone.prior_start \
            or any(not c.has_value for c in zone.motion):
        return BlindRead.NOT_LATE
    value = chip_value(zone.motion)
    blind = making(zone.motion, me.bet)
    rest = remove_chips(zone.motion, blind) if blind is not None else None
    if value < me.bet:
        run.put(evolve(zone, prior_start=zone.motion, prior=zone.motion, motion=()))
        read = BlindRead.LATE
        text = (f"seat {seat}: the {value} read on his turn is part of his posted blind of "
                f"{me.bet}, put out late (Add. 46), not an action: play stays on seat {seat}")
    elif blind is None or rest is None:
        read = BlindRead.INSIDE
        text = (f"seat {seat}: the {value} read on his turn holds his posted blind of "
                f"{me.bet}, put out late (Add. 46): they are read as his whole bet")
    else:
        run.put(evolve(zone, prior_start=blind, prior=blind, motion=rest))
        read = BlindRead.SPLIT if rest else BlindRead.LATE
        text = (f"seat {seat}: {me.bet} of the {value} read on his turn is his posted blind, "
                f"put out late (Add. 46); the other {value - me.bet} is his action" if rest
                else f"seat {seat}: the {me.bet} read on his turn is his posted blind, put "
                f"out late (Add. 46), not an action: play stays on seat {seat}")
    if any(s.acted for s in run.state.seats):
        run.rulings.append(Ruling(RulingKind.INFO, (run.rules.cite("prior_chips"),), text,
                                  seat=seat, code="late_blind"))
    return read


def unseen_blind_owed(me: SeatState, zone: SeatZone, owed: int,
                      rules: RuleProfile) -> Ruling | None:
    """Add. 46: the dealer entered the action of a blind whose zone the readers report
    without his blind (never put out): what he now owes holds his blind; the dealer is told
    so, for the chips to come are not all action."""
    if me.acted or me.bet <= 0 or owed <= 0 or not zone.seen or zone.prior_start or zone.motion:
        return None
    return Ruling(RulingKind.INFO, (rules.cite("prior_chips"),),
                  f"seat {me.seat}: his posted blind of {me.bet} is not in his bet zone (never "
                  f"put out): the {owed} he owes holds it", seat=me.seat, code="blind_owed")


def blind_inside(ctx: BetContext) -> BetContext:
    """The context for chips that hold his unseen blind inside them: his street total is
    what they make, as if nothing were posted (the blind goes back behind)."""
    return replace(ctx, own=0, stack=ctx.stack + ctx.own)


def on_option(reading: Interpretation, posted: int) -> Interpretation:
    """Chips holding the big blind's unseen blind, read against ``blind_inside``: a call of
    no more than his posted blind is, on his option, his check (R44: facing his blind, one
    oversized chip without "raise" declared calls it; the rest is change)."""
    if reading.action is not ActionKind.CALL or reading.total != posted:
        return reading
    why = reading.text.removeprefix(f"seat {reading.seat} calls {posted}: ")
    return evolve(reading, action=ActionKind.CHECK, code="check",
                  text=f"seat {reading.seat} checks his option ({why}: it calls his blind)")
