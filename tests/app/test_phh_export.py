"""Hand histories (issue #16): a table's journal exported as PHH replays to the table's stacks."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.app.journal import Journal
from pokertable.controller.app.journal_export import export_journal
from pokertable.controller.cli import dispatch as cli
from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import Level, Phase, Variant
from pokertable.controller.history.phh import load_hands
from pokertable.controller.history.render import hand_to_phh, replayed_stacks
from pokertable.controller.history.replay import replay_hand
from pokertable.controller.table.inputs import RoomCommand, to_record
from pokertable.controller.table.session import TableSession
from tests.app.session_table import Table, _deal

CONFIG = """
[table]
venue = "v"
id = "t1"
first_button = 3

[[levels]]
number = 1
small_blind = 100
big_blind = 200

[[players]]
seat = 1
name = "Ann"
stack = 5000

[[players]]
seat = 2
name = "Bob"
stack = 5000

[[players]]
seat = 3
name = "Cat"
stack = 1500
"""


BBA = {"number": 2, "small_blind": 200, "big_blind": 400, "ante": 400, "ante_format": "bb_ante"}


class JournaledTable(Table):
    """The session helper with every input first written to a real journal, as the app does."""

    def __init__(self, journal: Journal, **table: Any) -> None:
        super().__init__(**table)
        self.journal = journal
        self.start = self.session
        self.stacks_after: list[dict[str, int]] = []  # each completed hand's stacks, by player

    def __call__(self, item: Any) -> Any:
        self.journal.append(to_record(item))
        history = len(self.session.history)
        out = super().__call__(item)
        hand = self.session.hand
        if len(self.session.history) > history and hand is not None:
            self.stacks_after.append({s.player: s.stack for s in hand.seats})
        return out

    def street(self, *cards: str) -> None:
        self.card("burn", cards[0])
        for card in cards[1:]:
            self.card("board", card)


def _check_down(table: JournaledTable, boards: tuple[tuple[str, ...], ...]) -> None:
    for cards in boards:
        table.street(*cards)
        while (hand := table.session.hand) is not None and hand.phase is Phase.BETTING:
            table.press("check_call")


def _play_session(table: JournaledTable) -> TableSession:
    """Three hands: a side pot; heads-up a fold, then a short big blind all in for his
    big-blind ante and part of the blind (the level the director announced in between)."""
    table.press("hand_start")
    table.push(1, 100)  # the blinds go out
    table.push(2, 100, 100)
    _deal(table)
    table.push(3, 1000, 500)  # Cat all in for 1,500
    table.press("check_call")
    table.push(1, 1000, 500)  # Ann calls
    table.push(2, 1000, 1000, 1000, 500, 500)  # Bob raises to 4,200
    table.press("check_call")
    table.push(1, 1000, 1000, 500)  # Ann calls: a side pot between Ann and Bob
    table.collect()
    _check_down(table, (("5s", "2c", "7d", "9h"), ("6s", "Jc"), ("8c", "4s")))
    table.press("confirm")
    assert len(table.stacks_after) == 1
    for number, (ann, bob) in enumerate(
        ((("Ah", "Kh"), ("2d", "3d")), (("Tc", "Td"), ("Js", "9s")))
    ):
        table.press("hand_start")
        for seat, cards in ((1, ann), (2, bob)):
            for c in cards:
                table.card(f"seat{seat}.cards", c)
        if number == 0:
            level = {"command": "level", "request_id": "r1", "level": BBA}
            table(RoomCommand("level", "r1", level, table.ms()))
            table.press("fold")
        else:
            while (hand := table.session.hand) is not None and hand.phase is Phase.BETTING:
                table.press("check_call")
            table.collect()
            _check_down(table, (("5c", "2h", "7s", "8d"), ("6c", "3c"), ("Qh", "4d")))
            table.press("confirm")
        assert len(table.stacks_after) == 2 + number
    return table.session


def test_every_hand_of_a_session_exports_and_replays_to_the_table_stacks(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    records = list(Journal(tmp_path / "journal.jsonl", fsync=False).records())
    exported = list(export_journal(table.start, records))
    assert [e.number for e in exported] == [1, 2, 3]
    for hand, stacks in zip(exported, table.stacks_after, strict=True):
        players = [p.strip('"') for p in _field(hand.text, "players")]
        assert dict(zip(players, hand.finishing_stacks, strict=True)) == stacks
        assert replayed_stacks(hand.text, hand.hand_id) == hand.finishing_stacks
    assert exported[0].finishing_stacks == (10700, 800, 0)  # Ann won both pots


def _field(text: str, key: str) -> list[str]:
    line = next(ln for ln in text.splitlines() if ln.startswith(f"{key} = "))
    return line.split(" = ", 1)[1].strip("[]").split(", ")


def test_export_phh_command_then_replay_command_give_the_table_stacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    out = tmp_path / "phh"
    code = cli.main(
        ["export", "phh", str(tmp_path / "journal.jsonl"), "--config", str(config), "-o", str(out)]
    )
    assert code == 0, capsys.readouterr().err
    files = sorted(out.glob("*.phh"))
    assert len(files) == 3
    capsys.readouterr()
    assert cli.main(["replay", "--json", *map(str, files)]) == 0
    results = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for result, stacks in zip(results, table.stacks_after, strict=True):
        assert dict(zip(result["players"], result["finishing_stacks"], strict=True)) == stacks


def test_export_phh_names_a_missing_journal_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    code = cli.main(["export", "phh", str(tmp_path / "none.jsonl"), "--config", str(config)])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and "no journal" in err


def test_a_side_pot_hand_exports_and_replays_to_the_same_stacks() -> None:
    """docs/examples/side-pot.phh played by the engine, written back out and replayed."""
    example = Path(__file__).parents[2] / "docs" / "examples" / "side-pot.phh"
    original = replay_hand(next(load_hands(example)))
    state = original.state
    assert state.phase is Phase.COMPLETE and len(state.pots) == 2  # a main pot and a side pot
    text = hand_to_phh(
        original.hand.setup,
        state,
        venue="v",
        table="t1",
        seat_count=9,
        number=7,
        started_ms=1_764_148_500_000,
    )
    assert "antes = [0, 200, 0]" in text and "time = 09:15:00" in text
    assert '"p3 cbr 600"' in text and '"p2 cbr 7800"' in text and '"p3 cc"' in text
    stacks = tuple(state.seat(s).stack for s in (1, 2, 3))
    # Ann's aces win the 9,200 main pot (Bob's ante is in it), Bob's kings the 9,600 side pot.
    assert stacks == (9200, 9600, 4200)
    assert replayed_stacks(text, "side-pot") == stacks


def _three_handed(small_blind_seat: int | None) -> HandSetup:
    return HandSetup(
        hand_id="h",
        variant=Variant.NLHE,
        level=Level(small_blind=100, big_blind=200),
        button=3,
        small_blind_seat=small_blind_seat,
        big_blind_seat=2,
        players=((1, "Ann", 2000), (2, "Bob", 2000), (3, "Cat", 2000)),
    )


def _play_mucked_at_showdown(setup: HandSetup) -> Any:
    """Seats 1-3 (3 on the button): Cat folds, Ann tables her aces at the river showdown and
    Bob mucks his kings (also tests/app/test_tracker_export.py)."""
    state, _ = start_hand(setup)
    for event in (
        DealHole(1, ("Ah", "Ad")),
        DealHole(2, ("Kc", "Ks")),
        DealHole(3, ("Qh", "9h")),
        PlayerAction(3, ActionKind.FOLD),
        PlayerAction(1, ActionKind.CALL),
        PlayerAction(2, ActionKind.CHECK),
        DealBoard(("2c", "7d", "8s")),
        PlayerAction(1, ActionKind.BET, 400),
        PlayerAction(2, ActionKind.CALL),
        DealBoard(("4h",)),
        PlayerAction(1, ActionKind.CHECK),
        PlayerAction(2, ActionKind.CHECK),
        DealBoard(("Jc",)),
        PlayerAction(1, ActionKind.CHECK),
        PlayerAction(2, ActionKind.CHECK),
        ShowHand(1),
        MuckHand(2),
    ):
        state, _ = step(state, event)
    return state


def test_a_mucked_hand_at_showdown_exports_as_a_muck_and_replays() -> None:
    setup = _three_handed(1)
    state = _play_mucked_at_showdown(setup)
    assert state.phase is Phase.COMPLETE
    text = hand_to_phh(setup, state, venue="v", table="t1", seat_count=9, number=1, started_ms=0)
    assert '"p1 sm AhAd"' in text and '"p2 sm"' in text and '"p3 f"' in text
    assert replayed_stacks(text, "muck") == (2600, 1400, 2000)


def _play_to_showdown(state: Any) -> Any:
    """Everyone calls or checks to a showdown that every live hand tables."""
    boards = [("2c", "7d", "8s"), ("4h",), ("Jc",)]
    for _ in range(40):
        if state.phase is Phase.COMPLETE:
            return state
        if state.phase is Phase.DEALING:
            event: Any = DealBoard(boards.pop(0))
        elif state.phase is Phase.SHOWDOWN:
            event = ShowHand(next(s.seat for s in state.seats if s.in_hand and not s.shown))
        else:
            on = state.action_on
            calls = state.seat(on).bet < state.call_to
            event = PlayerAction(on, ActionKind.CALL if calls else ActionKind.CHECK)
        state, _ = step(state, event)
    raise AssertionError(f"the hand did not end: {state.phase}")


@pytest.mark.parametrize(
    ("button", "blinds"),
    [
        (1, "blinds_or_straddles = [200, 0, 0]"),  # nobody in the SB position: p1 the BB
        (3, "blinds_or_straddles = [0, 200, 0]"),  # the SB position dealt in, posting nothing
    ],
)
@pytest.mark.needs("pokerkit")
def test_TDA24_32_a_dead_small_blind_hand_exports_and_replays(button: int, blinds: str) -> None:
    """R32's dead small blind in PHH's own fields; the level's small blind in ours."""
    import pokerkit as pk
    setup = replace(_three_handed(None), button=button)
    state, _ = start_hand(setup)
    for event in (DealHole(1, ("Ah", "Ad")), DealHole(2, ("Kc", "Ks")), DealHole(3, ("Qh", "9h"))):
        state, _ = step(state, event)
    state = _play_to_showdown(state)
    text = hand_to_phh(setup, state, venue="v", table="t1", seat_count=9, number=1, started_ms=0)
    assert blinds in text and "_dead_small_blind = 100" in text
    stacks = replayed_stacks(text, "dead-sb")
    assert stacks == tuple(s.stack for s in state.seats_clockwise_from(button))
    assert sorted(stacks) == [1800, 1800, 2400]  # Ann's aces took the pot of 600
    assert tuple(list(pk.HandHistory.loads(text))[-1].stacks) == stacks  # the reference reader


