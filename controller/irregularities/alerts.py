"""Building the rulings the dealer sees: every one names its rules and says what to do.

>>> from pokertable.controller.rules import TDA_2024
>>> r = alert(TDA_2024, ("fouled_deck",), "fouled_deck", "Stop play.")
>>> r.rule_ids, r.kind.value
(('TDA2024-35E',), 'alert')
"""

from __future__ import annotations

from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile


def alert(
    rules: RuleProfile,
    concepts: tuple[str, ...],
    code: str,
    text: str,
    *,
    seat: int | None = None,
    kind: RulingKind = RulingKind.ALERT,
    options: tuple[str, ...] = (),
) -> Ruling:
    """A ruling citing ``concepts`` (rule-table names) with a dealer-facing procedure text."""
    ids = tuple(rules.rule_id(c) for c in concepts)
    return Ruling(kind, ids, text, seat=seat, options=options, code=code)


def floor(
    rules: RuleProfile,
    concepts: tuple[str, ...],
    code: str,
    text: str,
    options: tuple[str, ...],
    *,
    seat: int | None = None,
) -> Ruling:
    """A decision the rules leave to the floor: the controller waits for it."""
    return alert(rules, concepts, code, text, seat=seat, kind=RulingKind.FLOOR, options=options)
