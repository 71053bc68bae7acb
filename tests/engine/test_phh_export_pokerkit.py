"""Every game's PHH export read by PokerKit, the format's reference reader (issue #30).

Hands of each game are played through the engine with seeded random legal actions
(``export_play``: bets, raises, all-ins, folds, mucks, R17-B's untabled last hand, stud's
RP-10-A/B/H), exported with ``hand_to_phh`` as the room's archive writes them, and read
back by our replay and by PokerKit (a test oracle only). Ours must end on the table's
stacks every time; PokerKit must too, never stopping short, except where the file says
why it cannot (``_phh_limits``: a mucked hand that wins a pot nobody else could, R21) or
where PokerKit's rules depart from the TDA's (docs/engine.md): stud ties of equal showing
hands it breaks by seat (RP-10-D breaks them by suit), a fixed-limit raise after a short
all-in of half a bet or more, which re-opens the betting (R47-B; PokerKit never re-opens
on a short all-in), and hi-lo awards (R20-B/C, R21: a side pot none of whose hands has a
low while a hand outside it has one, which PokerKit splits among the pot's hands; odd
chips), where PokerKit ends the hand with every chip awarded, differently.
"""

from __future__ import annotations

import random
import tomllib
import warnings
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.events import (
    ActionKind,
    DealBoard,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
    UpcardsPickedUp,
)
from pokertable.controller.engine.model import (
    AnteFormat,
    HandState,
    Level,
    Phase,
    Street,
    Variant,
)
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.engine.stud import showing_value
from pokertable.controller.history.phh import parse_hand
from pokertable.controller.history.render import (
    PHH_LIMITS,
    ExportError,
    hand_to_phh,
    position_order,
    replayed_stacks,
)
from pokertable.controller.history.replay import replay_hand
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.rules import TDA_2024
from tests.engine.export_play import BOARD_GAMES, DRAW_GAMES, STUD_GAMES, play

pytestmark = pytest.mark.needs("pokerkit")

VARIANTS = BOARD_GAMES + DRAW_GAMES + STUD_GAMES
HANDS = 60  # per game


def pokerkit_text(text: str, hand: HandState) -> str:
    """PokerKit 0.7 has no ``PO/8`` code: its one Omaha hi-lo class (``FO/8``) bets
    pot-limit, so a PO/8 file is read as FO/8 with both bet sizes the big blind (as
    ``bench/phh_corpus_hilo`` writes PokerKit's own PO/8 hands)."""
    if hand.variant is not Variant.PLO8:
        return text
    big = hand.level.big_blind
    return text.replace('variant = "PO/8"', 'variant = "FO/8"').replace(
        f"min_bet = {big}", f"small_bet = {big}\nbig_bet = {big}"
    )


def pokerkit_end(text: str) -> Any:
    """PokerKit's last state of the text, or the error that stopped it."""
    import pokerkit as pk

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no reason for this player to fold" and the like
        try:
            *_, last = pk.HandHistory.loads(text)
        except (ValueError, AssertionError, KeyError) as exc:
            return exc
    return last


def tied_showing(hand: HandState) -> bool:
    """RP-10-D: on some stud street after third, two live hands showed equal hands."""
    if not hand.variant.is_stud:
        return False
    for street, ups in ((Street.FOURTH, 2), (Street.FIFTH, 3), (Street.SIXTH, 4),
                        (Street.SEVENTH, 4)):
        folded = {a.seat for a in hand.actions if a.kind == "fold" and a.street < street}
        values = [showing_value(hand.variant, s.up[:ups]) for s in hand.seats
                  if s.seat not in folded and len(s.up) >= ups]
        if len(values) > 1 and values.count(max(values)) > 1:
            return True
    return False


def reopened_by_short_all_in(hand: HandState) -> bool:
    """A fixed-limit raise after an all-in raise short of a full bet on the same street."""
    for i, a in enumerate(hand.actions):
        if a.kind == "raise" and a.all_in:
            later = hand.actions[i + 1 :]
            if any(b.street is a.street and b.kind == "raise" for b in later):
                return True
    return False


