"""``pokertable demo --game`` (issue #30): a single game or the HORSE rotation, one game per
clock level, dealt through the simulated table (stud on each seat's downcard and upcard
pads, the bring-in and completions pushed as chips).

The HORSE run reads the table's public streams with its own client on a real mosquitto,
as a tournament server would; it never looks inside the demo."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pokertable.controller.cli import dispatch as cli
from pokertable.controller.demo import main as demo
from pokertable.controller.demo.games import demo_plan
from pokertable.controller.engine.rotation import DEALERS_CHOICE, EIGHT_GAME, HORSE, NAMED_MIXES
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.payloads import validate
from pokertable.room.clock import parse_structure
from tests.console.test_demo_floor_calls import Stream


def test_an_unknown_game_is_refused_naming_the_valid_ones(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["demo", "--game", "hoarse"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "--game" in err and "did you mean 'horse'" in err and "Traceback" not in err
    for name in ("holdem", "omaha-hi-lo", "razz", "stud", "stud-hi-lo", "2-7-triple-draw",
                 "2-7-single-draw", "badugi", "horse", "8-game", "F7S/8", "F2L3D"):
        assert name in err


def test_horse_levels_rotate_the_games_as_the_clock_tells_them_R11B() -> None:
    plan = demo_plan("horse", hands=10, players=6)
    assert [level["game"] for level in plan.levels] == list(HORSE)
    assert plan.hands_per_level == 2  # ten hands: two of each game
    told = [plan.level_before(hand) for hand in range(10)]
    assert [level and level["game"] for level in told] == [
        None, None, "FO/8", None, "FR", None, "F7S", None, "F7S/8", None]
    for level in plan.levels:  # each is a valid clock command, stud with its bring-in
        validate("clock", {"command": "level", "request_id": "r", "level": level})
        assert bool(level.get("bring_in")) is (level["game"] in ("FR", "F7S", "F7S/8"))
    # --floor: the same levels as the room clock's structure file
    steps = parse_structure(plan.structure())
    assert [step.level_payload() for step in steps] == list(plan.levels)
    # an endless run goes round again, an orbit a game, the stakes raised
    endless = demo_plan("horse", hands=0, players=6)
    assert endless.hands_per_level == 6
    again = endless.level_before(6 * 5)
    assert again is not None and again["game"] == "FT" and again["big_blind"] == 400


def test_the_8_game_levels_are_the_engines_mix_draw_at_fixed_limit() -> None:
    plan = demo_plan("8-game", hands=16, players=6)
    assert [level["game"] for level in plan.levels] == list(EIGHT_GAME)
    assert plan.hands_per_level == 2 and plan.deals_stud
    for level in plan.levels:  # each is a valid clock command; the room's clock takes them
        validate("clock", {"command": "level", "request_id": "r", "level": level})
    assert [step.level_payload() for step in parse_structure(plan.structure())] == list(
        plan.levels)
    assert plan.level_before(2) == plan.levels[1] and plan.level_before(3) is None


def test_dealers_choice_is_one_level_by_orbit_with_the_rotation_RP19() -> None:
    plan = demo_plan("dealers-choice", hands=4, players=3)
    (level,) = plan.levels
    assert level["rotation"] == {"by": "orbit", "games": list(NAMED_MIXES[DEALERS_CHOICE]),
                                 "dealers_choice": True}
    validate("clock", {"command": "level", "request_id": "r", "level": level})
    assert plan.level_before(0) == level and plan.level_before(3) is None and plan.deals_stud
    assert [step.level_payload() for step in parse_structure(plan.structure())] == [level]
    assert "rotation" not in plan.first_level()  # the table's config: the clock brings it


def test_a_single_game_keeps_the_demo_levels() -> None:
    plan = demo_plan("razz", hands=20, players=6)
    assert [level["game"] for level in plan.levels] == ["FR", "FR"]
    assert plan.level_before(9) == plan.levels[1] and plan.level_before(18) is None
    assert plan.deals_stud and not demo_plan("omaha-hi-lo", hands=5, players=6).deals_stud
    holdem = demo_plan(None, hands=20, players=6)  # no --game: the demo as it always was
    assert holdem.levels[1] == {"number": 2, "small_blind": 200, "big_blind": 400,
                                "ante": 400, "ante_format": "bb_ante"}



def _demo(broker: MosquittoProcess, tmp_path: Path, game: str, hands: int,
          players: int) -> tuple[demo.DemoResult, Stream]:
    """The demo as a user runs it, on the test's mosquitto; the table's streams as a
    tournament server reads them, once the last hand is complete there."""
    stream = Stream(broker.port)
    args = argparse.Namespace(
        hands=hands, players=players, seed=7, broker=("127.0.0.1", broker.port),
        profile="tda-2024", floor_pause=0.0, stall_limit=300.0, string_bets=0.0, game=game,
        archive=str(tmp_path / "hands.sqlite3"),
    )
    try:
        result = demo.play(args)
        stream.wait_for_state(
            lambda s: s["hand_number"] == hands and s["street"] == "complete",
            f"hand {hands} complete",
        )
    finally:
        stream.stop()
    assert result.hands == hands
    assert result.archived == hands  # the room's archive: each PHH replays to the stacks
    return result, stream


def _games(stream: Stream) -> list[str]:
    """The game of each hand, as the overlay and the floor console read it."""
    return list({s["hand_id"]: s["game"] for s in stream.of("state") if s["hand_id"]}.values())


def _alerts(stream: Stream) -> list[str]:
    return [ruling["text"] for event in stream.of("events") for ruling in event["rulings"]
            if ruling["kind"] == "alert"]


@pytest.mark.needs("mosquitto", "micropython")
def test_horse_demo_deals_every_game_of_the_rotation_at_the_simulated_table(
    open_broker: MosquittoProcess, tmp_path: Path
) -> None:
    _, stream = _demo(open_broker, tmp_path, "horse", hands=10, players=4)
    states = stream.of("state")
    games = {s["hand_id"]: s["game"] for s in states if s["hand_id"]}
    assert list(games.values()) == ["FT", "FT", "FO/8", "FO/8", "FR", "FR", "F7S", "F7S",
                                    "F7S/8", "F7S/8"]
    stud = [s for s in states if s["game"] in ("FR", "F7S", "F7S/8") and s["stud"]]
    # every stud hand showed its upcards, its bring-in and, after third street, an opener
    for hand_id in [h for h, g in games.items() if g in ("FR", "F7S", "F7S/8")]:
        seen = [s for s in stud if s["hand_id"] == hand_id]
        assert any(s["stud"]["bring_in_seat"] for s in seen), hand_id
        assert any(seat.get("upcards") for s in seen for seat in s["seats"]), hand_id
        assert all(s["board"] == [] or len(s["board"]) == 1 for s in seen)
    assert any(s["street"] in ("fourth", "fifth") and s["stud"]["opener_seat"] for s in stud)
    assert _alerts(stream) == []  # a correctly dealt rotation raises nothing for the floor


def _drew(stream: Stream, cards: int) -> None:
    """Every draw hand was dealt ``cards`` a seat on the pads, and the players drew: cards
    thrown into the muck and served on the pads, or a knock to stand pat (R35-A7)."""
    states = [s for s in stream.of("state") if s.get("draw")]
    assert states, "no draw state published"
    assert max(seat.get("cards_held") or 0 for s in states for seat in s["seats"]) == cards
    drawn = [n for s in states for seat in s["seats"] for n in seat.get("drawn") or ()]
    assert any(drawn), "nobody drew a card"
    said = [r["text"] for e in stream.of("events") for r in e["rulings"]
            if "TDA2024-35A7" in r["rule_ids"]]
    assert any(" discards " in t for t in said) and any("is dealt" in t for t in said)


@pytest.mark.needs("mosquitto", "micropython")
@pytest.mark.parametrize(("game", "code", "cards"), [
    ("2-7-triple-draw", "F2L3D", 5), ("2-7-single-draw", "N2L1D", 5), ("badugi", "FB", 4)])
def test_draw_demo_deals_and_draws_through_the_muck_R35A7(
    open_broker: MosquittoProcess, tmp_path: Path, game: str, code: str, cards: int
) -> None:
    """``--game`` of a draw game: the simulated dealer deals each seat's pad, moves each
    player's discards to the muck and serves his new cards, and knocks for a pat hand."""
    _, stream = _demo(open_broker, tmp_path, game, hands=2, players=3)
    assert _games(stream) == [code, code]
    _drew(stream, cards)
    assert _alerts(stream) == []


