"""Readers of the tracker formats that are not ours, for the export tests (issue #31).

PokerStars text goes through PokerKit's ``PokerStarsParser`` (PyPI ``pokerkit``, maintained,
the PHH reference implementation): it reads the seats, posts, hole cards, board and
actions from the text and plays the hand through PokerKit's own state machine, so the
stacks and the pot winners it ends on are PokerKit's, not ours. Its parser leaves one hook
unfilled: antes (``ANTE_POSTING`` matches nothing); the subclass below fills it with
PokerStars' ante line, the parser's own machinery does the rest.

OHH goes through ``ohh-pydantic`` (PyPI), models of the OHH 1.4.6 spec, then through
the reckoning any OHH reader makes of a hand: every player's posts, calls, bets and
raises out, the pots' ``player_wins`` in, and the uncalled part of the largest
contribution back. ohh-pydantic 0.1.1 is stricter than the spec in two places, relaxed
here and nowhere else: it requires ``bet_limit.action``, a field the spec does not have,
and it takes only money currencies in ``tournament_info`` (the spec: any string). The
archive does not know a level's minutes, so ``tournament_info.speed`` is not written.
"""

from __future__ import annotations

import re
import warnings
from collections import defaultdict
from typing import Any

PUT_IN = (
    "Post Ante",
    "Post SB",
    "Post BB",
    "Post Dead",
    "Post Extra Blind",
    "Straddle",
    "Call",
    "Bet",
    "Raise",
)


def pokerkit_outcomes(text: str) -> list[tuple[dict[str, int], set[str]]]:
    """Each hand of a PokerStars text as PokerKit plays it: finishing stacks by player, and
    the players PokerKit pushed pot chips to."""
    from pokerkit import ChipsPushing, PokerStarsParser

    class WithAntes(PokerStarsParser):
        ANTE_POSTING = re.compile(r"(?P<player>.+): posts the ante (?P<ante>[0-9]+)")

    outcomes = []
    with warnings.catch_warnings():  # PokerKit's parser names its own time-zone field so
        warnings.filterwarnings("ignore", message=".*time_zone_abbreviation")
        histories = list(WithAntes()(text, error_status=True))
    for history in histories:
        state = list(history)[-1]
        assert not state.status, "PokerKit did not reach the end of the hand"
        players = list(history.players or [])
        winners = {
            players[i]
            for op in state.operations
            if isinstance(op, ChipsPushing)
            for i, amount in enumerate(op.amounts)
            if amount > 0
        }
        outcomes.append((dict(zip(players, state.stacks, strict=True)), winners))
    return outcomes


def ohh_outcome(hand: dict[str, Any]) -> tuple[dict[str, int], set[str]]:
    """A hand's ``{"ohh": ...}`` object checked on the spec's models, then reckoned: the
    finishing stacks by player and the players with pot wins."""
    from open_hh_models.models import BetLimit, OpenHandHistory, TournamentInfo

    class SpecBetLimit(BetLimit):
        action: str | None = None  # type: ignore[assignment]

    class SpecTournamentInfo(TournamentInfo):
        currency: str  # type: ignore[assignment]
        speed: Any = None

    class SpecOpenHandHistory(OpenHandHistory):
        bet_limit: SpecBetLimit
        tournament_info: SpecTournamentInfo | None = None

    ohh = hand["ohh"]
    model = SpecOpenHandHistory.model_validate(ohh)
    names = {p.id: p.name for p in model.players}
    stacks = {p.name: int(p.starting_stack) for p in model.players}
    put: dict[str, int] = defaultdict(int)
    live: dict[str, int] = defaultdict(int)  # what players match: all but the dead antes
    for round_ in model.rounds:
        for action in round_.actions:
            if action.action in PUT_IN and action.player_id is not None:
                name = names[action.player_id]
                put[name] += int(action.amount or 0)
                if action.action != "Post Ante":
                    live[name] += int(action.amount or 0)
    pots = sum(int(p.amount) for p in model.pots)
    ranked = sorted(live.items(), key=lambda kv: kv[1], reverse=True)
    if sum(put.values()) > pots:  # the uncalled part of the largest live contribution
        top, amount = ranked[0]
        second = ranked[1][1] if len(ranked) > 1 else 0
        assert sum(put.values()) - pots == amount - second, "chips vanished from the pots"
        put[top] -= amount - second
    winners: set[str] = set()
    for pot in model.pots:
        assert sum(int(w.win_amount) for w in pot.player_wins or []) == int(pot.amount)
        for win in pot.player_wins or []:
            stacks[names[win.player_id]] += int(win.win_amount)
            if win.win_amount > 0:
                winners.add(names[win.player_id])
    return {name: stacks[name] - put[name] for name in stacks}, winners
