"""Hand strength at showdown: hold'em (best five of seven), Omaha (two hole + three board).

eval7 (a C extension) counts hold'em hands; this module only turns card text into eval7
cards through a prebuilt table, so a hold'em evaluation costs little more than eval7's
own (figures beside raw eval7 in docs/benchmarks.md). Omaha needs the best of 60
five-card hands: suits only matter for a flush, so every five-card hand that is not a
flush is looked up by the product of its rank primes in a table built once from eval7,
and only the few suited combinations go back to eval7. A larger value is stronger.

>>> holdem_strength(("As", "Ks"), ("Qs", "Js", "Ts", "2d", "3c"))[1]
'Straight Flush'
>>> omaha_strength(("As", "Ah", "2c", "3d"), ("Ac", "Kd", "Qh", "Jc", "Td"))[1]
'Trips'
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement
from typing import Any

_RANKS = "23456789TJQKA"
_SUITS = "cdhs"
_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
# card text -> (rank prime, suit letter)
_PRIME_SUIT: dict[str, tuple[int, str]] = {
    r + s: (_PRIMES[i], s) for i, r in enumerate(_RANKS) for s in _SUITS
}

# Filled on the first evaluation: importing eval7 pulls in pyparsing (for its range
# strings), which start-up of a replay without a showdown should not pay for.
_CARDS: dict[str, Any] = {}  # card text -> eval7.Card
HAND_TYPES: list[str] = []  # eval7 keeps the category above bit 24 (0 high card ... 8 SF)
_evaluate: Callable[[list[Any]], int] = len
_no_flush_values: dict[int, int] = {}  # rank-prime product of five cards -> eval7 value


def _eval7_core() -> tuple[Any, Any]:
    """eval7's compiled ``cards`` and ``evaluate`` modules, without ``eval7/__init__``.

    The package's ``__init__`` imports its hand-range parser and with it pyparsing, about
    0.1 s of CPU that a one-hand ``pokertable replay`` would pay for nothing. The two
    extension modules are loaded under a placeholder parent that is removed at once, so
    a later ``import eval7`` runs the real package, which reuses the same modules.
    """
    if "eval7" in sys.modules:
        return sys.modules["eval7.cards"], sys.modules["eval7.evaluate"]
    spec = importlib.util.find_spec("eval7")
    if spec is None or spec.submodule_search_locations is None:
        raise ImportError("eval7 is not installed")
    placeholder = types.ModuleType("eval7")
    placeholder.__path__ = list(spec.submodule_search_locations)
    sys.modules["eval7"] = placeholder
    try:
        cards = importlib.import_module("eval7.cards")
        evaluate = importlib.import_module("eval7.evaluate")
    finally:
        del sys.modules["eval7"]
    return cards, evaluate


def _load() -> dict[str, Any]:
    global _evaluate
    cards, evaluate = _eval7_core()
    _CARDS.update({r + s: cards.Card(r + s) for r in _RANKS for s in _SUITS})
    HAND_TYPES[:] = [str(evaluate.handtype(t << 24)) for t in range(9)]
    _evaluate = evaluate.evaluate
    return _CARDS


def _card(text: str) -> Any:
    card = (_CARDS or _load()).get(text)
    return _eval7_core()[0].Card(text) if card is None else card  # eval7 names the bad card


def hand_type(value: int) -> str:
    if not _CARDS:
        _load()
    return HAND_TYPES[value >> 24]


def holdem_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    """Best five of the seven (or fewer) cards."""
    get = (_CARDS or _load()).__getitem__
    try:
        value = _evaluate([*map(get, hole), *map(get, board)])
    except KeyError:
        value = _evaluate([_card(c) for c in (*hole, *board)])
    return value, HAND_TYPES[value >> 24]


def _no_flush_table() -> dict[int, int]:
    """Every five-rank multiset (6,175 of them) valued by eval7 with suits that make no flush."""
    if not _no_flush_values:
        cards = _CARDS or _load()
        table = {}
        for ranks in combinations_with_replacement(range(13), 5):
            if any(ranks.count(r) > 4 for r in ranks):
                continue
            # sorted ranks, suits c d h s c: equal ranks get different suits, never five alike
            five = [cards[_RANKS[r] + _SUITS[i % 4]] for i, r in enumerate(ranks)]
            product = 1
            for r in ranks:
                product *= _PRIMES[r]
            table[product] = _evaluate(five)
        _no_flush_values.update(table)
    return _no_flush_values


def omaha_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    """Exactly two hole cards and three board cards (R-Omaha), best of all such hands."""
    table = _no_flush_values or _no_flush_table()
    try:
        hole_info = [_PRIME_SUIT[c] for c in hole]
        board_info = [_PRIME_SUIT[c] for c in board]
    except KeyError:
        for c in (*hole, *board):
            _card(c)  # raises eval7's error naming the card
        raise
    hole_products = [a[0] * b[0] for a, b in combinations(hole_info, 2)]
    board_products = [a[0] * b[0] * c[0] for a, b, c in combinations(board_info, 3)]
    if not hole_products or not board_products:
        raise ValueError("Omaha needs at least two hole cards and three board cards")
    best = max([table[h * b] for h in hole_products for b in board_products])
    board_suits = [s for _, s in board_info]
    for suit in set(board_suits):
        if board_suits.count(suit) < 3:
            continue
        suited_hole = [_CARDS[c] for c in hole if c[1] == suit]
        if len(suited_hole) < 2:
            continue
        suited_board = [_CARDS[c] for c in board if c[1] == suit]
        for two in combinations(suited_hole, 2):
            for three in combinations(suited_board, 3):
                value = _evaluate([*two, *three])
                if value > best:
                    best = value
    return best, HAND_TYPES[best >> 24]
