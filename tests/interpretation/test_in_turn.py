"""The lean path for chips in turn (``in_turn.plain_turn``) rules exactly as the general one.

Random walks of chips, pulls and words through preflop and postflop hands under every rule
profile: at every step the same event is run from the same hand twice, once as the table
runs it and once with the lean path switched off, and the hand, the zones and the outcome
must be equal. The walks reach the lean path's cases (calls, checks, bets, raises, all-ins,
overchips, prior chips) and the cases it must leave alone (words, owed chips, floors,
out-of-turn chips, open motions), in zones the readers reported and zones they never did.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import event, given, settings
from hypothesis import strategies as st

from pokertable.controller.engine.model import Phase, Variant
from pokertable.controller.interpretation import InterpretedHand
from pokertable.controller.interpretation import hand as hand_module
from pokertable.controller.interpretation.events import ChipItem, ChipMotion
from pokertable.controller.interpretation.hand import TableEvent, interpret
from pokertable.controller.interpretation.in_turn import plain_turn
from pokertable.controller.rules import RuleProfile
from pokertable.controller.rules.profiles import available_profiles, load_profile
from tests.interpretation.helpers import postflop, preflop, pull, push, say

DENOMINATIONS = (25, 100, 500, 1000, 5000)
PROFILES = tuple(load_profile(name) for name in available_profiles())
WORDS = ("call", "check", "raise", "bet", "all_in", "fold")


@st.composite
def walks(draw: st.DrawFn) -> tuple[InterpretedHand, list[TableEvent]]:
    rules: RuleProfile = draw(st.sampled_from(PROFILES))
    variant = draw(st.sampled_from([Variant.NLHE, Variant.PLO, Variant.FLHE]))
    stacks = {s: draw(st.integers(150, 30000)) for s in (1, 2, 3)}
    if draw(st.booleans()):
        hand = preflop(stacks, button=3, sb=1, bb=2, small=50, big=100, variant=variant,
                       rules=rules)
    else:
        hand = postflop(stacks, button=3, big=100, pot=draw(st.integers(0, 4000)),
                        variant=variant, rules=rules)
    events: list[TableEvent] = []
    for _ in range(draw(st.integers(1, 8))):
        seat = draw(st.sampled_from((1, 2, 3, None)))  # None: the seat on the action
        chips = tuple(draw(st.lists(st.sampled_from(DENOMINATIONS), min_size=1, max_size=5)))
        kind = draw(st.sampled_from(("push", "push", "push", "open", "pull", "words")))
        at = 1000 * (len(events) + 1)
        if kind == "words":
            word = draw(st.sampled_from(WORDS))
            events.append(say(seat or 0, word, draw(st.sampled_from((None, 300, 1000)))
                              if word in ("raise", "bet") else None))
        elif kind == "pull":
            events.append(pull(seat or 0, chips[0]))
        else:  # the table reads whole zones (``zone_read``); the tests' chips often not
            events.append(replace(push(seat or 0, *chips, at_ms=at, settled=kind == "push",
                                       combined=draw(st.booleans()) and kind == "push"),
                                  zone_read=draw(st.booleans())))
    if draw(st.booleans()):  # the readers have reported the zones: the felt is all there is
        for seat in (1, 2, 3):
            felt = tuple(ChipItem(d) for d in draw(st.lists(st.sampled_from(DENOMINATIONS),
                                                            max_size=2)))
            hand = InterpretedHand(hand.state, hand.pending.with_felt(seat, felt), hand.rules)
    return hand, events


def _on_action(item: TableEvent, hand: InterpretedHand) -> TableEvent:
    """Seat 0 stands for the seat on the action when the event runs."""
    seat = getattr(item, "seat", None)
    if seat != 0:
        return item
    return replace(item, seat=hand.state.action_on or 1)  # type: ignore[type-var]


@settings(max_examples=600, deadline=None)
@given(walks())
def test_the_lean_path_rules_as_the_general_one(
        case: tuple[InterpretedHand, list[TableEvent]]) -> None:
    hand, events = case
    for raw in events:
        if hand.state.phase is Phase.COMPLETE:
            break
        item = _on_action(raw, hand)
        lean = interpret(hand.state, hand.pending, item, hand.rules)
        taken = isinstance(item, ChipMotion) and plain_turn(
            hand.state, hand.pending, item, hand.rules) is not None
        event("lean path" if taken else "general path")
        saved = hand_module.plain_turn
        hand_module.plain_turn = lambda *args: None  # type: ignore[assignment]
        try:
            general = interpret(hand.state, hand.pending, item, hand.rules)
        finally:
            hand_module.plain_turn = saved
        assert lean == general, item
        hand = InterpretedHand(lean[0], lean[1], hand.rules)


def test_a_plain_call_takes_the_lean_path() -> None:
    """The bench's call (the button's small blind out as chips, one more chip) is lean."""
    hand = preflop({1: 20000, 2: 20000, 3: 20000}, button=3, sb=1, bb=2, small=100, big=200)
    hand, _ = hand.step(push(3, 100, 100))  # the button calls 200
    assert plain_turn(hand.state, hand.pending, push(1, 100), hand.rules) is not None
