"""Eight-or-better lows and hi/lo pots (R20-C) for the hi-lo games of issue #30, checked
against PokerKit (the oracle only) on random Omaha hi-lo showdowns."""

from __future__ import annotations

import random

import pytest

from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.low_hands import best_low, hi_lo_shares, omaha_low
from pokertable.controller.engine.model import Variant
from pokertable.controller.engine.showdown import strength
from pokertable.controller.rules import TDA_2024

DECK = [r + s for r in RANKS for s in SUITS]


def test_R20C_low_qualifies_with_five_different_ranks_eight_or_lower() -> None:
    assert best_low(("As", "2d", "3c", "4h", "5s")) == (5, 4, 3, 2, 1)  # a wheel is a low
    assert best_low(("As", "2d", "3c", "4h", "9s")) is None  # a nine does not qualify
    assert best_low(("As", "Ad", "3c", "4h", "8s", "2c")) == (8, 4, 3, 2, 1)  # pair once
    assert (8, 5, 4, 3, 2) < (8, 6, 3, 2, 1)  # compared from the top card down
    # Omaha: exactly two hole cards; a low board alone is no low.
    assert omaha_low(("Ks", "Kd", "Qc", "Qd"), ("Ah", "2c", "3s", "4d", "5c")) is None
    assert omaha_low(("As", "8d", "Qc", "Qd"), ("2h", "3c", "4s", "Kd", "Kc")) == (
        8, 4, 3, 2, 1)


def test_R20C_odd_unit_of_the_whole_pot_goes_high_and_quartering() -> None:
    wheel = (5, 4, 3, 2, 1)
    # Seat 1 wins high alone and ties the low with seat 2: seat 1 gets three quarters.
    assert hi_lo_shares(400, [1, 2], {1: 9, 2: 3}, {1: wheel, 2: wheel}, 1, TDA_2024) == (
        (1, 300), (2, 100))
    # 101: 51 high (the odd chip of the total, R20-C), 50 low.
    assert hi_lo_shares(101, [2, 1], {1: 9, 2: 3}, {1: None, 2: wheel}, 1, TDA_2024) == (
        (1, 51), (2, 50))
    # No qualifying low: the high hand scoops.
    assert hi_lo_shares(101, [1, 2], {1: 9, 2: 3}, {1: None, 2: None}, 1, TDA_2024) == (
        (1, 101),)


@pytest.mark.needs("pokerkit")
def test_R20C_omaha_lows_rank_like_pokerkit_on_random_deals() -> None:
    import pokerkit as pk

    rng = random.Random(30)
    qualified = 0
    for _ in range(800):
        cards = rng.sample(DECK, 5 + 4 * 3)
        board, holes = cards[:5], [cards[5 + 4 * i: 9 + 4 * i] for i in range(3)]
        ours = [omaha_low(h, board) for h in holes]
        theirs = []
        for h in holes:
            try:
                theirs.append(pk.OmahaEightOrBetterLowHand.from_game("".join(h), "".join(board)))
            except ValueError:
                theirs.append(None)
        assert [o is None for o in ours] == [t is None for t in theirs], (holes, board)
        live = [i for i, o in enumerate(ours) if o is not None]
        qualified += len(live)
        for i in live:
            for j in live:
                a, b = ours[i], ours[j]
                assert a is not None and b is not None
                assert (a < b) == (theirs[i] > theirs[j]), (holes[i], holes[j], board)
    assert qualified > 250, qualified


@pytest.mark.needs("pokerkit")
def test_R20C_omaha_hi_lo_showdown_pots_split_like_pokerkit() -> None:
    """Checked-down Omaha hi-lo hands with odd antes: our split of the one pot equals
    PokerKit's finishing stacks, except where a half is split three or more ways with two
    or more odd chips (PokerKit gives them all to the first winner; R20-A one each, A16)."""
    import pokerkit as pk

    automations = tuple(getattr(pk.Automation, a) for a in (
        "ANTE_POSTING", "BET_COLLECTION", "BLIND_OR_STRADDLE_POSTING", "CARD_BURNING",
        "HOLE_DEALING", "BOARD_DEALING", "HOLE_CARDS_SHOWING_OR_MUCKING", "HAND_KILLING",
        "CHIPS_PUSHING", "CHIPS_PULLING"))
    rng = random.Random(2026)
    compared = split_low = scooped = 0
    for _ in range(300):
        n = rng.randint(2, 6)
        ante = rng.choice((1, 3, 5))
        game = pk.FixedLimitOmahaHoldemHighLowSplitEightOrBetter(
            automations, False, ante, (1, 2), 2, 4)
        random.seed(rng.random())
        state = game([500] * n, n)
        while state.status and state.actor_index is not None:
            state.check_or_call()
        holes: list[list[str]] = [[] for _ in range(n)]
        for o in state.operations:  # as dealt: PokerKit clears a mucked hand's cards
            if isinstance(o, pk.HoleDealing):
                holes[o.player_index].extend(repr(c) for c in o.cards)
        board = [repr(c) for cards in state.board_cards for c in cards]
        pot = n * (ante + 2)
        high = {i + 1: strength(Variant.PLO, holes[i], board)[0] for i in range(n)}
        low = {i + 1: omaha_low(holes[i], board) for i in range(n)}
        shares = dict(hi_lo_shares(pot, list(range(1, n + 1)), high, low, 1, TDA_2024))
        ours = [500 - ante - 2 + shares.get(i + 1, 0) for i in range(n)]
        pushes = [o for o in state.operations if isinstance(o, pk.ChipsPushing)]
        if any(sum(1 for a in o.amounts if a) >= 3 for o in pushes):
            continue
        compared += 1
        split_low += any(v is not None for v in low.values())
        scooped += all(v is None for v in low.values())
        assert ours == list(state.stacks), (holes, board, shares, state.stacks)
    assert compared > 220 and split_low > 70 and scooped > 35, (compared, split_low, scooped)
