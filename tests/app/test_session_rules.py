"""Rules at the live table (issue 17): each case through ``TableSession``, as a table plays it.

Board repairs (R39), the ACE R17-B hold, NZ R48 citations, players left in the event (R48),
a player seated during a misdeal (R35-C), undercalls in sequence (R51-C), late corrections
(R52-A, R52-B) and chips found behind an all-in player (R62).
"""

from __future__ import annotations

from pokertable.controller.engine.model import Level, Phase, SeatStatus, Street, Variant
from pokertable.controller.table.public_state import table_state
from tests.app.rules_table import RulesTable

HOLES3 = {1: ("As", "Ad"), 2: ("Ks", "Kd"), 3: ("Qs", "Qd")}
HOLES4 = {**HOLES3, 4: ("Js", "Jd"), 5: ("Ts", "Td")}


def _flop(stacks: dict[int, int], profile: str = "tda-2024", **kw: object) -> RulesTable:
    """Everyone calls (or checks) pre-flop and the flop 7c 8d 9h is dealt."""
    table = RulesTable(stacks, button=max(stacks), profile=profile, **kw)  # type: ignore[arg-type]
    table.press("hand_start")
    table.deal({s: HOLES4[s] for s in stacks})
    for _ in stacks:
        table.press("check_call")
    table.street("2s", "7c", "8d", "9h")
    assert table.hand.street is Street.FLOP and table.hand.phase is Phase.BETTING
    return table


# --- R39: board repairs are engine events ----------------------------------------------------


def test_TDA24_39A_four_card_flop_repair_is_a_board_replaced_event() -> None:
    table = _flop({1: 5000, 2: 5000, 3: 5000})
    table.card("board", "Th")  # a fourth flop card: the floor is called
    assert any(r["kind"] == "floor" and r["rule_ids"] == ["TDA2024-39A"] for r in table.rulings())
    table.cleared("board", "8d")  # the floor picks 8d at random as the next burn
    table.card("burn", "8d")
    replaced = table.events("board_replaced")
    assert [e["data"] for e in replaced] == [
        {"street": "flop", "replaced": ["9h", "8d", "7c"], "cards": ["Th", "9h", "7c"],
         "board": ["Th", "9h", "7c"], "rule_id": "TDA2024-39A"}
    ]
    hand = table.hand
    assert hand.board == ("Th", "9h", "7c")
    assert [(r.street, r.replaced, r.cards) for r in hand.board_repairs] == [
        (Street.FLOP, ("9h", "8d", "7c"), ("Th", "9h", "7c"))
    ]
    for _ in range(3):
        table.press("check_call")
    table.collect()
    table.card("board", "2d")  # 8d was the turn's burn (R39-A): no second burn
    assert table.hand.street is Street.TURN and table.hand.board[-1] == "2d"


def test_TDA24_39B_flop_without_burn_repair_is_a_board_replaced_event() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.deal(HOLES3)
    for _ in range(3):
        table.press("check_call")
    table.collect()
    for card in ("7c", "8d", "9h"):  # no burn first
        table.card("board", card)
    table.cleared("board", "7c")  # scrambled: 7c becomes the burn
    table.card("burn", "7c")
    table.card("board", "Th")  # the next stub card completes the flop
    assert [e["data"]["replaced"] for e in table.events("board_replaced")] == [["9h", "8d", "7c"]]
    assert table.hand.board == ("Th", "9h", "8d")
    assert table.hand.board_repairs[0].rule_id == "TDA2024-39B"


# --- R17-B: ACE holds an uncontested pot until the last hand is tabled --------------------


def _river_checked(profile: str) -> RulesTable:
    table = _flop({1: 5000, 2: 5000, 3: 5000}, profile)
    for burn, card in (("3s", "Jc"), ("4s", "2d")):
        for _ in range(3):
            table.press("check_call")
        table.street(burn, card)
    for _ in range(3):
        table.press("check_call")
    assert table.hand.phase is Phase.SHOWDOWN
    for card in ("Ks", "Kd", "Qs", "Qd"):  # seats 2 and 3 muck without tabling
        table.card("muck", card)
    return table


def test_ACE_17B_uncontested_pot_is_held_until_the_last_hand_is_tabled() -> None:
    table = _river_checked("ace-league")
    assert table.hand.phase is Phase.SHOWDOWN and not table.hand.awards
    held = [r for r in table.rulings() if r["rule_ids"] == ["ACE-17B"]]
    assert held and "must table his hand" in held[0]["text"]
    table.press("confirm")  # the dealer: seat 1 tabled both cards
    assert table.hand.phase is Phase.COMPLETE
    assert [(a.seat, a.amount) for a in table.hand.awards] == [(1, 600)]


def test_TDA24_17B_uncontested_pot_is_awarded_without_tabling() -> None:
    table = _river_checked("tda-2024")
    assert table.hand.phase is Phase.COMPLETE
    award = next(r for r in table.rulings() if r["text"].startswith("main pot"))
    assert award["rule_ids"] == ["TDA2024-17B"]


