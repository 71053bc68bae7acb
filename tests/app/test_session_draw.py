"""2-7 single draw, 2-7 triple draw and badugi dealt and played at the live table (issue
#30): five (badugi four) cards read on each seat's pad, betting read from chips, each draw
read as the discards land in the muck and the new cards on the pad, the public state of the
draw, showdown and award through ``TableSession``. The draws are house rules (R35-A7)."""

from __future__ import annotations

from pokertable.controller.engine.model import Level, Phase, Street, Variant
from pokertable.controller.rules import DrawLimping
from pokertable.controller.table.session import Channel
from tests.app.draw_table import SINGLE_HOLES, THREE, DrawTable


def _phase(table: DrawTable) -> Phase:
    return table.hand.phase


def _street(table: DrawTable) -> Street:
    return table.hand.street


def _holes(table: DrawTable) -> list[list[str]]:
    return [o.payload["cards"] for o in table.out if o.channel is Channel.HOLE_CARDS]


def test_RP17_R35A7_live_single_draw_limp_draw_public_state_and_showdown() -> None:
    table = DrawTable(THREE, variant=Variant.SINGLE_DRAW_27,
                      level=Level(small_blind=50, big_blind=100))
    table.press("hand_start")
    assert table.events("hand_start")[-1]["data"]["game"] == "N2L1D"
    table.deal(SINGLE_HOLES)
    assert [len(s.hole) for s in table.hand.seats] == [5, 5, 5]
    state = table.state()
    assert state["draw"] == {"draws": 1, "round": 0, "drawing": False, "on_draw": None,
                             "serving": []}
    assert [s["cards_held"] for s in state["seats"][:3]] == [5, 5, 5]
    assert [s["drawn"] for s in state["seats"][:3]] == [[], [], []]
    table.push(3, 100)  # the button limps: allowed in single draw (RP-17)
    assert table.hand.call_to == 100 and table.hand.action_on == 1
    assert table.alert_codes() == []
    table.press("check_call")  # the small blind completes
    table.press("check_call")  # the big blind checks: the draw opens
    assert _phase(table) is Phase.DEALING
    assert table.state()["draw"]["drawing"] and table.state()["draw"]["on_draw"] == 1
    table.collect()
    table.card("burn", "Jh")
    table.discard(1, "Ks")  # his discard reaches the muck: he waits for one card
    assert table.state()["draw"]["on_draw"] == 1
    table.serve(1, "8c")
    state = table.state()
    assert state["draw"]["on_draw"] == 2 and state["seats"][0]["drawn"] == [1]
    assert "seat 1 discards 1 and draws 1 on the first draw" in table.texts("TDA2024-35A7")
    assert _holes(table)[-1] == ["2c", "3d", "4h", "7s", "8c"]
    table.press("check_call")  # seat 2 knocks: he stands pat
    assert "seat 2 stands pat on the first draw" in table.texts("TDA2024-35A7")
    table.discard(3, "Qs", "As")
    assert table.state()["draw"]["on_draw"] == 3  # two discards read, no card yet
    table.serve(3, "Kh", "9d")
    state = table.state()
    assert state["draw"] == {"draws": 1, "round": 1, "drawing": False, "on_draw": None,
                             "serving": []}
    assert [s["drawn"] for s in state["seats"][:3]] == [[1], [0], [2]]
    for card in ("Ks", "8c", "Qs", "Kh", "9d"):
        assert card not in str(state)  # how many, never which
    # The betting round after the draw: no limit, read from chips.
    hand = table.hand
    assert (hand.phase, hand.street, hand.action_on) == (Phase.BETTING, Street.FLOP, 1)
    table.push(1, 100, 100, 100)  # bets 300
    assert table.hand.call_to == 300
    table.press("check_call")  # seat 2 calls
    table.press("fold")  # seat 3 folds
    assert _phase(table) is Phase.SHOWDOWN
    table.press("confirm")  # the hands are tabled
    done = table.hand
    assert done.phase is Phase.COMPLETE
    assert [(a.seat, a.amount, a.hand_name) for a in done.awards] == [
        (1, 900, "8-7-4-3-2 low")]
    assert table.stacks() == {1: 2500, 2: 1600, 3: 1900}
    assert table.alert_codes() == []


