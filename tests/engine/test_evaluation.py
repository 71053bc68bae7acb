"""Our pure-Python evaluator orders every hand as eval7 (the oracle, a test dependency
only: it has no ARM wheel) does, and names it the same: hold'em and Omaha.

Values are on our own scale, so the oracle check is on order: for any two hands, ours is
larger, equal or smaller exactly when eval7's is, and the category names agree."""

from __future__ import annotations

import random
from itertools import combinations

import eval7
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.evaluation import holdem_strength, omaha_strength

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def _eval7(cards: list[str]) -> int:
    return int(eval7.evaluate([eval7.Card(c) for c in cards]))


def _brute_omaha(hole: list[str], board: list[str]) -> int:
    return max(_eval7([*two, *three]) for two in combinations(hole, 2)
               for three in combinations(board, 3))


def _sign(a: int, b: int) -> int:
    return (a > b) - (a < b)


def _assert_same_order(pairs: list[tuple[int, int]]) -> None:
    """(ours, eval7's) per hand: equal exactly when eval7's are, and in the same order."""
    ours_of: dict[int, int] = {}
    theirs_of: dict[int, int] = {}
    for ours, theirs in pairs:
        assert ours_of.setdefault(theirs, ours) == ours, f"eval7 {theirs}: two values of ours"
        assert theirs_of.setdefault(ours, theirs) == theirs, f"ours {ours}: two of eval7's"
    by_theirs = [ours_of[t] for t in sorted(ours_of)]
    assert by_theirs == sorted(by_theirs)


def test_holdem_orders_twenty_thousand_random_hands_as_eval7() -> None:
    """Seeded random hands of five, six and seven cards, every category among them."""
    rng = random.Random(25)
    hands = [rng.sample(DECK, 5 + number % 3) for number in range(20_000)]
    for suit in "cdhs":  # straight flushes are too rare to leave to chance: all 40, plus two
        for low in range(-1, 9):
            run = ["A" + suit if r < 0 else "23456789TJQKA"[r] + suit for r in range(low, low + 5)]
            hands.append(run + rng.sample([c for c in DECK if c not in run], 2))
    pairs = []
    names = set()
    for cards in hands:
        value, name = holdem_strength(cards[:2], cards[2:])
        theirs = _eval7(cards)
        assert name == eval7.handtype(theirs), cards
        pairs.append((value, theirs))
        names.add(name)
    _assert_same_order(pairs)
    assert len(names) == 9  # every category, straight flushes included


def test_omaha_orders_five_thousand_random_deals_as_eval7() -> None:
    rng = random.Random(2025)
    pairs = []
    for number in range(5_000):
        cards = rng.sample(DECK, 9)
        if number % 2:  # half with three or more board cards of one suit: flushes matter
            suit = rng.choice("cdhs")
            suited = [c for c in DECK if c[1] == suit]
            rest = [c for c in DECK if c[1] != suit]
            rng.shuffle(suited)
            rng.shuffle(rest)
            cards = rest[:2] + suited[:2] + suited[2:5] + rest[2:4]
        hole, board = cards[:4], cards[4:]
        value, name = omaha_strength(hole, board)
        theirs = _brute_omaha(hole, board)
        assert name == eval7.handtype(theirs), (hole, board)
        pairs.append((value, theirs))
    _assert_same_order(pairs)


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK))
def test_holdem_showdown_winner_is_eval7s(deck: list[str]) -> None:
    """Two players on one board: the same winner or split as eval7 gives."""
    board = deck[4:9]
    ours = [holdem_strength(deck[i:i + 2], board) for i in (0, 2)]
    theirs = [_eval7([*deck[i:i + 2], *board]) for i in (0, 2)]
    assert _sign(ours[0][0], ours[1][0]) == _sign(*theirs)
    assert [name for _, name in ours] == [eval7.handtype(t) for t in theirs]


@settings(max_examples=300, deadline=None)
@given(st.permutations(DECK))
def test_omaha_showdown_winner_is_eval7s(deck: list[str]) -> None:
    """Exactly two hole cards and three board cards (R-Omaha), brute force by eval7."""
    board = deck[8:13]
    ours = [omaha_strength(deck[i:i + 4], board) for i in (0, 4)]
    theirs = [_brute_omaha(deck[i:i + 4], board) for i in (0, 4)]
    assert _sign(ours[0][0], ours[1][0]) == _sign(*theirs)
    assert [name for _, name in ours] == [eval7.handtype(t) for t in theirs]


def test_a_hand_evaluated_again_is_worth_the_same() -> None:
    """The look-up tables fill as hands are seen; a repeat must not change a value."""
    first = holdem_strength(("Ah", "Kh"), ("Qh", "Jh", "9c", "2d", "2s"))
    assert holdem_strength(("Ah", "Kh"), ("Qh", "Jh", "9c", "2d", "2s")) == first
    assert first[1] == "Pair"


def test_bad_card_text_is_named() -> None:
    with pytest.raises(ValueError, match="'Zz'"):
        holdem_strength(("Zz", "As"), ("2c", "3c", "4c"))
    with pytest.raises(ValueError, match="'Zz'"):
        omaha_strength(("Zz", "As", "Kd", "Kh"), ("2c", "3c", "4c"))
    with pytest.raises(ValueError, match="Omaha needs"):
        omaha_strength(("As", "Kd", "Kh"), ("2c", "3c"))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_batch_values_order_hands_as_eval7_does(rng) -> None:
    """One call for many deals: the same order, the same ties and the same names as eval7."""
    from pokertable.controller.evaluation_batch import categories, holdem_values, omaha_values

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
    from pokertable.controller.evaluation_batch import holdem_values, omaha_values

    with pytest.raises(ValueError, match="'Zz'"):
        holdem_values(
            [
                (("As", "Kd"), ("2c", "3c", "4c", "5d", "6d")),
                (("Zz", "As"), ("2c", "3c", "4c", "5d", "6d")),
            ]
        )
    with pytest.raises(ValueError, match="deal 0: 4 hole and 4 board"):
        omaha_values([(("As", "Kd", "Qh", "Jc"), ("2c", "3c", "4c", "5d"))])
