"""``pokertable demo --tables 2``: two simulated tables and the room, one hand each: the
desk's balancing move is confirmed and made, the leaderboard's audit matches the entries,
and every hand is in the room's archive as PHH that replays to the table's stacks and
equals the table's journal export."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from pokertable.controller.demo.main import add_arguments
from pokertable.controller.demo.tables import LINEUP, play_tables
from pokertable.mqtt.mosquitto import MosquittoProcess
from tests.console.test_demo_floor_calls import Stream

pytestmark = pytest.mark.needs("micropython")


def test_two_table_demo_moves_a_player_and_writes_phh_that_replays(tmp_path: Path) -> None:
    """Five hands: the move leaves t1 a seat short, so its blinds go dead (R32) in PHH."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--tables", "2", "--hands", "5", "--phh-dir", str(tmp_path),
                              "--floor", "--overlay", "--overlay-port", "0"])
    printed: list[str] = []
    lines = play_tables(args, on_line=printed.append)
    assert printed == lines  # every line went out as it happened, none held for the end
    assert any(line.startswith("floor console (both tables") for line in lines)
    moved = next(line for line in lines if line.startswith("balancing:"))
    assert "from t1 seat 3 to t2 seat 4 (TDA2024-11A TDA2024-11C)" in moved
    assert any(line.startswith("audit: 90000 chips") for line in lines)
    archived = [line for line in lines if "PHH files from the archive" in line]
    assert len(archived) == 2 and all("equals the journal's export" in line for line in archived)
    dead_blinds = 0
    for table in ("t1", "t2"):
        files = sorted((tmp_path / table).glob("*.phh"))
        assert len(files) == 5  # every hand, written and replayed to the same stacks
        for phh in files:
            text = phh.read_text()
            assert f'table = "{table}"' in text and "finishing_stacks" in text
            dead_blinds += "_dead_small_blind" in text
    assert dead_blinds, "the move leaves a dead small blind behind it"


@pytest.mark.needs("mosquitto")
def test_two_tables_deal_the_8_game_rotation_on_the_given_broker(
    open_broker: MosquittoProcess, tmp_path: Path
) -> None:
    """``--tables 2 --game 8-game --broker``: both tables take the clock's levels (2-7 triple
    draw, then limit hold'em) from the room on the given broker, and every hand, the draws
    with their discards, is archived and replays."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--tables", "2", "--game", "8-game", "--hands", "2",
                              "--broker", f"127.0.0.1:{open_broker.port}",
                              "--phh-dir", str(tmp_path)])
    streams = {t: Stream(open_broker.port, f"pokertable/v1/demo/{t}") for t in LINEUP}
    try:
        lines = play_tables(args)
    finally:
        for stream in streams.values():
            stream.stop()
    for table, stream in streams.items():  # the tables published on the given broker
        games = {s["hand_id"]: s["game"] for s in stream.of("state") if s["hand_id"]}
        assert list(games.values()) == ["F2L3D", "FT"], table
        assert [ln.split()[5] for ln in lines if ln.startswith(f"{table} hand")] == [
            "F2L3D", "FT"]
    archived = [line for line in lines if "PHH files from the archive" in line]
    assert len(archived) == 2 and all("equals the journal's export" in line for line in archived)
    drawn = [a for phh in tmp_path.glob("t*/*.phh") for a in tomllib.loads(phh.read_text())[
        "actions"] if " sd " in a]
    assert drawn and not [a for a in drawn if "??" in a]  # the archive wrote in the draws
