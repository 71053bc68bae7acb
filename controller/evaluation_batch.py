"""Many showdowns in one call: hold'em and Omaha hand values for whole arrays of deals.

``evaluation`` answers one hand at a time in pure Python, which suits a live showdown of a
few players (and a Pi without numpy). A consumer with many hands at once (a re-check of an
archive of hands, a simulation, the benchmark) pays a Python call per hand there; here
the card text of every deal is turned into card ids in one numpy pass and valued with the
rank-key and flush tables of ``handrank`` (the equity calculator's evaluator), so the
per-hand cost is a few array operations. Omaha (exactly two hole cards and three board
cards, R-Omaha) values the 60 hands of every deal at once: a rank key is a sum, so a hole
pair's key plus a board triple's key is the five cards' key, and a flush needs a suited
pair and a triple of the same suit.

Values are ``handrank`` strength indexes (0 = 7-5-4-3-2 offsuit ... 7461 = royal flush):
they order hands as ``evaluation``'s values do, on a different scale; ``categories`` names them.

>>> holdem_values([(("As", "Ks"), ("Qs", "Js", "Ts", "2d", "3c"))]).tolist()
[7461]
>>> categories(omaha_values([(("As", "Ah", "2c", "3d"), ("Ac", "Kd", "Qh", "Jc", "Td"))]))
['Trips']
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import chain

from pokertable.controller.extras import needs_extra

try:
    import numpy as np
    import numpy.typing as npt
except ModuleNotFoundError as missing:
    raise needs_extra(missing, "broadcast", "batch hand values") from None

from pokertable.controller import handrank

Deal = tuple[Sequence[str], Sequence[str]]  # (hole cards, board), card text such as "As"

_RANK_OF = np.full(256, -1, dtype=np.int64)
_SUIT_OF = np.full(256, -1, dtype=np.int64)
for _i, _r in enumerate(handrank.RANKS):
    _RANK_OF[ord(_r)] = _i
for _i, _s in enumerate(handrank.SUITS):
    _SUIT_OF[ord(_s)] = _i


def card_ids(deals: Sequence[Deal], hole: int, board: int) -> npt.NDArray[np.int64]:
    """Card ids of every deal, one row each: hole cards then board; ValueError names a bad
    card (or a deal with other card counts)."""
    text = "".join(map("".join, chain.from_iterable(deals)))  # no Python loop per deal
    width = hole + board
    if len(text) != 2 * width * len(deals):
        _raise_bad(deals, hole, board)
    try:
        raw = np.frombuffer(text.encode("ascii"), dtype=np.uint8).reshape(len(deals), width, 2)
    except UnicodeEncodeError:
        _raise_bad(deals, hole, board)
    ranks = _RANK_OF[raw[:, :, 0]]
    suits = _SUIT_OF[raw[:, :, 1]]
    if (ranks < 0).any() or (suits < 0).any():
        _raise_bad(deals, hole, board)
    ids: npt.NDArray[np.int64] = ranks * 4 + suits
    return ids


def _raise_bad(deals: Sequence[Deal], hole: int, board: int) -> None:
    for number, (h, b) in enumerate(deals):
        if len(h) != hole or len(b) != board:
            raise ValueError(
                f"deal {number}: {len(h)} hole and {len(b)} board cards; "
                f"{hole} and {board} expected"
            )
        for card in (*h, *b):
            handrank.card_id(card)  # raises ValueError naming the card
    raise ValueError("cards: not card text")


def holdem_values(deals: Sequence[Deal]) -> handrank.ValueArray:
    """Best five of two hole cards and a five-card board, for every deal."""
    if not deals:
        return np.zeros(0, dtype=np.int16)
    return handrank.seven_card_values(card_ids(deals, 2, 5))


@cache
def _omaha_indices() -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    pairs = handrank.combination_indices(4, 2).astype(np.intp)
    triples = handrank.combination_indices(5, 3).astype(np.intp) + 4
    return pairs, triples


def omaha_values(deals: Sequence[Deal]) -> handrank.ValueArray:
    """Best hand of exactly two of four hole cards and three of five board cards."""
    if not deals:
        return np.zeros(0, dtype=np.int16)
    ids = card_ids(deals, 4, 5)
    pairs, triples = _omaha_indices()
    keys = handrank.CARD_KEYS[ids]
    pair_keys = keys[:, pairs[:, 0]] + keys[:, pairs[:, 1]]  # (n, 6)
    triple_keys = keys[:, triples[:, 0]] + keys[:, triples[:, 1]] + keys[:, triples[:, 2]]
    best = handrank._rank_table(5)[pair_keys[:, :, None] + triple_keys[:, None, :]]  # (n, 6, 10)
    suits = ids & 3
    bits = np.left_shift(1, ids >> 2)
    pair_suited = suits[:, pairs[:, 0]] == suits[:, pairs[:, 1]]
    triple_suited = (suits[:, triples[:, 0]] == suits[:, triples[:, 1]]) & (
        suits[:, triples[:, 0]] == suits[:, triples[:, 2]]
    )
    flush = (
        pair_suited[:, :, None]
        & triple_suited[:, None, :]
        & (suits[:, pairs[:, 0]][:, :, None] == suits[:, triples[:, 0]][:, None, :])
    )
    if flush.any():
        pair_bits = bits[:, pairs[:, 0]] | bits[:, pairs[:, 1]]
        triple_bits = bits[:, triples[:, 0]] | bits[:, triples[:, 1]] | bits[:, triples[:, 2]]
        where = np.nonzero(flush)
        masks = pair_bits[where[0], where[1]] | triple_bits[where[0], where[2]]
        best[where] = np.maximum(best[where], handrank._flush_table()[masks])
    values: handrank.ValueArray = best.reshape(len(deals), -1).max(axis=1)
    return values


def categories(values: npt.NDArray[np.integer]) -> list[str]:
    """The category name of every value ("Flush"), as ``evaluation`` names them."""
    names = handrank.CATEGORIES
    return [names[c] for c in _category_of()[values].tolist()]


@cache
def _category_of() -> npt.NDArray[np.int64]:
    category: npt.NDArray[np.int64] = handrank._packed_values() // handrank.PACK_SCALE
    return category
