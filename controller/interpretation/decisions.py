"""What interpretation hands back instead of calling anyone: decisions to apply, as data.

A run of interpretation (``runner.EventRun``) is a generator of ``Apply`` decisions. Each
says: apply this engine event to this hand. The caller applies it with whatever layer owns
the hand (the engine alone, or at the live table the irregularities layer, which also holds
out-of-turn actions, R53) and sends back what that made of it (``Applied``); the run goes
on from there. Interpretation never holds the caller's code, so it cannot call back into the
table: it decides, and one place applies (``on_engine`` for the engine alone, ``table.hands``
at the table).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import TypeVar

from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import (
    DealBoard,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import HandState
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.rules import RuleProfile

EngineEvent = PlayerAction | DealHole | DealBoard | ShowHand | MuckHand

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class Apply:
    """A decision: apply ``event`` to ``state``, the hand as interpretation last saw it."""

    state: HandState
    event: EngineEvent


Applied = tuple[HandState, tuple[Ruling, ...]]
"""What applying a decision made: the new hand and the rulings (REJECTED: nothing changed)."""

Steps = Generator[Apply, Applied, _T]
"""A run that yields decisions, is sent what each made, and returns ``_T``."""


def on_engine(steps: Steps[_T], rules: RuleProfile) -> _T:
    """Run ``steps`` to the end with each decision applied by the engine alone (the layer's
    own tests, replays, tools without card readers)."""
    try:
        decision = next(steps)
        while True:
            decision = steps.send(engine.step(decision.state, decision.event, rules))
    except StopIteration as done:
        result: _T = done.value
        return result
