"""Irregularities of the draw games at the live table (issue #30): the burn of each draw
(R38), a dealer who serves a player before taking all his discards, a draw card the dealer
exposes and a card exposed on the deal, through ``TableSession``. The TDA leaves the draws
to house rules (R35-A7): the house's choices are the profile's ``draw_*`` parameters."""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import Phase, Street
from pokertable.controller.rules import DrawDealExposure, DrawExposedCard
from tests.app.draw_table import THREE, DrawTable
from tests.app.test_session_stud_floor import decide


def _first_draw() -> DrawTable:
    """2-7 triple draw, three limpers: the first draw is open and its burn is read."""
    table = DrawTable(THREE)
    table.to_first_draw()
    table.card("burn", "Jh")
    return table


def _calls(table: DrawTable, code: str) -> list[dict[str, Any]]:
    return [a for a in table.state()["alerts"] if a["kind"] == code]


# --- R38: one burn a draw --------------------------------------------------------------------


def test_R38_live_draw_second_burn_is_an_extra_burn() -> None:
    table = _first_draw()
    assert table.alert_codes() == []
    table.card("burn", "Js")
    assert table.alert_codes() == ["extra_burn"]
    assert any("a second burn (Js) for the first draw" in t for t in table.texts("TDA2024-38"))


def test_R38_live_draw_served_without_a_burn_is_a_missing_burn() -> None:
    table = DrawTable(THREE)
    table.to_first_draw()
    table.discard(1, "Ks")
    table.serve(1, "8c")  # the draw's first card: its burn may still be read in one window
    assert table.alert_codes() == []
    table.t += 2 * table.session.config.card_read_window_ms
    table.press("check_call")  # seat 2 stands pat, the window has passed
    assert table.alert_codes() == ["missing_burn"]
    assert any("first draw is being served without a burn" in t
               for t in table.texts("TDA2024-38"))


def test_R38_live_draw_burn_read_just_after_the_first_card_is_its_burn() -> None:
    """The readers report cards pitched together in any order: a burn read within one read
    window of the draw's first card is that draw's burn; the next draw's burn is counted
    for the next draw."""
    table = DrawTable(THREE)
    table.to_first_draw()
    table.discard(1, "Ks")
    table.serve(1, "8c")
    table.card("burn", "Jh")
    table.press("check_call")
    table.press("check_call")
    assert table.hand.street is Street.FLOP
    table.check_around()
    table.draw_round("Js", {1: ((), ()), 2: ((), ()), 3: ((), ())})
    assert table.hand.street is Street.TURN and table.alert_codes() == []


# --- a one-card draw served before every discard was taken ----------------------------------


def test_R35A7_live_draw_released_discard_holds_the_draw_open() -> None:
    """He pushes two discards forward; the dealer takes one to the muck, serves a card,
    then takes the other: the readers saw the second card leave his pad, so it is a
    two-card draw, not a one-card draw and a late discard."""
    table = _first_draw()
    table.cleared("seat1.cards", "7s")  # his second discard leaves the pad
    table.discard(1, "Ks")
    table.serve(1, "8c")
    draw = table.hand.draw
    assert draw is not None and draw.order[0] == 1 and draw.owed == ()  # not closed yet
    table.card("muck", "7s")
    table.serve(1, "5s")
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "8c", "5s")
    assert "seat 1 discards 2 and draws 2 on the first draw" in table.texts("TDA2024-35A7")
    assert table.alert_codes() == []


def test_R35A7_live_draw_card_lifted_and_put_back_is_a_one_card_draw() -> None:
    table = _first_draw()
    table.cleared("seat1.cards", "7s")  # he looks at 7s
    table.discard(1, "Ks")
    table.serve(1, "8c")
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s", "Ks")  # held: 7s is off
    table.card("seat1.cards", "7s")  # back on his pad
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s", "8c")
    assert table.state()["draw"]["on_draw"] == 2 and table.alert_codes() == []


def test_R14_R35A7_live_discard_after_he_was_served_goes_to_the_floor_take_back() -> None:
    """The readers cannot tell a dealer who served him before taking his second discard
    from a player who throws a card after his draw: the floor decides, never a silent
    one-card draw."""
    table = _first_draw()
    table.discard(1, "Ks")
    table.serve(1, "8c")  # a one-card draw as read
    table.discard(1, "7s")
    [call] = _calls(table, "draw_discard_after_served")
    assert call["options"] == ["take_back", "dead_hand"]
    assert {"TDA2024-14", "TDA2024-35A7"} <= set(call["rule_ids"])
    decide(table, "after he was served his draw", "take_back")
    table.card("seat1.cards", "7s")  # back to him: his draw stands
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s", "8c")
    table.press("check_call")  # seat 2 stands pat
    assert table.state()["draw"]["on_draw"] == 3
    assert table.alert_codes() == ["draw_discard_after_served"]


