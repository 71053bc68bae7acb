"""Substantial action (R36) from the start of the hand and from any later reference point.

SA decides whether a misdeal can still be declared (R35-D), whether a button or level
error is corrected (R34-A, R23), whether a wrong-count hand is a misdeal or dead (R38) and
whether out-of-turn action binds over a skipped player (R53-B). Only actions in turn
count; posted blinds and antes are not actions at all, so they never count.

>>> from pokertable.controller.rules import TDA_2024
>>> is_substantial([("fold", False), ("call", True)], TDA_2024)
True
>>> is_substantial([("check", False), ("fold", False)], TDA_2024)
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pokertable.controller.engine.model import ActionRecord, is_substantial
from pokertable.controller.rules import RuleProfile

__all__ = ["HAND_START", "ReferencePoints", "is_substantial", "records_as_pairs"]

HAND_START = "hand_start"
"""Reference point of R35-D, R34-A, R23 and R38: the first action after the forced bets."""


def records_as_pairs(records: Iterable[ActionRecord]) -> list[tuple[str, bool]]:
    return [(r.kind, r.chips_in) for r in records]


@dataclass(frozen=True, slots=True)
class ReferencePoints:
    """Named positions in the hand's list of actions in turn; SA is counted after each.

    ``hand_start`` is always there. Other layers add points, e.g. R52-B's "after the
    erroneous bet", with :func:`mark`.
    """

    marks: tuple[tuple[str, int], ...] = ((HAND_START, 0),)

    def mark(self, name: str, index: int) -> ReferencePoints:
        kept = tuple(m for m in self.marks if m[0] != name)
        return ReferencePoints((*kept, (name, index)))

    def index(self, name: str) -> int:
        for key, at in self.marks:
            if key == name:
                return at
        raise KeyError(f"no SA reference point named {name!r}")

    def report(self, actions: Sequence[ActionRecord], rules: RuleProfile) -> dict[str, bool]:
        """SA from every reference point, as published with the table state."""
        return {
            name: is_substantial(records_as_pairs(actions[at:]), rules) for name, at in self.marks
        }
