"""Smoke test of the simulated node: the real firmware loop on a pty, driven like the Pi does."""

import json
import os
import subprocess
import time
from pathlib import Path

from pokertable.firmware import wire

from .conftest import FIRMWARE, mp_env

ZONES = "seat1.bet,seat1.stack,seat1.cards"
UIDS = [f"e00401{i:010x}" for i in range(0x100005, 0x100005 + 25 * 16, 16)]


class PtyReader:
    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.dec = wire.FrameDecoder()
        self.frames: list[tuple[int, int, int, bytes]] = []

    def wait_for(self, pred, timeout: float = 15.0):  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, f in enumerate(self.frames):
                if pred(f):
                    del self.frames[: i + 1]
                    return f
            self.frames.clear()
            import select

            r, _, _ = select.select([self.fd], [], [], 0.2)
            if r:
                self.frames += self.dec.feed(os.read(self.fd, 4096))
        raise AssertionError("frame not seen in time")


def is_settled_stack_of(n: int):  # type: ignore[no-untyped-def]
    def pred(f) -> bool:  # type: ignore[no-untyped-def]
        if f[1] != wire.MSG_SNAPSHOT:
            return False
        zone, settled, uids = wire.unpack_snapshot(f[3])
        return zone == "seat1.stack" and settled and len(uids) == n

    return pred


def test_sim_node_birth_snapshot_reboot(micropython: Path, tmp_path: Path) -> None:
    master, slave = os.openpty()
    cfg = tmp_path / "node.json"
    cfg.write_text(
        json.dumps({"present_after": 2, "absent_after": 2, "settle_ms": 150, "heartbeat_ms": 500})
    )
    env = mp_env() | {"POKERTABLE_NODE_CONFIG": str(cfg)}
    proc = subprocess.Popen(
        [str(micropython), str(FIRMWARE / "host" / "sim_node.py"), os.ttyname(slave), "4", ZONES],
        stdin=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdin is not None
    try:
        rd = PtyReader(master)
        birth = rd.wait_for(lambda f: f[1] == wire.MSG_BIRTH)
        assert birth[0] == 4 and birth[2] == 0
        assert wire.unpack_birth(birth[3]) == (4, "0.1.0", "PN5180", ZONES.split(","))
        proc.stdin.write("".join(f"ADD seat1.stack {u}\n" for u in UIDS))
        proc.stdin.flush()
        snap = rd.wait_for(is_settled_stack_of(25))
        assert sorted(wire.unpack_snapshot(snap[3])[2]) == sorted(bytes.fromhex(u) for u in UIDS)
        hb = rd.wait_for(lambda f: f[1] == wire.MSG_HEARTBEAT)
        assert wire.unpack_heartbeat(hb[3])[1] > 0  # scans per second
        os.write(master, wire.encode_frame(4, wire.MSG_CMD_PING, 321))
        ack = rd.wait_for(lambda f: f[1] == wire.MSG_ACK)
        assert wire.unpack_ack(ack[3]) == (321,)
        proc.stdin.write(f"DEL seat1.stack {UIDS[0]}\n")
        proc.stdin.flush()
        rd.wait_for(is_settled_stack_of(24))
        proc.stdin.write("REBOOT\n")
        proc.stdin.flush()
        again = rd.wait_for(lambda f: f[1] == wire.MSG_BIRTH)
        assert again[2] == 0  # sequence restarts after a reset
        rd.wait_for(is_settled_stack_of(24))  # the field survived the node reset
        proc.stdin.write("ADD nowhere e004010000000001\nQUIT\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
        assert proc.stderr is not None and "zone" in proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)


def test_sim_node_rs485_speaks_only_when_polled(micropython: Path, tmp_path: Path) -> None:
    master, slave = os.openpty()
    cfg = tmp_path / "node.json"
    cfg.write_text(json.dumps({"transport": "rs485", "settle_ms": 100}))
    env = mp_env() | {"POKERTABLE_NODE_CONFIG": str(cfg)}
    proc = subprocess.Popen(
        [str(micropython), str(FIRMWARE / "host" / "sim_node.py"), os.ttyname(slave), "7", ZONES],
        stdin=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert proc.stdin is not None
    try:
        import select

        r, _, _ = select.select([master], [], [], 1.5)  # a polled node stays silent
        assert not r or os.read(master, 4096).strip(b"\x00") == b""
        os.write(master, wire.encode_frame(7, wire.MSG_POLL, 1))
        rd = PtyReader(master)
        birth = rd.wait_for(lambda f: f[1] == wire.MSG_BIRTH)
        assert birth[0] == 7 and birth[2] == 0
        proc.stdin.write("QUIT\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
        os.close(master)
        os.close(slave)
