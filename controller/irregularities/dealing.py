"""The initial deal as the seat readers see it: misdeals (R35-A..D), fouled decks (R35-E), R37.

Every misdeal trigger the readers can prove is checked as the cards land: the first card
to the wrong seat, a card to a seat not dealt in, a non-standard card; the counts (a seat
dealt out, too many or too few cards, the button exception of R37) once the deal closes.
Boxed cards and exposures come from the dealer. A misdeal is offered, never forced: the
dealer confirms it, and once substantial action occurs the offer is withdrawn (R35-D).

>>> from pokertable.controller.engine import HandSetup
>>> from pokertable.controller.engine.model import Level, Variant
>>> from pokertable.controller.rules import TDA_2024
>>> from pokertable.controller.irregularities.tracked import start_tracked
>>> setup = HandSetup(hand_id="d", variant=Variant.NLHE, level=Level(small_blind=50,
...     big_blind=100), button=3, small_blind_seat=1, big_blind_seat=2,
...     players=((1, "A", 1000), (2, "B", 1000), (3, "C", 1000)))
>>> t, _ = start_tracked(setup, TDA_2024)
>>> t, rulings = seat_card(t, 2, "As", TDA_2024)
>>> rulings[0].code, rulings[0].rule_ids
('misdeal_first_card', ('TDA2024-35A2', 'TDA2024-35C'))
"""

from __future__ import annotations

from pokertable.controller.engine.events import CardExposed, DealHole
from pokertable.controller.engine.model import evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities import draw_cards
from pokertable.controller.irregularities.alerts import alert, floor
from pokertable.controller.irregularities.hand import (
    HandStatus,
    MisdealOffer,
    Step,
    TrackedHand,
    apply_engine,
)
from pokertable.controller.irregularities.killed import kill_hand, return_all_bets
from pokertable.controller.irregularities.ledger import is_upcard_zone
from pokertable.controller.irregularities.presence import kill_at_deal
from pokertable.controller.rules import DrawDealExposure, RuleProfile

MISDEAL_PROCEDURE = (
    "Stop dealing and call the misdeal: collect every card, reshuffle and re-deal as an exact "
    "replay: the button does not move, no new players are seated, the limits stay the same "
    "(R35-C)."
)


def first_seat(t: TrackedHand) -> int:
    """The first seat clockwise of the button that is dealt in (heads-up: the big blind).
    Stud has no button in play (it is frozen, R11-B): the dealer deals from his left, the
    first seat dealt in by number."""
    if t.hand.variant.is_stud:
        return t.hand.seats[0].seat
    return t.hand.seats_clockwise_from(t.hand.button)[0].seat


def offer_misdeal(
    t: TrackedHand, rules: RuleProfile, concept: str, code: str, why: str, seat: int | None = None
) -> Step:
    """Offer a misdeal for one R35-A trigger, or say why none can be declared after SA."""
    if t.sa(rules):
        return t, [alert(rules, (concept, "no_misdeal_after_sa"), "no_misdeal_after_sa",
                         f"{why}. Substantial action has occurred: no misdeal, the hand proceeds "
                         "(R35-D).", seat=seat)]
    rule_id = rules.rule_id(concept)
    offer = t.misdeal or MisdealOffer((), ())
    if code not in offer.codes:
        offer = MisdealOffer((*offer.codes, code), (*offer.rule_ids, rule_id))
    ruling = alert(rules, (concept, "redeal"), code, f"Misdeal: {why}. {MISDEAL_PROCEDURE}",
                   seat=seat)
    return evolve(t, misdeal=offer), [ruling]


