"""The colour-up at a scheduled break (R24): each player's chips of the removed colour, from
the stack zones' RFID counts the table publishes, and the chip race the dealer runs.

Pure: the table's state, the removed denominations, the profile and a ``random.Random`` for
the cards in; the result the dealer follows out. TDA 2024 R24-A/C: whole new chips are
exchanged at equal value; the odd chips are raced off "starting in seat 1, with a maximum
of one chip awarded to a player"; a player "can't be raced out" (he gets one chip of the
lowest denomination still in play); odd chips that do not win are removed without
compensation. The mechanics the rule leaves open (open question A17) are the usual ones, and
the result says so: one card per odd chip, dealt round by round from seat 1; the highest
card by suit wins the first new chip, the next highest held by another player the next;
the number of new chips raced is the odd chips' total value in new chips, a half or more
rounded up. Clubs NZ and the ACE league do not race: each player's removed chips are
rounded up to chips of the next denomination (NZ R24 A/B).

>>> from pokertable.controller.rules.profiles import load_profile
>>> state = {"seats": [
...     {"seat": 1, "player": "Ann", "stack": 1075, "stack_chips": {"25": 3, "100": 10}},
...     {"seat": 2, "player": "Bob", "stack": 50, "stack_chips": {"25": 2}}]}
>>> race = chip_race("t1", state, {25}, 100, load_profile("tda-2024"), random.Random(1))
>>> [(line.seat, line.odd, line.won, line.given, line.new_chips) for line in race.lines]
[(1, 75, True, False, 1), (2, 50, False, True, 1)]
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping
from dataclasses import asdict, dataclass
from typing import Any

from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.rules import ColorUp, RuleProfile
from pokertable.room.seating import card_key


@dataclass(frozen=True, slots=True)
class RaceLine:
    """One seat's colour-up: what it held of the removed colour and what it gets."""

    seat: int
    player: str
    removed: int  # value of the removed-colour chips in the stack zone
    exchanged: int  # new chips at equal value (R24-C)
    odd: int  # value raced (or rounded up)
    cards: tuple[str, ...] = ()
    won: bool = False
    given: bool = False  # can't be raced out: one chip of the lowest denomination (R24-A)
    new_chips: int = 0  # chips of the new lowest denomination the seat receives in all
    change: int = 0  # value gained (+) or lost (-) by the colour-up


@dataclass(frozen=True, slots=True)
class ChipRace:
    table: str
    removed: tuple[int, ...]
    denomination: int  # the lowest denomination still in play
    method: str
    lines: tuple[RaceLine, ...]
    chips_raced: int
    rule_ids: tuple[str, ...]
    notes: tuple[str, ...]
    floor: tuple[dict[str, Any], ...] = ()  # choices the rules leave to the TD

    @property
    def change(self) -> int:
        """Chips the colour-up added to (+) or took out of (-) play: for the audit."""
        return sum(line.change for line in self.lines)

    def as_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["change"] = self.change
        return out


def removed_value(seat: Mapping[str, Any], removed: Collection[int]) -> tuple[int, int]:
    """(value, chips) of the removed denominations in a seat's stack zone."""
    chips = {int(d): int(n) for d, n in (seat.get("stack_chips") or {}).items()}
    return (
        sum(d * n for d, n in chips.items() if d in removed),
        sum(n for d, n in chips.items() if d in removed),
    )