def classify(text: str, hand: HandState) -> str:
    ours = tuple(s.stack for s in position_order(hand))
    assert replayed_stacks(text, hand.hand_id) == ours, text  # our replay: always the table's
    end = pokerkit_end(pokerkit_text(text, hand))
    if not isinstance(end, Exception) and not end.status and tuple(end.stacks) == ours:
        return "same"
    if PHH_LIMITS in tomllib.loads(text):
        return "said in _phh_limits"
    if tied_showing(hand):
        return "RP-10-D tie by suit"
    if hand.variant.betting.value == "fixed_limit" and reopened_by_short_all_in(hand):
        return "R47-B short all-in re-opened"
    split = hand.variant.hi_lo or hand.variant is Variant.STUD_HILO
    if split and not isinstance(end, Exception) and not end.status and sum(end.stacks) == sum(ours):
        return "hi-lo award"  # PokerKit's side pot without a low of its own, or odd chips
    return f"PokerKit: {end!r}" if isinstance(end, Exception) else f"PokerKit: {end.stacks}"


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.value for v in VARIANTS])
def test_pokerkit_replays_every_exported_hand_to_our_stacks(variant: Variant) -> None:
    """R17-B: a last live hand that won untabled is written after the mucks, so PokerKit
    awards it; a raise nobody can call is written as the call it is. 0 stops."""
    rng = random.Random(f"pk-export-{variant.value}")
    seen: Counter[str] = Counter()
    for number in range(HANDS):
        setup, hand = play(variant, rng)
        text = hand_to_phh(setup, hand, venue="v", table="t1", seat_count=10, number=number,
                           started_ms=None)
        outcome = classify(text, hand)
        assert not outcome.startswith("PokerKit"), f"{outcome}\n{text}"
        seen[outcome] += 1
    assert seen["same"] >= HANDS * 0.85, seen


def _setup(variant: Variant = Variant.NLHE) -> HandSetup:
    stud = variant.is_stud
    return HandSetup(
        hand_id="h", variant=variant, button=3, small_blind_seat=None if stud else 1,
        big_blind_seat=1 if stud else 2,
        level=Level(small_blind=0 if stud else 100, big_blind=200, bring_in=100 if stud else 0,
                    ante=25 if stud else 0,
                    ante_format=AnteFormat.PER_PLAYER if stud else AnteFormat.NONE),
        players=((1, "Ann", 2000), (2, "Bob", 2000), (3, "Cat", 2000)),
    )


def _run(setup: HandSetup, events: list[Any]) -> HandState:
    return _run_on(start_hand(setup)[0], events)


def _uncontested_untabled(variant: Variant = Variant.NLHE) -> tuple[HandSetup, HandState]:
    """Checked down to the river; Bob and Cat muck untabled and Ann's hand, never tabled,
    wins uncontested (R17-B)."""
    setup = replace(_setup(), variant=variant)
    holes = (("Ah", "Ad"), ("Kc", "Ks"), ("Qh", "9h"))
    if variant.omaha:
        holes = (("Ah", "Ad", "3s", "3d"), ("Kc", "Ks", "5s", "5d"), ("Qh", "9h", "6s", "6d"))
    state = _run(setup, [
        *(DealHole(n, hole) for n, hole in enumerate(holes, start=1)),
        PlayerAction(3, ActionKind.CALL), PlayerAction(1, ActionKind.CALL),
        PlayerAction(2, ActionKind.CHECK), DealBoard(("2c", "7d", "8s")),
        *(PlayerAction(n, ActionKind.CHECK) for n in (1, 2, 3)), DealBoard(("4h",)),
        *(PlayerAction(n, ActionKind.CHECK) for n in (1, 2, 3)), DealBoard(("Jc",)),
        *(PlayerAction(n, ActionKind.CHECK) for n in (1, 2, 3)), MuckHand(2), MuckHand(3),
    ])
    assert state.phase is Phase.COMPLETE and not state.seat(1).shown
    return setup, state


