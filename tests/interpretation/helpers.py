"""Building interpreted hands for tests: engine builders plus chip and word events."""

from __future__ import annotations

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Level, Street, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation import (
    ChipMotion,
    Declaration,
    DeclKind,
    InterpretedHand,
    Outcome,
    Precedence,
    PriorChipsPulled,
)
from pokertable.controller.interpretation.hand import TableEvent
from pokertable.controller.interpretation.outcome import Interpretation
from pokertable.controller.rules import TDA_2024, RuleProfile
from tests.engine.helpers import street_state


def preflop(stacks: dict[int, int], *, button: int, sb: int | None, bb: int, small: int,
            big: int, variant: Variant = Variant.NLHE,
            rules: RuleProfile = TDA_2024) -> InterpretedHand:
    hand, _ = InterpretedHand.start(HandSetup(
        hand_id="t", variant=variant, level=Level(small_blind=small, big_blind=big),
        button=button, small_blind_seat=sb, big_blind_seat=bb,
        players=tuple((s, f"P{s}", st) for s, st in sorted(stacks.items()))), rules)
    return hand


def postflop(stacks: dict[int, int], *, button: int, big: int, street: Street = Street.FLOP,
             pot: int = 0, variant: Variant = Variant.NLHE,
             rules: RuleProfile = TDA_2024) -> InterpretedHand:
    return InterpretedHand.of(street_state(stacks, button=button, street=street, big_blind=big,
                                           pot=pot, variant=variant), rules)


def push(seat: int, *chips: int, at_ms: int = 0, settled: bool = True,
         combined: bool = False) -> ChipMotion:
    return ChipMotion.of(seat, *chips, at_ms=at_ms, settled=settled, combined_gesture=combined)


def pull(seat: int, *chips: int) -> PriorChipsPulled:
    return PriorChipsPulled.of(seat, *chips)


def say(seat: int, kind: str, amount: int | None = None,
        precedence: Precedence = Precedence.VERBAL_FIRST, **kw: object) -> Declaration:
    return Declaration(seat, DeclKind(kind), amount, precedence, **kw)  # type: ignore[arg-type]


def run(hand: InterpretedHand, *events: TableEvent) -> tuple[InterpretedHand, Outcome]:
    """Apply events; every event but the last must produce no ALERT or REJECTED ruling."""
    outcome = Outcome()
    for i, event in enumerate(events):
        hand, outcome = hand.step(event)
        if i < len(events) - 1:
            bad = [r for r in outcome.rulings if r.kind in (RulingKind.ALERT,
                                                            RulingKind.REJECTED)]
            assert not bad, (event, bad)
    return hand, outcome


def ruled(outcome: Outcome) -> Interpretation:
    interp = outcome.interpretation
    assert interp is not None, outcome.rulings
    return interp


def check(interp: Interpretation, action: str, total: int, *, returned: int = 0, add: int = 0,
          rules: tuple[str, ...] = ()) -> None:
    """Assert the full ruling: action, street total, change, chips owed and cited rules."""
    assert interp.floor is None, interp.floor
    assert (interp.action, interp.total, interp.returned, interp.add) == (
        ActionKind(action), total, returned, add), interp
    for rule in rules:
        assert f"TDA2024-{rule}" in interp.rule_ids, (rule, interp.rule_ids)
    if interp.code == "completed":  # a completion names its target (R43-A, R52-A)
        assert interp.complete_to == total and add > 0, interp
    assert interp.text.startswith(f"seat {interp.seat}") or interp.text.startswith("floor")


def options(interp: Interpretation) -> dict[str, tuple[str | None, int, int, int]]:
    """Floor options as name -> (action, total, returned, add)."""
    assert interp.floor is not None, interp
    assert interp.action is None
    return {o.name: (None if o.action is None else str(o.action), o.total, o.returned, o.add)
            for o in interp.floor.options}


def floor_rules(interp: Interpretation) -> tuple[str, ...]:
    assert interp.floor is not None
    return interp.floor.rule_ids
