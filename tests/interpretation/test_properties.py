"""Properties over random chip pushes and words: conservation, zone bounds, legal minimums."""

from __future__ import annotations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from pokertable.controller.engine.betting import options_for
from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import Declaration, DeclKind, InterpretedHand, Precedence
from tests.interpretation.helpers import postflop, push, run, say

DENOMINATIONS = (25, 100, 500, 1000, 5000)


@st.composite
def situations(draw: st.DrawFn) -> tuple[InterpretedHand, int, tuple[int, ...],
                                         Declaration | None]:
    variant = draw(st.sampled_from([Variant.NLHE, Variant.PLO]))
    stacks = {s: draw(st.integers(300, 40000)) for s in (1, 2, 3)}
    hand = postflop(stacks, button=3, big=200, pot=draw(st.integers(0, 8000)), variant=variant)
    if draw(st.booleans()):
        opts = options_for(hand.state, hand.rules)
        assert opts is not None
        bet = draw(st.integers(opts.min_to, max(opts.min_to, opts.max_to)))
        hand, _ = run(hand, say(1, "bet", bet))
    actor = hand.state.action_on
    assert actor is not None
    me = hand.state.seat(actor)
    chips = tuple(draw(st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=8)))
    while sum(chips) > me.stack + me.bet and len(chips) > 1:
        chips = chips[:-1]
    if sum(chips) > me.stack + me.bet:
        chips = (me.stack + me.bet,)
    decl = None
    if draw(st.booleans()):
        kind = draw(st.sampled_from([DeclKind.CALL, DeclKind.RAISE, DeclKind.CHECK,
                                     DeclKind.ALL_IN]))
        decl = Declaration(actor, kind, None, draw(st.sampled_from(list(Precedence))))
    return hand, actor, chips, decl


@settings(max_examples=400, deadline=None)
@given(situations())
def test_rulings_conserve_chips_and_respect_zone_and_minimum(
        case: tuple[InterpretedHand, int, tuple[int, ...], Declaration | None]) -> None:
    hand, actor, chips, decl = case
    before = hand.state.seat(actor)
    opts = options_for(hand.state, hand.rules)
    assert opts is not None
    if decl is not None:
        hand, _ = hand.step(decl)
    after, out = hand.step(push(actor, *chips))
    zone = sum(chips)
    for interp in out.interpretations:
        if interp.seat != actor:
            continue
        event(interp.code)
        if interp.floor is not None:
            assert interp.action is None and interp.floor.options
            assert after.state.seat(actor).bet == before.bet  # nothing applied: the floor waits
            for option in interp.floor.options:
                if option.action not in (None, ActionKind.FOLD):
                    assert option.returned <= zone
                    assert option.total <= before.stack + before.bet
            continue
        if interp.action is None:
            continue
        # A ruling never takes more chips than the zone holds ...
        assert 0 <= interp.returned <= zone
        if interp.action is not ActionKind.FOLD and interp.code not in ("paid", "owed"):
            # ... and chips are conserved: what lies out, plus what he adds, minus change.
            assert zone + interp.add - interp.returned == interp.total, interp
            seat = after.state.seat(actor)
            assert seat.bet + seat.stack == before.bet + before.stack
            if after.state.street == hand.state.street:
                assert seat.bet == interp.total
        # ... and a bet below the legal minimum is never left standing.
        if interp.action in (ActionKind.BET, ActionKind.RAISE):
            assert interp.total >= opts.min_to or interp.total == opts.all_in_to
            assert interp.total <= opts.max_to
    rejected = [r for r in out.rulings if r.kind is RulingKind.REJECTED]
    assert not rejected


@settings(max_examples=200, deadline=None)
@given(situations())
def test_the_same_events_give_the_same_ruling(
        case: tuple[InterpretedHand, int, tuple[int, ...], Declaration | None]) -> None:
    hand, actor, chips, _ = case
    a = hand.step(push(actor, *chips))
    b = hand.step(push(actor, *chips))
    assert a[0].state == b[0].state and a[1] == b[1]


@st.composite
def prior_chip_situations(draw: st.DrawFn) -> tuple[InterpretedHand, tuple[int, ...],
                                                    tuple[int, ...], tuple[int, ...]]:
    """Add. 46 shapes: the BB's posted chips, a raise, a pull (none/part/all), new chips."""
    from tests.interpretation.helpers import preflop

    posted = tuple(draw(st.lists(st.sampled_from((25, 100, 500, 1000)), min_size=1,
                                 max_size=3)))
    big = draw(st.sampled_from((50, 100)))
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=1, sb=2, bb=3, small=big // 2,
                   big=big)
    raise_to = draw(st.integers(2 * big, 3000))
    hand, _ = run(hand, push(3, *posted), say(1, "raise", raise_to), say(2, "fold"))
    pulled = tuple(draw(st.lists(st.sampled_from(posted), max_size=len(posted), unique=True)))
    new = tuple(draw(st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=5)))
    return hand, posted, pulled, new


@settings(max_examples=300, deadline=None)
@given(prior_chip_situations())
def test_prior_chip_rulings_conserve_chips(
        case: tuple[InterpretedHand, tuple[int, ...], tuple[int, ...], tuple[int, ...]]) -> None:
    from tests.interpretation.helpers import pull

    hand, posted, pulled, new = case
    if pulled:
        hand, out = hand.step(pull(3, *pulled))
        assert not out.alerts
    left = list(posted)
    for chip in pulled:
        left.remove(chip)
    zone = sum(left) + sum(new)
    before = hand.state.seat(3)
    after, out = hand.step(push(3, *new))
    interp = out.interpretation
    assert interp is not None and interp.seat == 3
    event(interp.code)
    if interp.floor is not None:
        assert after.state.seat(3) == before
        return
    assert interp.action is not None
    assert 0 <= interp.returned <= zone
    assert zone + interp.add - interp.returned == interp.total, interp
    seat = after.state.seat(3)
    assert seat.bet + seat.stack == before.bet + before.stack
    assert interp.total >= hand.state.call_to or seat.stack == 0
