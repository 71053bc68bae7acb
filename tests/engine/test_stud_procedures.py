"""Stud dealing procedures and dead hands in every profile (issue #30): RP-10-A, RP-10-B,
RP-10-C with R30 and R71-C, and R66 (TDA 2011: R31, R26, R49 and the floor where 2011 has
no procedure). Each test names the rule it proves; the profiles' own rule ids are checked.
"""

from __future__ import annotations

import pytest

from pokertable.controller.engine import step
from pokertable.controller.engine.events import (
    ActionKind,
    CardExposed,
    DeadAtDeal,
    DealHole,
    KillAtDeal,
    PlayerAction,
    UpcardsPickedUp,
)
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, Street, Variant
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile
from pokertable.controller.rules.profiles import load_profile
from tests.engine.test_stud_rules import act, check_round, deal, new_hand

A = ActionKind
T11 = load_profile("tda-2011")
# The profiles whose rulebooks carry RP-10 and R30's bring-in sentence, with their prefix.
RP10 = [
    pytest.param(load_profile(name), prefix, id=name)
    for name, prefix in (
        ("tda-2024", "TDA2024"),
        ("tda-2022", "TDA2022"),
        ("clubs-nz-2022", "NZ2022"),
        ("ace-league", "ACE"),
    )
]
STUDS = [Variant.STUD, Variant.STUD_HILO, Variant.RAZZ]


def ok(state: HandState, event: object, rules: RuleProfile) -> tuple[HandState, tuple[Ruling, ...]]:
    after, rulings = step(state, event, rules)  # type: ignore[arg-type]
    assert not any(r.kind is RulingKind.REJECTED for r in rulings), rulings
    return after, rulings


def coded(rulings: tuple[Ruling, ...], code: str) -> Ruling:
    return next(r for r in rulings if r.code == code)


# --- RP-10-A: a downcard exposed on the initial deal ---------------------------------------


@pytest.mark.parametrize(("rules", "prefix"), RP10)
@pytest.mark.parametrize("variant", STUDS)
def test_rp10a_an_exposed_downcard_is_the_upcard_and_may_be_the_bring_in(
    rules: RuleProfile, prefix: str, variant: Variant
) -> None:
    """Seat 2's exposed downcard (the lowest and, in razz, the highest card out) becomes
    his upcard after third street opened on his 9c: he brings in; the 9c is down."""
    exposed = "Kc" if variant is Variant.RAZZ else "2c"
    state = new_hand(variant, {1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "As5s8d", 2: f"{exposed}Ah9c", 3: "AdKd7h"})
    state, rulings = ok(state, CardExposed(2, exposed), rules)
    ruling = coded(rulings, "exposed_downcard_up")
    assert ruling.rule_ids == (f"{prefix}-RP-10A",)
    seat = state.seat(2)
    assert seat.up == (exposed,) and "9c" in seat.hole and seat.hole[2] == exposed
    assert state.bring_in_seat == 2 and state.action_on == 2
    state = act(state, (2, A.BRING_IN, None))
    assert state.seat(2).bet == 2


@pytest.mark.parametrize(("rules", "prefix"), RP10)
def test_rp10a_exposed_before_the_last_card_of_the_deal(rules: RuleProfile, prefix: str) -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "2c5s8d"})
    state, _ = ok(state, CardExposed(1, "5s"), rules)
    assert state.seat(1).up == ("5s",) and state.phase is Phase.DEALING
    state, _ = deal(state, {2: "AdKd4h"})
    assert state.bring_in_seat == 2  # 4h below his 5s: the exposed card is his only upcard


def test_t11_r31_an_exposed_downcard_in_stud_is_a_misdeal() -> None:
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "2c5s8d", 2: "AdKd4h"})
    after, rulings = ok(state, CardExposed(1, "2c"), T11)
    assert after is state
    assert rulings[0].code == "stud_misdeal" and rulings[0].rule_ids == ("TDA2011-31",)