def test_R35A7_live_triple_draw_three_draws_small_and_big_bet_stacks() -> None:
    table = DrawTable(THREE)  # fixed limit 2-7 triple draw, small bet 100, big bet 200
    table.press("hand_start")
    table.deal({
        1: ("2c", "3d", "Kc", "Kd", "7s"),
        2: ("2h", "4c", "6d", "9h", "Tc"),
        3: ("3h", "5c", "6h", "Qs", "As"),
    })
    table.push(3, 100)  # calls the big blind (limping: RP-17 allows it, no TDA rule forbids)
    table.press("check_call")
    table.press("check_call")
    # The first draw: seat 2 stands pat by the dealer moving on to seat 3 (docs/floor.md).
    table.collect()
    table.card("burn", "Js")
    table.discard(1, "Kc", "Kd")
    table.serve(1, "4h", "9s")
    table.discard(3, "Qs", "As")  # the dealer moved on: seat 2 stood pat
    assert "seat 2 stands pat on the first draw" in table.texts("TDA2024-35A7")
    table.serve(3, "Qh", "Jc")
    assert _street(table) is Street.FLOP and table.hand.action_on == 1
    table.push(1, 100)  # the small bet
    assert table.hand.call_to == 100
    table.press("check_call")
    table.press("check_call")
    table.draw_round("Jh", {1: (("9s",), ("8c",)), 2: ((), ()), 3: (("Qh", "Jc"), ("7d", "8d"))})
    assert _street(table) is Street.TURN
    assert table.state()["draw"]["round"] == 2
    table.push(1, 100, 100)  # the big bet after the second draw
    assert table.hand.call_to == 200
    table.press("check_call")
    table.press("check_call")
    table.draw_round("Ts", {1: ((), ()), 2: ((), ()), 3: ((), ())})
    assert [s["drawn"] for s in table.state()["seats"][:3]] == [[2, 1, 0], [0, 0, 0], [2, 2, 0]]
    assert _street(table) is Street.RIVER
    table.check_around()
    table.press("confirm")
    done = table.hand
    assert done.phase is Phase.COMPLETE
    assert [(a.seat, a.amount, a.hand_name) for a in done.awards] == [
        (1, 1200, "8-7-4-3-2 low")]
    assert table.stacks() == {1: 2800, 2: 1600, 3: 1600}
    assert table.alert_codes() == []


def test_R35A7_live_badugi_four_cards_three_draws_to_showdown() -> None:
    table = DrawTable(THREE, variant=Variant.BADUGI)
    table.press("hand_start")
    table.deal({
        1: ("Ac", "2d", "3h", "3s"),
        2: ("2c", "4d", "6h", "8s"),
        3: ("9c", "9d", "Th", "Jc"),
    })
    assert [len(s.hole) for s in table.hand.seats] == [4, 4, 4]
    table.press("fold")  # seat 3
    table.press("check_call")  # seat 1 completes
    table.press("check_call")  # seat 2 checks
    table.draw_round("Qd", {1: (("3s",), ("Ks",)), 2: ((), ())})
    table.push(1, 100)
    table.press("check_call")
    table.draw_round("Qc", {1: (("Ks",), ("5s",)), 2: ((), ())})
    table.push(1, 100, 100)
    assert table.hand.call_to == 200  # the big bet
    table.press("check_call")
    table.draw_round("Qh", {1: ((), ()), 2: ((), ())})
    assert [s["drawn"] for s in table.state()["seats"][:3]] == [[1, 1, 0], [0, 0, 0], []]
    table.check_around()
    table.press("confirm")
    done = table.hand
    assert done.phase is Phase.COMPLETE
    assert [a.seat for a in done.awards] == [1] and done.awards[0].amount == 800
    assert table.stacks() == {1: 2400, 2: 1600, 3: 2000}
    assert table.alert_codes() == []


def test_R39D_live_triple_draw_short_stub_reshuffles_the_discards() -> None:
    """Six players each draw five on the first draw: after four the stub is one card, the
    house's last card is not dealt, so the first four players' discards are shuffled into a
    new stub (face down, R39-D; house rules, R35-A7) and dealt again from the pads."""
    stacks = {s: 2000 for s in range(1, 7)}
    table = DrawTable(stacks, button=6)
    deck = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    order = [1, 2, 3, 4, 5, 6]  # from the small blind
    holes = {seat: tuple(deck[i * 5:(i + 1) * 5]) for i, seat in enumerate(order)}
    stub = deck[30:]
    table.press("hand_start")
    table.deal(holes)
    while table.hand.phase is Phase.BETTING:
        table.press("check_call")  # everyone limps, the big blind checks
    table.collect()
    table.card("burn", stub.pop(0))
    for seat in order[:4]:
        table.discard(seat, *holes[seat])
        table.serve(seat, *(stub.pop(0) for _ in range(5)))
    assert len(stub) == 1 and table.hand.draw is not None and table.hand.draw.stub == 1
    reshuffled = [c for seat in order[:4] for c in holes[seat]]
    for seat in order[4:]:
        table.discard(seat, *holes[seat])
        table.serve(seat, *(reshuffled.pop(0) for _ in range(5)))
    said = table.texts("TDA2024-39D")
    assert len(said) == 1 and "20 card(s) shuffled face down into a new stub" in said[0]
    assert _phase(table) is Phase.BETTING and table.hand.draw.stub == 11
    assert [len(s.hole) for s in table.hand.seats] == [5] * 6
    for burn in (stub[0], reshuffled[0]):  # the new stub's: everybody stands pat
        table.check_around()
        table.draw_round(burn, dict.fromkeys(order, ((), ())))
    table.check_around()
    table.press("confirm")
    done = table.hand
    assert done.phase is Phase.COMPLETE
    assert sum(a.amount for a in done.awards) == 600
    assert sum(table.stacks().values()) == 12000
    assert table.alert_codes() == []


