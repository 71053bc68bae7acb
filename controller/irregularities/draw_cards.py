"""The draws of 2-7 triple draw, 2-7 single draw and badugi as the readers see them.

A player's discards are read as they land in the muck (they leave his pad, ``seat<N>.cards``)
and his new cards as they land on his pad. The draw goes in turn from the button's left
(``HandState.draw.order``), so the table knows whose discards they are, and it holds both
until they make the engine's events:

- his ``Discard`` once as many new cards as discards were read for him, or once the dealer
  moved on (a later seat's discards or cards were read: he declared and waits to be
  served), or when the dealer presses ``check_call`` (his draw is what was read);
- his ``DealHole`` once as many new cards as he discarded were read for him;
- he stands pat (``Discard`` with no cards) when the dealer presses ``check_call`` with none
  of his cards in the muck, or moves on to a later seat (docs/floor.md).

A count match waits while a card of his is off his pad and not in the muck: he released
another discard the dealer has not taken yet (a dealer who takes one discard, serves one,
then takes the next would otherwise give a one-card draw). A card of his reaching the muck
after he was served, before the next player drew, goes to the floor (R14, R35-A7).

One burn a draw (R38), checked as the board games' streets: a second burn is
``extra_burn``; a draw's first new card with no burn read within one read window is
``missing_burn``. A draw card the dealer exposes (``card_exposed``) is the engine's
``CardExposed``: by house rule it goes to the muck and is replaced after the others.

The TDA leaves the draws to house rules (R35-A7): a card the engine refuses (out of turn,
more cards than discards, a card not in the stub) is its ruling, and the cards stay read.
"""

from __future__ import annotations

from pokertable.controller.engine.events import CardExposed, DealHole, Discard
from pokertable.controller.engine.model import DrawState, Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert, floor
from pokertable.controller.irregularities.hand import Step, TrackedHand, apply_engine, live_seat
from pokertable.controller.irregularities.ledger import STUB
from pokertable.controller.rules import RuleProfile

_Held = tuple[tuple[int, tuple[str, ...]], ...]


def open_draw(t: TrackedHand) -> DrawState | None:
    """The draw being played and served, if any."""
    draw = t.hand.draw
    if t.hand.phase is not Phase.DEALING or draw is None or not (draw.order or draw.owed):
        return None
    return draw


def _of(held: _Held, seat: int) -> tuple[str, ...]:
    return dict(held).get(seat, ())


def _put(held: _Held, seat: int, cards: tuple[str, ...]) -> _Held:
    rest = tuple((s, c) for s, c in held if s != seat)
    return (*rest, (seat, cards)) if cards else rest


def seat_card(t: TrackedHand, seat: int, card: str, tag: str, rules: RuleProfile,
              at_ms: int = 0) -> Step:
    """A new card on a seat's pad after the deal: a card he draws. One he may not have goes
    back to the stub (the ledger says so: read again, it is a new card)."""
    draw = open_draw(t)
    if draw is None or (seat not in draw.order and seat not in dict(draw.owed)):
        t = evolve(t, ledger=t.ledger.put(card, tag, STUB))
    if draw is None:
        return t, [alert(rules, ("premature_cards", "draw_house"), "draw_card_early",
                         f"{card} read at seat {seat} while no draw is being served: a card "
                         "dealt before the betting round ended is premature (R35-A7 house "
                         "rules); take it back", seat=seat)]
    if seat not in draw.order and seat not in dict(draw.owed):
        return t, [alert(rules, ("draw_house",), "draw_card_not_drawing",
                         f"{card} read at seat {seat}, who is not drawing now: take it back "
                         "to the stub (R35-A7 house rules)", seat=seat)]
    t, burn = _first_card(t, draw, rules, at_ms)
    track = t.draw
    t = evolve(t, draw=evolve(track, drawn=_put(track.drawn, seat, (*_of(track.drawn, seat),
                                                                     card))))
    t, out = settle(t, rules, False)
    return t, [*burn, *out]