def seat_card(t: TrackedHand, seat: int, card: str, rules: RuleProfile, at_ms: int = 0) -> Step:
    """A new standard card landed at ``seat``'s card zone."""
    entitled = t.hand.has_seat(seat)
    if not t.deal.closed:
        rulings: list[Ruling] = []
        t, out = judge_first_card(t, rules, at_ms)  # a read after the window: decide now
        rulings += out
        t = _note_first_read(t, seat, at_ms)
        if t.read_window_ms == 0:
            t, out = judge_first_card(t, rules, at_ms, now=True)
            rulings += out
        if not entitled:
            t, out = offer_misdeal(t, rules, "misdeal_not_entitled", "misdeal_not_entitled",
                                   f"seat {seat} is not dealt in to this hand but got a card",
                                   seat)
            rulings += out
        t = evolve(t, deal=evolve(t.deal, order=(*t.deal.order, (seat, card))))
        need = t.hand.variant.hole_cards
        stud = t.hand.variant.is_stud  # the upcards come last: every seat's ends the deal
        if _deal_complete(t, need, stud):
            if stud:
                t = evolve(t, stud=evolve(t.stud, deal_closed_ms=at_ms))
            t, out = close_deal(t, rules)
            rulings += out
        return t, rulings
    return _card_after_deal(t, seat, card, rules, at_ms)


def _deal_complete(t: TrackedHand, need: int, stud: bool) -> bool:
    """Every seat dealt in holds ``need`` cards (stud: or has its upcard, read last)."""
    if not stud and len(t.deal.order) < need * len(t.hand.seats):
        return False  # too few cards for every seat to hold its own: the deal's common case
    return all(len(t.deal.cards_of(s.seat)) >= need
               or (stud and any(_read_up(t, c) for c in t.deal.cards_of(s.seat)))
               for s in t.hand.seats)


def _note_first_read(t: TrackedHand, seat: int, at_ms: int) -> TrackedHand:
    deal = t.deal
    if deal.first_judged:
        return t
    if deal.first_read_ms is None:
        deal = evolve(deal, first_read_ms=at_ms, first_window=(seat,))
    elif seat not in deal.first_window:
        deal = evolve(deal, first_window=(*deal.first_window, seat))
    else:
        return t  # a seat already in the window: nothing new to note
    return evolve(t, deal=deal)


def judge_first_card(t: TrackedHand, rules: RuleProfile, at_ms: int, now: bool = False) -> Step:
    """R35-A2, judged on what the readers can prove: the seat the first card belongs to must
    be among the seats read within one read window of the first read.

    The readers report in antenna-scan and bus-poll order, so cards dealt within one window
    of each other arrive in any order; only a first seat read later than that proves the
    first card went elsewhere. Decided once the window has passed (``at_ms``), the deal
    closes, or ``now``.
    """
    deal = t.deal
    if deal.first_judged or deal.first_read_ms is None:
        return t, []
    if not now and at_ms - deal.first_read_ms <= t.read_window_ms:
        return t, []
    t = evolve(t, deal=evolve(deal, first_judged=True))
    expected = first_seat(t)
    if expected in deal.first_window:
        return t, []
    seat = deal.first_window[0]
    return offer_misdeal(
        t, rules, "misdeal_first_card", "misdeal_first_card",
        f"the first card went to seat {seat}; it belongs to seat {expected}", seat)


def first_card_proven(t: TrackedHand) -> bool:
    """The readers proved the first card went where it belongs: its seat alone was read
    within one read window of the deal's first read, and the window has passed."""
    return t.deal.first_judged and t.deal.first_window == (first_seat(t),)


