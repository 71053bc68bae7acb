"""Silent chips: overchips (R44), multiple chips (R45) and prior-bet chips (R46 + Add. 46).

``read_chips`` rules on what a betting zone holds after one settled motion when no words
define the bet. The zone is seen as prior-bet chips (already out on this street, perhaps
partly or fully pulled back) plus the new chips of the motion:

>>> from pokertable.controller.interpretation.context import BetContext
>>> from pokertable.controller.engine.model import Betting
>>> from pokertable.controller.rules import TDA_2024
>>> ctx = BetContext(seat=2, call_to=1100, own=0, inc=600, stack=20000, min_to=1700,
...     max_to=20000, can_raise=True, reopened=True, betting=Betting.NO_LIMIT,
...     heads_up=False, opening_bet=False, pot=1850, players_in_hand=3)
>>> r = read_chips(ctx, ZoneView.fresh(ChipItem(1000), *[ChipItem(100)] * 5), TDA_2024)
>>> (str(r.action), r.total, r.add)
('raise', 1700, 200)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.interpretation.context import BetContext
from pokertable.controller.interpretation.events import ChipItem, chip_value
from pokertable.controller.interpretation.outcome import FloorOption, Interpretation
from pokertable.controller.interpretation.raises import (
    call,
    decided,
    fifty_standard,
    floor,
    option_from,
    raise_to,
)
from pokertable.controller.interpretation.undercalls import undercall
from pokertable.controller.rules import MultichipRule, RuleProfile


class Pulled(StrEnum):
    """What the player did with his prior-bet chips before adding new ones (R46-C)."""

    NONE = "left_alone"
    PARTLY = "partly_pulled"
    FULLY = "fully_pulled"


@dataclass(frozen=True, slots=True)
class ZoneView:
    """Prior chips at the start of this decision, what is left of them, and the new chips."""

    prior_start: tuple[ChipItem, ...]
    prior: tuple[ChipItem, ...]
    new: tuple[ChipItem, ...]
    combined_gesture: bool = False
    seen: bool = False  # the readers reported the zone: its chips are all that lies there

    @classmethod
    def fresh(cls, *new: ChipItem) -> ZoneView:
        return cls((), (), tuple(new))

    @property
    def pulled(self) -> Pulled:
        if not self.prior_start or self.prior == self.prior_start:
            return Pulled.NONE
        return Pulled.FULLY if not self.prior else Pulled.PARTLY

    @property
    def value(self) -> int:
        return chip_value(self.prior) + chip_value(self.new)

    def holds(self, own: int) -> int:
        """What the zone holds for a player with ``own`` out on this street: its chips, or,
        where no prior chips were seen in a zone never read, ``own`` taken to lie there."""
        return self.value if self.prior_start or self.seen else own + chip_value(self.new)

    def prior_value(self, own: int) -> int:
        """His prior-bet chips' value (R46), by the same reckoning as ``holds``."""
        if self.prior_start:
            return chip_value(self.prior_start)
        return 0 if self.seen else own


def read_chips(ctx: BetContext, zone: ZoneView, rules: RuleProfile) -> Interpretation:
    """The bet the house reads from silent chips (no declaration defines it)."""
    if any(not c.has_value for c in zone.new):
        return non_value_floor(ctx, zone, rules)
    if not ctx.facing:
        return _not_facing(ctx, zone, rules)
    reading = _facing(ctx, zone, rules)
    if zone.combined_gesture and zone.prior:
        return _situation_5(ctx, zone, reading, rules)
    return reading


def non_value_floor(ctx: BetContext, zone: ZoneView, rules: RuleProfile) -> Interpretation:
    """RP-22: a bounty chip or clock token pushed as a bet: call or all in, TD's choice."""
    kinds = sorted({c.kind for c in zone.new if not c.has_value})
    value = zone.value
    as_call = (call(ctx, value, (rules.cite("non_value_items"),), "non-value item ruled a call")
               if ctx.facing else
               decided(ctx, ActionKind.CHECK, ctx.own, value, (rules.cite("non_value_items"),),
                       f"seat {ctx.seat} checks: non-value item ruled no bet"))
    as_all_in = decided(ctx, ActionKind.ALL_IN, ctx.all_in_to, value,
                        (rules.cite("non_value_items"),),
                        f"seat {ctx.seat} is all in for {ctx.all_in_to}")
    name = "call" if ctx.facing else "check"
    return floor(ctx, (rules.cite("non_value_items"),),
                 f"seat {ctx.seat} pushed {', '.join(kinds)} (no value): it is never counted; "
                 "TD rules it a call or all in",
                 (option_from(name, as_call), option_from("all_in", as_all_in)))


