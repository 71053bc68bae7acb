"""``pokertable archive export --format`` (issue #31): one hand by its id, or the whole
tournament, as PHH, PokerStars text or OHH from the archive; bad requests named."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from pokertable.controller.cli import dispatch as cli
from pokertable.controller.history.ohh import read_ohh
from pokertable.room.hand_archive import hand_record
from pokertable.room.hand_store import open_store
from tests.app.tracker_readers import ohh_outcome, pokerkit_outcomes
from tests.room.test_hand_archive import _published, _session


def _archive(tmp_path: Path) -> tuple[str, list[tuple[dict[str, int], set[str]]]]:
    """The three hands of tests/app/test_phh_export.py in an archive; their outcomes."""
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    db = str(tmp_path / "hands-v.sqlite3")
    store = open_store(db)
    expected = []
    try:
        for event in completed:
            record = hand_record("v", "t1", event, hole[event["hand_id"]], event["started"])
            store.put(record)
            fields = tomllib.loads(record.phh or "")
            won = {p for p, w in zip(fields["players"], fields["winnings"], strict=True) if w}
            expected.append((dict(zip(record.players, record.finishing_stacks, strict=True)), won))
    finally:
        store.close()
    return db, expected


def _export(db: str, out: Path, *args: str) -> int:
    return cli.main(["archive", "export", "--venue", "v", "--db", db, "-o", str(out), *args])


@pytest.mark.needs("pokerkit", "ohh-pydantic")
def test_a_hand_by_its_id_and_the_tournament_in_each_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, expected = _archive(tmp_path)
    assert _export(db, tmp_path, "--hand", "t1-h00003", "--format", "pokerstars") == 0
    assert capsys.readouterr().out.strip() == str(tmp_path / "t1-0003.txt")
    assert pokerkit_outcomes((tmp_path / "t1-0003.txt").read_text()) == expected[2:]
    assert _export(db, tmp_path, "--tournament", "--format", "ohh") == 0
    hands = read_ohh((tmp_path / "v-tournament.ohh").read_text())
    assert [ohh_outcome(h) for h in hands] == expected
    assert {h["ohh"]["tournament_info"]["tournament_number"] for h in hands} == {"19700101"}
    assert _export(db, tmp_path, "--tournament", "--event", "Sunday Six-Max") == 0
    tables = tomllib.loads((tmp_path / "v-tournament.phhs").read_text())
    assert [t["hand"] for t in tables.values()] == [1, 2, 3]
    assert {t["event"] for t in tables.values()} == {"Sunday Six-Max"}


def test_an_export_that_names_no_hand_or_a_bad_number_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, _ = _archive(tmp_path)
    capsys.readouterr()
    assert _export(db, tmp_path, "--format", "ohh") == 1
    assert "name TABLE HAND, --hand ID or --tournament" in capsys.readouterr().err
    assert _export(db, tmp_path, "--hand", "t1-h00099") == 1
    assert "no hand t1-h00099" in capsys.readouterr().err
    assert _export(db, tmp_path, "--tournament", "--tournament-number", "T-1") == 2
    assert "must be digits" in capsys.readouterr().err
    assert not list(tmp_path.glob("*.ohh")) and not list(tmp_path.glob("*.phhs"))
