"""What a live table holds between inputs: its configuration, the hand in play (through the
irregularities layer's ``TrackedHand``), pending floor calls and what it must publish.

Frozen records only; ``session.apply`` folds inputs over them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from pokertable.controller.engine.model import (
    HandState,
    Level,
    Variant,
)
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.engine.seating import TableSeat, TableState
from pokertable.controller.interpretation.zones import Pending
from pokertable.controller.irregularities.hand import TrackedHand
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.table.inputs import (
    CardDetected,
    ChipItem,
)
from pokertable.controller.table.orbit_rotation import TableRotation


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionConfig:
    venue: str
    table: str
    variant: Variant = Variant.NLHE
    rules: RuleProfile = TDA_2024
    max_seats: int = 10
    first_button: int | None = None  # drawn for the button; default: lowest occupied seat
    # Cards placed within this many ms of each other may be reported in any order: each node
    # scans its antennas in turn (a tag counts after two reads) and the Pi polls the nodes
    # in turn. Deal order (R35-A2) and burns (R38) are judged with this tolerance.
    # table.toml ``[reading] card_read_window_ms`` sets it for the table's hardware.
    card_read_window_ms: int = 1500
    # The readers report chips once settled, this long after they land at most: a street
    # card read sooner after betting that chips alone can complete waits for them, so the
    # last call's chips are not taken for a premature card (RP-5, ``card_hold``).
    # table.toml ``[reading] chip_report_lag_ms`` sets it.
    chip_report_lag_ms: int = 1000


@dataclass(frozen=True, slots=True)
class PendingAlert:
    """A ruling waiting for the floor, with the options the director may choose from.

    ``id`` is the one name of this floor call everywhere: the state's alert, the event
    that raised it, the rejections that wait for it, the director's ``floor_decision`` and
    its reply. It is ``<hand_id>/F<n>``, numbered per hand by one counter
    (``Pending.next_floor``) whichever layer raised the call. ``kind`` says what the call
    is about (``string_bet``, ``bet_ruling``, ``skipped_player``, ...).
    """

    id: str
    ruling: Ruling
    hand_id: str | None
    kind: str
    interpretation: bool = False  # the interpretation layer holds the decision


class Channel(StrEnum):
    """Where an ``Output`` goes; a str, so it compares equal to its name."""

    EVENT = "event"  # the public event stream, with its rulings
    HOLE_CARDS = "hole_cards"  # the secure subtree, after the broadcast delay
    REPLY = "reply"  # the answer to a room command
    LED = "led"  # a seat LED, on the console and the reader nodes


@dataclass(frozen=True, slots=True)
class Output:
    """Something the table must say: an event, a hole-card reveal, a reply, a seat LED."""

    channel: Channel
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSession:
    config: SessionConfig
    table: TableState
    level: Level
    pending_level: Level | None = None
    tracked: TrackedHand | None = None  # the hand in play, owned by the irregularities layer
    # The betting zones, one record each (chips on the felt and the rules' reading of
    # them), words, floor rulings (R40-62): ``Pending`` is their only holder.
    pending: Pending = field(default_factory=Pending)
    hand_number: int = 0
    paused: bool = False
    hand_for_hand: bool = False
    deal_held: int | None = None  # at_ms of a hand start held for the room (RP-8 hand-for-hand)
    deal_released: bool = False  # the room released the next hand (``deal_next``, RP-8)
    runout_held: bool = False  # all in and called under hand-for-hand: cards stay down, RP-8-F
    penalties: tuple[tuple[int, int, tuple[str, ...]], ...] = ()  # (seat, hands left, rules) R71
    disqualified: tuple[int, ...] = ()  # R71-D: seats whose chips leave play when the hand ends
    absent: frozenset[int] = frozenset()
    alerts: tuple[PendingAlert, ...] = ()
    floor_approved: frozenset[int] = frozenset()  # seats the floor allowed to raise (T11 R37)
    leds: tuple[tuple[int, str], ...] = ()
    history: tuple[str, ...] = field(default=())  # hand ids completed this session
    event_players_left: int | None = None  # from the room's clock (R48 limit cap heads-up)
    found_chips: tuple[tuple[int, int], ...] = ()  # (seat, amount) settled after the hand, R62
    clock: tuple[int, int] | None = None  # (seat, expires_at_ms): a player on the clock, R29
    last_finish: tuple[str, int, bool] | None = None  # (hand, at_ms, in a break): R22 windows
    removed_denominations: frozenset[int] = frozenset()  # colour-ups so far (R24)
    stack_zones: tuple[tuple[int, tuple[ChipItem, ...]], ...] = ()  # stack zones (R24, room)
    # A mix by orbit (the clock's level.rotation): the game of each hand, orbit by orbit,
    # and the pending level's (R23)
    rotation: TableRotation | None = None
    pending_rotation: TableRotation | None = None
    # Street cards read while the last call's chips may still be settling (``card_hold``)
    held_cards: tuple[CardDetected, ...] = ()

    @property
    def hand(self) -> HandState | None:
        """The hand in play: the irregularities layer's ``TrackedHand`` owns it (one copy)."""
        return self.tracked.hand if self.tracked is not None else None

    def zone(self, seat: int) -> tuple[ChipItem, ...]:
        """The chips the readers see in ``seat``'s bet zone (kept in ``pending``, once)."""
        return self.pending.zone(seat).felt

    @property
    def bet_zones(self) -> tuple[tuple[int, tuple[ChipItem, ...]], ...]:
        """(seat, chips) of every bet zone with chips on the felt, read from ``pending``."""
        return tuple((z.seat, z.felt) for z in self.pending.zones if z.felt)

    def cards_in(self, zone: str) -> tuple[str, ...]:
        """Cards of the hand lying in ``zone`` (``board``, ``burn``, ``seat3.cards``). The
        irregularities layer's card ledger is their one holder: a card taken back is gone
        for every reader at once."""
        return self.tracked.ledger.lying_in(zone) if self.tracked is not None else ()

    @property
    def board_cards(self) -> tuple[str, ...]:
        return self.cards_in("board")

    @property
    def burn_cards(self) -> tuple[str, ...]:
        return self.cards_in("burn")

    def cards_at(self, seat: int) -> tuple[str, ...]:
        return self.cards_in(f"seat{seat}.cards")


def new_session(config: SessionConfig, level: Level, seats: tuple[TableSeat, ...]) -> TableSession:
    return TableSession(
        config=config,
        table=TableState(seats=seats, max_seats=config.max_seats),
        level=level,
    )


def zone_value(chips: tuple[ChipItem, ...]) -> int:
    return sum(c.denomination for c in chips if c.kind == "value")


def set_pair(
    pairs: tuple[tuple[int, Any], ...], key: int, value: Any
) -> tuple[tuple[int, Any], ...]:
    items = dict(pairs)
    items[key] = value
    return tuple(sorted(items.items()))
