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


Event = (
    PlayerAction
    | DealHole
    | DealBoard
    | ReplaceBoard
    | CountFoundChips
    | ShowHand
    | MuckHand
    | Discard
)
