"""Live-table bugs caused by facts held twice (issue #26), driven through ``TableSession``.

Each test is a table scenario where a copy of a fact (the board, a seat's stack, a held
declaration) disagreed with its owner and the table went wrong.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine.model import Phase, Street
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.public_state import table_state
from tests.app.rules_table import RulesTable
from tests.app.session_table import Table, _deal

HOLES3 = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}


def test_TDA24_RP5_premature_flop_card_taken_back_is_dealt_again_on_the_flop() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.deal(HOLES3)
    table.card("burn", "2s")
    table.card("board", "7c")  # before the pre-flop round ended: premature (RP-5)
    assert table.hand.board == () and table.session.board_cards == ("7c",)
    table.cleared("board", "7c")  # back to the stub, which is reshuffled
    assert table.session.board_cards == ()
    for _ in range(3):
        table.press("check_call")
    table.collect()
    before = len(table.out)
    for card in ("7c", "8d", "9h"):  # the same card comes again on the real flop
        table.card("board", card)
    assert sorted(table.hand.board) == ["7c", "8d", "9h"]
    assert table.hand.street is Street.FLOP and table.hand.phase is Phase.BETTING
    assert table.session.board_cards == ("7c", "8d", "9h")
    assert table.rulings(tuple(table.out[before:])) == []  # no alert: a clean flop


def _misdeal(table: RulesTable) -> None:
    """The first card goes to the wrong seat (R35-A2) and the dealer declares the misdeal."""
    table.card("seat2.cards", "As")
    table.t += table.session.config.card_read_window_ms  # seat 1 is not read in the window
    table.card("seat1.cards", "Kd")
    table.press("confirm")
    assert table.session.tracked is not None and table.session.tracked.status.value == "misdeal"


def test_TDA24_71D_disqualified_players_chips_stay_out_of_the_redeal() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")  # seat 1 posts the small blind, seat 2 the big blind
    table.command("penalty", seat=1, penalty="disqualification", rule_ids=["TDA2024-71"])
    _misdeal(table)  # the misdealt hand is over: his chips leave play now
    [removed] = table.events("chips_removed")
    assert removed["data"]["removed"] == 5000
    assert table.session.table.occupied(1) is None
    table.press("hand_start")  # the re-deal (R35-C): the same hand, without him
    hand = table.hand
    assert hand.hand_id == "t1-h00001-redeal1"
    assert [s.seat for s in hand.seats] == [2, 3]
    assert (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (3, None, 2)
    assert sum(s.stack + s.committed for s in hand.seats) == 10000  # his 5000 stay out
    table.deal({2: ("Qs", "Qd"), 3: ("Js", "Jd")})
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")
    assert table.session.table.occupied(1) is None
    assert sum(s.stack for s in table.session.table.seats) == 10000


def test_TDA24_71D_without_its_big_blind_the_misdealt_hand_is_not_redealt() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4)
    table.press("hand_start")  # seat 1 small blind, seat 2 big blind
    _misdeal(table)
    table.command("penalty", seat=2, penalty="disqualification", rule_ids=["TDA2024-71"])
    assert table.session.table.occupied(2) is None
    table.press("hand_start")
    hand = table.hand
    assert 2 not in [s.seat for s in hand.seats]
    assert hand.hand_id == "t1-h00002" and table.session.hand_number == 2
    assert sum(s.stack + s.committed for s in hand.seats) == 15000


@pytest.mark.parametrize(
    ("words", "chips", "options"),
    [
        ({"button": "check_call"}, (100,), "fold, call 500, raise to 1000..5000"),
        ({"button": "bet_raise", "amount": 400}, (100, 100, 100), "call 500"),
    ],
    ids=["call_then_chips", "raise_then_chips"],
)
def test_TDA24_53A_words_then_chips_out_of_turn_go_back_when_the_action_changes(
    words: dict[str, object], chips: tuple[int, ...], options: str
) -> None:
    table = Table()  # button 3: Ann posts 100, Bob 200; Cat is first to act
    table.press("hand_start")
    _deal(table)
    table.push(1, 100)
    table.push(2, 100, 100)
    table(RoomCommand("dealer_button", "w1", {**words, "seat": 1}, table.ms()))  # Ann speaks
    table.push(1, *chips)  # and puts the chips out, still out of turn
    table.press("bet_raise", 600)  # Cat raises: the action to Ann changed
    hand = table.session.hand
    assert hand is not None and hand.action_on == 1 and hand.seat(1).bet == 100
    state = table_state(table.session, table.t)
    assert state["alerts"] == []  # no undercall for the floor: nothing of hers stands
    zone = table.session.pending.zone(1)
    assert zone.change == sum(chips) and not zone.motion and not zone.held  # chips go back
    void = [r for e in table.events() for r in e["rulings"] if "does not bind" in r["text"]]
    assert [r["rule_ids"] for r in void] == [["TDA2024-53A"]] and options in void[0]["text"]
    table.press("bet_raise", 1200)  # all her options: she may re-raise
    hand = table.session.hand
    assert hand is not None and hand.seat(1).bet == 1200 and hand.action_on == 2


def test_TDA24_36_published_substantial_action_is_the_irregularities_layers_reading() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4)
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd"), 4: ("Js", "Jd")})
    rules = table.session.config.rules
    published = []
    for press in ("fold", "fold", "check_call"):  # UTG and the button fold, then a call
        assert table.session.tracked is not None
        state = table_state(table.session, table.t)
        assert state["substantial_action"] == table.session.tracked.sa(rules)
        published.append(state["substantial_action"])
        table.press(press)
    assert published == [False, False, False]  # two folds are not substantial (R36)
    assert table_state(table.session, table.t)["substantial_action"] is True  # 2 + chips