def discard_card(t: TrackedHand, seat: int, card: str, rules: RuleProfile) -> Step:
    """One of ``seat``'s cards reached the muck during a draw: a discard of his. A folded
    hand the dealer gathers into the muck is dead already (R14): no draw, nothing to say."""
    draw = open_draw(t)
    assert draw is not None
    if not live_seat(t, seat) or card in t.draw.exposed:
        return t, []  # a folded hand gathered, or the exposed card on its way (``exposure``)
    owed = dict(draw.owed)
    if seat in owed and not _of(t.draw.drawn, seat):
        # He declared and waits for his cards: one more discard changes his draw, as the
        # house allows (``draw_change_of_mind``) or refuses (the engine's ruling).
        t, out = apply_engine(t, Discard(seat, (*owed[seat], card)), rules)
        if any(r.kind is RulingKind.REJECTED for r in out):
            return t, out
        t, more = settle(t, rules, False)
        return t, [*out, *more]
    if seat not in draw.order:
        return t, [alert(rules, ("muck_kills", "draw_house"), "draw_discard_late",
                         f"{card} of seat {seat} reached the muck after he drew: if the hand "
                         "cannot be identified with certainty it is dead (R14, R35-A7); enter "
                         "the kill or take the card back", seat=seat)]
    track = t.draw
    cards = (*_of(track.discards, seat), card)
    t = evolve(t, draw=evolve(track, discards=_put(track.discards, seat, cards)))
    return settle(t, rules, False)


def taken_back(t: TrackedHand, seat: int, card: str) -> TrackedHand:
    """A card of his hand back on his pad from the muck: not a discard (any more)."""
    track = t.draw
    kept = tuple(c for c in _of(track.discards, seat) if c != card)
    return evolve(t, draw=evolve(track, discards=_put(track.discards, seat, kept)))


def just_served(t: TrackedHand, seat: int) -> bool:
    """``seat`` was the last to declare on the current draw and was served, and nobody after
    him has begun to draw (the draw is open, or its betting round has no action yet)."""
    hand, track = t.hand, t.draw
    draw = hand.draw
    acted = any(a.street is hand.street for a in hand.actions)
    if draw is None or not (open_draw(t) is not None or (
            hand.phase is Phase.BETTING and not acted)):
        return False
    declared = [s for n, s, kind, _ in draw.log if n == draw.number and kind == "sd"]
    served = any(n == draw.number and s == seat and kind == "dh" for n, s, kind, _ in draw.log)
    begun = any(s != seat and cards for s, cards in (*track.discards, *track.drawn))
    return served and bool(declared) and declared[-1] == seat and not begun


def discard_after_served(t: TrackedHand, seat: int, card: str, rules: RuleProfile) -> Step:
    """Another card of his in the muck once he was served as many cards as he discarded,
    before the next player drew: his draw may have been served before the dealer took all
    his discards. The readers cannot tell, so the floor decides (R14, R35-A7)."""
    return t, [floor(rules, ("muck_kills", "draw_house"), "draw_discard_after_served",
                     f"{card} of seat {seat} reached the muck after he was served his draw: if "
                     "he meant to draw it, the dealer served him before taking all his "
                     "discards. The floor decides: the card goes back to him (his draw "
                     "stands), or his hand is dead if it cannot be identified (R14, R35-A7)",
                     ("take_back", "dead_hand"), seat=seat)]


def _draw_of_burn(t: TrackedHand) -> int | None:
    """The draw a burn read now is for: the one being served, or the next one while the
    betting round before it is open; None after the last draw."""
    hand = t.hand
    draw = hand.draw
    if draw is None:
        return 1
    if open_draw(t) is not None:
        return draw.number
    if hand.phase is Phase.BETTING and draw.number < hand.variant.draws:
        return draw.number + 1
    return None


def _burned(burns: tuple[int, int, int], number: int) -> tuple[int, int, int]:
    counts = list(burns)
    counts[number - 1] += 1
    return counts[0], counts[1], counts[2]


