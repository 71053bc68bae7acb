"""Draw-game hands: deuce-to-seven lowball (2-7 triple and single draw) and badugi.

Deuce-to-seven: the five cards are read as a high hand with the ace high only, straights
and flushes counting, and the *worst* high hand wins: 7-5-4-3-2 of mixed suits is the
best, A-2-3-4-5 is no straight but an ace-high hand. Badugi: the best hand is the largest
set of cards of different suits and different ranks (ace low); between sets of the same
size the lower from the highest card down wins, so A-2-3-4 of four suits is the best.

Values are ints where larger is stronger, as the showdown takes them (equal values split).

>>> deuce_to_seven(("7c", "5d", "4h", "3s", "2c"))
(-372197, '7-5-4-3-2 low')
>>> deuce_to_seven(("Ac", "2d", "3h", "4s", "5c"))[1]
'A-5-4-3-2 low'
>>> badugi(("Ac", "2d", "3h", "4s"))[1]
'4-card badugi 4-3-2-A'
>>> badugi(("Ac", "Ad", "3h", "3s"))[1]
'2-card 3-A'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

_HIGH = {r: i for i, r in enumerate("23456789TJQKA", start=2)}  # 2-7: the ace is high only
_LOW = {r: i for i, r in enumerate("A23456789TJQK", start=1)}  # badugi: the ace is low
_NAMES = "??23456789TJQKA"
_LOW_NAMES = "?A23456789TJQK"
# High-hand categories, lowest first (a lowball hand wants the lowest).
_CATEGORY_NAMES = (
    "low", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
    "straight flush",
)
_SCALE = 15


def deuce_to_seven_high(cards: Sequence[str]) -> tuple[int, ...]:
    """The five cards as a high hand, ace high only: (category, ranks by count then rank)."""
    if len(cards) != 5:
        raise ValueError(f"a deuce-to-seven hand has five cards, not {len(cards)}")
    ranks = [_HIGH[c[0]] for c in cards]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    pattern = sorted(counts.values(), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight = len(counts) == 5 and max(ranks) - min(ranks) == 4  # A-2-3-4-5 is not one
    if straight and flush:
        category = 8
    elif pattern[0] == 4:
        category = 7
    elif pattern[:2] == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight:
        category = 4
    elif pattern[0] == 3:
        category = 3
    elif pattern[:2] == [2, 2]:
        category = 2
    elif pattern[0] == 2:
        category = 1
    else:
        category = 0
    return (category, *order)


def deuce_to_seven(cards: Sequence[str]) -> tuple[int, str]:
    """A 2-7 lowball hand's value (larger is stronger: the lowest high hand) and name."""
    high = deuce_to_seven_high(cards)
    packed = high[0]
    for r in high[1:]:
        packed = packed * _SCALE + r
    packed *= _SCALE ** (5 - len(high[1:]))  # every hand on the same scale
    name = "-".join(_NAMES[r] for r in sorted((_HIGH[c[0]] for c in cards), reverse=True))
    category = _CATEGORY_NAMES[high[0]]
    return -packed, f"{name} {category}"


def badugi_cards(cards: Sequence[str]) -> tuple[str, ...]:
    """The best badugi of the cards: most cards of different suits and ranks, then the
    lowest from the highest card down (ace low)."""
    best: tuple[str, ...] = ()
    best_key: tuple[int, ...] = ()
    for size in range(min(4, len(cards)), 0, -1):
        for combo in combinations(cards, size):
            if len({c[0] for c in combo}) != size or len({c[1] for c in combo}) != size:
                continue
            key = tuple(sorted((_LOW[c[0]] for c in combo), reverse=True))
            if not best or key < best_key:
                best, best_key = combo, key
        if best:
            return tuple(sorted(best, key=lambda c: _LOW[c[0]], reverse=True))
    return best


def badugi(cards: Sequence[str]) -> tuple[int, str]:
    """A badugi hand's value (larger is stronger) and name."""
    if len(cards) != 4:
        raise ValueError(f"a badugi hand has four cards, not {len(cards)}")
    best = badugi_cards(cards)
    value = len(best)
    for i in range(4):
        value = value * _SCALE + (14 - _LOW[best[i][0]] if i < len(best) else 0)
    ranks = "-".join(_LOW_NAMES[_LOW[c[0]]] for c in best)
    kind = "4-card badugi" if len(best) == 4 else f"{len(best)}-card"
    return value, f"{kind} {ranks}"