def test_R14_R39D_live_folded_hand_gathered_into_the_muck_is_reshuffled_with_the_discards(
) -> None:
    """A dealer gathers a folded hand into the muck during the draw: it raises nothing (the
    hand is dead already, R14), and when the stub runs short it is shuffled into the new
    stub with the discards (R39-D; house rules, R35-A7), picked up from the muck and dealt
    again without an alert."""
    stacks = {s: 2000 for s in range(1, 7)}
    table = DrawTable(stacks, button=6)
    deck = [f"{r}{s}" for s in "cdhs" for r in "23456789TJQKA"]
    holes = {seat: tuple(deck[(seat - 1) * 5:seat * 5]) for seat in range(1, 7)}
    stub = deck[30:]
    table.press("hand_start")
    table.deal(holes)
    table.press("check_call")  # seat 3 limps
    table.press("fold")  # seat 4 folds (his cards stay on his pad for now)
    while table.hand.phase is Phase.BETTING:
        table.press("check_call")
    table.collect()
    table.discard(4, *holes[4])  # the dealer gathers the folded hand into the muck
    assert table.alert_codes() == [] and table.hand.draw is not None
    table.card("burn", stub.pop(0))
    for seat in (1, 2, 3, 5):
        table.discard(seat, *holes[seat])
        table.serve(seat, *(stub.pop(0) for _ in range(5)))
    assert len(stub) == 1
    table.discard(6, *holes[6])
    pile = [c for seat in (1, 2, 3, 4, 5) for c in holes[seat]]
    for card in pile:  # picked up from the muck and shuffled face down
        table.cleared("muck", card)
    table.serve(6, *holes[4])  # the folded hand's cards, dealt again
    said = table.texts("TDA2024-39D")
    assert len(said) == 1 and "25 card(s) shuffled face down into a new stub" in said[0]
    assert table.hand.seat(6).hole == holes[4]
    for burn in (stub[0], pile[0]):  # everybody stands pat
        table.check_around()
        table.draw_round(burn, dict.fromkeys((1, 2, 3, 5, 6), ((), ())))
    table.check_around()
    table.press("confirm")
    assert table.hand.phase is Phase.COMPLETE
    assert sum(table.stacks().values()) == 12000
    assert table.alert_codes() == []


def test_R16_R35A7_live_single_draw_all_in_before_the_draw_still_draws() -> None:
    """All in and called before the draw: the hands turn face up (R16, the profile's
    ``draw_face_up_before_draws``), the all-in hands still draw, and the showdown follows;
    the uncalled chips go back; the hand's PHH shows how many cards were drawn, not which."""
    table = DrawTable({1: 2000, 2: 1000, 3: 2000}, variant=Variant.SINGLE_DRAW_27,
                      level=Level(small_blind=50, big_blind=100))
    table.press("hand_start")
    table.deal(SINGLE_HOLES)
    table.press("fold")  # seat 3
    table.press("all_in")  # seat 1: all in for 2000
    table.push(1, 500, 500)
    table.push(1, 500, 450)
    table.press("check_call")  # seat 2 calls all in for 1000
    hand = table.hand
    assert hand.phase is Phase.DEALING and hand.face_up
    assert table.state()["draw"]["on_draw"] == 1
    table.draw_round("Jh", {1: (("Ks",), ("8c",)), 2: ((), ())})
    assert _phase(table) is Phase.SHOWDOWN
    table.press("confirm")
    done = table.hand
    assert [(a.seat, a.amount, a.hand_name) for a in done.awards] == [
        (1, 2000, "8-7-4-3-2 low")]
    assert table.stacks() == {1: 3000, 3: 2000}  # seat 2 is out
    phh = table.events("hand_complete")[-1]["data"]["phh"]
    assert '"p1 sd ??"' in phh and '"p2 sd"' in phh and '"d dh p1 ??"' in phh
    assert "Ks" not in phh.split("actions")[1].split("sm")[0]
    assert table.alert_codes() == []