def chip_race(
    table: str,
    state: Mapping[str, Any],
    removed: Collection[int],
    denomination: int,
    rules: RuleProfile,
    draw: random.Random,
) -> ChipRace:
    """The colour-up of one table's players, per the profile's ``color_up``."""
    if denomination <= 0 or denomination in removed:
        raise ValueError(f"denomination {denomination} must be a chip still in play")
    smallest = min(removed)
    rule = rules.cite("color_up")
    seats = []
    notes: list[str] = []
    for seat in state.get("seats", ()):
        if seat.get("status") == "empty" or not seat.get("player"):
            continue
        value, _ = removed_value(seat, removed)
        chips = int(seat.get("stack", 0)) + int(seat.get("bet", 0))
        if value > chips:
            notes.append(
                f"seat {seat['seat']}: the stack zone reads {value} of the removed "
                f"colour but the table counts {chips}: recount before the race"
            )
        seats.append((int(seat["seat"]), str(seat["player"]), value, chips))
    seats.sort()
    if rules.color_up is ColorUp.ROUND_UP_NO_RACE:
        return _round_up(table, seats, tuple(sorted(removed)), denomination, rules, notes)
    lines = {}
    racers: list[tuple[int, int]] = []  # (seat, cards)
    for seat_no, player, value, _ in seats:
        exchanged, odd = divmod(value, denomination)
        lines[seat_no] = RaceLine(seat_no, player, value, exchanged, odd)
        if odd:
            racers.append((seat_no, odd // smallest))
    total_odd = sum(line.odd for line in lines.values())
    to_race = min(len(racers), (2 * total_odd + denomination) // (2 * denomination))
    deck = [r + s for r in RANKS for s in SUITS]
    draw.shuffle(deck)
    dealt: dict[int, list[str]] = {seat: [] for seat, _ in racers}
    for round_no in range(max((n for _, n in racers), default=0)):
        for seat, n in racers:  # seat 1 first (R24-A)
            if round_no < n:
                dealt[seat].append(deck.pop())
    ranked = sorted(
        ((card, seat) for seat, cards in dealt.items() for card in cards),
        key=lambda item: card_key(item[0]),
        reverse=True,
    )
    winners: list[int] = []
    for _, seat in ranked:
        if len(winners) == to_race:
            break
        if seat not in winners:  # at most one chip a player (R24-A)
            winners.append(seat)
    chips_left = {seat_no: chips - value for seat_no, _, value, chips in seats}
    for seat_no, line in list(lines.items()):
        won = seat_no in winners
        given = seat_no in dealt and not won and line.exchanged == 0 and chips_left[seat_no] == 0
        new = line.exchanged + int(won or given)
        lines[seat_no] = RaceLine(
            seat_no,
            line.player,
            line.removed,
            line.exchanged,
            line.odd,
            tuple(dealt.get(seat_no, ())),
            won,
            given,
            new,
            new * denomination - line.removed,
        )
    notes.append(
        "race mechanics are not in the rule (open question A17): one card per odd "
        "chip from seat 1, highest card by suit first, new chips raced = odd "
        "chips' value rounded to the nearest new chip"
    )
    if rules.color_up is ColorUp.RACE_NO_EXCHANGE:
        notes.append(
            f"{rule} has no exchange clause: whole new chips at equal value are the usual colour-up"
        )
    return ChipRace(
        table,
        tuple(sorted(removed)),
        denomination,
        rules.color_up.value,
        tuple(lines[s] for s in sorted(lines)),
        to_race,
        (rule,),
        tuple(notes),
    )


def _round_up(
    table: str,
    seats: list[tuple[int, str, int, int]],
    removed: tuple[int, ...],
    denomination: int,
    rules: RuleProfile,
    notes: list[str],
) -> ChipRace:
    """NZ R24 / ACE R24: per player, the removed chips' total rounded up to new chips.

    ``color_up_round_up_any_total`` (ACE) rounds every total up at once; otherwise (NZ)
    a total beyond one new chip is the TD's to confirm.
    """
    rule = rules.cite("color_up")
    lines, floor = [], []
    for seat_no, player, value, _ in seats:
        new = -(-value // denomination)
        beyond_examples = value > denomination and value % denomination
        if beyond_examples and not rules.color_up_round_up_any_total:
            # NZ shows only totals up to one new chip (addendum NZ22-24-EXB): beyond that
            # rounding up is a reading, so the TD confirms it.
            floor.append(
                {
                    "seat": seat_no,
                    "rule_ids": [rule],
                    "options": [f"round up to {new}", f"round down to {new - 1}"],
                    "text": f"seat {seat_no}: {value} of the removed colour",
                }
            )
        lines.append(
            RaceLine(
                seat_no,
                player,
                value,
                value // denomination,
                value % denomination,
                new_chips=new,
                change=new * denomination - value,
            )
        )
    return ChipRace(
        table,
        removed,
        denomination,
        ColorUp.ROUND_UP_NO_RACE.value,
        tuple(lines),
        0,
        (rule,),
        tuple(notes),
        tuple(floor),
    )
