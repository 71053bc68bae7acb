"""Bet interpretation: RFID chip motions and dealer-entered words -> what a TDA floor rules.

>>> from pokertable.controller.interpretation import (
...     InterpretedHand, ChipMotion, Declaration, DeclKind)

Feed ``ChipMotion``, ``PriorChipsPulled``, ``Declaration`` and ``FloorDecision`` events (and
the engine's own events) to ``InterpretedHand.step``; each returns the new hand and an
``Outcome`` whose interpretations carry the action, street total, chips returned / owed, rule
ids and a sentence for the dealer, or a FLOOR ruling with the TD's options.
"""

from pokertable.controller.engine.rulings import FloorDecision
from pokertable.controller.interpretation.events import (
    ChipItem,
    ChipMotion,
    ChipsFoundBehind,
    CountErrorNoticed,
    Declaration,
    DeclKind,
    PotCountGiven,
    Precedence,
    PriorChipsPulled,
)
from pokertable.controller.interpretation.hand import InterpretedHand, Outcome, interpret
from pokertable.controller.interpretation.outcome import FloorOption, FloorRuling, Interpretation

__all__ = [
    "ChipItem",
    "ChipMotion",
    "ChipsFoundBehind",
    "CountErrorNoticed",
    "DeclKind",
    "Declaration",
    "FloorDecision",
    "FloorOption",
    "FloorRuling",
    "Interpretation",
    "InterpretedHand",
    "Outcome",
    "PotCountGiven",
    "Precedence",
    "PriorChipsPulled",
    "interpret",
]
