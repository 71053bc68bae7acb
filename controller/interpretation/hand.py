"""``InterpretedHand``: the engine's hand plus betting zones, words and pending floor rulings.

One event runs to completion: chips and words become an ``Interpretation``; a decided one is
handed back as an ``Apply`` decision (``decisions``), which ``step`` and ``interpret`` apply
with the engine and the live table with the irregularities layer; a TD decision is parked as a FLOOR
ruling that blocks that seat (and, for an unclear amount, the table, R50-B) until a
``FloorDecision`` arrives. Bad input yields an ALERT and changes nothing.

>>> from pokertable.controller.engine import HandSetup
>>> from pokertable.controller.engine.model import Level, Variant
>>> from pokertable.controller.interpretation.events import ChipMotion
>>> hand, _ = InterpretedHand.start(HandSetup(hand_id="doc", variant=Variant.NLHE,
...     level=Level(small_blind=250, big_blind=500), button=4, small_blind_seat=1,
...     big_blind_seat=2, players=((1, "A", 20000), (2, "B", 20000), (3, "C", 20000),
...     (4, "D", 20000))))
>>> hand, out = hand.step(ChipMotion.of(3, 1000, 100, 100, 100, 100, 100))
>>> r = out.interpretation
>>> (str(r.action), r.total, r.add, r.rule_ids[0])
('raise', 1500, 0, 'TDA2024-45B1')
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.model import HandState
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.decisions import (
    Applied,
    Apply,
    EngineEvent,
    Steps,
    on_engine,
)
from pokertable.controller.interpretation.events import ChipMotion
from pokertable.controller.interpretation.in_turn import plain_turn
from pokertable.controller.interpretation.outcome import FloorRuling, Interpretation
from pokertable.controller.interpretation.run_base import TableEvent
from pokertable.controller.interpretation.runner import EventRun
from pokertable.controller.interpretation.zones import Pending
from pokertable.controller.rules import TDA_2024, RuleProfile

__all__ = [
    "Applied",
    "Apply",
    "EngineEvent",
    "InterpretedHand",
    "Outcome",
    "Steps",
    "TableEvent",
    "interpret",
    "interpret_steps",
]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one event produced: interpretations (bet rulings) and every ruling, in order."""

    interpretations: tuple[Interpretation, ...] = ()
    rulings: tuple[Ruling, ...] = ()

    @property
    def interpretation(self) -> Interpretation | None:
        return self.interpretations[-1] if self.interpretations else None

    @property
    def floor(self) -> FloorRuling | None:
        return next((i.floor for i in reversed(self.interpretations) if i.floor), None)

    @property
    def alerts(self) -> tuple[Ruling, ...]:
        return tuple(r for r in self.rulings if r.kind is RulingKind.ALERT)


@dataclass(frozen=True, slots=True)
class InterpretedHand:
    state: HandState
    pending: Pending
    rules: RuleProfile = TDA_2024

    @classmethod
    def of(cls, state: HandState, rules: RuleProfile = TDA_2024) -> InterpretedHand:
        return cls(state, Pending(street=state.street), rules)

    @classmethod
    def start(cls, setup: HandSetup,
              rules: RuleProfile = TDA_2024) -> tuple[InterpretedHand, tuple[Ruling, ...]]:
        state, rulings = engine.start_hand(setup, rules)
        return cls.of(state, rules), rulings

    def step(self, event: TableEvent) -> tuple[InterpretedHand, Outcome]:
        state, pending, outcome = interpret(self.state, self.pending, event, self.rules)
        return InterpretedHand(state, pending, self.rules), outcome


def interpret_steps(state: HandState, pending: Pending, event: TableEvent,
                    rules: RuleProfile = TDA_2024) -> Steps[tuple[HandState, Pending, Outcome]]:
    """The pure step as a run of decisions: it yields each ``Apply`` and is sent what the
    applying layer made of it; it returns (state, pending, outcome). It holds no code of the
    caller's, so it cannot call back into it."""
    run = EventRun(state, pending, rules)
    plain = plain_turn(state, pending, event, rules) if type(event) is ChipMotion else None
    if plain is not None:  # chips in turn with nothing open: read without the routing
        yield from run.apply_reading(*plain, event.at_ms)
    else:
        yield from run.handle(event)
    return run.state, run.pending, Outcome(tuple(run.interps), tuple(run.rulings))


def interpret(state: HandState, pending: Pending, event: TableEvent,
              rules: RuleProfile = TDA_2024) -> tuple[HandState, Pending, Outcome]:
    """The pure step as a function, its decisions applied by the engine alone:
    (state, pending, event) -> (state, pending, outcome)."""
    return on_engine(interpret_steps(state, pending, event, rules), rules)
