"""The simulated node on a real pty answers every RS-485 poll while it scans 20-chip stacks.

The real firmware loop runs under MicroPython with the datasheet-faithful PN5180 on the
real clock, so a zone scan of 20 chips takes ~0.35 s as on a board. The test polls like
the Pi's master and waits for each answer (with a stall limit, not a timed window): the
node must answer every poll, and most polls must land while a zone scan is under way.
The window itself is checked on simulated time in mp_faithful_check.py.
"""

import json
import os
import select
import subprocess
import time
from pathlib import Path

from pokertable.firmware import wire

from .conftest import FIRMWARE, mp_env

ZONES = ("s1.bet", "s1.stack", "s1.cards")


def uids(zone: int) -> list[str]:
    return [f"e00401{zone:02x}{(i * 97) & 0xFF:02x}{i:02x}{(i * 37) & 0xFF:02x}{i * 7 & 0xFF:02x}"
            for i in range(20)]


def read_frames(fd: int, dec: wire.FrameDecoder, stall_s: float, what: str) -> list:  # type: ignore[type-arg]
    """Frames from the pty; waits for at least one, failing after stall_s with `what`."""
    deadline = time.monotonic() + stall_s
    while True:
        r, _, _ = select.select([fd], [], [], 0.1)
        if r:
            got = dec.feed(os.read(fd, 4096))
            if got:
                return got
        if time.monotonic() > deadline:
            raise AssertionError(f"stalled {stall_s} s waiting for {what}")


def test_node_answers_every_poll_while_scanning_20_chip_stacks(
    micropython: Path, tmp_path: Path
) -> None:
    master, slave = os.openpty()
    cfg = tmp_path / "node.json"
    cfg.write_text(json.dumps({"transport": "rs485", "present_after": 1, "settle_ms": 100}))
    proc = subprocess.Popen(
        [str(micropython), str(FIRMWARE / "host" / "sim_node.py"), os.ttyname(slave), "9",
         ",".join(ZONES)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=mp_env() | {
            "POKERTABLE_NODE_CONFIG": str(cfg), "POKERTABLE_SIM_STEP_MS": "1"},
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write("STATS\n")  # answered once the node is up with its pty open
        proc.stdin.flush()
        assert proc.stdout.readline().startswith("STATS polls=0")
        proc.stdin.write("".join(f"ADD {z} {u}\n" for i, z in enumerate(ZONES) for u in uids(i)))
        proc.stdin.flush()
        dec = wire.FrameDecoder()
        settled: dict[str, int] = {}
        polls = 0
        node_in, node_out = proc.stdin, proc.stdout

        def node_stats() -> dict[str, str]:
            node_in.write("STATS\n")
            node_in.flush()
            line = node_out.readline()
            return dict(kv.split("=") for kv in line.split()[1:])

        # How many polls the zones need depends on how the two processes share the CPU
        # (a scan runs on the real clock), so the guard is a stall limit, not a poll
        # count: the node must finish another zone scan within 20 s of the last one.
        scans_seen, last_progress = -1, time.monotonic()
        # Wait for every zone's full count: a zone may first report empty (a scan that ran
        # before the ADD lines reached the node), so the first snapshot of each is not enough.
        while settled != dict.fromkeys(ZONES, 20) or polls < 40:
            polls += 1
            os.write(master, wire.encode_frame(9, wire.MSG_POLL, polls))
            for f in read_frames(master, dec, 20.0, f"an answer to poll {polls}"):
                if f[1] == wire.MSG_SNAPSHOT:
                    zone, ok, got = wire.unpack_snapshot(f[3])
                    if ok:
                        settled[zone] = len(got)
            if polls % 200 == 0:
                scans = int(node_stats()["scans"])
                if scans > scans_seen:
                    scans_seen, last_progress = scans, time.monotonic()
                stalled = time.monotonic() - last_progress
                assert stalled < 20.0, f"no zone scan finished in 20 s; settled: {settled}"
        assert settled == dict.fromkeys(ZONES, 20)
        stats = node_stats()
        line = " ".join(f"{k}={v}" for k, v in stats.items())
        assert int(stats["polls"]) == polls  # every poll reached the node and was answered
        assert int(stats["mid_scan"]) > polls // 2, line  # ... mostly in the middle of a scan
        assert int(stats["violations"]) == 0, line
        proc.stdin.write("QUIT\n")
        proc.stdin.flush()
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)
