"""Per-seat betting-zone state kept beside the engine's ``HandState``.

The engine knows street totals; the table also needs to know which physical chips lie in each
zone (prior-bet chips for R46), the open chip motion (R56), a declaration waiting for chips,
the R55 / R46-B restrictions, and the chips a player still owes or is owed after a ruling.
Everything is frozen; ``Pending`` is replaced, never mutated.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.events import PlayerAction
from pokertable.controller.engine.model import AnteFormat, HandState, Street, evolve
from pokertable.controller.interpretation.chips import ZoneView
from pokertable.controller.interpretation.events import ChipItem, Declaration, chip_value
from pokertable.controller.interpretation.outcome import FloorRuling
from pokertable.controller.interpretation.pot_limit import CountQuote
from pokertable.controller.rules import BbaShortOrder, RuleProfile

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
    # RP-11: the chips of the ante a blind posted that lie in his zone (dead money, the
    # pot's: never his blind or a bet), and the ante no chips were seen for yet.
    ante: tuple[ChipItem, ...] = ()
    ante_due: int = 0
    blind_first: int = 0  # big blind first (RP-11): the blind chips still make before the ante
    ante_told: bool = False  # the dealer was told the ante is not in the zone (``antes``)

    @property
    def awaits(self) -> bool:
        """Chips may still come outside a betting round: owed after a ruling, or his ante."""
        return self.owed > 0 or self.ante_due > 0

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
        return SeatZone(self.seat, felt=self.felt, seen=self.seen, last_hand=self.last_hand,
                        ante=self.ante, ante_due=self.ante_due, blind_first=self.blind_first,
                        ante_told=self.ante_told)

    def ante_first(self, chips: tuple[ChipItem, ...]) -> tuple[SeatZone, tuple[ChipItem, ...]]:
        """RP-11: chips a blind puts out make up his posted ante and his blind in the order
        the engine posted them (``blind_first``: the big blind ante under big-blind-first,
        TDA 2024; else ante first, Clubs NZ and per-player antes): the ante is the fewest
        chips that make it exactly, or all of them when short of it. (zone, the rest).
        Chips no part of which makes the ante are left to the blind's reading."""
        due, blind = self.ante_due, self.blind_first
        if due <= 0 or any(not c.has_value for c in chips):
            return self, chips
        if chip_value(chips) <= blind:  # all of them his blind's
            return evolve(self, blind_first=blind - chip_value(chips)), chips
        first = making(chips, blind) if blind else ()
        rest = remove_chips(chips, first) if first is not None else None
        if rest is None:
            return self, chips
        ante = rest if chip_value(rest) <= due else making(rest, due)
        left = remove_chips(chips, ante) if ante is not None else None
        if ante is None or left is None:
            return self, chips
        paid = chip_value(ante)
        return evolve(self, ante=self.ante + ante, ante_due=due - paid, blind_first=0), left


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

    def next_street(self, street: Street, *, over: bool = False) -> Pending:
        """Betting zones belong to one street; the floor's open calls and the chips still on
        the felt (not yet collected into the pot) carry over, as does what the readers saw.
        When the hand is ``over``, so do the chips a seat still owes for a bet he declared:
        read after the end, they are that hand's (``late_chips``), not news."""
        return Pending(street=street, floors=self.floors, next_floor=self.next_floor,
                       zones=tuple(evolve(z.afresh(), ante=(), ante_due=0, blind_first=0,
                                          owed=z.owed if over else 0)
                                   for z in self.zones if z.felt or z.seen or (over and z.owed)))

    def late_chips(self, seat: int, chips: tuple[ChipItem, ...]) -> Pending | None:
        """The hand is over and ``seat`` still owed chips for a bet he declared: the chips
        read now are those, read late (a report lags the chips, ``chip_report_lag_ms``):
        the last hand's, never the next one's blind. None when he owed nothing."""
        zone = self.zone(seat)
        if zone.owed <= 0:
            return None
        return self.with_zone(evolve(zone, last_hand=zone.last_hand + chips,
                                     owed=max(0, zone.owed - chip_value(chips))))

    def hand_over(self) -> Pending:
        """The hand has ended: the chips still in a zone are that hand's, left uncollected."""
        return evolve(self, zones=tuple(evolve(z, last_hand=z.felt) for z in self.zones))

    @property
    def uncollected(self) -> tuple[tuple[int, int], ...]:
        """(seat, value) of the zones still holding chips left from the last hand."""
        return tuple((z.seat, chip_value(z.last_hand)) for z in self.zones if z.last_hand)

    def new_hand(self, hand: HandState, rules: RuleProfile) -> Pending:
        """A new hand (or its re-deal) starts the reading afresh; the chips on the felt stay.
        Value chips put out since the last hand ended (a blind put out before the dealer
        started the hand, or the blinds left out over a misdeal) in the zone of a seat that
        has posted are his posted chips, whichever was read first: the chips or the start:
        the ante he posted, the pot's (RP-11, ``SeatZone.ante_first``), and his prior bet
        (Add. 46), made up in the order the engine posted them.
        Chips the last hand left uncollected, and chips in any other zone, lie there without
        counting.
        In stud every player antes (no blinds): the value chips in his zone make up his
        ante the same way, and the rest lie there without counting.
        """
        zones = []
        seen = {z.seat: z for z in self.zones if z.felt or z.seen}
        stud = hand.variant.is_stud
        posted = {s.seat for s in hand.seats if (s.dead if stud else s.bet) > 0}
        for seat in sorted(seen.keys() | posted):
            z = seen[seat].afresh() if seat in seen else SeatZone(seat)
            z = evolve(z, ante=(), ante_due=0, blind_first=0, ante_told=False)
            if seat not in posted:
                zones.append(z)
                continue
            me = hand.seat(seat)
            z = evolve(z, ante_due=me.dead,
                       blind_first=me.bet if _big_blind_first(hand, seat, rules) else 0)
            chips = tuple(ChipItem(c.denomination, c.kind) for c in z.felt
                          if c.has_value and c not in z.last_hand)
            z, chips = z.ante_first(chips)
            if stud:
                zones.append(z)
                continue
            zones.append(evolve(z, prior_start=chips, prior=chips) if chips else z)
        return Pending(street=hand.street, zones=tuple(zones))

    def ante_collected(self, seat: int,
                       chips: tuple[ChipItem, ...]) -> tuple[Pending, tuple[ChipItem, ...]]:
        """Chips leaving ``seat``'s zone that match his ante's chips are the dealer pulling
        the ante into the pot (RP-11): that decides nothing. (pending, the other chips)."""
        zone = self.zone(seat)
        ante, rest = list(zone.ante), []
        for chip in chips:
            match = next((c for c in ante if (c.denomination, c.kind) ==
                          (chip.denomination, chip.kind)), None)
            if match is None:
                rest.append(chip)
            else:
                ante.remove(match)
        if len(ante) == len(zone.ante):
            return self, chips
        return self.with_zone(evolve(zone, ante=tuple(ante))), tuple(rest)

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


