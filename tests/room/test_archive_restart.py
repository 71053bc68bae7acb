"""The hand archive killed mid-hand (issue #27): with its key it keeps the hole cards of
hands in play sealed, so the hand is stored whole when it comes back; without a key it
keeps none at rest (they are lost with the process, and the hand is stored without them).

Against a real mosquitto with the shipped ACL: the archive's persistent session (its id
derived from its password) keeps the hand_complete published while it is down. The kill is
simulated in the process (the socket closed without a DISCONNECT, the memory dropped) for
both cases, and is a real SIGKILL of ``pokertable archive run`` for the sealed one.
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

from pokertable.bench.table_rig import REPO, USERS
from pokertable.bench.waiting import wait_for
from pokertable.controller.sealing import new_key
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.archive_service import ArchiveService
from pokertable.room.hand_store import open_store
from tests.room.test_hand_archive import _published, _session
from tests.room.test_takeover_drill import _attacker

pytestmark = pytest.mark.needs("mosquitto")
T9 = "pokertable/v1/club/t9"


def _archive(broker: MosquittoProcess, db: Path, key: Path | None) -> ArchiveService:
    service = ArchiveService(host="127.0.0.1", port=broker.port, venue="club",
                             login=("archive", USERS["archive"]),
                             store=open_store(str(db), str(key) if key else None))
    service.start()
    assert service.subscribed.wait(30)
    return service


def _held(service: ArchiveService, hand_id: str) -> int:
    """Hole cards the archive holds for ``hand_id`` (received and handled)."""
    followed = service._tables.get("t9")
    return len(followed.hands.get(hand_id, {})) if followed else 0


def _killed(service: ArchiveService) -> None:
    """As kill -9 leaves it: no DISCONNECT, the socket just closes, the memory is gone."""
    service.client.loop_stop()
    sock: Any = service.client.socket()
    sock.close()
    service.store.close()


@pytest.mark.parametrize("sealed", [True, False])
def test_an_archive_killed_mid_hand_stores_the_hand_whole_only_with_its_key(
    broker: MosquittoProcess, tmp_path: Path, sealed: bool
) -> None:
    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    # a hand whose public PHH hides hole cards (not tabled): only the secure lane has them
    event = next(e for e in completed if "????" in e["data"]["phh"])
    cards = hole[event["hand_id"]]
    key = tmp_path / "archive.key" if sealed else None
    if key is not None:
        new_key(key)
    db = tmp_path / "hands.sqlite3"
    felt = _attacker(broker.port, "club/t9", "t9-test-publisher")  # the table's own login
    assert felt is not None

    def publish(topic: str, payload: dict[str, Any]) -> None:
        felt.publish(topic, json.dumps(payload), 1).wait_for_publish(30)

    first = _archive(broker, db, key)
    for seat, seat_cards in cards.items():
        publish(f"{T9}/secure/hole_cards/{seat}", {"session": "s1", "hand_id": event["hand_id"],
                                                   "seat": seat, "cards": seat_cards})
    wait_for(lambda: _held(first, event["hand_id"]) == len(cards),
             "the archive to hold the hole cards")
    _killed(first)
    publish(f"{T9}/events", {k: v for k, v in event.items() if k != "started"})
    second = _archive(broker, db, key)  # the same id: the broker kept its session
    try:
        with second.stored:
            assert second.stored.wait_for(
                lambda: second.store.hands("club", "t9") != [], timeout=60)
        assert len(second.store.hands("club", "t9")) == 1  # stored once
        record = second.store.get("club", "t9", event["data"]["hand_number"])
        assert record is not None and record.phh is not None
        every_card = all(c in record.phh for seat_cards in cards.values() for c in seat_cards)
        assert every_card is sealed
        assert second.store.pending("club", "t9", "s1", event["hand_id"]) == {}
    finally:
        second.stop()
        second.store.close()
        felt.disconnect()
        felt.loop_stop()


def _archive_process(broker: MosquittoProcess, db: Path, key: Path, log: Path
                     ) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "pokertable.room.archive_service", "run", "--venue",
               "club", "--db", str(db), "--key-file", str(key), "--broker",
               f"127.0.0.1:{broker.port}"]
    env = {**os.environ, "POKERTABLE_ARCHIVE_PASSWORD": USERS["archive"]}
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)


def test_the_archive_process_killed_9_mid_hand_stores_the_hand_whole_once(
    broker: MosquittoProcess, tmp_path: Path
) -> None:
    """``kill -9`` of ``pokertable archive run`` holding a hand's sealed hole cards: the
    restarted process stores the hand whole, once, and forgets the cards it kept."""
    from tests.room.test_overlay_anonymous import Client

    table, _ = _session(tmp_path)
    completed, hole = _published(table)
    event = next(e for e in completed if "????" in e["data"]["phh"])
    cards = hole[event["hand_id"]]
    key, db, log = tmp_path / "archive.key", tmp_path / "hands.sqlite3", tmp_path / "a.log"
    new_key(key)
    felt = _attacker(broker.port, "club/t9", "t9-process-publisher")
    watcher = Client(broker.port, "director")
    assert felt is not None
    status = "pokertable/v1/club/services/archive/archive-club"

    def states() -> list[str]:
        with watcher.lock:
            return [json.loads(p)["state"] for t, p in watcher.seen if t == status]

    def publish(topic: str, payload: dict[str, Any]) -> None:
        felt.publish(topic, json.dumps(payload), 1).wait_for_publish(30)

    processes = [_archive_process(broker, db, key, log)]
    reader = None
    try:
        wait_for(lambda: states()[-1:] == ["online"], "the archive online", 120)
        for seat, seat_cards in cards.items():
            publish(f"{T9}/secure/hole_cards/{seat}", {"session": "s1", "seat": seat,
                                                       "hand_id": event["hand_id"],
                                                       "cards": seat_cards})
        reader = open_store(str(db), str(key))
        wait_for(lambda: reader.pending("club", "t9", "s1", event["hand_id"]) == cards,
                 "the hole cards sealed at rest")
        processes[0].send_signal(signal.SIGKILL)
        processes[0].wait(30)
        wait_for(lambda: states()[-1:] == ["lost"], "the archive's will")
        publish(f"{T9}/events", {k: v for k, v in event.items() if k != "started"})
        processes.append(_archive_process(broker, db, key, log))
        wait_for(lambda: reader.hands("club", "t9") != [], "the hand stored", 120)
        assert len(reader.hands("club", "t9")) == 1  # stored once
        whole = reader.get("club", "t9", event["data"]["hand_number"])
        assert whole is not None and whole.phh is not None
        assert all(c in whole.phh for seat_cards in cards.values() for c in seat_cards)
        wait_for(lambda: reader.pending("club", "t9", "s1", event["hand_id"]) == {},
                 "the kept cards dropped once the hand is stored")
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
                process.wait(30)
        if reader is not None:
            reader.close()
        felt.disconnect()
        felt.loop_stop()
        watcher.stop()
