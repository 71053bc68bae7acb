"""``pokertable replay``: play hand histories through the engine and print what happened.

This is how a floor person replays a disputed hand (Rule 22): every action goes through
the same engine the table runs, illegal actions are named with the rule they break, and
the outcome (finishing stacks, pots, winners) is printed one JSON object per hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from pokertable.controller.engine import EngineError, start_hand, step
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import (
    ActionKind,
    DealHole,
    Discard,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.model import HandState, Phase, SeatStatus
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.runs import draw_run, hole_run
from pokertable.controller.engine.stud import deal_run
from pokertable.controller.history.draw_stand_ins import draw_stand_ins
from pokertable.controller.history.phh import PhhError, PhhHand, action_where, load_hands, to_event
from pokertable.controller.rules import TDA_2024, RuleProfile

# Enum members as module globals: on CPython 3.11 reading one through its class
# (``SeatStatus.LIVE``) costs ~50 ns, and the engine does it per seat on every step.
_COMPLETE = Phase.COMPLETE
_SHOWDOWN = Phase.SHOWDOWN
_REJECTED = RulingKind.REJECTED
_DEALING = Phase.DEALING
_LIVE = SeatStatus.LIVE
_CHECK = ActionKind.CHECK


@dataclass(frozen=True, slots=True)
class ReplayResult:
    hand: PhhHand
    state: HandState
    rulings: tuple[Ruling, ...]

    def to_json(self, *, with_rulings: bool = False) -> dict[str, object]:
        names = {s.seat: s.player for s in self.state.seats}
        out: dict[str, object] = {
            "hand": self.hand.name,
            "variant": self.state.variant.value,
            "players": [names[i + 1] for i in range(self.hand.player_count)],
            "finishing_stacks": [
                self.state.seat(i + 1).stack for i in range(self.hand.player_count)
            ],
            "pots": [
                {"amount": p.amount, "eligible": [names[s] for s in p.eligible]}
                for p in self.state.pots
            ],
            "winners": [
                {
                    "player": names[a.seat],
                    "pot": a.pot_index,
                    "amount": a.amount,
                    "hand": a.hand_name,
                    **({"half": a.half} if a.half else {}),
                }
                for a in self.state.awards
            ],
            "board": list(self.state.board),
            "complete": self.state.phase is _COMPLETE,
        }
        if with_rulings:
            out["rulings"] = [r.to_json() for r in self.rulings]
        return out


def replay_hand(hand: PhhHand, rules: RuleProfile = TDA_2024) -> ReplayResult:
    """Replay one hand; raises PhhError naming the action and rule on the first illegal one."""
    try:
        state, first = start_hand(hand.setup, rules)
    except EngineError as exc:
        raise PhhError(str(exc)) from exc
    rulings = list(first)
    n = hand.player_count
    actions = hand.actions
    variant = hand.setup.variant
    # An unknown card ("??") in any action, looked for in one joined text (the line break
    # between two actions keeps a "??" from spanning them).
    if (variant.is_stud or variant.is_draw) and "??" in "\n".join(actions):
        if variant.is_stud:
            actions = _stand_ins(actions)
        else:
            actions = draw_stand_ins(actions, variant.hole_cards)
    # A run of dealt cards is applied together, one copy of the state a run rather than
    # one a card (stud's streets ``stud.deal_run``, the deal ``runs.hole_run``), and so is
    # a draw's run of stand pats, discards and drawn cards (``runs.draw_run``); ``run``
    # holds the events until the run's last one, which goes through ``step``.
    run: list[tuple[int, DealHole | Discard]] = []
    draws = hand.setup.variant.is_draw
    last = len(actions) - 1
    for index, action in enumerate(actions):
        # Only a player's cc or cbr reads the amount to call (no card or other word holds
        # "cc" or "cbr"; a comment that does only costs the look-up).
        to_call = _to_call(state) if "cc" in action or "cbr" in action else 0
        try:
            event = to_event(action, n, "", to_call)
        except PhhError:  # read it again to name the place (formatted only when needed)
            if run:  # a card before it may be refused first
                state = _deal_run(hand, state, run, rulings, rules)
            event = to_event(action, n, action_where(hand, index), to_call)
        kind = type(event)
        if (kind is DealHole or kind is Discard) and index < last:
            following = actions[index + 1]
            if (kind is DealHole and following.startswith("d dh ")) or (
                draws
                and state.draw is not None
                and (" sd" in following or following.startswith("d dh "))
            ):
                run.append((index, event))  # type: ignore[arg-type]  # a DealHole or Discard
                continue
        if run:
            state = _deal_run(hand, state, run, rulings, rules)
        if event is None:
            continue
        # The two skips below ask only of a check nobody is asked for and a tabled hand.
        if (
            kind is PlayerAction and state.action_on is None and _needless_check(state, event)
        ) or (
            kind is ShowHand
            and (state.phase is _COMPLETE or _shown_again(state, event))
        ):
            continue
        state, out = step(state, event, rules)
        for r in out:
            if r.kind is _REJECTED:
                raise _illegal(hand, index, r)
        rulings += out
    if state.phase is _SHOWDOWN:
        # PHH says "cards speak": table every known live hand nobody tabled or mucked.
        for seat in state.in_hand:
            if not seat.shown and not seat.mucked and seat.hole:
                state, out = step(state, ShowHand(seat.seat), rules)
                rulings.extend(out)
    return ReplayResult(hand, state, tuple(rulings))


def _illegal(hand: PhhHand, index: int, refusal: Ruling) -> PhhError:
    where = action_where(hand, index)
    return PhhError(f"{where}: illegal: {refusal.text} ({', '.join(refusal.rule_ids)})")


def _deal_run(
    hand: PhhHand,
    state: HandState,
    run: list[tuple[int, DealHole | Discard]],
    rulings: list[Ruling],
    rules: RuleProfile,
) -> HandState:
    """Apply the held run (``stud.deal_run``, ``runs.hole_run``, ``runs.draw_run``); the
    event that ends a street or a draw, or one that is not the usual one, goes through
    ``step`` as any other action. Empties ``run``."""
    events = [event for _, event in run]
    stud = state.variant.is_stud
    done = 0
    while done < len(events):
        if state.draw is not None:
            state, dealt, notes = draw_run(state, events[done:], rules)
            rulings += notes
        elif stud:
            state, dealt = deal_run(state, events[done:])  # type: ignore[arg-type]  # cards only
        else:
            state, dealt = hole_run(state, events[done:])  # type: ignore[arg-type]  # cards only
        done += dealt
        if done < len(events):
            state, out = step(state, events[done], rules)
            for r in out:
                if r.kind is _REJECTED:
                    raise _illegal(hand, run[done][0], r)
            rulings += out
            done += 1
    run.clear()
    return state


def _stand_ins(actions: tuple[str, ...]) -> tuple[str, ...]:
    """Stud: a public history writes a folded or mucked hand's downcards as ``??`` beside
    the upcards everyone saw (``d dh p3 ????9c``). The engine deals a street only with
    every seat's cards and finds the bring-in by the upcards, so each unknown downcard is
    dealt as a card the history names nowhere: it is never tabled and never plays."""
    named = {a[i : i + 2] for a in actions for i in range(len(a) - 1)}
    spare = iter(sorted(STANDARD_DECK - named))
    out = []
    for action in actions:
        if action.startswith("d dh ") and "??" in action:
            head, cards = action.split("#", 1)[0].rstrip().rsplit(" ", 1)  # RP-10-A's note
            pairs = (cards[i : i + 2] for i in range(0, len(cards), 2))
            action = f"{head} {''.join(next(spare) if c == '??' else c for c in pairs)}"
        out.append(action)
    return tuple(out)


def _needless_check(state: HandState, event: object) -> bool:
    """A check PHH records that the table never asks for: the last player with chips facing
    no bet once every opponent is all in (the big blind after the small blind called all in
    for exactly the big blind). PokerKit asks him to act; the engine has already closed the
    round, as a dealer would, since nobody is left to bet against him."""
    if not (isinstance(event, PlayerAction) and event.kind is _CHECK):
        return False
    if state.phase is not _DEALING or state.action_on is not None:
        return False
    with_chips = [s.seat for s in state.seats if s.status is _LIVE and s.stack > 0]
    return with_chips == [event.seat]


# A show once the pots are awarded changes nothing: our exports write R17-B's last live
# hand, which won untabled, after the mucks so that PHH readers can award it
# (``history.render.showdown_actions``); here it stays untabled.


def _shown_again(state: HandState, event: object) -> bool:
    """Stud: a hand tabled at an all-in (R16) is shown again, all seven cards, after the
    run-out; PHH records both, the second repeats what the table already sees."""
    if not (isinstance(event, ShowHand) and state.variant.is_stud and event.cards):
        return False
    if not state.has_seat(event.seat):
        return False
    seat = state.seat(event.seat)
    return seat.shown and set(event.cards) == set(seat.hole)


def _to_call(state: HandState) -> int:
    on = state.action_on
    if on is None:
        return 0
    seats = state.seats
    if 0 < on <= len(seats):  # seat N is usually the Nth (PHH's pN sits in seat N)
        seat = seats[on - 1]
        if seat.seat == on:
            return max(0, state.call_to - seat.bet)
    for s in seats:
        if s.seat == on:
            return max(0, state.call_to - s.bet)
    return max(0, state.call_to - state.seat(on).bet)  # raises the KeyError naming the seat


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", type=Path, help="PHH (.phh) or PHHS (.phhs) files")
    parser.add_argument(
        "--json",
        action="store_true",
        help="one JSON object per hand per line instead of readable text",
    )
    parser.add_argument("--rulings", action="store_true", help="with --json: include every ruling")
    parser.add_argument(
        "--partial",
        action="store_true",
        help="a file that stops before its hand ends is fine (exit 0; it is still reported)",
    )
    parser.add_argument(
        "--profile",
        default="tda-2024",
        help="rule profile the table played (default: tda-2024; a disputed hand from a table "
        "on another profile is replayed under that one; see 'pokertable rules')",
    )


def render_text(result: ReplayResult) -> str:
    """A dealer-readable account: every ruling with its rule ids, then the outcome."""
    lines = [f"hand {result.hand.name} ({result.state.variant.name})"]
    for r in result.rulings:
        ids = ", ".join(r.rule_ids)
        lines.append(f"  {r.kind:<9} {r.text}  [{ids}]")
    if result.state.board:
        lines.append(f"  board     {' '.join(result.state.board)}")
    stacks = ", ".join(f"{s.player} {s.stack}" for s in result.state.seats)
    lines.append(f"  stacks    {stacks}")
    if result.state.phase is not _COMPLETE:
        pot = sum(s.committed for s in result.state.seats)
        lines.append(
            f"  incomplete: the file stops in the {result.state.street.name.lower()} "
            f"({result.state.phase.name.lower()}) with {pot} in the pot, not yet awarded"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    rules = TDA_2024
    if args.profile != "tda-2024":  # the default needs no TOML read (start-up time)
        from pokertable.controller.rules.profiles import ProfileError, load_profile

        try:
            rules = load_profile(args.profile)
        except ProfileError as exc:
            print(f"pokertable replay: --profile: {exc}", file=sys.stderr)
            return 2
    failures = 0
    for path in args.files:
        try:
            for hand in load_hands(path):
                try:
                    result = replay_hand(hand, rules)
                except PhhError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    failures += 1
                    continue
                if args.json:
                    print(json.dumps(result.to_json(with_rulings=args.rulings)))
                else:
                    print(render_text(result))
                if result.state.phase is not _COMPLETE and not args.partial:
                    print(
                        f"error: {hand.name}: the hand is incomplete (--partial accepts that)",
                        file=sys.stderr,
                    )
                    failures += 1
        except PhhError as exc:
            print(f"error: {exc}", file=sys.stderr)
            failures += 1
    return 1 if failures else 0