def test_TDA24_17B_the_last_live_hand_won_untabled_is_written_after_the_mucks() -> None:
    """PokerKit awards only a shown hand: the archive writes Ann's cards from the deal after
    the mucks, with a comment; our replay takes that show after the award as nothing, so
    she stays untabled and the award still cites R17-B."""
    setup, state = _uncontested_untabled()
    text = hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1,
                       started_ms=None)
    actions = tomllib.loads(text)["actions"]
    assert actions[-3:] == ["p2 sm", "p3 sm", "p1 sm AhAd # R17-B: won uncontested, not tabled"]
    assert PHH_LIMITS not in tomllib.loads(text)
    replayed = replay_hand(parse_hand(tomllib.loads(text), "h.phh"))
    assert not replayed.state.seat(1).shown
    assert any("TDA2024-17B" in r.rule_ids for r in replayed.rulings)
    assert replayed_stacks(text, "h.phh") == (2400, 1800, 1800)
    end = pokerkit_end(text)
    assert not end.status and tuple(end.stacks) == (2400, 1800, 1800)


@pytest.mark.parametrize("variant", [Variant.NLHE, Variant.PLO], ids=["NT", "PO"])
def test_TDA24_17B_the_public_history_keeps_the_untabled_hand_face_down(
    variant: Variant,
) -> None:
    """The public stream never shows an untabled hand: ``sm ????`` (PHH: neither shown nor
    mucked). PokerKit values a face-down hold'em hand by the board and awards it; an Omaha
    hand (two hole cards must play) it cannot award: that file says so in ``_phh_limits``."""
    setup, state = _uncontested_untabled(variant)
    text = hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1,
                       started_ms=None, public=True)
    data = tomllib.loads(text)
    hidden = "??" * variant.hole_cards
    assert data["actions"][-1] == f"p1 sm {hidden} # R17-B: won uncontested, not tabled"
    assert replayed_stacks(text, "h.phh") == (2400, 1800, 1800)  # ours still reads it
    end = pokerkit_end(text)
    if variant is Variant.NLHE:
        assert PHH_LIMITS not in data and tuple(end.stacks) == (2400, 1800, 1800)
    else:
        assert data[PHH_LIMITS][0].startswith("TDA2024-17B: p1 won uncontested without tabling")
        assert tuple(end.stacks) != (2400, 1800, 1800)


def test_TDA24_21_a_mucked_hand_that_wins_a_pot_nobody_else_could_is_named() -> None:
    """Cat, all in, tables; Ann and Bob built a side pot, Bob folded, and Ann mucks at
    the showdown: the side pot is still hers (nobody else can win it), PokerKit gives a
    mucked hand nothing, so the file says so."""
    setup = replace(_setup(), players=((1, "Ann", 2000), (2, "Bob", 2000), (3, "Cat", 300)))
    state = _run(setup, [
        DealHole(1, ("Ah", "Ad")), DealHole(2, ("Kc", "Ks")), DealHole(3, ("Qh", "9h")),
        PlayerAction(3, ActionKind.ALL_IN), PlayerAction(1, ActionKind.RAISE, 600),
        PlayerAction(2, ActionKind.CALL), DealBoard(("2c", "7d", "8s")),
        PlayerAction(1, ActionKind.BET, 400), PlayerAction(2, ActionKind.FOLD),
        DealBoard(("4h",)), DealBoard(("Jc",)), ShowHand(3), MuckHand(1),
    ])
    assert state.phase is Phase.COMPLETE and any(a.seat == 1 for a in state.awards)
    text = hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1,
                       started_ms=None)
    limits = tomllib.loads(text)[PHH_LIMITS]
    assert limits == ["TDA2024-21: p1 mucked at the showdown and still won the pot nobody "
                      "else in it could win (they folded); PokerKit gives a mucked hand nothing"]
    assert replayed_stacks(text, "h.phh") == tuple(s.stack for s in position_order(state))


