"""Awarding a pot in the Omaha hi-lo games (FO/8, PO/8): R20-C, R20-A, R21.

Each pot (main and every side pot, R21) is split on its own among the hands that
contest it: the best high hand takes the high half, the best eight-or-better low the low
half, both made of exactly two hole cards and three board cards. When none of *that
pot's* hands has a qualifying low, its high hands take the whole pot, whatever lows play
in other pots. The odd unit of the pot goes to the high half (R20-C); ties within a half
split it with odd units clockwise from the button (R20-A), so a hand can be quartered. A
hand that wins both halves scoops and gets one award of each half. Profiles with
``odd_chip_identical_split_evenly`` (Clubs NZ Add. 20-F, TDA 2011 R16) split the whole pot
as evenly as possible when the same hands win both halves.

``showdown.award`` calls ``pot_awards`` for every contested pot of a hi-lo variant, and
``stud_showdown.award`` for stud/8's: its hands are valued on all seven cards and its tied
hands take odd units by the high card by suit (R20-B) through ``tie_order``, so both games'
awards have the same shape.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pokertable.controller.engine.low_hands import Low, omaha_low
from pokertable.controller.engine.model import Award, HandState, SeatState, builder
from pokertable.controller.engine.pots import split_pot
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.evaluation import omaha_strength
from pokertable.controller.rules import RuleProfile

HIGH = "high"
LOW = "low"
_LOW_FACE = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8"}

HighOf = Callable[[Sequence[str], Sequence[str]], tuple[int, str]]
LowOf = Callable[[Sequence[str], Sequence[str]], Low | None]
# Orders a half's tied winners (given clockwise from the button) for its odd units.
TieOrder = Callable[[str, list[int]], list[int]]


def low_name(low: Low) -> str:
    """``(8, 4, 3, 2, 1)`` -> ``'8-4-3-2-A low'``."""
    return "-".join(_LOW_FACE[r] for r in low) + " low"


class HandValues:
    """Each tabled hand's high and low, valued once for all the pots it contests."""

    __slots__ = ("_board", "_high", "_high_of", "_low", "_low_of")

    def __init__(
        self, board: tuple[str, ...], high_of: HighOf = omaha_strength, low_of: LowOf = omaha_low
    ) -> None:
        self._board = board
        self._high_of = high_of
        self._low_of = low_of
        self._high: dict[int, tuple[int, str]] = {}
        self._low: dict[int, Low | None] = {}

    def high(self, seat: SeatState) -> tuple[int, str]:
        if seat.seat not in self._high:
            self._high[seat.seat] = self._high_of(seat.hole, self._board)
        return self._high[seat.seat]

    def low(self, seat: SeatState) -> Low | None:
        if seat.seat not in self._low:
            self._low[seat.seat] = self._low_of(seat.hole, self._board)
        return self._low[seat.seat]


def pot_awards(
    state: HandState,
    pot_index: int,
    amount: int,
    contenders: Sequence[SeatState],
    values: HandValues,
    rules: RuleProfile,
    tie_order: TieOrder | None = None,
) -> tuple[Award, ...]:
    """The awards of one contested hi-lo pot: high half first, then the low half.

    ``contenders`` are the live hands that claim this pot; only their lows count (R21).
    Tied hands take a half's odd units clockwise from the button (R20-A) unless
    ``tie_order`` orders them otherwise (stud/8: by suit, R20-B).
    """
    unit = state.level.chip_unit
    claimed = {s.seat for s in contenders}
    clockwise = [s.seat for s in state.seats_clockwise_from(state.button) if s.seat in claimed]
    by_seat = {s.seat: s for s in contenders}
    highs = {n: values.high(by_seat[n]) for n in clockwise}
    best_high = max(v for v, _ in highs.values())
    high_winners = [n for n in clockwise if highs[n][0] == best_high]
    if tie_order is not None and len(high_winners) > 1:
        high_winners = tie_order(HIGH, high_winners)
    lows = {n: low for n in clockwise if (low := values.low(by_seat[n])) is not None}
    if not lows:  # no qualifying low in this pot: the high takes it all
        return tuple(
            Award(pot_index, n, chips, highs[n][1], HIGH)
            for n, chips in split_pot(amount, high_winners, unit)
        )
    best_low = min(lows.values())
    low_winners = [n for n in clockwise if lows.get(n) == best_low]
    if tie_order is not None and len(low_winners) > 1:
        low_winners = tie_order(LOW, low_winners)
    low_amount = (amount // unit // 2) * unit
    low_shares = dict(split_pot(low_amount, low_winners, unit))
    if rules.odd_chip_identical_split_evenly and high_winners == low_winners:
        # NZ Add. 20-F / T11 R16: the whole pot as evenly as possible; each hand's share
        # is shown as its low part and the rest as high.
        totals = dict(split_pot(amount, high_winners, unit))
        high_shares = {n: totals[n] - low_shares[n] for n in high_winners}
    else:
        high_shares = dict(split_pot(amount - low_amount, high_winners, unit))
    return (
        *(Award(pot_index, n, c, highs[n][1], HIGH) for n, c in high_shares.items()),
        *(Award(pot_index, n, c, low_name(lows[n]), LOW) for n, c in low_shares.items()),
    )


def rule_ids(
    awards: Sequence[Award], rules: RuleProfile, tie: str = "odd_chip"
) -> tuple[str, ...]:
    """What a hi-lo pot's award rulings cite: R20-C for the halves, ``tie`` for a half split
    between tied hands (R20-A; stud/8's ``odd_chip_stud``, R20-B), R21 for a side pot."""
    concepts = ["odd_chip_hi_lo"]
    for half in (HIGH, LOW):
        if sum(1 for a in awards if a.half == half) > 1:
            concepts.append(tie)
            break
    if awards and awards[0].pot_index > 0:
        concepts.append("side_pots")
    return tuple(rules.cite(c) for c in concepts)


def pot_label(award: Award, shares: Sequence[Award]) -> str:
    """How an award ruling names its pot: ``main pot``, ``side pot 1``; a hi-lo pot adds
    the half (``main pot low half``) or ``(no qualifying low)`` when the high took it all."""
    label = "main pot" if award.pot_index == 0 else f"side pot {award.pot_index}"
    if not award.half:
        return label
    if any(a.half == LOW for a in shares):
        return f"{label} {award.half} half"
    return f"{label} (no qualifying low)"


_ruling = builder(Ruling)


def award_rulings(shares: Sequence[Award], rule_ids: tuple[str, ...]) -> list[Ruling]:
    """One ``pot_awarded`` ruling per award of a pot, in every game: ``main pot low half
    115 to seat 1 with 8-4-3-2-A low``."""
    rulings = []
    for award in shares:
        hand = f" with {award.hand_name}" if award.hand_name else ""
        text = f"{pot_label(award, shares)} {award.amount} to seat {award.seat}{hand}"
        rulings.append(
            _ruling(RulingKind.INFO, rule_ids, text, seat=award.seat, code="pot_awarded")
        )
    return rulings
