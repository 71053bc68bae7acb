"""All-in face-up (R16, Add. 16) through reader events, and requests to see a hand (R18)."""

from __future__ import annotations

import re

from pokertable.controller.engine.events import ShowHand
from pokertable.controller.engine.model import Level, Phase
from pokertable.controller.engine.rulings import Ruling
from pokertable.controller.irregularities.showdown_requests import SeeAnswer, request_to_see
from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, codes, rejected, setup
from tests.irregularities.table_driver import river_three_way as driver_river

L100 = Level(small_blind=100, big_blind=200)


def award_order(rulings: list[Ruling]) -> list[tuple[str, int]]:
    """(pot label, amount) of each pot award, in announcement order."""
    out = []
    for r in rulings:
        if r.code == "pot_awarded":
            match = re.match(r"(main pot|side pot \d+) (\d+)", r.text)
            assert match, r.text
            out.append((match.group(1), int(match.group(2))))
    return out


def pots_announced(rulings: list[Ruling]) -> list[tuple[str, int]]:
    """Awards merged per pot (a split pot is announced once per winner)."""
    merged: dict[str, int] = {}
    for label, amount in award_order(rulings):
        merged[label] = merged.get(label, 0) + amount
    return list(merged.items())


def test_TDA24_16_EX1_heads_up_turn_all_in_and_call_face_up_now() -> None:
    # A (seat 1) has 3,000 behind on the turn, B (seat 2) 8,000.
    table = Table(setup({1: 3200, 2: 8200}, button=2, sb=2, bb=1, level=L100))
    for seat, card in ((1, "As"), (2, "Ks"), (1, "Ad"), (2, "Kd")):
        table.seat(seat, card)
    table.acts((2, "call"), (1, "check"))
    table.burn("2h")
    table.board("7c", "8d", "Th")
    table.acts((1, "check"), (2, "check"))
    table.burn("3h")
    table.board("Jc")
    out = table.acts((1, "all_in"), (2, "call"))
    # Face up at once: A is all in and B is the only player with chips left.
    assert "face_up" in codes(out) and table.t.hand.face_up
    assert table.t.hand.phase is Phase.DEALING and table.t.hand.action_on is None
    # Exactly one burn and the river, then the showdown: no betting on the river.
    table.burn("4h")
    table.board("2c")
    assert table.t.hand.phase.value == "showdown" and table.t.hand.action_on is None
    assert rejected(table.act(2, "bet", 1000))
    table.send(ShowHand(1))
    out = table.send(ShowHand(2))
    # The aces hold: A doubles through (3,200 x 2); B keeps the 5,000 he did not risk.
    assert award_order(out) == [("main pot", 6400)]
    assert [r.seat for r in out if r.code == "pot_awarded"] == [1]
    assert {s.seat: s.stack for s in table.t.hand.seats} == {1: 6400, 2: 5000}


def test_TDA24_16_EX2_face_up_only_when_no_more_betting_is_possible() -> None:
    table = Table(setup({1: 1000, 2: 4000, 3: 6000}, button=1, sb=2, bb=3, level=L100))
    table.deal()
    out = table.acts((1, "all_in"), (2, "call"), (3, "call"))
    assert "face_up" not in codes(out) and table.t.hand.pot_total == 3000
    table.street(3)
    assert "face_up" not in codes(table.acts((2, "check"), (3, "check")))
    table.street(1)
    out = table.acts((2, "all_in"), (3, "call"))
    assert "face_up" in codes(out) and table.t.hand.seat(3).stack == 2000
    table.street(1)
    for seat in (1, 2, 3):
        out = table.send(ShowHand(seat))
    assert pots_announced(out) == [("side pot 1", 6000), ("main pot", 3000)]


