"""The engine: outcomes found missing by mutation testing (issue #20).

Each test pins something a one-line change to controller/engine/state_machine.py got past the engine
tests (docs/testing.md, "Mutation testing"); through the engine's public ``start_hand`` and
``step``, so they hold however the module is split.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from pokertable.controller.engine import EngineError, HandSetup, start_hand, step
from pokertable.controller.engine.events import ActionKind, DealBoard, DealHole, PlayerAction
from pokertable.controller.engine.model import HandState, Level, Phase, Street, Variant
from pokertable.controller.rules import TDA_2024, ReopenRule, RuleProfile
from tests.engine.helpers import act, raise_after_three_short_all_ins, street_state, try_act


@pytest.mark.parametrize("stack", [0, -5])
def test_a_player_dealt_in_without_chips_is_refused(stack: int) -> None:
    setup = HandSetup(
        hand_id="h1",
        variant=Variant.NLHE,
        level=Level(small_blind=50, big_blind=100),
        button=3,
        small_blind_seat=1,
        big_blind_seat=2,
        players=((1, "A", 1000), (2, "B", 1000), (3, "C", stack)),
    )
    with pytest.raises(EngineError, match="h1: every dealt-in player needs chips"):
        start_hand(setup)


def test_a_fold_puts_no_chips_in() -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3, pot=300)
    state, _ = act(state, (1, "bet", 400), (2, "fold"))
    fold = state.actions[-1]
    assert (fold.seat, fold.kind, fold.chips_in, fold.all_in) == (2, "fold", False, False)
    assert state.actions[0].chips_in is True


def test_TDA24_47B_refusal_says_half_a_bet_is_needed() -> None:
    # Fixed limit 50/100 on the flop: a short all-in of 40 more does not re-open (R47-B).
    state = street_state({1: 5000, 2: 140, 3: 5000}, button=3, big_blind=100, variant=Variant.FLHE)
    state, _ = act(state, (1, "bet", 100), (2, "all_in"), (3, "call"))
    same, rulings = try_act(state, 1, "raise", 240)
    assert same is state
    assert "half a bet, 50" in rulings[0].text, rulings[0].text


def test_pot_limit_all_in_beyond_the_pot_is_capped_and_says_so() -> None:
    state = street_state({1: 5000, 2: 5000}, button=2, pot=600, variant=Variant.PLO)
    state, rulings = act(state, (1, "all_in"))
    assert state.seat(1).bet == 600 and state.seat(1).stack == 4400
    assert any(
        r.kind.value == "corrected" and "capped at the pot-limit maximum 600" in r.text
        for r in rulings
    ), rulings


def test_single_only_refusal_names_everything_faced_since_his_action() -> None:
    # House rule "single_only": three short all-ins after seat 1's bet of 100 (to 150, 190,
    # 240) leave him facing 140 more, and still only call or fold.
    single = replace(TDA_2024, reopen=ReopenRule.SINGLE_ONLY)
    _, rulings = raise_after_three_short_all_ins(single)
    assert "faced 140" in rulings[0].text, rulings[0].text


def test_TDA24_16_hands_are_tabled_at_the_river_only_with_an_all_in() -> None:
    board = ("2c", "7d", "9h", "Js", "Kd")
    quiet = street_state({1: 5000, 2: 5000}, button=2, street=Street.RIVER, pot=400)
    quiet, rulings = act(quiet, (1, "bet", 300), (2, "call"))
    assert quiet.board == board and "face_up" not in [r.code for r in rulings]
    assert not quiet.face_up
    allin = street_state({1: 5000, 2: 700}, button=2, street=Street.RIVER, pot=400)
    allin, rulings = act(allin, (1, "bet", 300), (2, "all_in"), (1, "call"))
    assert "face_up" in [r.code for r in rulings] and allin.face_up


def test_TDA24_51B_a_forfeit_fold_moves_exactly_the_forfeit_into_the_pot() -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3, pot=300)
    state, _ = act(state, (1, "bet", 1000))
    pot = state.pot_total
    state, rulings = step(state, PlayerAction(2, ActionKind.FOLD, 300))
    seat2 = state.seat(2)
    assert (seat2.status.value, seat2.stack, seat2.committed) == ("folded", 4700, 300)
    assert state.pot_total == pot + 300
    assert "forfeits 300 to the pot and folds" in rulings[0].text


@pytest.mark.parametrize("amount", [-100, 5001])
def test_TDA24_51B_a_forfeit_outside_the_stack_is_refused(amount: int) -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3, pot=300)
    state, _ = act(state, (1, "bet", 1000))
    same, rulings = step(state, PlayerAction(2, ActionKind.FOLD, amount))
    assert same is state and rulings[0].code == "bad_forfeit"


def test_an_all_in_runout_reaches_showdown_only_with_the_river() -> None:
    state = street_state({1: 800, 2: 5000}, button=2, pot=200)
    state, _ = act(state, (1, "all_in"), (2, "call"))
    assert state.phase is Phase.DEALING
    state, _ = step(state, DealBoard(("Qc",)))
    assert state.street is Street.TURN and state.phase is Phase.DEALING
    state, _ = step(state, DealBoard(("3s",)))
    assert state.street is Street.RIVER and state.phase is Phase.SHOWDOWN


def test_a_short_call_returns_the_uncalled_part_and_says_all_in() -> None:
    # Pot 300; seat 1 bets 1,000, seat 2 calls all in for 600: 400 goes back to seat 1 and
    # the pot is 300 + 600 + 600.
    state = street_state({1: 5000, 2: 600}, button=2, pot=300)
    state, rulings = act(state, (1, "bet", 1000), (2, "call"))
    texts = {r.code: r.text for r in rulings}
    assert texts["call"] == "seat 2 calls all in to 600"
    assert texts["uncalled_returned"] == "uncalled 400 returned to seat 1"
    assert state.pot_total == 1500
    assert (state.seat(1).stack, state.seat(1).committed) == (4400, 900)
    calm = street_state({1: 5000, 2: 5000}, button=2, pot=300)
    calm, rulings = act(calm, (1, "bet", 1000), (2, "call"))
    assert [r.text for r in rulings if r.code == "call"] == ["seat 2 calls to 1000"]


def test_with_a_one_chip_big_blind_a_raise_is_still_called_a_raise() -> None:
    state = street_state({1: 50, 2: 50, 3: 50}, button=3, big_blind=1)
    state, _ = act(state, (1, "bet", 1))
    same, rulings = try_act(state, 2, "raise", 1)
    assert same is state and rulings[0].text.startswith("a raise to 1 "), rulings[0].text


def _setup(*players: tuple[int, str, int], hand_id: str = "h1") -> HandSetup:
    return HandSetup(
        hand_id=hand_id,
        variant=Variant.NLHE,
        level=Level(small_blind=50, big_blind=100),
        button=players[-1][0],
        small_blind_seat=players[0][0],
        big_blind_seat=players[1][0],
        players=players,
    )


def test_a_table_deals_two_to_ten_players_and_refuses_one_or_eleven() -> None:
    # The engine's seat limit (MAX_SEATS = 10): a ten-handed table is dealt in.
    ten = _setup(*[(seat, f"P{seat}", 1000) for seat in range(1, 11)])
    state, _ = start_hand(ten)
    assert len(state.seats) == 10 and state.action_on == 3
    eleven = replace(ten, players=(*ten.players, (11, "P11", 1000)))
    with pytest.raises(EngineError, match="h1: 11 players; need 2 to 10"):
        start_hand(eleven)
    alone = replace(ten, players=ten.players[:1], big_blind_seat=1, small_blind_seat=None)
    with pytest.raises(EngineError, match="h1: 1 players; need 2 to 10"):
        start_hand(alone)


def test_a_seat_listed_twice_is_refused() -> None:
    setup = _setup((1, "A", 1000), (2, "B", 1000), (2, "C", 1000))
    with pytest.raises(EngineError, match=r"h1: a seat is listed twice: \[1, 2, 2\]"):
        start_hand(setup)


def _dealt(state: HandState, *holes: tuple[int, tuple[str, str]]) -> HandState:
    for seat, cards in holes:
        state, rulings = step(state, DealHole(seat, cards))
        assert rulings == (), rulings
    return state


def test_hole_cards_go_only_to_a_seat_dealt_in_to_a_running_hand() -> None:
    # Seats 1, 3 and 5 are dealt in: seat 2 (between them) and seat 6 are not.
    state, _ = start_hand(_setup((1, "A", 1000), (3, "B", 1000), (5, "C", 1000)))
    for seat in (2, 6):
        same, rulings = step(state, DealHole(seat, ("As", "Ad")))
        assert same is state and rulings[0].code == "seat_not_dealt_in", rulings
    state = _dealt(state, (3, ("As", "Ad")))
    assert state.seat(3).hole == ("As", "Ad") and state.seat(1).hole == ()
    same, rulings = step(state, DealHole(3, ("Ks", "Kd")))
    assert same is state and rulings[0].code == "already_dealt"
    # A hand over (everyone folded to the big blind) takes no more hole cards.
    state, _ = step(state, PlayerAction(5, ActionKind.FOLD))
    state, _ = step(state, PlayerAction(1, ActionKind.FOLD))
    assert state.phase is Phase.COMPLETE
    same, rulings = step(state, DealHole(5, ("Qs", "Qd")))
    assert same is state and rulings[0].code == "seat_not_dealt_in"


@pytest.mark.parametrize("cards", [("As",), ("As", "Ad", "Ac")])
def test_hole_cards_are_exactly_the_variants_count(cards: tuple[str, ...]) -> None:
    state, _ = start_hand(_setup((1, "A", 1000), (2, "B", 1000), (3, "C", 1000)))
    same, rulings = step(state, DealHole(1, cards))
    assert same is state and rulings[0].code == "card_count"
    assert rulings[0].text == f"seat 1 got {len(cards)} cards; 2 expected"


def test_board_cards_come_only_when_due_and_in_the_streets_count() -> None:
    state, _ = start_hand(_setup((1, "A", 1000), (2, "B", 1000), (3, "C", 1000)))
    same, rulings = step(state, DealBoard(("9h", "8d", "7c")))
    assert same is state and rulings[0].code == "premature_board"  # pre-flop betting open
    state, _ = act(state, (3, "call"), (1, "call"), (2, "check"))
    assert state.phase is Phase.DEALING
    for wrong in (("9h", "8d"), ("9h", "8d", "7c", "6s")):
        same, rulings = step(state, DealBoard(wrong))
        assert same is state and rulings[0].code == "board_count"
        assert rulings[0].text == f"the flop needs 3 card(s), got {len(wrong)}"
    state, _ = step(state, DealBoard(("9h", "8d", "7c")))
    assert state.board == ("9h", "8d", "7c") and state.phase is Phase.BETTING
    state, rulings = act(state, (1, "check"), (2, "check"), (3, "check"))
    assert not state.face_up and "face_up" not in [r.code for r in rulings]
    same, rulings = step(state, DealBoard(("6s", "5s")))
    assert same is state and rulings[0].text == "the turn needs 1 card(s), got 2"
    state, _ = step(state, DealBoard(("6s",)))
    assert state.board == ("9h", "8d", "7c", "6s") and state.street is Street.TURN
    # A new round: the flop's checks do not carry over, seat 1 (left of the button) acts.
    assert (state.phase, state.action_on) == (Phase.BETTING, 1)


def _to_the_flop(variant: Variant = Variant.NLHE, rules: RuleProfile = TDA_2024) -> HandState:
    """Three players, blinds 50/100, called round pre-flop; the flop dealt (seat 1 first)."""
    state, _ = start_hand(
        replace(_setup((1, "A", 5000), (2, "B", 5000), (3, "C", 5000)), variant=variant), rules
    )
    state, _ = act(state, (3, "call"), (1, "call"), (2, "check"), rules=rules)
    state, _ = step(state, DealBoard(("9h", "8d", "7c")), rules)
    return state


def test_TDA24_43A_no_limit_minimum_bet_is_one_big_blind_on_every_street() -> None:
    state = _to_the_flop()
    state, _ = act(state, (1, "bet", 100), (2, "call"), (3, "call"))
    state, _ = step(state, DealBoard(("6s",)))
    state, rulings = act(state, (1, "bet", 100))
    assert state.call_to == 100 and rulings[0].code == "bet"


def test_R48_fixed_limit_turn_bets_are_the_big_bet_and_the_cap_counts_per_street() -> None:
    # Fixed limit 50/100: small bets of 100 pre-flop and on the flop, big bets of 200 from
    # the turn; bet and three raises (the cap of 4) on each street.
    state = _to_the_flop(Variant.FLHE)
    state, _ = act(
        state, (1, "bet", 100), (2, "raise", 200), (3, "raise", 300), (1, "raise", 400)
    )
    same, rulings = try_act(state, 2, "raise", 500)
    assert same is state and rulings[0].code == "raise_cap"
    state, _ = act(state, (2, "call"), (3, "call"))
    state, _ = step(state, DealBoard(("6s",)))
    same, rulings = try_act(state, 1, "bet", 100)
    assert same is state and rulings[0].code == "below_minimum"
    state, _ = act(
        state, (1, "bet", 200), (2, "raise", 400), (3, "raise", 600), (1, "raise", 800)
    )
    same, rulings = try_act(state, 2, "raise", 1000)
    assert same is state and rulings[0].code == "raise_cap"


def test_single_only_a_short_all_in_bet_after_a_check_does_not_reopen() -> None:
    # House rule "single_only": seat 1 checks, seat 2 bets all in for 60, less than a full
    # bet; no full bet was made after seat 1 acted, so he may only call or fold.
    single = replace(TDA_2024, reopen=ReopenRule.SINGLE_ONLY)
    state, _ = start_hand(
        _setup((1, "A", 5000), (2, "B", 160), (3, "C", 5000)), single
    )
    state, _ = act(state, (3, "call"), (1, "call"), (2, "check"), rules=single)
    state, _ = step(state, DealBoard(("9h", "8d", "7c")), single)
    state, _ = act(state, (1, "check"), (2, "all_in"), (3, "call"), rules=single)
    same, rulings = try_act(state, 1, "raise", 1000, rules=single)
    assert same is state and rulings[0].code == "not_reopened"


def test_TDA24_65A_the_uncalled_part_leaves_the_street_bet_too() -> None:
    # On the river seat 1 bets 1,000 and seat 2 calls all in for 600: seat 1's bet in
    # front is 600 once the 400 went back, and the hand goes to the showdown.
    state = street_state({1: 5000, 2: 600}, button=2, street=Street.RIVER, pot=300)
    state, _ = act(state, (1, "bet", 1000), (2, "call"))
    assert state.phase is Phase.SHOWDOWN
    assert [(s.seat, s.bet, s.stack) for s in state.seats] == [(1, 600, 4400), (2, 600, 0)]


def test_R48_fixed_limit_a_short_all_in_on_the_turn_leaves_the_big_bet_as_the_raise() -> None:
    # Fixed limit 50/100: seat 2 has 150 left on the turn, where a bet is 200; his all-in
    # is no full bet, and the raise he leaves the others is still the big bet.
    state, _ = start_hand(
        replace(_setup((1, "A", 5000), (2, "B", 250), (3, "C", 5000)), variant=Variant.FLHE)
    )
    state, _ = act(state, (3, "call"), (1, "call"), (2, "check"))
    state, _ = step(state, DealBoard(("9h", "8d", "7c")))
    state, _ = act(state, (1, "check"), (2, "check"), (3, "check"))
    state, _ = step(state, DealBoard(("6s",)))
    state, rulings = act(state, (1, "check"), (2, "all_in"))
    assert rulings[-1].text == (
        "seat 2 is all in for 150: a short bet of 150, the minimum raise stays 200"
    )


def test_an_all_in_run_out_pulls_the_bets_in_before_each_card() -> None:
    """With one seat left with chips there is no betting round, but the dealer still pulls
    the bets into the pot before the flop: nothing stays "in front" of a seat."""
    state, _ = start_hand(_setup((1, "A", 1000), (2, "B", 5000), (3, "C", 5000)))
    state = _dealt(state, (1, ("As", "Ad")), (2, ("Ks", "Kd")), (3, ("Qs", "Qd")))
    state, _ = step(state, PlayerAction(3, ActionKind.FOLD))
    state, _ = step(state, PlayerAction(1, ActionKind.ALL_IN))
    state, _ = step(state, PlayerAction(2, ActionKind.CALL))
    assert [s.bet for s in state.seats] == [1000, 1000, 0]  # the call closes the round
    state, rulings = step(state, DealBoard(("2c", "7d", "9h")))
    assert rulings == () and state.street is Street.FLOP and state.phase is not Phase.BETTING
    assert [s.bet for s in state.seats] == [0, 0, 0] and state.call_to == 0
    assert [s.committed for s in state.seats] == [1000, 1000, 0]  # the chips are in the pot
    state, _ = step(state, DealBoard(("Qc",)))
    state, _ = step(state, DealBoard(("3s",)))
    assert state.phase is Phase.SHOWDOWN and [s.bet for s in state.seats] == [0, 0, 0]
