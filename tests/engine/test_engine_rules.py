"""Engine behaviour by rule: pot limit (R54), fixed limit (R47-B, R48), odd chips (R20-A),
all-in face up (R16), uncalled bets, big-blind ante, heads-up order, determinism."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.engine import HandSetup, betting, start_hand, step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import (
    AnteFormat,
    Level,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    Variant,
)
from pokertable.controller.engine.pots import build_pots, split_pot
from pokertable.controller.rules import TDA_2024, PotLimitPreflopBlinds, RuleProfile
from tests.engine.helpers import act, codes, options, play, preflop, street_state, try_act

PLO = Level(small_blind=100, big_blind=200)


def test_TDA24_54B_EX1_plo_dead_small_blind_pot_bet_700() -> None:
    state = preflop(
        {2: 10_000, 3: 10_000, 4: 10_000, 5: 10_000},
        button=5,
        sb=None,
        bb=2,
        level=PLO,
        variant=Variant.PLO,
    )
    opts = options(state)
    assert opts.seat == 3 and opts.max_to == 700


def test_TDA24_54B_EX2_plo_short_all_in_big_blind_pot_bet_700() -> None:
    state = preflop(
        {1: 10_000, 2: 100, 3: 10_000, 4: 10_000},
        button=4,
        sb=1,
        bb=2,
        level=PLO,
        variant=Variant.PLO,
    )
    assert state.seat(2).status is SeatStatus.ALL_IN
    opts = options(state)
    assert opts.seat == 3 and opts.max_to == 700


def test_pot_limit_profile_without_the_assumption_counts_actual_chips() -> None:
    rules = RuleProfile(pot_limit_preflop_blinds=PotLimitPreflopBlinds.ACTUAL)
    state = preflop(
        {2: 10_000, 3: 10_000, 4: 10_000, 5: 10_000},
        button=5,
        sb=None,
        bb=2,
        level=PLO,
        variant=Variant.PLO,
        rules=rules,
    )
    assert options(state, rules).max_to == 600  # 200 + (200 pot + 200 call)


def test_pot_limit_overbet_is_rejected_with_rule_54() -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3, pot=600, variant=Variant.PLO)
    state, _ = act(state, (1, "bet", 600))
    opts = options(state)
    assert opts.max_to == 600 + (1200 + 600)  # call 600 then raise the pot of 1,800
    same, rulings = try_act(state, 2, "raise", 2500)
    assert same is state and rulings[0].code == "above_maximum"
    assert rulings[0].rule_ids == ("TDA2024-54",)


def test_fixed_limit_raise_size_and_cap_R48() -> None:
    level = Level(small_blind=50, big_blind=100)
    state = preflop(
        {1: 5000, 2: 5000, 3: 5000}, button=3, sb=1, bb=2, level=level, variant=Variant.FLHE
    )
    assert options(state).min_to == options(state).max_to == 200
    _, rulings = try_act(state, 3, "raise", 300)
    assert rulings[0].code == "above_maximum"
    state, _ = act(
        state, (3, "raise", 200), (1, "raise", 300), (2, "raise", 400), (3, "raise", 500)
    )
    opts = options(state)
    assert opts.seat == 1 and not opts.can_raise  # four voluntary bets: capped
    _same, rulings = try_act(state, 1, "raise", 600)
    assert rulings[0].code == "raise_cap" and rulings[0].rule_ids == ("TDA2024-48",)


def test_fixed_limit_half_bet_all_in_reopens_R47B() -> None:
    state = street_state({1: 5000, 2: 150, 3: 5000}, button=3, big_blind=100, variant=Variant.FLHE)
    state, _ = act(state, (1, "bet", 100), (2, "all_in"), (3, "call"))
    opts = options(state)
    assert opts.seat == 1 and opts.reopened and opts.min_to == 250  # 50 >= half of 100


def test_uncalled_bet_is_returned_and_pot_awarded_uncontested() -> None:
    state = street_state({1: 5000, 2: 5000}, button=2, pot=400)
    state, rulings = act(state, (1, "bet", 1000), (2, "fold"))
    assert state.phase is Phase.COMPLETE
    assert state.returned == ((1, 1000),)
    assert state.seat(1).stack == 5000 + 400
    assert "uncalled_returned" in codes(rulings) and "pot_awarded" in codes(rulings)


def test_fold_when_check_is_free_binds_R58() -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3)
    state, rulings = act(state, (1, "fold"))
    assert rulings[0].code == "nonstandard_fold" and rulings[0].rule_ids == ("TDA2024-58",)
    assert state.seat(1).status is SeatStatus.FOLDED


def test_check_facing_a_bet_is_refused_R55() -> None:
    state = street_state({1: 5000, 2: 5000}, button=2)
    state, _ = act(state, (1, "bet", 300))
    same, rulings = try_act(state, 2, "check")
    assert same is state and rulings[0].rule_ids == ("TDA2024-55",)


def test_out_of_turn_action_is_refused_by_the_core_engine() -> None:
    state = street_state({1: 5000, 2: 5000, 3: 5000}, button=3)
    same, rulings = try_act(state, 3, "bet", 300)
    assert same is state and rulings[0].code == "out_of_turn"


def _showdown(state, holes, board):
    for seat, cards in holes.items():
        state, _ = step(state, DealHole(seat, cards))
    while len(state.board) < 5:
        n = 3 if not state.board else 1
        state = play(state, DealBoard(board[len(state.board) : len(state.board) + n]))
        while state.phase is Phase.BETTING:
            state = play(state, PlayerAction(state.action_on, ActionKind.CHECK))
    for seat in holes:
        if state.phase is Phase.SHOWDOWN:
            state, _ = step(state, ShowHand(seat))
    return state


def test_odd_chip_goes_to_first_tied_seat_left_of_button_R20A() -> None:
    state = preflop(
        {1: 1000, 2: 1000, 3: 1000}, button=2, sb=3, bb=1, level=Level(small_blind=25, big_blind=50)
    )
    state, _ = act(state, (2, "raise", 101), (3, "fold"), (1, "call"))  # pot 101+101+25 = 227
    board = ("As", "Ks", "Qd", "Jc", "Tc")  # both play the board straight
    state = _showdown(state, {1: ("2c", "3d"), 2: ("4h", "5h")}, board)
    assert state.phase is Phase.COMPLETE
    # Seat 3 (first left of the button) folded, so seat 1 is the first tied seat: odd chip.
    assert {a.seat: a.amount for a in state.awards} == {1: 114, 2: 113}


def test_odd_chip_with_odd_pot() -> None:
    assert split_pot(253, [2, 1], 1) == ((2, 127), (1, 126))  # seat 2 is left of button 1


def test_all_in_face_up_at_once_when_no_more_betting_R16() -> None:
    state = preflop({1: 1000, 2: 4000, 3: 6000}, button=1, sb=2, bb=3)
    state, _ = act(state, (1, "all_in"), (2, "call"), (3, "call"))
    assert not state.face_up and state.phase is Phase.DEALING  # B and C still have chips
    state, _ = step(state, DealBoard(("2c", "7d", "9s")))
    state, _ = act(state, (2, "check"), (3, "check"))
    state, _ = step(state, DealBoard(("Jh",)))
    state, rulings = act(state, (2, "all_in"), (3, "call"))
    assert state.face_up and "face_up" in codes(rulings)
    assert [p.amount for p in build_pots(state.seats)] == [3000, 6000]


def test_big_blind_ante_big_blind_first_for_a_short_stack_RP11() -> None:
    level = Level(small_blind=100, big_blind=200, ante=200, ante_format=AnteFormat.BIG_BLIND_ANTE)
    state = preflop({1: 5000, 2: 300, 3: 5000}, button=3, sb=1, bb=2, level=level)
    bb = state.seat(2)
    assert (bb.bet, bb.dead, bb.stack) == (200, 100, 0)  # blind first, remainder to the ante
    from pokertable.controller.rules import BbaShortOrder

    ante_first = RuleProfile(bba_short_order=BbaShortOrder.ANTE_FIRST)
    state = preflop({1: 5000, 2: 300, 3: 5000}, button=3, sb=1, bb=2, level=level, rules=ante_first)
    bb = state.seat(2)
    assert (bb.bet, bb.dead, bb.stack) == (100, 200, 0)


def test_heads_up_big_blind_acts_first_after_the_flop_R34B() -> None:
    state = preflop({1: 5000, 2: 5000}, button=2, sb=2, bb=1)
    assert state.action_on == 2
    state, _ = act(state, (2, "call"), (1, "check"))
    state, _ = step(state, DealBoard(("2c", "7d", "9s")))
    assert state.street is Street.FLOP and state.action_on == 1


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5000), st.integers(0, 300), st.booleans(), st.booleans()),
        min_size=2,
        max_size=9,
    )
)
def test_pots_conserve_every_chip(rows) -> None:
    seats = [
        SeatState(
            i + 1,
            f"p{i}",
            0 if all_in else 100,
            committed=c + d,
            dead=d,
            status=SeatStatus.FOLDED
            if folded and i
            else (SeatStatus.ALL_IN if all_in else SeatStatus.LIVE),
        )
        for i, (c, d, folded, all_in) in enumerate(rows)
    ]
    pots = build_pots(seats)
    assert sum(p.amount for p in pots) == sum(s.committed for s in seats)
    live = {s.seat for s in seats if s.in_hand}
    for pot in pots:
        assert set(pot.eligible) <= live and pot.eligible


@settings(max_examples=50, deadline=None)
@given(st.randoms(use_true_random=False))
def test_same_events_give_the_same_state(rnd) -> None:
    setup = HandSetup(
        hand_id="d",
        variant=Variant.NLHE,
        level=Level(small_blind=1, big_blind=2),
        button=4,
        small_blind_seat=1,
        big_blind_seat=2,
        players=tuple((s, f"p{s}", rnd.randint(5, 400)) for s in range(1, 5)),
    )
    state, _ = start_hand(setup)
    events = []
    while state.phase is Phase.BETTING:
        opts = betting.options_for(state, TDA_2024)
        assert opts is not None
        choice = rnd.choice(["fold", "call", "raise"] if opts.can_raise else ["fold", "call"])
        if choice == "raise":
            ev = PlayerAction(opts.seat, ActionKind.RAISE, rnd.randint(opts.min_to, opts.max_to))
        else:
            ev = PlayerAction(opts.seat, ActionKind(choice))
        events.append(ev)
        state = play(state, ev)  # what options_for offers is accepted
    again, _ = start_hand(setup)
    for ev in events:
        again, _ = step(again, ev)
    assert again == state
