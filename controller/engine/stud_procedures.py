"""Stud dealing procedures and dead hands: RP-10-A/B/C, R30, R66, R71-C.

The irregularities of a stud deal that the rules settle, as engine events (``events``):

- ``CardExposed`` on the initial deal: the exposed downcard becomes the upcard and the card
  that would have been the upcard is the downcard; he may be the bring-in (RP-10-A). TDA
  2011 R31 calls it a misdeal (``stud_exposed_downcard_misdeal``).
- ``CardExposed`` on seventh street: with betting to come the card is dead and replaced,
  out of play for the rest of the hand; with none it stands (RP-10-B). Seventh street is
  dealt down either way and the players not at risk expose first (``stud.open_street``).
- ``KillAtDeal``: an absent (R30) or penalised (R71-C) player's cards are killed after the
  initial deal, his ante stays in the pot, and dealt the bring-in card he posts the
  bring-in; no later card goes to the dead hand (RP-10-C, ``stud.deal_hole``).
- ``UpcardsPickedUp``: picking up the upcards while facing action kills the hand (R66).

Where the profile or the rule text leaves it to the floor, the ruling is ``FLOOR`` with the
options, the state waits unchanged, and the event comes again with the floor's choice.
"""

from __future__ import annotations

from pokertable.controller.engine import betting, stud
from pokertable.controller.engine.checks import dealt_in_seat, reject
from pokertable.controller.engine.events import (
    ActionKind,
    CardExposed,
    KillAtDeal,
    PlayerAction,
    UpcardsPickedUp,
)
from pokertable.controller.engine.model import (
    HandState,
    Phase,
    SeatState,
    SeatStatus,
    Street,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.rules import RuleProfile

_INFO = RulingKind.INFO
_FLOOR = RulingKind.FLOOR
_THIRD = Street.THIRD
_SIXTH = Street.SIXTH
_SEVENTH = Street.SEVENTH

MISDEAL = "misdeal"
PLAY_ON = "play_on"
REPLACE = "replace"
CARD_STANDS = "card_stands"
POSTS_BRING_IN = "posts_bring_in"
NEXT_LOW_CARD = "next_low_card_brings_in"
DEAD_HAND = "dead_hand"
HAND_LIVE = "hand_live"

Result = tuple[HandState, tuple[Ruling, ...]]


def _stud_seat(state: HandState, number: int, rules: RuleProfile) -> SeatState | Result:
    """The live stud seat an event names, or the refusal."""
    if not state.variant.is_stud:
        return reject(state, number, "a stud procedure (RP-10, R66) in a game without stud "
                      "cards", rules.cite("rules"), "not_stud")
    seat = dealt_in_seat(state, number, rules)
    if isinstance(seat, tuple):
        return seat
    if seat.status is SeatStatus.FOLDED:
        return reject(state, number, f"seat {number} has no live hand",
                      rules.cite("stud_dead_at_deal"), "dead_hand")
    return seat


def _acted_on(state: HandState, street: Street) -> bool:
    return any(a.street is street for a in state.actions)


# --- RP-10-A and RP-10-B: a card exposed by the dealer ---------------------------------------


def card_exposed(state: HandState, event: CardExposed, rules: RuleProfile) -> Result:
    """RP-10-A on the initial deal, RP-10-B on seventh street; refused on any other card."""
    seat = _stud_seat(state, event.seat, rules)
    if isinstance(seat, tuple):
        return seat
    card = event.card
    if card not in seat.hole or card in seat.up:
        return reject(state, seat.seat, f"{card} is not one of seat {seat.seat}'s downcards",
                      rules.cite("stud_exposed_downcard"), "not_a_downcard")
    if len(seat.hole) == 3 and state.street is _THIRD and not _acted_on(state, _THIRD):
        return _initial_downcard(state, seat, card, rules)
    seventh = len(seat.hole) == 7 and seat.hole[-1] == card
    pending = state.phase is Phase.DEALING and state.street is _SIXTH
    if seventh and (pending or (state.street is _SEVENTH and not _acted_on(state, _SEVENTH))):
        return _seventh_card(state, seat, event, rules)
    return reject(state, seat.seat, f"{card} was not exposed while it was dealt: RP-10 covers "
                  "the initial deal and seventh street; the floor decides (Rule 1)",
                  rules.cite("floor_discretion"), "exposed_not_on_deal")


def _initial_downcard(state: HandState, seat: SeatState, card: str, rules: RuleProfile) -> Result:
    rule = rules.cite("stud_exposed_downcard")
    if rules.stud_exposed_downcard_misdeal:
        return state, (Ruling(RulingKind.ALERT, (rule,), f"seat {seat.seat}'s downcard {card} "
                              "was exposed by the dealer: misdeal", seat=seat.seat,
                              code="stud_misdeal"),)
    if any(s == seat.seat for s, _ in state.exposed):
        return state, (Ruling(_FLOOR, (rule, rules.cite("floor_discretion")),
                              f"both of seat {seat.seat}'s downcards were exposed; RP-10-A "
                              "covers one: the floor decides", seat=seat.seat,
                              options=(MISDEAL, PLAY_ON), code="both_downcards_exposed"),)
    was_up = seat.hole[2]
    downs = tuple(c for c in seat.hole if c != card)
    # The upcard stays third in ``hole`` (third street reads it there, and so does PHH).
    dealt = evolve(seat, hole=(*downs, card), up=(card,))
    state = evolve(state.with_seat(dealt), exposed=(*state.exposed, (seat.seat, card)))
    note = Ruling(_INFO, (rule,), f"seat {seat.seat}'s exposed downcard {card} is his upcard "
                  f"and {was_up} is dealt down; he may be the bring-in", seat=seat.seat,
                  code="exposed_downcard_up")
    if state.phase is not Phase.BETTING:
        return state, (note,)
    # Third street had opened on the old upcard: the bring-in is found again.
    state, more = stud.open_street(state, state.seats, _THIRD, rules)
    return state, (note, *more)


def _seventh_card(state: HandState, seat: SeatState, event: CardExposed, rules: RuleProfile
                  ) -> Result:
    rule = rules.cite("stud_seventh_exposed")
    betting_remains = len([s for s in state.seats if s.status is SeatStatus.LIVE]) > 1
    replace = event.replace
    if replace is None and not rules.stud_seventh_exposed_replaced:
        return state, (Ruling(_FLOOR, (rule, rules.cite("floor_discretion")),
                              f"seat {seat.seat}'s seventh-street card {event.card} was exposed "
                              "by the dealer: the floor decides", seat=seat.seat,
                              options=(REPLACE, CARD_STANDS), code="seventh_exposed"),)
    if replace is None:
        replace = betting_remains
    if not replace:
        return state, (Ruling(_INFO, (rule,), f"seat {seat.seat}'s exposed seventh-street card "
                              f"{event.card} stands: no betting remains", seat=seat.seat,
                              code="exposed_card_stands"),)
    dealt = evolve(seat, hole=seat.hole[:-1])
    state = evolve(state.with_seat(dealt), exposed=(*state.exposed, (seat.seat, event.card)))
    if state.street is _SEVENTH:  # the street had opened on that card: deal it again
        state = evolve(state, street=_SIXTH, phase=Phase.DEALING, action_on=None)
    return state, (Ruling(_INFO, (rule,), f"seat {seat.seat}'s exposed seventh-street card "
                          f"{event.card} is dead with betting to come: deal him another card "
                          "down", seat=seat.seat, code="replace_card"),)


# --- RP-10-C, R30, R71-C: a hand killed after the initial deal --------------------------------


def kill_at_deal(state: HandState, event: KillAtDeal, rules: RuleProfile) -> Result:
    """Kill an absent or penalised player's cards; dealt the bring-in card, he posts it."""
    seat = _stud_seat(state, event.seat, rules)
    if isinstance(seat, tuple):
        return seat
    why = rules.cite(event.reason.value)
    if state.street is not _THIRD or state.phase is not Phase.BETTING or seat.acted:
        return reject(state, seat.seat, "a hand is killed for the deal once the initial deal "
                      "is complete and before he acts", why, "not_at_deal")
    rulings: list[Ruling] = []
    owes_bring_in = (
        seat.seat == state.bring_in_seat and state.call_to == 0 and state.action_on == seat.seat
    )
    if owes_bring_in:
        posts = event.posts_bring_in
        if posts is None and not rules.stud_absent_posts_bring_in:
            return state, (Ruling(_FLOOR, (why, rules.cite("floor_discretion")),
                                  f"seat {seat.seat}'s hand is killed and he was dealt the "
                                  "bring-in card: the floor decides who brings in",
                                  seat=seat.seat, options=(POSTS_BRING_IN, NEXT_LOW_CARD),
                                  code="dead_bring_in"),)
        if posts is None or posts:
            state, out = stud.apply_stud_action(
                state, PlayerAction(seat.seat, ActionKind.BRING_IN), rules)
            rulings += out
            seat = state.seat(seat.seat)
    dead = evolve(seat, status=SeatStatus.FOLDED)
    state = state.with_seat(dead)
    if owes_bring_in and not rulings:  # the floor chose the next low card: found again
        state, more = stud.open_street(state, state.seats, _THIRD, rules)
        rulings += more
    elif state.action_on == seat.seat:
        state = evolve(state, action_on=betting.next_to_act_among(
            state.seats, state.call_to, seat.seat))
    rulings.insert(0, Ruling(_INFO, (why, rules.cite("stud_dead_at_deal")),
                             f"seat {seat.seat}'s cards are killed after the initial deal; "
                             "his ante stays in the pot and no more cards are dealt to him",
                             seat=seat.seat, code="dead_hand_at_deal"))
    return state, tuple(rulings)


# --- R66: picking up the upcards ------------------------------------------------------------


def upcards_picked_up(state: HandState, event: UpcardsPickedUp, rules: RuleProfile) -> Result:
    """R66: facing a bet the hand is dead; on the action with nothing to call the floor
    decides whether that is facing action; otherwise the hand stays live."""
    seat = _stud_seat(state, event.seat, rules)
    if isinstance(seat, tuple):
        return seat
    rule = rules.cite("stud_dead_hand")
    live = seat.status is SeatStatus.LIVE and state.phase is Phase.BETTING
    facing_bet = live and state.call_to > seat.bet
    to_act = live and state.action_on == seat.seat
    dead = event.dead
    if dead is None and to_act and not facing_bet:
        return state, (Ruling(_FLOOR, (rule, rules.cite("floor_discretion")),
                              f"seat {seat.seat} picked up his upcards on the action with "
                              "nothing to call: the floor decides whether he faced action",
                              seat=seat.seat, options=(DEAD_HAND, HAND_LIVE),
                              code="upcards_picked_up"),)
    if dead is None:
        dead = facing_bet
    if not dead:
        return state, (Ruling(_INFO, (rule,), f"seat {seat.seat} picked up his upcards not "
                              "facing action: the hand stays live", seat=seat.seat,
                              code="upcards_picked_up"),)
    state = state.with_seat(evolve(seat, status=SeatStatus.FOLDED))
    if state.action_on == seat.seat:
        state = evolve(state, action_on=betting.next_to_act_among(
            state.seats, state.call_to, seat.seat))
    return state, (Ruling(_INFO, (rule,), f"seat {seat.seat} picked up his upcards while "
                          "facing action: his hand is dead", seat=seat.seat, code="dead_hand"),)
