"""A mix by orbit at the live table (issue #30): the clock's level carries the rotation, the
table deals each orbit's game for as many hands as players were dealt in on its first hand,
publishes the next game, announces it with the orbit's last hand and changes game with the
R11-B ruling (the button frozen during stud, hold'em resuming where it was frozen)."""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import AnteFormat, Phase, Variant
from pokertable.mqtt.payloads import validate
from pokertable.room.clock import parse_structure
from tests.app.stud_table import StudTable
from tests.app.test_session_mixed_stud_games import flop_table

MIX = """
[mix]
games = ["FT", "F7S"]
rotation = "orbit"

[[step]]
small_blind = 50
big_blind = 100
bring_in = 25
stud_ante = 10
minutes = 20
"""
THIRD = {1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs", "Qd", "Th")}


def clock_level(text: str = MIX) -> dict[str, Any]:
    """The level message the clock sends for the structure's first level."""
    payload = parse_structure(text)[0].level_payload()
    validate("clock", {"command": "level", "request_id": "r1", "level": payload})
    return payload


def three_players() -> StudTable:
    return flop_table(players=3)


def play(table: StudTable) -> tuple[Any, ...]:
    """One hand of whatever the table deals, everyone folding to the last player."""
    out = table.press("hand_start")
    if table.hand.variant.is_stud:
        table.third(THIRD)
        seat = table.hand.bring_in_seat
        assert seat is not None
        table.push(seat, 25)
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")
    return out


def test_TDA24_11B_orbit_rotation_announces_the_next_game_and_changes_after_the_orbit() -> None:
    table = three_players()
    table.command("level", source="clock", level=clock_level())
    assert table.replies()[-1]["ok"], table.replies()[-1]
    state = table.state()
    assert state["next_game"] == "FT" and state["game"] == "FT"
    assert state["orbit"] == {"games": ["FT", "F7S"], "game": "FT", "dealers_choice": False,
                              "hands_played": 0, "hands": None}
    holdem = []
    for number in range(3):  # an orbit: as many hands as the three players dealt in
        out = play(table)
        holdem.append(table.hand)
        last = [r for r in table.rulings(out) if r["text"].startswith("last hand of the")]
        assert bool(last) == (number == 2)
    assert [(h.variant, h.button) for h in holdem] == [(Variant.FLHE, b) for b in (3, 1, 2)]
    assert holdem[0].level.ante == 0  # the flop game has no ante: stud_ante is stud's
    [announced] = [r for r in table.rulings() if r["text"].startswith("last hand of the")]
    assert announced["rule_ids"] == ["TDA2024-11B"]
    assert announced["text"] == "last hand of the FT orbit: the next hand is dealt in F7S"
    assert table.state()["next_game"] == "F7S"
    assert table.state()["orbit"]["game"] == "F7S"
    studs = []
    for _ in range(3):
        out = play(table)
        studs.append(table.hand)
    first = studs[0]
    assert first.variant is Variant.STUD and first.level.ante == 10
    assert first.level.ante_format is AnteFormat.PER_PLAYER and first.level.bring_in == 25
    # R11-B: frozen where the next hold'em hand has the button, for the whole stud orbit
    assert [h.button for h in studs] == [3, 3, 3]
    assert any("from FT to F7S" in t and "frozen during stud" in t
               for t in table.texts("TDA2024-11B"))
    assert table.state()["next_game"] == "FT"
    back = play(table)
    assert table.hand.variant is Variant.FLHE and table.hand.button == 3
    assert any("from F7S to FT" in r["text"] and "starts where it was frozen" in r["text"]
               for r in table.rulings(back))


def test_a_new_level_of_the_same_mix_keeps_the_orbit_going() -> None:
    table = three_players()
    table.command("level", source="clock", level=clock_level())
    play(table)
    level_2 = {**clock_level(), "number": 2, "small_blind": 100, "big_blind": 200,
               "bring_in": 50}
    table.command("level", source="clock", level=level_2)
    assert table.replies()[-1]["ok"]
    assert table.state()["orbit"]["hands_played"] == 1  # R23: same mix, same orbit
    play(table)
    assert table.hand.variant is Variant.FLHE and table.hand.level.big_blind == 200


def test_dealers_choice_waits_for_the_pick_and_a_stud_mix_without_bring_in_is_refused(
) -> None:
    table = three_players()
    table.command("level", source="clock", level=dealers_choice_level())
    assert table.replies()[-1]["ok"] and table.state()["next_game"] is None
    out = table.press("hand_start")
    assert table.session.hand is None  # no game picked: no hand
    assert any("dealer's choice" in str(o.payload) for o in out)
    no_bring_in = {**clock_level(), "rotation": {"by": "orbit", "games": ["FT", "F2L3D", "F7S"],
                                                 "dealers_choice": False}}
    no_bring_in.pop("bring_in", None)
    table.command("level", source="clock", level=no_bring_in)
    refused = table.replies()[-1]
    assert not refused["ok"] and refused["field"] == "level.bring_in"
    assert "RP-10-E" in refused["error"]


def dealers_choice_level() -> dict[str, Any]:
    return {**clock_level(), "rotation": {"by": "orbit", "games": ["FT", "F7S"],
                                          "dealers_choice": True}}


def test_dealers_choice_the_buttons_pick_is_dealt_for_the_orbit_then_asked_again() -> None:
    table = three_players()
    table.command("level", source="clock", level=dealers_choice_level())
    table.command("choose_game", game="FO/8")  # not a game of the mix
    refused = table.replies()[-1]
    assert not refused["ok"] and refused["field"] == "game" and "FO/8" in refused["error"]
    table.command("choose_game", game="F7S")
    assert table.replies()[-1]["ok"] and table.state()["next_game"] == "F7S"
    table.command("choose_game", game="FT")  # changed before the orbit's first hand
    assert table.replies()[-1]["ok"] and table.state()["orbit"]["game"] == "FT"
    play(table)
    table.command("choose_game", game="F7S")  # the orbit is under way
    assert not table.replies()[-1]["ok"]
    play(table)
    out = play(table)
    [last] = [r["text"] for r in table.rulings(out) if r["text"].startswith("last hand")]
    assert last == ("last hand of the FT orbit: the next hand is dealt in the game the next "
                    "button's player picks")
    assert table.state()["next_game"] is None
    table.press("hand_start")
    assert table.hand.phase is Phase.COMPLETE  # no pick yet: the last hand stays the last
    table.command("choose_game", game="F7S")
    play(table)
    assert table.hand.variant is Variant.STUD and table.hand.level.ante == 10


def test_choose_game_without_dealers_choice_is_refused() -> None:
    table = three_players()
    table.command("level", source="clock", level=clock_level())
    table.command("choose_game", game="F7S")
    refused = table.replies()[-1]
    assert not refused["ok"] and "no dealer's choice" in refused["error"]


def test_TDA24_35C_a_misdeals_redeal_is_the_same_hand_of_the_orbit() -> None:
    stud_first = MIX.replace('games = ["FT", "F7S"]', 'games = ["F7S", "FT"]')
    table = three_players()
    table.command("level", source="clock", level=clock_level(stud_first))
    table.press("hand_start")
    table.third({1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs",)})
    table.card("seat3.up", "Th")  # seat 3 short a downcard: R35-A5
    table.press("confirm")  # the dealer declares the misdeal
    table.press("hand_start")  # R35-C: the same hand again
    assert table.hand.hand_id.endswith("-redeal1") and table.hand.variant is Variant.STUD
    assert table.state()["orbit"]["hands_played"] == 1  # counted once


def test_TDA24_23_a_new_mix_announced_during_a_hand_starts_with_the_next_hand() -> None:
    table = three_players()
    table.command("level", source="clock", level=clock_level())
    table.press("hand_start")  # FT, the first hand of the orbit
    stud_first = clock_level(MIX.replace('games = ["FT", "F7S"]', 'games = ["F7S", "FT"]'))
    table.command("level", source="clock", level={**stud_first, "number": 2})
    assert table.replies()[-1]["ok"]
    assert table.hand.variant is Variant.FLHE  # the hand in progress keeps its game
    state = table.state()
    assert state["orbit"]["games"] == ["FT", "F7S"] and state["next_game"] == "F7S"
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")
    play(table)
    stud = table.hand
    assert stud.variant is Variant.STUD
    assert table.state()["orbit"] == {"games": ["F7S", "FT"], "game": "F7S",
                                      "dealers_choice": False, "hands_played": 1, "hands": 3}
