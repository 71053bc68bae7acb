"""A console press lands only on the seat the dealer meant (issue #12 item 2).

The cause: a press carried no seat. The console knew which seat's LED was lit
(`DeclarationPressed.seat`) but the application dropped it, and the session applied the
press to whoever was on the action when the press was *processed*. Under reader noise a
late chip snapshot moved the action between the press and its processing, so "check" for
seat 3 became "seat 1 calls". Now the press carries the seat whose LED was lit
(`ConsolePress.lit_seat`; `lit_seat` in a `dealer_button` command) and, if the action has
moved since, it is refused with an alert the dealer acts on. (`ConsolePress.seat` is
another thing: the seat that spoke out of turn, R53.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pokertable.controller.app.config import (
    AppConfig,
    LevelSection,
    PathSection,
    PlayerSection,
    TableSection,
)
from pokertable.controller.app.table_app import TableApp, console_to_input
from pokertable.controller.table.inputs import (
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    RoomCommand,
)
from pokertable.controller.table.session import Output
from pokertable.hardware.console import DeclarationPressed


def _app(tmp_path: Path) -> tuple[TableApp, list[Output]]:
    config = AppConfig(
        table=TableSection(venue="v", id="t1", seats=10, first_button=3),
        levels=[LevelSection(number=1, small_blind=100, big_blind=200, chip_unit=25)],
        players=[PlayerSection(seat=s, name=n, stack=5000) for s, n in
                 ((1, "Ann"), (2, "Bob"), (3, "Cat"))],
        registry=PathSection(path=str(tmp_path / "reg.sqlite3")),
        journal=PathSection(path=str(tmp_path / "journal.jsonl")),
    )
    outputs: list[Output] = []
    app = TableApp(config, on_output=lambda _s, out: outputs.extend(out))
    app.recover()
    return app, outputs


def _deal(app: TableApp) -> None:
    app.process(ConsolePress("hand_start", 1_000))
    for seat, cards in ((1, ("As", "Ad")), (2, ("Ks", "Kd")), (3, ("Qs", "Qd"))):
        for card in cards:
            app.process(CardDetected(f"seat{seat}.cards", seat, card, 1_100))


def _events(outputs: list[Output], kind: str) -> list[dict[str, Any]]:
    return [o.payload for o in outputs if o.channel == "event" and o.payload["kind"] == kind]


def test_late_chips_between_press_and_processing_never_move_the_press(tmp_path: Path) -> None:
    app, outputs = _app(tmp_path)
    _deal(app)
    hand = app.snapshot().hand
    assert hand is not None and hand.action_on == 3
    # The dealer presses check/call while seat 3's LED is lit ...
    press = console_to_input(DeclarationPressed("check_call", 2_000, seat=3), 2_000)
    assert isinstance(press, ConsolePress) and press.lit_seat == 3
    # ... but seat 3's call by chips, late through the noisy link, is processed first.
    app.process(ChipsMoved("seat3.bet", 3, (ChipItem(100), ChipItem(100)), (), 1_990))
    hand = app.snapshot().hand
    assert hand is not None and hand.action_on == 1
    actions_before = len(hand.actions)
    app.process(press)
    hand = app.snapshot().hand
    assert hand is not None and len(hand.actions) == actions_before  # seat 1 did not call
    [alert] = _events(outputs, "press_wrong_seat")
    assert "seat 3" in alert["rulings"][0]["text"] and "seat 1" in alert["rulings"][0]["text"]
    assert alert["rulings"][0]["seat"] == 3
    # The dealer presses again for the seat now lit: it applies.
    app.process(console_to_input(DeclarationPressed("check_call", 2_100, seat=1), 2_100))
    hand = app.snapshot().hand
    assert hand is not None and len(hand.actions) == actions_before + 1
    assert hand.actions[-1].seat == 1
    app.close()


def test_networked_console_press_names_its_seat(tmp_path: Path) -> None:
    """The same guard for `dealer_button` from MQTT: a repeat after the action moved is refused."""
    app, outputs = _app(tmp_path)
    _deal(app)
    payload = {"button": "check_call", "lit_seat": 3}
    app.process(RoomCommand("dealer_button", "r-1", payload, 2_000))
    hand = app.snapshot().hand
    assert hand is not None and hand.action_on == 1 and hand.actions[-1].seat == 3
    count = len(hand.actions)
    app.process(RoomCommand("dealer_button", "r-2", payload, 2_050))
    hand = app.snapshot().hand
    assert hand is not None and len(hand.actions) == count
    assert _events(outputs, "press_wrong_seat")
    app.close()


def test_a_press_without_a_seat_still_goes_to_the_action(tmp_path: Path) -> None:
    """A console with no seat LEDs sends no seat: the press goes to the seat on the action."""
    app, outputs = _app(tmp_path)
    _deal(app)
    app.process(ConsolePress("check_call", 2_000))
    hand = app.snapshot().hand
    assert hand is not None and hand.actions[-1].seat == 3
    assert not _events(outputs, "press_wrong_seat")
    app.close()