# --- R48: NZ minimum re-raise; players left in the event lift the limit cap ---------------


def test_NZ22_48_min_reraise_correction_cites_the_parameter_and_the_NZ_rule() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000}, "clubs-nz-2022")
    table.press("bet_raise", 200)
    table.press("bet_raise", 600)  # faces 600: R43-A says 1000, NZ R48 double: 1200
    out = table.press("bet_raise", 1000)
    corrected = next(r for r in table.rulings(out) if r["kind"] == "corrected")
    assert "NZ2022-48" in corrected["rule_ids"]
    assert "min_reraise=double_previous_bet" in corrected["text"]
    assert table.hand.seat(3).bet == 1200


def test_TDA24_48_limit_cap_lifts_heads_up_only_when_the_room_says_two_are_left() -> None:
    def raises(players_left: int | None) -> int:
        table = RulesTable({1: 50000, 2: 50000}, button=2, variant=Variant.FLHE)
        if players_left is not None:
            table.command("players_left", source="clock", count=players_left)
        table.press("hand_start")
        table.deal({1: ("As", "Ad"), 2: ("Ks", "Kd")})
        for _ in range(5):
            out = table.press("bet_raise")
        if players_left is None:
            assert "TDA2024-48" in table.rule_ids(out)  # the fifth raise is a call
        return table.hand.bets_this_street

    assert raises(None) == 4  # heads-up at the table, but the event is not down to two
    assert raises(3) == 4
    assert raises(2) == 5  # the room says the event is down to two: no cap


def test_TDA24_35C_player_seated_during_a_misdeal_is_not_dealt_into_the_redeal() -> None:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000}, button=3)
    table.press("hand_start")
    table.card("seat2.cards", "As")  # first card to the wrong seat (R35-A2)
    table.t += 2_000  # seat 1's card is not read within the readers' window either
    table.card("seat1.cards", "Kd")
    table.press("confirm")  # misdeal declared
    out = table.command("seat_player", seat=5, player="New", stack=4000)
    info = table.rulings(out)
    assert info and info[0]["rule_ids"] == ["TDA2024-35C"] and "next hand" in info[0]["text"]
    table.press("hand_start")  # the re-deal
    assert table.hand.hand_id.endswith("redeal1")
    assert [s.seat for s in table.hand.seats] == [1, 2, 3]
    assert table.session.table.occupied(5) is not None


# --- R51-C: undercalls in sequence ----------------------------------------------------------


def test_TDA24_51C_second_undercall_of_the_opening_bet_floor_holds_the_rest() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000, 4: 20000})
    table.press("bet_raise", 8000)
    table.push(1, 5000, 1000, 1000, 1000)
    table.push(2, 1000, 1000)  # undercall of the opening bet: a full call, 6000 owed (R51-B)
    assert table.hand.seat(2).bet == 8000 and table.session.pending.zone(2).owed == 6000
    out = table.push(3, 1000, 1000)  # a second undercall before seat 2 corrected his
    rulings = table.rulings(out)
    assert any(r["kind"] == "binding" and r["seat"] == 2 and "TDA2024-51C" in r["rule_ids"]
               for r in rulings)  # play backs up to the first undercaller
    floor = [a for a in table.session.alerts if "TDA2024-51C" in a.ruling.rule_ids]
    assert len(floor) == 1 and floor[0].ruling.options == ("full_call", "forfeit_fold")
    assert table.hand.action_on == 3 and table.hand.seat(3).bet == 0
    table.push(4, 5000, 1000, 1000, 1000)  # the next bettor waits for the floor
    assert table.hand.seat(4).bet == 0
    table.command("floor_decision", alert_id=floor[0].id, decision="forfeit_fold")
    assert table.hand.seat(3).status is SeatStatus.FOLDED
    assert table.hand.seat(3).dead == 2000
    assert table.hand.seat(4).bet == 8000  # his held chips are ruled in turn now


def test_TDA24_51C_undercall_while_a_floor_full_call_is_still_owed_is_a_sequence() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000, 4: 20000})
    table.press("bet_raise", 2000)
    table.press("bet_raise", 8000)
    table.push(3, 1000, 1000)  # undercall of a raise, multi-way: the TD's call (R51-B)
    first = table.session.alerts[-1]
    assert first.ruling.rule_ids == ("TDA2024-51B",)
    table.command("floor_decision", alert_id=first.id, decision="full_call")
    assert table.hand.seat(3).bet == 8000 and table.session.pending.zone(3).owed == 6000
    table.push(4, 1000, 1000)
    second = table.session.alerts[-1]
    assert second.ruling.rule_ids[0] == "TDA2024-51C" and second.ruling.seat == 4
    assert table.hand.action_on == 4 and table.hand.seat(4).bet == 0


