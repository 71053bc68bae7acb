"""Seven-card stud, stud/8 and razz dealt and played at the live table (issue #30): cards read
from each seat's downcard and upcard pads, the bring-in and its completion read from chips,
the opener of each street, the public state, showdown and award through ``TableSession``."""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, Street, Variant
from pokertable.controller.history.render import replayed_stacks
from pokertable.controller.table.session import Channel
from tests.app.stud_table import StudTable

THREE = {1: 2000, 2: 2000, 3: 2000}
STUD_HOLES = {1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs", "Qd", "Th")}
STUD_STREETS = (
    ("2d", {1: "3c", 2: "9c", 3: "Tc"}),
    ("2h", {1: "4d", 2: "8s", 3: "7c"}),
    ("2s", {1: "Jh", 2: "3s", 3: "6h"}),
    ("3d", {1: "5s", 2: "4s", 3: "6c"}),
)


def _bring_in_and_complete(table: StudTable) -> None:
    """Seat 1 brings in with one 25; seat 2 completes with four 25s; both others call."""
    table.push(1, 25)
    table.push(2, 25, 25, 25, 25)
    table.press("check_call")  # seat 3 calls 100
    table.press("check_call")  # seat 1 calls 100


def _to_seventh(table: StudTable) -> None:
    """Third to sixth street bet and checked through; seventh street's burn is read."""
    _bring_in_and_complete(table)
    for burn, cards in STUD_STREETS[:3]:
        table.deal_street(burn, cards)
        table.check_around()
    table.collect()
    table.card("burn", "3d")


def test_RP10E_live_stud_bring_in_completion_openers_and_showdown() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    assert table.state()["stud"]["dealing"] == "third"
    started = table.events("hand_start")[-1]["data"]
    assert started["game"] == "F7S" and started["small_blind_seat"] is None
    assert {s.seat: s.committed for s in table.hand.seats} == {1: 10, 2: 10, 3: 10}  # antes
    table.third(STUD_HOLES)
    hand = table.hand
    # Two down and one up each; 2c is the lowest upcard: seat 1 has the bring-in (RP-10-E).
    assert {s.seat: s.up for s in hand.seats} == {1: ("2c",), 2: ("9h",), 3: ("Th",)}
    assert (hand.bring_in_seat, hand.action_on, hand.street) == (1, 1, Street.THIRD)
    state = table.state()
    assert state["street"] == "third" and state["action_on"] == 1
    assert state["stud"] == {"bring_in_seat": 1, "bring_in": 25, "bring_in_posted": False,
                             "opener_seat": 1, "dealing": None, "small_bet": 100,
                             "big_bet": 200}
    assert [s["upcards"] for s in state["seats"][:3]] == [["2c"], ["9h"], ["Th"]]
    assert [s["cards_held"] for s in state["seats"][:3]] == [3, 3, 3]
    assert "As" not in str(state) and "Kd" not in str(state)  # downcards are never public
    # The hole-card subtree gets each seat's three cards.
    holes = [o.payload for o in table.out if o.channel is Channel.HOLE_CARDS]
    assert {h["seat"]: h["cards"] for h in holes} == {s: list(c) for s, c in STUD_HOLES.items()}

    table.push(1, 25)  # the bring-in, read from one 25 chip
    assert table.hand.call_to == 25 and table.hand.action_on == 2
    assert table.state()["stud"]["bring_in_posted"] is True
    assert "seat 1 brings in for 25" in table.texts("TDA2024-RP-10E")
    assert table.state()["min_raise_to"] == 100  # facing the bring-in: complete to the small bet
    table.push(2, 25, 25, 25, 25)  # completes to the small bet (R3)
    assert table.hand.call_to == 100
    assert "seat 2 completes the bring-in to 100" in table.texts("TDA2024-3")
    table.press("check_call")
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING and table.state()["stud"]["dealing"] == "fourth"
    openers = []
    for burn, cards in STUD_STREETS:
        table.deal_street(burn, cards)
        openers.append((table.state()["street"], table.hand.opener_seat, table.hand.action_on))
        table.check_around()
    # Fourth street on: the best showing hand opens (RP-10-D): tens over nines over A-2.
    assert openers == [("fourth", 3, 3), ("fifth", 3, 3), ("sixth", 3, 3), ("seventh", 3, 3)]
    assert table.hand.seat(1).up == ("2c", "3c", "4d", "Jh")  # seventh street is dealt down
    sevenths = [o.payload["cards"] for o in table.out if o.channel is Channel.HOLE_CARDS]
    assert sevenths[-1] == ["Qs", "Qd", "Th", "Tc", "7c", "6h", "6c"]
    assert table.alert_codes() == []  # one burn a street, every card on its pad
    table.press("confirm")  # the dealer: the hands are tabled
    done = table.hand
    assert done.phase is Phase.COMPLETE
    assert [(a.seat, a.amount, a.hand_name) for a in done.awards] == [(1, 330, "Straight")]
    assert table.stacks() == {1: 2220, 2: 1890, 3: 1890}
    assert table.state()["street"] == "complete"
    [complete] = table.events("hand_complete")
    # The archive's PHH (history/render.py), public: the downcards never tabled are ????.
    phh = complete["data"]["phh"]
    assert 'variant = "F7S"' in phh and "bring_in = 25" in phh and "p1 pb" in phh


def test_RP10E_RP10D_live_razz_high_card_brings_in_low_hand_opens_to_showdown() -> None:
    table = StudTable(THREE, variant=Variant.RAZZ)
    table.press("hand_start")
    table.third({1: ("3s", "4s", "Kd"), 2: ("As", "2s", "5h"), 3: ("9c", "9d", "7c")})
    assert table.hand.bring_in_seat == 1  # razz: the highest upcard brings in
    table.push(1, 25)
    table.push(2, 25, 25, 25, 25)
    table.press("fold")  # seat 3
    table.press("check_call")  # seat 1
    streets = (("2d", {1: "6d", 2: "3h"}), ("2h", {1: "8d", 2: "4c"}),
               ("Jd", {1: "Qh", 2: "7d"}), ("Js", {1: "2c", 2: "Jc"}))
    openers = []
    for burn, cards in streets:
        table.deal_street(burn, cards)
        openers.append(table.state()["stud"]["opener_seat"])
        table.check_around()
    assert openers == [2, 2, 2, 2]  # the lowest showing hand opens (RP-10-D)
    assert table.state()["seats"][2]["upcards"] == []  # a folded hand shows nothing
    table.press("confirm")
    assert [(a.seat, a.amount) for a in table.hand.awards] == [(2, 230)]
    assert table.hand.awards[0].hand_name.startswith("5-4-3-2-A")
    assert table.stacks() == {1: 1890, 2: 2120, 3: 1990}


def test_TDA24_20C_live_stud_hi_lo_splits_high_and_low() -> None:
    table = StudTable(THREE, variant=Variant.STUD_HILO)
    table.press("hand_start")
    table.third({1: ("As", "2s", "3d"), 2: ("Ks", "Kd", "Kh"), 3: ("Qs", "Jd", "9c")})
    assert table.hand.bring_in_seat == 1
    table.push(1, 25)
    table.push(2, 25, 25, 25, 25)
    table.press("fold")
    table.press("check_call")
    streets = (("2d", {1: "4h", 2: "7c"}), ("2h", {1: "8c", 2: "Qd"}),
               ("Jc", {1: "Tc", 2: "Jh"}), ("Js", {1: "9d", 2: "5s"}))
    for burn, cards in streets:
        table.deal_street(burn, cards)
        table.check_around()
    table.press("confirm")
    awards = table.state()["awards"]
    # One award per half won, the half named, as for Omaha hi-lo (test_session_hi_lo).
    assert [(a["seat"], a["half"], a["amount"], a["hand_name"]) for a in awards] == [
        (2, "high", 115, "Trips"), (1, "low", 115, "8-4-3-2-A low")]
    done = table.events("hand_complete")[0]["data"]["awards"]
    assert {(a["seat"], a["half"]) for a in done} == {(2, "high"), (1, "low")}
    assert "main pot low half 115 to seat 1 with 8-4-3-2-A low" in table.texts("TDA2024-20C")
    assert table.stacks() == {1: 2005, 2: 2005, 3: 1990}
    # The hand_complete event's PHH (the room's archive) names the game and replays.
    phh = table.events("hand_complete")[0]["data"]["phh"]
    assert 'variant = "F7S/8"' in phh, phh
    assert replayed_stacks(phh, "live") == (2005, 2005, 1990)


def test_TDA24_20C_live_stud_hi_lo_scoop_shows_both_halves() -> None:
    """Seat 1's wheel is the best high and the best low: he scoops, one award of each half."""
    table = StudTable(THREE, variant=Variant.STUD_HILO)
    table.press("hand_start")
    table.third({1: ("As", "2s", "3d"), 2: ("Ks", "Kd", "Qh"), 3: ("Qs", "Jd", "9c")})
    table.push(1, 25)
    table.press("fold")
    table.press("check_call")  # seat 3 calls the bring-in
    streets = (("2d", {1: "4h", 3: "7c"}), ("2h", {1: "5c", 3: "Qd"}),
               ("Jc", {1: "Tc", 3: "Jh"}), ("Js", {1: "9d", 3: "8s"}))
    for burn, cards in streets:
        table.deal_street(burn, cards)
        table.check_around()
    table.press("confirm")
    awards = table.state()["awards"]
    assert [(a["seat"], a["half"], a["amount"], a["hand_name"]) for a in awards] == [
        (1, "high", 40, "Straight"), (1, "low", 40, "5-4-3-2-A low")]
    done = table.events("hand_complete")[0]["data"]["awards"]
    assert {(a["seat"], a["half"]) for a in done} == {(1, "high"), (1, "low")}
    assert table.stacks() == {1: 2045, 2: 1990, 3: 1965}


def test_RP10H_live_community_card_when_the_stub_runs_short() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    table.third(STUD_HOLES)
    _to_seventh(table)
    table.card("board", "5s")  # one card in the centre for every player
    hand = table.hand
    assert hand.board == ("5s",) and hand.street is Street.SEVENTH
    assert all(len(s.hole) == 6 for s in hand.seats)
    state = table.state()
    assert state["board"] == ["5s"] and state["street"] == "seventh"
    # The first to act on sixth street acts first on seventh (RP-10-H D).
    assert hand.action_on == 3
    assert any("community" in t for t in table.texts("TDA2024-RP-10H"))
    table.check_around()
    table.press("confirm")
    assert [(a.seat, a.amount, a.hand_name) for a in table.hand.awards] == [(1, 330, "Straight")]
    assert table.stacks() == {1: 2220, 2: 1890, 3: 1890}


def test_TDA24_21_live_stud_all_in_on_fourth_street_main_and_side_pot() -> None:
    """Seat 1 is all in for 190 on fourth street (R47-B: a short raise, 90 of a 100 bet);
    seats 2 and 3 bet on in a side pot; every street is still dealt from the pads."""
    table = StudTable({1: 300, 2: 2000, 3: 2000})
    table.press("hand_start")
    table.third(STUD_HOLES)
    _bring_in_and_complete(table)
    table.deal_street(*STUD_STREETS[0])
    table.press("bet_raise", 100)  # seat 3 opens with the tens
    table.push(1, 100, 25, 25, 25, 10, 5)  # all his chips: all in for 190
    assert table.hand.seat(1).stack == 0 and "TDA2024-45B2" in table.rule_ids()
    table.check_around()
    table.deal_street(*STUD_STREETS[1])
    table.press("bet_raise", 200)  # seat 3: the big bet from fifth street
    table.press("check_call")  # seat 2 calls: a side pot without seat 1
    for burn, cards in STUD_STREETS[2:]:
        table.deal_street(burn, cards)
        table.check_around()
    table.press("confirm")
    awards = [(a.pot_index, a.seat, a.amount) for a in table.hand.awards]
    assert awards == [(0, 1, 900), (1, 2, 400)]  # A-5 straight; kings up over queens up
    assert table.stacks() == {1: 900, 2: 1900, 3: 1500}
    assert table.alert_codes() == []
