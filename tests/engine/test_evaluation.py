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


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_batch_values_order_hands_as_eval7_does(rng) -> None:
    """One call for many deals: the same order, the same ties and the same names as eval7."""
    from pokertable.controller.evaluation.batch import categories, holdem_values, omaha_values

    for hole, values, single in (
        (2, holdem_values, holdem_strength),
        (4, omaha_values, omaha_strength),
    ):
        deals = []
        for _ in range(40):
            cards = rng.sample(DECK, hole + 5)
            deals.append((cards[:hole], cards[hole:]))
        ours = values(deals).tolist()
        theirs = [single(h, b) for h, b in deals]
        for i in range(len(deals)):
            for j in range(len(deals)):
                assert (ours[i] < ours[j]) == (theirs[i][0] < theirs[j][0])
        assert categories(values(deals)) == [name for _, name in theirs]


def test_batch_names_a_bad_card_and_a_short_deal() -> None:
    import pytest

    from pokertable.controller.evaluation.batch import holdem_values, omaha_values

    with pytest.raises(ValueError, match="'Zz'"):
        holdem_values(
            [
                (("As", "Kd"), ("2c", "3c", "4c", "5d", "6d")),
                (("Zz", "As"), ("2c", "3c", "4c", "5d", "6d")),
            ]
        )
    with pytest.raises(ValueError, match="deal 0: 4 hole and 4 board"):
        omaha_values([(("As", "Kd", "Qh", "Jc"), ("2c", "3c", "4c", "5d"))])
