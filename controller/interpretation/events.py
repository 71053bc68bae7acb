"""What the interpretation layer hears: chips seen in a betting zone and dealer-entered words.

These events sit in front of the engine's ``PlayerAction``: the RFID zones report chips that
arrive (``ChipMotion``) or leave (``PriorChipsPulled``), the dealer console reports what the
player said (``Declaration``, with its precedence for R40-A) and the floor answers a pending
ruling with ``FloorDecision`` (``engine.rulings``, shared with irregularities). Time arrives
on the event; nothing here reads a clock.

>>> ChipMotion.of(4, 1000, 500).value
1500
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pokertable.controller.engine.rulings import FloorDecision

VALUE = "value"
NON_VALUE_KINDS = frozenset({"bounty", "clock_token", "other_non_value"})  # RP-22
KNOWN_KINDS = NON_VALUE_KINDS | {VALUE}


@dataclass(frozen=True, slots=True)
class ChipItem:
    """One chip as the tag registry resolved it; ``kind`` other than "value" is RP-22 material."""

    denomination: int
    kind: str = VALUE
    uid: str = ""

    @property
    def has_value(self) -> bool:
        return self.kind == VALUE


def chip_value(chips: tuple[ChipItem, ...]) -> int:
    """Face value of the value chips only: non-value items never count (RP-22)."""
    return sum(c.denomination for c in chips if c.kind == VALUE)


class DeclKind(StrEnum):
    """What the dealer heard (R40-B): general words, an amount only, or both."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "all_in"
    POT = "pot"
    COMPLETE = "complete"
    AMOUNT = "amount"  # amount only ("fourteen hundred"), R40-C
    CONDITIONAL = "conditional"  # "if you bet I raise", R59-A
    NONSTANDARD = "nonstandard"  # unofficial terms or gestures, R57


class Precedence(StrEnum):
    """Which came first, words or chips: R40-A decides the defining element from this."""

    VERBAL_FIRST = "verbal_first"
    SIMULTANEOUS = "simultaneous"
    CHIPS_FIRST = "chips_first"
    UNCLEAR = "unclear"  # unclear or contradictory: the TD rules (Add. 40-A Ex 1)


@dataclass(frozen=True, slots=True)
class ChipMotion:
    """Chips that arrived in ``seat``'s betting zone; ``settled`` closes the motion.

    ``combined_gesture`` is the dealer's mark for R46 Situation 5 (all chips combined and
    pushed or tossed forward). ``zone_read``: the readers see this zone, so the chips seen
    there are all it holds, and a posted blind no chips were seen for is made up first from
    these chips (put out late, Add. 46). The live table always sets it: the readers' first
    view of a zone is everything lying there. Without it (chips reported on top of whatever
    lies there), a posted amount whose chips were never seen is taken to lie there unseen
    (``SeatZone.view``'s stand-in).
    """

    seat: int
    chips: tuple[ChipItem, ...]
    at_ms: int = 0
    settled: bool = True
    combined_gesture: bool = False
    zone_read: bool = False

    @classmethod
    def of(cls, seat: int, *denominations: int, at_ms: int = 0, settled: bool = True,
           combined_gesture: bool = False, zone_read: bool = False) -> ChipMotion:
        """Value chips by denomination, as tests and the simulator write them."""
        return cls(seat, tuple(ChipItem(d) for d in denominations), at_ms, settled,
                   combined_gesture, zone_read)

    @property
    def value(self) -> int:
        return chip_value(self.chips)


@dataclass(frozen=True, slots=True)
class PriorChipsPulled:
    """Chips that left the zone: the player pulled prior-bet chips back (R46-B) or the dealer
    made change (``by_dealer``). ``fully`` is checked against what the zone still holds."""

    seat: int
    chips: tuple[ChipItem, ...]
    fully: bool | None = None
    at_ms: int = 0
    by_dealer: bool = False

    @classmethod
    def of(cls, seat: int, *denominations: int, fully: bool | None = None,
           at_ms: int = 0, by_dealer: bool = False) -> PriorChipsPulled:
        return cls(seat, tuple(ChipItem(d) for d in denominations), fully, at_ms, by_dealer)


@dataclass(frozen=True, slots=True)
class Declaration:
    """A dealer-entered verbal declaration. ``amount`` is a street total for BET/RAISE (R43-B).

    ``magnitude_unclear`` marks R57 words such as "five" (``amount=5``): the controller picks
    the highest reasonable amount not above the pot.
    """

    seat: int
    kind: DeclKind
    amount: int | float | None = None
    precedence: Precedence = Precedence.VERBAL_FIRST
    at_ms: int = 0
    magnitude_unclear: bool = False
    words: str = ""


@dataclass(frozen=True, slots=True)
class PotCountGiven:
    """The dealer quoted a pot count to ``seat`` (R54-A: pot limit only; R52-B if wrong)."""

    seat: int
    quoted: int
    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class CountErrorNoticed:
    """Someone realised that the last quoted pot count was wrong (R52-B correction window)."""

    at_ms: int = 0


@dataclass(frozen=True, slots=True)
class ChipsFoundBehind:
    """Chips of an all-in player found behind after a call (R62): the TD rules on them."""

    seat: int
    chips: tuple[ChipItem, ...]
    at_ms: int = 0

    @classmethod
    def of(cls, seat: int, *denominations: int, at_ms: int = 0) -> ChipsFoundBehind:
        return cls(seat, tuple(ChipItem(d) for d in denominations), at_ms)


InterpretationEvent = (
    ChipMotion | PriorChipsPulled | Declaration | FloorDecision | PotCountGiven
    | CountErrorNoticed | ChipsFoundBehind
)
