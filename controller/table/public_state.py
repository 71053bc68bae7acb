"""The public table state: what everyone with a login may see (mqtt/schemas/state.json).

Hole cards never appear here, only how many cards a seat holds (R67); they go to the
secure subtree. Pot amounts are published for the room's screens and servers; whether a
dealer may announce them to players is a display policy (R54-A), not a data question.
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine.model import (
    AnteFormat,
    HandState,
    Level,
    Phase,
    Pot,
    Street,
    evolve,
)
from pokertable.controller.engine.pots import build_pots
from pokertable.controller.engine.stud import pending_street, street_name
from pokertable.controller.interpretation.context import turn_options
from pokertable.controller.rules import RuleProfile
from pokertable.controller.table.orbit_rotation import next_game, orbit_json
from pokertable.controller.table.penalties import penalties_json
from pokertable.controller.table.public_seats import seat_entries
from pokertable.controller.table.session import TableSession

_ANTE_FORMAT = {
    AnteFormat.NONE: "none",
    AnteFormat.BIG_BLIND_ANTE: "bb_ante",
    AnteFormat.PER_PLAYER: "per_player",
}
_STREET = {0: "preflop", 1: "flop", 2: "turn", 3: "river"}


def level_json(level: Level) -> dict[str, Any]:
    return {
        "number": level.number,
        "small_blind": level.small_blind,
        "big_blind": level.big_blind,
        "ante": level.ante,
        "ante_format": _ANTE_FORMAT[level.ante_format],
        **({"bring_in": level.bring_in} if level.bring_in else {}),
        **({"game": level.game.value} if level.game is not None else {}),
    }


def formed_pots(hand: HandState) -> tuple[Pot, ...]:
    """The pots the dealer has formed: what earlier streets (and the antes) put in the
    middle, layered by who may win each part. Chips bet on the current street are still in
    front of the seats (each seat's ``bet``) and join the pots when the street ends; once
    the hand is over these are the pots that were awarded.

    >>> from pokertable.controller.engine import HandSetup, start_hand
    >>> from pokertable.controller.engine.model import Level, Variant
    >>> hand, _ = start_hand(HandSetup(hand_id="d", variant=Variant.NLHE,
    ...     level=Level(small_blind=100, big_blind=200), button=3, small_blind_seat=1,
    ...     big_blind_seat=2, players=((1, "A", 900), (2, "B", 900), (3, "C", 900))))
    >>> formed_pots(hand)  # only blinds, still in front of the seats
    ()
    """
    if hand.phase is Phase.COMPLETE:
        return hand.pots
    # A seat with no bet out is already settled: no copy of it.
    settled = tuple(evolve(s, committed=s.committed - s.bet) if s.bet else s for s in hand.seats)
    return build_pots(settled)


def table_state(session: TableSession, at_ms: int) -> dict[str, Any]:
    hand = session.hand
    rules = session.config.rules
    # the readers' count of every pad, from one pass over the ledger (the cards' one holder)
    held = session.tracked.ledger.held_by_zone() if session.tracked is not None else {}
    seats = seat_entries(session, hand, held)  # a seat's entry is rebuilt when it changes
    street: str | None = None
    action_on = to_call = min_raise_to = 0
    substantial = False
    pots: list[dict[str, Any]] = []
    if hand is not None:
        facts = _hand_facts(hand, rules)
        street, formed, action_on, to_call, min_raise_to, substantial = facts
        pots = [{"amount": p.amount, "eligible": list(p.eligible)} for p in formed]
    part = _session_part(session)
    return {
        "ts_ms": at_ms,
        "hand_id": hand.hand_id if hand is not None else None,
        "hand_number": session.hand_number,
        "level": part["level"],
        "pending_level": part["pending_level"],
        # the game dealt (mixed games: the level's, from its first hand; R23), as a PHH code
        "game": hand.variant.value if hand is not None else next_game(
            session.rotation, session.level, session.config.variant)
        or (session.level.game or session.config.variant).value,
        "next_game": part["next_game"],
        "orbit": part["orbit"],
        "paused": session.paused,
        "hand_for_hand": session.hand_for_hand,
        "deal_held": session.deal_held is not None,  # RP-8: waiting for the room's deal_next
        # RP-8-F: all in and called during hand-for-hand, the cards stay down
        "runout_held": session.runout_held and street not in (None, "complete"),
        "clock": part["clock"],
        "penalties": part["penalties"],
        "button": hand.button if hand is not None else session.table.button,
        "big_blind_seat": hand.big_blind_seat if hand is not None else session.table.big_blind_seat,
        "street": street,
        # stud: who brought it in, for how much, and who opens the street (RP-10-D/E)
        "stud": _stud(hand) if hand is not None and hand.variant.is_stud else None,
        # draw games: the draw under way, who is on it and who waits for cards
        "draw": _draw(hand) if hand is not None and hand.variant.is_draw else None,
        "board": list(hand.board) if hand is not None else [],
        "pots": pots,
        "awards": _awards(hand) if hand is not None and hand.phase is Phase.COMPLETE else [],
        "seats": seats,
        "action_on": action_on or None,
        "to_call": to_call,
        "min_raise_to": min_raise_to,
        # R36 as the profile reads it, from the one derivation the rules layers use
        "substantial_action": substantial,
        "alerts": part["alerts"],
    }


# The last session part (``_session_part``) and the objects it was built from.
_last_part: tuple[tuple[object, ...], dict[str, Any]] | None = None


def _session_part(session: TableSession) -> dict[str, Any]:
    """The state's parts that follow the level, the orbit, the clock, penalties and alerts,
    not the cards and chips: built again only when one of the objects they come from is
    another (all immutable, so identity is enough). A dealt card or a chip reuses the last
    ones, which also makes the comparison with the last state a matter of identity."""
    global _last_part
    tracked = session.tracked
    key = (session.config, session.level, session.pending_level, session.rotation,
           session.pending_rotation, session.clock, session.penalties,
           tracked.on_penalty if tracked is not None else None, session.alerts)
    last = _last_part
    if last is not None:
        for now, then in zip(key, last[0], strict=True):
            if now is not then:
                break
        else:
            return last[1]
    part = {
        "level": level_json(session.level),
        "pending_level": level_json(session.pending_level) if session.pending_level else None,
        # the game of the next hand (a new level's from R23, or the orbit's), and the orbit
        "next_game": next_game(
            session.rotation if session.pending_level is None else session.pending_rotation,
            session.pending_level or session.level, session.config.variant),
        "orbit": orbit_json(session.rotation),
        "clock": _player_clock(session),
        "penalties": penalties_json(session),
        "alerts": [
            {
                "id": a.id,
                "rule_ids": list(a.ruling.rule_ids),
                "kind": a.kind,
                "text": a.ruling.text[:500],
                "options": list(a.ruling.options),
            }
            for a in session.alerts
        ],
    }
    _last_part = (key, part)
    return part


_HandFacts = tuple[str, tuple[Pot, ...], int, int, int, bool]
# The last hand's facts: a dealt card or a chip held leaves the engine's hand as it was (the
# same object), so its street, pots and options are not derived again for the next state.
_last_facts: tuple[HandState, RuleProfile, _HandFacts] | None = None


def _hand_facts(hand: HandState, rules: RuleProfile) -> _HandFacts:
    """(street, formed pots, action on, to call, min raise to, R36 substantial action) of
    ``hand``: derived once per hand object (both are immutable, so identity is enough)."""
    global _last_facts
    last = _last_facts
    if last is not None and last[0] is hand and last[1] is rules:
        return last[2]
    if hand.phase is Phase.COMPLETE:
        street = "complete"
    elif hand.phase is Phase.SHOWDOWN:
        street = "showdown"
    elif hand.variant.is_stud:
        street = street_name(hand.street) if hand.bring_in_seat is not None else "third"
    else:
        street = _STREET[int(hand.street)]
    action_on = to_call = min_raise_to = 0
    opts = turn_options(hand, rules)  # shared with the reading of the next chips
    if opts is not None:
        action_on, to_call, min_raise_to = opts.seat, opts.to_call, opts.min_to
    # R36 as the profile reads it, from the one derivation the rules layers use
    facts = (street, formed_pots(hand), action_on, to_call, min_raise_to,
             hand.substantial_since(0, rules))
    _last_facts = (hand, rules, facts)
    return facts


def _stud(hand: HandState) -> dict[str, Any]:
    """The stud facts of the hand: the bring-in (RP-10-E) and the opener of the street
    (RP-10-D); None before third street is dealt. The bring-in amount is the level's; what
    the bring-in seat actually put in shows as its ``bet``."""
    posted = next((a for a in hand.actions if a.kind == "bring_in"), None)
    return {
        "bring_in_seat": hand.bring_in_seat,
        "bring_in": hand.level.bring_in,
        "bring_in_posted": posted is not None,
        "opener_seat": hand.opener_seat if hand.bring_in_seat is not None else None,
        # the street whose cards the dealer is dealing now (None: a betting round is open)
        "dealing": street_name(pending_street(hand))
        if hand.phase is Phase.DEALING and hand.street < Street.SEVENTH
        else None,
        "small_bet": hand.level.big_blind,
        "big_bet": 2 * hand.level.big_blind,
    }


def _draw(hand: HandState) -> dict[str, Any]:
    """The draw facts of the hand: ``round`` is the draw under way (0 before the first,
    the last one drawn while its betting round is open)."""
    draw = hand.draw
    drawing = hand.phase is Phase.DEALING and draw is not None and bool(draw.order or draw.owed)
    return {
        "draws": hand.variant.draws,
        "round": draw.number if draw is not None else 0,
        "drawing": drawing,
        "on_draw": draw.order[0] if drawing and draw is not None and draw.order else None,
        "serving": [s for s, _ in draw.owed] if drawing and draw is not None else [],
    }


def _awards(hand: HandState) -> list[dict[str, Any]]:
    """Who won what once the hand is over: one entry per pot won (a split pot: one each;
    hi-lo: one per half won, ``half`` naming it, so both halves' winners show, R20-C)."""
    return [
        {
            "pot": a.pot_index,
            "seat": a.seat,
            "player": hand.seat(a.seat).player,
            "amount": a.amount,
            "hand_name": a.hand_name or None,
            **({"half": a.half} if a.half else {}),
        }
        for a in hand.awards
    ]


def _player_clock(session: TableSession) -> dict[str, Any] | None:
    """R29: the player on the clock and when his time is up (the table's ``ts_ms`` clock);
    displays count down ``expires_at_ms - ts_ms`` from when the state arrives."""
    if session.clock is None:
        return None
    seat, expires = session.clock
    rules = session.config.rules
    return {"seat": seat, "expires_at_ms": expires, "seconds": rules.clock_seconds,
            "countdown": rules.clock_countdown_seconds}
