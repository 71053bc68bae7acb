"""Bet-interpretation figure: rulings per second for a mixed stream of chip motions and words.

There is no open-source bet interpreter to compare with, so the peer is the bare engine
applying the same already-decided actions (``engine.step`` with ``PlayerAction``), measured
in the same run: the gap is what reading chips and words (R40-R61) costs on top of the engine.

    >>> figures(hands=20)["interpretation_rulings_per_s"]["unit"]      # doctest: +SKIP
    'rulings/s'
"""

from __future__ import annotations

import random
from typing import Any

from pokertable.bench.measure import Figure, interleave, seconds
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.events import ActionKind, PlayerAction
from pokertable.controller.engine.model import HandState, Level, Phase, SeatState, Street, Variant
from pokertable.controller.interpretation import (
    ChipMotion,
    Declaration,
    DeclKind,
    FloorDecision,
    InterpretedHand,
)
from pokertable.controller.interpretation.hand import TableEvent
from pokertable.controller.rules import TDA_2024

PEER_NAME = "bare engine.step applying the same decided PlayerActions (no interpretation)"
DENOMINATIONS = (25, 100, 500, 1000, 5000)


def _flop(stacks: tuple[int, ...]) -> HandState:
    seats = tuple(SeatState(i + 1, f"P{i + 1}", s) for i, s in enumerate(stacks))
    return HandState(
        hand_id="bench",
        variant=Variant.NLHE,
        level=Level(small_blind=100, big_blind=200),
        button=len(seats),
        small_blind_seat=None,
        big_blind_seat=1,
        seats=seats,
        street=Street.FLOP,
        board=("2c", "7d", "9h"),
        call_to=0,
        increment=200,
        action_on=1,
    )


def script(rng: random.Random) -> tuple[HandState, list[TableEvent], list[PlayerAction]]:
    """One flop of random pushes and words, with the floor answering every FLOOR ruling."""
    start = _flop(tuple(rng.choice((3000, 8000, 20000, 50000)) for _ in range(4)))
    hand = InterpretedHand.of(start, TDA_2024)
    events: list[TableEvent] = []
    for _ in range(12):
        seat = hand.state.action_on
        if seat is None or hand.state.phase is not Phase.BETTING:
            break
        me = hand.state.seat(seat)
        roll = rng.random()
        event: TableEvent
        if roll < 0.6:
            chips = [rng.choice(DENOMINATIONS) for _ in range(rng.randint(1, 6))]
            while sum(chips) > me.stack and chips:
                chips.pop()
            event = ChipMotion.of(seat, *(chips or [me.stack]))
        elif roll < 0.75:
            event = Declaration(seat, DeclKind.CALL)
        elif roll < 0.85:
            event = Declaration(seat, DeclKind.AMOUNT, rng.randint(1, 40) * 100)
        else:
            event = Declaration(seat, DeclKind.FOLD)
        hand, out = hand.step(event)
        events.append(event)
        if out.floor is not None:
            decision = FloorDecision(out.floor.ruling_id, out.floor.options[0].name)
            hand, _ = hand.step(decision)
            events.append(decision)
    actions = [
        PlayerAction(a.seat, ActionKind(a.kind), a.to if a.kind in ("bet", "raise") else None)
        for a in hand.state.actions
    ]
    return start, events, actions


def figures(hands: int = 400, seed: int = 11, repeats: int = 3) -> dict[str, dict[str, Any]]:
    """Rulings per second, ours and the bare engine alternating on the same scripts."""
    rng = random.Random(seed)
    scripts = [script(rng) for _ in range(hands)]
    rulings = sum(len(actions) for _, _, actions in scripts)

    def ours() -> None:
        for start, events, _ in scripts:
            hand = InterpretedHand.of(start, TDA_2024)
            for event in events:
                hand, _ = hand.step(event)

    def peer() -> None:
        for start, _, actions in scripts:
            state = start
            for action in actions:
                state, _ = engine.step(state, action, TDA_2024)

    fig = Figure("interpretation_rulings_per_s", "rulings/s", PEER_NAME, higher_is_better=True)
    ours_s, peer_s = interleave(lambda: seconds(ours), lambda: seconds(peer), repeats)
    for o, p in zip(ours_s, peer_s, strict=True):
        fig.add(rulings / o, rulings / p)
    return {fig.name: fig.to_json()}


if __name__ == "__main__":
    print(figures())