FOUR_HANDED = ((1, "Ann", 5000), (2, "Bob", 1000), (3, "Cat", 5000), (4, "Dan", 5000))


@pytest.mark.needs("pokerkit")
def test_TDA24_32_the_hand_after_the_big_blind_busts_exports_and_replays(tmp_path: Path) -> None:
    """At the table: Bob, the big blind, busts; the next hand's small blind is dead."""
    import pokerkit as pk
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal, players=FOUR_HANDED, first_button=4)
    table.press("hand_start")  # button Dan, small blind Ann, big blind Bob
    for seat, cards in ((1, "2s3d"), (2, "7c2h"), (3, "AsAd"), (4, "4s5d")):
        table.card(f"seat{seat}.cards", cards[:2])
        table.card(f"seat{seat}.cards", cards[2:])
    table.push(3, 500, 500)  # Cat raises to 1,000
    table.press("fold")  # Dan
    table.press("fold")  # Ann
    table.push(2, 500, 100, 100, 100)  # Bob calls all in
    table.collect()
    for street in (("5h", "9s", "Tc", "Jd"), ("6h", "Kc"), ("8h", "Qd")):
        table.street(*street)
    table.press("confirm")
    assert [s.player for s in table.session.table.seats] == ["Ann", "Cat", "Dan"]
    table.press("hand_start")
    hand = table.session.hand
    assert hand is not None and hand.small_blind_seat is None and hand.big_blind_seat == 3
    for seat, cards in ((3, "KsKd"), (4, "QsQd"), (1, "JsJh")):
        table.card(f"seat{seat}.cards", cards[:2])
        table.card(f"seat{seat}.cards", cards[2:])
    table.push(4, 100, 100)  # Dan calls the big blind
    table.press("fold")  # Ann
    table.press("check_call")  # Cat checks
    table.collect()
    _check_down(table, (("2c", "3c", "4c", "7d"), ("6c", "8c"), ("9c", "Tc")))
    table.press("confirm")
    journal.close()
    records = list(Journal(tmp_path / "journal.jsonl", fsync=False).records())
    exported = list(export_journal(table.start, records))
    assert [e.skipped for e in exported] == [None, None]
    second = exported[1]
    assert "blinds_or_straddles = [200, 0, 0]" in second.text
    assert _field(second.text, "players") == ['"Cat"', '"Dan"', '"Ann"']
    for hand_phh, stacks in zip(exported, table.stacks_after, strict=True):
        players = [p.strip('"') for p in _field(hand_phh.text, "players")]
        assert dict(zip(players, hand_phh.finishing_stacks, strict=True)) == stacks
        assert replayed_stacks(hand_phh.text, hand_phh.hand_id) == hand_phh.finishing_stacks
        states = list(pk.HandHistory.loads(hand_phh.text))
        assert tuple(states[-1].stacks) == hand_phh.finishing_stacks


