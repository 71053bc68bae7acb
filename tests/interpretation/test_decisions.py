"""Interpretation decides, one place applies (issue #26): a run of interpretation yields
``Apply`` decisions as data and is sent what the applying layer made of them. It holds none
of its caller's code, so it cannot call back into the table session."""

from __future__ import annotations

import ast
from pathlib import Path

from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation import ChipMotion, InterpretedHand
from pokertable.controller.interpretation.decisions import Apply
from pokertable.controller.interpretation.hand import interpret, interpret_steps
from pokertable.controller.rules import TDA_2024
from tests.interpretation.helpers import preflop

LAYER = Path(__file__).resolve().parents[2] / "controller" / "interpretation"


def _hand() -> InterpretedHand:
    return preflop(
        {1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4, sb=1, bb=2, small=250, big=500
    )


def test_TDA24_45B1_chips_become_a_decision_the_caller_applies() -> None:
    """Five 100s on a 1000 (R45-B1: the 1000 alone is the raise unit) is a raise to 1500;
    the run stops at that decision, changing nothing until the caller answers."""
    hand = _hand()
    steps = interpret_steps(
        hand.state, hand.pending, ChipMotion.of(3, 1000, 100, 100, 100, 100, 100), TDA_2024
    )
    decision = next(steps)
    assert isinstance(decision, Apply) and decision.state is hand.state
    assert decision.event == PlayerAction(3, ActionKind.RAISE, 1500)
    answer = engine.step(decision.state, decision.event, TDA_2024)
    try:
        steps.send(answer)
        raise AssertionError("one decision only")
    except StopIteration as done:
        state, pending, outcome = done.value
    expected = interpret(
        hand.state, hand.pending, ChipMotion.of(3, 1000, 100, 100, 100, 100, 100), TDA_2024
    )
    assert state == expected[0] == answer[0] and pending == expected[1]
    assert outcome.interpretation is not None and outcome.interpretation.total == 1500
    assert outcome.interpretation.rule_ids[0] == "TDA2024-45B1"


def test_a_refused_decision_leaves_the_hand_and_says_so() -> None:
    """The applying layer refuses (a REJECTED ruling): interpretation keeps the hand as it
    was and alerts; the refusal is its input, not a call it made."""
    hand = _hand()
    steps = interpret_steps(hand.state, hand.pending, ChipMotion.of(3, 1000), TDA_2024)
    decision = next(steps)
    refused = Ruling(RulingKind.REJECTED, ("TDA2024-53",), "held", seat=3, code="held")
    try:
        steps.send((decision.state, (refused,)))
        raise AssertionError("one decision only")
    except StopIteration as done:
        state, pending, outcome = done.value
    assert state is hand.state and pending.log == ()
    assert [r.code for r in outcome.alerts] == ["engine_rejected"]


def test_interpretation_takes_no_code_from_its_caller() -> None:
    """No function of the layer takes a callable (an applier the session passes in is how
    the chip route bounced back into the session), and no object of the run keeps one."""
    for path in sorted(LAYER.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                for arg in (*args.posonlyargs, *args.args, *args.kwonlyargs):
                    text = ast.unparse(arg.annotation) if arg.annotation else ""
                    assert "Callable" not in text and "Applier" not in text, (
                        f"{path.name}:{node.lineno} {node.name}({arg.arg}: {text})"
                    )
    hand = _hand()
    steps = interpret_steps(hand.state, hand.pending, ChipMotion.of(3, 1000), TDA_2024)
    next(steps)
    frame = steps.gi_frame
    assert frame is not None
    run = frame.f_locals["run"]  # the run, waiting for its decision to be answered
    assert [name for name, value in vars(run).items() if callable(value)] == []
