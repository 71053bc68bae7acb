"""Stud streets as the seat readers see them: fourth to seventh street, burns, premature cards.

Each seat has a downcard pad (``seat<N>.cards``) and an upcard pad (``seat<N>.up``). After
the initial deal (``dealing``: two down, one up) every card read at a live seat's pad is that
seat's card of the street being dealt, given to the engine at once (``DealHole`` of one
card); the engine opens the street when every live hand has its card. Fourth to sixth
street are dealt up, seventh down: a card read down on fourth to sixth street is flagged
(it counts as dealt up); a seventh-street card read up was exposed by the dealer (RP-10-B:
the engine replaces it while betting remains, and the next card down is his seventh). A card
on the board is the community card of a short stub (RP-10-H).

One burn per street from fourth street (R38), judged as for the board games: a street's
first card read before its burn waits one read window. A card dealt to a seat (or the
board) while a betting round is open is premature (RP-10-G): the profile's procedure
(``premature_cards_procedure``) says what the dealer does. TDA RP-5-D: the card goes back
to the stub, the stub is reshuffled and the street is dealt without another burn; Clubs NZ
RP-5-D: a whole round is dealt to the side and the street is burned and dealt as normal,
the set-aside cards going back into the stub before the final street; TDA 2011 has none
(Rule 1), and the table tells the dealer the TDA procedure.
"""

from __future__ import annotations

from pokertable.controller.engine.events import CardExposed, DealBoard, DealHole
from pokertable.controller.engine.model import Phase, SeatStatus, Street, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.stud import pending_street, street_name
from pokertable.controller.irregularities.alerts import alert, floor
from pokertable.controller.irregularities.hand import Step, TrackedHand, apply_engine
from pokertable.controller.irregularities.ledger import STUB, parse_zone
from pokertable.controller.rules import PrematureCards, RuleProfile

_PROCEDURE = {
    PrematureCards.RESHUFFLE_NO_BURN: (
        "return it to the stub and reshuffle the stub face down; when the betting round "
        "ends deal the {street} street from the new stub without another burn"
    ),
    PrematureCards.SET_ASIDE_NZ: (
        "deal the other live players a card each and put the round to the side; when the "
        "betting round ends burn and deal the {street} street as normal; before the final "
        "street the set-aside cards go back into the stub, which is reshuffled"
    ),
    PrematureCards.FLOOR: (
        "these rules have no procedure: the floor decides (the usual one: return it to the "
        "stub, reshuffle, deal the {street} street without another burn)"
    ),
}


def _with(t: TrackedHand, **changes: object) -> TrackedHand:
    return evolve(t, stud=evolve(t.stud, **changes))


def _set(values: tuple[int, ...], index: int, value: int) -> tuple[int, ...]:
    return tuple(value if i == index else v for i, v in enumerate(values))


def street_due(t: TrackedHand) -> Street | None:
    """The street whose cards are being dealt (or, in a betting round, the next one)."""
    hand = t.hand
    if hand.bring_in_seat is None:
        return Street.THIRD
    if hand.street >= Street.SEVENTH:
        return None
    return pending_street(hand) if hand.phase is Phase.DEALING else Street(hand.street + 1)


def _premature(t: TrackedHand, card: str, where: str, rules: RuleProfile) -> Step:
    """RP-10-G / RP-5-D: a card dealt before the betting round ended."""
    nxt = street_due(t)
    name = street_name(nxt) if nxt is not None else "next"
    stud = t.stud
    if nxt is not None and rules.premature_cards_procedure is not PrematureCards.SET_ASIDE_NZ:
        # "without another burn": a burn already read for that street is its only one
        stud = evolve(stud, burns_due=_set(stud.burns_due, nxt, stud.burns[nxt]))
    t = evolve(t, stud=evolve(stud, premature=(*stud.premature, card)))
    step = _PROCEDURE[rules.premature_cards_procedure].format(street=name)
    return t, [
        alert(
            rules,
            ("stud_premature", "stud_premature_see"),
            "premature_stud_card",
            f"Premature card: {card} was dealt {where} before the betting on "
            f"{street_name(t.hand.street)} street ended; {step} (RP-5-D, RP-10-G).",
        )
    ]


