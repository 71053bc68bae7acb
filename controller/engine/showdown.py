"""Showdown: tabling and mucking (R13-A, R17), and awarding the pots (R20, R21, R17-B).

``engine.step`` routes ``ShowHand`` and ``MuckHand`` here; ``engine.settle`` awards the
pots once the showdown is done (or one player is left).
"""

from __future__ import annotations

from pokertable.controller.engine import hi_lo
from pokertable.controller.engine.checks import check_new_cards, reject
from pokertable.controller.engine.events import MuckHand, ShowHand
from pokertable.controller.engine.model import (
    Award,
    HandState,
    Phase,
    Pot,
    SeatState,
    Variant,
    builder,
    copier,
    evolve,
)
from pokertable.controller.engine.pots import build_pots, split_pot
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.evaluation import (
    badugi,
    deuce_to_seven,
    holdem_strength,
    omaha_strength,
)
from pokertable.controller.rules import RuleProfile

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_ALERT = RulingKind.ALERT
_COMPLETE = Phase.COMPLETE
_DEALING = Phase.DEALING
_SHOWDOWN = Phase.SHOWDOWN
_award = builder(Award)  # Award(...) with plain stores (model.builder)
_seat_shown = copier(SeatState, "hole", "shown")  # a tabled hand (model.copier)
_seat_paid_out = copier(SeatState, "stack", "bet")
_state_awarded = copier(HandState, "seats", "pots", "awards", "phase", "action_on")


def strength(variant: Variant, hole: tuple[str, ...], board: tuple[str, ...]) -> tuple[int, str]:
    """The hand's value at showdown for its variant (larger is stronger) and its name."""
    if variant.omaha:
        return omaha_strength(hole, board)
    if variant.is_draw:
        return badugi(hole) if variant is Variant.BADUGI else deuce_to_seven(hole)
    return holdem_strength(hole, board)


def show(
    state: HandState, event: ShowHand, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase not in (_SHOWDOWN, _DEALING) or not state.has_seat(event.seat):
        return reject(
            state,
            event.seat,
            f"seat {event.seat} cannot table a hand now (phase {state.phase})",
            rules.cite("tabling"),
            "show_not_allowed",
        )
    if state.phase is _DEALING and not state.face_up:
        return reject(
            state,
            event.seat,
            "hands are tabled only when no more betting is possible",
            rules.cite("all_in_face_up"),
            "show_not_allowed",
        )
    seat = state.seat(event.seat)
    if not seat.in_hand or seat.mucked:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} has no live hand to table",
            rules.cite("tabling"),
            "no_live_hand",
        )
    hole = seat.hole
    if event.cards:
        if seat.hole and set(event.cards) != set(seat.hole):
            return reject(
                state,
                event.seat,
                f"seat {event.seat} tabled {event.cards} but was dealt {seat.hole}",
                rules.cite("fouled_hand"),
                "tabled_mismatch",
            )
        if not seat.hole:
            bad = check_new_cards(state, event.cards, event.seat, rules)
            if bad:
                return bad
            if len(event.cards) != state.variant.hole_cards:
                return reject(
                    state,
                    event.seat,
                    "a tabled hand must show all hole cards",
                    rules.cite("tabling"),
                    "card_count",
                )
        hole = tuple(event.cards)
    if not hole:
        return reject(
            state,
            event.seat,
            f"seat {event.seat}'s cards are unknown: table them",
            rules.cite("tabling"),
            "cards_unknown",
        )
    return state.with_seat(_seat_shown(seat, hole, True)), ()


def muck(
    state: HandState, event: MuckHand, rules: RuleProfile
) -> tuple[HandState, tuple[Ruling, ...]]:
    if state.phase is not _SHOWDOWN or not state.has_seat(event.seat):
        return reject(
            state, event.seat, "mucking at showdown only", rules.cite("tabling"), "muck_not_allowed"
        )
    seat = state.seat(event.seat)
    if not seat.in_hand:
        return reject(
            state,
            event.seat,
            f"seat {event.seat} is not in the hand",
            rules.cite("tabling"),
            "no_live_hand",
        )
    state = state.with_seat(evolve(seat, mucked=True))
    left = [s for s in state.in_hand if not s.mucked]
    if rules.uncontested_must_table and len(left) == 1 and not left[0].shown:
        return state, (
            Ruling(
                _ALERT,
                (rules.cite("uncontested"),),
                f"all others mucked: seat {left[0].seat} must table his hand to win the pot; "
                "the pot is held until he does",
                seat=left[0].seat,
                code="table_to_win",
            ),
        )
    return state, ()


