"""Draw games in the engine (issue #30): the draws in turn, the house rules of the profile
(R35-A7: "House rules apply for draw games"), the stub reshuffled face down (R39-D) and
limping (RP-17)."""

from __future__ import annotations

import dataclasses

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.events import (
    ActionKind,
    CardExposed,
    DealHole,
    Discard,
    Event,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import (
    HandState,
    Level,
    Phase,
    Street,
    Variant,
    game_named,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import TDA_2024, DrawExposedCard, DrawLimping, RuleProfile

DECK = [r + s for r in RANKS for s in SUITS]


def _hand(variant: Variant, players: int, rules: RuleProfile = TDA_2024) -> HandState:
    """Blinds 1/2, the button on the last seat, five cards (badugi four) each from DECK."""
    setup = HandSetup(
        hand_id="draw", variant=variant, level=Level(small_blind=1, big_blind=2),
        button=players, small_blind_seat=1, big_blind_seat=2,
        players=tuple((n, f"p{n}", 500) for n in range(1, players + 1)),
    )
    state, _ = start_hand(setup, rules)
    k = variant.hole_cards
    for n in range(1, players + 1):
        state = ok(state, DealHole(n, tuple(DECK[(n - 1) * k : n * k])), rules)[0]
    return state


def ok(state: HandState, event: Event, rules: RuleProfile = TDA_2024) -> tuple[
        HandState, tuple[Ruling, ...]]:
    new, rulings = step(state, event, rules)
    assert not [r for r in rulings if r.kind is RulingKind.REJECTED], rulings
    return new, rulings


def refused(state: HandState, event: Event, rules: RuleProfile = TDA_2024) -> Ruling:
    new, rulings = step(state, event, rules)
    assert new is state and rulings[0].kind is RulingKind.REJECTED, rulings
    return rulings[0]


def _limp_round(state: HandState, rules: RuleProfile = TDA_2024) -> HandState:
    """Everybody calls the big blind, the big blind checks."""
    while state.phase is Phase.BETTING and state.street is Street.PREFLOP:
        on = state.action_on
        assert on is not None
        kind = ActionKind.CHECK if state.call_to == state.seat(on).bet else ActionKind.CALL
        state = ok(state, PlayerAction(on, kind), rules)[0]
    return state


def test_R35A7_draws_in_turn_from_the_left_of_the_button_then_the_small_bet() -> None:
    state = _limp_round(_hand(Variant.TRIPLE_DRAW_27, 3))
    assert state.phase is Phase.DEALING and state.draw is not None
    assert state.draw.order == (1, 2, 3) and state.draw.stub == 52 - 15 - 1  # one burn (R38)
    wrong = refused(state, Discard(2, ()))
    assert wrong.code == "out_of_turn" and wrong.rule_ids == ("TDA2024-35A7",)
    state, rulings = ok(state, Discard(1, tuple(DECK[0:2])))
    assert rulings[0].rule_ids == ("TDA2024-35A7",) and "draws 2" in rulings[0].text
    state = ok(state, Discard(2, ()))[0]
    state = ok(state, Discard(3, (DECK[10],)))[0]
    assert refused(state, DealHole(1, (DECK[0], DECK[20]))).code == "card_not_in_stub"
    assert refused(state, DealHole(1, (DECK[20],))).code == "card_count"
    state = ok(state, DealHole(3, (DECK[22],)))[0]  # served in any order once declared
    state = ok(state, DealHole(1, tuple(DECK[20:22])))[0]
    assert state.phase is Phase.BETTING and state.street is Street.FLOP
    assert state.action_on == 1 and state.increment == 2  # the small bet after draw one
    assert state.seat(1).hole == (*DECK[2:5], *DECK[20:22])


def test_R35A7_change_of_mind_until_served_is_a_house_rule() -> None:
    state = _limp_round(_hand(Variant.BADUGI, 3))
    state = ok(state, Discard(1, tuple(DECK[0:2])))[0]
    changed, rulings = ok(state, Discard(1, (DECK[0],)))
    assert "changes his draw" in rulings[0].text and set(changed.seat(1).hole) == set(DECK[1:4])
    binding = dataclasses.replace(TDA_2024, draw_change_of_mind=False)
    assert refused(state, Discard(1, (DECK[0],)), binding).code == "draw_declared"


def test_RP17_limping_allowed_and_the_house_rule_forbidding_it_in_triple_draw() -> None:
    no_limp = dataclasses.replace(TDA_2024, draw_limping=DrawLimping.SINGLE_DRAW_ONLY)
    triple = _hand(Variant.TRIPLE_DRAW_27, 3, no_limp)
    ruling = refused(triple, PlayerAction(3, ActionKind.CALL), no_limp)
    assert ruling.code == "no_limping" and ruling.rule_ids == ("TDA2024-RP-17",)
    ok(triple, PlayerAction(3, ActionKind.RAISE, 4), no_limp)
    single = _hand(Variant.SINGLE_DRAW_27, 3, no_limp)
    ok(single, PlayerAction(3, ActionKind.CALL), no_limp)  # RP-17: single draw limps
    ok(triple, PlayerAction(3, ActionKind.CALL))  # TDA 2024: allowed


def _short_stub(rules: RuleProfile) -> HandState:
    """Six players, 30 cards dealt, one burned: seats 1-4 draw five each, one card left."""
    state = _limp_round(_hand(Variant.TRIPLE_DRAW_27, 6, rules), rules)
    for n in range(1, 5):
        state = ok(state, Discard(n, tuple(DECK[(n - 1) * 5 : n * 5])), rules)[0]
        state = ok(state, DealHole(n, tuple(DECK[25 + n * 5 : 30 + n * 5])), rules)[0]
    assert state.draw is not None and state.draw.stub == 1
    return ok(state, Discard(5, (DECK[20],)), rules)[0]


def test_R39D_a_short_stub_takes_in_the_discards_but_not_the_drawers_own() -> None:
    state = _short_stub(TDA_2024)  # the last card is not dealt: reshuffle for one card
    assert refused(state, DealHole(5, (DECK[20],))).code == "card_not_in_stub"  # his own
    state, rulings = ok(state, DealHole(5, (DECK[0],)))  # seat 1's discard came back
    assert rulings[0].code == "draw_reshuffle"
    assert rulings[0].rule_ids == ("TDA2024-39D", "TDA2024-35A7")
    assert state.draw is not None and state.draw.stub == 1 + 20 - 1


def test_R35A7_the_last_card_of_the_stub_may_be_dealt_where_the_house_says_so() -> None:
    last = dataclasses.replace(TDA_2024, draw_last_card_dealt=True)
    state = _short_stub(last)
    assert refused(state, DealHole(5, (DECK[0],)), last).code == "card_not_in_stub"
    state, rulings = ok(state, DealHole(5, (DECK[51],)), last)
    assert not rulings and state.draw is not None and state.draw.stub == 0


def test_single_draw_has_two_betting_rounds_and_the_lowest_hand_wins() -> None:
    state = _limp_round(_hand(Variant.SINGLE_DRAW_27, 3))
    for n in (1, 2, 3):
        state = ok(state, Discard(n, ()))[0]
    assert state.phase is Phase.BETTING and state.street is Street.FLOP
    for n in (1, 2, 3):
        state = ok(state, PlayerAction(n, ActionKind.CHECK))[0]
    assert state.phase is Phase.SHOWDOWN  # no second draw in single draw
    for n in (1, 2, 3):
        state = ok(state, ShowHand(n))[0]
    # 2-2-2-2-3 (quads), 4-4-3-3-3 and 5-5-5-4-4 (full houses): the lowest high hand wins.
    assert state.phase is Phase.COMPLETE
    assert [(a.seat, a.amount) for a in state.awards] == [(2, 6)]
    assert "full house" in state.awards[0].hand_name


def test_a_live_table_deals_the_draw_games_by_name() -> None:
    """A structure of an 8-game mix may name F2L3D, N2L1D and FB: the live table deals
    them (tests/app/test_session_draw.py); a typo is still refused by name."""
    for code in ("F2L3D", "N2L1D", "FB"):
        assert game_named(code, "level 4").is_draw
    with pytest.raises(ValueError, match="level 4: unknown game 'F2L3X'"):
        game_named("F2L3X", "level 4")


def test_R35A7_no_draw_while_the_betting_is_open_and_no_cards_before_it() -> None:
    state = _hand(Variant.TRIPLE_DRAW_27, 3)
    assert refused(state, Discard(3, (DECK[10],))).code == "no_draw"
    assert refused(state, DealHole(1, (DECK[40],))).code == "already_dealt"
    state = _limp_round(state)
    state = ok(state, Discard(1, ()))[0]
    state = ok(state, Discard(2, (DECK[5],)))[0]
    state = ok(state, Discard(3, ()))[0]
    state = ok(state, DealHole(2, (DECK[40],)))[0]
    assert state.phase is Phase.BETTING
    early = refused(state, DealHole(2, (DECK[41],)))  # the next draw's card, during betting
    assert early.code == "premature_card" and early.rule_ids == ("TDA2024-RP-5",)


def test_R35A7_a_folded_hand_does_not_draw_and_a_change_to_stand_pat_is_served_nothing() -> None:
    state = _hand(Variant.BADUGI, 4)
    state = ok(state, PlayerAction(3, ActionKind.FOLD))[0]
    state = _limp_round(state)
    assert state.draw is not None and state.draw.order == (1, 2, 4)
    state = ok(state, Discard(1, (DECK[0],)))[0]
    state = ok(state, Discard(1, ()))[0]  # changed his mind: stands pat
    assert state.draw is not None and state.draw.owed == ()
    assert sorted(state.seat(1).hole) == sorted(DECK[0:4])
    state = ok(state, Discard(2, ()))[0]
    state = ok(state, Discard(4, ()))[0]
    assert state.phase is Phase.BETTING and state.street is Street.FLOP


def test_R39D_pokerkit_house_rule_reshuffles_every_card_outside_the_live_hands() -> None:
    """``all_not_in_play``: the drawer's own discards and the burns come back too."""
    from pokertable.controller.rules import DrawReshuffle

    everything = dataclasses.replace(
        TDA_2024, draw_reshuffle=DrawReshuffle.ALL_NOT_IN_PLAY, draw_last_card_dealt=True
    )
    state = _short_stub(everything)
    state = ok(state, Discard(6, (DECK[25], DECK[26])), everything)[0]
    state = ok(state, DealHole(5, (DECK[51],)), everything)[0]  # the last card: no reshuffle
    state, rulings = ok(state, DealHole(6, (DECK[25], DECK[50])), everything)  # his own back
    assert rulings[0].code == "draw_reshuffle"


@pytest.mark.parametrize("face_up", [True, False])
def test_R16_all_in_before_the_draw_face_up_or_down_until_the_last_draw(face_up: bool) -> None:
    """R16 as written tables the hands before the draws; the house may keep them down
    (``draw_face_up_before_draws``, R35-A7) and R16 then applies after the last round."""
    rules = dataclasses.replace(TDA_2024, draw_face_up_before_draws=face_up)
    state = _hand(Variant.SINGLE_DRAW_27, 3, rules)
    state = ok(state, PlayerAction(3, ActionKind.FOLD), rules)[0]
    state = ok(state, PlayerAction(1, ActionKind.ALL_IN), rules)[0]
    state, rulings = ok(state, PlayerAction(2, ActionKind.CALL), rules)
    tabled = [r for r in rulings if r.code == "face_up"]
    assert state.phase is Phase.DEALING and state.face_up is face_up
    assert [r.rule_ids for r in tabled] == ([("TDA2024-16",)] if face_up else [])
    state = ok(state, Discard(1, ()), rules)[0]
    state, rulings = ok(state, Discard(2, ()), rules)
    assert state.phase is Phase.SHOWDOWN and state.face_up
    assert bool([r for r in rulings if r.code == "face_up"]) is not face_up


def test_R35A7_exposed_draw_card_goes_to_the_muck_and_is_replaced_after_the_others() -> None:
    """House rules (R35-A7, ``draw_exposed_card``): a card the dealer exposes on its way to
    a drawing player came off the stub and is dead; he is served after every other player."""
    state = _limp_round(_hand(Variant.TRIPLE_DRAW_27, 3))
    state = ok(state, Discard(1, (DECK[0],)))[0]
    assert state.draw is not None
    stub = state.draw.stub
    state, rulings = ok(state, CardExposed(1, DECK[20]))
    assert rulings[0].code == "draw_exposed_replaced"
    assert rulings[0].rule_ids == ("TDA2024-35A7",)
    assert state.draw is not None and state.draw.stub == stub - 1 and state.draw.last == (1,)
    assert refused(state, DealHole(1, (DECK[21],))).code == "served_last"
    state = ok(state, Discard(2, ()))[0]
    state = ok(state, Discard(3, (DECK[10],)))[0]
    assert refused(state, DealHole(1, (DECK[21],))).code == "served_last"  # seat 3 waits
    state = ok(state, DealHole(3, (DECK[22],)))[0]
    assert refused(state, DealHole(1, (DECK[20],))).code == "card_not_in_stub"  # it is dead
    state = ok(state, DealHole(1, (DECK[21],)))[0]
    assert state.phase is Phase.BETTING and state.seat(1).hole == (*DECK[1:5], DECK[21])


def test_R35A7_exposed_card_already_dealt_is_taken_back_until_someone_acts() -> None:
    state = _limp_round(_hand(Variant.TRIPLE_DRAW_27, 3))
    state = ok(state, Discard(1, ()))[0]
    state = ok(state, Discard(2, ()))[0]
    state = ok(state, Discard(3, (DECK[10],)))[0]
    state = ok(state, DealHole(3, (DECK[20],)))[0]
    assert state.phase is Phase.BETTING  # the draw closed on his card
    state = ok(state, CardExposed(3, DECK[20]))[0]
    assert (state.phase, state.street) == (Phase.DEALING, Street.PREFLOP)
    assert state.draw is not None and state.draw.owed == ((3, (DECK[20],)),)
    assert DECK[20] not in state.seat(3).hole
    state = ok(state, DealHole(3, (DECK[21],)))[0]
    assert (state.phase, state.street) == (Phase.BETTING, Street.FLOP)
    assert state.draw is not None and (1, 3, "dh", (DECK[21],)) in state.draw.log
    assert not [e for e in state.draw.log if DECK[20] in e[3] and e[2] == "dh"]
    state = ok(state, PlayerAction(1, ActionKind.CHECK))[0]
    assert refused(state, CardExposed(3, DECK[21])).code == "not_drawing"  # it stands now


def test_R35A7_house_that_leaves_an_exposed_draw_card_to_the_floor() -> None:
    house = dataclasses.replace(TDA_2024, draw_exposed_card=DrawExposedCard.FLOOR)
    state = _limp_round(_hand(Variant.BADUGI, 3, house), house)
    state = ok(state, Discard(1, (DECK[0],)), house)[0]
    same, rulings = step(state, CardExposed(1, DECK[20]), house)
    assert same == state and rulings[0].kind is RulingKind.FLOOR
    assert rulings[0].options == ("replace", "keep") and rulings[0].code == "draw_exposed"
    kept, rulings = ok(state, CardExposed(1, DECK[20], replace=False), house)
    assert rulings[0].code == "draw_exposed_kept"
    assert kept.draw is not None and kept.draw.last == ()
    replaced = ok(state, CardExposed(1, DECK[20], replace=True), house)[0]
    assert replaced.draw is not None and replaced.draw.last == (1,)


def test_R35A7_phh_sd_reads_a_stand_pat_and_discards() -> None:
    """PHH's ``sd``: no cards stands pat, cards are the discards (a draw's every player);
    an unknown card or player is named with the place, as for any action."""
    from pokertable.controller.history.phh import PhhError, to_event

    assert to_event("p2 sd", 3, "here", 0) == Discard(2, ())
    assert to_event("p1 sd 7c8dKh # a comment", 3, "here", 0) == Discard(1, ("7c", "8d", "Kh"))
    assert to_event("p3 sd 2c3d4h5s6c", 3, "here", 0) == Discard(3, ("2c", "3d", "4h", "5s", "6c"))
    for bad, why in (("p1 sd 7c??", "must be known"), ("p1 sd 7c8", "cannot read"),
                     ("p1 sd 1c", "unknown card"), ("p1 sd 7x", "unknown card"),
                     ("p4 sd", "not a player")):
        with pytest.raises(PhhError, match=f"here: .*{why}"):
            to_event(bad, 3, "here", 0)
