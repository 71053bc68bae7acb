"""Scheduled colour-ups (R24) at the table: chips of a removed denomination.

The race itself (TDA R24-A, one chip at most per player, seat 1 first) or the per-player
rounding up (Clubs NZ, ACE R24) is done by the dealer with the players watching. What the
table sees is afterwards: a chip of a denomination the clock removed, read in a betting
zone, should not be there any more (addendum T24-24-D1). The table says so and keeps
counting it at face value; the exchange is the dealer's and the floor's.

>>> from pokertable.controller.rules.profiles import load_profile
>>> removed_chips_text(3, (25, 25), load_profile("tda-2024"))[:46]
'seat 3 bet 2 chip(s) of a removed denomination'
"""

from __future__ import annotations

from pokertable.controller.rules import ColorUp, RuleProfile
from pokertable.controller.table.inputs import ChipsMoved
from pokertable.controller.table.outputs import warn
from pokertable.controller.table.state import Output, TableSession

_PROCEDURE = {
    ColorUp.RACE_THEN_EXCHANGE: "they should have been raced off, and any left exchanged at "
    "equal value for chips still in play (R24-A, R24-C)",
    ColorUp.RACE_NO_EXCHANGE: "they should have been raced off at the colour-up",
    ColorUp.ROUND_UP_NO_RACE: "they should have been rounded up to the next denomination in "
    "play, player by player",
}


def removed_chips_text(seat: int, chips: tuple[int, ...], rules: RuleProfile) -> str:
    values = ", ".join(str(c) for c in sorted(set(chips)))
    return (
        f"seat {seat} bet {len(chips)} chip(s) of a removed denomination ({values}): "
        f"{_PROCEDURE[rules.color_up]}; counted at face value until the floor exchanges them"
    )


def check_removed(
    session: TableSession, moved: ChipsMoved, removed: frozenset[int], out: list[Output]
) -> None:
    """Alert when chips of a removed denomination arrive in a betting zone (T24-24-D1)."""
    chips = tuple(
        c.denomination for c in moved.arrived if c.kind == "value" and c.denomination in removed
    )
    if chips and moved.seat is not None:
        text = removed_chips_text(moved.seat, chips, session.config.rules)
        warn(out, session, "color_up", text, "removed_denomination", moved.at_ms,
                   moved.seat)
