"""Stud at the live table (issue #30): bring-in amounts the chips leave open, dealing checks
and misdeals (R35 as it applies to stud), one burn a street (R38), the stud premature-card
procedure (RP-10-G -> RP-5-D) and the clock switching a table to stud and back (R11-B)."""

from __future__ import annotations

from dataclasses import replace

from pokertable.controller.engine.events import ActionKind
from pokertable.controller.engine.model import Level, Phase, Street, Variant
from pokertable.controller.table.inputs import RoomCommand
from pokertable.controller.table.published import published_hand
from pokertable.controller.table.session import TableSession
from tests.app.stud_table import StudTable
from tests.app.test_session_stud import (
    STUD_HOLES,
    STUD_STREETS,
    THREE,
    _bring_in_and_complete,
    _to_seventh,
)


def _dealt() -> StudTable:
    table = StudTable(THREE)
    table.press("hand_start")
    table.third(STUD_HOLES)
    return table


def _decide(table: StudTable, decision: str) -> None:
    [alert] = table.state()["alerts"]
    table(RoomCommand("floor_decision", "d1", {"alert_id": alert["id"], "decision": decision},
                      table.ms()))


def test_RP10E_a_single_small_bet_chip_from_the_bring_in_completes() -> None:
    table = _dealt()
    table.push(1, 100)  # not facing a bet: the completion, not a bring-in of 25 with change
    last = table.hand.actions[-1]
    assert (last.seat, last.kind, last.to) == (1, "bet", 100)
    assert table.state()["stud"]["bring_in_posted"] is False
    table.press("check_call")
    table.press("fold")
    table.collect()
    assert table.hand.phase is Phase.DEALING and table.hand.pot_total == 230


def test_RP10E_chips_short_of_the_bring_in_are_the_bring_in_and_he_owes_the_rest() -> None:
    table = _dealt()
    table.push(1, 5, 5)
    last = table.hand.actions[-1]
    assert (last.kind, last.to) == ("bring_in", 25)
    assert any("he owes 15" in t for t in table.texts("TDA2024-RP-10E"))


def test_RP10E_TDA24_1_between_bring_in_and_completion_the_floor_decides() -> None:
    table = _dealt()
    table.push(1, 25, 25)  # 50: more than the bring-in, less than the completion to 100
    hand = table.hand
    assert hand.action_on == 1 and not hand.actions  # nothing applied: the floor decides
    [alert] = table.state()["alerts"]
    assert alert["options"] == ["bring_in", "complete"]
    assert {"TDA2024-RP-10E", "TDA2024-3", "TDA2024-1"} <= set(alert["rule_ids"])
    _decide(table, "complete")
    last = table.hand.actions[-1]
    assert (last.seat, last.kind, last.to) == (1, "bet", 100)
    assert table.hand.action_on == 2


def test_RP10E_floor_rules_the_in_between_amount_a_bring_in() -> None:
    table = _dealt()
    table.push(1, 25, 25)
    _decide(table, "bring_in")
    hand = table.hand
    assert hand.actions[-1].action is not None
    assert hand.actions[-1].action.kind is ActionKind.BRING_IN and hand.call_to == 25


def test_TDA24_38_one_burn_per_stud_street() -> None:
    table = _dealt()
    _bring_in_and_complete(table)
    table.deal_street(None, {1: "3c", 2: "9c", 3: "Tc"})  # fourth street without a burn
    assert table.alert_codes() == []  # the burn's read may still be on its way ...
    table.t += table.session.config.card_read_window_ms  # ... until one read window passed
    table.press("check_call")
    assert table.texts("TDA2024-38") == [
        "fourth street was dealt without a burn: one burn per street (R38); call the floor"]
    table.check_around()
    table.collect()
    table.card("burn", "2h")
    table.card("burn", "2s")  # a second burn for fifth street
    assert table.alert_codes() == ["extra_burn"]
    assert "a second burn (2s) for fifth street" in table.texts("TDA2024-38")[-1]


