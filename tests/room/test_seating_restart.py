"""The seating desk killed mid-move (issue #27, "kill -9 of each room service"): the player
it had unseated at one table and not yet seated at the other is not lost. A restarted desk
reads its state file and the two tables' states and finishes the move: the player sits at
the destination once, with his stack, and nowhere else.

Two real tables (``pokertable run`` on simulated felt with the firmware under MicroPython)
on mosquitto with the shipped ACL, and ``pokertable seating`` as a process, killed with
SIGKILL while the destination table is frozen (SIGSTOP) so the move is caught half done.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import REPO, USERS, TableRig, Watcher
from pokertable.bench.waiting import wait_for
from tests.room.test_seating_service import seat, two_tables, walk

pytestmark = pytest.mark.needs("mosquitto", "micropython")
__all__ = ["two_tables"]  # the fixture, shared with the desk's other test


def _desk(rig: TableRig, state_file: Path, log: Path) -> subprocess.Popen[bytes]:
    command = [
        sys.executable,
        "-m",
        "pokertable.room.seating_service",
        "--venue",
        "club",
        "--broker",
        f"127.0.0.1:{rig.broker.port}",
        "--seed",
        "16",
        "--state-file",
        str(state_file),
    ]
    env = {**os.environ, "POKERTABLE_SEATING_PASSWORD": USERS["director"]}
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


def _saved(state_file: Path) -> dict[str, Any]:
    try:
        return dict(json.loads(state_file.read_text()))
    except (OSError, ValueError):
        return {}


def test_a_desk_killed_mid_move_loses_no_player_and_seats_him_once(
    two_tables: tuple[TableRig, TableRig], tmp_path: Path
) -> None:
    big, small = two_tables
    for rig in (big, small):
        walk(rig, 1)
    state_file, log = tmp_path / "seating-club.json", tmp_path / "desk.log"
    floor = Watcher(
        big.broker.port, "floor", ("pokertable/v1/club/seating",), client_id="restart-floor"
    )
    desks = [_desk(big, state_file, log)]
    frozen = False
    try:
        published = wait_for(
            lambda: next((p for p in reversed(floor.on("/seating")) if p["moves"]), None),
            "a proposed move",
            timeout=120,
        )
        (move,) = published["moves"]
        assert (move["source"], move["seat"], move["destination"], move["to_seat"]) == (
            "t9",
            3,
            "t8",
            4,
        )
        assert small.process is not None
        os.kill(small.process.pid, signal.SIGSTOP)  # t8 hears nothing until it is thawed
        frozen = True
        floor.publish(
            "pokertable/v1/club/seating/control", {"command": "confirm_move", "id": move["id"]}
        )
        big.overlay.wait_state(
            lambda s: seat(s, 3)["status"] == "empty", "the player unseated at t9"
        )
        wait_for(
            lambda: (_saved(state_file).get("moving") or {}).get("phase") == "seating",
            "the desk's file: the move half done",
        )
        desks[0].send_signal(signal.SIGKILL)  # mid-move: unseated at t9, not seated at t8
        desks[0].wait(30)
        assert oct(state_file.stat().st_mode & 0o777) == "0o600"
        assert _saved(state_file)["moving"]["move"]["id"] == move["id"]

        os.kill(small.process.pid, signal.SIGCONT)
        frozen = False
        desks.append(_desk(big, state_file, log))
        wait_for(
            lambda: (
                _saved(state_file).get("moving", "") is None
                and any(d.get("id") == move["id"] for d in _saved(state_file)["done"])
            ),
            "the restarted desk to finish the move",
            timeout=120,
        )
        (done,) = [d for d in _saved(state_file)["done"] if d.get("id") == move["id"]]
        assert done["ok"], done
        moved = small.overlay.wait_state(
            lambda s: seat(s, 4)["player"] == "Nine3", "the player seated at t8"
        )
        left = big.overlay.state() or {}
        seated = [
            (name, s["seat"])
            for name, state in (("t9", left), ("t8", moved))
            for s in state["seats"]
            if s["player"] == "Nine3" and s["status"] != "empty"
        ]
        assert seated == [("t8", 4)], "the player lost or seated twice"
        assert seat(moved, 4)["stack"] == 10_000
        assert sum(s["stack"] for s in left["seats"] + moved["seats"]) == 90_000
    finally:
        if frozen and small.process is not None:
            os.kill(small.process.pid, signal.SIGCONT)
        for desk in desks:
            if desk.poll() is None:
                desk.terminate()
                desk.wait(30)
        floor.stop()


@pytest.mark.parametrize("text", ["{not json", "[]", '{"proposed": []}'])
def test_a_state_file_that_is_not_the_desks_stops_it_in_one_line_with_exit_78(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> None:
    from pokertable.room.seating_service import main

    bad = tmp_path / "seating-club.json"
    bad.write_text(text)
    assert main(["--venue", "club", "--broker", "127.0.0.1:1", "--state-file", str(bad)]) == 78
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"seating state {bad}: " in err
    assert err.endswith("(move it aside to start afresh)\n")
    assert bad.read_text() == text  # never overwritten


def test_fresh_sets_the_saved_desk_aside_for_a_new_tournament(tmp_path: Path) -> None:
    import argparse

    from pokertable.room.seating_service import add_arguments, state_file_for

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    saved = tmp_path / "seating-club.json"
    saved.write_text('{"confirmed": []}')
    args = parser.parse_args(["--venue", "club", "--state-file", str(saved)])
    assert state_file_for(args) == saved and saved.exists()  # kept: the same tournament
    fresh = parser.parse_args(["--venue", "club", "--state-file", str(saved), "--fresh"])
    assert state_file_for(fresh) == saved and not saved.exists()
    assert (tmp_path / "seating-club.json.old").read_text() == '{"confirmed": []}'
