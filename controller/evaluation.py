"""Hand strength at showdown: hold'em (best five of seven), Omaha (two hole + three board).

eval7 (a C extension, ~1.4 M seven-card evaluations a second here) does the counting; this
module only chooses which cards may combine. A larger value is a stronger hand.

>>> holdem_strength(("As", "Ks"), ("Qs", "Js", "Ts", "2d", "3c"))[1]
'Straight Flush'
>>> omaha_strength(("As", "Ah", "2c", "3d"), ("Ac", "Kd", "Qh", "Jc", "Td"))[1]
'Trips'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

import eval7

from pokertable.controller.model import Variant


@lru_cache(maxsize=64)
def _card(text: str) -> eval7.Card:
    return eval7.Card(text)


def holdem_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    value = eval7.evaluate([_card(c) for c in (*hole, *board)])
    return value, str(eval7.handtype(value))


def omaha_strength(hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    best = -1
    board_cards = [_card(c) for c in board]
    hole_cards = [_card(c) for c in hole]
    for two in combinations(hole_cards, 2):
        for three in combinations(board_cards, 3):
            value = eval7.evaluate([*two, *three])
            best = max(best, value)
    return best, str(eval7.handtype(best))


def strength(variant: Variant, hole: Sequence[str], board: Sequence[str]) -> tuple[int, str]:
    if variant is Variant.PLO:
        return omaha_strength(hole, board)
    return holdem_strength(hole, board)
