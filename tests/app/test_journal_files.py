"""The event journal on disk: reopened, torn by a power cut, corrupt in the middle.

Each test writes the file the way the situation leaves it (a clean shutdown, ``kill -9``
in the middle of a line, a damaged card) and opens it as the controller does at start.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pokertable.controller.app.journal import Journal, JournalError

RECORDS = [
    {"kind": "console", "button": "hand_start", "at_ms": 10},
    {"kind": "console", "button": "check_call", "at_ms": 20},
    {"kind": "console", "button": "fold", "at_ms": 30},
]


def written(path: Path, records: list[dict[str, object]]) -> None:
    journal = Journal(path, fsync=False)
    for record in records:
        journal.append(record)
    journal.close()


def test_reopened_journal_counts_its_records_and_appends_after_them(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, RECORDS[:2])
    journal = Journal(path, fsync=False)
    assert len(journal) == 2
    assert list(journal.records()) == RECORDS[:2]
    assert journal.append(RECORDS[2]) == 2  # the next index, not 0
    journal.close()
    assert list(Journal(path, fsync=False).records()) == RECORDS


@pytest.mark.parametrize("cut", [1, 17, 40])
def test_torn_last_line_is_cut_off_and_kept_aside(tmp_path: Path, cut: int) -> None:
    """``kill -9`` in the middle of a write leaves part of a line with no newline."""
    path = tmp_path / "journal.jsonl"
    written(path, RECORDS[:2])
    good = path.read_bytes()
    torn = json.dumps(RECORDS[2]).encode()[:cut]
    with open(path, "ab") as f:
        f.write(torn)
    journal = Journal(path, fsync=False)
    assert len(journal) == 2
    assert (tmp_path / "journal.jsonl.torn").read_bytes() == torn  # kept for the floor
    assert path.read_bytes() == good  # cut exactly at the last whole line
    # The next input starts on a line of its own and the whole file reads back.
    assert journal.append(RECORDS[2]) == 2
    journal.close()
    assert list(Journal(path, fsync=False).records()) == RECORDS


def test_a_complete_last_line_is_never_mistaken_for_a_torn_one(tmp_path: Path) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, RECORDS)
    before = path.read_bytes()
    assert len(Journal(path, fsync=False)) == 3
    assert path.read_bytes() == before
    assert not (tmp_path / "journal.jsonl.torn").exists()


def test_corrupt_line_in_the_middle_is_refused_naming_the_line(tmp_path: Path) -> None:
    """Only the last line can be torn by a crash: damage before it is not repaired by
    guessing, the journal refuses to open and says where."""
    path = tmp_path / "journal.jsonl"
    lines = [json.dumps(r) for r in RECORDS]
    lines[1] = lines[1][:-1] + "#"  # a damaged card: a bad byte where the brace was
    path.write_text("\n".join(lines) + "\n")
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"line 2 \(byte \d+\): not JSON"):
        Journal(path, fsync=False)
    assert path.read_bytes() == before  # nothing lost: the file is left for the floor


def test_empty_and_missing_journals_open_empty(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    assert len(Journal(empty, fsync=False)) == 0
    fresh = Journal(tmp_path / "var" / "lib" / "new.jsonl", fsync=False)  # folders made
    assert len(fresh) == 0
    assert [fresh.append(r) for r in RECORDS] == [0, 1, 2] and len(fresh) == 3


def test_every_append_is_on_disk_before_it_returns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The input must survive a power cut the moment the table acts on it: one fsync of
    the journal's own file per append, by default (the bench turns it off, never the
    table)."""
    synced: list[int] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    journal = Journal(tmp_path / "journal.jsonl")
    journal.append(RECORDS[0])
    journal.append(RECORDS[1])
    assert len(synced) == 2
    assert os.path.samefile(f"/proc/self/fd/{synced[0]}", tmp_path / "journal.jsonl")
    unsynced = Journal(tmp_path / "bench.jsonl", fsync=False)
    unsynced.append(RECORDS[0])
    assert len(synced) == 2