def _name(number: int) -> str:
    return ("first", "second", "third")[number - 1] + " draw"


def burn_card(t: TrackedHand, card: str, rules: RuleProfile, at_ms: int = 0) -> Step:
    """A burn in a draw game: one a draw, never more (R38); the engine counts the stub."""
    track = t.draw
    due = track.burn_due
    if due is not None and at_ms - due[1] <= t.read_window_ms:
        # The draw's first new card was read first, within one read window: the readers'
        # order, not the dealer's. This is that draw's burn.
        return evolve(t, draw=evolve(track, burn_due=None,
                                     burns=_burned(track.burns, due[0]))), []
    number = _draw_of_burn(t)
    if number is None:
        return t, [alert(rules, ("one_burn",), "burn_after_last_draw",
                         f"burn {card} read after the last draw: nothing is left to deal")]
    burns = _burned(track.burns, number)
    t = evolve(t, draw=evolve(track, burns=burns))
    if burns[number - 1] > 1:
        which = "a second" if burns[number - 1] == 2 else "an extra"
        return t, [alert(rules, ("one_burn",), "extra_burn",
                         f"{which} burn ({card}) for the {_name(number)}: the burn is one card "
                         "per draw, never more (R38). Call the floor before serving.")]
    return t, []


def _first_card(t: TrackedHand, draw: DrawState, rules: RuleProfile, at_ms: int) -> Step:
    """A draw's first new card: its burn must be in (R38), or come within one read window."""
    track = t.draw
    dealt = any(n == draw.number and kind == "dh" for n, _, kind, _ in draw.log)
    if dealt or any(cards for _, cards in track.drawn) or track.burn_due is not None:
        return t, []
    if track.burns[draw.number - 1]:
        return t, []
    if t.read_window_ms:
        return evolve(t, draw=evolve(track, burn_due=(draw.number, at_ms))), []
    return t, [_missing_burn(draw.number, rules)]


def _missing_burn(number: int, rules: RuleProfile) -> Ruling:
    return alert(rules, ("one_burn",), "missing_burn",
                 f"the {_name(number)} is being served without a burn: one burn per draw "
                 "(R38); call the floor")


def judge_burn(t: TrackedHand, rules: RuleProfile, at_ms: int) -> Step:
    """A draw's first new card came without its burn and the read window has passed."""
    due = t.draw.burn_due
    if due is None or at_ms - due[1] <= t.read_window_ms:
        return t, []
    t = evolve(t, draw=evolve(t.draw, burn_due=None))
    if t.draw.burns[due[0] - 1]:
        return t, []
    return t, [_missing_burn(due[0], rules)]


def exposure(t: TrackedHand, seat: int, rules: RuleProfile, replace: bool | None = None) -> Step:
    """The dealer exposed a card he was serving ``seat``: the last new card read for him
    (held or dealt on this draw), or one no reader saw. A player on the draw whose discards
    were read declares them first; the engine rules the card (``draw_exposed_card``)."""
    held = _of(t.draw.drawn, seat)
    state = t.hand.draw
    number, log = (state.number, state.log) if state is not None else (0, ())
    dealt = [c for n, s, kind, cards in log if (n, s, kind) == (number, seat, "dh") for c in cards]
    card = held[-1] if held else (dealt[-1] if dealt else "")
    out: list[Ruling] = []
    draw = open_draw(t)
    discards = _of(t.draw.discards, seat)
    if draw is not None and draw.order and draw.order[0] == seat and discards:
        t, out = apply_engine(t, Discard(seat, discards), rules)
        if any(r.kind is RulingKind.REJECTED for r in out):
            return t, out
        t = evolve(t, draw=evolve(t.draw, discards=_put(t.draw.discards, seat, ())))
    t, said = apply_engine(t, CardExposed(seat, card, replace), rules)
    if any(r.code == "draw_exposed_replaced" for r in said):
        track = t.draw
        t = evolve(t, draw=evolve(track, drawn=_put(track.drawn, seat, held[:-1]),
                                  exposed=(*track.exposed, card) if card else track.exposed))
    if any(r.kind is RulingKind.REJECTED for r in said):
        return t, [*out, *said]
    t, more = settle(t, rules, False)
    return t, [*out, *said, *more]


