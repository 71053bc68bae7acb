"""Hand strength at showdown: hold'em (best five of seven), Omaha (two hole + three board).

Pure Python, so the table installs on any Pi without a compiler or numpy (eval7 has no
ARM wheel; it stays the test suite's oracle, docs/packaging.md). A hand without a flush
is worth what its *rank multiset* is worth: each card adds its rank's key to a sum, and
the keys (Kenneth Shackleton's SKPokerEval rank keys) make that sum unique for every
multiset of up to seven ranks, so a value worked out once from the rules is looked up by
the sum ever after. A flush is worth what the 13-bit mask of its suit's ranks is worth.
The hand's value is the larger of the two, so a full house still beats a flush.

Values are *packed*: ``category * 16**5`` plus up to five kicker ranks in base 16, so a
larger value is a stronger hand and equal values split. ``handrank`` (numpy, the broadcast
side's equities) builds its array tables from the same rules below.

>>> holdem_strength(("As", "Ks"), ("Qs", "Js", "Ts", "2d", "3c"))[1]
'Straight Flush'
>>> omaha_strength(("As", "Ah", "2c", "3d"), ("Ac", "Kd", "Qh", "Jc", "Td"))[1]
'Trips'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CATEGORIES = (
    "High Card", "Pair", "Two Pair", "Trips", "Straight", "Flush", "Full House", "Quads",
    "Straight Flush",
)
PACK_SCALE = 16**5
"""A packed value is ``category * 16**5`` plus up to five kicker ranks in base 16."""
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
_SIZE_SHIFT = 24  # rank-key sums stay below 2**24; the card count goes above them

_CARD_IDS = {rank + suit: r * 4 + s for r, rank in enumerate(RANKS) for s, suit in enumerate(SUITS)}
# card text -> (rank key, suit index, rank bit)
_CARD_PARTS = {
    rank + suit: (RANK_KEYS[r], s, 1 << r)
    for r, rank in enumerate(RANKS)
    for s, suit in enumerate(SUITS)
}
_by_rank_sum: dict[int, int] = {}  # rank-key sum + (card count << 24) -> packed value
_by_flush_mask: dict[int, int] = {}  # 13-bit mask of one suit's ranks -> packed value


def card_id(text: str) -> int:
    """``"As"`` -> 51. Raises ValueError naming the card for anything else."""
    try:
        return _CARD_IDS[text]
    except (KeyError, TypeError):
        raise ValueError(f"card: {text!r} is not a card (rank 2-9TJQKA, suit cdhs)") from None


def card_text(card: int) -> str:
    return RANKS[card // 4] + SUITS[card % 4]


def hand_type(value: int) -> str:
    """The category name of a packed value ("Flush")."""
    return CATEGORIES[value // PACK_SCALE]


def _pack(cat: int, kickers: Sequence[int]) -> int:
    value = cat
    for index in range(5):
        value = value * 16 + (kickers[index] if index < len(kickers) else 0)
    return value


def _straight_high(ranks: Iterable[int]) -> int:
    """The top rank of the best straight among these ranks, or -1 (the wheel tops at 3)."""
    present = set(ranks)
    for high in range(12, 3, -1):
        if all(high - step in present for step in range(5)):
            return high
    if {12, 0, 1, 2, 3} <= present:
        return 3
    return -1


def rank_multiset_value(counts: Counter[int]) -> int:
    """The best five-card value of cards with these rank counts and no flush (fewer than
    five cards: the same categories, the missing kickers counted as nothing)."""
    ranks_desc = sorted(counts, reverse=True)
    top_rank, top_count = max(counts.items(), key=lambda item: (item[1], item[0]))
    if top_count == 4:
        return _pack(7, (top_rank, *[rank for rank in ranks_desc if rank != top_rank][:1]))
    trips = sorted((rank for rank, n in counts.items() if n == 3), reverse=True)
    pairs = sorted((rank for rank, n in counts.items() if n == 2), reverse=True)
    if trips and (len(trips) > 1 or pairs):
        return _pack(6, (trips[0], max([*trips[1:], *pairs])))
    straight = _straight_high(counts)
    if straight >= 0:
        return _pack(4, (straight,))
    if trips:
        return _pack(3, (trips[0], *[rank for rank in ranks_desc if rank != trips[0]][:2]))
    if len(pairs) >= 2:
        kicker = [rank for rank in ranks_desc if rank not in pairs[:2]][:1]
        return _pack(2, (pairs[0], pairs[1], *kicker))
    if pairs:
        return _pack(1, (pairs[0], *[rank for rank in ranks_desc if rank != pairs[0]][:3]))
    return _pack(0, ranks_desc[:5])


def flush_value(mask: int) -> int:
    """The best flush or straight flush among the ranks set in a suit's 13-bit mask."""
    ranks = [rank for rank in range(13) if mask >> rank & 1]
    if len(ranks) < 5:
        return 0
    straight = _straight_high(ranks)
    if straight >= 0:
        return _pack(8, (straight,))
    return _pack(5, sorted(ranks, reverse=True)[:5])