def dealer_first_card(t: TrackedHand, rules: RuleProfile) -> Step:
    """The dealer saw the first card go to the wrong seat, where the readers could not order
    the first cards (R35-A2): the misdeal is declared, as the dealer's confirm of one the
    table proved. Refused once substantial action has occurred (R35-D), before any card
    is read, or when the readers proved the first card went to its seat."""
    rule = (rules.cite("misdeal_first_card"),)
    expected = first_seat(t)
    if t.sa(rules):
        return t, [Ruling(RulingKind.REJECTED, (rules.cite("no_misdeal_after_sa"),),
                          "substantial action has occurred: a misdeal can no longer be "
                          "declared; the hand proceeds (R35-D)", code="no_misdeal_after_sa")]
    if t.deal.first_read_ms is None:
        return t, [Ruling(RulingKind.REJECTED, rule, "no card of the deal has been read yet: "
                          "nothing to declare a first-card misdeal on", code="first_card_unread")]
    if first_card_proven(t):
        return t, [Ruling(RulingKind.REJECTED, rule,
                          f"the readers saw the first card at seat {expected}, where it "
                          "belongs, with no other seat read within one read window: no "
                          "misdeal", code="first_card_proven", seat=expected)]
    heads_up = (f"heads-up the first card goes to the big blind, seat {expected}, and the "
                "button is dealt the last (R34-B)" if len(t.hand.seats) == 2
                else f"it belongs to seat {expected}")
    t, rulings = offer_misdeal(
        t, rules, "misdeal_first_card", "misdeal_first_card",
        f"the dealer saw the first card go to the wrong seat; {heads_up}")
    t, declared = confirm_misdeal(t, rules)
    return t, rulings + declared


def _card_after_deal(t: TrackedHand, seat: int, card: str, rules: RuleProfile,
                     at_ms: int = 0) -> Step:
    need = t.hand.variant.hole_cards
    if t.hand.variant.is_stud and t.hand.has_seat(seat) and not t.hand.seat(seat).hole:
        return _late_stud_card(t, seat, card, rules, at_ms)
    if not t.hand.has_seat(seat):
        if t.sa(rules):
            return t, [alert(rules, ("one_burn",), "card_to_empty_seat",
                             f"card {card} at seat {seat}, which is not in the hand: muck it; "
                             "it is not a burn (R38)", seat=seat)]
        return offer_misdeal(t, rules, "misdeal_not_entitled", "misdeal_not_entitled",
                             f"seat {seat} is not dealt in to this hand but got a card", seat)
    held = (*t.deal.cards_of(seat), card)
    t = evolve(t, deal=evolve(t.deal, order=(*t.deal.order, (seat, card))))
    if seat == t.hand.button and t.deal.button_short and rules.button_short_replace:
        if len(held) < need:
            return t, []
        t = evolve(t, deal=evolve(t.deal, button_short=False))
        t, rulings = apply_engine(t, DealHole(seat, held), rules)
        return t, [*rulings, alert(rules, ("button_short",), "button_short_replaced",
                                   f"the button's missing card was replaced: seat {seat} holds "
                                   f"{len(held)} cards (R37)", seat=seat, kind=RulingKind.INFO)]
    if seat == t.hand.button and t.deal.button_short and len(held) == need:
        # No R37 replacement in these rules (TDA 2011): a late card to the button is the floor's.
        return t, [floor(rules, ("button_short",), "button_short_floor",
                         f"a card reached the short button (seat {seat}) after the deal; these "
                         "rules do not replace a button's missing card: the floor decides",
                         ("keep_hand", "dead_hand"), seat=seat)]
    return wrong_count(t, seat, len(held), rules)


def wrong_count(t: TrackedHand, seat: int, count: int, rules: RuleProfile) -> Step:
    """R35-A5 before SA (a misdeal); after SA the hand is dead and one burn per street (R38)."""
    need = t.hand.variant.hole_cards
    if seat not in t.deal.wrong_count:
        t = evolve(t, deal=evolve(t.deal, wrong_count=(*t.deal.wrong_count, seat)))
    why = f"seat {seat} holds {count} card{'s' if count != 1 else ''}, {need} expected"
    if t.sa(rules):
        return kill_wrong_count(t, seat, rules)
    if not rules.misdeal_on_card_count:
        return t, [floor(rules, ("misdeal_card_count",), "card_count_floor",
                         f"{why}: the rules leave this to the floor (misdeal or dead hand)",
                         ("misdeal", "dead_hand"), seat=seat)]
    return offer_misdeal(t, rules, "misdeal_card_count", "misdeal_card_count", why, seat)


