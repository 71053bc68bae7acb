"""Events: everything the engine hears, as frozen data. Time arrives on the event (``at_ms``).

These are the engine's core events (actions and dealt cards). The interpretation layer
turns physical chip motions and dealer declarations into these; the irregularities layer
adds card-reader detail. The engine never reads a clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ActionKind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # amount = street total
    RAISE = "raise"  # amount = street total ("raise to", R43-B)
    ALL_IN = "all_in"  # everything behind: a call or a raise depending on the stack


@dataclass(frozen=True, slots=True)
class PlayerAction:
    seat: int
    kind: ActionKind
    amount: int | None = None  # street total for BET and RAISE; chips forfeited for FOLD (R51-B)
    at_ms: int = 0
    floor_approved: bool = False  # the floor allowed what the rules left to it (e.g. T11 R37)


@dataclass(frozen=True, slots=True)
class DealHole:
    seat: int
    cards: tuple[str, ...]
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class DealBoard:
    cards: tuple[str, ...]
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


Event = PlayerAction | DealHole | DealBoard | ShowHand | MuckHand
