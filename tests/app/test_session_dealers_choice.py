"""Dealer's choice entered at the table (issue #30): the dealer enters the game the player on
the button names with the console word ``choose_game`` (the networked dealer console's
``dealer_button``, journaled as a ``ConsolePress``). Only the button's player picks, between
hands, a game of the mix; the pick is published as the director's ``choose_game`` is (the
state's ``next_game`` and ``orbit``, and a ``game_chosen`` event)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pokertable.controller.app.config import parse_config
from pokertable.controller.app.table_app import TableApp, command_to_input
from pokertable.controller.engine.model import Variant
from pokertable.controller.table.inputs import ConsolePress, RoomCommand
from pokertable.mqtt.inbound import InboundCommand, RejectedCommand, read_command
from pokertable.mqtt.payloads import validate
from pokertable.mqtt.topics import TableTopics
from tests.app.stud_table import StudTable
from tests.app.test_session_orbit_rotation import dealers_choice_level, play, three_players


def _choice_table() -> StudTable:
    table = three_players()  # the first hand's button is seat 3
    table.command("level", source="clock", level=dealers_choice_level())
    assert table.replies()[-1]["ok"] and table.state()["next_game"] is None
    return table


def _refusals(table: StudTable) -> list[str]:
    return [r["text"] for e in table.events("choice_refused") for r in e["rulings"]]


def test_TDA24_11B_the_dealer_enters_the_buttons_pick_from_the_dealer_console() -> None:
    table = _choice_table()
    table.command("dealer_button", button="choose_game", game="F7S", seat=3)
    assert table.state()["next_game"] == "F7S" and table.state()["orbit"]["game"] == "F7S"
    [chosen] = table.events("game_chosen")
    assert chosen["data"] == {"game": "F7S", "seat": 3, "by": "dealer"}
    assert chosen["rulings"][0]["rule_ids"] == ["TDA2024-11B"]
    assert "seat 3, on the button, picks F7S" in chosen["rulings"][0]["text"]
    play(table)
    assert table.hand.variant is Variant.STUD and table.hand.level.ante == 10


def test_the_pick_is_the_buttons_players_between_hands_and_a_game_of_the_mix() -> None:
    table = _choice_table()
    table.command("dealer_button", button="choose_game", game="F7S", seat=1)
    table.command("dealer_button", button="choose_game", game="FO/8")  # not in the mix
    table.command("dealer_button", button="choose_game")  # no game named
    assert table.state()["next_game"] is None and table.events("game_chosen") == []
    refused = _refusals(table)
    assert refused[0] == "seat 1 may not pick the game: the choice is seat 3's, on the button"
    assert "'FO/8' is not one of the games of the mix" in refused[1]
    assert "no game named" in refused[2]
    table.press("hand_start")
    assert table.session.hand is None  # still no game: no hand
    table(ConsolePress("choose_game", table.ms(), game="FT"))  # the dealer, for the button
    play(table)
    assert table.hand.variant is Variant.FLHE
    out = table(ConsolePress("choose_game", table.ms(), game="F7S"))  # the orbit is under way
    assert "the game is chosen before the orbit's first hand" in str(out)
    table.press("hand_start")
    table(ConsolePress("choose_game", table.ms(), game="F7S", seat=1))
    assert "is still being played" in _refusals(table)[-1]


def test_a_level_without_dealers_choice_refuses_the_console_pick() -> None:
    table = three_players()
    table(ConsolePress("choose_game", table.ms(), game="F7S"))
    assert "no dealer's choice at this level" in _refusals(table)[-1]


def test_the_directors_choose_game_publishes_the_same_event() -> None:
    table = _choice_table()
    table(RoomCommand("choose_game", "r9", {"game": "F7S"}, table.ms(), "director/ann"))
    assert table.replies()[-1]["ok"]
    [chosen] = table.events("game_chosen")
    assert chosen["data"] == {"game": "F7S", "seat": None, "by": "director/ann"}


def test_the_dealer_consoles_pick_follows_the_schema_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    """The networked console's command as the MQTT bridge hands it over (a floor login's
    topic), journaled before it is applied: the replayed journal has the same pick."""
    config = parse_config({
        "table": {"venue": "club", "id": "t3", "first_button": 3},
        "levels": [{"number": 1, "small_blind": 50, "big_blind": 100}],
        "players": [{"seat": s, "name": n, "stack": 5000}
                    for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cat"))],
        "journal": {"path": str(tmp_path / "journal.jsonl")},
    })
    app = TableApp(config)
    app.recover()
    topic = TableTopics("club", "t3").command_from("floor/bob")
    level: dict[str, Any] = {"command": "level", "request_id": "c1",
                             "level": dealers_choice_level()}
    validate("clock", level)
    app.process(command_to_input(InboundCommand("clock", "level", "c1", level, topic), 1000))
    pick = {"command": "dealer_button", "request_id": "d1", "button": "choose_game",
            "game": "F7S", "seat": 3}
    validate("director", pick)
    app.process(command_to_input(InboundCommand("director", "dealer_button", "d1", pick,
                                                topic), 2000))
    rotation = app.snapshot().rotation
    assert rotation is not None and rotation.orbit.chosen == "F7S"
    app.close()
    again = TableApp(config)
    assert again.recover() == 2
    replayed = again.snapshot().rotation
    assert replayed is not None and replayed.orbit.chosen == "F7S"
    again.close()


def test_only_a_login_that_commands_tables_may_send_the_dealer_consoles_pick() -> None:
    """The authority of every director command: the floor's and director's logins may send
    it; the clock's (limited to calling time, R29, and releasing a runout, RP-8-F) may not."""
    topics = TableTopics("club", "t3")
    raw = json.dumps({"command": "dealer_button", "request_id": "d1", "button": "choose_game",
                      "game": "F7S"}).encode()
    taken = read_command(topics, topics.command_from("floor/bob"), raw, False)
    assert isinstance(taken, InboundCommand) and taken.sender == "floor/bob"
    refused = read_command(topics, topics.command_from("clock"), raw, False)
    assert isinstance(refused, RejectedCommand) and refused.field == "command"
    assert read_command(topics, topics.command_from("overlay"), raw, False) is None
