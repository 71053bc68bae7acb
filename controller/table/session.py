"""The table session: everything one table does between power-on and power-off, as a pure fold.

``apply(session, input) -> (session, outputs)`` is the application's only decision point.
It turns what the readers, the dealer console and the room (MQTT) say into hands played
through the engine, and says what the table must publish. Like the engine it is pure and
deterministic, so the journal of inputs replays to the same session after a crash.

    session = new_session(SessionConfig(...))
    session, out = apply(session, ConsolePress("hand_start", at_ms=1000))

The parts: ``session_state`` (records), ``session_outputs`` (what the table says),
``hand_routing`` (chips, cards, decided actions), ``console_words``, ``room_commands``.
"""

from __future__ import annotations

from pokertable.controller.table.bet_zones import chips_moved
from pokertable.controller.table.card_hold import card_gone, card_read, follow_held, judge_held
from pokertable.controller.table.commands import room_command
from pokertable.controller.table.console import console_press
from pokertable.controller.table.hands import update_leds
from pokertable.controller.table.inputs import (
    CardCleared,
    CardDetected,
    ChipsMoved,
    ConsolePress,
    HardwareNotice,
    Input,
    RoomCommand,
    TimePassed,
)
from pokertable.controller.table.outputs import warn
from pokertable.controller.table.player_clock import follow as follow_clock
from pokertable.controller.table.state import (
    Channel,
    Output,
    PendingAlert,
    SessionConfig,
    TableSession,
    new_session,
    zone_value,
)

__all__ = [
    "Channel",
    "Output",
    "PendingAlert",
    "SessionConfig",
    "TableSession",
    "apply",
    "new_session",
    "zone_value",
]


def apply(session: TableSession, item: Input) -> tuple[TableSession, tuple[Output, ...]]:
    """Apply one input. Bad input yields an alert output and leaves the session unchanged."""
    out: list[Output] = []
    session = judge_held(session, item.at_ms, out)  # RP-5: held past the chips' lag
    match item:
        case ConsolePress():
            session = console_press(session, item, out)
        case ChipsMoved():
            session = chips_moved(session, item, out)
        case CardDetected():
            session = card_read(session, item, out)  # held while the last call settles
        case CardCleared():
            session = card_gone(session, item, out)
        case RoomCommand():
            session = room_command(session, item, out)
        case HardwareNotice():
            warn(out, session, "rules", item.text, item.code, item.at_ms)
        case TimePassed():
            pass  # judged above: a held card's lag has passed
    session = follow_held(session, out)  # the round completed by chips, or needs a word
    session = follow_clock(session)  # R29: the clock stops once he acts
    session = update_leds(session, out)
    return session, tuple(out)
