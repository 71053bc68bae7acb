"""Hole cards at rest (issue #14): with ``[sealing] key_file`` set, neither the journal
nor the outbox's SQLite files ever hold a hole card in clear, a restart still recovers the
hand with its hole cards, and a missing or wrong key is one line naming the config field.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import REPO, TableRig
from pokertable.bench.waiting import wait_for
from pokertable.controller.app.config import PathSection, file_problems, load_config
from pokertable.controller.app.journal import Journal, JournalError
from pokertable.controller.app.journal import run as journal_cli
from pokertable.controller.app.table_app import TableApp
from pokertable.controller.sealing import FIELD, OutboxSeal, Sealer, SealError, new_key
from pokertable.mqtt.outbox import Outbox, OutboxError

HOLE = {1: ("Kh", "Kd"), 2: ("Qs", "Qd"), 3: ("Ah", "Ad")}


def card(zone: str, seat: int | None, text: str, at_ms: int) -> dict[str, object]:
    return {
        "kind": "card",
        "zone": zone,
        "seat": seat,
        "card": text,
        "uid": f"tag-{text}",
        "at_ms": at_ms,
    }


def _same(payload: bytes, seq: int) -> bytes:
    return payload


def in_clear(data: bytes, cards: list[str]) -> list[str]:
    """The cards whose JSON string, or whose tag (the registry maps tags to cards), is in
    the bytes."""
    return [c for c in cards if f'"{c}"'.encode() in data or f"tag-{c}".encode() in data]


@pytest.fixture
def key(tmp_path: Path) -> Path:
    path = tmp_path / "hole-cards.key"
    new_key(path)
    return path


def test_journal_seals_off_board_cards_and_opens_them_with_the_key(
    tmp_path: Path, key: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    written = [
        card(f"seat{s}.cards", s, c, 10 * s + i) for s, cs in HOLE.items() for i, c in enumerate(cs)
    ]
    written += [card("burn", None, "5s", 90), card("board", None, "2c", 91)]
    journal = Journal(path, sealer=Sealer.from_file(key))
    for record in written:
        journal.append(record)
    journal.close()

    data = path.read_bytes()
    assert in_clear(data, [c for cs in HOLE.values() for c in cs] + ["5s"]) == []
    assert b'"card":"2c"' in data  # the board is public
    assert data.count(b'"sealed":') == 7
    assert list(Journal(path, sealer=Sealer.from_file(key)).records()) == written

    with pytest.raises(JournalError, match=FIELD) as refused:
        list(Journal(path).records())
    assert "\n" not in str(refused.value)
    # Without the key the public record is still checked, and says what is sealed.
    assert journal_cli(argparse.Namespace(action="verify", file=path)) == 0
    out = capsys.readouterr().out
    assert "ok, 8 records" in out and "7 record(s) with sealed hole cards" in out and FIELD in out

    # Repair needs no key either: a torn tail is cut and the sealed records stay sealed.
    with open(path, "ab") as f:
        f.write(b'{"kind":"card"')
    assert journal_cli(argparse.Namespace(action="repair", file=path)) == 0
    assert in_clear(path.read_bytes(), ["Kh", "Ad", "5s"]) == []
    assert list(Journal(path, sealer=Sealer.from_file(key)).records()) == written

    # The control: without a key the same records put the cards on disk (the check bites).
    plain = tmp_path / "plain.jsonl"
    Journal(plain).append(written[0])
    assert in_clear(plain.read_bytes(), ["Kh"]) == ["Kh"]


def test_a_sealed_card_moved_to_another_seat_does_not_open(tmp_path: Path, key: Path) -> None:
    sealer = Sealer.from_file(key)
    sealed = sealer.seal_record(card("seat1.cards", 1, "Kh", 5))
    with pytest.raises(SealError, match=FIELD):
        sealer.open_record({**sealed, "zone": "seat2.cards", "seat": 2})


def test_outbox_secure_lane_is_sealed_in_the_sqlite_files(tmp_path: Path, key: Path) -> None:
    path = tmp_path / "outbox.sqlite3"
    box = Outbox(path, session="s", sealer=OutboxSeal(Sealer.from_file(key)))
    for seat, cards in HOLE.items():
        payload = json.dumps({"seat": seat, "cards": list(cards)}).encode()
        box.append(
            "hole_cards",
            f"t/secure/hole_cards/{seat}",
            functools.partial(_same, payload),
            lane="secure",
            release_at_ms=10**15,
        )
    box.append("state", "t/state", lambda seq: b'{"board":["2c"]}')
    on_disk = b"".join(p.read_bytes() for p in tmp_path.glob("outbox.sqlite3*"))
    assert in_clear(on_disk, [c for cs in HOLE.values() for c in cs]) == []
    assert b'"2c"' in on_disk
    rows = box.pending("secure", after_id=0, now_ms=10**16, limit=10)
    assert [json.loads(r.payload)["cards"] for r in rows] == [list(c) for c in HOLE.values()]
    box.close()

    other = tmp_path / "other.key"
    new_key(other)
    for wrong in (OutboxSeal(Sealer.from_file(other)), OutboxSeal(None)):
        with pytest.raises(OutboxError, match=FIELD) as refused:
            Outbox(path, session="s", sealer=wrong)
        assert "\n" not in str(refused.value)


def test_a_missing_or_open_key_file_is_one_line_naming_the_field(tmp_path: Path) -> None:
    config = tmp_path / "table.toml"
    config.write_text(
        '[table]\nvenue = "club"\nid = "t1"\nseats = 9\n'
        "[[levels]]\nnumber = 1\nsmall_blind = 100\nbig_blind = 200\n"
        '[sealing]\nkey_file = "hole-cards.key"\n'
    )
    [missing] = file_problems(config)
    assert missing.startswith(f"{FIELD}: ") and "new-key" in missing
    new_key(tmp_path / "hole-cards.key")
    assert file_problems(config) == []
    os.chmod(tmp_path / "hole-cards.key", 0o644)
    [too_open] = file_problems(config)
    assert too_open.startswith(f"{FIELD}: ") and "chmod 600" in too_open


PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]


def _seat(state: dict[str, object], number: int) -> dict[str, object]:
    seats = state["seats"]
    assert isinstance(seats, list)
    found: dict[str, object] = next(s for s in seats if s["seat"] == number)
    return found


def _secure_rows(outbox: Path) -> int:
    db = sqlite3.connect(f"file:{outbox}?mode=ro", uri=True)
    try:
        (count,) = db.execute("SELECT COUNT(*) FROM outbox WHERE lane = 'secure'").fetchone()
    finally:
        db.close()
    return int(count)


def _holds(seat_no: int, cards: int, state: dict[str, Any]) -> bool:
    held = _seat(state, seat_no)["cards_held"]
    return isinstance(held, int) and held >= cards


def start_hand(rig: TableRig) -> None:
    """Press hand start until the table starts the hand. The table announces itself before
    its command subscription is acknowledged, so a press in that instant is lost: a dealer
    presses again when nothing happens (the crash drill's fallback, docs/testing.md)."""
    for attempt in range(3):
        rig.button("hand_start")
        try:
            rig.overlay.wait_state(
                lambda s: s["hand_number"] == 1,
                "the hand to start",
                timeout=30.0 if attempt < 2 else 90.0,
            )
            return
        except AssertionError:
            if attempt == 2:
                raise


def _sealed_rig(tmp_path: Path) -> TableRig:
    rig = TableRig(tmp_path / "table", PLAYERS, first_button=3)
    new_key(rig.workdir / "hole-cards.key")
    # The secure lane holds hole cards for the broadcast delay: they wait in the outbox.
    text = rig.config.read_text() + "secure_delay_s = 600\n"
    rig.config.write_text(text + '[sealing]\nkey_file = "hole-cards.key"\n')
    return rig


@pytest.mark.needs("mosquitto", "micropython")
def test_live_table_keeps_hole_cards_sealed_and_a_restart_recovers_them(tmp_path: Path) -> None:
    rig = _sealed_rig(tmp_path)
    try:
        rig.start_controller()
        rig.overlay.wait_state(lambda s: s["hand_number"] == 0, "the table's first state", 180)
        start_hand(rig)
        rig.push(1, 100)
        rig.push(2, 100, 100)
        for round_ in range(2):
            for seat_no, cards in HOLE.items():
                rig.deal(f"seat{seat_no}.cards", cards[round_])
                rig.overlay.wait_state(
                    functools.partial(_holds, seat_no, round_ + 1),
                    f"seat {seat_no}'s card {round_ + 1}",
                )
        holes = [c for cs in HOLE.values() for c in cs]
        outbox = rig.workdir / "outbox.sqlite3"
        journal = rig.workdir / "journal.jsonl"
        wait_for(
            lambda: journal.read_bytes().count(b'"zone":"seat') >= 6,
            "the six hole cards in the journal",
        )
        wait_for(
            lambda: _secure_rows(outbox) == len(HOLE),
            "one hole-card message a seat waiting in the outbox",
        )
        # The hand is live: the files on the SD card hold no hole card in clear.
        files = [journal, *sorted(rig.workdir.glob("outbox.sqlite3*"))]
        for path in files:
            assert in_clear(path.read_bytes(), holes) == [], path.name

        rig.kill_controller()
        # Crash recovery replays the journal with the key: the hand has its hole cards.
        copy = tmp_path / "copy.jsonl"
        shutil.copy(journal, copy)
        config = load_config(rig.config)
        app = TableApp(config.model_copy(update={"journal": PathSection(path=str(copy))}))
        app.recover()
        tracked = app.session.tracked
        assert tracked is not None
        assert {s.seat: s.hole for s in tracked.hand.seats if s.hole} == HOLE
        app.close()

        # The wrong key: the table refuses to start, one line naming the field.
        key = rig.workdir / "hole-cards.key"
        shutil.move(key, rig.workdir / "right.key")
        new_key(key)
        wrong = subprocess.run(
            [sys.executable, "-m", "pokertable.controller.cli", "run", "--config", str(rig.config)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert wrong.returncode == 78, wrong.stderr
        [line] = [x for x in wrong.stderr.splitlines() if FIELD in x]
        assert "does not open" in line

        # The right key: the real controller comes back in the same hand.
        shutil.move(rig.workdir / "right.key", key)
        before = sum(1 for s in rig.overlay.on("/status") if s["state"] == "online")
        rig.start_controller()
        wait_for(
            lambda: sum(1 for s in rig.overlay.on("/status") if s["state"] == "online") > before,
            f"the controller to come back: {rig.log()}",
            timeout=90,
        )
        state = rig.overlay.wait_state(
            lambda s: s["hand_number"] == 1 and all(_seat(s, n)["cards_held"] == 2 for n in HOLE),
            "the hand after the restart",
        )
        assert state["street"] == "preflop"
    finally:
        rig.close()


def test_phh_export_opens_sealed_hole_cards_with_the_key_only(
    tmp_path: Path, key: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokertable.controller.cli import dispatch as cli
    from tests.app.test_phh_export import CONFIG, JournaledTable, _play_session

    path = tmp_path / "journal.jsonl"
    journal = Journal(path, fsync=False, sealer=Sealer.from_file(key))
    _play_session(JournaledTable(journal))
    journal.close()
    assert b'"sealed":' in path.read_bytes()
    config = tmp_path / "table.toml"
    config.write_text(CONFIG + f'\n[sealing]\nkey_file = "{key}"\n')
    out = tmp_path / "phh"
    assert cli.main(["export", "phh", str(path), "--config", str(config), "-o", str(out)]) == 0
    files = sorted(out.glob("*.phh"))
    assert len(files) == 3
    first = files[0].read_text()  # the hole cards are back, as the table dealt them
    assert '"d dh p1 AsAd"' in first and '"d dh p3 QsQd"' in first
    assert not any("??" in f.read_text() for f in files)

    config.write_text(CONFIG)  # no key: the export refuses, naming the field
    capsys.readouterr()
    assert cli.main(["export", "phh", str(path), "--config", str(config), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and FIELD in err