@pytest.mark.needs("mosquitto", "micropython")
def test_8_game_demo_rotates_through_draw_flop_and_stud_games_R11B(
    open_broker: MosquittoProcess, tmp_path: Path
) -> None:
    """``--game 8-game``: the 8-game mix, a game a level as the clock tells it; four hands
    reach 2-7 triple draw, both flop games and razz."""
    _, stream = _demo(open_broker, tmp_path, "8-game", hands=4, players=3)
    assert _games(stream) == list(EIGHT_GAME[:4]) == ["F2L3D", "FT", "FO/8", "FR"]
    _drew(stream, 5)
    assert any(s["stud"] and s["stud"]["bring_in_seat"] for s in stream.of("state"))
    assert _alerts(stream) == []


@pytest.mark.needs("mosquitto", "micropython")
def test_dealers_choice_demo_the_button_picks_each_orbit_RP19(
    open_broker: MosquittoProcess, tmp_path: Path
) -> None:
    """``--game dealers-choice``: before each orbit the player on the button names a game
    (``choose_game`` on ``cmd/director``, as the floor's tablet sends it); the table deals
    it for the orbit (two hands heads-up), then asks again."""
    _, stream = _demo(open_broker, tmp_path, "dealers-choice", hands=3, players=2)
    picks = [r for r in stream.of("reply") if str(r["request_id"]).startswith("choice-")]
    assert len(picks) == 2 and all(r["ok"] for r in picks)
    dealt = _games(stream)
    assert dealt[0] == dealt[1] and set(dealt) <= set(NAMED_MIXES[DEALERS_CHOICE])
    assert _alerts(stream) == []