def _still_out(t: TrackedHand, card: str, rules: RuleProfile) -> Step:
    return t, [
        alert(
            rules,
            ("stud_premature",),
            "premature_still_out",
            f"premature card(s) {' '.join(t.stud.premature)} are still out: take them off "
            f"first ({card} is not dealt yet)",
        )
    ]


def _first_of_street(t: TrackedHand, street: Street, rules: RuleProfile, at_ms: int) -> Step:
    """The street's first card: its burn must be in (R38), or come within one read window."""
    if street is Street.THIRD or t.stud.burns[street] >= t.stud.burns_due[street]:
        return t, []
    if t.read_window_ms:
        return _with(t, burn_due=(int(street), at_ms)), []
    return t, [_missing_burn(street, rules)]


def _missing_burn(street: Street, rules: RuleProfile) -> Ruling:
    return alert(
        rules,
        ("one_burn",),
        "missing_burn",
        f"{street_name(street)} street was dealt without a burn: one burn per street (R38); "
        "call the floor",
    )


def _street_started(t: TrackedHand, street: Street) -> bool:
    """Whether a card of ``street`` is already in (a seat's or the community card)."""
    if street is Street.SEVENTH and t.hand.board:
        return True
    need = 3 + street
    return any(len(s.hole) >= need for s in t.hand.seats if s.in_hand)


def seat_card(t: TrackedHand, seat: int, card: str, up: bool, rules: RuleProfile,
              at_ms: int = 0) -> Step:
    """A card at a seat's pad after the initial deal: that seat's card of the street."""
    hand = t.hand
    pad = "upcard" if up else "downcard"
    if hand.phase is Phase.BETTING:
        return _premature(t, card, f"to seat {seat}", rules)
    if hand.phase is not Phase.DEALING:
        return t, [alert(rules, ("rabbit_hunting",), "card_after_betting",
                         f"{card} at seat {seat}'s {pad} pad: no street is being dealt (R28); "
                         "take it off", seat=seat)]
    if t.stud.premature:
        return _still_out(t, card, rules)
    street = pending_street(hand)
    rulings: list[Ruling] = []
    if not _street_started(t, street):
        t, rulings = _first_of_street(t, street, rules, at_ms)
    t, out = apply_engine(t, DealHole(seat, (card,)), rules)
    rulings += out
    dealt_up = street is not Street.SEVENTH
    if any(r.kind is RulingKind.REJECTED for r in out) or up is dealt_up:
        return t, rulings
    if up:  # seventh street dealt face up: exposed by the dealer (RP-10-B, the engine's)
        t, exposed = apply_engine(t, CardExposed(seat, card), rules)
        return t, [*rulings, *exposed]
    rulings.append(alert(
        rules, ("reader_fault",), "stud_card_face",
        f"{card} was read on seat {seat}'s {pad} pad: {street_name(street)} street is dealt "
        "up; it counts as his upcard (turn it up, or call the floor)", seat=seat))
    return t, rulings


def community_card(t: TrackedHand, card: str, rules: RuleProfile, at_ms: int = 0) -> Step:
    """A board card in stud: the community card of a short stub (RP-10-H)."""
    hand = t.hand
    if hand.phase is Phase.BETTING:
        return _premature(t, card, "to the board", rules)
    if t.stud.premature:
        return _still_out(t, card, rules)
    rulings: list[Ruling] = []
    if hand.phase is Phase.DEALING and pending_street(hand) is Street.SEVENTH \
            and not _street_started(t, Street.SEVENTH):
        t, rulings = _first_of_street(t, Street.SEVENTH, rules, at_ms)
    t, out = apply_engine(t, DealBoard((card,)), rules)
    return t, rulings + out