def kill_wrong_count(t: TrackedHand, seat: int, rules: RuleProfile) -> Step:
    hand, rulings = kill_hand(t.hand, seat, rules, refund_uncalled=True)
    t = evolve(t, hand=hand, killed=(*t.killed, seat))
    return t, [
        alert(rules, ("one_burn", "no_misdeal_after_sa"), "dead_hand_card_count",
              f"seat {seat} was dealt the wrong number of cards and substantial action has "
              "occurred: the hand is dead, muck all its cards. Burn exactly one card from the "
              "stub for each later street, never more (R38).", seat=seat),
        *rulings,
    ]


def close_deal(t: TrackedHand, rules: RuleProfile) -> Step:
    """The last card of the initial deal landed (or the first action came): judge the counts."""
    need = t.hand.variant.hole_cards
    t, rulings = judge_first_card(t, rules, 0, now=True)
    t = evolve(t, deal=evolve(t.deal, closed=True, absent_at_deal=t.absent),
               status=HandStatus.PLAYING)
    for s in t.hand.seats:
        held = t.deal.cards_of(s.seat)
        if s.hole:  # dealt through an engine ``DealHole`` (no card readers at this seat)
            continue
        if len(held) == need and t.hand.variant.is_stud:
            t, out = _stud_third_street(t, s.seat, held, rules)
        elif len(held) == need:
            t, out = apply_engine(t, DealHole(s.seat, held), rules)
        elif not held:
            t, out = offer_misdeal(t, rules, "misdeal_dealt_out", "misdeal_dealt_out",
                                   f"seat {s.seat} is dealt in but got no cards", s.seat)
        elif len(held) < need and s.seat == t.hand.button and not t.hand.variant.is_stud:
            t = evolve(t, deal=evolve(t.deal, button_short=True))
            out = [alert(rules, ("button_short",), "button_short",
                         f"the button (seat {s.seat}) holds {len(held)} of {need} cards: not a "
                         "misdeal. "
                         + ("Replace the missing card from the stub now. " if
                            rules.button_short_replace else "")
                         + "If the button checks or bets with too few cards, his hand is dead "
                         "(R37).", seat=s.seat)]
        else:
            t, out = wrong_count(t, s.seat, len(held), rules)
        rulings += out
    t, out = kill_at_deal(t, rules)
    return t, rulings + out


def _stud_third_street(t: TrackedHand, seat: int, held: tuple[str, ...],
                       rules: RuleProfile) -> Step:
    """Stud's initial deal: the downcards (read on ``seat<N>.cards``) then the upcard (on
    ``seat<N>.up``), as the engine takes them. Not two down and one up: the floor is told
    RP-10-A (an exposed downcard is his upcard, and the third card is dealt down to him)."""
    ups = tuple(c for c in held if _read_up(t, c))
    downs = tuple(c for c in held if c not in ups)
    t, rulings = apply_engine(t, DealHole(seat, downs + ups), rules)
    if len(ups) != 1:
        rulings = [*rulings, alert(
            rules, ("stud_exposed_downcard",), "stud_upcard_count",
            f"seat {seat} has {len(ups)} upcard(s) on the deal, one expected: a downcard "
            "exposed on the deal becomes his upcard and his third card is dealt down "
            f"(RP-10-A); the table takes {(downs + ups)[2]} as the upcard: call the floor",
            seat=seat)]
    return t, rulings


def _late_stud_card(t: TrackedHand, seat: int, card: str, rules: RuleProfile,
                    at_ms: int) -> Step:
    """A card for a seat the stud deal closed short. Read within one read window of the
    deal's last upcard it is the readers' order, not the dealer's: the seat's third card,
    and no misdeal for it. Later it is one card too many or too few (R35-A5)."""
    held = (*t.deal.cards_of(seat), card)
    t = evolve(t, deal=evolve(t.deal, order=(*t.deal.order, (seat, card))))
    closed = t.stud.deal_closed_ms
    need = t.hand.variant.hole_cards
    if len(held) != need or closed is None or at_ms - closed > t.read_window_ms:
        return wrong_count(t, seat, len(held), rules)
    short = tuple(s for s in t.deal.wrong_count if s != seat)
    offer = t.misdeal
    if offer is not None and not short and offer.codes == ("misdeal_card_count",):
        offer = None
    t = evolve(t, deal=evolve(t.deal, wrong_count=short), misdeal=offer)
    t, rulings = _stud_third_street(t, seat, held, rules)
    note = alert(rules, ("misdeal_card_count",), "late_read",
                 f"seat {seat}'s card was read after the deal's last upcard, within one read "
                 "window: the readers' order; the seat has its three cards, no misdeal for it",
                 seat=seat, kind=RulingKind.INFO)
    return t, [note, *rulings]


