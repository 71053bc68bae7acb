"""``pokertable readers`` against the real firmware under MicroPython, over ptys: what an
installer sees is what the nodes say (firmware, heartbeat, tags per antenna, alerts)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pokertable.controller.cli import main
from pokertable.hardware.registry import TagRegistry
from pokertable.hardware.simulator import (
    DealCard,
    NodeSpec,
    PlaceForeignTag,
    PushChips,
    SyntheticTags,
    TableSimulator,
)

NODE_CONFIG = {"present_after": 2, "absent_after": 2, "settle_ms": 80, "heartbeat_ms": 300}


def rows(text: str) -> dict[str, list[str]]:
    """Table rows by their second cell (the port or the zone), cells stripped."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip("│").split("│")]
        if len(cells) > 2 and cells[1]:
            found.setdefault(cells[1], cells)
    return found


def test_readers_once_shows_each_node_and_what_each_antenna_holds(
    tmp_path: Path, micropython: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "registry.sqlite3"
    registry = TagRegistry(db)
    SyntheticTags.enroll(registry)
    zones = ("seat1.bet", "seat1.cards", "board")
    with TableSimulator(registry, [NodeSpec(3, zones)], micropython=micropython,
                        node_config=NODE_CONFIG) as table:
        table.perform(PushChips("seat1.bet", (500, 100, 25)))
        table.perform(DealCard("board", "As"))
        table.perform(PlaceForeignTag("seat1.cards", bytes.fromhex("e0040f0000000001")))
        port = table.port_of(3)
        code = main(["readers", "--port", port, "--registry", str(db), "--once",
                     "--stall-limit", "300"])
    registry.close()
    captured = capsys.readouterr()
    out = captured.out
    assert code == 0, captured.err
    table_rows = rows(out)
    node = table_rows[Path(port).name]
    assert node[0] == "3" and node[3] == "up" and node[2].startswith("0.")
    assert int(node[6]) > 0  # scans per second from the heartbeat
    assert table_rows["seat1.bet"][2:4] == ["3", "3"]  # three chips on it now, three seen
    assert table_rows["board"][2:4] == ["1", "1"]
    assert table_rows["seat1.cards"][2] == "1"
    assert table_rows["seat1.cards"][5] != "-"  # the foreign tag's alert
    assert all(len(line) <= 80 for line in out.splitlines())


def test_readers_on_a_silent_port_says_which_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    master, slave = os.openpty()
    try:
        code = main(["readers", "--port", os.ttyname(slave), "--once", "--stall-limit", "1"])
    finally:
        os.close(master)
        os.close(slave)
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.count("\n") == 1 and "no heartbeat in 1 s on /dev/" in err


@pytest.mark.parametrize("once", [True, False])
def test_readers_on_a_missing_port_names_it_in_one_line_with_exit_69(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], once: bool
) -> None:
    """An unplugged adapter is an unavailable device (EX_UNAVAILABLE), not a silent node:
    the live view would otherwise wait forever on a port that is not there."""
    missing = str(tmp_path / "usb-node1")
    code = main(["readers", "--port", missing, *(["--once"] if once else [])])
    err = capsys.readouterr().err
    assert code == 69, err
    assert err == (f"pokertable readers: reader port {missing} cannot be opened (no such "
                   "device): check the cable or adapter and the --port path "
                   "(ls /dev/serial/by-id/)\n")