def test_R14_R35A7_live_last_drawer_discard_after_the_draw_closed_floor_kills() -> None:
    table = _first_draw()
    table.press("check_call")  # seat 1 stands pat
    table.press("check_call")  # seat 2 stands pat
    table.discard(3, "As")
    table.serve(3, "Kh")  # the draw closes on the count: the betting round opens
    assert table.hand.phase is Phase.BETTING
    table.discard(3, "Qs")
    assert _calls(table, "draw_discard_after_served")
    decide(table, "after he was served his draw", "dead_hand")
    assert not table.hand.seat(3).in_hand


# --- a draw card exposed by the dealer ---------------------------------------------------------


def test_R35A7_live_draw_card_exposed_is_replaced_after_the_others() -> None:
    table = _first_draw()
    table.discard(1, "Ks")
    table.serve(1, "8c")  # turned face up as it was pitched
    table.command("card_exposed", seat=1, card_index=5)
    assert any("exposed card 8c goes to the muck" in t for t in table.texts("TDA2024-35A7"))
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s")
    table.discard(1, "8c")  # the dealer mucks it: not a discard of his
    table.serve(1, "5s")  # served before the others: held until they are
    assert len(table.hand.seat(1).hole) == 4
    table.press("check_call")  # seat 2 stands pat
    table.discard(3, "Qs", "As")
    table.serve(3, "Kh", "9d")
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s", "5s")
    assert table.hand.phase is Phase.BETTING and table.hand.street is Street.FLOP
    assert table.alert_codes() == []


def test_R35A7_live_last_drawer_exposed_card_reopens_his_draw() -> None:
    """Exposed on the draw's last card, with no action yet in the betting round it opened:
    the card is taken back and his replacement dealt before anybody acts."""
    table = _first_draw()
    table.press("check_call")
    table.press("check_call")
    table.discard(3, "As")
    table.serve(3, "Kh")
    assert table.hand.phase is Phase.BETTING
    table.command("card_exposed", seat=3, card_index=5)
    assert table.hand.phase is Phase.DEALING and table.hand.street is Street.PREFLOP
    table.discard(3, "Kh")
    table.serve(3, "9d")
    hand = table.hand
    assert (hand.phase, hand.street) == (Phase.BETTING, Street.FLOP)
    assert hand.seat(3).hole == ("3h", "5c", "6h", "Qs", "9d")
    assert table.alert_codes() == []


def test_R35A7_live_house_leaves_an_exposed_draw_card_to_the_floor() -> None:
    table = DrawTable(THREE)
    table.house(draw_exposed_card=DrawExposedCard.FLOOR)
    table.to_first_draw()
    table.card("burn", "Jh")
    table.discard(1, "Ks")
    table.serve(1, "8c")
    table.command("card_exposed", seat=1, card_index=5)
    [call] = _calls(table, "draw_exposed")
    assert call["options"] == ["replace", "keep"] and "TDA2024-35A7" in call["rule_ids"]
    assert "8c" in table.hand.seat(1).hole  # nothing changes until the floor rules
    decide(table, "exposed by the dealer", "replace")
    assert "8c" not in table.hand.seat(1).hole
    draw = table.hand.draw
    assert draw is not None and draw.last == (1,) and draw.owed == ((1, ("8c",)),)


# --- a card exposed on the deal (R35-A7 is for flop games) --------------------------------------


def test_R35A7_live_draw_deal_exposure_flop_game_test_by_default() -> None:
    table = DrawTable(THREE)
    table.press("hand_start")
    table.card("seat1.cards", "2c")  # the first card off the deck, turned over
    table.command("card_exposed", seat=1, card_index=1)
    assert "misdeal_exposed" in table.alert_codes()


def test_R35A7_live_draw_deal_exposure_house_floor_declares_the_misdeal() -> None:
    table = DrawTable(THREE)
    table.house(draw_deal_exposure=DrawDealExposure.FLOOR)
    table.press("hand_start")
    table.card("seat1.cards", "2c")
    table.command("card_exposed", seat=1, card_index=1)
    [call] = _calls(table, "draw_deal_exposed")
    assert call["options"] == ["misdeal", "play_on"] and "TDA2024-35A7" in call["rule_ids"]
    decide(table, "on the deal of a draw game", "misdeal")
    assert table.session.tracked is not None
    assert str(table.session.tracked.status) == "misdeal"
    assert table.stacks() == THREE  # the blinds go back (R35-C)