def test_a_restarted_table_replays_every_input_the_last_one_included(tmp_path: Path) -> None:
    """The application opened on an existing journal resumes exactly where it was: every
    input replayed, the last one too (a replay that dropped it would lose a fold)."""
    from pokertable.controller.app.config import parse_config
    from pokertable.controller.app.table_app import TableApp
    from pokertable.controller.table.inputs import CardDetected, ConsolePress

    config = parse_config(
        {
            "table": {"venue": "club", "id": "t3", "first_button": 3},
            "levels": [{"number": 1, "small_blind": 50, "big_blind": 100}],
            "players": [
                {"seat": 1, "name": "Ann", "stack": 2000},
                {"seat": 2, "name": "Bob", "stack": 2000},
                {"seat": 3, "name": "Cat", "stack": 2000},
            ],
            "journal": {"path": str(tmp_path / "journal.jsonl")},
        }
    )
    first = TableApp(config)
    first.recover()
    first.process(ConsolePress("hand_start", 1_000))
    for n, (seat, card) in enumerate(((1, "As"), (2, "Ks"), (3, "Qs"), (1, "Ad"), (2, "Kd"))):
        first.process(CardDetected(f"seat{seat}.cards", seat, card, 1_010 + n, f"tag-{card}"))
    first.process(CardDetected("seat3.cards", 3, "Qd", 1_020, "tag-Qd"))
    first.process(ConsolePress("fold", 1_030))  # the last input: seat 3 folds
    first.journal.close()
    hand = first.snapshot().hand
    assert hand is not None and hand.seat(3).status.value == "folded"

    again = TableApp(config)
    assert again.recover() == 8
    assert again.snapshot().hand == hand
    assert again.snapshot() == first.snapshot()


def test_inputs_appended_without_sync_are_fsynced_once_as_a_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Chip reads are group-committed: no fsync each, one for the group, none when nothing
    new was written since."""
    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", synced.append)
    journal = Journal(tmp_path / "journal.jsonl")
    for record in RECORDS:
        journal.append(record, sync=False)
    assert synced == []
    journal.sync()
    assert len(synced) == 1
    journal.sync()
    assert len(synced) == 1
    journal.append(RECORDS[0], sync=False)
    journal.sync()
    assert len(synced) == 2
    journal.append(RECORDS[1], sync=False)
    journal.close()  # a clean stop syncs what the group had not
    assert len(synced) == 3


def _repair(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    import argparse

    from pokertable.controller.app.journal import run as journal_cli

    assert journal_cli(argparse.Namespace(action="repair", file=path)) == 0
    return capsys.readouterr().out


def test_repair_cuts_a_torn_last_line_and_says_how_many_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, RECORDS)
    path.write_bytes(path.read_bytes() + b'{"kind":"cons')  # kill -9 mid-line
    marker = tmp_path / "journal.jsonl.session"
    marker.write_text("t1-0123456789ab\n")
    out = _repair(path, capsys)
    assert "kept 3 records, dropped 13 bytes" in out, out
    assert list(Journal(path, fsync=False).records()) == RECORDS
    # The MQTT session marker goes with the backup: the repaired table starts a new session.
    [backup] = [p for p in tmp_path.glob("journal.jsonl.bak-*") if p.suffix != ".session"]
    assert not marker.exists()
    assert Path(f"{backup}.session").read_text() == "t1-0123456789ab\n"
    assert "nothing to repair" in _repair(path, capsys)


def test_repair_of_a_journal_bad_from_its_first_line_keeps_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    written(path, RECORDS)
    data = path.read_bytes()
    path.write_bytes(data.replace(b"hand_start", b"hand_stop!", 1))  # checksum now wrong
    out = _repair(path, capsys)
    assert f"kept 0 records, dropped {len(data)} bytes" in out, out
    assert path.read_bytes() == b"" and len(Journal(path, fsync=False)) == 0


def test_a_record_damaged_after_the_journal_was_opened_is_named_by_its_number(
    tmp_path: Path,
) -> None:
    """The file is checked when it is opened; a record altered on disk later (a failing
    card) is refused when it is read back, naming which one (1-based)."""
    path = tmp_path / "journal.jsonl"
    records = [{"kind": "console", "button": "check_call", "at_ms": n} for n in range(5)]
    written(path, records)
    journal = Journal(path, fsync=False)
    lines = path.read_bytes().split(b"\n")
    lines[3] = lines[3].replace(b'"at_ms":3', b'"at_ms":8')
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=r"record 4: checksum does not match"):
        list(journal.records())


def test_verify_says_ok_plainly_and_names_blank_lines_when_there_are_some(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from pokertable.controller.app.journal import run as journal_cli

    path = tmp_path / "journal.jsonl"
    written(path, RECORDS)
    assert journal_cli(argparse.Namespace(action="verify", file=path)) == 0
    assert capsys.readouterr().out == f"journal {path}: ok, 3 records\n"
    path.write_bytes(path.read_bytes() + b"\n")
    assert journal_cli(argparse.Namespace(action="verify", file=path)) == 0
    assert capsys.readouterr().out == f"journal {path}: ok, 3 records (1 blank line(s) skipped)\n"
