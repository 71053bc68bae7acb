"""Card reader events: validate them, keep the ledger, and route them by zone.

Bad input never changes the hand: a card in a zone that is not a card zone, a tag the
registry does not know, one tag read at two zones, or cards arriving after the hand ended
each give an alert (with a rule id and what the dealer should do) and nothing else.
"""

from __future__ import annotations

from pokertable.controller.engine.events import MuckHand
from pokertable.controller.engine.model import Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities import board, dealing, draw_cards, stud_cards
from pokertable.controller.irregularities.alerts import alert
from pokertable.controller.irregularities.events import CardRemoved, CardSeen
from pokertable.controller.irregularities.hand import (
    HandStatus,
    Step,
    TrackedHand,
    apply_engine,
    live_seat,
)
from pokertable.controller.irregularities.ledger import (
    STUB,
    card_kind,
    is_upcard_zone,
    parse_zone,
)
from pokertable.controller.rules import RuleProfile


def card_seen(t: TrackedHand, event: CardSeen, rules: RuleProfile) -> Step:
    zone = parse_zone(event.zone)
    if zone is None:
        return t, [alert(rules, ("reader_fault",), "card_bad_zone",
                         f"zone: card tag {event.tag_uid} read in {event.zone!r}, which is not a "
                         "seat's cards, the board, the burn or the muck: move the card")]
    kind = card_kind(event.card, t.deck)
    if kind == "unknown":
        return t, [alert(rules, ("nonstandard_card", "no_misdeal_after_sa"), "card_unknown_tag",
                         f"card: tag {event.tag_uid} in {event.zone} is not a known card: show it "
                         "to the floor (a card from another deck is non-standard: a misdeal "
                         "before substantial action, a scrap of paper after, R35-A6/D)")]
    where, seat = zone
    if t.over:
        if where == "muck":
            return t, []
        return t, [alert(rules, ("rabbit_hunting",), "card_after_hand",
                         f"{event.card} read in {event.zone} after the hand ended: no cards are "
                         "dealt once a hand is over (R28); collect it")]
    if kind == "nonstandard":
        return _nonstandard(t, event, rules)
    previous = t.ledger.by_card(event.card)
    if previous is not None and previous.tag != event.tag_uid:
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        return dealing.fouled_deck(t, event.card, rules)
    if previous is not None:
        return _known_card(t, event, where, seat, rules)
    t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
    return _route_new(t, event, where, seat, rules)


def _route_new(t: TrackedHand, event: CardSeen, where: str, seat: int | None,
               rules: RuleProfile) -> Step:
    card, at_ms = event.card, event.at_ms
    if t.hand.variant.is_stud:
        # after the initial deal (a card before any third-street action is the deal's own:
        # a wrong count, R35-A5)
        dealt = t.deal.closed and (t.hand.actions or t.hand.phase is not Phase.BETTING)
        short = seat is not None and t.hand.has_seat(seat) and not t.hand.seat(seat).hole
        if where == "seat" and dealt and not short:  # a seat closed short: the deal's
            assert seat is not None
            up = is_upcard_zone(event.zone)
            return stud_cards.seat_card(t, seat, card, up, rules, at_ms)
        if where == "board":
            return stud_cards.community_card(t, card, rules, at_ms)
        if where == "burn":
            return stud_cards.burn_card(t, card, rules, at_ms)
    if t.hand.variant.is_draw and t.deal.closed:
        if where == "seat" and seat is not None and t.hand.has_seat(seat):
            return draw_cards.seat_card(t, seat, card, event.tag_uid, rules, at_ms)  # his draw
        if where == "burn":
            return draw_cards.burn_card(t, card, rules, at_ms)
    if where == "seat":
        assert seat is not None
        return dealing.seat_card(t, seat, card, rules, at_ms)
    if where == "board":
        return board.board_card(t, card, rules, at_ms)
    if where == "burn":
        return board.burn_card(t, card, False, rules, at_ms)
    return t, []  # a card seen first in the muck: a stub card or a discard, nothing to track


