"""The last call's chips read after the next street's card (issue #30): the readers report
chips once settled, a few hundred ms after they land, and a card at once. A card is
premature only "before action on the preceding round is finished" (TDA RP-5; stud RP-10-G
-> RP-5-D): a street card read while chips alone can still complete the round waits for
them (``SessionConfig.chip_report_lag_ms``); a round that needs a word, or chips that do
not come within the lag, still make it premature. Through ``TableSession``, hold'em and
stud, the simulated readers reporting the chips after the card; and through ``TableApp``,
whose clock judges a held card when nothing else is read."""

from __future__ import annotations

import threading
from pathlib import Path

from pokertable.bench.waiting import wait_for
from pokertable.controller.app.config import AppConfig, parse_config
from pokertable.controller.app.table_app import TableApp
from pokertable.controller.engine.model import Phase, Street
from pokertable.controller.table.inputs import Input
from pokertable.controller.table.session import Output
from tests.app.rules_table import RulesTable
from tests.app.stud_table import StudTable
from tests.app.test_session_rules import _flop
from tests.app.test_session_stud import STUD_HOLES, STUD_STREETS, THREE, _bring_in_and_complete

PREMATURE = ("premature_turn", "premature_stud_card")


def _late(table: RulesTable, ms: int) -> None:
    """The readers' clock moves on ``ms`` (the chips' report lag, or a player thinking)."""
    table.t += ms


def _premature(table: RulesTable) -> list[str]:
    return [c for c in table.alert_codes() if c in PREMATURE]


def _bet_and_call(table: RulesTable, *chips: int) -> RulesTable:
    """The seat on the action bets ``chips`` and the next one calls (the dealer's press):
    one seat is left to act, facing the bet."""
    table.push(table.hand.action_on or 0, *chips)
    table.press("check_call")
    assert table.hand.call_to == sum(chips) > table.hand.seat(table.hand.action_on or 0).bet
    return table


def _flop_bet() -> RulesTable:
    """Seat 1 bets 200 on the flop and seat 2 calls: seat 3 is the last to act, facing it."""
    table = _bet_and_call(_flop({1: 5000, 2: 5000, 3: 5000}), 100, 100)
    assert table.hand.action_on == 3
    return table


def test_TDA24_RP5B_turn_read_before_the_last_calls_chips_is_the_turn() -> None:
    table = _flop_bet()
    table.card("burn", "2c")
    table.card("board", "Tc")  # dealt as seat 3's call landed; its chips are still settling
    assert table.hand.board == ("9h", "8d", "7c") and _premature(table) == []
    _late(table, 300)
    table.push(3, 100, 100)  # the call, reported once settled
    hand = table.hand
    assert hand.street is Street.TURN and hand.phase is Phase.BETTING
    assert hand.board[-1] == "Tc" and table.session.board_cards[-1] == "Tc"
    assert table.alert_codes() == []  # neither premature nor a missing burn (R38)


def test_TDA24_RP5B_turn_with_no_call_within_the_chips_lag_is_premature() -> None:
    table = _flop_bet()
    table.card("burn", "2c")
    table.card("board", "Tc")  # seat 3 has not called: he is still thinking
    _late(table, table.session.config.chip_report_lag_ms + 1)
    out = table.push(3, 100, 100)  # his call, seconds after the turn was dealt
    assert _premature(table) == ["premature_turn"]
    kinds = [o.payload["kind"] for o in out if o.channel == "event"]
    assert kinds.index("card") < kinds.index("chips")  # premature before the call completes
    assert any("TDA2024-RP-5" in r["rule_ids"] for r in table.rulings(out))
    assert table.hand.street is Street.FLOP and table.hand.phase is Phase.DEALING  # not dealt


def test_TDA24_RP5B_turn_while_a_check_is_due_is_premature_at_once() -> None:
    """Seat 1 checks; seats 2 and 3 owe a check, a word said before the deal: no chips in
    flight can complete the round."""
    table = _flop({1: 5000, 2: 5000, 3: 5000})
    table.press("check_call")
    table.card("burn", "2c")
    out = table.card("board", "Tc")
    assert _premature(table) == ["premature_turn"]
    assert any("TDA2024-RP-5" in r["rule_ids"] for r in table.rulings(out))


def test_TDA24_RP5B_turn_held_for_two_callers_is_premature_when_one_still_owes() -> None:
    """Seats 2 and 3 face the bet when the turn is read; seat 2's call comes in the lag, and
    the held card is judged when the lag has passed with seat 3 still to act."""
    table = _flop({1: 5000, 2: 5000, 3: 5000})
    table.push(1, 100, 100)
    table.card("burn", "2c")
    table.card("board", "Tc")
    _late(table, 300)
    table.push(2, 100, 100)
    assert _premature(table) == [] and table.hand.action_on == 3
    _late(table, table.session.config.chip_report_lag_ms)
    table.press("fold")  # seat 3 folds, after the lag: the turn was dealt before him
    assert _premature(table) == ["premature_turn"]


def _fourth_street() -> StudTable:
    """Third street bet, fourth street dealt: seat 3 is to open."""
    table = StudTable(THREE)
    table.press("hand_start")
    table.third(STUD_HOLES)
    _bring_in_and_complete(table)
    table.deal_street(*STUD_STREETS[0])
    assert table.hand.action_on == 3
    return table


def _fourth_street_bet() -> StudTable:
    """Fourth street: seat 3 opens for 100 and seat 1 calls; seat 2 is the last to act."""
    table = _fourth_street()
    _bet_and_call(table, 25, 25, 25, 25)
    assert table.hand.action_on == 2
    return table


