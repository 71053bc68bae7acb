"""The round trip over a whole demo session (issue #16): ``pokertable demo --archive`` plays
bot hands at a simulated table through a real mosquitto; every hand lands in the archive,
replays to the table's stacks, and each hand starts on the stacks the one before ended on."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from pokertable.controller.cli import dispatch as cli
from pokertable.controller.demo import main as demo
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.hand_store import open_store

pytestmark = pytest.mark.needs("mosquitto", "micropython")

HANDS = 6


def test_every_hand_of_a_demo_session_is_archived_and_replays(
    open_broker: MosquittoProcess,  # the demo tests' anonymous mosquitto (tests/conftest.py)
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "hands-demo.sqlite3")
    args = argparse.Namespace(
        hands=HANDS,
        players=4,
        seed=11,
        broker=("127.0.0.1", open_broker.port),
        profile="tda-2024",
        floor_pause=0.0,
        stall_limit=300.0,
        string_bets=0.0,
        archive=db,
    )
    result = demo.play(args)
    assert result.hands == result.archived == HANDS
    store = open_store(db)
    try:
        records = store.hands("demo")
    finally:
        store.close()
    assert [r.hand_number for r in records] == list(range(1, HANDS + 1))
    before: dict[str, int] = {}
    for record in records:
        assert record.verified, record.problem
        capsys.readouterr()
        assert (
            cli.main(
                ["archive", "show", "--venue", "demo", "--db", db, "t1", str(record.hand_number)]
            )
            == 0
        )
        phh = tmp_path / f"{record.hand_number}.phh"
        phh.write_text(capsys.readouterr().out)
        assert cli.main(["replay", "--json", str(phh)]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["finishing_stacks"] == list(record.finishing_stacks)
        starting = _starting(record.phh or "")
        for player, stack in starting.items():  # chips carried from hand to hand
            assert before.get(player, stack) == stack, (record.name, player)
        before.update(zip(record.players, record.finishing_stacks, strict=True))
    assert sum(before.values()) == 4 * 10_000  # no chip appeared or vanished


def _starting(phh: str) -> dict[str, int]:
    import tomllib

    data = tomllib.loads(phh)
    return dict(zip(data["players"], data["starting_stacks"], strict=True))
