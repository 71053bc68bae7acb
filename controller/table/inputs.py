"""What the table session hears, as journal-ready records.

Every input is a frozen dataclass with ``at_ms`` (time comes in on the event) and a JSON
form, because the journal stores each input before it changes state and replays them
after a crash. The application converts hardware, console and MQTT events into these at
the edge; the session never sees a port, a socket or a clock.
"""

from __future__ import annotations

import copy
from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

# One chip type from the readers to the betting zones: the tag's uid travels with the chip,
# so a chip re-reported after a restart is recognised, not recounted.
from pokertable.controller.interpretation.events import ChipItem

__all__ = ["ChipItem"]  # re-exported: inputs are built from it at the edge


@dataclass(frozen=True, slots=True)
class ChipsMoved:
    """A settled chip motion in a zone (hardware ChipsSettled)."""

    kind: ClassVar[str] = "chips"
    zone: str
    seat: int | None
    arrived: tuple[ChipItem, ...]
    left: tuple[ChipItem, ...]
    at_ms: int
    complete: bool = False  # the readers' full view of the zone (after a restart)


@dataclass(frozen=True, slots=True)
class CardDetected:
    kind: ClassVar[str] = "card"
    zone: str
    seat: int | None
    card: str
    at_ms: int
    uid: str = ""  # the tag: a second tag with the same card is a fouled deck (R35-E)


@dataclass(frozen=True, slots=True)
class CardCleared:
    kind: ClassVar[str] = "card_cleared"
    zone: str
    seat: int | None
    card: str
    at_ms: int
    uid: str = ""


@dataclass(frozen=True, slots=True)
class HardwareNotice:
    """A node went down/up/rebooted or the hardware layer raised an alert."""

    kind: ClassVar[str] = "hardware"
    code: str
    text: str
    at_ms: int
    zone: str | None = None


@dataclass(frozen=True, slots=True)
class TimePassed:
    """The table's clock moved on with nothing read: what waits for time is judged (a card
    held for the chips' report lag, ``card_hold``). The application sends one only when
    something waits, so the journal replays the same judgement."""

    kind: ClassVar[str] = "time"
    at_ms: int


class ConsoleButton(StrEnum):
    """The dealer console's words, as the journal and the ``dealer_button`` command spell
    them (a str: a record compares equal to its member)."""

    HAND_START = "hand_start"
    CHECK_CALL = "check_call"
    BET_RAISE = "bet_raise"
    ALL_IN = "all_in"
    FOLD = "fold"
    POT = "pot"
    FLOOR = "floor"
    CLOCK = "clock"
    CONFIRM = "confirm"
    UNDO = "undo"
    CHOOSE_GAME = "choose_game"  # dealer's choice: the game the button's player names


@dataclass(frozen=True, slots=True)
class ConsolePress:
    """A dealer-console button: a ``ConsoleButton`` value. Kept as the str it arrived as,
    so a word this table does not know is journaled and answered (``unknown_button``)."""

    kind: ClassVar[str] = "console"
    button: str
    at_ms: int
    amount: int | None = None
    # The seat that spoke, when the dealer enters words of a seat not on the action (R53):
    # None is the seat on the action.
    seat: int | None = None
    # The seat whose action LED was lit when the button went down. If the table's action
    # has moved since (a late reader, a stale LED), the press is refused, never moved to
    # whoever is on the action when it is processed (issue #12).
    lit_seat: int | None = None
    # ``choose_game``: the game named (a PHH code of the orbit's mix, dealer's choice)
    game: str | None = None


class Command(StrEnum):
    """The room's commands to a table, as the wire spells them: the enums of
    mqtt/schemas/director.json and clock.json (a test keeps the three lists equal)."""

    # the tournament clock
    LEVEL = "level"
    BREAK_START = "break_start"
    BREAK_END = "break_end"
    PLAYERS_LEFT = "players_left"
    COLOR_UP = "color_up"
    HAND_FOR_HAND = "hand_for_hand"
    DEAL_NEXT = "deal_next"
    # the director and the floor
    PAUSE = "pause"
    RESUME = "resume"
    RESUME_RUNOUT = "resume_runout"
    FLOOR_DECISION = "floor_decision"
    SEAT_PLAYER = "seat_player"
    UNSEAT_PLAYER = "unseat_player"
    PLAYER_ABSENT = "player_absent"
    PLAYER_PRESENT = "player_present"
    PENALTY = "penalty"
    DEALER_BUTTON = "dealer_button"
    CARD_EXPOSED = "card_exposed"
    UPCARDS_PICKED_UP = "upcards_picked_up"  # stud, R66: seen by the floor, not the pads
    CHOOSE_GAME = "choose_game"  # dealer's choice: the button's player's pick for the orbit
    # floor entries made late, in or after the hand (``table.floor.LATE_COMMANDS``)
    POT_COUNT = "pot_count"
    COUNT_ERROR = "count_error"
    CHIPS_FOUND = "chips_found"
    SHORT_BET_STANDS = "short_bet_stands"
    SHORT_BET_NOTICED = "short_bet_noticed"
    CLOCK_CALL = "clock_call"
    CLOCK_EXPIRED = "clock_expired"
    DISPUTE = "dispute"


@dataclass(frozen=True, slots=True)
class RoomCommand:
    """A validated clock or director command from MQTT (payload as received): ``command``
    is a ``Command`` value, kept as the str it arrived as."""

    kind: ClassVar[str] = "command"
    command: str
    request_id: str
    payload: dict[str, Any]
    at_ms: int
    # The broker login that sent it, from its topic (``cmd/<login>``, which the broker's
    # ACL lets only that login publish): who decided, not what the sender typed.
    sender: str | None = None


Input = (ChipsMoved | CardDetected | CardCleared | HardwareNotice | ConsolePress | RoomCommand
         | TimePassed)
_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (ChipsMoved, CardDetected, CardCleared, HardwareNotice, ConsolePress, RoomCommand,
                TimePassed)
}


_FIELDS: dict[type[Any], tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in _KINDS.values()
}


def _chip_record(chip: ChipItem) -> dict[str, Any]:
    return {"denomination": chip.denomination, "kind": chip.kind, "uid": chip.uid}


def to_record(item: Input) -> dict[str, Any]:
    """The input as its journal record: what ``dataclasses.asdict`` gave, field by field
    (asdict's generic deep copy was a tenth of a chip's path to the room)."""
    record = {name: getattr(item, name) for name in _FIELDS[type(item)]}
    if isinstance(item, ChipsMoved):
        record["arrived"] = tuple(_chip_record(c) for c in item.arrived)
        record["left"] = tuple(_chip_record(c) for c in item.left)
    elif isinstance(item, RoomCommand):
        record["payload"] = copy.deepcopy(item.payload)  # the record owns its payload
    record["kind"] = item.kind
    return record


def from_record(record: dict[str, Any]) -> Input:
    """Rebuild an input from its journal record; raises ValueError naming the bad field."""
    kind = record.get("kind")
    cls = _KINDS.get(str(kind))
    if cls is None:
        raise ValueError(f"journal record has unknown kind {kind!r}")
    values: dict[str, Any] = {}
    for f in fields(cls):
        if f.name not in record:
            if f.default is not MISSING:
                continue
            raise ValueError(f"journal record of kind {kind!r} lacks field {f.name!r}")
        values[f.name] = record[f.name]
    if cls is ChipsMoved:
        for side in ("arrived", "left"):
            values[side] = tuple(ChipItem(**c) for c in values[side])
    result: Input = cls(**values)
    return result
