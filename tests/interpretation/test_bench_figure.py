"""The bench figure's inputs are sound: the scripted stream replays to the same actions.

No timing is asserted here (machines are noisy); only that both sides of the figure do the
same work.
"""

from __future__ import annotations

import random

from pokertable.bench.interpretation_figures import figures, script
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.interpretation import InterpretedHand


def test_scripts_replay_to_the_actions_the_peer_applies() -> None:
    rng = random.Random(3)
    for _ in range(30):
        start, events, actions = script(rng)
        hand = InterpretedHand.of(start)
        for event in events:
            hand, _ = hand.step(event)
        state = start
        for action in actions:
            state, rulings = engine.step(state, action)
            assert not [r for r in rulings if r.kind == "rejected"]
        assert state.actions == hand.state.actions and actions


def test_figure_has_the_runner_shape() -> None:
    fig = figures(hands=5)["interpretation_rulings_per_s"]
    assert set(fig) >= {"ours", "peer", "unit", "peer_name", "ratio", "ours_spread"}
    assert fig["unit"] == "rulings/s" and fig["ours"] > 0 and fig["peer"] > 0
    assert "engine.step" in fig["peer_name"]
