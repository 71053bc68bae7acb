"""The room's hand archive (issue #16): each hand as the table published it, with the hole
cards of the secure lane, stored and replayed to the table's own stacks."""

from __future__ import annotations

import os
import pwd
import shutil
import sqlite3
import subprocess
import tempfile
import tomllib
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.app.journal import Journal
from pokertable.controller.app.journal_export import export_journal
from pokertable.controller.cli import dispatch as cli
from pokertable.controller.sealing import new_key
from pokertable.mqtt.mosquitto import free_port
from pokertable.room.hand_archive import add_hole_cards, hand_record
from pokertable.room.hand_store import open_store
from tests.app.test_phh_export import JournaledTable, _play_session
from tests.conftest import postgres_bin


def _published(
    table: JournaledTable,
) -> tuple[list[dict[str, Any]], dict[str, dict[int, list[str]]]]:
    """The hand_complete events and the hole cards, as the table's outputs carry them."""
    completed: list[dict[str, Any]] = []
    hole: dict[str, dict[int, list[str]]] = {}
    started: dict[str, int] = {}
    for output in table.out:
        payload = dict(output.payload)
        if output.channel == "hole_cards":
            hole.setdefault(payload["hand_id"], {})[payload["seat"]] = payload["cards"]
        elif output.channel == "event" and payload["kind"] == "hand_start":
            started[payload["hand_id"]] = payload["ts_ms"]
        elif output.channel == "event" and payload["kind"] == "hand_complete":
            completed.append({**payload, "session": "s1", "started": started[payload["hand_id"]]})
    return completed, hole


def _session(tmp_path: Path) -> tuple[JournaledTable, list[Any]]:
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    records = list(Journal(tmp_path / "journal.jsonl", fsync=False).records())
    return table, list(export_journal(table.start, records))


def test_every_published_hand_becomes_the_journal_export_with_the_hole_cards(
    tmp_path: Path,
) -> None:
    table, exported = _session(tmp_path)
    completed, hole = _published(table)
    assert len(completed) == len(exported) == 3
    for event, journal_hand in zip(completed, exported, strict=True):
        record = hand_record("v", "t1", event, hole[event["hand_id"]], event["started"])
        assert record.verified, record.problem
        assert record.phh == journal_hand.text  # the same file the Pi's export writes
        assert record.finishing_stacks == journal_hand.finishing_stacks
        assert record.hand_number == journal_hand.number


def test_the_public_event_holds_only_the_tabled_cards(tmp_path: Path) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    folded = completed[1]  # heads-up, Bob folds to Ann: nobody tables a card
    assert "??" in folded["data"]["phh"]
    for cards in hole[folded["hand_id"]].values():
        assert "".join(cards) not in folded["data"]["phh"]
    shown = completed[2]  # checked down: both hands tabled at the showdown
    actions = tomllib.loads(shown["data"]["phh"])["actions"]
    assert [a for a in actions if a.startswith("d dh")] == ["d dh p1 Js9s", "d dh p2 TcTd"]
    assert {a for a in actions if " sm " in a} == {"p1 sm Js9s", "p2 sm TcTd"}


def test_hole_cards_that_arrive_after_the_hand_complete_its_record(tmp_path: Path) -> None:
    """With a broadcast delay (secure_delay_s) the secure lane trails the hand."""
    table, exported = _session(tmp_path)
    completed, hole = _published(table)
    event = completed[1]
    record = hand_record("v", "t1", event, {}, event["started"])
    assert record.verified  # a fold: the unknown cards do not change the replay
    assert record.phh != exported[1].text
    for seat, cards in hole[event["hand_id"]].items():
        record = add_hole_cards(record, {seat: cards})
    assert record.phh == exported[1].text and record.verified


def test_a_hand_that_does_not_replay_to_the_table_is_kept_and_named(tmp_path: Path) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    event = completed[0]
    text = event["data"]["phh"].replace("finishing_stacks = [10700,", "finishing_stacks = [10600,")
    wrong = {**event, "data": {**event["data"], "phh": text}}
    record = hand_record("v", "t1", wrong, hole[event["hand_id"]], None)
    assert not record.verified
    assert record.problem == "replay ends on [10700, 800, 0], the table had [10600, 800, 0]"
    no_phh = {
        **event,
        "data": {
            **event["data"],
            "phh": None,
            "phh_problem": "a dead small blind cannot be written in PHH",
        },
    }
    record = hand_record("v", "t1", no_phh, {}, None)
    assert (record.phh, record.verified) == (None, False)
    assert record.problem == "a dead small blind cannot be written in PHH"