def _read_up(t: TrackedHand, card: str) -> bool:
    placed = t.ledger.by_card(card)
    return placed is not None and is_upcard_zone(placed.zone)


def boxed_card(t: TrackedHand, rules: RuleProfile) -> Step:
    if t.deal.closed:
        return t, [alert(rules, ("misdeal_boxed",), "boxed_card",
                         "a boxed card after the initial deal is not a misdeal: replace it as "
                         "house policy says")]
    t = evolve(t, deal=evolve(t.deal, boxed=t.deal.boxed + 1))
    if t.deal.boxed >= rules.misdeal_boxed_cards:
        return offer_misdeal(t, rules, "misdeal_boxed", "misdeal_boxed",
                             f"{t.deal.boxed} boxed cards on the initial deal")
    return t, [alert(rules, ("misdeal_boxed",), "boxed_card",
                     "one boxed card: not a misdeal (R35-A1 needs two); the floor rules how "
                     "it is replaced")]


def deal_position(t: TrackedHand, seat: int, card_index: int) -> int:
    """Where a card comes off the deck (0 = first), from the deal the rules imply (R35-B):
    one card at a time clockwise from the first seat left of the button, round after round.

    The readers' arrival order is no guide: each node scans its antennas in turn and the
    Pi polls the nodes in turn, so cards pitched together arrive in any order.
    """
    order = [s.seat for s in t.hand.seats_clockwise_from(t.hand.button)]
    return (card_index - 1) * len(order) + order.index(seat)


def exposure(t: TrackedHand, seat: int, card_index: int, rules: RuleProfile) -> Step:
    """R35-A7: one of the first two cards off the deck, or any two other downcards, exposed.

    ``card_index`` is the round of the deal (1 = the seat's first card); its place in the
    deal comes from the button and the seats dealt in, never from the order of the reads.
    """
    held = t.deal.cards_of(seat)
    if t.hand.variant.is_stud and t.hand.has_seat(seat):
        return _stud_exposure(t, seat, card_index, rules)
    if t.hand.variant.is_draw and t.deal.closed and (
            draw_cards.open_draw(t) is not None or draw_cards.just_served(t, seat)):
        return draw_cards.exposure(t, seat, rules)  # a card he draws (house rules, R35-A7)
    if (t.hand.variant.is_draw and rules.draw_deal_exposure is DrawDealExposure.FLOOR
            and t.hand.has_seat(seat)):
        return _draw_deal_exposure(t, seat, card_index, rules)
    if not t.hand.has_seat(seat) or not 1 <= card_index <= len(held):
        return t, [alert(rules, ("reader_fault",), "exposure_unknown_card",
                         f"seat {seat} has no card number {card_index} on the readers; "
                         "enter the exposure again")]
    t = evolve(t, deal=evolve(t.deal, exposures=(*t.deal.exposures, (seat, card_index))))
    position = deal_position(t, seat, card_index)
    others = sum(1 for s, i in t.deal.exposures if deal_position(t, s, i) >= 2)
    if position < 2 or others >= 2:
        why = ("one of the first two cards off the deck was exposed" if position < 2
               else "two downcards were exposed by the dealer")
        return offer_misdeal(t, rules, "misdeal_exposed", "misdeal_exposed", why, seat)
    return t, [alert(rules, ("misdeal_exposed",), "card_exposed",
                     f"seat {seat}'s card exposed by the dealer: one such card is not a misdeal; "
                     "the floor rules on it", seat=seat)]


