"""Per-seat betting-zone state kept beside the engine's ``HandState``.

The engine knows street totals; the table also needs to know which physical chips lie in each
zone (prior-bet chips for R46), the open chip motion (R56), a declaration waiting for chips,
the R55 / R46-B restrictions, and the chips a player still owes or is owed after a ruling.
Everything is frozen; ``Pending`` is replaced, never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.events import PlayerAction
from pokertable.controller.engine.model import HandState, Street, evolve
from pokertable.controller.interpretation.chips import ZoneView
from pokertable.controller.interpretation.events import ChipItem, Declaration, chip_value
from pokertable.controller.interpretation.outcome import FloorRuling
from pokertable.controller.interpretation.pot_limit import CountQuote

UNTRACKED = "untracked"  # uid of the stand-in chip for a street total no chips were seen for


@dataclass(frozen=True, slots=True)
class SeatZone:
    seat: int
    prior_start: tuple[ChipItem, ...] = ()  # prior-bet chips when the current decision began
    prior: tuple[ChipItem, ...] = ()  # what is left of them (R46 pulls)
    motion: tuple[ChipItem, ...] = ()  # chips of the current motion, not yet ruled on
    motion_open: bool = False
    motion_last_ms: int = 0
    combined_gesture: bool = False
    declaration: Declaration | None = None  # words waiting for chips, or held by the floor
    waiting: bool = False  # the declaration commits to a bet whose size the chips will give
    no_raise: bool = False  # R55: said "check" facing a bet
    no_fold: bool = False  # R46-B: pulled prior chips back facing a raise
    owed: int = 0  # chips still to add after a ruling (completion, full call)
    change: int = 0  # chips due back to the player
    chip_defined: bool = False  # last ruling came from a motion: more chips = string bet
    held: bool = False  # the motion is an out-of-turn action the applying layer holds (R53-A)
    undercall: bool = False  # R51-B: the chips owed complete an undercall (R51-C sequences)
    # The tags the readers see in this zone now, from every street until the dealer
    # collects them (the session keeps it: re-reads after a restart, chips leaving). The
    # fields above are the rules' reading of this street's chips, which need not match the
    # felt: pulled prior chips stay prior chips until the pull is ruled (R46), refused or
    # returned chips lie on the felt without counting.
    felt: tuple[ChipItem, ...] = ()
    # The readers have reported this zone: ``felt`` is all it holds, so a street total no
    # chips were seen for (a blind never put out, a call entered at the console) is not
    # lying there unseen: it is still owed.
    seen: bool = False
    # Chips that lay here when the last hand ended and the dealer has not pulled in: never
    # a bet of this hand (the next hand's blinds are the chips put out after it ended).
    last_hand: tuple[ChipItem, ...] = ()

    @property
    def value(self) -> int:
        return chip_value(self.prior) + chip_value(self.motion)

    def view(self, own: int) -> ZoneView:
        """The zone as R44-R46 see it; in a zone the readers never reported, a street total
        with no chips seen is one stand-in chip (taken to lie there unseen)."""
        prior_start, prior = self.prior_start, self.prior
        if not prior_start and own > 0 and not self.seen:
            stand_in = (ChipItem(own, uid=UNTRACKED),)
            prior_start, prior = stand_in, stand_in
        return ZoneView(prior_start, prior, self.motion, self.combined_gesture, self.seen)

    def afresh(self) -> SeatZone:
        """The rules' reading starts again; the readers' view of the felt stays."""
        return SeatZone(self.seat, felt=self.felt, seen=self.seen, last_hand=self.last_hand)


@dataclass(frozen=True, slots=True)
class LogEntry:
    """An action this layer applied on this street, with the states around it (for R52
    amendments). The action itself is the engine's record (``HandState.actions``, the one
    log of the hand): ``after`` holds it, right after what ``before`` holds."""

    before: HandState
    after: HandState
    zone: SeatZone | None = None  # the actor's zone before the action (late words, R40-A)

    @property
    def action(self) -> PlayerAction:
        recorded = self.after.actions[len(self.before.actions)].action
        assert recorded is not None  # every record ``engine.step`` makes keeps its event
        return recorded


@dataclass(frozen=True, slots=True)
class Pending:
    street: Street = Street.PREFLOP
    zones: tuple[SeatZone, ...] = ()
    floors: tuple[FloorRuling, ...] = ()
    next_floor: int = 1
    log: tuple[LogEntry, ...] = ()
    quote: CountQuote | None = None

    def zone(self, seat: int) -> SeatZone:
        for z in self.zones:
            if z.seat == seat:
                return z
        return SeatZone(seat)

    def with_zone(self, zone: SeatZone) -> Pending:
        others = tuple(z for z in self.zones if z.seat != zone.seat)
        return evolve(self, zones=tuple(sorted((*others, zone), key=lambda z: z.seat)))

    def with_felt(self, seat: int, chips: tuple[ChipItem, ...]) -> Pending:
        """The readers' view of ``seat``'s zone changed (the only writer: the session)."""
        zone = self.zone(seat)
        last_hand = tuple(c for c in zone.last_hand if c in chips)  # pulled in: gone
        return self.with_zone(evolve(zone, felt=chips, seen=True, last_hand=last_hand))

    def next_street(self, street: Street) -> Pending:
        """Betting zones belong to one street; the floor's open calls and the chips still on
        the felt (not yet collected into the pot) carry over, as does what the readers saw."""
        return Pending(street=street, floors=self.floors, next_floor=self.next_floor,
                       zones=tuple(z.afresh() for z in self.zones if z.felt or z.seen))

    def hand_over(self) -> Pending:
        """The hand has ended: the chips still in a zone are that hand's, left uncollected."""
        return evolve(self, zones=tuple(evolve(z, last_hand=z.felt) for z in self.zones))

    @property
    def uncollected(self) -> tuple[tuple[int, int], ...]:
        """(seat, value) of the zones still holding chips left from the last hand."""
        return tuple((z.seat, chip_value(z.last_hand)) for z in self.zones if z.last_hand)

    def new_hand(self, hand: HandState) -> Pending:
        """A new hand (or its re-deal) starts the reading afresh; the chips on the felt stay.
        Value chips put out since the last hand ended (a blind put out before the dealer
        started the hand, or the blinds left out over a misdeal) in the zone of a seat that
        has posted are his posted chips, his prior bet (Add. 46), whichever was read first:
        the chips or the start. Chips the last hand left uncollected, and chips in any other
        zone, lie there without counting."""
        zones = []
        for z in self.zones:
            if not (z.felt or z.seen):
                continue
            posted = hand.has_seat(z.seat) and hand.seat(z.seat).bet > 0
            chips = tuple(ChipItem(c.denomination, c.kind) for c in z.felt
                          if c.has_value and c not in z.last_hand)
            zones.append(evolve(z.afresh(), prior_start=chips, prior=chips) if posted and chips
                         else z.afresh())
        return Pending(street=hand.street, zones=tuple(zones))

    def floor(self, ruling_id: str) -> FloorRuling | None:
        return next((f for f in self.floors if f.ruling_id == ruling_id), None)

    @property
    def blocking(self) -> FloorRuling | None:
        return next((f for f in self.floors if f.blocks_table), None)

    def waiting_seat(self) -> int | None:
        """A seat whose words wait for chips: nobody else may act yet (R50-B)."""
        return next((z.seat for z in self.zones if z.waiting), None)


def remove_chips(have: tuple[ChipItem, ...],
                 take: tuple[ChipItem, ...]) -> tuple[ChipItem, ...] | None:
    """Multiset difference by denomination and kind; None if ``take`` is not all there."""
    left = list(have)
    for chip in take:
        match = next((i for i, c in enumerate(left)
                      if c.denomination == chip.denomination and c.kind == chip.kind
                      and (not chip.uid or c.uid == chip.uid)), None)
        if match is None:
            return None
        del left[match]
    return tuple(left)
