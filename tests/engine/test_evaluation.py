"""The evaluator's shortcuts give eval7's own answer on every hand (hold'em and Omaha)."""

from __future__ import annotations

from itertools import combinations

import eval7
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.evaluation import holdem_strength, omaha_strength

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _brute_omaha(hole: list[str], board: list[str]) -> int:
    return max(
        eval7.evaluate([eval7.Card(c) for c in (*two, *three)])
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
    )


@settings(max_examples=400, deadline=None)
@given(st.permutations(DECK))
def test_omaha_equals_eval7_over_all_sixty_hands(deck: list[str]) -> None:
    hole, board = deck[:4], deck[4:9]
    value, name = omaha_strength(hole, board)
    assert value == _brute_omaha(hole, board)
    assert name == eval7.handtype(value)


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK), st.sampled_from("cdhs"))
def test_omaha_flush_boards_equal_eval7(deck: list[str], suit: str) -> None:
    """Boards with three or more of one suit, where the flush shortcut matters."""
    suited = [c for c in deck if c[1] == suit]
    rest = [c for c in deck if c[1] != suit]
    board = suited[:3] + rest[:2]
    hole = suited[3:5] + rest[2:4]
    assert omaha_strength(hole, board)[0] == _brute_omaha(hole, board)


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK))
def test_holdem_equals_eval7(deck: list[str]) -> None:
    value, name = holdem_strength(deck[:2], deck[2:7])
    assert value == eval7.evaluate([eval7.Card(c) for c in deck[:7]])
    assert name == eval7.handtype(value)


def test_bad_card_text_is_named() -> None:
    import pytest

    with pytest.raises(ValueError):
        holdem_strength(("Zz", "As"), ("2c", "3c", "4c"))
    with pytest.raises(ValueError):
        omaha_strength(("Zz", "As", "Kd", "Kh"), ("2c", "3c", "4c"))
