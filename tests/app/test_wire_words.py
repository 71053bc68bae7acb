"""Words that are really enums (issue #26): console buttons, room commands, output channels.

Each is a ``StrEnum``, so the journal and the MQTT payloads spell them exactly as before,
and a word that arrives as a plain str compares equal to its member. These tests keep
the enums equal to what the wire accepts and to what the table handles.
"""

from __future__ import annotations

import json
from typing import get_args

import pytest

from pokertable.controller.table.inputs import (
    Command,
    ConsoleButton,
    ConsolePress,
    RoomCommand,
    from_record,
    to_record,
)
from pokertable.controller.table.session import Channel
from pokertable.hardware.console import DeclarationKind
from pokertable.mqtt.payloads import SCHEMA_DIR
from tests.app.session_table import Table, _deal


def _schema_commands(name: str) -> set[str]:
    schema = json.loads((SCHEMA_DIR / name).read_text())
    return set(schema["properties"]["command"]["enum"])


def test_room_commands_are_what_the_clock_and_director_schemas_accept() -> None:
    wire = _schema_commands("director.json") | _schema_commands("clock.json")
    assert {c.value for c in Command} == wire


def test_the_hardware_consoles_declarations_are_console_buttons() -> None:
    assert set(get_args(DeclarationKind)) <= {b.value for b in ConsoleButton}


@pytest.mark.parametrize("button", list(ConsoleButton))
def test_every_console_button_is_a_word_the_table_knows(button: ConsoleButton) -> None:
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.press(button.value)  # as the journal and the dealer_button command spell it
    assert table.events("unknown_button") == []


def test_a_word_no_button_has_is_answered_not_dropped() -> None:
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.press("wave")
    assert [e["rulings"][0]["text"] for e in table.events("unknown_button")] == [
        "unknown console button 'wave'"
    ]


def test_enum_words_keep_the_journal_and_reply_format() -> None:
    by_member = to_record(ConsolePress(ConsoleButton.BET_RAISE, 7, 600))
    by_word = to_record(ConsolePress("bet_raise", 7, 600))
    assert json.dumps(by_member) == json.dumps(by_word)
    assert '"button": "bet_raise"' in json.dumps(by_member)
    assert from_record(json.loads(json.dumps(by_member))) == ConsolePress("bet_raise", 7, 600)

    table = Table()
    (reply,) = table(RoomCommand(Command.PAUSE, "r1", {}, 5))
    assert reply.channel == "reply" and reply.channel is Channel.REPLY
    assert json.loads(json.dumps(reply.payload))["command"] == "pause"
    assert json.dumps(Channel.HOLE_CARDS) == '"hole_cards"'
