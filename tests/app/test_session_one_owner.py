"""Live-table bugs caused by facts held twice (issue #26), driven through ``TableSession``.

Each test is a table scenario where a copy of a fact (the board, a seat's stack, a held
declaration) disagreed with its owner and the table went wrong.
"""

from __future__ import annotations

from pokertable.controller.model import Phase, Street
from tests.app.rules_table import RulesTable

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

