"""Late registration and late arrivals (R8): the stack a late entrant gets, and his seat.

Pure: the profile, the levels played so far and a ``random.Random`` for the seat draw.
TDA 2024 R8-A sells late entrants full stacks and seats them by the same random draw as
new players. The ACE league instead blinds a late arrival's stack down for every level he
missed, frozen when he arrives: "during the 200-400 round their stack will be reduced by
300, if its during the 300-600 round ... by 900" (ACE R8). The formula is not stated
(open question A30); one small blind plus one big blind per completed level is the reading
that fits both examples, and the result says it is an interpretation.

>>> from pokertable.controller.rules.profiles import load_profile
>>> played = [(100, 200), (200, 400)]  # arriving during the third level
>>> late_stack(10_000, played, load_profile("ace-league")).stack
9100
>>> late_stack(10_000, played, load_profile("tda-2024")).stack
10000
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pokertable.controller.rules import LateEntryStack, RuleProfile
from pokertable.room.seating import Move, TableView, seat_pool


@dataclass(frozen=True, slots=True)
class LateStack:
    stack: int
    reduction: int
    rule_ids: tuple[str, ...]
    note: str


def late_stack(
    starting_stack: int, completed_levels: Sequence[tuple[int, int]], rules: RuleProfile
) -> LateStack:
    """The stack for a player arriving after ``completed_levels`` (small, big) were played."""
    rule = rules.cite("late_entry")
    if starting_stack <= 0:
        raise ValueError(f"starting_stack must be positive (got {starting_stack})")
    if rules.late_entry_stack is LateEntryStack.FULL:
        return LateStack(starting_stack, 0, (rule,), "a full stack")
    reduction = sum(small + big for small, big in completed_levels)
    if reduction >= starting_stack:
        raise ValueError(
            f"the blinds of the levels missed ({reduction}) take the whole "
            f"stack of {starting_stack}: the TD decides ({rule})"
        )
    return LateStack(
        starting_stack - reduction,
        reduction,
        (rule,),
        "reduced by one small and one big blind per level missed (interpretation, open "
        "question A30)",
    )


def seat_late_entrant(
    tables: Sequence[TableView], player: str, stack: int, rules: RuleProfile, draw: random.Random
) -> Move:
    """A random open seat at a table with the fewest players (R8-A: the same seat pool and
    draw as for new players; ACE R8-A: a table that keeps the tables balanced)."""
    ((table, seat),) = seat_pool(tables, 1, draw)
    return Move(
        "",
        0,
        player,
        stack,
        table,
        seat,
        (rules.cite("late_entry"),),
        "late entry: drawn from the open seats of the shortest tables",
    )
