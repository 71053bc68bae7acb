"""Building hands for engine tests: pure data, no mocks; and judging a PokerKit corpus."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from pokertable.controller.engine import HandSetup, betting, start_hand, step
from pokertable.controller.engine.events import ActionKind, Event, PlayerAction
from pokertable.controller.engine.model import HandState, Level, Phase, SeatState, Street, Variant
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import TDA_2024, RuleProfile


def preflop(
    stacks: dict[int, int],
    *,
    button: int,
    sb: int | None,
    bb: int,
    level: Level | None = None,
    variant: Variant = Variant.NLHE,
    rules: RuleProfile = TDA_2024,
) -> HandState:
    setup = HandSetup(
        hand_id="t",
        variant=variant,
        level=level or Level(small_blind=50, big_blind=100),
        button=button,
        small_blind_seat=sb,
        big_blind_seat=bb,
        players=tuple((seat, f"P{seat}", stack) for seat, stack in sorted(stacks.items())),
    )
    state, _ = start_hand(setup, rules)
    return state


def street_state(
    stacks: dict[int, int],
    *,
    button: int,
    street: Street = Street.FLOP,
    big_blind: int = 100,
    pot: int = 0,
    variant: Variant = Variant.NLHE,
) -> HandState:
    """A fresh post-flop betting round with exact stacks behind (``pot`` already collected)."""
    seats = list(SeatState(seat, f"P{seat}", stack) for seat, stack in sorted(stacks.items()))
    if pot:
        first = seats[0]
        seats[0] = SeatState(first.seat, first.player, first.stack, committed=pot, dead=pot)
    board = ("2c", "7d", "9h", "Js", "Kd")[: street.board_size]
    state = HandState(
        hand_id="t",
        variant=variant,
        level=Level(small_blind=big_blind // 2, big_blind=big_blind),
        button=button,
        small_blind_seat=None,
        big_blind_seat=seats[0].seat,
        seats=tuple(seats),
        street=street,
        phase=Phase.BETTING,
        board=board,
        call_to=0,
        increment=big_blind,
    )
    from dataclasses import replace

    return replace(state, action_on=betting.first_to_act_postflop(state))


def act(
    state: HandState,
    *actions: tuple[int, str, int | None] | tuple[int, str],
    rules: RuleProfile = TDA_2024,
) -> tuple[HandState, list[Ruling]]:
    """Apply actions like (seat, "raise", 300) and fail loudly on a rejection."""
    rulings: list[Ruling] = []
    for spec in actions:
        seat, kind = spec[0], ActionKind(spec[1])
        amount = spec[2] if len(spec) > 2 else None
        state, out = step(state, PlayerAction(seat, kind, amount), rules)
        rejected = [r for r in out if r.kind is RulingKind.REJECTED]
        assert not rejected, rejected
        rulings.extend(out)
    return state, rulings


def play(state: HandState, event: Event, rules: RuleProfile = TDA_2024) -> HandState:
    """``step`` that fails loudly on a rejection: a loop that steps until the board is out
    or the round is over would otherwise spin for ever on a rejected event."""
    state, out = step(state, event, rules)
    rejected = [r for r in out if r.kind is RulingKind.REJECTED]
    assert not rejected, rejected
    return state


def try_act(
    state: HandState,
    seat: int,
    kind: str,
    amount: int | None = None,
    rules: RuleProfile = TDA_2024,
) -> tuple[HandState, tuple[Ruling, ...]]:
    return step(state, PlayerAction(seat, ActionKind(kind), amount), rules)


def raise_after_three_short_all_ins(rules: RuleProfile) -> tuple[HandState, tuple[Ruling, ...]]:
    """Seat 1 bets 100; three short all-ins (to 150, 190, 240) leave him facing 140 more,
    above the full raise of 100; he then tries to raise to 1,000 under ``rules``."""
    state = street_state({1: 5000, 2: 150, 3: 190, 4: 240}, button=4)
    state, _ = act(
        state, (1, "bet", 100), (2, "all_in"), (3, "all_in"), (4, "all_in"), rules=rules
    )
    after, rulings = try_act(state, 1, "raise", 1000, rules=rules)
    assert after is state  # refused either way: nothing changed
    return after, rulings


def options(state: HandState, rules: RuleProfile = TDA_2024) -> betting.Options:
    opts = betting.options_for(state, rules)
    assert opts is not None
    return opts


def codes(rulings: Iterable[Ruling]) -> list[str]:
    return [r.code for r in rulings]


def corpus_agrees(
    generate: Callable[..., Any],
    compare: Callable[[Any, str], Any],
    variant: str,
    hands: int,
    equal_share: float,
) -> Any:
    """Replay ``hands`` seeded PokerKit hands of ``variant`` (a bench corpus module's
    ``generate`` and ``compare``): none may mismatch, and more than ``equal_share`` of them
    must finish as in PokerKit. The comparison, for what a game checks beyond that."""
    corpus = generate(hands, seed=30, variants=(variant,))
    result = compare(corpus, variant)
    assert result.hands == hands
    assert not result.mismatches, result.mismatches
    assert result.equal_to_pokerkit > hands * equal_share, result.lines(variant)
    return result