def _not_facing(ctx: BetContext, zone: ZoneView, rules: RuleProfile) -> Interpretation:
    total = zone.holds(ctx.own)
    single = len(zone.new) == 1
    ids = (rules.cite("overchip") if single else rules.cite("raising_methods"),)
    if ctx.call_to > 0:
        # The big blind on his option (facing only his own blind): R44 does not say (A6).
        as_check = decided(ctx, ActionKind.CHECK, ctx.own, zone.value, ids,
                           f"seat {ctx.seat} checks his option; the chips go back")
        as_raise = raise_to(ctx, total, zone.value, ids, rules, "chips pushed on the option")
        return floor(ctx, (*ids, rules.cite("floor_discretion")),
                     f"seat {ctx.seat} silently pushed {zone.value} on his big-blind option: "
                     "check or raise is the TD's call (open question A6)",
                     (option_from("check", as_check), option_from("raise", as_raise)))
    why = (f"a silent single chip is a bet of the chip ({total})" if single
           else f"{total} pushed in one motion")
    return raise_to(ctx, total, zone.value, ids, rules, why, chip_defined=True)


def _facing(ctx: BetContext, zone: ZoneView, rules: RuleProfile) -> Interpretation:
    prior_value = zone.prior_value(ctx.own)
    covers = bool(zone.prior_start) and prior_value >= ctx.call_to
    pulled = zone.pulled
    ids46 = (rules.cite("prior_chips"),) if zone.prior_start else ()
    if pulled is Pulled.PARTLY or (covers and pulled is Pulled.NONE):
        # Sit. 3 and 4: remaining prior chips and new chips are one R45 bet of all chips.
        return _multi_chip(ctx, (*zone.prior, *zone.new), zone.value, ids46, rules,
                           f"prior chips {_situation(covers, pulled)}: all chips are one bet")
    if covers and pulled is Pulled.FULLY and len(zone.new) == 1:
        return _covering_chip_pulled(ctx, zone, ids46, rules)
    # Sit. 2 / Sit. 4 pulled back: the new chips alone are the bet.
    base = 0 if pulled is Pulled.FULLY else prior_value
    if len(zone.new) == 1:
        return _overchip(ctx, base, zone, ids46, rules)
    total = base + chip_value(zone.new)
    if total < ctx.call_to:
        return _short(ctx, total, zone.value, ids46, rules, "every chip is short of the call")
    if _mixed_go_to_fifty(zone.new, rules):
        return fifty_standard(ctx, total, zone.value, (rules.cite("multichip_fifty"), *ids46),
                              rules, "mixed denominations: the 50% standard decides",
                              chip_defined=True)
    smallest = min(c.denomination for c in zone.new)
    if total - smallest < ctx.call_to:
        return call(ctx, zone.value, (rules.cite("multichip_call"), *ids46),
                    f"every new chip is needed (without one {smallest} only "
                    f"{total - smallest} is left)",
                    kind=RulingKind.CORRECTED if zone.value > ctx.call_to
                    else RulingKind.ACCEPTED, chip_defined=True)
    return _rule_45b(ctx, total, zone.value, smallest, ids46, rules)


def _multi_chip(ctx: BetContext, chips: tuple[ChipItem, ...], zone_value: int,
                ids: tuple[str, ...], rules: RuleProfile, why: str) -> Interpretation:
    total = chip_value(chips)
    if total < ctx.call_to:
        return _short(ctx, total, zone_value, ids, rules, why)
    if _mixed_go_to_fifty(chips, rules):
        return fifty_standard(ctx, total, zone_value, (rules.cite("multichip_fifty"), *ids),
                              rules, f"{why}; mixed denominations: the 50% standard decides",
                              chip_defined=True)
    smallest = min(c.denomination for c in chips)
    if total - smallest < ctx.call_to:
        return call(ctx, zone_value, (rules.cite("multichip_call"), *ids),
                    f"{why}; every chip is needed (without one {smallest} only "
                    f"{total - smallest} is left)",
                    kind=RulingKind.CORRECTED if zone_value > ctx.call_to
                    else RulingKind.ACCEPTED, chip_defined=True)
    return _rule_45b(ctx, total, zone_value, smallest, ids, rules)


