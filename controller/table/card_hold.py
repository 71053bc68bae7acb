"""A street card read while the last call's chips are still settling: held, not premature.

A card is premature when it is dealt "before action on the preceding round is finished"
(RP-5; stud RP-10-G -> RP-5-D). The readers report a chip motion once the chips have
settled, a few hundred ms after they land, while a card is read at once: a dealer who
deals the next street right after the last call has the card read before that call's
chips. So a street card read while betting is open is held (``SessionConfig.
chip_report_lag_ms``) when the round can still be completed by chips alone (every seat
that must still act faces a bet, which his chips call): the call that arrives within the
lag completes the round and the card is dealt as the street's, in its read order. A
round that still needs a word (a check, the big blind's option, an opener) is not completed
by chips in flight: the card is premature at once. A card still held when the lag has
passed (judged at the next input, or at the application's ``TimePassed`` when nothing else
comes) or once the round needs a word is premature as before.
"""

from __future__ import annotations

from pokertable.controller.engine.model import Phase, SeatStatus, evolve
from pokertable.controller.irregularities.ledger import parse_zone
from pokertable.controller.table.hands import card_cleared, card_detected
from pokertable.controller.table.inputs import CardCleared, CardDetected
from pokertable.controller.table.state import Output, TableSession


def card_read(session: TableSession, seen: CardDetected, out: list[Output]) -> TableSession:
    """A card read: held while the round may be completed by chips in flight, else dealt."""
    if any(_same(h, seen) for h in session.held_cards):
        return session  # a re-read of a held card
    if _street_card(session, seen) and _chips_may_complete(session):
        return evolve(session, held_cards=(*session.held_cards, seen))
    return card_detected(session, seen, out)


def card_gone(session: TableSession, cleared: CardCleared, out: list[Output]) -> TableSession:
    """A held card taken off again never reached the hand; any other is the layer's."""
    held = tuple(h for h in session.held_cards if not _same(h, cleared))
    if len(held) != len(session.held_cards):
        return evolve(session, held_cards=held)
    return card_cleared(session, cleared, out)


def judge_held(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """Before an input: held cards whose lag has passed are read as they came (premature
    while the round is open)."""
    held = session.held_cards
    if held and at_ms - held[0].at_ms > session.config.chip_report_lag_ms:
        return _read_held(session, out)
    return session


def held_until(session: TableSession) -> int | None:
    """The clock time after which the held cards are judged (None: nothing held): the
    application sends ``TimePassed`` then if nothing else came, so a premature card is told
    when the chips' lag has passed, not when the player acts."""
    held = session.held_cards
    return held[0].at_ms + session.config.chip_report_lag_ms if held else None


def follow_held(session: TableSession, out: list[Output]) -> TableSession:
    """After an input: the round completed (the held cards are the street's) or it now
    needs a word (they are premature): read them either way; else keep waiting."""
    if session.held_cards and not _chips_may_complete(session):
        return _read_held(session, out)
    return session


def _read_held(session: TableSession, out: list[Output]) -> TableSession:
    held = session.held_cards
    session = evolve(session, held_cards=())
    for seen in held:
        session = card_detected(session, seen, out)
    return session


def _same(a: CardDetected, b: CardDetected | CardCleared) -> bool:
    return a.card == b.card and a.uid == b.uid and a.zone == b.zone


def _street_card(session: TableSession, seen: CardDetected) -> bool:
    """A new card that would be the next street's: a board card of a flop game; in stud a
    card at a dealt seat's pad after the initial deal, or the community card (RP-10-H)."""
    tracked, hand = session.tracked, session.hand
    if tracked is None or hand is None or tracked.over or hand.phase is not Phase.BETTING:
        return False
    if tracked.ledger.by_card(seen.card) is not None or tracked.board.premature \
            or tracked.stud.premature:
        return False  # a card moved on the felt, or a premature card already out
    zone = parse_zone(seen.zone)
    if zone is None or hand.variant.is_draw:
        return False
    where, seat = zone
    if where == "board":
        return True
    if not hand.variant.is_stud or where != "seat" or seat is None:
        return False
    dealt = tracked.deal.closed and bool(hand.actions)
    return dealt and hand.has_seat(seat) and bool(hand.seat(seat).hole)


def _chips_may_complete(session: TableSession) -> bool:
    """The betting round can be completed by chips alone: every seat that must still act
    faces a bet he calls with chips (a check or an option is a word, said before the deal)."""
    hand = session.hand
    if hand is None or hand.phase is not Phase.BETTING or session.tracked is None \
            or session.tracked.over:
        return False
    live = [s for s in hand.seats if s.status is SeatStatus.LIVE]
    to_act = [s for s in live if s.bet < hand.call_to or (not s.acted and len(live) > 1)]
    return bool(to_act) and all(s.bet < hand.call_to for s in to_act)