def dealer_done(t: TrackedHand, rules: RuleProfile) -> Step:
    """The dealer's ``check_call`` during a draw: the seat on the draw drew what was read
    in the muck for him, or stands pat if nothing was."""
    draw = open_draw(t)
    if draw is None or not draw.order:
        return t, [Ruling(RulingKind.REJECTED, (rules.cite("draw_house"),),
                          "nobody is on the draw: deal the cards the players drew",
                          code="no_draw")]
    return settle(t, rules, True)


def settle(t: TrackedHand, rules: RuleProfile, done: bool) -> Step:
    """Send every ``Discard`` and ``DealHole`` the cards read so far make."""
    out: list[Ruling] = []
    while True:
        draw = open_draw(t)
        if draw is None:
            return t, out
        t, said, moved = _declare(t, draw, rules, done)
        done = False
        out += said
        if any(r.kind is RulingKind.REJECTED for r in said):
            return t, out
        draw = open_draw(t)
        if draw is not None:
            t, said = _serve(t, draw, rules)
            out += said
            moved = moved or bool(said)
            if any(r.kind is RulingKind.REJECTED for r in said):
                return t, out
        if not moved:
            return t, out


def _declare(t: TrackedHand, draw: DrawState, rules: RuleProfile,
             done: bool) -> tuple[TrackedHand, list[Ruling], bool]:
    """The seat on the draw declares, if what was read says he has."""
    if not draw.order:
        return t, [], False
    on, later = draw.order[0], draw.order[1:]
    track = t.draw
    discards, drawn = _of(track.discards, on), _of(track.drawn, on)
    moved_on = any(_of(track.discards, s) or _of(track.drawn, s) for s in later)
    matched = discards and len(drawn) >= len(discards) and not _released(t, on)
    if not (done or moved_on or matched):
        return t, [], False
    t, out = apply_engine(t, Discard(on, discards), rules)
    if any(r.kind is RulingKind.REJECTED for r in out):
        return t, out, False
    t = evolve(t, draw=evolve(t.draw, discards=_put(t.draw.discards, on, ())))
    return t, out, True


def _released(t: TrackedHand, seat: int) -> bool:
    """A card of ``seat``'s hand is off his pad and not yet in the muck: he pushed another
    discard forward that the dealer has not taken (or he is looking at it)."""
    pad = f"seat{seat}.cards"
    for card in t.hand.seat(seat).hole:
        placed = t.ledger.by_card(card)
        if placed is not None and placed.zone == pad and not placed.present:
            return True
    return False


def _serve(t: TrackedHand, draw: DrawState, rules: RuleProfile) -> Step:
    """Deal a waiting player the new cards read for him once they are as many as his
    discards (more is the engine's ``card_count`` ruling); a player whose card the dealer
    exposed waits until every other player was served."""
    others = bool(draw.order) or any(s not in draw.last for s, _ in draw.owed)
    for seat, discarded in draw.owed:
        drawn = _of(t.draw.drawn, seat)
        if seat in draw.last and others:
            continue
        if len(drawn) >= len(discarded):
            t, out = apply_engine(t, DealHole(seat, drawn), rules)
            if any(r.kind is RulingKind.REJECTED for r in out):
                return t, out
            t = evolve(t, draw=evolve(t.draw, drawn=_put(t.draw.drawn, seat, ())))
            return t, [*out, Ruling(RulingKind.ACCEPTED, (rules.cite("draw_house"),),
                                    f"seat {seat} is dealt {len(drawn)} card(s)", seat=seat,
                                    code="drawn")]
    return t, []
