"""``pokertable demo --tables 2``: two simulated tables and the room, one hand each: the
desk's balancing move is confirmed and made, the leaderboard's audit matches the entries,
and every hand is in the room's archive as PHH that replays to the table's stacks and
equals the table's journal export."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from pokertable.controller.demo.main import add_arguments
from pokertable.controller.demo.tables import play_tables

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
