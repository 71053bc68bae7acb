"""Draw-game hands (issue #30): deuce-to-seven lowball and badugi, checked by property tests
against brute-force definitions written from the rules of the games, and against PokerKit."""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.evaluation import badugi, deuce_to_seven

DECK = [r + s for r in RANKS for s in SUITS]
_ACE_HIGH = "23456789TJQKA"
_ACE_LOW = "A23456789TJQK"


def hands(size: int) -> st.SearchStrategy[tuple[str, ...]]:
    return st.lists(st.sampled_from(DECK), min_size=size, max_size=size, unique=True).map(tuple)


def _lowball_brute(cards: tuple[str, ...]) -> tuple[int, ...]:
    """Deuce-to-seven by definition: the hand as a high hand (ace high only; a pair or
    better, a straight and a flush all count), smaller is better."""
    ranks = sorted((_ACE_HIGH.index(c[0]) for c in cards), reverse=True)
    groups = sorted({r: ranks.count(r) for r in ranks}.items(), key=lambda g: (g[1], g[0]),
                    reverse=True)
    shape = [n for _, n in groups]
    straight = len(groups) == 5 and ranks[0] - ranks[4] == 4
    flush = len({c[1] for c in cards}) == 1
    table = {(1, 1, 1, 1, 1): 0, (2, 1, 1, 1): 1, (2, 2, 1): 2, (3, 1, 1): 3, (3, 2): 6,
             (4, 1): 7}
    category = table[tuple(shape)]
    if straight or flush:
        category = 8 if straight and flush else 5 if flush else 4
    return (category, *(r for r, _ in groups))


def _badugi_brute(cards: tuple[str, ...]) -> tuple[int, tuple[int, ...]]:
    """Badugi by definition: of every subset with different suits and ranks the largest,
    then the lowest from its highest card down (ace low); larger key is better."""
    best: tuple[int, tuple[int, ...]] | None = None
    for size in range(1, 5):
        for combo in combinations(cards, size):
            if len({c[0] for c in combo}) == size and len({c[1] for c in combo}) == size:
                low = tuple(sorted(-_ACE_LOW.index(c[0]) for c in combo))
                key = (size, low)
                if best is None or key > best:
                    best = key
    assert best is not None
    return best


def _order(x: Any, y: Any) -> int:
    """1 when ``x`` is the larger, -1 when ``y`` is, 0 when they tie."""
    return int(x > y) - int(x < y)


@settings(max_examples=400, deadline=None)
@given(hands(5), hands(5))
def test_deuce_to_seven_orders_hands_as_the_brute_force_definition(
    a: tuple[str, ...], b: tuple[str, ...]
) -> None:
    ours = _order(deuce_to_seven(a)[0], deuce_to_seven(b)[0])
    assert ours == _order(_lowball_brute(b), _lowball_brute(a)), (a, b)  # smaller is better


@settings(max_examples=400, deadline=None)
@given(hands(4), hands(4))
def test_badugi_orders_hands_as_the_brute_force_definition(
    a: tuple[str, ...], b: tuple[str, ...]
) -> None:
    ours = _order(badugi(a)[0], badugi(b)[0])
    assert ours == _order(_badugi_brute(a), _badugi_brute(b)), (a, b)


_CATEGORIES = ("low", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
               "straight flush")


@settings(max_examples=400, deadline=None)
@given(hands(5), hands(4))
def test_hand_names_are_the_definitions(a: tuple[str, ...], c: tuple[str, ...]) -> None:
    """The names the showdown rulings print: 2-7 every rank highest first (ace high) and
    the high-hand category; badugi the cards of the best set, highest first (ace low)."""
    ranks = "-".join(sorted((x[0] for x in a), key=_ACE_HIGH.index, reverse=True))
    assert deuce_to_seven(a)[1] == f"{ranks} {_CATEGORIES[_lowball_brute(a)[0]]}"
    size, low = _badugi_brute(c)
    kind = "4-card badugi" if size == 4 else f"{size}-card"
    assert badugi(c)[1] == f"{kind} {'-'.join(_ACE_LOW[-r] for r in low)}"


def test_deuce_to_seven_aces_are_high_and_straights_and_flushes_count() -> None:
    best = deuce_to_seven(("7c", "5d", "4h", "3s", "2c"))[0]
    assert best > deuce_to_seven(("7c", "6d", "4h", "3s", "2c"))[0]  # 7-6 is worse than 7-5
    assert deuce_to_seven(("Ac", "2d", "3h", "4s", "5c"))[1] == "A-5-4-3-2 low"  # no wheel
    assert deuce_to_seven(("Kc", "Qd", "Jh", "9s", "8c"))[0] > deuce_to_seven(
        ("Ac", "2d", "3h", "4s", "5c"))[0]  # any king-high beats ace-high
    assert deuce_to_seven(("6c", "5d", "4h", "3s", "2c"))[1] == "6-5-4-3-2 straight"
    assert deuce_to_seven(("8c", "6c", "4c", "3c", "2c"))[0] < deuce_to_seven(
        ("Ac", "Kd", "Qh", "Js", "9c"))[0]  # a flush loses to ace-high
    assert deuce_to_seven(("2c", "2d", "3h", "4s", "5c"))[0] < deuce_to_seven(
        ("Ac", "Kd", "Qh", "Js", "9c"))[0]  # a pair loses to any no-pair hand


def test_badugi_counts_different_suits_and_ranks_ace_low() -> None:
    assert badugi(("Ac", "2d", "3h", "4s"))[1] == "4-card badugi 4-3-2-A"
    assert badugi(("Kc", "Qd", "Jh", "Ts"))[0] > badugi(("Ac", "2d", "3h", "3s"))[0]  # four > three
    assert badugi(("Ac", "2c", "3h", "4s"))[1] == "3-card 4-3-A"  # a suit twice: keep the ace
    assert badugi(("Ac", "Ad", "Ah", "As"))[1] == "1-card A"


@pytest.mark.needs("pokerkit")
@settings(max_examples=200, deadline=None)
@given(hands(5), hands(5), hands(4), hands(4))
def test_draw_hands_order_as_pokerkit(
    a: tuple[str, ...], b: tuple[str, ...], c: tuple[str, ...], d: tuple[str, ...]
) -> None:
    """PokerKit's StandardLowHand (2-7) and BadugiHand agree with ours on every pair."""
    import pokerkit as pk

    low = pk.StandardLowHand.from_game
    assert _order(deuce_to_seven(a)[0], deuce_to_seven(b)[0]) == _order(
        low("".join(a)), low("".join(b)))
    bad = pk.BadugiHand.from_game
    assert _order(badugi(c)[0], badugi(d)[0]) == _order(bad("".join(c)), bad("".join(d)))