def _known_card(t: TrackedHand, event: CardSeen, where: str, seat: int | None,
                rules: RuleProfile) -> Step:
    """The same tag again: a re-read, a card moving on, or one card seen in two places."""
    previous = t.ledger.by_tag(event.tag_uid)
    assert previous is not None
    if previous.lies_in(event.zone):
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        if t.hand.variant.is_draw and draw_cards.open_draw(t) is not None:
            return draw_cards.settle(t, rules, False)  # a card back: a draw held for it closes
        return t, []  # re-read or put back (a player peeking): not a new card
    from_zone = parse_zone(previous.zone)
    came_from_board = from_zone is not None and from_zone[0] == "board"
    came_from_seat = from_zone is not None and from_zone[0] == "seat"
    if t.hand.variant.is_draw:
        t, out, routed = _draw_move(t, event, where, seat, from_zone, rules)
        if routed:
            return t, out
    if t.hand.variant.is_draw and draw_cards.open_draw(t) is not None:
        if where == "muck" and came_from_seat and from_zone is not None and from_zone[1]:
            t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
            return draw_cards.discard_card(t, from_zone[1], event.card, rules)
        if where in ("seat", "burn") and from_zone is not None and from_zone[0] == "muck":
            # a discard dealt or burned again from a reshuffled stub (R39-D); the engine
            # refuses a discard dealt before the stub was reshuffled
            t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
            return _route_new(t, event, where, seat, rules)
    if where == "muck" and (came_from_seat or not previous.present):
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        if came_from_seat and from_zone is not None and from_zone[1] is not None and live_seat(
            t, from_zone[1]
        ) and t.deal.closed:
            s = from_zone[1]
            if t.hand.action_on == s:
                return t, []  # his fold in turn: the action event follows from the table
            if t.hand.phase is Phase.SHOWDOWN:
                if t.hand.seat(s).mucked:
                    return t, []
                t, out = apply_engine(t, MuckHand(s), rules)
                return t, [*out, alert(rules, ("muck_kills",), "mucked_at_showdown",
                                       f"seat {s}'s cards reached the muck: the hand is dead "
                                       "(R14)", seat=s, kind=RulingKind.INFO)]
            return t, [alert(rules, ("muck_kills", "fouled_hand"), "live_card_in_muck",
                             f"{event.card} of seat {s}, a live hand, reached the muck: if the "
                             "hand cannot be identified with certainty it is dead (R14, R65-A); "
                             "enter the kill or take the card back", seat=s)]
        return t, []
    if where == "burn" and came_from_board:
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        return board.burn_card(t, event.card, True, rules, event.at_ms)
    if (came_from_board and not previous.present) or previous.zone == STUB:
        # A premature card went back to the stub and is dealt again.
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        return _route_new(t, event, where, seat, rules)
    return t, [alert(rules, ("reader_fault",), "card_two_zones",
                     f"{event.card} (tag {event.tag_uid}) was in {previous.zone} and is now read "
                     f"in {event.zone}: check where the card is; nothing was changed")]


def _draw_move(t: TrackedHand, event: CardSeen, where: str, seat: int | None,
               from_zone: tuple[str, int | None] | None,
               rules: RuleProfile) -> tuple[TrackedHand, list[Ruling], bool]:
    """Draw games: a card of a seat's hand back on his pad from the muck (the floor had it
    taken back), an exposed draw card reaching the muck, or another card of a seat just
    served reaching the muck (R14, R35-A7)."""
    came_from_muck = from_zone is not None and from_zone[0] == "muck"
    if where == "muck" and event.card in t.draw.exposed:
        return evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone)), [], True
    if (where == "seat" and came_from_muck and seat is not None and t.hand.has_seat(seat)
            and event.card in t.hand.seat(seat).hole):
        t = draw_cards.taken_back(t, seat, event.card)
        return evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone)), [], True
    served = from_zone[1] if from_zone is not None and from_zone[0] == "seat" else None
    if where == "muck" and served is not None and draw_cards.just_served(t, served):
        t = evolve(t, ledger=t.ledger.put(event.card, event.tag_uid, event.zone))
        t, out = draw_cards.discard_after_served(t, served, event.card, rules)
        return t, out, True
    return t, [], False


def _nonstandard(t: TrackedHand, event: CardSeen, rules: RuleProfile) -> Step:
    if t.sa(rules) or not rules.misdeal_on_nonstandard_card:
        return t, [alert(rules, ("nonstandard_card", "no_misdeal_after_sa"), "scrap_of_paper",
                         f"non-standard card {event.card} in {event.zone} after substantial "
                         "action: it is a scrap of paper; remove it and play on (R35-D)",
                         kind=RulingKind.INFO)]
    return dealing.offer_misdeal(t, rules, "nonstandard_card", "misdeal_nonstandard_card",
                                 f"non-standard card {event.card} in {event.zone}")


def card_removed(t: TrackedHand, event: CardRemoved, rules: RuleProfile) -> Step:
    placed = t.ledger.by_tag(event.tag_uid)
    if placed is None or placed.zone != event.zone or not placed.present:
        return t, []  # a card we never tracked (stub, rejected read) left: nothing to undo
    t = evolve(t, ledger=t.ledger.put(placed.card, placed.tag, placed.zone, present=False))
    if t.hand.variant.is_stud and placed.card in t.stud.premature:
        return stud_cards.card_removed(t, placed.card, placed.tag, rules)  # RP-5-D
    if t.hand.variant.is_stud and is_upcard_zone(event.zone):
        return stud_cards.upcard_lifted(t, placed.card, event.zone, rules)  # R66
    if event.zone == "board" and t.status is not HandStatus.COMPLETE:
        return board.board_card_removed(t, placed.card, rules)
    return t, []
