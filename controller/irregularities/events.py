"""What the card readers and the dealer tell the irregularities layer, as frozen data.

Card events come from the RFID readers already turned into cards by the tag registry
(``card`` is "As", a non-standard card such as "Jk", or "" when the tag is unknown).
Everything a reader cannot see (face-up exposures, boxed cards, who is at his seat, the
floor's decisions) arrives as a dealer- or floor-entered event. Time is a field.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pokertable.controller.engine.events import Event as EngineEvent
from pokertable.controller.engine.model import Level
from pokertable.controller.engine.rulings import FloorDecision as InterpretationFloorDecision


@dataclass(frozen=True, slots=True)
class CardSeen:
    """A card tag arrived in a zone: ``seat<N>.cards``, ``board``, ``burn`` or ``muck``."""

    zone: str
    card: str  # "As", a non-standard card ("Jk"), or "" for a tag the registry does not know
    tag_uid: str
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CardRemoved:
    zone: str
    card: str
    tag_uid: str
    at_ms: int = 0


class HandStartKind(StrEnum):
    """What began the hand (R23): the level in force at that moment is the hand's level."""

    FIRST_RIFFLE = "first_riffle"
    SHUFFLER_BUTTON = "shuffler_button"
    DEALER_PUSH = "dealer_push"


@dataclass(frozen=True, slots=True)
class HandStart:
    kind: HandStartKind
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class LevelStarted:
    """The floor or the clock announced a new level (R23)."""

    level: Level
    during_dealer_push: bool = False
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class BoxedCard:
    """Dealer entry: a card was found face up in the deck during the initial deal (R35-A1)."""

    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class DealerExposure:
    """Dealer entry: the dealer exposed a downcard; ``card_index`` 1 = the seat's first card."""

    seat: int
    card_index: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class Absent:
    seat: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class Present:
    seat: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class ConfirmMisdeal:
    """Dealer or floor declares the misdeal the controller offered (or another one, R35-A)."""

    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class DealerFirstCard:
    """Dealer entry: the first card went to the wrong seat (R35-A2), which the readers could
    not order. Heads-up they never can at dealing speed: the button's and the big blind's
    first cards land within one read window of each other."""

    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CorrectButton:
    """The floor orders the button put where the table says it belongs (R34-A)."""

    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CorrectLevel:
    """The floor finds the hand was started at the wrong level; ``level`` is the right one (R23)."""

    level: Level
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class KillHand:
    """The dealer killed a live hand by mistake or the floor ruled it fouled (R65-A)."""

    seat: int
    at_ms: int = 0


class SkippedChoice(StrEnum):
    """The floor's options for a player skipped by substantial action out of turn (R53-B)."""

    DEAD_HAND = "dead_hand"
    CALL_OR_FOLD_ONLY = "call_or_fold_only"
    ALL_OPTIONS = "all_options"


# One floor decision for every layer: ``ruling_id`` is the floor call's id, ``option`` the
# choice (here a ``SkippedChoice`` for R53-B).
FloorDecision = InterpretationFloorDecision


TableEvent = (
    CardSeen
    | CardRemoved
    | BoxedCard
    | DealerExposure
    | Absent
    | Present
    | ConfirmMisdeal
    | DealerFirstCard
    | CorrectButton
    | CorrectLevel
    | KillHand
    | FloorDecision
    | LevelStarted
    | EngineEvent
)
"""Everything ``TrackedHand``'s ``step`` accepts (engine events pass through it)."""