def _mixed_go_to_fifty(chips: tuple[ChipItem, ...], rules: RuleProfile) -> bool:
    """T11 R39: the one-chip-less test covers same-denomination chips; mixed ones go to R37."""
    return (rules.multichip_rule is MultichipRule.SAME_DENOMINATION_ONLY
            and len({c.denomination for c in chips}) > 1)


def _rule_45b(ctx: BetContext, total: int, zone_value: int, smallest: int,
              ids: tuple[str, ...], rules: RuleProfile) -> Interpretation:
    why = f"one {smallest} can go and {total - smallest} still calls {ctx.call_to}"
    if total >= ctx.all_in_to:
        return raise_to(ctx, total, zone_value, (rules.cite("multichip_all_in"), *ids), rules,
                        f"{why}; his last chips are an all-in bet", chip_defined=True)
    return fifty_standard(ctx, total, zone_value,
                          (rules.cite("multichip_fifty"), *ids, rules.cite("overbet_change")),
                          rules, why, chip_defined=True)


def _overchip(ctx: BetContext, base: int, zone: ZoneView, ids46: tuple[str, ...],
              rules: RuleProfile) -> Interpretation:
    chip = zone.new[0].denomination
    total = base + chip
    if total < ctx.call_to:
        return _short(ctx, total, zone.value, ids46, rules, f"a single {chip} chip")
    return call(ctx, zone.value, (rules.cite("overchip"), *ids46),
                f"a single {chip} chip without raise declared is a call",
                kind=RulingKind.CORRECTED if zone.value > ctx.call_to else RulingKind.ACCEPTED,
                chip_defined=True)


def _short(ctx: BetContext, total: int, zone_value: int, ids: tuple[str, ...],
           rules: RuleProfile, why: str) -> Interpretation:
    if total >= ctx.all_in_to:
        return call(ctx, zone_value, (rules.cite("multichip_call"), *ids),
                    f"{why}; his last chips", chip_defined=True)
    return undercall(ctx, total, zone_value, ids, rules, why, chip_defined=True)


def _covering_chip_pulled(ctx: BetContext, zone: ZoneView, ids46: tuple[str, ...],
                          rules: RuleProfile) -> Interpretation:
    """Covering prior chips pulled back and one new chip: R44 call vs Add. 46 Sit. 4 (A8)."""
    chip = zone.new[0].denomination
    as_call = _overchip(ctx, 0, zone, ids46, rules)
    as_bet = (fifty_standard(ctx, chip, zone.value, (rules.cite("multichip_fifty"), *ids46),
                             rules, f"a {chip} chip as an R45 bet")
              if chip > ctx.call_to else as_call)
    return floor(ctx, (rules.cite("overchip"), *ids46, rules.cite("floor_discretion")),
                 f"seat {ctx.seat} pulled back covering prior chips and pushed one {chip} chip: "
                 "an overchip call (R44) or a bet of the chip (Add. 46 Sit. 4) is the TD's call",
                 (option_from("call", as_call), option_from("bet_of_chip", as_bet)))


def _situation_5(ctx: BetContext, zone: ZoneView, reading: Interpretation,
                 rules: RuleProfile) -> Interpretation:
    """Add. 46 Sit. 5: all chips combined and pushed forward may be a bet of all chips."""
    all_chips = (*zone.prior, *zone.new)
    as_all = _multi_chip(ctx, all_chips, zone.value, (rules.cite("prior_chips"),), rules,
                         "all chips combined and pushed forward")
    options: tuple[FloorOption, ...] = ()
    if reading.floor is None:
        options += (option_from("as_situations", reading),)
    else:
        options += reading.floor.options
    if as_all.floor is None:
        options += (option_from("all_chips", as_all),)
    return floor(ctx, (rules.cite("prior_chips"), rules.cite("floor_discretion")),
                 f"seat {ctx.seat} combined his prior chips with new ones and pushed them "
                 "forward: the TD may rule a bet of all chips", options)


def _situation(covers: bool, pulled: Pulled) -> str:
    return ("partly pulled back" if pulled is Pulled.PARTLY
            else "cover the call" if covers else str(pulled))
