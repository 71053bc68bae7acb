"""Damaged and missing data files against the real ``pokertable run`` process.

A table must never replay a wrong journal, start with an empty registry, or crash-loop on
a file that restarting cannot fix: one line names the file and what to do, the exit
status is 78 (the systemd unit does not restart on it), and ``--check`` finds it first.
What is harmless (a torn last line, a blank line) must not stop the table. Issue #12,
Found 8.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pokertable.controller.app.journal import Journal
from pokertable.controller.table.inputs import ChipItem, ChipsMoved, ConsolePress, to_record
from pokertable.hardware.registry import TagRegistry
from pokertable.mqtt.outbox import Outbox

REPO = Path(__file__).resolve().parents[2]
EX_CONFIG = 78


def make_table(tmp_path: Path, *, mqtt: bool = False, records: int = 6) -> Path:
    """A table folder: config, enrolled registry, a journal of ``records`` inputs."""
    lines = [
        "[table]", 'venue = "club"', 'id = "t1"', "seats = 9",
        "[[levels]]", "number = 1", "small_blind = 100", "big_blind = 200",
        "[[players]]", "seat = 1", 'name = "Ann"', "stack = 5000",
        "[[players]]", "seat = 2", 'name = "Bob"', "stack = 5000",
        "[registry]", 'path = "registry.sqlite3"', "[journal]", 'path = "journal.jsonl"',
    ]
    if mqtt:
        lines += ["[mqtt]", "port = 1", 'outbox = "outbox.sqlite3"']
    (tmp_path / "table.toml").write_text("\n".join(lines) + "\n")
    TagRegistry(tmp_path / "registry.sqlite3").add_chip(
        "e004010203040506", denomination=100, chip_set="club")
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append(to_record(ConsolePress("hand_start", 1_000)))
    for n in range(records - 1):
        chips = (ChipItem(100, "value", f"e0040102030405{n:02x}"),)
        journal.append(to_record(ChipsMoved("seat1.bet", 1, chips, (), 2_000 + n)))
    journal.close()
    return tmp_path / "table.toml"


def pokertable(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pokertable.controller.cli", *args],
                          cwd=REPO, capture_output=True, text=True, timeout=timeout)


def refused(config: Path, *names: str) -> str:
    """Both ``--check`` and a real start refuse with the same single line; returns it."""
    lines = []
    for extra in (("--check",), ()):
        result = pokertable("run", "--config", str(config), *extra)
        assert result.returncode == EX_CONFIG, (result.returncode, result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        lines.append(result.stderr.strip())
    assert lines[0] == lines[1]
    for name in names:
        assert name in lines[0], lines[0]
    return lines[0]


def runs(config: Path) -> str:
    """Start the real table, wait until it replayed its journal, stop it cleanly; its log."""
    log = config.parent / "run.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pokertable.controller.cli", "run", "--config", str(config)],
            cwd=REPO, stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ,
                                                                      PYTHONUNBUFFERED="1"))
    deadline = time.monotonic() + 60
    while "journal replayed" not in log.read_text():
        assert process.poll() is None, f"the table exited {process.returncode}: {log.read_text()}"
        assert time.monotonic() < deadline, f"no replay within 60 s: {log.read_text()}"
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    assert process.wait(30) == 0, log.read_text()
    return log.read_text()


def test_files_altered_record_is_named_and_repair_keeps_the_good_prefix_with_a_backup(tmp_path):
    config = make_table(tmp_path)
    journal = tmp_path / "journal.jsonl"
    data = journal.read_bytes()
    lines = data.split(b"\n")
    lines[3] = lines[3].replace(b'"denomination":100', b'"denomination":500')  # one digit
    journal.write_bytes(b"\n".join(lines))
    line = refused(config, str(journal), "line 4", "pokertable journal repair")
    offset = sum(len(x) + 1 for x in lines[:3])
    assert f"(byte {offset})" in line

    verify = pokertable("journal", "verify", str(journal))
    assert verify.returncode == 1 and "line 4" in verify.stdout
    repaired = pokertable("journal", "repair", str(journal))
    assert repaired.returncode == 0, repaired.stdout + repaired.stderr
    assert "kept 3 records" in repaired.stdout
    backups = list(tmp_path.glob("journal.jsonl.bak-*"))
    assert [b.read_bytes() for b in backups if not b.name.endswith(".session")] == [
        b"\n".join(lines)]
    assert pokertable("journal", "verify", str(journal)).returncode == 0
    assert "journal replayed: 3 inputs" in runs(config)


def test_files_a_record_missing_from_the_middle_is_detected(tmp_path):
    config = make_table(tmp_path)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join(lines[:2] + lines[3:]))  # record 3 gone, the rest intact
    refused(config, str(journal), "line 3", "checksum")


def test_files_torn_last_line_is_cut_off_and_the_table_runs(tmp_path):
    config = make_table(tmp_path)
    journal = tmp_path / "journal.jsonl"
    whole = journal.read_bytes()
    journal.write_bytes(whole + b'{"at_ms":9999,"kind":"cons')  # kill -9 in mid-write
    assert pokertable("run", "--config", str(config), "--check").returncode == 0
    assert "journal replayed: 6 inputs" in runs(config)
    assert (tmp_path / "journal.jsonl.torn").read_bytes() == b'{"at_ms":9999,"kind":"cons'
    assert journal.read_bytes() == whole


def test_files_blank_line_mid_journal_is_skipped_and_nothing_is_lost(tmp_path):
    config = make_table(tmp_path)
    journal = tmp_path / "journal.jsonl"
    lines = journal.read_bytes().split(b"\n")
    journal.write_bytes(b"\n".join([*lines[:2], b"", *lines[2:]]))
    assert pokertable("run", "--config", str(config), "--check").returncode == 0
    assert "journal replayed: 6 inputs" in runs(config)


def test_files_damaged_registry_is_named(tmp_path):
    config = make_table(tmp_path)
    registry = tmp_path / "registry.sqlite3"
    registry.write_bytes(b"this is not a database" * 200)
    refused(config, f"registry {registry}", "pokertable enroll")


def test_files_missing_registry_is_an_error_not_an_empty_registry(tmp_path):
    config = make_table(tmp_path)
    registry = tmp_path / "registry.sqlite3"
    registry.unlink()
    refused(config, f"registry {registry}", "does not exist")
    assert not registry.exists()


def test_files_registry_without_its_table_is_named(tmp_path):
    config = make_table(tmp_path)
    registry = tmp_path / "registry.sqlite3"
    registry.unlink()
    sqlite3.connect(registry).execute("CREATE TABLE other (x)").connection.commit()
    refused(config, f"registry {registry}", "no tags table")


def test_files_damaged_outbox_is_named_with_the_way_out(tmp_path):
    config = make_table(tmp_path, mqtt=True)
    outbox = tmp_path / "outbox.sqlite3"
    outbox.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)  # a header, then garbage
    refused(config, f"outbox {outbox}", "mv ")


def test_files_missing_journal_and_outbox_are_a_first_start(tmp_path):
    config = make_table(tmp_path, mqtt=True)
    (tmp_path / "journal.jsonl").unlink()
    assert pokertable("run", "--config", str(config), "--check").returncode == 0
    assert "journal replayed: 0 inputs" in runs(config)


@pytest.mark.parametrize("rows", [3_000])
def test_files_outbox_is_bounded_by_bytes_and_shrinks_after_it_drains(tmp_path, rows):
    path = tmp_path / "outbox.sqlite3"
    box = Outbox(path, session="s", max_bytes=1024 * 1024)
    state = b'{"seq":%d,' + b'"pad":"' + b"x" * 1500 + b'"}'
    for _ in range(rows):  # 4.5 MB offered, 1 MiB allowed
        box.append("state", "t/state", lambda seq: state % seq)
    assert box.payload_bytes <= 1024 * 1024
    report = box.take_drop_report()
    assert report is not None and report.total == rows - len(box)
    full = path.stat().st_size
    assert full < 3 * 1024 * 1024, full
    for row in box.pending("public", after_id=0, now_ms=0, limit=rows):
        box.remove(row.id)
    assert len(box) == 0 and box.payload_bytes == 0
    box.close()
    assert path.stat().st_size < full / 4, (path.stat().st_size, full)
    again = Outbox(path, session="s")
    assert again.append("state", "t/state", lambda seq: b"{}") == rows + 1  # seqs go on
    again.close()