def test_R35A7_live_draw_card_before_the_draw_and_discard_after_it_are_alerts() -> None:
    """A card dealt to a seat while the betting round is open is not a draw (premature);
    a card of a seat that already drew reaching the muck may kill his hand (R14)."""
    table = DrawTable(THREE)
    table.press("hand_start")
    table.deal(SINGLE_HOLES)
    table.card("seat1.cards", "8c")
    assert table.alert_codes() == ["draw_card_early"]
    assert "8c" not in table.hand.seat(1).hole
    table.cleared("seat1.cards", "8c")
    table.push(3, 100)
    table.press("check_call")
    table.press("check_call")
    table.collect()
    table.card("burn", "Jh")
    table.discard(1, "Ks")
    table.serve(1, "8c")  # back in the stub, then dealt to him on the draw
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "7s", "8c")
    table.press("check_call")  # seat 2 stands pat: the draw moved on
    table.discard(1, "7s")
    assert table.alert_codes()[-1] == "draw_discard_late"
    assert table.texts("TDA2024-14")


def test_RP17_house_that_forbids_limping_in_triple_draw_at_the_table() -> None:
    """RP-17 allows limping in single draw; a house that allows it only there
    (``draw_limping = single_draw_only``) refuses a triple-draw limp, citing RP-17."""
    table = DrawTable(THREE)
    table.house(draw_limping=DrawLimping.SINGLE_DRAW_ONLY)
    table.press("hand_start")
    table.deal(SINGLE_HOLES)
    table.press("check_call")  # seat 3 limps
    assert table.hand.call_to == 100 and table.hand.action_on == 3
    assert any("may not limp in triple draw" in t for t in table.texts("TDA2024-RP-17"))


def _change_of_mind(table: DrawTable) -> None:
    """Seat 1 discards one; the dealer takes seat 2's discards first; seat 1 throws a
    second card before he is served."""
    table.deal(SINGLE_HOLES)
    table.push(3, 100)
    table.press("check_call")
    table.press("check_call")
    table.collect()
    table.card("burn", "Jh")
    table.discard(1, "Ks")
    table.discard(2, "Tc")  # the dealer moved on: seat 1 waits for one card
    assert table.state()["draw"]["serving"] == [1]
    table.discard(1, "7s")


def test_R35A7_live_draw_change_of_mind_before_he_is_served() -> None:
    """The house lets a player change his discards until he is served (R35-A7,
    ``draw_change_of_mind``): a second card of his in the muck is a two-card draw."""
    table = DrawTable(THREE)
    table.press("hand_start")
    _change_of_mind(table)
    assert any("changes his draw: discards 2" in t for t in table.texts("TDA2024-35A7"))
    table.serve(1, "8c", "5s")
    table.serve(2, "9s")
    assert table.hand.seat(1).hole == ("2c", "3d", "4h", "8c", "5s")
    assert table.state()["draw"]["on_draw"] == 3
    assert table.alert_codes() == []


def test_R35A7_live_house_without_change_of_mind_refuses_a_second_discard() -> None:
    table = DrawTable(THREE)
    table.house(draw_change_of_mind=False)
    table.press("hand_start")
    _change_of_mind(table)
    said = table.rulings()[-1]
    assert "the house does not let a player change his draw" in said["text"]
    assert said["rule_ids"] == ["TDA2024-35A7"] and said["seat"] == 1
    draw = table.hand.draw
    assert draw is not None and draw.owed == ((1, ("Ks",)),)  # his draw stands


def test_R35A2_live_draw_deal_first_card_to_the_wrong_seat_is_a_misdeal() -> None:
    """The deal of a draw game is checked as hold'em's (R35-A): the first card to the
    wrong seat is offered as a misdeal and the dealer's confirm declares it."""
    table = DrawTable(THREE, variant=Variant.BADUGI)
    table.press("hand_start")
    table.card("seat2.cards", "As")  # the first card, to seat 2 (seat 1's is first) ...
    table.t += 2 * table.session.config.card_read_window_ms  # ... alone in its read window
    table.card("seat3.cards", "Ks")
    table.card("seat1.cards", "Qs")
    assert "misdeal_first_card" in table.alert_codes()
    assert any("it belongs to seat 1" in t for t in table.texts("TDA2024-35A2"))
    table.press("confirm")
    assert table.session.tracked is not None
    assert str(table.session.tracked.status) == "misdeal"
    assert table.stacks() == THREE  # the blinds go back (R35-C)
