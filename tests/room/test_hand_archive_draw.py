"""The room's archive of draw hands (issue #30): the public PHH says only how many cards each
player threw and drew; the archive writes in his deal, discards and new cards from the
successive hands of the secure lane, and the hand replays to the table's stacks."""

from __future__ import annotations

import json
import random
import tomllib
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.waiting import wait_for
from pokertable.controller.engine.model import Variant
from pokertable.controller.history.render import hand_to_phh
from pokertable.controller.sealing import new_key
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.hand_archive import hand_record
from tests.app.draw_table import DrawTable
from tests.app.test_session_draw_random import LEVEL, _play
from tests.room.test_archive_restart import T9, _archive, _killed
from tests.room.test_takeover_drill import _attacker


def _private_actions(table: DrawTable) -> list[str]:
    """The hand's actions as the table's own full PHH writes them (its journal export)."""
    session = table.session
    tracked = session.tracked
    assert tracked is not None
    text = hand_to_phh(tracked.setup, tracked.hand, venue="v", table="t1", seat_count=10,
                       number=session.hand_number, started_ms=None)
    actions: list[str] = tomllib.loads(text)["actions"]
    return actions


def _played(variant: Variant, rng: random.Random) -> DrawTable:
    """One hand of ``variant`` dealt and played at random to its end (four players)."""
    table = DrawTable({1: 900, 2: 2000, 3: 2000, 4: 300}, variant=variant, level=LEVEL)
    table.press("hand_start")
    _play(table, rng)
    return table


def _hand(table: DrawTable) -> tuple[dict[str, Any], dict[int, list[list[str]]]]:
    """The hand_complete event and each seat's successive hands, as the table sent them."""
    hands: dict[int, list[list[str]]] = {}
    event: dict[str, Any] = {}
    for output in table.out:
        payload = dict(output.payload)
        if output.channel == "hole_cards":
            hands.setdefault(payload["seat"], []).append(payload["cards"])
        elif output.channel == "event" and payload["kind"] == "hand_complete":
            event = payload
    return event, hands


@pytest.mark.parametrize("variant",
                         [Variant.TRIPLE_DRAW_27, Variant.SINGLE_DRAW_27, Variant.BADUGI])
def test_R35A7_draw_hands_are_archived_with_their_draws_and_replay(variant: Variant) -> None:
    rng = random.Random(f"archive-{variant.value}")
    drawn = 0
    for _ in range(4):
        table = _played(variant, rng)
        event, hands = _hand(table)
        last = {seat: seen[-1] for seat, seen in hands.items()}
        record = hand_record("v", "t1", event, last, None, hands)
        assert record.verified, record.problem
        assert record.phh is not None
        actions = tomllib.loads(record.phh)["actions"]
        assert actions == _private_actions(table)  # every card the table read, as it wrote
        draws = [a for a in actions if len(a.split()) == 3 and a.split()[1] == "sd"]
        drawn += len(draws)
        if draws:  # the public PHH alone, or the last hand only, does not replay
            assert not hand_record("v", "t1", event, last, None).verified
    assert drawn, "no player drew a card in these hands"


def _drawn_hand(seed: str) -> tuple[DrawTable, dict[str, Any], list[dict[str, Any]]]:
    """A triple-draw hand in which somebody drew: the table, its hand_complete event and its
    secure hole-card messages in the order it sent them (a new one after each draw)."""
    rng = random.Random(seed)
    while True:
        table = _played(Variant.TRIPLE_DRAW_27, rng)
        event, hands = _hand(table)
        if any(len(seen) > 1 for seen in hands.values()):
            break
    sent = [{**dict(o.payload), "session": "s1"} for o in table.out if o.channel == "hole_cards"]
    return table, {**event, "session": "s1"}, sent


@pytest.mark.needs("mosquitto")
@pytest.mark.parametrize("killed", [False, True], ids=["secure-delay", "killed-mid-hand"])
def test_R35A7_the_live_archive_keeps_a_draw_hands_draws_late_or_across_a_restart(
    broker: MosquittoProcess, tmp_path: Path, killed: bool
) -> None:
    """The archive service on the shipped broker. ``secure-delay``: the table's secure lane
    trails the hand, so every hole-card message comes after hand_complete; ``killed``: the
    archive (with its key) is killed after the first messages and the rest, and the event,
    reach the one that comes back. Either way the stored hand has every draw and replays."""
    table, event, sent = _drawn_hand(f"archive-live-{killed}")
    key = tmp_path / "archive.key"
    new_key(key)
    db = tmp_path / "hands.sqlite3"
    felt = _attacker(broker.port, "club/t9", "t9-draw-publisher")  # the table's own login
    assert felt is not None

    def publish(leaf: str, payload: dict[str, Any]) -> None:
        felt.publish(f"{T9}/{leaf}", json.dumps(payload), 1).wait_for_publish(30)

    archive = _archive(broker, db, key)
    try:
        if killed:
            half = len(sent) // 2
            for message in sent[:half]:
                publish(f"secure/hole_cards/{message['seat']}", message)
            wait_for(lambda: sum(map(len, archive.store.pending_hands(
                "club", "t9", "s1", event["hand_id"]).values())) == half, "the kept draws")
            _killed(archive)
            archive = _archive(broker, db, key)
            for message in sent[half:]:
                publish(f"secure/hole_cards/{message['seat']}", message)
            publish("events", event)
        else:
            publish("events", event)
            for message in sent:
                publish(f"secure/hole_cards/{message['seat']}", message)

        def stored_whole() -> bool:
            record = archive.store.get("club", "t9", event["data"]["hand_number"], "s1")
            return record is not None and record.phh is not None and "?" not in record.phh

        wait_for(stored_whole, "the hand stored with every card")
        record = archive.store.get("club", "t9", event["data"]["hand_number"], "s1")
        assert record is not None and record.phh is not None and record.verified, record
        assert tomllib.loads(record.phh)["actions"] == _private_actions(table)
        assert archive.store.pending_hands("club", "t9", "s1", event["hand_id"]) == {}
    finally:
        archive.stop()
        archive.store.close()
        felt.disconnect()
        felt.loop_stop()


@pytest.mark.parametrize("variant",
                         [Variant.TRIPLE_DRAW_27, Variant.SINGLE_DRAW_27, Variant.BADUGI])
def test_R35A7_a_draw_hands_public_history_replays_to_the_tables_stacks(
    variant: Variant,
) -> None:
    """The PHH in the table's hand_complete (discards and draws ``??``, only the tabled
    hands known) replays with our engine on stand-in cards: an archive without the secure
    lane stores draw hands that verify, and ``pokertable replay`` plays the public file."""
    rng = random.Random(f"public-{variant.value}")
    masked = 0
    for _ in range(12):
        event, _ = _hand(_played(variant, rng))
        masked += " sd ??" in event["data"]["phh"]
        record = hand_record("v", "t1", event, {}, None)
        # verified: the replay ends on the finishing stacks the table wrote
        assert record.verified, (record.problem, event["data"]["phh"])
    assert masked, "no hand with an unknown discard"


def test_stand_ins_that_would_need_more_cards_than_the_deck_left_are_refused_by_name() -> None:
    from pokertable.controller.history.draw_stand_ins import draw_stand_ins
    from pokertable.controller.history.phh import PhhError

    actions = ("d dh p1 ????", "d dh p2 ????", "p1 sd ????", "d dh p1 ????")
    with pytest.raises(PhhError, match="p1's unknown draws need more cards than the deck"):
        draw_stand_ins(actions, 2, deck="2c3d4h")