# --- R52-A: an underbet or underraise the dealer let stand, corrected later -----------------


def test_TDA24_52A_EX1_underraise_let_stand_is_corrected_for_all_bettors() -> None:
    table = _flop({s: 20000 for s in range(1, 6)}, level=Level(small_blind=100, big_blind=200))
    table.press("bet_raise", 600)  # A opens for 600
    out = table.command("short_bet_stands", seat=2, amount=1000)  # B: a 200 underraise
    assert table.rulings(out)[0]["rule_ids"][0] == "TDA2024-52A"
    table.press("check_call")  # C calls 1000
    table.press("check_call")  # D calls 1000
    table.press("fold")  # E folds, then the error is noticed
    out = table.command("short_bet_noticed", seat=2)
    fixed = next(r for r in table.rulings(out) if r["kind"] == "corrected")
    assert fixed["rule_ids"][0] == "TDA2024-52A" and "for all bettors" in fixed["text"]
    bets = {s.seat: s.bet for s in table.hand.seats}
    assert bets == {1: 600, 2: 1200, 3: 1200, 4: 1200, 5: 0}
    assert table.hand.action_on == 1 and table.hand.call_to == 1200
    owed = {s: table.session.pending.zone(s).owed for s in (2, 3, 4)}
    # B's 1000 lay in front of him when it was let stand: he adds 200; C and D only said call.
    assert owed == {2: 200, 3: 1200, 4: 1200}


def test_TDA24_52A_underbet_noticed_after_the_turn_is_dealt_stands() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    table.command("short_bet_stands", seat=1, amount=100)  # an opening bet below the BB
    table.press("check_call")
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING
    table.street("3s", "Jc")
    out = table.command("short_bet_noticed", seat=1)
    assert table.rulings(out)[0]["rule_ids"] == ["TDA2024-52A"]
    assert "the error stands" in table.rulings(out)[0]["text"]
    assert table.hand.pot_total == 600 + 300


def test_TDA24_52A_underbet_corrected_after_the_round_closed_before_the_next_card() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    table.command("short_bet_stands", seat=1, amount=100)
    table.press("check_call")
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING  # the round closed; the turn is not out
    table.command("short_bet_noticed", seat=1)
    assert [s.bet for s in table.hand.seats] == [200, 200, 200]
    assert table.hand.phase is Phase.DEALING


def test_TDA24_52A_river_underbet_noticed_after_the_last_call_before_any_hand_is_tabled() -> None:
    """R52-A: on the river the error is corrected until showdown starts, and showdown starts
    when a hand is tabled, not when the river betting ends."""
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    for burn, card in (("3s", "Jc"), ("4s", "2d")):
        for _ in range(3):
            table.press("check_call")
        table.street(burn, card)
    assert table.hand.street is Street.RIVER
    table.command("short_bet_stands", seat=1, amount=100)  # an opening bet below the BB
    table.press("check_call")
    table.press("check_call")  # the last call: the river betting is over, nobody has tabled
    assert table.hand.phase is Phase.SHOWDOWN
    out = table.command("short_bet_noticed", seat=1)
    fixed = next(r for r in table.rulings(out) if r["kind"] == "corrected")
    assert fixed["rule_ids"][0] == "TDA2024-52A" and "for all bettors" in fixed["text"]
    assert table.hand.pot_total == 600 + 3 * 200
    assert [s.committed for s in table.hand.seats] == [400, 400, 400]
    assert table.hand.phase is Phase.SHOWDOWN  # the replayed calls close the river again
    # Both callers only said call (no chips read): they owe the corrected 200.
    assert {s: table.session.pending.zone(s).owed for s in (2, 3)} == {2: 200, 3: 200}
    table.press("confirm")
    assert sum(a.amount for a in table.hand.awards) == 1200


def test_TDA24_52A_river_underbet_noticed_after_a_hand_is_tabled_stands() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    for burn, card in (("3s", "Jc"), ("4s", "2d")):
        for _ in range(3):
            table.press("check_call")
        table.street(burn, card)
    table.command("short_bet_stands", seat=1, amount=100)
    table.press("check_call")
    table.press("check_call")
    table.press("confirm")  # the hands are tabled: showdown has started (and ended)
    table.command("short_bet_noticed", seat=1)
    refused = table.replies()[-1]
    assert not refused["ok"] and "is over" in refused["error"]  # the error stands
    assert sum(a.amount for a in table.hand.awards) == 600 + 3 * 100


# --- R52-B: pot counts and count errors from the live table --------------------------------


