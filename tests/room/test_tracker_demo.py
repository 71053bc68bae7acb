"""The two-table demo's tournament for trackers (issue #31): ``pokertable demo --tables 2``
plays both tables (the balancing move leaves t1 a dead small blind, R32) into the room's
archive; ``pokertable archive export --tournament`` writes every hand of both tables as
PokerStars text and as Open Hand History, and parsers that are not ours
(tests/app/tracker_readers.py: PokerKit's PokerStars parser, ohh-pydantic's OHH models)
read each hand back to the table's own finishing stacks and winners."""

from __future__ import annotations

import argparse
import tomllib
from pathlib import Path

import pytest

from pokertable.controller.cli import dispatch as cli
from pokertable.controller.demo.main import add_arguments
from pokertable.controller.demo.tables import play_tables
from pokertable.controller.history.ohh import read_ohh
from pokertable.room.hand_store import open_store
from tests.app.tracker_readers import ohh_outcome, pokerkit_outcomes

pytestmark = pytest.mark.needs("micropython", "pokerkit", "ohh-pydantic")

HANDS = 5


def _export(db: str, fmt: str, out: Path) -> str:
    args = [
        "archive",
        "export",
        "--venue",
        "demo",
        "--db",
        db,
        "--tournament",
        "--format",
        fmt,
        "--event",
        "Demo Freezeout",
        "--tournament-number",
        "31",
        "--initial-stack",
        "10000",
        "-o",
        str(out),
    ]
    assert cli.main(args) == 0
    return out.read_text(encoding="utf-8")


def test_the_two_table_demo_tournament_reads_back_in_pokerkit_and_as_ohh(tmp_path: Path) -> None:
    db = str(tmp_path / "hands-demo.sqlite3")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--tables", "2", "--hands", str(HANDS), "--archive", db])
    lines = play_tables(args)
    assert any(line.startswith("balancing:") for line in lines)
    store = open_store(db)
    try:
        records = [
            store.get(r.venue, r.table, r.hand_number, r.session) for r in store.hands("demo")
        ]
    finally:
        store.close()
    assert {r.table for r in records if r} == {"t1", "t2"}
    expected = []
    dead_small_blinds = 0
    for record in records:
        assert record is not None and record.verified and record.phh, record
        fields = tomllib.loads(record.phh)
        stacks = dict(zip(record.players, record.finishing_stacks, strict=True))
        won = {p for p, w in zip(fields["players"], fields["winnings"], strict=True) if w > 0}
        expected.append((stacks, won))
        dead_small_blinds += "_dead_small_blind" in fields
    assert len(expected) == 2 * HANDS
    assert dead_small_blinds, "the move leaves a dead small blind behind it (R32)"

    stars = _export(db, "pokerstars", tmp_path / "demo.txt")
    assert stars.count("PokerStars Hand #") == 2 * HANDS
    assert "Table '31 t1' 6-max" in stars and "Table '31 t2' 6-max" in stars
    assert pokerkit_outcomes(stars) == expected

    ohh = read_ohh(_export(db, "ohh", tmp_path / "demo.ohh"))
    assert {h["ohh"]["table_name"] for h in ohh} == {"t1", "t2"}
    assert all(h["ohh"]["tournament_info"]["name"] == "Demo Freezeout" for h in ohh)
    assert [ohh_outcome(h) for h in ohh] == expected

    phhs = _export(db, "phh", tmp_path / "demo.phhs")
    tables = tomllib.loads(phhs)
    assert len(tables) == 2 * HANDS
    assert all(t["event"] == "Demo Freezeout" and "level" in t for t in tables.values())
