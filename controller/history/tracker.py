"""A finished hand read back from its PHH, as the tracker formats write it.

The room's archive keeps each hand as PHH (``room.hand_archive``). The PokerStars-style text
(``history.pokerstars``) and Open Hand History JSON (``history.ohh``) are both written from
the engine's replay of that PHH, never from the text itself: the posts, the chips of each
call and raise, the pots and who won them are the engine's, exactly as ``pokertable
replay`` reports them. Pure: text in, data out.

PHH numbers players by position (``history.phh``); ``seats`` gives each position's real
seat, ``_button_seat`` (``history.render``) the button when it is dead (on an empty seat).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time
from typing import Any

from pokertable.controller.engine import HandSetup, start_hand
from pokertable.controller.engine.model import ActionRecord, HandState, Phase, SeatState, Street
from pokertable.controller.engine.showdown import strength
from pokertable.controller.history.phh import PhhError, parse_hand
from pokertable.controller.history.render import BUTTON_SEAT, ExportError
from pokertable.controller.history.replay import replay_hand
from pokertable.controller.rules import TDA_2024, RuleProfile


@dataclass(frozen=True, slots=True)
class ExportContext:
    """What a tracker file says of the event that no single hand holds.

    ``tournament`` is digits: trackers read PokerStars' ``Tournament #`` as a number."""

    event: str
    tournament: str
    site: str = "pokertable"
    initial_stack: int | None = None  # the tournament's starting stack, when known

    def __post_init__(self) -> None:
        if not self.tournament.isdigit():
            raise ExportError(f"tournament number {self.tournament!r} must be digits")


@dataclass(frozen=True, slots=True)
class FinishedHand:
    """One completed hand: its PHH fields, the engine's replay of it, and its real seats.

    Engine seat N (in ``start`` and ``end``) is PHH player pN; ``seat_of`` maps it to the
    table's seat."""

    name: str
    fields: Mapping[str, Any]
    setup: HandSetup
    start: HandState  # after the forced bets, before the first action
    end: HandState
    seats: tuple[int, ...]  # the table's seat of p1..pN
    button_seat: int  # the table's seat of the button (maybe an empty one: R32)
    when: datetime | None  # when the hand started, UTC

    @property
    def table(self) -> str:
        return str(self.fields.get("table", ""))

    @property
    def hand_number(self) -> int:
        value = self.fields.get("hand", 0)
        return value if isinstance(value, int) else 0

    @property
    def level_number(self) -> int | None:
        value = self.fields.get("level")
        return value if isinstance(value, int) else None

    @property
    def seat_count(self) -> int:
        value = self.fields.get("seat_count")
        return value if isinstance(value, int) else max(max(self.seats), len(self.seats))

    def seat_of(self, engine_seat: int) -> int:
        return self.seats[engine_seat - 1]

    def by_table_seat(self) -> list[SeatState]:
        """The dealt-in seats in the table's seat order (the order trackers list them)."""
        return sorted(self.end.seats, key=lambda s: self.seat_of(s.seat))

    def starting_stack(self, engine_seat: int) -> int:
        stacks: list[int] = self.fields["starting_stacks"]
        return stacks[engine_seat - 1]

    def ante(self, engine_seat: int) -> int:
        return self.start.seat(engine_seat).dead

    def blind(self, engine_seat: int) -> int:
        """The blind this seat posted (0 if none), as the engine took it (all in when short)."""
        return self.start.seat(engine_seat).bet

    def won(self, engine_seat: int) -> int:
        """Chips won from the pots (uncalled bets given back are not winnings)."""
        return sum(a.amount for a in self.end.awards if a.seat == engine_seat)

    def hand_name(self, engine_seat: int) -> str:
        seat = self.end.seat(engine_seat)
        if len(seat.hole) < self.end.variant.hole_cards or len(self.end.board) < 3:
            return ""
        return strength(self.end.variant, seat.hole, self.end.board)[1]

    def fold_street(self, engine_seat: int) -> Street | None:
        for a in self.end.actions:
            if a.seat == engine_seat and a.kind == "fold":
                return a.street
        return None

    def streets(self) -> list[tuple[Street, tuple[str, ...], list[Played]]]:
        """Each street the hand reached: the cards dealt on it and its actions in order,
        each with the chips it put in and the street's highest bet before it."""
        out: list[tuple[Street, tuple[str, ...], list[Played]]] = []
        board = self.end.board
        for street in Street:
            if street is not Street.PREFLOP and len(board) < street.board_size:
                break
            before = Street(street - 1).board_size if street is not Street.PREFLOP else 0
            bets = {
                s.seat: (self.blind(s.seat) if street is Street.PREFLOP else 0)
                for s in self.end.seats
            }
            played: list[Played] = []
            for a in self.end.actions:
                if a.street is not street:
                    continue
                high = max(bets.values(), default=0)
                put = max(0, a.to - bets[a.seat]) if a.kind in ("call", "bet", "raise") else 0
                played.append(Played(a, put, high))
                if put:
                    bets[a.seat] = a.to
            out.append((street, board[before : street.board_size], played))
        return out


@dataclass(frozen=True, slots=True)
class Played:
    """One action as the tracker formats write it."""

    action: ActionRecord
    put: int  # chips it put in (a call's, a bet's, a raise's: over the seat's own bet)
    high: int  # the street's highest bet before it (a raise is ``to - high`` over it)


def read_hand(
    text: str, name: str, *, started_ms: int | None = None, rules: RuleProfile = TDA_2024
) -> FinishedHand:
    """The hand of a PHH text, replayed; PhhError when it does not replay to its end.

    ``started_ms`` stands in for the PHH's own date and time when it has none."""
    try:
        fields = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"{name}: {exc}") from exc
    hand = parse_hand(fields, name)
    result = replay_hand(hand, rules)
    if result.state.phase is not Phase.COMPLETE:
        raise PhhError(f"{name}: the hand is incomplete; only finished hands are exported")
    n = hand.player_count
    seats = fields.get("seats", list(range(1, n + 1)))
    if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, int) for s in seats):
        raise PhhError(f"{name}: 'seats' must list one seat number per player")
    button = fields.get(BUTTON_SEAT, seats[hand.setup.button - 1])
    if not isinstance(button, int):
        raise PhhError(f"{name}: '{BUTTON_SEAT}' must be a seat number")
    start, _ = start_hand(hand.setup, rules)
    return FinishedHand(
        name=name,
        fields=fields,
        setup=hand.setup,
        start=start,
        end=result.state,
        seats=tuple(seats),
        button_seat=button,
        when=_started(fields, started_ms),
    )


def _started(fields: Mapping[str, Any], started_ms: int | None) -> datetime | None:
    """The PHH's date and time (UTC, as the archive writes it), else ``started_ms``."""
    day, clock = fields.get("day"), fields.get("time")
    if isinstance(day, int) and isinstance(clock, time) and fields.get("time_zone") == "UTC":
        return datetime(
            fields["year"], fields["month"], day, clock.hour, clock.minute, clock.second, tzinfo=UTC
        )
    if started_ms is not None:
        return datetime.fromtimestamp(started_ms / 1000, tz=UTC).replace(microsecond=0)
    return None