def test_TDA24_52B_count_error_noticed_after_the_round_closed_is_corrected() -> None:
    table = RulesTable({1: 50000, 2: 50000}, button=2, variant=Variant.PLO)
    table.press("hand_start")
    table.deal({1: ("As", "Ad", "2c", "3c"), 2: ("Ks", "Kd", "4c", "5c")})
    table.press("check_call")
    table.press("check_call")
    table.street("2s", "7c", "8d", "9h")
    out = table.command("pot_count", seat=1, amount=300)  # the pot is 400
    assert [r["rule_ids"] for r in table.rulings(out)] == [["TDA2024-52B"]]
    table.push(1, 100, 100, 100)
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING  # no substantial action after the bet
    out = table.command("count_error")
    fixed = table.rulings(out)[0]
    assert fixed["kind"] == "corrected" and fixed["rule_ids"] == ["TDA2024-52B"]
    assert [s.bet for s in table.hand.seats] == [400, 400]


# --- R62: chips found behind an all-in player after the hand -------------------------------


def _all_in_called(
    profile: str, all_in_wins: bool, found_on_flop: int = 0, decision: str = ""
) -> RulesTable:
    """Seat 1 all in for 3000 pre-flop, seat 2 calls; chips may be found on the flop."""
    table = RulesTable({1: 3000, 2: 20000, 3: 20000}, button=3, profile=profile)
    table.press("hand_start")
    good, bad = ("As", "Ad"), ("7c", "2d")
    table.deal({1: good if all_in_wins else bad, 2: bad if all_in_wins else good,
                3: ("Qs", "Jd")})
    table.press("fold")
    table.press("all_in")  # seat 1 all in for 3000
    table.press("check_call")  # seat 2 calls
    table.street("3s", "9h", "8d", "4c")
    if found_on_flop:
        table.command("chips_found", seat=1, amount=found_on_flop)
        if decision:
            alert = table.session.alerts[-1]
            table.command("floor_decision", alert_id=alert.id, decision=decision)
    table.street("5s", "Kc")
    table.street("6s", "Th")
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE
    return table


def _stacks(table: RulesTable) -> dict[int, int]:
    return {s.seat: s.stack for s in table.session.table.seats}


def test_TDA24_62_chips_found_after_the_hand_the_floor_decides() -> None:
    table = _all_in_called("tda-2024", all_in_wins=False)
    assert _stacks(table) == {2: 23000, 3: 20000}  # seat 1 lost and left the table
    table.command("chips_found", seat=1, amount=500)
    alert = table.session.alerts[-1]
    assert alert.ruling.kind.value == "floor"
    assert alert.ruling.rule_ids == ("TDA2024-62", "TDA2024-49")
    assert alert.ruling.options == ("to_winner", "out_of_play")
    assert _stacks(table) == {2: 23000, 3: 20000}  # nothing moves before the floor decides
    table.command("floor_decision", alert_id=alert.id, decision="to_winner")
    assert _stacks(table) == {2: 23500, 3: 20000}


def test_TDA24_62_busted_loser_is_not_saved_by_chips_found_behind() -> None:
    """R62: "If A loses, he or she is not saved by the chip(s)": the floor is never offered
    to let a busted all-in player keep them (and be seated again)."""
    for found_on_flop in (0, 500):  # found after the hand, or during it ruled not in action
        table = _all_in_called("tda-2024", all_in_wins=False, found_on_flop=found_on_flop,
                               decision="not_in_action" if found_on_flop else "")
        if not found_on_flop:
            table.command("chips_found", seat=1, amount=500)
        alert = table.session.alerts[-1]
        assert "player_keeps" not in alert.ruling.options
        assert "to_winner" in alert.ruling.options  # the TD may award them to the winner
        table.command("floor_decision", alert_id=alert.id, decision="player_keeps")
        refused = table.replies()[-1]
        assert not refused["ok"] and refused["field"] == "decision"  # not one of the options
        table.command("floor_decision", alert_id=alert.id, decision="out_of_play")
        assert _stacks(table) == {2: 23000, 3: 20000}  # he stays out; nobody gains


def test_TDA24_62_winner_with_chips_found_floor_may_make_covering_callers_pay() -> None:
    table = _all_in_called("tda-2024", all_in_wins=True)
    table.command("chips_found", seat=1, amount=500)
    alert = table.session.alerts[-1]
    assert alert.ruling.options == ("callers_pay", "player_keeps")
    table.command("floor_decision", alert_id=alert.id, decision="callers_pay")
    assert _stacks(table) == {1: 6000 + 500 + 500, 2: 17000 - 500, 3: 20000}


def test_ACE_62_chips_found_after_the_hand_go_to_the_covering_winner() -> None:
    table = _all_in_called("ace-league", all_in_wins=False)
    out = table.command("chips_found", seat=1, amount=500)
    assert not table.session.alerts  # the house rule decides: no floor call
    settled = table.events("chips_found_settled")
    assert settled and settled[0]["rulings"][0]["rule_ids"] == ["ACE-62"]
    assert settled[0]["data"]["moves"] == [{"from": None, "to": 2, "amount": 500}]
    assert _stacks(table) == {2: 23500, 3: 20000}
    assert table.replies()[-1]["ok"] and out


