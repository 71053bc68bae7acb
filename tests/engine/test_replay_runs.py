"""The deal's hole cards (``hole_run``) and a draw's stand pats, discards and drawn cards
(``draw_run``) applied together, the replay's way, reach the state and rulings ``step``
gives event by event, stop before the event that completes a draw and before any event
``step`` refuses or rules on by a house rule, and a replay names a refused event in a run
as it names any action (R35-A7)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from pokertable.controller.engine import step
from pokertable.controller.engine.events import DealHole, Discard
from pokertable.controller.engine.model import HandState, Phase, Variant
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.runs import draw_run, hole_run
from pokertable.controller.history import replay
from pokertable.controller.history.phh import PhhError, PhhHand, parse_hand
from pokertable.controller.history.phh_toml import loads
from pokertable.controller.rules import TDA_2024, RuleProfile
from tests.engine.helpers import preflop
from tests.engine.test_draw_rules import DECK, _hand, _limp_round, _short_stub


def test_the_deal_applied_together_is_the_deal_step_gives_card_by_card() -> None:
    state = preflop({1: 1000, 2: 1000, 3: 1000}, button=3, sb=1, bb=2)
    events = [DealHole(1, ("As", "Kd")), DealHole(2, ("7c", "7h")), DealHole(3, ("2s", "Kd"))]
    together, done = hole_run(state, events)
    assert done == 2  # seat 3's Kd is seat 1's: ``step`` refuses it
    assert together == _one_by_one(state, events[:2])[0]
    _, rulings = step(together, events[2])
    assert rulings[0].kind is RulingKind.REJECTED and rulings[0].code == "duplicate_card"


def _one_by_one(
    state: HandState, events: Sequence[Discard | DealHole]
) -> tuple[HandState, tuple[Ruling, ...]]:
    rulings: tuple[Ruling, ...] = ()
    for event in events:
        state, out = step(state, event)
        assert not [r for r in out if r.kind is RulingKind.REJECTED], out
        rulings += out
    return state, rulings


def test_R35A7_a_draw_applied_together_is_the_draw_step_gives_event_by_event() -> None:
    state = _limp_round(_hand(Variant.TRIPLE_DRAW_27, 3))
    events: list[Discard | DealHole] = [
        Discard(1, tuple(DECK[0:2])), Discard(2, ()), Discard(3, (DECK[10],)),
        DealHole(3, (DECK[22],)), DealHole(1, tuple(DECK[20:22])),
    ]
    together, done, rulings = draw_run(state, events, TDA_2024)
    assert done == 4  # seat 1's cards complete the draw and open the betting: ``step``
    expected = _one_by_one(state, events[:4])
    assert (together, rulings) == expected and together.phase is Phase.DEALING
    assert [r.rule_ids for r in rulings] == [("TDA2024-35A7",)] * 3
    assert _one_by_one(together, events[4:])[0] == _one_by_one(state, events)[0]


def test_R35A7_a_run_stops_at_a_draw_out_of_turn_and_step_refuses_it() -> None:
    state = _limp_round(_hand(Variant.BADUGI, 3))
    events: list[Discard | DealHole] = [Discard(1, (DECK[0],)), Discard(3, ())]
    state, done, _ = draw_run(state, events, TDA_2024)
    assert done == 1
    _, rulings = step(state, events[1])
    assert rulings[0].kind is RulingKind.REJECTED and rulings[0].code == "out_of_turn"


def test_R39D_a_run_leaves_a_short_stub_to_step_and_its_reshuffle_ruling() -> None:
    state = _short_stub(TDA_2024)  # seat 5 waits for one card, the stub keeps its last
    new, done, _ = draw_run(state, [DealHole(5, (DECK[0],))], TDA_2024)
    assert done == 0 and new is state
    assert step(state, DealHole(5, (DECK[0],)))[1][0].code == "draw_reshuffle"


def test_R35A7_a_refused_draw_in_a_replayed_run_is_named_by_its_action() -> None:
    doc = (
        "variant = 'F2L3D'\nblinds_or_straddles = [1, 2, 0]\nsmall_bet = 2\nbig_bet = 4\n"
        "starting_stacks = [100, 100, 100]\n"
        "actions = ['d dh p1 2c3c4c5c7d', 'd dh p2 2d3d4d5d7h', 'd dh p3 2h3h4h5h7s', "
        "'p3 cc', 'p1 cc', 'p2 cc', 'p1 sd 7d', 'p2 sd 2c', 'p3 sd']\n"
    )
    with pytest.raises(PhhError, match=r"action 7 \('p2 sd 2c'\): illegal: .*holds"):
        replay.replay_hand(parse_hand(loads(doc), "bad draw"))


def test_a_replayed_draw_hand_is_the_same_with_runs_and_event_by_event(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every event through ``step`` (no run applied) gives the same result as the replay."""
    from pokertable.bench.draw_corpus import POKERKIT_HOUSE, generate

    corpus = generate(24, seed=5)
    hands = [parse_hand(loads(doc), f"h{i}") for i, doc in enumerate(corpus.hands)]
    ran = [_outcome(hand, POKERKIT_HOUSE) for hand in hands]
    monkeypatch.setattr(replay, "draw_run", lambda state, events, rules: (state, 0, ()))
    assert [_outcome(hand, POKERKIT_HOUSE) for hand in hands] == ran
    assert any("draws" in text for outcome in ran for text in outcome[2])


def _outcome(hand: PhhHand, rules: RuleProfile) -> tuple[str, str, tuple[str, ...]]:
    try:
        result = replay.replay_hand(hand, rules)
    except PhhError as exc:
        return ("refused", str(exc), ())
    return (repr(result.state), repr(result.rulings), tuple(r.text for r in result.rulings))
