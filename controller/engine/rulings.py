"""Rulings: what the engine says about each event, always with the rule ids it applied.

A ruling is data, not an exception: an illegal action yields a ``REJECTED`` ruling and
leaves the state unchanged, and a decision the rules leave to the Tournament Director
yields a ``FLOOR`` ruling listing the options (the engine then waits for the floor).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class RulingKind(StrEnum):
    ACCEPTED = "accepted"  # the action stands as made
    CORRECTED = "corrected"  # the action stands in a corrected form (e.g. completed to a min raise)
    BINDING = "binding"  # the action binds although unusual (e.g. a fold when a check was free)
    REJECTED = "rejected"  # not a legal action; nothing changed
    FLOOR = "floor"  # Tournament Director decision needed; options listed
    ALERT = "alert"  # something the dealer or floor must look at
    INFO = "info"  # automatic step the table should announce (pot awarded, cards face up)


@dataclass(frozen=True, slots=True)
class Ruling:
    kind: RulingKind
    rule_ids: tuple[str, ...]
    text: str
    seat: int | None = None
    options: tuple[str, ...] = ()
    code: str = ""  # stable machine-readable name, e.g. "min_raise", "pot_awarded"

    def to_json(self) -> dict[str, object]:
        return {
            "kind": str(self.kind),
            "code": self.code,
            "rule_ids": list(self.rule_ids),
            "seat": self.seat,
            "text": self.text,
            "options": list(self.options),
        }


@dataclass(frozen=True, slots=True)
class FloorDecision:
    """The floor's choice for a pending FLOOR ruling; ``forfeit`` for R51-B forfeit-and-fold."""

    ruling_id: str
    option: str
    forfeit: int | None = None
    at_ms: int = 0
