"""A stud hand the engine played exports to PHH and replays to the same stacks (issue #30).

The hands are played through the engine itself with seeded random legal actions (bring-ins,
completions, raises to the cap, folds, all-ins, mucks), some with a downcard exposed on the
deal (RP-10-A) or a seventh-street card exposed and replaced (RP-10-B), and the short
stub's community card (RP-10-H). ``hand_to_phh`` writes each; ``replayed_stacks`` replays
the text through ``history.phh`` and the engine: the finishing stacks must be identical.
"""

from __future__ import annotations

import random
import tomllib
from pathlib import Path

import pytest

from pokertable.controller.engine import HandSetup, start_hand, step
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import (
    ActionKind,
    CardExposed,
    DealBoard,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import AnteFormat, HandState, Level, Phase, Variant
from pokertable.controller.engine.rulings import RulingKind
from pokertable.controller.history.phh import load_hands
from pokertable.controller.history.render import hand_to_phh, replayed_stacks
from pokertable.controller.history.replay import replay_hand

A = ActionKind
VARIANTS = [Variant.STUD, Variant.STUD_HILO, Variant.RAZZ]
HANDS = 60  # per variant


def _ok(state: HandState, event: object) -> tuple[HandState, bool]:
    after, rulings = step(state, event)  # type: ignore[arg-type]
    return after, not any(r.kind is RulingKind.REJECTED for r in rulings)


def _deal_street(state: HandState, deck: list[str], rng: random.Random) -> HandState:
    third = state.bring_in_seat is None
    live = [s.seat for s in state.seats if s.in_hand]
    if not third and _short_stub(state, deck, live):
        state, _ = _ok(state, DealBoard((deck.pop(),)))
        return state
    spare = len(deck) - len(live) * (3 if third else 1)  # cards for replacements
    for seat in live:
        cards = tuple(deck.pop() for _ in range(3 if third else 1))
        state, accepted = _ok(state, DealHole(seat, cards))
        assert accepted
        if third and rng.random() < 0.1:  # RP-10-A: the dealer exposed a downcard
            state, accepted = _ok(state, CardExposed(seat, cards[rng.randrange(2)]))
            assert accepted
        if len(state.seat(seat).hole) == 7 and spare > 0 and rng.random() < 0.15:  # RP-10-B
            state, accepted = _ok(state, CardExposed(seat, cards[0]))
            if len(state.seat(seat).hole) == 6:  # replaced: deal him another card down
                state, accepted = _ok(state, DealHole(seat, (deck.pop(),)))
                assert accepted
                spare -= 1
    return state


def _short_stub(state: HandState, deck: list[str], live: list[int]) -> bool:
    """RP-10-H: seventh street, and the stub cannot give every live player a card."""
    return all(len(state.seat(s).hole) == 6 for s in live) and len(deck) < len(live)


def _act(state: HandState, rng: random.Random, passive: bool = False) -> HandState:
    seat = state.action_on
    assert seat is not None
    to = state.call_to + state.increment
    choices = [
        PlayerAction(seat, A.BRING_IN),
        PlayerAction(seat, A.FOLD),
        PlayerAction(seat, A.CHECK),
        PlayerAction(seat, A.CALL),
        PlayerAction(seat, A.CALL),
        PlayerAction(seat, A.BET, to),
        PlayerAction(seat, A.RAISE, to),
        PlayerAction(seat, A.RAISE, state.level.big_blind),  # completing the bring-in
        PlayerAction(seat, A.ALL_IN),
    ]
    rng.shuffle(choices)
    if passive:  # everyone stays in: checks, calls and bring-ins only
        choices = [c for c in choices if c.kind in (A.BRING_IN, A.CHECK, A.CALL)]
    for event in choices:
        after, accepted = _ok(state, event)
        if accepted:
            return after
    raise AssertionError(f"no legal action for seat {seat}")


def play(
    variant: Variant, rng: random.Random, players: int = 0
) -> tuple[HandSetup, HandState]:
    passive = players > 0
    players = players or rng.randint(2, 8)
    small = rng.choice((2, 4, 10))
    level = Level(small_blind=0, big_blind=small, bring_in=small // 2, ante=small // 4 or 1,
                  ante_format=AnteFormat.PER_PLAYER)
    seats = sorted(rng.sample(range(1, 11), players))
    setup = HandSetup(
        hand_id=f"{variant.value}-{rng.random():.6f}", variant=variant, level=level,
        button=seats[-1], small_blind_seat=None, big_blind_seat=seats[0],
        players=tuple((s, f"player{s}", rng.randint(2, 60) * small) for s in seats),
    )
    state, _ = start_hand(setup)
    deck = sorted(STANDARD_DECK)
    rng.shuffle(deck)
    while state.phase is not Phase.COMPLETE:
        if state.phase is Phase.DEALING:
            state = _deal_street(state, deck, rng)
        elif state.phase is Phase.BETTING:
            state = _act(state, rng, passive)
        else:
            seat = next(s for s in state.in_hand if not s.shown and not s.mucked)
            event = MuckHand(seat.seat) if rng.random() < 0.2 else ShowHand(seat.seat)
            state, accepted = _ok(state, event)
            if not accepted:
                state, _ = _ok(state, ShowHand(seat.seat))
    return setup, state


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.value for v in VARIANTS])
def test_a_stud_hand_played_by_the_engine_replays_from_its_phh_to_the_same_stacks(
    variant: Variant, tmp_path: Path
) -> None:
    rng = random.Random(f"stud-export-{variant.value}")
    seen = {"exposed": 0, "community": 0, "showdown": 0}
    for number in range(HANDS):
        setup, hand = play(variant, rng)
        text = hand_to_phh(setup, hand, venue="v", table="t1", seat_count=10, number=number,
                           started_ms=None)
        stacks = replayed_stacks(text, f"{hand.hand_id}.phh")
        assert stacks == tuple(s.stack for s in hand.seats), text
        if hand.exposed:  # ``pokertable replay`` reads files with its own flat TOML reader
            path = tmp_path / f"{number}.phh"
            path.write_text(text, encoding="utf-8")
            (loaded,) = load_hands(path)
            replayed = replay_hand(loaded).state
            assert [s.stack for s in replayed.seats] == [s.stack for s in hand.seats]
        seen["exposed"] += bool(hand.exposed)
        seen["community"] += bool(hand.board)
        seen["showdown"] += any(s.shown for s in hand.seats)
    assert seen["exposed"] and seen["showdown"], seen