def showdown_done(state: HandState, rules: RuleProfile) -> bool:
    contenders = [s for s in state.in_hand if not s.mucked]
    if len(contenders) == 1 and rules.uncontested_must_table:
        # ACE R17-B: the last live hand must still be tabled to win the pot.
        return contenders[0].shown
    return len(contenders) <= 1 or all(s.shown for s in contenders)


def _contested_pots(
    pots: tuple[Pot, ...], by_number: dict[int, SeatState]
) -> tuple[tuple[Pot, ...], list[list[SeatState]]]:
    """The pots as awarded, each with the hands that still claim it.

    A side pot forms at an all-in; a hand mucked at showdown is dead like a folded one, so
    its all-in level no longer parts two pots: adjacent layers that the same live hands
    contest are one pot, split once (R20-A, R21). Where everybody eligible mucked, the last
    to muck keeps his claim.
    """
    merged: list[Pot] = []
    claims: list[list[SeatState]] = []
    for pot in pots:
        contenders = [by_number[n] for n in pot.eligible if not by_number[n].mucked]
        if not contenders:
            contenders = [by_number[n] for n in pot.eligible]
        if claims and [s.seat for s in claims[-1]] == [s.seat for s in contenders]:
            merged[-1] = Pot(merged[-1].amount + pot.amount, pot.eligible)  # he is out
            continue
        merged.append(pot)
        claims.append(contenders)
    return tuple(merged), claims


def award(
    state: HandState, rulings: list[Ruling], rules: RuleProfile, *, uncontested: bool
) -> HandState:
    by_number = {s.seat: s for s in state.seats}
    pots, claims = _contested_pots(build_pots(state.seats), by_number)
    stacks = {s.seat: s.stack for s in state.seats}
    strengths: dict[int, tuple[int, str]] = {}  # a hand in several pots is valued once
    per_pot: list[list[Award]] = []
    hi_lo_values = hi_lo.HandValues(state.board) if state.variant.hi_lo else None
    for index, pot in enumerate(pots):
        contenders = claims[index]
        if hi_lo_values is not None and len(contenders) > 1 and not uncontested:
            halves = hi_lo.pot_awards(state, index, pot.amount, contenders, hi_lo_values, rules)
            for award in halves:
                stacks[award.seat] += award.amount
            per_pot.append(list(halves))
            continue
        if len(contenders) == 1 or uncontested:
            winners = [contenders[0].seat]
            names = {contenders[0].seat: ""}
        else:
            for s in contenders:
                if s.seat not in strengths:
                    strengths[s.seat] = strength(state.variant, s.hole, state.board)
            scored = {s.seat: strengths[s.seat] for s in contenders}
            best = max([v for v, _ in scored.values()])
            clockwise = [s.seat for s in state.seats_clockwise_from(state.button)]
            winners = [n for n in clockwise if n in scored and scored[n][0] == best]
            names = {n: scored[n][1] for n in winners}
        shares = []
        for seat_no, amount in split_pot(pot.amount, winners, state.level.chip_unit):
            stacks[seat_no] += amount
            shares.append(_award(index, seat_no, amount, names[seat_no]))
        per_pot.append(shares)
    # Announce side pots first, then the main pot (Add. 16).
    for shares in reversed(per_pot):
        split = "odd_chip" if len(shares) > 1 else "side_pots"
        rule_ids: tuple[str, ...] = (rules.cite("uncontested" if uncontested else split),)
        if shares and shares[0].half:
            rule_ids = hi_lo.rule_ids(shares, rules)
        rulings += hi_lo.award_rulings(shares, rule_ids)
    awards = tuple([award for shares in per_pot for award in shares])
    return awarded(state, stacks, pots, awards)


def awarded(
    state: HandState, stacks: dict[int, int], pots: tuple[Pot, ...], awards: tuple[Award, ...]
) -> HandState:
    """The hand complete: each seat's stack as ``stacks`` says, no bet in front, in one copy
    of the state (the stud award, engine/stud_showdown.py, ends the same way)."""
    seats = tuple(
        [
            s if s.bet == 0 and s.stack == stacks[s.seat] else _seat_paid_out(s, stacks[s.seat], 0)
            for s in state.seats
        ]
    )
    return _state_awarded(state, seats, pots, awards, _COMPLETE, None)


contested_pots = _contested_pots  # the stud award (engine/stud.py) builds the same pots