def test_a_raise_nobody_can_call_is_written_as_the_call_it_is() -> None:
    """Cat is all in for 500; Dan raises to 1,000 while Ann and Bob, yet to act, have 300
    and 400 in all: only 500 of it can ever be called (the engine takes it, the rest comes
    back uncalled). PokerKit refuses such a raise, so the file says ``cc`` with a comment;
    both readers end on the table's stacks."""
    setup = replace(_setup(), button=4, players=(
        (1, "Ann", 300), (2, "Bob", 400), (3, "Cat", 500), (4, "Dan", 2000)))
    state = _run(setup, [
        DealHole(1, ("Ah", "Ad")), DealHole(2, ("Kc", "Ks")), DealHole(3, ("Qh", "9h")),
        DealHole(4, ("7c", "7s")), PlayerAction(3, ActionKind.ALL_IN),
        PlayerAction(4, ActionKind.RAISE, 1000), PlayerAction(1, ActionKind.CALL),
        PlayerAction(2, ActionKind.CALL), DealBoard(("2c", "7d", "8s")), DealBoard(("4h",)),
        DealBoard(("Jc",)), *(ShowHand(n) for n in (1, 2, 3, 4)),
    ])
    text = hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1,
                       started_ms=None)
    assert "p4 cc # raise to 1000: nobody left can call more than 500" in text
    stacks = tuple(s.stack for s in position_order(state))
    assert replayed_stacks(text, "h.phh") == stacks
    assert tuple(pokerkit_end(text).stacks) == stacks


def test_TDA24_30_a_hand_killed_at_the_deal_is_not_written_but_named() -> None:
    """R30: Cat was away when the last card landed, so her hand is killed before anyone
    acts; no PHH action says that (a reader folds a hand only in turn), so the export
    refuses with the seat and the rules rather than write a hand no reader replays."""
    setup = _setup()
    state = _run(setup, [DealHole(1, ("Ah", "Ad")), DealHole(2, ("Kc", "Ks")),
                         DealHole(3, ("Qh", "9h"))])
    state, _ = kill_hand(state, 3, TDA_2024, refund_uncalled=False)
    state = _run_on(state, [PlayerAction(1, ActionKind.CALL), PlayerAction(2, ActionKind.CHECK),
                            DealBoard(("2c", "7d", "8s")), PlayerAction(1, ActionKind.BET, 200),
                            PlayerAction(2, ActionKind.FOLD)])
    with pytest.raises(ExportError, match=r"seat 3 had his hand killed outside the turn order"
                       r" \(R30"):
        hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1, started_ms=None)


def test_TDA24_66_upcards_picked_up_facing_a_bet_is_not_written_but_named() -> None:
    """R66 (stud): Cat picks up her upcards facing Bob's completion: dead, not a fold in turn."""
    setup = _setup(Variant.STUD)
    state = _run(setup, [
        DealHole(1, ("Ah", "Ad", "9c")), DealHole(2, ("Kc", "Ks", "Kd")),
        DealHole(3, ("Qh", "9h", "5s")),
    ])
    on = state.action_on
    assert on == 3  # the 5s brings in
    state = _run_on(state, [PlayerAction(3, ActionKind.BRING_IN),
                            PlayerAction(1, ActionKind.RAISE, 200), UpcardsPickedUp(3),
                            PlayerAction(2, ActionKind.FOLD)])
    assert state.phase is Phase.COMPLETE
    with pytest.raises(ExportError, match=r"seat 3 had his hand killed .*R66"):
        hand_to_phh(setup, state, venue="v", table="t", seat_count=9, number=1, started_ms=None)


def _run_on(state: HandState, events: list[Any]) -> HandState:
    for event in events:
        state, rulings = step(state, event)
        assert not any(r.kind is RulingKind.REJECTED for r in rulings), (event, rulings)
    return state
