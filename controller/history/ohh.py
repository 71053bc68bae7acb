"""Hands as Open Hand History (OHH) JSON, the hand-history standard of handhistory.org.

OHH 1.4.6 puts a hand in one JSON object ``{"ohh": {...}}``: the game (``game_type``,
``bet_limit``, blinds and ante), the seats (``players`` with their starting stacks,
``dealer_seat``), the ``rounds`` (Preflop, Flop, Turn, River, Showdown), each with the
cards it dealt and its actions in order, and the ``pots`` with who won what. A file holds
several hands, each object followed by one blank line (OHH "Storage Format"; the file is
then a stream of JSON objects, not one JSON value), with the ``.ohh`` extension.

Written from the engine's replay of the hand's PHH (``history.tracker``), as the OHH spec
reads the actions: a "Call", "Bet" or "Raise" amount is the chips that action put in (a
raise to 600 over one's own 200 is 400), "Bet" never pre-flop, antes and blinds are
"Post Ante", "Post SB", "Post BB" (a dead small blind, R32, is simply not posted), an
uncalled bet given back is not in any pot. Live tournament chips are no money: ``currency``
is ``"Chips"`` and every rake 0. pokertable's own fields (none needed by a reader) are not
added: OHH readers meet only the spec's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from pokertable.controller.engine.model import Street, Variant
from pokertable.controller.history.render import ExportError
from pokertable.controller.history.tracker import ExportContext, FinishedHand

SPEC_VERSION = "1.4.6"
INTERNAL_VERSION = "1.0.0"  # this writer's; bumped when what it writes changes
_GAME_TYPE = {Variant.NLHE: "Holdem", Variant.FLHE: "Holdem", Variant.PLO: "Omaha"}
_BET_TYPE = {Variant.NLHE: "NL", Variant.FLHE: "FL", Variant.PLO: "PL"}
_ROUND = {
    Street.PREFLOP: "Preflop",
    Street.FLOP: "Flop",
    Street.TURN: "Turn",
    Street.RIVER: "River",
}
_KIND = {"fold": "Fold", "check": "Check", "call": "Call", "bet": "Bet", "raise": "Raise"}


def hand_to_ohh(
    hand: FinishedHand, context: ExportContext, number: int, *, hero: str | None = None
) -> dict[str, Any]:
    """One hand as the OHH object (``{"ohh": ...}``); ``number`` is its ``game_number``.

    ``hero``: only that player's hole cards are dealt, and he is ``hero_player_id``."""
    end = hand.end
    level = end.level
    seats = hand.by_table_seat()
    player_id = {s.seat: i for i, s in enumerate(seats)}
    heroes = [s.seat for s in seats if s.player == hero]
    started = hand.when.strftime("%Y-%m-%dT%H:%M:%S") if hand.when else None  # UTC
    counter = iter(range(1, 10_000))

    def action(seat: int | None, kind: str, **more: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"action_number": next(counter)}
        if seat is not None:
            out["player_id"] = player_id[seat]
        out["action"] = kind
        out.update(more)
        return out

    preflop: list[dict[str, Any]] = []
    for s in seats:
        if hand.ante(s.seat):
            preflop.append(action(s.seat, "Post Ante", amount=hand.ante(s.seat)))
    for seat, kind in ((end.small_blind_seat, "Post SB"), (end.big_blind_seat, "Post BB")):
        if seat is not None and hand.blind(seat):
            left = hand.starting_stack(seat) - hand.ante(seat) - hand.blind(seat)
            preflop.append(action(seat, kind, amount=hand.blind(seat), is_allin=left == 0))
    for s in sorted(end.seats, key=lambda s: s.seat):  # dealt from the small blind round
        known = s.hole and (hero is None or s.player == hero)
        preflop.append(action(s.seat, "Dealt Cards", **({"cards": list(s.hole)} if known else {})))
    rounds: list[dict[str, Any]] = []
    for street, dealt, actions in hand.streets():
        listed = preflop if street is Street.PREFLOP else []
        for played in actions:
            a = played.action
            more: dict[str, Any] = {}
            if a.kind in ("call", "bet", "raise"):
                more["amount"] = played.put
            listed.append(action(a.seat, _KIND[a.kind], is_allin=a.all_in, **more))
        round_: dict[str, Any] = {"id": len(rounds), "street": _ROUND[street]}
        if street is not Street.PREFLOP:
            round_["cards"] = list(dealt)
        round_["actions"] = listed
        rounds.append(round_)
    live = [s for s in end.seats if s.in_hand]
    if len(live) > 1:
        shown = [
            action(s.seat, "Shows Cards", cards=list(s.hole))
            if s.shown and s.hole
            else action(s.seat, "Mucks Cards")
            for s in live
        ]
        rounds.append({"id": len(rounds), "street": "Showdown", "actions": shown})
    pots = []
    for index, pot in enumerate(end.pots):
        wins = [
            {"player_id": player_id[a.seat], "win_amount": a.amount, "contributed_rake": 0}
            for a in end.awards
            if a.pot_index == index
        ]
        pots.append(
            {"number": index, "amount": pot.amount, "rake": 0, "jackpot": 0, "player_wins": wins}
        )
    tournament_info: dict[str, Any] = {
        "tournament_number": context.tournament,
        "name": context.event,
        "currency": "Chips",
        "buyin_amount": 0,
        "fee_amount": 0,
        "bounty_fee_amount": 0,
        "type": "MTT",
    }
    if started is not None:
        tournament_info["start_date_utc"] = started
    if context.initial_stack is not None:
        tournament_info["initial_stack"] = context.initial_stack
    ohh: dict[str, Any] = {
        "spec_version": SPEC_VERSION,
        "site_name": context.site,
        "network_name": context.site,
        "internal_version": INTERNAL_VERSION,
        "tournament": True,
        "tournament_info": tournament_info,
        "game_number": str(number),
        "table_name": hand.table,
        "game_type": _GAME_TYPE[end.variant],
        "bet_limit": {"bet_type": _BET_TYPE[end.variant], "bet_cap": 0},
        "table_size": hand.seat_count,
        "currency": "Chips",
        "dealer_seat": hand.button_seat,
        "small_blind_amount": level.small_blind,
        "big_blind_amount": level.big_blind,
        "ante_amount": level.ante,
        **({"hero_player_id": player_id[heroes[0]]} if heroes else {}),
        "players": [
            {
                "id": player_id[s.seat],
                "seat": hand.seat_of(s.seat),
                "name": s.player,
                "display": s.player,
                "starting_stack": hand.starting_stack(s.seat),
            }
            for s in seats
        ],
        "rounds": rounds,
        "pots": pots,
    }
    if started is not None:
        ohh["start_date_utc"] = started
    return {"ohh": ohh}


def render_ohh(hands: Iterable[dict[str, Any]]) -> str:
    """An ``.ohh`` file: each hand's JSON object followed by one blank line."""
    return "".join(json.dumps(h, ensure_ascii=False) + "\n\n" for h in hands)


def read_ohh(text: str) -> list[dict[str, Any]]:
    """The hands of an ``.ohh`` file (objects separated by blank lines); ExportError if not."""
    decoder = json.JSONDecoder()
    hands: list[dict[str, Any]] = []
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at == len(text):
            return hands
        try:
            value, at = decoder.raw_decode(text, at)
        except json.JSONDecodeError as exc:
            raise ExportError(f"hand {len(hands) + 1}: not JSON: {exc}") from exc
        if not isinstance(value, dict) or "ohh" not in value:
            raise ExportError(f'hand {len(hands) + 1}: not an {{"ohh": ...}} object')
        hands.append(value)
