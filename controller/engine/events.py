"""Events: everything the engine hears, as frozen data. Time arrives on the event (``at_ms``).

These are the engine's core events (actions and dealt cards). The interpretation layer
turns physical chip motions and dealer declarations into these; the irregularities layer
adds card-reader detail. The engine never reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pokertable.controller.engine.model import Street


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # amount = street total
    RAISE = "raise"  # amount = street total ("raise to", R43-B)
    ALL_IN = "all_in"  # everything behind: a call or a raise depending on the stack
    BRING_IN = "bring_in"  # stud: the low card posts the bring-in (PHH ``pb``, RP-10-E)


@dataclass(frozen=True, slots=True)
class PlayerAction:
    seat: int
    kind: ActionKind
    amount: int | None = None  # street total for BET and RAISE; chips forfeited for FOLD (R51-B)
    at_ms: int = 0
    floor_approved: bool = False  # the floor allowed what the rules left to it (e.g. T11 R37)
    short_stands: bool = False  # R52-A: the dealer let a bet/raise below the minimum stand


@dataclass(frozen=True, slots=True)
class DealHole:
    seat: int
    cards: tuple[str, ...]
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class Discard:
    """Draw games: a player stands pat (no cards) or discards ``cards`` to draw as many
    (PHH ``sd``); his new cards come as a ``DealHole``."""

    seat: int
    cards: tuple[str, ...] = ()
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class DealBoard:
    cards: tuple[str, ...]
    at_ms: int = 0


class RepairReason(StrEnum):
    """Why a street's cards are replaced; the value is the rule concept the ruling cites."""

    FOUR_CARD_FLOP = "four_card_flop"  # R39-A: one of four flop cards became the burn
    FLOP_NO_BURN = "flop_no_burn"  # R39-B: a flop card became the burn, the next completes it


@dataclass(frozen=True, slots=True)
class ReplaceBoard:
    """The cards of the current street replaced by a repair (R39), not a new street.

    ``cards`` are the street's new cards (three for the flop, one for the turn or river).
    A public event, so the journal and the hand history show the repair and what it
    replaced, instead of a board silently overwritten.
    """

    street: Street
    cards: tuple[str, ...]
    reason: RepairReason
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CountFoundChips:
    """R62: the TD ruled chips found behind all-in ``seat`` part of the accepted action (R49)
    after his all-in's street closed: his all-in grows by ``amount`` and every player still
    in the hand who had matched it adds up to ``amount`` more to the pot."""

    seat: int
    amount: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class ShowHand:
    """A hand tabled at showdown (R13-A). ``cards`` may repeat the dealt cards or reveal them."""

    seat: int
    cards: tuple[str, ...] = ()
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class MuckHand:
    seat: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CardExposed:
    """Stud: the dealer exposed ``card``, one of ``seat``'s downcards, while dealing.

    On the initial deal it becomes the upcard (RP-10-A; TDA 2011 R31: a misdeal); on seventh
    street it is replaced if betting remains (RP-10-B). ``replace`` carries the floor's
    choice where the profile leaves it to the floor (None: the rules decide).
    """

    seat: int
    card: str
    replace: bool | None = None
    at_ms: int = 0


class DeadAtDeal(StrEnum):
    """Why a stud hand is killed after the initial deal; the value is the concept cited."""

    ABSENT = "at_seat"  # R30: not at his seat when the last card of the initial deal landed
    PENALTY = "penalty_hand"  # R71-C: on penalty, dealt in and killed


@dataclass(frozen=True, slots=True)
class KillAtDeal:
    """Stud: ``seat``'s cards are killed after the initial deal (R30, R71-C, RP-10-C): his
    ante stays in the pot and, dealt the bring-in card, he posts the bring-in first.
    ``posts_bring_in`` carries the floor's choice where the profile leaves it to the floor."""

    seat: int
    reason: DeadAtDeal
    posts_bring_in: bool | None = None
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class UpcardsPickedUp:
    """Stud: ``seat`` picked up his upcards (R66: facing action, the hand is dead). ``dead``
    carries the floor's choice where facing action is unclear (None: the rules decide)."""

    seat: int
    dead: bool | None = None
    at_ms: int = 0


StudEvent = CardExposed | KillAtDeal | UpcardsPickedUp

Event = (
    PlayerAction
    | DealHole
    | DealBoard
    | ReplaceBoard
    | CountFoundChips
    | ShowHand
    | MuckHand
    | Discard
    | CardExposed
    | KillAtDeal
    | UpcardsPickedUp
)
