"""R62: a hidden chip of an all-in player found after the hand, and who gets it.

Pure, like the engine: it reads the completed ``HandState`` and says what happens to the
found chips as transfers between seats, or which options the TD has. TDA 2024 R62 leaves
it to the TD (part of the accepted action or not; a losing all-in's chip may go to the
winning caller). ACE R62 rules it: a winner is not paid for it (he keeps his chip); a
loser's chip goes to the winner if the winner covered him; otherwise the TD decides. A
loser is never saved by the chip (R62 "not saved by the chip(s)"): the TD's choice is
whether the winning caller gets it or it leaves play, never that the busted player keeps it.

>>> from pokertable.controller.engine.model import Award, HandState, Level, Phase, SeatState
>>> from pokertable.controller.engine.model import SeatStatus, Variant
>>> from pokertable.controller.rules.profiles import load_profile
>>> hand = HandState(hand_id="doc", variant=Variant.NLHE, level=Level(small_blind=50,
...     big_blind=100), button=2, small_blind_seat=2, big_blind_seat=1, phase=Phase.COMPLETE,
...     seats=(SeatState(1, "A", 0, committed=3000, status=SeatStatus.ALL_IN),
...            SeatState(2, "B", 23000, committed=3000)), awards=(Award(0, 2, 6000),))
>>> found = rule_found_chips(hand, 1, 500, load_profile("ace-league"))
>>> found.transfers, found.rule_ids
(((None, 2, 500),), ('ACE-62',))
"""

from __future__ import annotations

from dataclasses import dataclass

from pokertable.controller.engine.events import CountFoundChips
from pokertable.controller.engine.model import HandState, Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import ChipsFoundBehind, RuleProfile

PLAYER_KEEPS = "player_keeps"  # the chip stays his: not paid for it, not saved by it
TO_WINNER = "to_winner"  # the TD awards it to the winning caller (a loser's chip)
CALLERS_PAY = "callers_pay"  # part of the accepted action: covering callers owe it too
OUT_OF_PLAY = "out_of_play"  # a loser's chip the TD does not award: it leaves play (R62, R64)


@dataclass(frozen=True, slots=True)
class FoundChips:
    """What happens to ``amount`` found behind ``seat``: ``transfers`` now, or TD options.

    A transfer is (from_seat, to_seat, amount); from_seat None means the found chip itself
    (it was never in anyone's counted stack).
    """

    seat: int
    amount: int
    rule_ids: tuple[str, ...]
    text: str
    transfers: tuple[tuple[int | None, int, int], ...] = ()
    options: tuple[str, ...] = ()  # non-empty: the TD decides (a FLOOR ruling)
    refused: bool = False  # bad input: nothing happens, the text says why

    def outcome(self, option: str, hand: HandState) -> tuple[tuple[int | None, int, int], ...]:
        """The transfers of the TD's choice."""
        return _transfers(hand, self.seat, self.amount, option)


def _won(hand: HandState, seat: int) -> bool:
    return any(a.seat == seat for a in hand.awards)


def _start(hand: HandState, seat: int) -> int:
    """Chips the seat began the hand with (its final stack less awards, plus what it put in)."""
    s = hand.seat(seat)
    return s.stack - sum(a.amount for a in hand.awards if a.seat == seat) + s.committed


def winning_caller(hand: HandState, seat: int) -> int | None:
    """The seat that won the highest pot the all-in player contested."""
    mine = [i for i, p in enumerate(hand.pots) if seat in p.eligible] or [0]
    top = max(mine)
    return next((a.seat for a in hand.awards if a.pot_index == top and a.seat != seat), None)


def covering_callers(hand: HandState, seat: int) -> tuple[int, ...]:
    """Callers still in at the end who began with more than the all-in player's total."""
    mine = _start(hand, seat)
    return tuple(
        s.seat
        for s in hand.seats
        if s.seat != seat and s.status is not SeatStatus.FOLDED and _start(hand, s.seat) > mine
    )


def _transfers(
    hand: HandState, seat: int, amount: int, option: str
) -> tuple[tuple[int | None, int, int], ...]:
    if option == PLAYER_KEEPS:
        return ((None, seat, amount),)
    if option == OUT_OF_PLAY:
        return ()
    if option == TO_WINNER:
        winner = winning_caller(hand, seat)
        return ((None, winner, amount),) if winner is not None else ()
    # CALLERS_PAY: the chip was live. A winner is paid it by each covering caller (what
    # they have left); a loser's chip goes to the winner who covered him.
    if _won(hand, seat):
        paid = tuple(
            (caller, seat, min(amount, hand.seat(caller).stack))
            for caller in covering_callers(hand, seat)
            if hand.seat(caller).stack > 0
        )
        return ((None, seat, amount), *paid)
    winner = winning_caller(hand, seat)
    if winner is not None and winner in covering_callers(hand, seat):
        return ((None, winner, amount),)
    return ()  # a loser is not saved by it (R62)


