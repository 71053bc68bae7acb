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

The TDA leaves the draws to house rules (R35-A7): a card the engine refuses (out of turn,
more cards than discards, a card not in the stub) is its ruling, and the cards stay read.
"""

from __future__ import annotations

from pokertable.controller.engine.events import DealHole, Discard
from pokertable.controller.engine.model import DrawState, Phase, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities.alerts import alert
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


def seat_card(t: TrackedHand, seat: int, card: str, tag: str, rules: RuleProfile) -> Step:
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
    track = t.draw
    t = evolve(t, draw=evolve(track, drawn=_put(track.drawn, seat, (*_of(track.drawn, seat),
                                                                     card))))
    return settle(t, rules, False)


def discard_card(t: TrackedHand, seat: int, card: str, rules: RuleProfile) -> Step:
    """One of ``seat``'s cards reached the muck during a draw: a discard of his. A folded
    hand the dealer gathers into the muck is dead already (R14): no draw, nothing to say."""
    draw = open_draw(t)
    assert draw is not None
    if not live_seat(t, seat):
        return t, []
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


def burn_card(t: TrackedHand) -> Step:
    """A burn in a draw game: one a draw (R38); the engine counts the stub."""
    return evolve(t, draw=evolve(t.draw, burns=t.draw.burns + 1)), []


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
    if not (done or moved_on or (discards and len(drawn) >= len(discards))):
        return t, [], False
    t, out = apply_engine(t, Discard(on, discards), rules)
    if any(r.kind is RulingKind.REJECTED for r in out):
        return t, out, False
    t = evolve(t, draw=evolve(t.draw, discards=_put(t.draw.discards, on, ())))
    return t, out, True


def _serve(t: TrackedHand, draw: DrawState, rules: RuleProfile) -> Step:
    """Deal a waiting player the new cards read for him once they are as many as his
    discards (more is the engine's ``card_count`` ruling)."""
    for seat, discarded in draw.owed:
        drawn = _of(t.draw.drawn, seat)
        if len(drawn) >= len(discarded):
            t, out = apply_engine(t, DealHole(seat, drawn), rules)
            if any(r.kind is RulingKind.REJECTED for r in out):
                return t, out
            t = evolve(t, draw=evolve(t.draw, drawn=_put(t.draw.drawn, seat, ())))
            return t, [*out, Ruling(RulingKind.ACCEPTED, (rules.cite("draw_house"),),
                                    f"seat {seat} is dealt {len(drawn)} card(s)", seat=seat,
                                    code="drawn")]
    return t, []