@cache
def all_packed() -> tuple[int, ...]:
    """Every distinct five-card value, packed, weakest first (7,462 of them)."""
    found: set[int] = set()
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) <= 4:
            found.add(rank_multiset_value(counts))
    found.update(v for v in (flush_value(m) for m in range(1 << 13)) if v)
    return tuple(sorted(found))


def _bad_card(cards: Iterable[str]) -> ValueError:
    for text in cards:
        card_id(text)  # raises, naming the card
    return ValueError("cards: not card text")


def _value_of(cards: Sequence[str]) -> int:
    """The packed value of the best five of these cards (any number up to seven)."""
    key = len(cards) << _SIZE_SHIFT
    masks = [0, 0, 0, 0]
    try:
        for text in cards:
            rank_key, suit, bit = _CARD_PARTS[text]
            key += rank_key
            masks[suit] |= bit
    except (KeyError, TypeError):
        raise _bad_card(cards) from None
    value = _by_rank_sum.get(key)
    if value is None:
        value = _by_rank_sum[key] = rank_multiset_value(
            Counter(RANKS.index(text[0]) for text in cards)
        )
    for mask in masks:
        if mask.bit_count() >= 5:
            flush = _by_flush_mask.get(mask)
            if flush is None:
                flush = _by_flush_mask[mask] = flush_value(mask)
            value = max(value, flush)
    return value


def holdem_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    """Best five of the seven (or fewer) cards."""
    value = _value_of([*hole, *board])
    return value, CATEGORIES[value // PACK_SCALE]


@cache
def _index_combinations(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """The index tuples of ``combinations``, built once per hand size."""
    return tuple(combinations(range(n), k))


def omaha_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    """Exactly two hole cards and three board cards (R-Omaha), best of all such hands.

    A hand of five is a hole pair plus a board triple, so its rank-key sum is the pair's
    sum plus the triple's: the 60 hands cost 16 sums and 60 look-ups. Only a suited pair
    with a suited triple of the same suit can make a flush."""
    try:
        hole_parts = [_CARD_PARTS[c] for c in hole]
        board_parts = [_CARD_PARTS[c] for c in board]
    except (KeyError, TypeError):
        raise _bad_card([*hole, *board]) from None
    pairs = _index_combinations(len(hole), 2)
    triples = _index_combinations(len(board), 3)
    if not pairs or not triples:
        raise ValueError("Omaha needs at least two hole cards and three board cards")
    five = 5 << _SIZE_SHIFT
    table = _by_rank_sum
    pair_keys = [five + hole_parts[i][0] + hole_parts[j][0] for i, j in pairs]
    triple_keys = [board_parts[a][0] + board_parts[b][0] + board_parts[c][0] for a, b, c in triples]
    try:  # every five valued before: the 60 look-ups and the maximum run in C
        best = max(map(table.__getitem__, [p + t for p in pair_keys for t in triple_keys]))
    except KeyError:
        best = 0
        for i, j in pairs:
            for a, b, c in triples:
                ranks = (hole[i][0], hole[j][0], board[a][0], board[b][0], board[c][0])
                key = five + sum([RANK_KEYS[RANKS.index(r)] for r in ranks])
                value = table.get(key)
                if value is None:
                    value = table[key] = rank_multiset_value(Counter(map(RANKS.index, ranks)))
                best = max(best, value)
    board_suits = [part[1] for part in board_parts]
    for i, j in pairs:
        suit = hole_parts[i][1]
        if hole_parts[j][1] != suit or board_suits.count(suit) < 3:
            continue
        for a, b, c in triples:
            if board_parts[a][1] == board_parts[b][1] == board_parts[c][1] == suit:
                mask = (hole_parts[i][2] | hole_parts[j][2] | board_parts[a][2]
                        | board_parts[b][2] | board_parts[c][2])
                flush = _by_flush_mask.get(mask)
                if flush is None:
                    flush = _by_flush_mask[mask] = flush_value(mask)
                best = max(best, flush)
    return best, CATEGORIES[best // PACK_SCALE]
