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
    """A 2-7 lowball hand's value (larger is stronger: the lowest high hand) and name.

    ``deuce_to_seven_high`` packed, read straight from the five ranks sorted once: a
    replay values every hand at every draw-game showdown."""
    if len(cards) != 5:
        raise ValueError(f"a deuce-to-seven hand has five cards, not {len(cards)}")
    high = _HIGH
    a, b, c, d, e = cards
    ranks = [high[a[0]], high[b[0]], high[c[0]], high[d[0]], high[e[0]]]
    ranks.sort(reverse=True)
    r0, r1, r2, r3, r4 = ranks
    if r0 > r1 > r2 > r3 > r4:  # five ranks: no pair, maybe a straight or a flush
        flush = a[1] == b[1] == c[1] == d[1] == e[1]
        straight = r0 - r4 == 4  # A-2-3-4-5 is not one: the ace is high only
        category = (8 if flush else 4) if straight else (5 if flush else 0)
        packed = ((((category * _SCALE + r0) * _SCALE + r1) * _SCALE + r2) * _SCALE + r3)
        packed = packed * _SCALE + r4
    else:
        counts: dict[int, int] = {}
        for r in ranks:
            counts[r] = counts.get(r, 0) + 1
        # by count, then rank (a stable sort keeps the ranks' descending order in a tie)
        order = sorted(counts, key=counts.__getitem__, reverse=True)
        top, second = counts[order[0]], counts[order[1]]
        if top == 4:
            category = 7
        elif top == 3:
            category = 6 if second == 2 else 3
        else:
            category = 2 if second == 2 else 1
        packed = category
        for r in order:
            packed = packed * _SCALE + r
        packed *= _SCALE ** (5 - len(order))  # every hand on the same scale
    names = _NAMES
    name = f"{names[r0]}-{names[r1]}-{names[r2]}-{names[r3]}-{names[r4]}"
    return -packed, f"{name} {_CATEGORY_NAMES[category]}"


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
    """A badugi hand's value (larger is stronger) and name: ``badugi_cards`` without
    trying every combination, for the replay's showdowns.

    Which of the four cards may stand together depends only on which pairs share a rank
    or a suit, so the largest such sets are looked up by those six clashes
    (``_LARGEST``); among them the lowest is the one whose ranks, as bits, make the
    smallest number (distinct ranks compare highest first, as the sorted keys do)."""
    if len(cards) != 4:
        raise ValueError(f"a badugi hand has four cards, not {len(cards)}")
    low = _LOW
    a, b, c, d = cards
    ranks = (low[a[0]], low[b[0]], low[c[0]], low[d[0]])
    clashes = 0
    for bit, (i, j) in enumerate(_PAIRS):
        x, y = cards[i], cards[j]
        if x[0] == y[0] or x[1] == y[1]:
            clashes |= 1 << bit
    best = 0
    for subset in _LARGEST[clashes]:
        bits = 0
        for i in subset:
            bits |= 1 << ranks[i]
        if not best or bits < best:
            best = bits
    kept: list[int] = []
    while best:
        r = best.bit_length() - 1
        kept.append(r)
        best ^= 1 << r
    size = len(kept)
    value = size
    for i in range(4):
        value = value * _SCALE + (14 - kept[i] if i < size else 0)
    ranks_named = "-".join([_LOW_NAMES[r] for r in kept])
    kind = "4-card badugi" if size == 4 else f"{size}-card"
    return value, f"{kind} {ranks_named}"


_PAIRS = tuple(combinations(range(4), 2))


def _largest(clashes: int) -> tuple[tuple[int, ...], ...]:
    """The largest sets of the four cards with no two clashing (``clashes`` has a bit per
    pair of ``_PAIRS`` sharing a rank or a suit)."""
    for size in range(4, 0, -1):
        found = tuple(
            subset
            for subset in combinations(range(4), size)
            if not any(clashes >> _PAIRS.index(pair) & 1 for pair in combinations(subset, 2))
        )
        if found:
            return found
    raise AssertionError("a single card always stands")


_LARGEST = tuple(_largest(clashes) for clashes in range(1 << len(_PAIRS)))