def test_TDA24_16_EX3_face_up_at_the_end_of_river_betting() -> None:
    table = Table(setup({1: 700, 2: 5000, 3: 5000}, button=1, sb=2, bb=3, level=L100))
    table.deal()
    assert "face_up" not in codes(table.acts((1, "all_in"), (2, "call"), (3, "call")))
    table.street(3)
    table.acts((2, "check"), (3, "check"))
    table.street(1)
    assert "face_up" not in codes(table.acts((2, "bet", 1000), (3, "call")))
    table.street(1)
    out = table.acts((2, "check"), (3, "check"))
    assert "face_up" in codes(out) and table.t.hand.face_up
    for seat in (1, 2, 3):
        out = table.send(ShowHand(seat))
    assert pots_announced(out) == [("side pot 1", 2000), ("main pot", 2100)]


def test_T24_16_D1_river_bet_and_fold_behind_an_all_in() -> None:
    table = Table(setup({1: 1000, 2: 5000, 3: 5000}, button=1, sb=2, bb=3, level=L100))
    table.deal()
    table.acts((1, "all_in"), (2, "call"), (3, "call"))
    for _ in range(2):
        table.street(3 if not table.t.hand.board else 1)
        table.acts((2, "check"), (3, "check"))
    table.street(1)
    out = table.acts((2, "bet", 1000), (3, "fold"))
    assert "uncalled_returned" in codes(out) and (2, 1000) in table.t.hand.returned
    assert "face_up" in codes(out)
    table.send(ShowHand(1))
    out = table.send(ShowHand(2))
    assert pots_announced(out) == [("main pot", 3000)]


def river_three_way() -> Table:
    return driver_river(5000, L100)


def test_TDA24_18_EX1_no_river_bet_requests() -> None:
    table = river_three_way()
    a_hole = table.t.hand.seat(1).hole
    table.card("muck", a_hole[0])  # A discards face down into the muck
    assert table.t.hand.seat(1).mucked
    table.send(ShowHand(2))  # B tables
    hand = table.t.hand
    released = {3}  # C pushes his cards forward face down
    assert request_to_see(hand, 2, 3, TDA_2024, released=released)[0] is SeeAnswer.TD_DISCRETION
    assert request_to_see(hand, 1, 3, TDA_2024, released=released)[0] is SeeAnswer.DENIED
    answer, ruling = request_to_see(hand, 3, 2, TDA_2024, released=released)
    assert answer is SeeAnswer.DENIED and ruling.rule_ids == ("TDA2024-18A",)
    table.card("muck", table.t.hand.seat(3).hole[0])
    assert table.t.hand.awards[0].seat == 2 and table.t.hand.awards[0].amount == 600


def test_TDA24_18_EX2_callers_may_see_the_last_river_aggressor() -> None:
    table = Table(setup({1: 50_000, 2: 50_000, 3: 50_000, 4: 50_000}, button=4, sb=1, bb=2,
                        level=L100))
    table.deal()
    table.acts((3, "call"), (4, "call"), (1, "call"), (2, "check"))
    for n in (3, 1):
        table.street(n)
        table.acts((1, "check"), (2, "check"), (3, "check"), (4, "check"))
    table.street(1)
    table.acts((1, "bet", 1000), (2, "call"), (3, "raise", 5000), (4, "call"), (1, "call"),
               (2, "call"))
    table.send(ShowHand(2))
    table.card("muck", table.t.hand.seat(4).hole[1])  # D discards into the muck
    hand = table.t.hand
    released = {3}  # C begins to push his cards forward
    answer, ruling = request_to_see(hand, 1, 3, TDA_2024, released=released)
    assert answer is SeeAnswer.MUST_TABLE and ruling.rule_ids == ("TDA2024-18B",)
    assert request_to_see(hand, 2, 3, TDA_2024, released=released)[0] is SeeAnswer.MUST_TABLE
    assert request_to_see(hand, 4, 3, TDA_2024, released=released)[0] is SeeAnswer.DENIED
    answer, ruling = request_to_see(hand, 2, 1, TDA_2024, released=released)
    assert answer is SeeAnswer.TD_DISCRETION and ruling.options == ("show", "refuse")
