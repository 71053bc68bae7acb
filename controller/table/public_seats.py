"""The seats of the public state (mqtt/schemas/state.json), each built again only when
something it shows changed.

A dealt card or a call changes one seat of nine; the others are the same objects as in
the last state, so comparing the state with the last one (``TableApp``) and patching its
last text (``mqtt.patched_json``) pass them by identity instead of reading them again,
from cold caches, on the path of the first message. A seat's entry is kept while the
facts it is built from are the same: the engine's seat (immutable, so identity is
enough), what the session says of it, its cards held and the chips of its stack zone.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import HandState, Phase, SeatState, SeatStatus
from pokertable.controller.engine.seating import TableSeat
from pokertable.controller.table.inputs import ChipItem
from pokertable.controller.table.stack_zones import denominations
from pokertable.controller.table.state import TableSession

_SEAT_STATUS = {SeatStatus.LIVE: "active", SeatStatus.ALL_IN: "all_in", SeatStatus.FOLDED: "folded"}

# seat number -> (the facts its entry was built from, the entry): replaced, never changed
_Entry = tuple[tuple[object, ...], dict[str, Any]]
_last_seats: dict[int, _Entry] = {}


def seat_entries(session: TableSession, hand: HandState | None,
                 held: dict[str, int]) -> list[dict[str, Any]]:
    """Every seat's entry, in seat order; ``held``: the readers' cards by pad."""
    global _last_seats
    last = _last_seats  # read once: a concurrent call replaces it, never changes it
    now: dict[int, _Entry] = {}
    occupants = {s.seat: s for s in session.table.seats}
    dealt_in = {s.seat: s for s in hand.seats} if hand is not None else {}
    in_play = hand is not None and hand.phase is not Phase.COMPLETE
    stack_zones = dict(session.stack_zones)  # what they read, for the room's colour-up (R24)
    entries = []
    for number in range(1, session.config.max_seats + 1):
        in_hand = dealt_in.get(number)
        absent = number in session.absent
        chips = stack_zones.get(number)
        seen = last.get(number)
        facts: tuple[object, ...]
        if in_hand is not None and hand is not None and in_play:
            folded = in_hand.status is SeatStatus.FOLDED
            cards = 0 if folded else _cards_held(held, hand, number)
            facts = (in_hand, absent, cards, hand.variant,
                     hand.draw if hand.variant.is_draw else None, chips)
            if seen is None or seen[0] != facts:
                seen = facts, _in_hand(hand, in_hand, absent, cards, chips)
        else:
            occupant = occupants.get(number)
            folded = in_hand is not None and in_hand.status is SeatStatus.FOLDED
            facts = (occupant, absent, in_play, folded, chips)
            if seen is None or seen[0] != facts:
                seen = facts, _not_in_hand(number, occupant, absent, in_play, folded, chips)
        now[number] = seen
        entries.append(seen[1])
    _last_seats = now
    return entries


def _in_hand(hand: HandState, me: SeatState, absent: bool, cards: int,
             chips: tuple[ChipItem, ...] | None) -> dict[str, Any]:
    folded = me.status is SeatStatus.FOLDED
    return {
        "seat": me.seat,
        "player": me.player,
        "stack": me.stack,
        "bet": me.bet,
        "status": "absent" if absent else _SEAT_STATUS[me.status],
        "cards_held": cards,
        # stud: the upcards everyone sees (a folded hand's are turned down, R66)
        **({"upcards": [] if folded else list(me.up)} if hand.variant.is_stud else {}),
        # draw games: how many cards he drew at each draw he declared (never which)
        **({"drawn": _drawn(hand, me.seat)} if hand.variant.is_draw else {}),
        **_stack_chips(chips),
    }


def _not_in_hand(number: int, occupant: TableSeat | None, absent: bool, in_play: bool,
                 folded: bool, chips: tuple[ChipItem, ...] | None) -> dict[str, Any]:
    if occupant is None:
        return {"seat": number, "player": None, "stack": 0, "bet": 0, "status": "empty",
                "cards_held": 0, **_stack_chips(chips)}
    if absent:
        status = "absent"
    elif in_play:
        status = "sitting_out"
    elif folded:
        status = "folded"  # the hand is over: who folded stays folded until the next
    else:
        status = "active"
    return {"seat": number, "player": occupant.player, "stack": occupant.stack, "bet": 0,
            "status": status, "cards_held": 0, **_stack_chips(chips)}


def _stack_chips(chips: tuple[ChipItem, ...] | None) -> dict[str, Any]:
    """The chips read in his stack zone, for the room's colour-up (R24); none: no key."""
    counted = denominations(chips) if chips else None
    return {"stack_chips": counted} if counted else {}


def _cards_held(held: dict[str, int], hand: HandState, seat: int) -> int:
    """Cards a seat holds: the readers' count of its pads (``held``, by zone). Stud: the
    cards the engine dealt him (a card exposed and replaced on seventh street, RP-10-B, is
    out of play though it may still lie on his pad), or during the deal both pads' count."""
    if hand.variant.is_stud:
        dealt = hand.seat(seat).hole
        return len(dealt) or held.get(f"seat{seat}.cards", 0) + held.get(f"seat{seat}.up", 0)
    return held.get(f"seat{seat}.cards", 0)


def _drawn(hand: HandState, seat: int) -> list[int]:
    """Cards ``seat`` drew at each draw he declared (0: stood pat), from the engine's log."""
    if hand.draw is None:
        return []
    return [len(cards) for _, s, kind, cards in hand.draw.log if s == seat and kind == "sd"]