def _draw_deal_exposure(t: TrackedHand, seat: int, card_index: int, rules: RuleProfile) -> Step:
    """R35-A7's exposed-card misdeal is for flop games; the house leaves a draw deal's to the
    floor (``draw_deal_exposure = floor``): a misdeal before SA, or play on."""
    t = evolve(t, deal=evolve(t.deal, exposures=(*t.deal.exposures, (seat, card_index))))
    why = f"seat {seat}'s card {card_index} was exposed by the dealer on the deal of a draw game"
    if t.sa(rules):
        return t, [alert(rules, ("draw_house", "no_misdeal_after_sa"), "no_misdeal_after_sa",
                         f"{why}. Substantial action has occurred: no misdeal, the hand "
                         "proceeds (R35-D).", seat=seat)]
    return t, [floor(rules, ("draw_house", "redeal"), "draw_deal_exposed",
                     f"{why}: house rules apply for draw games (R35-A7); the floor decides: "
                     "a misdeal (re-dealt as an exact replay, R35-C) or play on",
                     ("misdeal", "play_on"), seat=seat)]


def _stud_exposure(t: TrackedHand, seat: int, card_index: int, rules: RuleProfile) -> Step:
    """R35-A7 is for flop games. Stud: RP-10-A (the exposed downcard is his upcard, his third
    card is dealt down; TDA 2011 R31: a misdeal). Once his cards are in the engine it swaps
    them (``CardExposed``); during the deal the dealer is told to lay the card on the upcard
    pad and deal the third card down, which the pads then show."""
    held = t.deal.cards_of(seat)
    hole = t.hand.seat(seat).hole
    if card_index == 7 and len(hole) == 7:  # RP-10-B: his seventh-street card
        return apply_engine(t, CardExposed(seat, hole[-1]), rules)
    if rules.stud_exposed_downcard_misdeal:
        return offer_misdeal(t, rules, "stud_exposed_downcard", "misdeal_stud_exposed",
                             f"seat {seat}'s downcard was exposed by the dealer", seat)
    if t.hand.seat(seat).hole and 1 <= card_index <= len(held):
        return apply_engine(t, CardExposed(seat, held[card_index - 1]), rules)
    return t, [alert(rules, ("stud_exposed_downcard",), "stud_downcard_exposed",
                     f"seat {seat}'s downcard exposed on the deal: not a misdeal; lay it on "
                     "his upcard pad, it is his upcard, and deal his third card down; he can "
                     "be the bring-in (RP-10-A)", seat=seat, kind=RulingKind.INFO)]


def confirm_misdeal(t: TrackedHand, rules: RuleProfile) -> Step:
    """The dealer declares the misdeal: the hand is void and every chip goes back (R35-C)."""
    if t.sa(rules):
        return t, [Ruling(RulingKind.REJECTED, (rules.cite("no_misdeal_after_sa"),),
                          "substantial action has occurred: a misdeal can no longer be "
                          "declared; the hand proceeds (R35-D)", code="no_misdeal_after_sa")]
    hand = return_all_bets(t.hand)
    t = evolve(t, hand=hand, status=HandStatus.MISDEAL)
    return t, [alert(rules, ("redeal",), "misdeal_declared",
                     "Misdeal declared: blinds and antes go back; " + MISDEAL_PROCEDURE,
                     kind=RulingKind.INFO)]


def fouled_deck(t: TrackedHand, card: str, rules: RuleProfile) -> Step:
    """R35-E: a second card of the same rank and suit stops the hand, whatever the SA."""
    back = ", ".join(f"seat {s.seat} {s.committed}" for s in t.hand.seats if s.committed)
    t = evolve(t, hand=return_all_bets(t.hand), status=HandStatus.FOULED, misdeal=None)
    return t, [alert(rules, ("fouled_deck",), "fouled_deck",
                     f"Fouled deck: a second {card} was read. Stop play and return all bets "
                     f"({back}); take the deck out of play (R35-E).")]
