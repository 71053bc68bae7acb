"""Vectorised poker hand values for exact equity enumeration (numpy).

Why not eval7 here: enumerating every board of a heads-up pre-flop spot means 3.4 million
seven-card evaluations, and one Python call per evaluation costs more than the evaluation.
This module evaluates whole arrays of hands at once from two tables:

* a hand without a flush is worth what its *rank multiset* is worth. Each card adds a
  per-rank constant to a key; the constants (Kenneth Shackleton's SKPokerEval rank keys)
  make the sum unique for every multiset of 5, 6 or 7 ranks (checked when the table is
  built), so the key indexes a table directly;
* a flush is worth what the 13-bit mask of ranks in its suit is worth (8,192 entries,
  zero when fewer than five bits are set).

The value of a hand is the larger of the two, so a full house still beats a flush.
Values are *strength indexes*: 0 (7-5-4-3-2 offsuit) to 7461 (a royal flush), ordered as
the rules of poker order hands; :func:`category` names them. Memory: one int16 table per
hand size used (15.6 MB for seven cards, 13.1 MB for five), built on first use in ~0.3 s.

Cards are integers ``rank * 4 + suit`` (rank 0 = deuce .. 12 = ace), as :func:`card_id`
gives them.

>>> value = best_value([card_id(c) for c in ("As", "Ks", "Qs", "Js", "Ts", "2d", "3c")])
>>> category(value), value
('Straight Flush', 7461)
>>> hands = np.array([[card_id(c) for c in ("Ah", "Ad", "Kc", "Ks", "2h", "7d", "9c")]])
>>> [category(int(v)) for v in seven_card_values(hands)]
['Two Pair']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement

from pokertable.controller.evaluation import (
    CATEGORIES,
    PACK_SCALE,
    RANK_KEYS,
    RANKS,
    SUITS,
    all_packed,
    card_id,
    card_text,
    flush_value,
    rank_multiset_value,
)
from pokertable.controller.extras import needs_extra

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as missing:  # the table never imports this module; the relay does
    raise needs_extra(missing, "broadcast", "exact equities") from None

__all__ = ["CATEGORIES", "PACK_SCALE", "RANKS", "SUITS", "card_id", "card_text"]

IntArray = npt.NDArray[np.int64]
ValueArray = npt.NDArray[np.int16]

_RANK_KEYS = np.array(RANK_KEYS, dtype=np.int64)


def category(value: int) -> str:
    """The name of a strength index's hand category ("Flush")."""
    return CATEGORIES[all_packed()[value] // PACK_SCALE]


@cache
def _packed_values() -> npt.NDArray[np.int64]:
    return np.array(all_packed(), dtype=np.int64)


@cache
def _index_of() -> dict[int, int]:
    return {packed: index for index, packed in enumerate(all_packed())}


_FIVE_OR_MORE = np.array([bin(mask).count("1") >= 5 for mask in range(1 << 13)])


@cache
def _flush_table() -> ValueArray:
    """Strength index of the best flush per 13-bit suit mask; -1 below five cards."""
    index = _index_of()
    return np.array([index[v] if (v := flush_value(mask)) else -1 for mask in range(1 << 13)],
                    dtype=np.int16)


@cache
def _rank_table(cards: int) -> ValueArray:
    """``table[key]``: the strength index of a rank-count key of ``cards`` cards.

    Five-card values come from the rules (:func:`_rank_multiset_value`); six and seven are
    the best of their five-card sub-multisets, found with numpy (a Python loop over the
    49,205 seven-card multisets took seconds on this machine).
    """
    multisets = np.array([ranks for ranks in combinations_with_replacement(range(13), cards)
                          if max(Counter(ranks).values()) <= 4], dtype=np.int64)
    keys = _RANK_KEYS[multisets].sum(axis=1)
    if len(np.unique(keys)) != len(keys):
        raise AssertionError(f"rank keys are not unique for {cards}-card hands")
    if cards == 5:
        index = _index_of()
        values = np.array([index[rank_multiset_value(Counter(row.tolist()))]
                           for row in multisets], dtype=np.int16)
    else:
        five = _rank_table(5)
        subsets = combination_indices(cards, 5).astype(np.int64)
        values = five[_RANK_KEYS[multisets[:, subsets]].sum(axis=2)].max(axis=1)
    table = np.full(int(keys.max()) + 1, -1, dtype=np.int16)
    table[keys] = values
    return table


def best_value(cards: Sequence[int]) -> int:
    """The value of the best five cards among five to seven (scalar, for labels and tests)."""
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"cards: {len(cards)} cards; a hand value needs 5 to 7")
    if len(set(cards)) != len(cards):
        raise ValueError(f"cards: duplicates in {[card_text(c) for c in cards]}")
    counts = Counter(card // 4 for card in cards)
    best = rank_multiset_value(counts)
    for suit in range(4):
        mask = sum(1 << (card // 4) for card in cards if card % 4 == suit)
        best = max(best, flush_value(mask))
    return _index_of()[best]


CARD_KEYS = np.array([RANK_KEYS[card // 4] for card in range(52)], dtype=np.int64)
"""Per card id: its rank's key (summed over a hand, the rank-multiset key)."""
CARD_LANES = np.array([1 << (card // 4 + 16 * (card % 4)) for card in range(52)],
                      dtype=np.int64)
"""Per card id: one bit in its suit's 16-bit lane (summed over a hand: four suit masks)."""


def _row_sums(per_card: IntArray, cards: npt.NDArray[np.integer]) -> IntArray:
    """Sum ``per_card`` over the last axis of ``cards``, one column at a time (numpy's
    reduction over a short last axis is several times slower than adding columns)."""
    total: IntArray = per_card[cards[..., 0]]
    for column in range(1, cards.shape[-1]):
        total = total + per_card[cards[..., column]]
    return total


def rank_keys(cards: npt.NDArray[np.integer]) -> IntArray:
    """Per row of card ids: the rank-multiset key (sum of the ranks' keys)."""
    return _row_sums(CARD_KEYS, cards)


def suit_lanes(cards: npt.NDArray[np.integer]) -> IntArray:
    """Per row of card ids: the four 13-bit suit masks packed in 16-bit lanes of one int64."""
    return _row_sums(CARD_LANES, cards)


def values_from_parts(keys: IntArray, lanes: IntArray, cards: int) -> ValueArray:
    """Hand values from rank keys and suit lanes of hands of ``cards`` cards each.

    The flush table is consulted only for hands with five or more cards of a suit.
    """
    # contiguous, so that ``flat`` is a view of ``value`` and not a copy
    value = np.ascontiguousarray(_rank_table(cards)[keys])
    flat = value.reshape(-1)
    flat_lanes = np.ascontiguousarray(lanes).reshape(-1)
    flush = _flush_table()
    for suit in range(4):
        mask = (flat_lanes >> (16 * suit)) & 0x1FFF
        candidates = np.flatnonzero(_FIVE_OR_MORE[mask])
        if len(candidates):
            flat[candidates] = np.maximum(flat[candidates], flush[mask[candidates]])
    return value


def seven_card_values(hands: npt.NDArray[np.integer]) -> ValueArray:
    """Values of an array of hands, each row 5-7 card ids (the best five of them)."""
    return values_from_parts(rank_keys(hands), suit_lanes(hands), hands.shape[-1])


@cache
def combination_indices(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n) in lexicographic order, as rows (built without Python loops
    over the rows: a 1.7-million-row table takes ~50 ms)."""
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    rows = np.arange(n - k + 1, dtype=np.int8).reshape(-1, 1)
    for column in range(1, k):
        last = rows[:, -1].astype(np.int64)
        room = n - k + column - last  # choices for the next element: last+1 .. n-k+column
        repeated = np.repeat(rows, room, axis=0)
        starts = np.repeat(np.cumsum(room) - room, room)
        offsets = np.arange(len(repeated)) - starts
        following = np.repeat(last + 1, room) + offsets
        rows = np.concatenate([repeated, following.astype(np.int8).reshape(-1, 1)], axis=1)
    return rows