def test_ACE_62_all_in_winner_is_not_paid_for_chips_found_behind() -> None:
    table = _all_in_called("ace-league", all_in_wins=True)
    table.command("chips_found", seat=1, amount=500)
    assert not table.session.alerts
    assert _stacks(table) == {1: 6500, 2: 17000, 3: 20000}  # he keeps his chip, unpaid


def test_R62_chips_found_for_a_player_who_was_not_all_in_is_refused() -> None:
    table = _all_in_called("tda-2024", all_in_wins=True)
    before = _stacks(table)
    table.command("chips_found", seat=2, amount=500)
    reply = table.replies()[-1]
    assert not reply["ok"] and reply["field"] == "seat" and "not all in" in reply["error"]
    assert _stacks(table) == before


def test_TDA24_62_chips_found_on_a_later_street_ruled_in_action_the_caller_matches_them() -> None:
    table = _all_in_called("tda-2024", all_in_wins=True, found_on_flop=500, decision="in_action")
    assert table.hand.seat(1).committed == 3500 and table.hand.seat(2).committed == 3500
    assert _stacks(table) == {1: 7000, 2: 16500, 3: 20000}  # he won 3500 from seat 2


def test_TDA24_62_chips_found_during_the_hand_not_in_action_settled_when_it_ends() -> None:
    won = _all_in_called("tda-2024", all_in_wins=True, found_on_flop=500,
                         decision="not_in_action")
    assert _stacks(won) == {1: 6500, 2: 17000, 3: 20000}  # not paid for it; it stays his
    lost = _all_in_called("tda-2024", all_in_wins=False, found_on_flop=500,
                          decision="not_in_action")
    alert = lost.session.alerts[-1]
    assert alert.ruling.options == ("to_winner", "out_of_play")  # the TD may award it
    lost.command("floor_decision", alert_id=alert.id, decision="to_winner")
    assert _stacks(lost) == {2: 23500, 3: 20000}  # not saved by it (R62)


def test_ACE_62_chips_found_during_the_hand_go_to_the_covering_winner_when_it_ends() -> None:
    table = _all_in_called("ace-league", all_in_wins=False, found_on_flop=500)
    held = table.events("chips_found")
    assert held and held[0]["rulings"][0]["rule_ids"] == ["ACE-62"]
    assert _stacks(table) == {2: 23500, 3: 20000}
    assert not table.session.found_chips and not table.session.alerts


# --- R37 (ACE: speak up before the flop), R54-A (ACE: no pot counts) ------------------------


def _short_button_all_in(profile: str) -> RulesTable:
    """Heads-up, the button all in with his small blind and dealt one card: nobody acts."""
    table = RulesTable({1: 5000, 2: 50}, button=2, profile=profile,
                       level=Level(small_blind=50, big_blind=100))
    table.press("hand_start")
    for zone, card in (("seat1.cards", "As"), ("seat2.cards", "Ks"), ("seat1.cards", "Ad")):
        table.card(zone, card)
    table.card("burn", "2c")  # the flop burn: the button never said he was short
    return table


def test_ACE_37_short_button_who_did_not_speak_up_before_the_flop_is_folded() -> None:
    table = _short_button_all_in("ace-league")
    folded = [r for r in table.rulings() if r["kind"] == "binding" and r["seat"] == 2]
    assert folded and folded[0]["rule_ids"] == ["ACE-37"]
    assert table.hand.seat(2).status is SeatStatus.FOLDED
    assert table.hand.phase is Phase.COMPLETE and table.hand.awards[0].seat == 1


def test_TDA24_37_short_button_keeps_his_hand_at_the_flop_burn() -> None:
    table = _short_button_all_in("tda-2024")
    assert any(r["rule_ids"] == ["TDA2024-37"] for r in table.rulings())  # replace the card
    assert table.hand.seat(2).status is SeatStatus.ALL_IN


def test_ACE_54A_pot_count_requests_are_denied() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000}, "ace-league")
    table.command("pot_count", seat=1, amount=600)
    reply = table.replies()[-1]
    assert not reply["ok"] and "ACE-54A" in reply["error"]


# --- R29: the clock on a player ---------------------------------------------------------------


def test_TDA24_29_clock_runs_out_facing_a_bet_the_hand_is_dead() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    table.press("bet_raise", 600)
    table.press("clock")  # seat 2 is on the clock: 25 s + 5 s
    started = table.events("clock_started")[0]
    assert started["data"]["seat"] == 2 and started["rulings"][0]["rule_ids"] == ["TDA2024-29"]
    table.t += 29_000
    table.command("clock_expired")  # too early: the countdown is still running
    assert table.hand.seat(2).status is SeatStatus.LIVE and table.session.clock is not None
    table.t += 2_000
    table.command("clock_expired")
    assert table.hand.seat(2).status is SeatStatus.FOLDED and table.hand.action_on == 3
    assert table.session.clock is None