def burn_card(t: TrackedHand, card: str, rules: RuleProfile, at_ms: int = 0) -> Step:
    """A burn in stud: the burn of the street being dealt (or the next one)."""
    due = t.stud.burn_due
    if due is not None and at_ms - due[1] <= t.read_window_ms:
        street = due[0]  # the street's first card was read first: the readers' order
        burns = _set(t.stud.burns, street, t.stud.burns[street] + 1)
        return _with(t, burn_due=None, burns=burns), []
    nxt = street_due(t)
    if nxt is None:
        return t, [alert(rules, ("one_burn",), "burn_after_river",
                         f"burn {card} read after seventh street: nothing is left to deal")]
    count = t.stud.burns[nxt] + 1
    t = _with(t, burns=_set(t.stud.burns, nxt, count))
    if nxt is not Street.THIRD and count > t.stud.burns_due[nxt]:
        which = "a second" if count == 2 else "an extra"
        return t, [alert(rules, ("one_burn",), "extra_burn",
                         f"{which} burn ({card}) for {street_name(nxt)} street: the burn is one "
                         "card per street, never more (R38). Call the floor before dealing.")]
    return t, []


def judge_burn(t: TrackedHand, rules: RuleProfile, at_ms: int) -> Step:
    """A street's first card came without its burn and the read window has passed."""
    due = t.stud.burn_due
    if due is None or at_ms - due[1] <= t.read_window_ms:
        return t, []
    t = _with(t, burn_due=None)
    if t.stud.burns[due[0]] >= t.stud.burns_due[due[0]]:
        return t, []
    return t, [_missing_burn(Street(due[0]), rules)]


def upcard_lifted(t: TrackedHand, card: str, zone: str, rules: RuleProfile) -> Step:
    """R66: a player who picks up his upcards while facing action has a dead hand. The pad
    only sees a card leave (a player squaring his cards lifts it too), so the floor is asked
    whether he picked them up (``upcards_lifted``: ``picked_up`` sends the engine's
    ``UpcardsPickedUp``, which rules on facing action). Not on the action and not facing a
    bet, his hand stays live whatever he did: nothing to ask."""
    parsed = parse_zone(zone)
    seat = parsed[1] if parsed is not None else None
    hand = t.hand
    if seat is None or not hand.has_seat(seat) or not hand.seat(seat).in_hand:
        return t, []  # a folded hand's cards going to the muck
    live = hand.phase is Phase.BETTING and hand.seat(seat).status is SeatStatus.LIVE
    if not live or (hand.action_on != seat and hand.call_to <= hand.seat(seat).bet):
        return t, []
    return t, [floor(rules, ("stud_dead_hand",), "upcards_lifted",
                     f"seat {seat}'s upcard {card} left the upcard pad while he is on the "
                     "action or faces a bet: if he picked up his upcards while facing action "
                     "his hand is dead (R66); did he pick them up?",
                     ("picked_up", "play_on"), seat=seat)]


def card_removed(t: TrackedHand, card: str, tag: str, rules: RuleProfile) -> Step:
    """A premature card taken off its pad (or the board): back in the stub (RP-5-D)."""
    if card not in t.stud.premature:
        return t, []
    left = tuple(c for c in t.stud.premature if c != card)
    t = evolve(t, stud=evolve(t.stud, premature=left), ledger=t.ledger.put(card, tag, STUB))
    if left:
        return t, []
    nxt = street_due(t)
    name = street_name(nxt) if nxt is not None else "next"
    text = {
        PrematureCards.SET_ASIDE_NZ: f"premature card set aside: burn and deal {name} street "
        "as normal once the betting round ends (RP-5-D)",
    }.get(rules.premature_cards_procedure,
          f"premature card back in the stub: reshuffle the stub face down; deal {name} "
          "street without another burn once the betting round ends (RP-5-D)")
    return t, [alert(rules, ("stud_premature",), "premature_returned", text,
                     kind=RulingKind.INFO)]
