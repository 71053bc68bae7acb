"""The live archive (issue #16) beside a real table: ``pokertable run`` on simulated felt,
mosquitto with the shipped ACL and the ``archive`` login, three hands (an all-in with a
side pot, a three-way split pot, a fold), each stored as PHH and replayed to the table's
own stacks, and the same file as the table's journal export."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, TableRig, Watcher, journaled_felt
from pokertable.bench.waiting import wait_for
from pokertable.controller.app.config import load_config
from pokertable.controller.app.journal_export import export_journal, read_journal
from pokertable.controller.app.table_app import fresh_session
from pokertable.controller.cli import dispatch as cli
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.room.archive_service import ArchiveService
from pokertable.room.hand_store import HandStore, open_store

pytestmark = pytest.mark.needs("mosquitto", "micropython")

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]
State = dict[str, Any]


def seat(state: State, number: int) -> State:
    return next(s for s in state["seats"] if s["seat"] == number)


def _stacks(state: State) -> dict[str, int]:
    return {s["player"]: s["stack"] for s in state["seats"] if s["player"]}


class Dealer:
    """Drives the rig one step at a time, each step waiting for the state it causes."""

    def __init__(self, rig: TableRig) -> None:
        self.rig, self.watch = rig, rig.overlay

    def wait(self, predicate: Callable[[State], bool], what: str) -> State:
        return self.watch.wait_state(predicate, what, timeout=120)

    def start(
        self, number: int, blinds: dict[int, tuple[int, ...]], deal: list[tuple[int, str]]
    ) -> None:
        self.rig.button("hand_start")
        self.wait(
            lambda s: s["hand_number"] == number and s["action_on"] is not None, f"hand {number}"
        )
        for number_, chips in blinds.items():
            self.rig.push(number_, *chips)
        for to, card in deal:
            self.rig.deal(f"seat{to}.cards", card)
        self.settled("the blinds and the hole cards")

    def press(self, button: str, what: str) -> State:
        last = self.watch.state()
        assert last is not None
        self.rig.button(button)
        return self.wait(
            lambda s: (
                s["seq"] > last["seq"]
                and (s["action_on"], s["street"]) != (last["action_on"], last["street"])
            ),
            what,
        )

    def street(self, street: str, burn: str, cards: tuple[str, ...]) -> None:
        for zone in ("seat1.bet", "seat2.bet", "seat3.bet"):
            self.rig.clear(zone)
        self.rig.deal("burn", burn)
        for card in cards:
            self.rig.deal("board", card)
        self.wait(lambda s: s["street"] == street and s["action_on"] is not None, street)

    def settled(self, what: str) -> None:
        """The table has heard everything on the felt (its journal says so)."""
        felt = {zone: set(uids) for zone, uids in self.rig.sim.on_felt.items() if uids}
        wait_for(lambda: journaled_felt(self.rig.journaled()) == felt, what, 120)

    def clear_felt(self) -> None:
        """Between hands the dealer takes every card and chip off the felt, and the table
        hears it before the next deal."""
        for zone in list(self.rig.sim.on_felt):
            self.rig.clear(zone)
        self.settled("a clear felt")

    def checks(self, count: int) -> None:
        for _ in range(count):
            self.press("check_call", "a check")


def _play(rig: TableRig) -> list[dict[str, int]]:
    """Three hands; the table's stacks after each."""
    dealer, after = Dealer(rig), []
    # Hand 1, button 3: Cat all in, Ann and Bob build a side pot; Ann wins both.
    dealer.start(
        1,
        {1: (100,), 2: (100, 100)},
        [(1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")],
    )
    rig.push(3, 1000)  # a call (R44)
    dealer.wait(lambda s: seat(s, 3)["bet"] == 200 and s["action_on"] == 1, "Cat's call")
    rig.push(1, 500, 100, 100)  # raise to 800
    dealer.wait(lambda s: seat(s, 1)["bet"] == 800, "Ann's raise")
    rig.push(2, 500, 100)
    dealer.wait(lambda s: seat(s, 2)["bet"] == 800, "Bob's call")
    rig.button("all_in")
    dealer.wait(lambda s: seat(s, 3)["status"] == "all_in", "Cat's all-in")
    rig.push(3, 500)
    rig.push(1, 1000, 1000, 100, 100)  # re-raise to 3,000
    dealer.wait(lambda s: seat(s, 1)["bet"] == 3000, "Ann's re-raise")
    rig.push(2, 1000, 1000, 100, 100)
    dealer.wait(lambda s: s["action_on"] is None or s["street"] == "flop", "pre-flop's end")
    dealer.street("flop", "5s", ("2c", "7d", "9h"))
    for street, burn, card in (("turn", "6s", "Jc"), ("river", "8c", "4s")):
        dealer.checks(2)
        dealer.street(street, burn, (card,))
    dealer.checks(2)
    dealer.wait(lambda s: s["street"] == "showdown", "the showdown")
    rig.button("confirm")
    after.append(_stacks(dealer.wait(lambda s: s["street"] == "complete", "hand 1's award")))
    assert after[0] == {"Ann": 5000, "Bob": 2000, "Cat": 4500}
    dealer.clear_felt()
    # Hand 2, button 1: checked down, everyone plays the board's straight: a 3-way split.
    dealer.start(
        2,
        {2: (100,), 3: (100, 100)},
        [(2, "2h"), (3, "2s"), (1, "2c"), (2, "3s"), (3, "3h"), (1, "3d")],
    )
    rig.push(1, 100, 100)  # Ann calls 200
    dealer.wait(lambda s: seat(s, 1)["bet"] == 200, "Ann's call")
    rig.push(2, 100)  # Bob completes
    dealer.wait(lambda s: seat(s, 2)["bet"] == 200, "Bob's call")
    dealer.checks(1)  # Cat's option
    dealer.wait(lambda s: s["action_on"] is None or s["street"] == "flop", "pre-flop's end")
    dealer.street("flop", "Kc", ("5c", "6d", "7h"))
    for street, burn, card in (("turn", "Kd", "8s"), ("river", "Kh", "9c")):
        dealer.checks(3)
        dealer.street(street, burn, (card,))
    dealer.checks(3)
    dealer.wait(lambda s: s["street"] == "showdown", "the showdown")
    rig.button("confirm")
    after.append(_stacks(dealer.wait(lambda s: s["street"] == "complete", "hand 2's split")))
    assert after[1] == after[0]
    dealer.clear_felt()
    # Hand 3, button 2: Bob and Cat fold to Ann's big blind.
    dealer.start(
        3,
        {3: (100,), 1: (100, 100)},
        [(3, "Jh"), (1, "Td"), (2, "4c"), (3, "Js"), (1, "Tc"), (2, "4d")],
    )
    dealer.press("fold", "Bob's fold")
    rig.button("fold")
    after.append(_stacks(dealer.wait(lambda s: s["street"] == "complete", "hand 3's fold")))
    assert after[2] == {"Ann": 5100, "Bob": 2000, "Cat": 4400}
    return after


@pytest.fixture
def archive(table: Callable[..., TableRig], tmp_path: Path) -> Iterator[tuple[TableRig, HandStore]]:
    rig = table(PLAYERS, 3)
    store = open_store(str(tmp_path / "hands-club.sqlite3"))
    service = ArchiveService(
        host="127.0.0.1",
        port=rig.broker.port,
        venue="club",
        login=("archive", USERS["archive"]),
        store=store,
    )
    service.start()
    try:
        assert service.subscribed.wait(30), "the archive could not subscribe"
        yield rig, store
    finally:
        service.stop()
        store.close()


def test_every_hand_of_a_live_table_is_archived_and_replays_to_its_stacks(
    archive: tuple[TableRig, HandStore], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rig, store = archive
    after = _play(rig)
    records = wait_for(
        lambda: (r := store.hands("club", "t9")) and len(r) == 3 and r, "three archived hands"
    )
    journal, _ = read_journal(rig.workdir / "journal.jsonl")
    exported = list(export_journal(fresh_session(load_config(rig.config)), journal))
    out = tmp_path / "disputes"
    out.mkdir()
    for record, stacks, from_journal in zip(records, after, exported, strict=True):
        assert record.verified, record.problem
        assert dict(zip(record.players, record.finishing_stacks, strict=True)) == stacks
        assert record.phh == from_journal.text  # the Pi's export and the room's: one file
        assert "??" not in (record.phh or "")  # every card the table read, mucked ones too
        db = str(tmp_path / "hands-club.sqlite3")
        assert (
            cli.main(
                [
                    "archive",
                    "export",
                    "--venue",
                    "club",
                    "--db",
                    db,
                    "t9",
                    str(record.hand_number),
                    "-o",
                    str(out),
                ]
            )
            == 0
        )
        capsys.readouterr()
        assert cli.main(["replay", "--json", str(out / f"t9-{record.hand_number:04d}.phh")]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert dict(zip(replayed["players"], replayed["finishing_stacks"], strict=True)) == stacks
    split = [json.loads(line) for line in _replay_lines(out / "t9-0002.phh", capsys)]
    assert len(split[0]["winners"]) == 3  # the board plays: three equal shares
    # The public event stream carried only the tabled cards: the fold's hole cards were
    # read from the secure lane by the archive's own login.
    completes = [e for e in rig.overlay.on("/events") if e["kind"] == "hand_complete"]
    assert "d dh p1 ????" in completes[2]["data"]["phh"]


def _replay_lines(path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    capsys.readouterr()
    assert cli.main(["replay", "--json", str(path)]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_archive_login_reads_events_and_hole_cards_and_writes_nothing(
    tmp_path: Path,
) -> None:
    """The shipped ACL: ``archive`` reads events and the secure hole cards, no state, no
    commands, and cannot send a table anything."""
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start()
    watchers: list[Watcher] = []
    try:
        archive = Watcher(broker.port, "archive", ("pokertable/v1/#",))
        table = Watcher(broker.port, TABLE_LOGIN, (f"{PREFIX}/cmd/#",))
        director = Watcher(broker.port, "director", (f"{PREFIX}/reply",))
        watchers += [archive, table, director]
        for leaf in ("state", "status", "reply", "secure/hole_cards/1", "events"):
            table.publish(f"{PREFIX}/{leaf}", {"leaf": leaf})
        archive.publish(f"{PREFIX}/cmd/director", {"from": "archive"})
        archive.publish(f"{PREFIX}/cmd/rebirth", {"from": "archive"})
        director.publish(f"{PREFIX}/cmd/director", {"from": "director"})
        # Each publisher's messages arrive in order: the last one seen means all were sent.
        wait_for(lambda: archive.on("/events"), "the event, the table's last message")
        wait_for(lambda: table.on("/cmd/director"), "the director's command")
        assert [p["leaf"] for _, p in archive.messages] == ["secure/hole_cards/1", "events"]
        assert [p["from"] for _, p in table.messages] == ["director"]
    finally:
        for watcher in watchers:
            watcher.stop()
        broker.stop()