def test_TDA24_29_clock_runs_out_not_facing_a_bet_the_hand_is_checked() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    table.command("clock_call")
    table.t += 31_000
    table.command("clock_expired")
    assert table.hand.seat(1).status is SeatStatus.LIVE and table.hand.action_on == 2
    assert table.hand.actions[-1].kind == "check"


def test_TDA11_24_clock_runs_out_not_facing_a_bet_the_hand_is_dead() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000}, "tda-2011")
    table.press("clock")
    assert table.events("clock_started")[0]["data"]["expires_at_ms"] == table.t + 70_000
    table.t += 70_001
    table.command("clock_expired")
    assert table.hand.seat(1).status is SeatStatus.FOLDED


def test_TDA24_29_an_action_before_the_time_is_up_stands_and_stops_the_clock() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})
    table.press("clock")
    table.t += 29_990
    table.press("check_call")  # he checks at the last moment: a tie goes to the player
    assert table.session.clock is None
    table.t += 5_000
    out = table.command("clock_expired")
    assert table.rulings(out)[0]["kind"] == "alert" and table.hand.action_on == 2
    assert table.hand.seat(1).status is SeatStatus.LIVE


def test_TDA24_RP21_pot_counts_are_given_in_pot_limit_only() -> None:
    table = _flop({1: 20000, 2: 20000, 3: 20000})  # no-limit
    out = table.command("pot_count", seat=1, amount=600)
    refused = table.rulings(out)
    assert refused and refused[0]["rule_ids"] == ["TDA2024-54A"]
    assert table.session.pending.quote is None


# --- R22: is a dispute still in time? -------------------------------------------------------


def _one_hand_played(profile: str = "tda-2024", in_break: bool = False) -> RulesTable:
    table = RulesTable({1: 5000, 2: 5000, 3: 5000, 4: 5000}, button=4, profile=profile)
    table.press("hand_start")
    table.deal({s: HOLES4[s] for s in (1, 2, 3, 4)})
    if in_break:
        table.command("break_start", source="clock", minutes=10)
    for _ in range(3):
        table.press("fold")  # seats 3, 4, 1 fold: the big blind wins
    assert table.hand.phase is Phase.COMPLETE
    return table


def _dispute(table: RulesTable, about: str) -> str:
    """The code of what the dispute raised: a floor call, or too late."""
    out = table.command("dispute", hand_id="t1-h00001", about=about)
    assert table.replies()[-1]["ok"]
    ruling = table.rulings(out)[-1]
    return "floor" if ruling["kind"] == "floor" else "too_late"


def test_TDA24_22_dispute_before_the_next_hand_goes_to_the_floor() -> None:
    table = _one_hand_played()
    assert _dispute(table, "reading") == "floor"
    alert = table.session.alerts[-1]
    assert alert.ruling.rule_ids == ("TDA2024-22",) and alert.ruling.options == (
        "upheld", "rejected")


def test_TDA24_22_reading_ends_when_the_next_hand_begins_accounting_at_its_SA() -> None:
    table = _one_hand_played()
    table.press("hand_start")
    table.deal({1: ("2c", "3d"), 2: ("4h", "5s"), 3: ("6c", "7d"), 4: ("8h", "9s")})
    assert _dispute(table, "reading") == "too_late"
    assert _dispute(table, "accounting") == "floor"
    for _ in range(3):
        table.press("check_call")  # three actions: substantial action (R36)
    assert _dispute(table, "accounting") == "too_late"


def test_TDA24_22_hand_ended_in_a_break_disputes_end_a_minute_after_the_award() -> None:
    table = _one_hand_played(in_break=True)
    table.t += 50_000
    assert _dispute(table, "accounting") == "floor"
    table.t += 20_000
    assert _dispute(table, "accounting") == "too_late"


def test_TDA11_18_disputes_end_when_a_new_hand_begins() -> None:
    table = _one_hand_played("tda-2011")
    assert _dispute(table, "accounting") == "floor"
    table.press("hand_start")
    assert _dispute(table, "accounting") == "too_late"


# --- R24: chips of a removed denomination after a colour-up ---------------------------------


def test_T24_24_D1_removed_denomination_in_a_betting_zone_alerts() -> None:
    table = RulesTable({1: 20000, 2: 20000, 3: 20000}, button=3)
    table.command("color_up", source="clock", removed=[25])
    table.press("hand_start")
    table.deal(HOLES3)
    out = table.push(3, 100, 100, 25)  # seat 3 calls 200 and a 25 chip rides along
    alert = next(r for r in table.rulings(out) if r["rule_ids"] == ["TDA2024-24"])
    assert alert["kind"] == "alert" and "exchanged at equal value" in alert["text"]
    clean = table.push(1, 100)
    assert "TDA2024-24" not in table.rule_ids(clean)