def _big_blind_first(hand: HandState, seat: int, rules: RuleProfile) -> bool:
    """The big blind ante poster under big-blind-first (TDA 2024 RP-11): the engine posts
    his blind first (all of it when he is short), and his zone's chips make it first too;
    so a zone holding his blind alone (the ante put straight into the pot) is his blind."""
    return (hand.level.ante_format is AnteFormat.BIG_BLIND_ANTE
            and seat == hand.big_blind_seat and hand.seat(seat).dead > 0
            and rules.bba_short_order is BbaShortOrder.BIG_BLIND_FIRST)


def making(chips: tuple[ChipItem, ...], amount: int) -> tuple[ChipItem, ...] | None:
    """The fewest of ``chips`` whose values add up to exactly ``amount`` (smallest chips
    first among equals), or None: one answer for the same chips, whatever their order."""
    ordered = sorted(chips, key=lambda c: c.denomination)
    best: dict[int, tuple[int, ...]] = {0: ()}  # sum -> indices of the fewest chips making it
    for i, chip in enumerate(ordered):
        for total, used in sorted(best.items()):
            new = total + chip.denomination
            if new > amount:
                continue
            if new not in best or len(used) + 1 < len(best[new]):
                best[new] = (*used, i)
    found = best.get(amount)
    return None if found is None or amount <= 0 else tuple(ordered[i] for i in found)
