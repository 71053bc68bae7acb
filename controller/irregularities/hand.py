"""``TrackedHand``: the engine's ``HandState`` plus what the card readers and dealer added.

The engine knows actions in turn and dealt cards. The readers also know the order of the
initial deal, every burn, cards that arrive too early or twice, and the dealer knows who
is absent. This record holds that, frozen, next to the engine state it wraps; the step
functions in this package derive new records with ``model.evolve``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import Event, PlayerAction
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, Street, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.ledger import CardLedger
from pokertable.controller.irregularities.substantial import (
    HAND_START,
    ReferencePoints,
    is_substantial,
    records_as_pairs,
)
from pokertable.controller.rules import RuleProfile


class HandStatus(StrEnum):
    DEALING = "dealing"  # initial deal still arriving
    PLAYING = "playing"
    MISDEAL = "misdeal"  # declared: re-deal with ``redeal`` (R35-C)
    FOULED = "fouled"  # R35-E: play stopped, all bets returned
    COMPLETE = "complete"  # pots awarded


@dataclass(frozen=True, slots=True)
class MisdealOffer:
    """A misdeal the readers proved; the dealer confirms it (until SA, R35-D)."""

    codes: tuple[str, ...]
    rule_ids: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class DealTrack:
    order: tuple[tuple[int, str], ...] = ()  # (seat, card) as the initial deal landed
    closed: bool = False
    first_read_ms: int | None = None  # when the readers reported the deal's first card
    first_window: tuple[int, ...] = ()  # seats read within one read window of that card
    first_judged: bool = False  # R35-A2 (first card to the wrong seat) has been decided
    boxed: int = 0
    exposures: tuple[tuple[int, int], ...] = ()  # (seat, card_index) exposed by the dealer
    wrong_count: tuple[int, ...] = ()  # seats with the wrong number of cards (dead after SA)
    button_short: bool = False  # R37: the button holds too few cards
    absent_at_deal: frozenset[int] = frozenset()

    def cards_of(self, seat: int) -> tuple[str, ...]:
        return tuple(card for s, card in self.order if s == seat)


@dataclass(frozen=True, slots=True, kw_only=True)
class BoardTrack:
    burns: tuple[int, int, int, int] = (0, 0, 0, 0)  # burns read for each street (index = Street)
    # burns each street should have: one (R38), unless a premature-card procedure says
    # otherwise (Clubs NZ RP-5-B: two for the turn, none for the river)
    burns_due: tuple[int, int, int, int] = (1, 1, 1, 1)
    premature: tuple[str, ...] = ()  # board cards dealt before the round ended (RP-5)
    four_card_flop: bool = False  # R39-A: waiting for the floor to move one card to the burn
    flop_without_burn: bool = False  # R39-B: flop dealt with no burn, no flop action yet
    burn_due: tuple[Street, int] | None = None  # a street's first card came before its burn


@dataclass(frozen=True, slots=True, kw_only=True)
class StudTrack:
    """Stud streets as the readers see them (``stud_cards``): burns per street, indexed by
    ``Street`` from third (0) to seventh (4), and cards dealt to a seat before its street's
    betting round ended (RP-10-G, RP-5-D)."""

    burns: tuple[int, ...] = (0, 0, 0, 0, 0)
    # one burn per street from fourth (R38); third street is not checked (houses differ);
    # a premature card's street is dealt without another burn (RP-5-D)
    burns_due: tuple[int, ...] = (0, 1, 1, 1, 1)
    premature: tuple[str, ...] = ()
    burn_due: tuple[int, int] | None = None  # (street, at_ms): a street's first card came first
    deal_closed_ms: int | None = None  # the read that closed the deal (the last upcard)


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawTrack:
    """A draw as the readers see it (``draw_cards``): each seat's discards read in the muck
    and the new cards read on his pad, held until they make his ``Discard`` and his
    ``DealHole`` (per seat, in read order)."""

    discards: tuple[tuple[int, tuple[str, ...]], ...] = ()
    drawn: tuple[tuple[int, tuple[str, ...]], ...] = ()
    burns: tuple[int, int, int] = (0, 0, 0)  # burns read for each draw (one a draw, R38)
    burn_due: tuple[int, int] | None = None  # (draw, at_ms): its first card came before a burn
    exposed: tuple[str, ...] = ()  # draw cards the dealer exposed, on their way to the muck


@dataclass(frozen=True, slots=True)
class PendingOot:
    """An action out of turn held until the action reaches its seat (R53-A)."""

    action: PlayerAction
    skipped: int  # the seat that was on the action
    faced_call_to: int  # what the OOT player faced: if this changes, his action does not bind
    street: Street
    bound: bool = False  # R53-B: binding because of substantial action out of turn


@dataclass(frozen=True, slots=True, kw_only=True)
class OotTrack:
    pending: tuple[PendingOot, ...] = ()
    floor_pending: int | None = None  # skipped seat waiting for the floor's decision (R53-B)
    limited: frozenset[int] = frozenset()  # seats the floor limited to call or fold
    referred: frozenset[int] = frozenset()  # skipped seats already referred to the floor


@dataclass(frozen=True, slots=True, kw_only=True)
class TrackedHand:
    hand: HandState
    setup: HandSetup  # as dealt (button where the dealer put it)
    expected_setup: HandSetup  # where the table says the button and blinds belong (R34-A)
    deck: frozenset[str]  # the game's deck: anything else is a non-standard card (R35-A6)
    status: HandStatus = HandStatus.DEALING
    ledger: CardLedger = field(default_factory=CardLedger)
    deal: DealTrack = DealTrack()
    board: BoardTrack = BoardTrack()
    stud: StudTrack = StudTrack()
    draw: DrawTrack = DrawTrack()
    oot: OotTrack = OotTrack()
    points: ReferencePoints = field(default_factory=ReferencePoints)
    absent: frozenset[int] = frozenset()
    on_penalty: frozenset[int] = frozenset()  # dealt in, then killed (R71-C)
    kill_at_deal: frozenset[int] = frozenset()  # re-deal: seats killed whatever their presence
    misdeal: MisdealOffer | None = None
    redeal_of: str | None = None  # the original hand: a re-deal is the same hand (R35-C)
    killed: tuple[int, ...] = ()  # seats whose hands were killed (not folded in turn)
    alerts: tuple[Ruling, ...] = ()  # every alert and floor call of the hand, published
    # The readers scan antennas in turn and the Pi polls nodes in turn: cards placed within
    # this many ms of each other may be reported in any order (0: reports are in deal order).
    read_window_ms: int = 0

    @property
    def played(self) -> tuple[PlayerAction, ...]:
        """The actions the engine accepted, for exact rebuilds: read from the engine's log of
        the hand (``HandState.actions``), its one owner."""
        return tuple(r.action for r in self.hand.actions if r.action is not None)

    @property
    def over(self) -> bool:
        return self.status in (HandStatus.MISDEAL, HandStatus.FOULED, HandStatus.COMPLETE)

    def sa(self, rules: RuleProfile) -> bool:
        """SA from the start of the hand (R35-D, R34-A, R23, R38)."""
        start = self.points.index(HAND_START)
        if len(self.hand.actions) - start < 2:  # R36 needs two actions: the deal's case
            return False
        return is_substantial(records_as_pairs(self.hand.actions[start:]), rules)

    def published(self, rules: RuleProfile) -> dict[str, object]:
        """The irregularity part of the table state, always published (MQTT payload)."""
        return {
            "status": str(self.status),
            "substantial_action": self.points.report(self.hand.actions, rules),
            "misdeal_offered": None if self.misdeal is None else list(self.misdeal.codes),
            "initial_deal": {
                "closed": self.deal.closed,
                "cards_by_seat": {s.seat: len(self.deal.cards_of(s.seat)) for s in self.hand.seats},
            },
            "burns": list(self.stud.burns[1:] if self.hand.variant.is_stud
                          else self.board.burns[1:]),
            "premature_cards": list(self.stud.premature or self.board.premature),
            "out_of_turn": [
                {"seat": p.action.seat, "action": str(p.action.kind), "skipped": p.skipped,
                 "bound": p.bound} for p in self.oot.pending
            ],
            "floor_pending": self.oot.floor_pending,
            "absent": sorted(self.absent),
            "killed": list(self.killed),
            "alerts": [a.to_json() for a in self.alerts],
        }


Step = tuple[TrackedHand, list[Ruling]]


def apply_engine(t: TrackedHand, event: Event, rules: RuleProfile) -> Step:
    """Run one engine event; a rejection leaves the tracked hand as it was."""
    hand, rulings = engine.step(t.hand, event, rules)
    if any(r.kind is RulingKind.REJECTED for r in rulings):
        return t, list(rulings)
    return evolve(t, hand=hand), list(rulings)


def note(t: TrackedHand, rulings: list[Ruling]) -> TrackedHand:
    """Keep the alerts and floor calls among ``rulings`` in the hand's published log."""
    kept = tuple(r for r in rulings if r.kind in (RulingKind.ALERT, RulingKind.FLOOR))
    return evolve(t, alerts=(*t.alerts, *kept)) if kept else t


def live_seat(t: TrackedHand, seat: int) -> bool:
    return t.hand.has_seat(seat) and t.hand.seat(seat).status is not SeatStatus.FOLDED


def betting_open(t: TrackedHand) -> bool:
    return t.hand.phase is Phase.BETTING and t.hand.action_on is not None