def test_NZ22_24_removed_denomination_alert_names_the_rounding_up() -> None:
    table = RulesTable({1: 20000, 2: 20000, 3: 20000}, button=3, profile="clubs-nz-2022")
    table.command("color_up", source="clock", removed=[25])
    table.press("hand_start")
    table.deal(HOLES3)
    out = table.push(3, 100, 100, 25)
    alert = next(r for r in table.rulings(out) if r["rule_ids"] == ["NZ2022-24"])
    assert "rounded up" in alert["text"]


def test_an_all_in_run_out_shows_no_bet_in_front_once_the_flop_is_out() -> None:
    # The dealer pulls the bets in before the flop even when nobody can bet any more: the
    # broadcast's table shows them in the pot, not in front of the seats (engine run-out).
    table = RulesTable({1: 3000, 2: 20000, 3: 20000}, button=3, profile="tda-2024")
    table.press("hand_start")
    table.deal({1: ("As", "Ad"), 2: ("7c", "2d"), 3: ("Qs", "Jd")})
    table.press("fold")
    table.press("all_in")  # seat 1 all in for 3000
    table.press("check_call")  # seat 2 calls: nobody left to bet against
    assert [s.bet for s in table.hand.seats] == [3000, 3000, 0]
    table.street("3s", "9h", "8d", "4c")
    seats = table_state(table.session, 0)["seats"]
    assert [s["bet"] for s in seats if s["seat"] in (1, 2, 3)] == [0, 0, 0]
    assert [s.committed for s in table.hand.seats] == [3000, 3000, 0]


def test_TDA24_51C_an_all_in_undercaller_still_starts_a_sequence_at_the_live_table() -> None:
    """Bob (1,000 behind) undercalls Ann's 1,000 with one 500 chip: a full call, all in
    (R51-B), with 500 still owed. Cat's 500 next is an undercall in sequence: play backs
    up to Bob and the floor decides Cat's chips (R51-C); nobody else acts meanwhile."""
    table = _flop({1: 20000, 2: 1200, 3: 20000, 4: 20000})
    table.press("bet_raise", 1000)
    table.push(1, 1000)
    bob = table.rulings(table.push(2, 500))
    assert bob[0]["rule_ids"] == ["TDA2024-51B"] and "calls all in for 1000" in bob[0]["text"]
    cat = table.rulings(table.push(3, 500))
    assert [(r["kind"], r["seat"], r["rule_ids"]) for r in cat] == [
        ("binding", 2, ["TDA2024-51C", "TDA2024-51B"]),
        ("floor", 3, ["TDA2024-51C", "TDA2024-51B"]),
    ]
    assert "seat 2 must complete his call of 1000" in cat[0]["text"]
    assert [a.id for a in table.session.alerts] == [cat[1]["alert_id"]]
    assert table.hand.seat(3).bet == 0  # Cat's chips wait for the floor


def test_TDA24_51C_a_small_blinds_undercall_in_sequence_counts_his_blind_once() -> None:
    """Cat raises to 2,000, Dan undercalls with 1,000 (R51-B floor open); Ann, whose 100
    blind lies in her zone, adds 1,800: 1,900 in all, an undercall in sequence (R51-C), not
    the full call her blind counted twice would make it."""
    table = RulesTable({1: 20000, 2: 20000, 3: 20000, 4: 20000}, button=4)
    table.press("hand_start")
    table.push(1, 100)
    table.push(2, 100, 100)
    table.deal({s: HOLES4[s] for s in (1, 2, 3, 4)})
    table.press("bet_raise", 2000)
    table.push(3, 1000, 1000)
    assert [r["kind"] for r in table.rulings(table.push(4, 1000))] == ["floor"]
    ann = table.rulings(table.push(1, 1000, 500, 200, 100))
    assert [(r["kind"], r["seat"], r["rule_ids"]) for r in ann] == [
        ("alert", 1, ["TDA2024-51C"])]
    assert "undercalled while seat 4's undercall awaits the floor" in ann[0]["text"]
    assert table.hand.seat(1).bet == 100  # her chips wait for the floor


def test_ACE_62_loser_not_covered_by_the_winner_is_not_saved_either() -> None:
    """ACE R62 gives the chip to a winner who covered him; when the winner did not, the TD
    decides, but a busted loser still may not keep it (R62 "not saved by the chip(s)")."""
    from pokertable.controller.engine.found_chips import rule_found_chips
    from pokertable.controller.engine.model import Award, HandState
    from pokertable.controller.engine.model import SeatState as Seat
    from pokertable.controller.rules.profiles import load_profile

    hand = HandState(
        hand_id="r62", variant=Variant.NLHE, level=Level(small_blind=50, big_blind=100),
        button=2, small_blind_seat=2, big_blind_seat=1, phase=Phase.COMPLETE,
        seats=(Seat(1, "A", 0, committed=3000, status=SeatStatus.ALL_IN),
               Seat(2, "B", 6000, committed=3000, status=SeatStatus.ALL_IN)),
        awards=(Award(0, 2, 6000),),
    )
    found = rule_found_chips(hand, 1, 500, load_profile("ace-league"))
    assert found.options == ("to_winner", "out_of_play")
    assert found.outcome("out_of_play", hand) == ()
    assert found.outcome("to_winner", hand) == ((None, 2, 500),)