def test_rp10a_both_downcards_exposed_is_the_floors_decision() -> None:
    rules = load_profile("tda-2024")
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "2c5s8d", 2: "AdKd4h"})
    state, _ = ok(state, CardExposed(1, "2c"), rules)
    after, rulings = ok(state, CardExposed(1, "5s"), rules)
    assert after is state and rulings[0].kind is RulingKind.FLOOR
    assert rulings[0].options == ("misdeal", "play_on")
    assert rulings[0].rule_ids == ("TDA2024-RP-10A", "TDA2024-1")


def test_rp10a_applies_only_to_the_initial_deal_and_to_downcards() -> None:
    rules = load_profile("tda-2024")
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "2c5s8d", 2: "AdKd4h"})
    after, rulings = step(state, CardExposed(1, "8d"), rules)  # his upcard
    assert after is state and rulings[0].code == "not_a_downcard"
    state = act(state, (2, A.BRING_IN, None))
    after, rulings = step(state, CardExposed(1, "2c"), rules)
    assert after is state and rulings[0].code == "exposed_not_on_deal"


# --- RP-10-B: a card exposed on seventh street --------------------------------------------


def _third_street(stacks: dict[int, int]) -> HandState:
    """The deal these procedures start from: third street to seats 1-3, seat 2's deuce
    the bring-in."""
    state = new_hand(Variant.STUD, stacks)
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c", 3: "AdKd3c"})
    return state


def _to_sixth(stacks: dict[int, int]) -> HandState:
    state = _third_street(stacks)
    state = act(state, (2, A.BRING_IN, None), (3, A.CALL, None), (1, A.CALL, None))
    for cards in ({1: "Qc", 2: "Jc", 3: "Tc"}, {1: "3d", 2: "4d", 3: "5d"},
                  {1: "5h", 2: "6h", 3: "7h"}):
        state, _ = deal(state, cards)
        state = check_round(state)
    return state


@pytest.mark.parametrize(("rules", "prefix"), RP10)
def test_rp10b_an_exposed_seventh_card_is_replaced_with_betting_to_come(
    rules: RuleProfile, prefix: str
) -> None:
    state = _to_sixth({1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "2d", 2: "8s", 3: "9s"})  # the last card opens seventh
    assert state.street is Street.SEVENTH and state.phase is Phase.BETTING
    state, rulings = ok(state, CardExposed(3, "9s"), rules)
    assert coded(rulings, "replace_card").rule_ids == (f"{prefix}-RP-10B",)
    assert state.phase is Phase.DEALING and len(state.seat(3).hole) == 6
    after, refused = step(state, DealHole(3, ("9s",)), rules)  # out of play now
    assert after is state and refused[0].code == "duplicate_card"
    state, _ = ok(state, DealHole(3, ("Th",)), rules)
    assert state.street is Street.SEVENTH and state.seat(3).hole[-1] == "Th"
    assert state.action_on == state.opener_seat


@pytest.mark.parametrize(("rules", "prefix"), RP10)
def test_rp10b_no_betting_remains_the_card_stands_and_players_not_at_risk_expose_first(
    rules: RuleProfile, prefix: str
) -> None:
    state = _third_street({1: 100, 2: 5, 3: 100})
    state = act(state, (2, A.BRING_IN, None), (3, A.RAISE, 4), (1, A.FOLD, None),
                (2, A.CALL, None))
    assert state.seat(2).status is SeatStatus.ALL_IN
    for cards in ({2: "Jc", 3: "Tc"}, {2: "4d", 3: "5d"}, {2: "6h", 3: "7h"}):
        state, _ = deal(state, cards)
    state, _ = ok(state, DealHole(2, ("8s",)), rules)
    state, rulings = ok(state, CardExposed(2, "8s"), rules)
    assert coded(rulings, "exposed_card_stands").rule_ids == (f"{prefix}-RP-10B",)
    assert state.seat(2).hole[-1] == "8s"
    state, rulings = ok(state, DealHole(3, ("9s",)), rules)
    order = coded(rulings, "expose_order")
    assert order.rule_ids == (f"{prefix}-RP-10B",)
    assert "seat(s) 3 (not at risk) expose first, then seat(s) 2 all in" in order.text


