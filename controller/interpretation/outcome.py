"""The answer of the interpretation layer: a ruling a floor person would give, as data.

An ``Interpretation`` names the action, the street total, chips to give back, chips the
player still owes (with the completion target), the rule ids and a sentence the dealer can
read out. When the rules leave the call to the Tournament Director, ``floor`` lists the
options instead and ``action`` is None: the table waits for a ``FloorDecision``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.interpretation.events import Declaration


@dataclass(frozen=True, slots=True)
class FloorOption:
    """One choice the TD may make; ``action`` is what the engine applies if chosen."""

    name: str
    text: str
    action: ActionKind | None = None
    total: int = 0
    returned: int = 0
    add: int = 0
    forfeit: int = 0

    def player_action(self, seat: int, at_ms: int = 0) -> PlayerAction | None:
        return _to_player_action(seat, self.action, self.total, at_ms)


@dataclass(frozen=True, slots=True)
class FloorRuling:
    ruling_id: str
    seat: int
    rule_ids: tuple[str, ...]
    text: str
    options: tuple[FloorOption, ...]
    blocks_table: bool = True  # R50-B: nobody acts until the amount is clear
    topic: str = ""  # "premature", "string_bet" or "" (the chosen option's action applies)
    held: Declaration | None = None  # a premature declaration the floor may hold to its turn
    excess: int = 0  # string bet: chips of the later motion

    def option(self, name: str) -> FloorOption | None:
        return next((o for o in self.options if o.name == name), None)

    def to_ruling(self) -> Ruling:
        return Ruling(RulingKind.FLOOR, self.rule_ids, self.text, seat=self.seat,
                      options=tuple(o.name for o in self.options), code=self.ruling_id)


@dataclass(frozen=True, slots=True)
class Interpretation:
    """One ruling on one seat's bet. ``total`` is the street total after the ruling."""

    seat: int
    action: ActionKind | None
    total: int
    returned: int = 0
    add: int = 0
    complete_to: int | None = None
    rule_ids: tuple[str, ...] = ()
    text: str = ""
    kind: RulingKind = RulingKind.ACCEPTED
    code: str = ""
    floor: FloorRuling | None = None
    chip_defined: bool = False  # defined by a chip motion: a later motion is a string bet (R56)
    forfeit: int = 0  # R51-B forfeit-and-fold: chips that go to the pot as dead money
    waiting: bool = False  # a declaration waits for chips to give its amount (R42-B, R51-A)

    @property
    def decided(self) -> bool:
        return self.action is not None

    def player_action(self, at_ms: int = 0) -> PlayerAction | None:
        if self.action is ActionKind.FOLD and self.forfeit:
            return PlayerAction(self.seat, ActionKind.FOLD, self.forfeit, at_ms)
        return _to_player_action(self.seat, self.action, self.total, at_ms)

    def to_ruling(self) -> Ruling:
        if self.floor is not None:
            return self.floor.to_ruling()
        return Ruling(self.kind, self.rule_ids, self.text, seat=self.seat, code=self.code)


def _to_player_action(seat: int, action: ActionKind | None, total: int,
                      at_ms: int) -> PlayerAction | None:
    if action is None:
        return None
    if action in (ActionKind.BET, ActionKind.RAISE):
        return PlayerAction(seat, action, total, at_ms)
    return PlayerAction(seat, action, None, at_ms)


def alert(seat: int | None, rule_id: str, text: str, code: str) -> Ruling:
    """An ALERT for the dealer: bad input or an irregularity; it changes no state."""
    return Ruling(RulingKind.ALERT, (rule_id,), text, seat=seat, code=code)
