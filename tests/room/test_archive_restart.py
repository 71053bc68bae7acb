"""The hand archive killed mid-hand (issue #27): with its key it keeps the hole cards of
hands in play sealed, so the hand is stored whole when it comes back; without a key it
keeps none at rest (they are lost with the process, and the hand is stored without them).

Against a real mosquitto with the shipped ACL: the archive's persistent session (its id
derived from its password) keeps the hand_complete published while it is down.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS
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
    return len(followed.hole.get(hand_id, {})) if followed else 0


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
