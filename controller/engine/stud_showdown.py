"""The stud showdown: the best five of seven (stud), the best A-5 low (razz), stud/8's split
between the best high and the best eight-or-better low (``low_hands``), and the award.
Stud/8's pots are awarded by ``hi_lo.pot_awards`` like Omaha hi-lo's (one award per half
won), its tied hands ordered by suit here.

A split pot's odd chip goes to the high side (R20-C); tied hands split with the odd chips by
the high card by suit in each winner's five-card hand (R20-B), not clockwise from a button
(R20-A). The deal, the bring-in and the betting order are ``stud``'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from pokertable.controller.engine import hi_lo
from pokertable.controller.engine.low_hands import Low, best_low
from pokertable.controller.engine.model import (
    Award,
    HandState,
    Phase,
    SeatState,
    Variant,
    builder,
)
from pokertable.controller.engine.pots import build_pots, split_pot
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.engine.showdown import awarded, contested_pots
from pokertable.controller.engine.stud import HIGH_RANK, LOW_RANK, SUIT, card_key
from pokertable.controller.evaluation import holdem_strength
from pokertable.controller.rules import RuleProfile

_COMPLETE = Phase.COMPLETE
_award = builder(Award)  # Award(...) with plain stores (model.builder)


def _cards(state: HandState, seat: SeatState) -> tuple[str, ...]:
    return seat.hole + state.board


def high_hand(cards: Sequence[str]) -> tuple[int, str]:
    """The best five of the cards: its value (larger is stronger) and its name."""
    return holdem_strength(cards, ())


def high_five(cards: Sequence[str], value: int) -> tuple[str, ...]:
    """Of the fives worth ``value``, the one whose high card by suit is highest: the
    five-card hand R20-B looks at (asked only of tied winners)."""
    if len(cards) <= 5:
        return tuple(cards)
    fives = [five for five in combinations(cards, 5) if holdem_strength(five, ())[0] == value]
    return max(fives, key=lambda f: _top(f, HIGH_RANK))


RazzLow = tuple[int, ...]  # pattern, 0, ranks from the top: smaller is better


def _razz_value(five: Sequence[str]) -> RazzLow:
    counts: dict[int, int] = {}
    for c in five:
        rank = LOW_RANK[c[0]]
        counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return (*[n for _, n in groups], 0, *[r for r, _ in groups])


def razz_low(cards: Sequence[str]) -> RazzLow:
    """The best A-5 low of any five cards: pairs count against it, straights and flushes do
    not, the ace is low."""
    ranks = sorted({LOW_RANK[c[0]] for c in cards})
    if len(ranks) >= 5:  # five different ranks: the five lowest
        return (1, 1, 1, 1, 1, 0, *reversed(ranks[:5]))
    return min(_razz_value(five) for five in combinations(cards, 5))


def razz_five(cards: Sequence[str], value: RazzLow) -> tuple[str, ...]:
    """Of the fives worth ``value``, the one whose high card by suit is highest (R20-B)."""
    fives = [five for five in combinations(cards, 5) if _razz_value(five) == value]
    return max(fives, key=lambda f: _top(f, LOW_RANK))


def _top(cards: Sequence[str], ranks: dict[str, int]) -> tuple[int, int]:
    """The high card by suit (R20-B)."""
    return max(card_key(c, ranks) for c in cards)


def _low_five(cards: Sequence[str], low: Low) -> tuple[str, ...]:
    """The cards of an eight-or-better low, the best suit of each rank."""
    return tuple(
        max((c for c in cards if LOW_RANK[c[0]] == r), key=lambda c: SUIT[c[1]]) for r in low
    )


def _stud_low(hole: Sequence[str], board: Sequence[str]) -> Low | None:
    return best_low((*hole, *board))


def _suit_order(state: HandState, values: hi_lo.HandValues) -> hi_lo.TieOrder:
    """Stud/8's ``tie_order``: a half's tied winners by the high card by suit in their
    five-card hands for that half (R20-B), not clockwise from a button."""

    def order(half: str, winners: list[int]) -> list[int]:
        seats = {n: state.seat(n) for n in winners}
        if half == hi_lo.HIGH:
            value = values.high(seats[winners[0]])[0]
            highs = {n: high_five(_cards(state, s), value) for n, s in seats.items()}
            return _by_suit(winners, highs, HIGH_RANK)
        lows = {n: _low_five(_cards(state, s), low)
                for n, s in seats.items() if (low := values.low(s)) is not None}
        return _by_suit(winners, lows, LOW_RANK)

    return order


def _low_name(ranks: Sequence[int]) -> str:
    return "-".join("A23456789TJQK"[r - 1] for r in ranks) + " low"


def _by_suit(
    winners: list[int], fives: dict[int, tuple[str, ...]], ranks: dict[str, int]
) -> list[int]:
    """R20-B: tied winners ordered by the high card by suit in their five-card hands."""
    return sorted(winners, key=lambda n: _top(fives[n], ranks), reverse=True)


def award(
    state: HandState, rulings: list[Ruling], rules: RuleProfile, *, uncontested: bool
) -> HandState:
    """Award every pot: ties split with odd chips by suit (R20-B); stud/8's pots in halves
    like Omaha hi-lo's (``hi_lo.pot_awards``: one award per half won, R20-C, R21)."""
    by_number = {s.seat: s for s in state.seats}
    pots, claims = contested_pots(build_pots(state.seats), by_number)
    stacks = {s.seat: s.stack for s in state.seats}
    unit = state.level.chip_unit
    variant = state.variant
    highs: dict[int, tuple[int, str]] = {}
    hi_lo_values = hi_lo.HandValues(state.board, holdem_strength, _stud_low)
    tie_order = _suit_order(state, hi_lo_values)
    razz: dict[int, RazzLow] = {}
    per_pot: list[tuple[list[Award], tuple[str, ...]]] = []
    for index, pot in enumerate(pots):
        contenders = [s.seat for s in claims[index]]
        names: dict[int, str] = {}
        cited: tuple[str, ...] = (rules.cite("side_pots"),)
        if len(contenders) == 1 or uncontested:
            shares: tuple[tuple[int, int], ...] = ((contenders[0], pot.amount),)
            names[contenders[0]] = ""
            if uncontested:
                cited = (rules.cite("uncontested"),)
        elif variant is Variant.RAZZ:
            for n in contenders:
                if n not in razz:
                    razz[n] = razz_low(_cards(state, by_number[n]))
            best = min(razz[n] for n in contenders)
            winners = [n for n in contenders if razz[n] == best]
            if len(winners) > 1:
                fives = {n: razz_five(_cards(state, by_number[n]), best) for n in winners}
                winners = _by_suit(winners, fives, LOW_RANK)
                cited = (rules.cite("odd_chip_stud"),)
            shares = split_pot(pot.amount, winners, unit)
            for n in winners:
                names[n] = _low_name(best[best.index(0) + 1 :])
        elif variant is Variant.STUD_HILO:
            halves = hi_lo.pot_awards(
                state, index, pot.amount, claims[index], hi_lo_values, rules, tie_order
            )
            per_pot.append((list(halves), hi_lo.rule_ids(halves, rules, "odd_chip_stud")))
            for a in halves:
                stacks[a.seat] += a.amount
            continue
        else:
            for n in contenders:
                if n not in highs:
                    highs[n] = high_hand(_cards(state, by_number[n]))
            best_high = max(highs[n][0] for n in contenders)
            high_winners = [n for n in contenders if highs[n][0] == best_high]
            high_order = high_winners
            if len(high_winners) > 1:
                fives = {n: high_five(_cards(state, by_number[n]), best_high) for n in high_winners}
                high_order = _by_suit(high_winners, fives, HIGH_RANK)
                cited = (rules.cite("odd_chip_stud"),)
            shares = split_pot(pot.amount, high_order, unit)
            for n in high_winners:
                names[n] = highs[n][1]
        awards = []
        for n, amount in shares:
            stacks[n] += amount
            awards.append(_award(index, n, amount, names.get(n, "")))
        per_pot.append((awards, cited))
    for awards, cited in reversed(per_pot):  # side pots first, then the main pot (Add. 16)
        rulings += hi_lo.award_rulings(awards, cited)
    return awarded(state, stacks, pots, tuple([a for awards, _ in per_pot for a in awards]))