def test_t11_an_exposed_seventh_card_is_the_floors_decision() -> None:
    state = _to_sixth({1: 100, 2: 100, 3: 100})
    state, _ = deal(state, {1: "2d", 2: "8s"})
    after, rulings = ok(state, CardExposed(2, "8s"), T11)
    assert after is state and rulings[0].kind is RulingKind.FLOOR
    assert rulings[0].options == ("replace", "card_stands")
    assert rulings[0].rule_ids == ("TDA2011-1", "TDA2011-1")
    state, rulings = ok(state, CardExposed(2, "8s", replace=True), T11)
    assert coded(rulings, "replace_card") and len(state.seat(2).hole) == 6


# --- RP-10-C, R30, R71-C: killed after the initial deal ------------------------------------


@pytest.mark.parametrize(("rules", "prefix"), RP10)
@pytest.mark.parametrize("reason", [DeadAtDeal.ABSENT, DeadAtDeal.PENALTY])
def test_rp10c_r30_r71c_a_dead_hand_keeps_its_ante_in_and_gets_no_fourth_street_card(
    rules: RuleProfile, prefix: str, reason: DeadAtDeal
) -> None:
    state = _third_street({1: 100, 2: 100, 3: 100})
    state, rulings = ok(state, KillAtDeal(1, reason), rules)
    rule = f"{prefix}-30" if reason is DeadAtDeal.ABSENT else f"{prefix}-71C"
    assert coded(rulings, "dead_hand_at_deal").rule_ids == (rule, f"{prefix}-RP-10C")
    assert state.seat(1).status is SeatStatus.FOLDED and state.seat(1).committed == 1
    state = act(state, (2, A.BRING_IN, None), (3, A.CALL, None))
    assert state.phase is Phase.DEALING
    after, refused = step(state, DealHole(1, ("Qc",)), rules)
    assert after is state and refused[0].code == "dead_hand"
    assert refused[0].rule_ids == (f"{prefix}-RP-10C",)
    state, _ = deal(state, {2: "Jc", 3: "Tc"})
    assert state.street is Street.FOURTH and state.pot_total == 3 + 2 + 2


@pytest.mark.parametrize(("rules", "prefix"), RP10)
@pytest.mark.parametrize("reason", [DeadAtDeal.ABSENT, DeadAtDeal.PENALTY])
def test_r30_r71c_a_dead_hand_dealt_the_bring_in_card_posts_the_bring_in(
    rules: RuleProfile, prefix: str, reason: DeadAtDeal
) -> None:
    state = _third_street({1: 100, 2: 100, 3: 100})
    state, rulings = ok(state, KillAtDeal(2, reason), rules)
    assert coded(rulings, "bring_in").rule_ids == (f"{prefix}-RP-10E",)
    assert state.seat(2).stack == 100 - 1 - 2 and state.seat(2).status is SeatStatus.FOLDED
    assert state.call_to == 2 and state.action_on == 3
    state = act(state, (3, A.CALL, None), (1, A.CALL, None))  # they call the dead bring-in
    assert state.phase is Phase.DEALING and state.pot_total == 3 + 6


def test_t11_r26_who_brings_in_for_a_dead_hand_is_the_floors_decision() -> None:
    state = _third_street({1: 100, 2: 100, 3: 100})
    after, rulings = ok(state, KillAtDeal(2, DeadAtDeal.ABSENT), T11)
    assert after is state and rulings[0].kind is RulingKind.FLOOR
    assert rulings[0].options == ("posts_bring_in", "next_low_card_brings_in")
    assert rulings[0].rule_ids == ("TDA2011-26", "TDA2011-1")
    state, rulings = ok(state, KillAtDeal(2, DeadAtDeal.ABSENT, posts_bring_in=False), T11)
    assert state.seat(2).committed == 1 and state.bring_in_seat == 3 and state.action_on == 3
    assert coded(rulings, "dead_hand_at_deal").rule_ids == ("TDA2011-26", "TDA2011-26")


def test_rp10c_a_hand_is_killed_for_the_deal_only_before_he_acts() -> None:
    rules = load_profile("tda-2024")
    state = _third_street({1: 100, 2: 100, 3: 100})
    state = act(state, (2, A.BRING_IN, None))
    after, rulings = step(state, KillAtDeal(2, DeadAtDeal.ABSENT), rules)
    assert after is state and rulings[0].code == "not_at_deal"