def test_export_reads_a_journal_with_a_torn_last_line_and_leaves_it_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.jsonl"
    journal = Journal(path, fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    with path.open("ab") as f:
        f.write(b'{"kind":"console","but')  # the live table was writing when we read
    before = path.read_bytes()
    config = tmp_path / "table.toml"
    config.write_text(CONFIG)
    out = tmp_path / "phh"
    assert cli.main(["export", "phh", str(path), "--config", str(config), "-o", str(out)]) == 0
    assert "torn last line" in capsys.readouterr().err
    assert len(list(out.glob("*.phh"))) == 3
    assert path.read_bytes() == before and not (tmp_path / "journal.jsonl.torn").exists()


@pytest.mark.needs("pokerkit")
def test_pokerkit_reads_every_exported_hand_to_the_same_finishing_stacks(tmp_path: Path) -> None:
    """PokerKit (the format's reference reader, a test oracle only) agrees with our files."""
    import pokerkit as pk
    journal = Journal(tmp_path / "journal.jsonl", fsync=False)
    table = JournaledTable(journal)
    _play_session(table)
    journal.close()
    records = list(Journal(tmp_path / "journal.jsonl", fsync=False).records())
    for hand in export_journal(table.start, records):
        states = list(pk.HandHistory.loads(hand.text))
        assert tuple(states[-1].stacks) == hand.finishing_stacks, hand.text