def test_the_stud_phh_fields_are_the_ones_pokerkit_writes() -> None:
    rng = random.Random(3)
    setup, hand = play(Variant.STUD, rng)
    data = tomllib.loads(hand_to_phh(setup, hand, venue="v", table="t1", seat_count=10,
                                     number=1, started_ms=None))
    n = len(hand.seats)
    assert data["variant"] == "F7S" and data["bring_in"] == hand.level.bring_in
    assert data["antes"] == [hand.level.ante] * n and "blinds_or_straddles" not in data
    assert data["small_bet"] == hand.level.big_blind and data["big_bet"] == 2 * data["small_bet"]
    assert data["seats"] == [s.seat for s in hand.seats]
    assert data["actions"][0].startswith("d dh p1 ") and len(data["actions"][0]) == 14


def test_rp10a_an_exposed_downcard_is_written_as_the_upcard_it_became() -> None:
    setup = HandSetup(
        hand_id="x", variant=Variant.STUD, button=2, small_blind_seat=None, big_blind_seat=1,
        level=Level(small_blind=0, big_blind=4, bring_in=2, ante=1,
                    ante_format=AnteFormat.PER_PLAYER),
        players=((1, "a", 50), (2, "b", 50)),
    )
    state, _ = start_hand(setup)
    for event in (DealHole(1, ("2c", "As", "Kd")), DealHole(2, ("3c", "Ah", "5d")),
                  CardExposed(1, "2c"), PlayerAction(1, A.BRING_IN), PlayerAction(2, A.FOLD)):
        state, accepted = _ok(state, event)
        assert accepted
    text = hand_to_phh(setup, state, venue="v", table="t", seat_count=2, number=1,
                       started_ms=None)
    actions = tomllib.loads(text)["actions"]
    assert actions[0] == "d dh p1 AsKd2c # RP-10-A: exposed downcard 2c is the upcard"
    assert actions[2:] == ["p1 pb", "p2 f"]
    assert tomllib.loads(text)["_exposed_cards"] == ["p1 2c"]
    assert replayed_stacks(text, "x.phh") == (51, 49)


@pytest.mark.parametrize("variant", VARIANTS, ids=[v.value for v in VARIANTS])
def test_rp10h_the_short_stubs_community_card_is_written_as_a_board_card(
    variant: Variant,
) -> None:
    setup, hand = play(variant, random.Random(8), players=8)
    assert len(hand.board) == 1
    text = hand_to_phh(setup, hand, venue="v", table="t1", seat_count=10, number=1,
                       started_ms=None)
    assert f"d db {hand.board[0]}" in tomllib.loads(text)["actions"]
    assert replayed_stacks(text, "h.phh") == tuple(s.stack for s in hand.seats)