# --- R66: picking up the upcards ------------------------------------------------------------


PROFILES_66 = [*RP10, pytest.param(T11, "TDA2011", id="tda-2011")]


@pytest.mark.parametrize(("rules", "prefix"), PROFILES_66)
def test_r66_picking_up_the_upcards_facing_a_bet_kills_the_hand(
    rules: RuleProfile, prefix: str
) -> None:
    state = _third_street({1: 100, 2: 100, 3: 100})
    state = act(state, (2, A.BRING_IN, None))
    rule = f"{prefix}-49" if rules is T11 else f"{prefix}-66"
    # seat 1 faces the bring-in though seat 3 is on the action
    state, rulings = ok(state, UpcardsPickedUp(1), rules)
    assert coded(rulings, "dead_hand").rule_ids == (rule,)
    assert state.seat(1).status is SeatStatus.FOLDED and state.action_on == 3
    state, rulings = ok(state, UpcardsPickedUp(3), rules)  # on the action: dead too
    assert state.phase is Phase.COMPLETE and state.awards[0].seat == 2


@pytest.mark.parametrize(("rules", "prefix"), PROFILES_66)
def test_r66_not_facing_action_the_hand_stays_live_and_on_the_action_the_floor_decides(
    rules: RuleProfile, prefix: str
) -> None:
    rule = f"{prefix}-49" if rules is T11 else f"{prefix}-66"
    state = new_hand(Variant.STUD, {1: 100, 2: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c"})
    state = act(state, (2, A.BRING_IN, None), (1, A.CALL, None))
    state, _ = deal(state, {1: "Qc", 2: "Jc"})
    opener = state.action_on or 0
    other = 3 - opener
    after, rulings = ok(state, UpcardsPickedUp(other), rules)  # nothing to call yet
    assert after is state and rulings[0].code == "upcards_picked_up"
    assert rulings[0].kind is RulingKind.INFO and rulings[0].rule_ids == (rule,)
    after, rulings = ok(state, UpcardsPickedUp(opener), rules)
    assert after is state and rulings[0].kind is RulingKind.FLOOR
    assert rulings[0].options == ("dead_hand", "hand_live")
    state, rulings = ok(state, UpcardsPickedUp(opener, dead=True), rules)
    assert state.phase is Phase.COMPLETE and state.awards[0].seat == other


def test_r66_a_stud_procedure_in_a_board_game_is_refused() -> None:
    from pokertable.controller.engine import HandSetup, start_hand
    from pokertable.controller.engine.model import Level

    setup = HandSetup(hand_id="h", variant=Variant.NLHE, level=Level(small_blind=1,
                      big_blind=2), button=2, small_blind_seat=1, big_blind_seat=2,
                      players=((1, "a", 100), (2, "b", 100)))
    state, _ = start_hand(setup)
    after, rulings = step(state, UpcardsPickedUp(1))
    assert after is state and rulings[0].code == "not_stud"
    after, rulings = step(state, PlayerAction(1, A.CALL))
    assert after is not state


def test_rp10e_r30_the_bring_in_all_in_for_the_ante_and_the_player_on_his_left_absent() -> None:
    """RP-10-E starts the action on the all-in low card's left; that player's hand is dead
    (R30), so the next player must bring in or complete (or fold)."""
    rules = load_profile("tda-2024")
    state = new_hand(Variant.STUD, {1: 100, 2: 1, 3: 100, 4: 100})
    state, _ = deal(state, {1: "AsKs9d", 2: "AhKh2c", 3: "AdKd9c", 4: "QdQs8h"})
    assert state.bring_in_seat == 2 and state.action_on == 3
    state, rulings = ok(state, KillAtDeal(3, DeadAtDeal.ABSENT), rules)
    assert not any(r.code == "bring_in" for r in rulings)  # he did not have the low card
    assert state.action_on == 4 and state.seat(3).committed == 1
    after, refused = step(state, PlayerAction(4, A.CHECK), rules)
    assert after is state and refused[0].code == "bring_in_required"
    state = act(state, (4, A.BRING_IN, None), (1, A.CALL, None))
    assert state.phase is Phase.DEALING
