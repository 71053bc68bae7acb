"""The simulated node on simulated time (POKERTABLE_SIM_CLOCK=virtual, `pokertable demo`).

The firmware is the same, only its clock differs: the frames a field change produces must
be the ones the node sends on the real clock, the fake PN5180 must record no datasheet
breach, and once the field is read and settled the node rests instead of scanning flat out.
"""

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from pokertable.firmware import wire

from .conftest import FIRMWARE, mp_env
from .test_sim_node import PtyReader

ZONES = "seat1.bet,seat1.stack,seat1.cards"
CHIPS = [f"e00401{i:010x}" for i in (0x100005, 0x100015, 0x100025)]
CARD = "e004020100000007"
# One edit at a time, each waited for until the zone has settled on it.
SCRIPT = [
    *(f"ADD seat1.bet {uid}" for uid in CHIPS),
    f"ADD seat1.cards {CARD}",
    f"DEL seat1.bet {CHIPS[0]}",
    "CLEAR seat1.cards",
]
# Settle windows longer than two inventories of a zone: the confirming snapshot is never
# the settled one, so a host faster or slower than the model cannot change the frames.
CONFIG = {"present_after": 2, "absent_after": 2, "settle_ms": 300, "bet_settle_ms": 300,
          "heartbeat_ms": 300, "refresh_ms": 0}


class Node:
    def __init__(self, micropython: Path, tmp_path: Path, clock: str) -> None:
        self.master, self.slave = os.openpty()
        cfg = tmp_path / f"node-{clock}.json"
        cfg.write_text(json.dumps(CONFIG))
        env = mp_env() | {"POKERTABLE_NODE_CONFIG": str(cfg), "POKERTABLE_SIM_CLOCK": clock}
        self.proc = subprocess.Popen(
            [str(micropython), str(FIRMWARE / "host" / "sim_node.py"),
             os.ttyname(self.slave), "3", ZONES],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, text=True,
        )
        self.reader = PtyReader(self.master)

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def stats(self) -> dict[str, int]:
        assert self.proc.stdout is not None
        self.send("STATS")
        words = self.proc.stdout.readline().split()
        assert words and words[0] == "STATS", words
        return {k: int(v) for k, v in (w.split("=") for w in words[1:])}

    def snapshots_until_settled(self, zone: str) -> list[tuple[str, bool, list[str]]]:
        """Every SNAPSHOT up to the settled one of ``zone`` (heartbeats left out)."""
        seen: list[tuple[str, bool, list[str]]] = []

        def record(frame: Any) -> bool:
            if frame[1] != wire.MSG_SNAPSHOT:
                return False
            name, settled, uids = wire.unpack_snapshot(frame[3])
            seen.append((name, settled, sorted(u.hex() for u in uids)))
            return bool(name == zone and settled)

        self.reader.wait_for(record, timeout=60)
        return seen

    def close(self) -> None:
        if self.proc.poll() is None:
            self.send("QUIT")
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                stream.close()
        os.close(self.master)
        os.close(self.slave)


def _play(node: Node) -> list[list[tuple[str, bool, list[str]]]]:
    node.reader.wait_for(lambda f: f[1] == wire.MSG_BIRTH, timeout=60)
    unsettled = set(ZONES.split(","))

    def boot_settles(frame: Any) -> bool:  # boot: every zone settles once, in any order
        if frame[1] == wire.MSG_SNAPSHOT:
            name, settled, _ = wire.unpack_snapshot(frame[3])
            if settled:
                unsettled.discard(name)
        return not unsettled

    node.reader.wait_for(boot_settles, timeout=60)
    steps = []
    for line in SCRIPT:
        node.send(line)
        steps.append(node.snapshots_until_settled(line.split()[1]))
    return steps


@pytest.mark.needs("micropython")
def test_simulated_time_sends_the_frames_of_the_real_clock(
    micropython: Path, tmp_path: Path
) -> None:
    frames = {}
    for clock in ("real", "virtual"):
        node = Node(micropython, tmp_path, clock)
        try:
            frames[clock] = _play(node)
            assert node.stats()["violations"] == 0  # no datasheet rule broken by the skips
        finally:
            node.close()
    assert frames["virtual"] == frames["real"]
    assert frames["virtual"][2] == [
        ("seat1.bet", False, sorted(CHIPS)), ("seat1.bet", True, sorted(CHIPS))
    ]


@pytest.mark.needs("micropython")
def test_a_settled_node_on_simulated_time_rests_between_heartbeats(
    micropython: Path, tmp_path: Path
) -> None:
    """Nothing left to read: one zone scan per heartbeat, not a scan loop flat out."""
    node = Node(micropython, tmp_path, "virtual")
    try:
        _play(node)
        before = node.stats()["scans"]
        for _ in range(3):
            node.reader.wait_for(lambda f: f[1] == wire.MSG_HEARTBEAT, timeout=60)
        after = node.stats()["scans"]
    finally:
        node.close()
    assert after - before <= 4, f"{after - before} zone scans over three heartbeats"