def test_RP5D_RP10G_premature_stud_card_back_to_the_stub_next_street_without_burn() -> None:
    table = _dealt()
    _bring_in_and_complete(table)
    table.deal_street("2d", {1: "3c", 2: "9c", 3: "Tc"})
    assert table.hand.action_on == 3  # fourth-street betting is open
    table.card("burn", "2h")  # the dealer burns for fifth street too early ...
    table.card("seat1.up", "4d")  # ... and deals seat 1 a card: premature
    assert table.hand.seat(1).hole == ("As", "Ad", "2c", "3c")  # not dealt to the engine
    assert table.alert_codes() == ["premature_stud_card"]
    [text] = table.texts("TDA2024-RP-10G")
    assert "Premature card: 4d" in text and "without another burn" in text
    assert table.session.tracked is not None
    assert table.session.tracked.published(table.session.config.rules)["premature_cards"] == [
        "4d"]
    table.cleared("seat1.up", "4d")  # back to the stub, which is reshuffled
    assert any("back in the stub" in t for t in table.texts("TDA2024-RP-5D"))
    assert table.session.cards_in("seat1.up") == ("2c", "3c")
    table.check_around()
    # Fifth street without another burn; the reshuffled 4d now goes to seat 2.
    table.deal_street(None, {1: "8c", 2: "4d", 3: "7c"})
    hand = table.hand
    assert hand.street is Street.FIFTH and hand.seat(2).up == ("9h", "9c", "4d")
    assert table.alert_codes() == ["premature_stud_card"]  # no missing burn, no two zones
    table.check_around()
    table.collect()
    table.card("burn", "2s")  # sixth street has its own burn again
    assert table.alert_codes() == ["premature_stud_card"]


def test_NZ2022_RP5D_premature_stud_card_set_aside_next_street_burned_as_normal() -> None:
    table = StudTable(THREE, profile="clubs-nz-2022")
    table.press("hand_start")
    table.third(STUD_HOLES)
    _bring_in_and_complete(table)
    table.deal_street("2d", {1: "3c", 2: "9c", 3: "Tc"})
    table.card("seat2.up", "4d")
    [text] = table.texts("NZ2022-RP-10G")
    assert "put the round to the side" in text and "burn and deal the fifth street" in text
    table.cleared("seat2.up", "4d")
    table.check_around()
    table.deal_street("2h", {1: "8c", 2: "8s", 3: "7c"})  # burned as normal: not an extra burn
    assert table.alert_codes() == ["premature_stud_card"]