def _store_round_trip(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """put, replace, get and list through one store; the CLI reads the same database."""
    table, exported = _session(tmp_path)
    completed, hole = _published(table)
    store = open_store(url)
    try:
        records = [hand_record("v", "t1", e, hole[e["hand_id"]], e["started"]) for e in completed]
        for record in records:
            store.put(record)
        store.put(records[0])  # a QoS 1 repeat replaces, never doubles
        later = replace(records[0], session="s2", finished_ms=records[-1].finished_ms + 1)
        store.put(later)  # the next day: hand numbers start again in a new session
        assert store.hands("v", "t1") == [*records, later]
        assert store.hands("other") == []
        assert store.get("v", "t1", 1) == later
        assert store.get("v", "t1", 1, session="s1") == records[0]
        assert store.get("v", "t1", 9) is None
    finally:
        store.close()
    out = tmp_path / "out"
    out.mkdir()
    code = cli.main(
        [
            "archive",
            "export",
            "--venue",
            "v",
            "--db",
            url,
            "t1",
            "3",
            "--session",
            "s1",
            "-o",
            str(out),
        ]
    )
    assert code == 0
    assert (out / "t1-0003.phh").read_text() == exported[2].text
    capsys.readouterr()
    assert cli.main(["archive", "list", "--venue", "v", "--db", url, "t1"]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert listed[0] == "t1     1 t1-h00001 [s1] Ann 10700, Bob 800, Cat 0  replays"
    assert len(listed) == 4
    assert cli.main(["archive", "show", "--venue", "v", "--db", url, "t1", "9"]) == 1
    assert "no hand 9 of table t1" in capsys.readouterr().err


def test_sqlite_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _store_round_trip(str(tmp_path / "hands-v.sqlite3"), tmp_path, capsys)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A private, throwaway PostgreSQL cluster from Debian's package on a free port.

    The server refuses to run as root, so as root it runs as ``nobody`` in a directory
    made for it; it is stopped and removed after the test."""
    bindir = postgres_bin()
    assert bindir is not None
    root = Path(tempfile.mkdtemp(prefix="pokertable-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        os.chown(root, pwd.getpwnam("nobody").pw_uid, -1)
        as_user = ["runuser", "-u", "nobody", "--"]
    data, port = root / "data", free_port()
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            "archive",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg_ctl = [*as_user, str(bindir / "pg_ctl"), "-D", str(data)]
    subprocess.run(
        [*pg_ctl, "-o", options, "-l", str(root / "log"), "-w", "-t", "180", "start"],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql://archive@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True)
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.needs("postgresql")
def test_postgresql_store(
    postgres_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _store_round_trip(postgres_url, tmp_path, capsys)


def test_a_database_that_cannot_be_opened_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "taken").write_text("")
    code = cli.main(["archive", "list", "--venue", "v", "--db", str(tmp_path / "taken" / "x")])
    assert code == 78
    assert str(tmp_path / "taken") in capsys.readouterr().err


def test_the_sqlite_archive_and_its_wal_are_readable_by_the_archive_only(tmp_path: Path) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    old = tmp_path / "old.sqlite3"
    old.write_bytes(b"")
    old.chmod(0o644)  # an archive made before: tightened when opened
    for path in (tmp_path / "hands-v.sqlite3", old):
        store = open_store(str(path))
        try:
            event = completed[0]
            store.put(hand_record("v", "t1", event, hole[event["hand_id"]], event["started"]))
            files = [p for p in tmp_path.iterdir() if p.name.startswith(path.name)]
            assert len(files) >= 2  # the database and its WAL, which holds the hole cards
            assert {f.name: oct(f.stat().st_mode & 0o777) for f in files} == {
                f.name: "0o600" for f in files}
        finally:
            store.close()


def test_archive_list_prints_control_characters_in_names_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    url = str(tmp_path / "hands-v.sqlite3")
    store = open_store(url)
    try:
        event = completed[0]
        record = hand_record("v", "t1", event, hole[event["hand_id"]], event["started"])
        store.put(replace(record, players=("\x1b]0;owned\x07Ann", *record.players[1:])))
    finally:
        store.close()
    capsys.readouterr()
    assert cli.main(["archive", "list", "--venue", "v", "--db", url, "t1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b]0;owned\\x07Ann 10700" in out


def test_with_a_key_the_hands_hole_cards_are_sealed_at_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    key = tmp_path / "archive.key"
    new_key(key)
    url = str(tmp_path / "hands-v.sqlite3")
    event = completed[0]
    record = hand_record("v", "t1", event, hole[event["hand_id"]], event["started"])
    cards = [c for seat_cards in hole[event["hand_id"]].values() for c in seat_cards]
    assert record.phh is not None and all(c in record.phh for c in cards)
    store = open_store(url, str(key))
    try:
        store.put(record)
        assert store.get("v", "t1", record.hand_number) == record
    finally:
        store.close()
    with sqlite3.connect(url) as raw:
        [(stored,)] = raw.execute("SELECT phh FROM hands").fetchall()
    with_cards = [line for line in record.phh.splitlines() if any(c in line for c in cards)]
    assert with_cards and stored.startswith("sealed:")
    assert not any(line in stored for line in with_cards)
    # Without the key: the listing still works, a hand's PHH is refused naming the key.
    capsys.readouterr()
    assert cli.main(["archive", "list", "--venue", "v", "--db", url]) == 0
    assert "Ann 10700" in capsys.readouterr().out
    assert cli.main(["archive", "show", "--venue", "v", "--db", url, "t1", "1"]) == 1
    assert "sealed: give the archive's key with --key-file" in capsys.readouterr().err
    assert cli.main(["archive", "show", "--venue", "v", "--db", url, "--key-file", str(key),
                     "t1", "1"]) == 0
    assert capsys.readouterr().out == record.phh
