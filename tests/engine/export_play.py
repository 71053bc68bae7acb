"""Hands of every game played through the engine with seeded random legal actions, for the
PHH export tests: the board and draw games here, stud in ``test_stud_phh_export.play``.

Each hand runs to its end as the table would play it: random bets, raises, folds and
all-ins (``test_stud_phh_export._act``), random discards, and at the showdown each hand
tabled or (one in five) mucked, so some pots go to the last live hand untabled (R17-B).
"""

from __future__ import annotations

import random

from pokertable.controller.engine import HandSetup, start_hand
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import DealBoard, DealHole, Discard, MuckHand, ShowHand
from pokertable.controller.engine.model import AnteFormat, HandState, Level, Phase, Variant
from tests.engine.test_stud_phh_export import _act, _ok
from tests.engine.test_stud_phh_export import play as play_stud

BOARD_GAMES = [Variant.NLHE, Variant.FLHE, Variant.PLO, Variant.FLO8, Variant.PLO8]
DRAW_GAMES = [Variant.TRIPLE_DRAW_27, Variant.SINGLE_DRAW_27, Variant.BADUGI]
STUD_GAMES = [Variant.STUD, Variant.STUD_HILO, Variant.RAZZ]


def showdown(state: HandState, rng: random.Random) -> HandState:
    """The next hand at the showdown tabled, or mucked one time in five."""
    seat = next(s for s in state.in_hand if not s.shown and not s.mucked)
    event = MuckHand(seat.seat) if rng.random() < 0.2 else ShowHand(seat.seat)
    state, accepted = _ok(state, event)
    if not accepted:
        state, _ = _ok(state, ShowHand(seat.seat))
    return state


def _deal(state: HandState, deck: list[str], rng: random.Random) -> HandState:
    draw = state.draw
    if draw is not None and draw.owed:
        seat, cards = draw.owed[0]
        state, accepted = _ok(state, DealHole(seat, tuple(deck.pop() for _ in cards)))
        assert accepted
        return state
    if draw is not None and draw.order:
        seat = state.seat(draw.order[0])
        kept = rng.randint(0, len(seat.hole)) if len(deck) > 12 else len(seat.hole)
        state, accepted = _ok(state, Discard(seat.seat, tuple(seat.hole[kept:])))
        assert accepted
        return state
    size = 3 if not state.board else 1
    state, accepted = _ok(state, DealBoard(tuple(deck.pop() for _ in range(size))))
    assert accepted
    return state


def play(variant: Variant, rng: random.Random) -> tuple[HandSetup, HandState]:
    """One hand of ``variant`` from deal to award: 2 to 9 players (stud 2 to 8)."""
    if variant.is_stud:
        return play_stud(variant, rng)
    n = rng.randint(2, 9 if not variant.is_draw or variant is Variant.SINGLE_DRAW_27 else 6)
    big = rng.choice((2, 4, 10))
    ante = rng.choice((0, 0, big // 2))
    level = Level(small_blind=big // 2, big_blind=big, ante=ante,
                  ante_format=AnteFormat.PER_PLAYER if ante else AnteFormat.NONE)
    seats = sorted(rng.sample(range(1, 11), n))
    small, bb = (seats[0], seats[1])
    button = seats[0] if n == 2 else seats[-1]
    setup = HandSetup(
        hand_id=f"{variant.value}-{rng.random():.6f}", variant=variant, level=level,
        button=button, small_blind_seat=small, big_blind_seat=bb,
        players=tuple((s, f"player{s}", rng.randint(3, 60) * big) for s in seats),
    )
    state, _ = start_hand(setup)
    deck = sorted(STANDARD_DECK)
    rng.shuffle(deck)
    for s in setup.players:
        cards = tuple(deck.pop() for _ in range(variant.hole_cards))
        state, accepted = _ok(state, DealHole(s[0], cards))
        assert accepted
    while state.phase is not Phase.COMPLETE:
        if state.phase is Phase.DEALING:
            state = _deal(state, deck, rng)
        elif state.phase is Phase.BETTING:
            state = _act(state, rng)
        else:
            state = showdown(state, rng)
    return setup, state