def rule_found_chips(
    hand: HandState, seat: int, amount: int, rules: RuleProfile, *, not_in_action: bool = False
) -> FoundChips:
    """R62 after the hand: the profile's outcome, or the TD's options.

    ``not_in_action``: the floor already ruled, during the hand, that the chips were not
    part of the action: a winner keeps them unpaid; for a loser the TD still decides.
    """
    rule_ids = (rules.cite("chips_behind"), rules.cite("accepted_action"))
    if hand.phase is not Phase.COMPLETE or not hand.has_seat(seat) or amount <= 0:
        return FoundChips(
            seat, amount, rule_ids, f"chips found behind seat {seat}: no completed hand of "
            "his to rule on (or no amount)", refused=True,
        )
    if hand.seat(seat).status is not SeatStatus.ALL_IN:
        return FoundChips(
            seat, amount, rule_ids, f"seat {seat} was not all in: chips behind him were his "
            "stack all along (R62 is about an all-in player)", refused=True,
        )
    won = _won(hand, seat)
    if rules.chips_found_behind is ChipsFoundBehind.WINNER_UNPAID_COVERING_WINNER_GETS:
        ace = (rules.cite("chips_behind"),)
        if won:
            return FoundChips(
                seat, amount, ace, f"seat {seat} won: he is not paid for the {amount} found "
                "behind him; the chip stays his", _transfers(hand, seat, amount, PLAYER_KEEPS),
            )
        winner = winning_caller(hand, seat)
        if winner is not None and winner in covering_callers(hand, seat):
            return FoundChips(
                seat, amount, ace, f"seat {seat} lost: the {amount} found behind him goes to "
                f"seat {winner}, who covered him", _transfers(hand, seat, amount, TO_WINNER),
            )
        return FoundChips(
            seat, amount, (*ace, rules.cite("floor_discretion")),
            f"seat {seat} lost but the winner did not cover him: the house rule does not say "
            f"who gets the {amount} found behind him; he is not saved by it: the TD decides "
            "whether the winner gets it or it leaves play",
            options=(TO_WINNER, OUT_OF_PLAY),
        )
    if won and not_in_action:
        return FoundChips(
            seat, amount, rule_ids, f"seat {seat} won: the {amount} found behind him was not "
            "part of the action, so he is not paid for it; the chip stays his",
            _transfers(hand, seat, amount, PLAYER_KEEPS),
        )
    if won:
        text = (
            f"{amount} found behind seat {seat} after the hand, which he won: the TD decides "
            "whether it was part of the accepted action (callers who covered him pay it) or "
            "not (he is not paid for it)"
        )
        return FoundChips(seat, amount, rule_ids, text, options=(CALLERS_PAY, PLAYER_KEEPS))
    text = (
        f"{amount} found behind seat {seat} after the hand, which he lost: he is not saved by "
        "it; the TD decides whether it goes to the winning caller or leaves play"
    )
    return FoundChips(seat, amount, rule_ids, text, options=(TO_WINNER, OUT_OF_PLAY))


def count_found_chips(
    state: HandState, event: CountFoundChips, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    """Engine step for ``CountFoundChips``: the found chips join the all-in, callers match."""
    ids = (rules.cite("chips_behind"), rules.cite("accepted_action"))
    if (
        state.phase is Phase.COMPLETE
        or not state.has_seat(event.seat)
        or state.seat(event.seat).status is not SeatStatus.ALL_IN
        or event.amount <= 0
    ):
        text = f"seat {event.seat} has no running all-in to add found chips to"
        return state, (Ruling(RulingKind.REJECTED, ids, text, seat=event.seat,
                              code="not_all_in"),)
    me = state.seat(event.seat)
    total = me.committed
    state = state.with_seat(evolve(me, committed=total + event.amount))
    paid: list[str] = []
    for s in state.seats:
        if s.seat == event.seat or s.status is SeatStatus.FOLDED or s.committed < total:
            continue
        add = min(event.amount, s.stack)
        if add <= 0:
            continue
        status = SeatStatus.ALL_IN if add == s.stack else s.status
        state = state.with_seat(
            evolve(s, stack=s.stack - add, committed=s.committed + add, status=status)
        )
        paid.append(f"seat {s.seat} adds {add}")
    who = "; ".join(paid) or "nobody covers it"
    text = f"{event.amount} found behind seat {event.seat} is part of his all-in: {who}"
    return state, (Ruling(RulingKind.CORRECTED, ids, text, seat=event.seat,
                          code="found_chips_counted"),)