def test_TDA24_35A5_35C_stud_seat_short_on_the_deal_misdeal_and_redeal() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    # Seat 3 gets one downcard and its upcard: the deal ends with every upcard out.
    table.third({1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs",)})
    table.card("seat3.up", "Th")
    assert "misdeal_card_count" in table.alert_codes()
    assert table.session.tracked is not None and table.session.tracked.misdeal is not None
    table.press("confirm")  # the dealer declares it: antes go back
    assert table.session.tracked.status.value == "misdeal"
    assert {s.seat: s.stack for s in table.hand.seats} == {1: 2000, 2: 2000, 3: 2000}
    table.press("hand_start")  # R35-C: the same hand again
    hand = table.hand
    assert hand.hand_id.endswith("-redeal1") and hand.variant is Variant.STUD
    table.third(STUD_HOLES)
    assert table.hand.bring_in_seat == 1 and table.hand.action_on == 1


def test_TDA24_35A5_extra_card_on_the_stud_deal_before_action_is_a_misdeal() -> None:
    table = _dealt()
    table.card("seat2.cards", "Jc")  # a fourth card before anyone acted on third street
    assert "misdeal_card_count" in table.alert_codes()


def test_RP10A_exposed_downcard_on_the_stud_deal_is_no_misdeal() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    table.card("seat1.cards", "As")
    table.command("card_exposed", seat=1, card_index=1)
    codes = [r["text"] for r in table.rulings()]
    assert any("RP-10-A" in t and "not a misdeal" in t for t in codes)
    assert table.session.tracked is not None and table.session.tracked.misdeal is None


def test_RP10A_exposed_downcard_after_the_deal_becomes_the_upcard_and_brings_in() -> None:
    table = _dealt()  # seat 1 brings in with 2c up
    table.command("card_exposed", seat=2, card_index=2)  # Kd, seat 2's second downcard
    hand = table.hand
    assert hand.seat(2).up == ("Kd",) and hand.seat(2).hole == ("Ks", "9h", "Kd")
    assert hand.bring_in_seat == 1  # 2c is still the lowest upcard
    assert table.state()["seats"][1]["upcards"] == ["Kd"]
    assert any("is his upcard" in t for t in table.texts("TDA2024-RP-10A"))


def test_T11_31_exposed_stud_downcard_is_a_misdeal() -> None:
    table = StudTable(THREE, profile="tda-2011")
    table.press("hand_start")
    table.card("seat1.cards", "As")
    table.command("card_exposed", seat=1, card_index=1)
    assert "misdeal_stud_exposed" in table.alert_codes()
    assert any("TDA2011-31" in r["rule_ids"] for r in table.rulings())


def test_TDA24_30_RP10C_absent_player_dealt_the_bring_in_card_posts_it() -> None:
    table = StudTable(THREE)
    table.command("player_absent", seat=1)
    table.press("hand_start")
    table.third(STUD_HOLES)  # seat 1 has the bring-in card (2c) and is not at his seat
    hand = table.hand
    assert hand.seat(1).status.value == "folded" and hand.seat(1).committed == 10 + 25
    assert hand.call_to == 25 and hand.action_on == 2  # seat 2 faces the bring-in
    assert any("killed after the initial deal" in t for t in table.texts("TDA2024-RP-10C"))
    table.push(2, 25)
    table.press("check_call")
    assert table.hand.phase is Phase.DEALING


def test_TDA24_11B_clock_switches_to_stud_button_frozen_then_flop_game_resumes_there() -> None:
    table = StudTable({1: 5000, 2: 5000, 3: 5000, 4: 5000})
    table.session = _flop_game(table)
    table.press("hand_start")
    first = table.hand
    assert (first.button, first.big_blind_seat) == (4, 2)
    while table.hand.phase is not Phase.COMPLETE:
        table.press("fold")
    level = {"number": 2, "small_blind": 0, "big_blind": 100, "ante": 10,
             "ante_format": "per_player", "game": "F7S"}
    table.command("level", source="clock", level=level)  # no bring-in: refused
    refused = table.replies()[-1]
    assert not refused["ok"] and refused["field"] == "level.bring_in"
    table.command("level", source="clock", level={**level, "bring_in": 25})
    assert table.replies()[-1]["ok"]
    buttons = []
    for _ in range(2):
        table.press("hand_start")
        hand = table.hand
        assert hand.variant is Variant.STUD and len(hand.seats) == 4
        buttons.append((hand.button, hand.big_blind_seat))
        table.third({1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs", "Qd", "Th"),
                     4: ("Js", "Jd", "8h")})
        table.push(1, 25)
        for _ in range(3):
            table.press("fold")
        assert table.hand.phase is Phase.COMPLETE
    # The button frozen where the next hold'em hand has it, one seat on, for every stud
    # hand, with the player who would be big blind (mixed_games.stud_hand).
    assert buttons == [(1, 3), (1, 3)]
    assert any("frozen during stud" in t for t in table.texts("TDA2024-11B"))
    level3 = {"number": 3, "small_blind": 50, "big_blind": 100, "ante": 0,
              "ante_format": "none", "game": "FT"}
    table.command("level", source="clock", level=level3)
    table.press("hand_start")
    back = table.hand
    assert back.variant is Variant.FLHE and (back.button, back.big_blind_seat) == (1, 3)
    assert any("starts where it was frozen" in t for t in table.texts("TDA2024-11B"))


def _flop_game(table: StudTable) -> TableSession:
    """The same table dealing fixed-limit hold'em first (the clock switches it later)."""
    config = replace(table.session.config, variant=Variant.FLHE)
    return replace(table.session, config=config, level=Level(small_blind=50, big_blind=100))


def test_STUD_STREETS_are_dealt_to_showdown_without_alerts() -> None:
    table = _dealt()
    _bring_in_and_complete(table)
    for burn, cards in STUD_STREETS:
        table.deal_street(burn, cards)
        table.check_around()
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE and table.alert_codes() == []


def test_TDA24_66_upcards_picked_up_facing_action_floor_kills_the_hand() -> None:
    table = _dealt()
    table.push(1, 25)  # the bring-in: seat 2 faces action
    table.cleared("seat2.up", "9h")  # his upcard leaves the pad
    [alert] = table.state()["alerts"]
    assert alert["rule_ids"] == ["TDA2024-66"] and alert["options"] == ["picked_up", "play_on"]
    _decide(table, "picked_up")  # the floor saw him pick them up: the engine rules (R66)
    hand = table.hand
    assert hand.seat(2).status.value == "folded" and hand.action_on == 3
    assert any("facing action: his hand is dead" in t for t in table.texts("TDA2024-66"))


def test_TDA24_66_upcards_picked_up_on_the_action_with_nothing_to_call_the_floor_rules() -> None:
    table = _dealt()
    _bring_in_and_complete(table)
    table.deal_street(*STUD_STREETS[0])  # seat 3 opens fourth street: nothing to call
    table.cleared("seat3.up", "Tc")
    _decide(table, "picked_up")
    [alert] = [a for a in table.state()["alerts"] if "nothing to call" in a["text"]]
    assert alert["options"] == ["dead_hand", "hand_live"]  # the engine's R66 floor call
    table(RoomCommand("floor_decision", "d2", {"alert_id": alert["id"],
                                               "decision": "dead_hand"}, table.ms()))
    assert table.hand.seat(3).status.value == "folded" and table.hand.action_on == 1


def test_TDA24_66_upcard_lifted_when_not_facing_action_is_nothing() -> None:
    table = _dealt()
    table.cleared("seat3.up", "Th")  # seat 3 is not on the action
    assert table.state()["alerts"] == [] and table.alert_codes() == []


def test_RP10E_the_dealer_enters_the_bring_in_on_the_console_and_the_chips_pay_it() -> None:
    table = _dealt()
    table.press("bet_raise", 25)  # "bring it in": a bet short of the small bet
    last = table.hand.actions[-1]
    assert (last.seat, last.kind, last.to) == (1, "bring_in", 25)
    table.push(1, 25)  # the chips that follow pay what he declared (R40-A)
    assert table.session.pending.zone(1).owed == 0
    table.press("bet_raise", 100)  # seat 2: "complete" to the small bet
    assert (table.hand.actions[-1].kind, table.hand.call_to) == ("raise", 100)


def test_RP10E_the_console_completes_for_the_bring_in_seat() -> None:
    table = _dealt()
    table.press("bet_raise", 100)
    last = table.hand.actions[-1]
    assert (last.seat, last.kind, last.to) == (1, "bet", 100)


def test_TDA24_35A2_stud_first_card_goes_to_the_dealers_left() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    table.card("seat2.cards", "Ks")  # the first card, to seat 2 ...
    table.t += 2 * table.session.config.card_read_window_ms  # ... alone in its read window
    table.third({1: ("As", "Ad", "2c"), 2: ("Kd", "9h"), 3: ("Qs", "Qd", "Th")})
    assert "misdeal_first_card" in table.alert_codes()
    assert any("it belongs to seat 1" in t for t in table.texts("TDA2024-35A2"))


def test_TDA24_35A3_stud_upcard_to_a_seat_not_dealt_in_is_a_misdeal() -> None:
    table = StudTable(THREE)
    table.press("hand_start")
    table.card("seat1.cards", "As")
    table.card("seat5.up", "7d")  # nobody sits in seat 5
    assert "misdeal_not_entitled" in table.alert_codes()


def test_TDA24_35A5_a_downcard_read_after_the_last_upcard_within_the_window_is_no_misdeal() -> None:
    """The readers report cards pitched together in any order (docs/irregularities.md): the
    last seat's second downcard read just after the deal's last upcard is its card."""
    table = StudTable(THREE)
    table.press("hand_start")
    table.third({1: ("As", "Ad", "2c"), 2: ("Ks", "Kd", "9h"), 3: ("Qs",)})
    table.card("seat3.up", "Th")  # every upcard is out: the deal closes, seat 3 short
    table.card("seat3.cards", "Qd")  # ... and its downcard's read comes in
    assert table.session.tracked is not None and table.session.tracked.misdeal is None
    hand = table.hand
    assert hand.seat(3).hole == ("Qs", "Qd", "Th") and hand.seat(3).up == ("Th",)
    assert (hand.bring_in_seat, hand.action_on) == (1, 1)
    table.push(1, 25)
    assert table.hand.actions[-1].kind == "bring_in"


def test_RP10B_seventh_street_card_dealt_up_is_replaced_while_betting_remains() -> None:
    table = _dealt()
    _to_seventh(table)
    table.card("seat1.cards", "5s")
    table.card("seat2.up", "4s")  # dealt face up: exposed by the dealer
    hand = table.hand
    assert len(hand.seat(2).hole) == 6 and hand.exposed == ((2, "4s"),)
    assert any("dead with betting to come" in t for t in table.texts("TDA2024-RP-10B"))
    table.card("seat2.cards", "Jc")  # his seventh card, down
    table.card("seat3.cards", "6c")
    hand = table.hand
    assert hand.street is Street.SEVENTH and hand.seat(2).hole[-1] == "Jc"
    assert [s["cards_held"] for s in table.state()["seats"][:3]] == [7, 7, 7]
    table.check_around()
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE and table.stacks()[1] == 2220


def test_T11_seventh_street_card_exposed_the_floor_decides() -> None:
    table = StudTable(THREE, profile="tda-2011")
    table.press("hand_start")
    table.third(STUD_HOLES)
    _to_seventh(table)
    table.card("seat1.up", "5s")
    [alert] = table.state()["alerts"]
    assert alert["options"] == ["replace", "card_stands"]
    _decide(table, "replace")
    assert len(table.hand.seat(1).hole) == 6 and table.hand.exposed == ((1, "5s"),)


def test_T11_26_absent_bring_in_the_floor_picks_the_next_low_card() -> None:
    table = StudTable(THREE, profile="tda-2011")
    table.command("player_absent", seat=1)
    table.press("hand_start")
    table.third(STUD_HOLES)
    [alert] = table.state()["alerts"]
    assert alert["options"] == ["posts_bring_in", "next_low_card_brings_in"]
    _decide(table, "next_low_card_brings_in")
    hand = table.hand
    assert hand.seat(1).status.value == "folded" and hand.seat(1).committed == 10
    assert hand.bring_in_seat == 2 and hand.action_on == 2  # 9h is now the low card


def test_TDA24_11B_horse_by_orbit_deals_each_game_for_one_orbit_with_the_stud_ante() -> None:
    """The clock's level names a HORSE mix by orbit (engine/rotation.py): three hands (one
    orbit of three players) of each game; the stud games with their own ante."""
    table = StudTable(THREE)
    table.session = _flop_game(table)
    level = {"number": 2, "small_blind": 50, "big_blind": 100, "ante": 0,
             "ante_format": "none", "bring_in": 25, "stud_ante": 10,
             "rotation": {"by": "orbit", "games": ["FT", "FO/8", "FR", "F7S", "F7S/8"],
                          "dealers_choice": False}}
    table.command("level", source="clock", level=level)
    assert table.replies()[-1]["ok"], table.replies()[-1]
    games = []
    for _ in range(9):
        table.press("hand_start")
        hand = table.hand
        games.append(hand.variant.value)
        if hand.variant.is_stud:
            assert {s.committed for s in hand.seats} == {10}  # the stud ante
        if hand.variant.is_stud:  # dealt, the bring-in (razz: seat 3's ten), folded to
            table.third(STUD_HOLES)
            seat = table.hand.action_on
            assert seat is not None
            table.push(seat, 25)
        for _ in range(2):
            table.press("fold")
        assert table.hand.phase is Phase.COMPLETE
    assert games == ["FT"] * 3 + ["FO/8"] * 3 + ["FR"] * 3
    # The same mix at the next level goes on in its orbit.
    table.command("level", source="clock", level={**level, "number": 3})
    table.press("hand_start")
    assert table.hand.variant is Variant.STUD


def test_a_mix_with_a_draw_game_is_dealt_and_a_stud_mix_needs_a_bring_in() -> None:
    """Draw games are dealt at the table (an 8-game mix); a stud game without a bring-in
    is refused naming the field."""
    table = StudTable(THREE)
    level = {"number": 2, "small_blind": 50, "big_blind": 100, "ante": 0,
             "ante_format": "none", "bring_in": 25,
             "rotation": {"by": "orbit", "games": ["F2L3D", "FT"], "dealers_choice": False}}
    table.command("level", source="clock", level=level)
    assert table.replies()[-1]["ok"]
    table.press("hand_start")
    assert table.hand.variant is Variant.TRIPLE_DRAW_27
    assert table.state()["draw"]["draws"] == 3
    del level["bring_in"]
    table.command("level", source="clock", level={
        **level, "rotation": {"by": "orbit", "games": ["FT", "FR"], "dealers_choice": False}})
    reply = table.replies()[-1]
    assert not reply["ok"] and reply["field"] == "level.bring_in"


def test_TDA24_30_RP10C_a_hand_killed_at_the_deal_is_published_without_phh_and_says_why() -> None:
    """PHH has no action for a hand killed outside the turn order: the archive's event
    carries no PHH and names the seat and the rules, rather than a file no reader replays."""
    table = StudTable(THREE)
    table.command("player_absent", seat=1)
    table.press("hand_start")
    table.third(STUD_HOLES)  # seat 1's cards are killed; he posts the bring-in first
    table.press("fold")  # seat 2; seat 3 is the last live hand
    assert table.hand.phase is Phase.COMPLETE
    published = published_hand(table.session)
    assert published["phh"] is None
    assert "seat 1 had his hand killed outside the turn order (R30" in published["phh_problem"]