# --- RP-5: premature cards, per the profile's procedure ---------------------------------------


def _premature_turn(profile: str) -> tuple[RulesTable, list[dict[str, object]]]:
    """The turn is dealt (after its burn) while seat 2 and 3 still have to act on the flop."""
    table = _flop({1: 5000, 2: 5000, 3: 5000}, profile)
    table.press("check_call")  # seat 1 checks
    table.card("burn", "3s")
    premature = table.rulings(table.card("board", "Jc"))
    table.cleared("board", "Jc")  # off the board: back to the stub (TDA) or aside (NZ)
    table.press("check_call")
    table.press("check_call")  # the flop round ends
    table.collect()
    return table, premature


def test_NZ22_RP5B_premature_turn_set_aside_extra_burn_and_river_without_a_burn() -> None:
    """Clubs NZ RP-5-B: "A premature turn card is put to the side. Another card is burned,
    and the normal river card is used as the new turn card. After action on the turn, the
    premature turn card is placed back in the stub, the stub is reshuffled, and a river card
    is dealt without another burn." Applied, not flagged as an error."""
    table, premature = _premature_turn("clubs-nz-2022")
    (told,) = premature
    assert told["rule_ids"][0] == "NZ2022-RP-5" and "put it to the side" in told["text"]
    before = len(table.out)
    table.card("burn", "4s")  # the extra burn of NZ RP-5-B
    table.card("board", "2d")  # the new turn
    assert table.hand.street is Street.TURN and table.hand.board[-1] == "2d"
    for _ in range(3):
        table.press("check_call")
    table.collect()
    table.card("board", "Jc")  # the set-aside card reshuffled into the stub: no burn
    assert table.hand.street is Street.RIVER
    said = table.rulings(tuple(table.out[before:]))
    assert [r for r in said if r["kind"] in ("alert", "floor", "rejected")] == []
    assert not [r for r in said if "NZ2022-38" in r["rule_ids"]]  # no extra or missing burn
    assert table.hand.board == ("9h", "8d", "7c", "2d", "Jc")


def test_TDA24_RP5B_premature_turn_a_second_turn_burn_is_still_an_error() -> None:
    table, premature = _premature_turn("tda-2024")
    assert "without another burn" in premature[0]["text"]
    out = table.card("burn", "4s")
    assert any("TDA2024-38" in r["rule_ids"] for r in table.rulings(out))


# --- R21: pots awarded at the live table ------------------------------------------------------


def test_TDA24_21_all_in_hand_mucked_at_the_table_leaves_one_pot_to_split() -> None:
    """The worked hand of tests/engine/test_pot_award_R21.py played at the table: seat 3 is
    all in for 4, seat 1's small blind and seat 5's folded 3 are dead money; at the showdown
    seat 3's cards go to the muck, seats 2 and 4 table the same two pair. The main pot (17)
    and the side pot (17) are one pot of 34 for the same two live hands: 17 each, where two
    pots split on their own would give seat 2 both odd chips (18 and 16)."""
    table = RulesTable({1: 100, 2: 100, 3: 4, 4: 100, 5: 100}, button=5,
                       level=Level(small_blind=1, big_blind=2))
    table.press("hand_start")
    table.deal({1: ("9c", "8c"), 2: ("As", "3c"), 3: ("5s", "6s"), 4: ("Ad", "4c"),
                5: ("Tc", "Td")})
    table.press("all_in")  # seat 3 all in for 4
    table.press("check_call")  # seat 4
    table.press("check_call")  # seat 5
    table.press("fold")  # seat 1: his small blind is dead money
    table.press("check_call")  # seat 2
    table.street("2c", "Ah", "Kh", "7c")
    table.press("bet_raise", 3)  # seat 2
    table.press("check_call")  # seat 4
    table.press("check_call")  # seat 5
    table.street("3c", "7d")
    table.press("bet_raise", 4)  # seat 2
    table.press("check_call")  # seat 4
    table.press("fold")  # seat 5: his flop call is dead money in the side pot
    table.street("4h", "2s")
    table.press("check_call")
    table.press("check_call")
    assert table.hand.phase is Phase.SHOWDOWN
    table.card("muck", "5s")  # seat 3 mucks
    table.card("muck", "6s")
    assert table.hand.seat(3).mucked
    table.press("confirm")  # seats 2 and 4 table
    assert table.hand.phase is Phase.COMPLETE
    assert [(p.amount, p.eligible) for p in table.hand.pots] == [(34, (2, 4))]
    assert _stacks(table) == {1: 99, 2: 106, 4: 106, 5: 93}
