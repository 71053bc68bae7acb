"""Substantial action (R36) from the start of the hand and from other reference points."""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.engine import betting
from pokertable.controller.engine.model import Phase, SeatStatus
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.irregularities.events import BoxedCard, ConfirmMisdeal, DealerExposure
from pokertable.controller.irregularities.hand import HandStatus
from pokertable.controller.irregularities.substantial import (
    HAND_START,
    ReferencePoints,
    is_substantial,
)
from pokertable.controller.irregularities.tracked import mark_reference
from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, setup

FOUR = {1: 5000, 2: 5000, 3: 5000, 4: 5000}
CHECK_FOLD = replace(TDA_2024, name="sa-parenthesis", sa_check_fold_counts=True)


def preflop_four() -> Table:
    table = Table(setup(FOUR, button=4, sb=1, bb=2))
    table.deal()
    return table


def test_T24_36_D1_two_folds_are_not_SA() -> None:
    table = preflop_four()
    table.acts((3, "fold"), (4, "fold"))
    assert not table.sa
    assert table.t.published(TDA_2024)["substantial_action"] == {HAND_START: False}


def test_T24_36_D2_three_folds_are_SA() -> None:
    table = Table(setup({1: 5000, 2: 5000, 3: 5000, 4: 5000, 5: 5000}, button=5, sb=1, bb=2))
    table.deal()
    table.acts((3, "fold"), (4, "fold"), (5, "fold"))
    assert table.sa


def test_T24_36_D3_fold_call_call_fold_check_bet_are_SA() -> None:
    for pair in ([(3, "fold"), (4, "call")], [(3, "call"), (4, "fold")]):
        table = preflop_four()
        table.acts(*pair)
        assert table.sa
    assert is_substantial([("check", False), ("bet", True)], TDA_2024)


def test_T24_36_D4_two_checks_post_flop_are_not_SA_from_a_flop_reference_point() -> None:
    table = preflop_four()
    table.acts((3, "call"), (4, "fold"), (1, "fold"), (2, "check"))
    table.street(3)
    table.t = mark_reference(table.t, "flop")
    table.acts((2, "check"), (3, "check"))
    report = table.t.published(TDA_2024)["substantial_action"]
    assert report == {HAND_START: True, "flop": False}


def test_T24_36_D5_check_fold_main_clause_default_and_profile_alternative() -> None:
    pairs = [("check", False), ("fold", False)]
    assert not is_substantial(pairs, TDA_2024)
    assert is_substantial(pairs, CHECK_FOLD)
    assert not is_substantial([("fold", False), ("fold", False)], CHECK_FOLD)


def test_TDA24_36_posted_blinds_and_antes_never_count() -> None:
    from pokertable.controller.engine.model import AnteFormat, Level

    level = Level(small_blind=100, big_blind=200, ante=200, ante_format=AnteFormat.BIG_BLIND_ANTE)
    table = Table(setup(FOUR, button=4, sb=1, bb=2, level=level))
    table.deal()
    assert table.t.hand.pot_total == 500 and not table.sa
    table.acts((3, "call"))
    assert not table.sa  # one action with chips: not yet


def test_reference_points_are_named_and_replaceable() -> None:
    points = ReferencePoints().mark("after_bet", 3).mark("after_bet", 5)
    assert points.index("after_bet") == 5 and points.index(HAND_START) == 0


OFFERS = {
    "misdeal_first_card", "misdeal_not_entitled", "misdeal_dealt_out", "misdeal_card_count",
    "misdeal_nonstandard_card", "misdeal_boxed", "misdeal_exposed", "misdeal_declared",
}


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_SA_is_monotone_and_no_misdeal_is_offered_after_it(data: st.DataObject) -> None:
    """Random legal hands with random deal faults and dealer entries."""
    n = data.draw(st.integers(2, 6), label="players")
    seats = sorted(data.draw(st.sets(st.integers(1, 9), min_size=n, max_size=n)))
    stacks = {s: data.draw(st.integers(150, 3000)) for s in seats}
    b = data.draw(st.integers(0, n - 1), label="button index")
    button = seats[b]
    if n == 2:
        sb, bb = button, seats[(b + 1) % n]
    else:
        sb, bb = seats[(b + 1) % n], seats[(b + 2) % n]
    table = Table(setup(stacks, button=button, sb=sb, bb=bb))
    order = [s.seat for s in table.t.hand.seats_clockwise_from(button)] * 2
    fault = data.draw(st.sampled_from(["none", "short", "long", "first", "out"]), label="fault")
    if fault == "short":
        order.pop(data.draw(st.integers(0, len(order) - 1)))
    elif fault == "long":
        order.insert(data.draw(st.integers(0, len(order))), data.draw(st.sampled_from(seats)))
    elif fault == "first":
        order = order[1:] + order[:1]
    elif fault == "out":
        gone = data.draw(st.sampled_from(seats))
        order = [s for s in order if s != gone]
    table.deal(order)
    sa_seen = False
    for _ in range(80):
        if table.t.over or table.t.oot.floor_pending is not None:
            break
        hand = table.t.hand
        kind = data.draw(st.sampled_from(["act", "act", "act", "act", "dealer", "card"]))
        if hand.phase is Phase.DEALING:
            size = 3 if not hand.board else 1
            out = table.street(size)
        elif hand.phase is Phase.SHOWDOWN:
            break
        elif kind == "act" and hand.action_on is not None:
            opts = betting.options_for(hand, TDA_2024)
            assert opts is not None
            choices = ["fold", "call"] + (["check"] if opts.can_check else [])
            if opts.can_raise:
                choices.append("raise")
            pick = data.draw(st.sampled_from(choices))
            seat = hand.action_on
            if data.draw(st.booleans()):  # sometimes someone else acts out of turn
                live = [s.seat for s in hand.seats if s.status is SeatStatus.LIVE]
                seat = data.draw(st.sampled_from(live))
            out = table.act(seat, pick, opts.min_to if pick == "raise" else None)
        elif kind == "dealer":
            event = data.draw(st.sampled_from(["boxed", "exposure", "confirm"]))
            if event == "boxed":
                out = table.send(BoxedCard())
            elif event == "exposure":
                out = table.send(DealerExposure(data.draw(st.sampled_from(seats)), 1))
            else:
                out = table.send(ConfirmMisdeal())
        else:
            out = table.card("muck", "Jk", f"joker-{len(table.log)}")
        if sa_seen:
            assert table.sa, "SA turned back off"
            assert table.t.misdeal is None
            assert not OFFERS & {r.code for r in out if r.kind is not RulingKind.REJECTED}
            assert table.t.status is not HandStatus.MISDEAL
        sa_seen = sa_seen or table.sa