def test_TDA24_RP10G_fifth_street_read_before_the_last_calls_chips_is_fifth_street() -> None:
    table = _fourth_street_bet()
    table.card("burn", "2h")
    table.card("seat1.up", "4d")  # fifth street dealt as seat 2's call landed
    table.card("seat2.up", "8s")
    assert table.hand.seat(1).up == ("2c", "3c") and _premature(table) == []
    _late(table, 300)
    table.push(2, 25, 25, 25, 25)  # the call, reported once settled
    table.card("seat3.up", "7c")
    hand = table.hand
    assert hand.street is Street.FIFTH and hand.phase is Phase.BETTING
    assert [hand.seat(s).up[-1] for s in (1, 2, 3)] == ["4d", "8s", "7c"]
    assert table.alert_codes() == []


def test_TDA24_RP10G_fifth_street_card_with_no_call_within_the_lag_is_premature() -> None:
    table = _fourth_street_bet()
    table.card("burn", "2h")
    table.card("seat1.up", "4d")
    _late(table, table.session.config.chip_report_lag_ms + 1)
    out = table.push(2, 25, 25, 25, 25)
    assert _premature(table) == ["premature_stud_card"]
    rule_ids = {i for r in table.rulings(out) for i in r["rule_ids"]}
    assert {"TDA2024-RP-5D", "TDA2024-RP-10G"} <= rule_ids
    assert table.hand.seat(1).up == ("2c", "3c")  # not dealt to the engine
    assert table.session.tracked is not None and table.session.tracked.stud.premature == ("4d",)


def test_TDA24_RP10G_a_card_while_the_opener_is_to_act_is_premature_at_once() -> None:
    table = _fourth_street()
    table.card("burn", "2h")
    table.card("seat1.up", "4d")  # nobody has opened fourth street: a word is due
    assert _premature(table) == ["premature_stud_card"]


class AppTable(RulesTable):
    """The same table driven through ``TableApp``: every input journaled, the clock the
    table's own (``t``), so the application's ``TimePassed`` comes from the same clock.
    ``reading`` is table.toml's ``[reading]`` section (the readers' windows)."""

    def __init__(self, tmp_path: Path, reading: dict[str, int] | None = None) -> None:
        super().__init__({1: 5000, 2: 5000, 3: 5000}, button=3)
        self.path = tmp_path / "journal.jsonl"
        self.app = TableApp(_config(self.path, reading), clock_ms=lambda: self.t)
        self.app.recover()

    def __call__(self, item: Input) -> tuple[Output, ...]:
        out = self.app.process(item)
        self.session = self.app.snapshot()
        self.out.extend(out)
        return out


def _config(path: Path, reading: dict[str, int] | None = None) -> AppConfig:
    return parse_config({
        "table": {"venue": "v", "id": "t1", "first_button": 3},
        "levels": [{"number": 1, "small_blind": 100, "big_blind": 200}],
        "players": [{"seat": s, "name": f"P{s}", "stack": 5000} for s in (1, 2, 3)],
        "journal": {"path": str(path)},
        **({"reading": reading} if reading is not None else {}),
    })


def _turn_held(table: AppTable) -> None:
    """Flop bet by seat 1 and called by seat 2; the turn read before seat 3 has acted."""
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")})
    for _ in range(3):
        table.press("check_call")
    table.street("2s", "7c", "8d", "9h")
    table.push(1, 100, 100)
    table.press("check_call")
    table.card("burn", "2c")
    table.card("board", "Tc")
    assert table.session.held_cards and _premature(table) == []


def test_TDA24_RP5B_the_application_tells_the_premature_turn_when_the_lag_has_passed(
    tmp_path: Path,
) -> None:
    """Seat 3 thinks on and nothing else is read: the application's clock judges the held
    turn (a journaled ``TimePassed``), and the journal replays the same ruling."""
    table = AppTable(tmp_path)
    _turn_held(table)
    assert table.app.judge_time() == ()  # the lag has not passed: nothing to judge
    _late(table, table.session.config.chip_report_lag_ms + 1)
    out = table.app.judge_time()
    table.session = table.app.snapshot()
    assert _premature(table) == ["premature_turn"]
    assert any("TDA2024-RP-5" in r["rule_ids"] for r in table.rulings(out))
    assert table.app.judge_time() == ()  # judged once
    records = table.app.journal.records()
    assert [r["kind"] for r in records].count("time") == 1
    table.app.close()
    again = TableApp(_config(table.path), clock_ms=lambda: table.t)
    again.recover()
    replayed = again.snapshot().tracked
    assert replayed is not None and [r.code for r in replayed.alerts] == ["premature_turn"]
    again.close()


def test_TDA24_RP5B_the_engine_thread_judges_a_held_turn_on_its_own(tmp_path: Path) -> None:
    table = AppTable(tmp_path)
    _turn_held(table)
    runner = threading.Thread(target=table.app.run, kwargs={"tick_s": 60.0})
    runner.start()
    try:
        _late(table, table.session.config.chip_report_lag_ms + 1)  # nothing else is read
        wait_for(lambda: not table.app.snapshot().held_cards, "the held turn judged")
        tracked = table.app.snapshot().tracked
        assert tracked is not None and [r.code for r in tracked.alerts] == ["premature_turn"]
    finally:
        table.app.stop()
        runner.join()
        table.app.close()
