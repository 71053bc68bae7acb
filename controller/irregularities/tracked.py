"""The irregularities layer's step function: card and dealer events in, rulings out.

>>> from pokertable.controller.engine import HandSetup
>>> from pokertable.controller.engine.model import Level, Variant
>>> from pokertable.controller.rules import TDA_2024
>>> from pokertable.controller.irregularities.events import CardSeen
>>> setup = HandSetup(hand_id="h1", variant=Variant.NLHE, level=Level(small_blind=50,
...     big_blind=100), button=3, small_blind_seat=1, big_blind_seat=2,
...     players=((1, "A", 1000), (2, "B", 1000), (3, "C", 1000)))
>>> t, _ = start_tracked(setup, TDA_2024)
>>> for i, card in enumerate(["As", "Kd", "Qh", "Jc", "Tc", "9d"]):
...     t, rulings = step(t, CardSeen(f"seat{i % 3 + 1}.cards", card, f"tag{i}"), TDA_2024)
>>> t.status.value, t.hand.seat(1).hole
('playing', ('As', 'Jc'))
>>> t, rulings = step(t, CardSeen("board", "As", "tag99"), TDA_2024)
>>> rulings[0].code, t.status.value
('fouled_deck', 'fouled')
"""

from __future__ import annotations

from pokertable.controller.engine import HandSetup
from pokertable.controller.engine import state_machine as engine
from pokertable.controller.engine.cards import STANDARD_DECK
from pokertable.controller.engine.events import (
    CardExposed,
    DealBoard,
    DealHole,
    Discard,
    KillAtDeal,
    MuckHand,
    PlayerAction,
    ShowHand,
    StudEvent,
    UpcardsPickedUp,
)
from pokertable.controller.engine.model import Phase, SeatStatus, evolve
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.irregularities import (
    board,
    dealing,
    draw_cards,
    levels,
    out_of_turn,
    presence,
    readers,
    stud_cards,
)
from pokertable.controller.irregularities.alerts import alert
from pokertable.controller.irregularities.events import (
    Absent,
    BoxedCard,
    CardRemoved,
    CardSeen,
    ConfirmMisdeal,
    CorrectButton,
    CorrectLevel,
    DealerExposure,
    DealerFirstCard,
    FloorDecision,
    KillHand,
    LevelStarted,
    Present,
    TableEvent,
)
from pokertable.controller.irregularities.hand import (
    HandStatus,
    Step,
    TrackedHand,
    apply_engine,
    note,
)
from pokertable.controller.irregularities.killed import kill_hand
from pokertable.controller.rules import RuleProfile


def start_tracked(
    setup: HandSetup,
    rules: RuleProfile,
    *,
    expected: HandSetup | None = None,
    deck: frozenset[str] = STANDARD_DECK,
    absent: frozenset[int] = frozenset(),
    on_penalty: frozenset[int] = frozenset(),
    read_window_ms: int = 0,
) -> tuple[TrackedHand, list[Ruling]]:
    """Post the forced bets and wait for the initial deal.

    ``expected`` is where the table says the button and blinds belong; a different
    ``setup`` (the button as the dealer placed it) raises the R34-A alert.
    """
    hand, rulings = engine.start_hand(setup, rules)
    t = TrackedHand(hand=hand, setup=setup, expected_setup=expected or setup, deck=deck,
                    absent=absent, on_penalty=on_penalty, read_window_ms=read_window_ms)
    out = list(rulings)
    if expected is not None and expected.button != setup.button:
        out.append(alert(rules, ("button_placement",), "button_mismatch",
                         f"the button is on seat {setup.button} but belongs on seat "
                         f"{expected.button}: correct it before substantial action; after "
                         "substantial action the error stands and the button is not backed up "
                         "next hand (R34-A)"))
    return note(t, out), out


def redeal(t: TrackedHand, rules: RuleProfile) -> tuple[TrackedHand, list[Ruling]]:
    """R35-C: the re-deal after a misdeal is an exact replay of the original hand.

    Same button, same players, same limits. Players absent for the original deal are dealt
    in and may play if present when the re-deal ends (``redeal_absent_players_play``);
    players on penalty are dealt in and killed. It is the same hand for penalty counts.
    """
    if t.status is not HandStatus.MISDEAL:
        raise ValueError(f"hand {t.hand.hand_id} is not a declared misdeal")
    kill = t.kill_at_deal
    if not rules.redeal_absent_players_play:
        kill = kill | t.deal.absent_at_deal
    original = t.redeal_of or t.setup.hand_id
    setup = evolve(t.setup, hand_id=f"{original}-redeal{_redeal_number(t) + 1}")
    new, rulings = start_tracked(setup, rules, expected=t.expected_setup, deck=t.deck,
                                 absent=t.absent, on_penalty=t.on_penalty,
                                 read_window_ms=t.read_window_ms)
    return evolve(new, kill_at_deal=kill, redeal_of=original), rulings


def _redeal_number(t: TrackedHand) -> int:
    marker = "-redeal"
    hand_id = t.setup.hand_id
    return int(hand_id.rsplit(marker, 1)[1]) if marker in hand_id else 0


def judge_due(t: TrackedHand, rules: RuleProfile, at_ms: int, acting: bool = False) -> Step:
    """Decide what waited for the readers' window once ``at_ms`` is past it: the first
    card's seat (at the latest when a player acts), a street's burn (only by time: a
    player may act on the river before its burn's read arrives)."""
    deal = t.deal
    if ((deal.first_judged or deal.first_read_ms is None) and t.board.burn_due is None
            and t.stud.burn_due is None and t.draw.burn_due is None):
        return t, []  # nothing waits for the window (most inputs): no judge to ask
    t, rulings = dealing.judge_first_card(t, rules, at_ms, now=acting)
    t, more = board.judge_burn(t, rules, at_ms)
    t, stud = stud_cards.judge_burn(t, rules, at_ms)
    t, draw = draw_cards.judge_burn(t, rules, at_ms)
    return t, rulings + more + stud + draw


def step(t: TrackedHand, event: TableEvent, rules: RuleProfile) -> Step:
    """Apply one event. Rejections and bad input leave ``t`` as the readers' window left it."""
    t, due = judge_due(t, rules, getattr(event, "at_ms", 0), isinstance(event, PlayerAction))
    before_sa = t.sa(rules)
    before = t
    match event:
        case CardSeen():
            t, rulings = readers.card_seen(t, event, rules)
        case CardRemoved():
            t, rulings = readers.card_removed(t, event, rules)
        case PlayerAction():
            t, rulings = _action(t, event, rules)
        case BoxedCard():
            t, rulings = dealing.boxed_card(t, rules)
        case DealerExposure():
            t, rulings = dealing.exposure(t, event.seat, event.card_index, rules)
        case Absent() | Present():
            t, rulings = presence.set_presence(t, event.seat, isinstance(event, Present), rules)
        case ConfirmMisdeal():
            t, rulings = dealing.confirm_misdeal(t, rules)
        case DealerFirstCard():
            t, rulings = dealing.dealer_first_card(t, rules)
        case CorrectButton():
            t, rulings = _correct_button(t, rules)
        case CorrectLevel():
            t, rulings = levels.correct_level(t, event.level, rules)
        case KillHand():
            t, rulings = presence.dealer_killed(t, event.seat, rules)
        case FloorDecision():
            t, rulings = out_of_turn.floor_decision(t, event, rules)
        case LevelStarted():
            rulings = [alert(rules, ("level_change",), "level_next_hand",
                             f"level {event.level.number} starts with the next hand; this hand "
                             f"stays at level {t.hand.level.number} (R23)", kind=RulingKind.INFO)]
        case DealHole() | DealBoard() | ShowHand() | MuckHand():
            t, rulings = _engine_event(t, event, rules)
        case CardExposed() if t.hand.variant.is_draw:  # the floor's answer (R35-A7)
            t, rulings = draw_cards.exposure(t, event.seat, rules, event.replace)
        case KillAtDeal() if not t.over:  # stud, the floor's answer: RP-10-C, R30, R71-C
            t, rulings = presence.killed_at_deal(t, event, rules)
        case CardExposed() | KillAtDeal() | UpcardsPickedUp():  # stud: RP-10-A/B, R66; a hand over
            t, rulings = _engine_event(t, event, rules)
        case Discard():  # the dealer's word in a draw: the seat on it drew what was read
            t, rulings = draw_cards.dealer_done(t, rules)
    if any(r.kind is RulingKind.REJECTED for r in rulings):
        return note(before, due), due + rulings
    t, more = _follow_ups(t, before_sa, rules)
    rulings = due + rulings + more
    return note(t, rulings), rulings


def _action(t: TrackedHand, action: PlayerAction, rules: RuleProfile) -> Step:
    if t.over:
        return t, [Ruling(RulingKind.REJECTED, (rules.cite("in_turn_binding"),),
                          f"the hand is over ({t.status}): no more actions", seat=action.seat,
                          code="hand_over")]
    rulings: list[Ruling] = []
    if not t.deal.closed:
        t, rulings = dealing.close_deal(t, rules)
    if (t.deal.button_short and action.seat == t.hand.button
            and action.kind.value != "fold" and t.hand.action_on == action.seat):
        hand, out = kill_hand(t.hand, action.seat, rules, refund_uncalled=True)
        t = evolve(t, hand=hand, killed=(*t.killed, action.seat),
                   deal=evolve(t.deal, button_short=False))
        return t, [*rulings, alert(rules, ("button_short",), "button_short_dead",
                                   f"the button (seat {action.seat}) acted with too few cards: "
                                   "his hand is dead (R37)", seat=action.seat), *out]
    t, after = out_of_turn.on_action(t, action, rules)
    return t, rulings + after


def _engine_event(t: TrackedHand, event: DealHole | DealBoard | ShowHand | MuckHand | StudEvent,
                  rules: RuleProfile) -> Step:
    if t.over:
        return t, [Ruling(RulingKind.REJECTED, (rules.cite("rabbit_hunting"),),
                          f"the hand is over ({t.status})", code="hand_over")]
    return apply_engine(t, event, rules)


def _correct_button(t: TrackedHand, rules: RuleProfile) -> Step:
    """R34-A: a wrong button is corrected before SA; after SA the error stands."""
    expected = t.expected_setup
    if expected.button == t.setup.button:
        return t, [alert(rules, ("button_placement",), "button_correct",
                         f"the button is already on seat {expected.button}")]
    if t.sa(rules):
        return t, [alert(rules, ("button_placement",), "button_error_stands",
                         f"substantial action has occurred: the button stays on seat "
                         f"{t.setup.button} for this hand and is not backed up next hand "
                         "(R34-A)")]
    if t.deal.order:
        t = evolve(t, setup=expected)
        t, rulings = dealing.confirm_misdeal(t, rules)
        return t, [alert(rules, ("button_placement", "misdeal_first_card"), "button_corrected",
                         f"button corrected to seat {expected.button} before substantial "
                         "action; cards were already dealt from the wrong button, so the first "
                         "card went to the wrong seat: misdeal, re-deal from the corrected "
                         "button (R34-A, R35-A2)"), *rulings]
    new, rulings = start_tracked(expected, rules, deck=t.deck, absent=t.absent,
                                 on_penalty=t.on_penalty, read_window_ms=t.read_window_ms)
    new = evolve(new, alerts=t.alerts, kill_at_deal=t.kill_at_deal, redeal_of=t.redeal_of)
    return new, [alert(rules, ("button_placement",), "button_corrected",
                       f"button corrected to seat {expected.button} before the deal: blinds "
                       f"{expected.small_blind_seat} and {expected.big_blind_seat} post (R34-A)",
                       kind=RulingKind.INFO), *rulings]


def _follow_ups(t: TrackedHand, before_sa: bool, rules: RuleProfile) -> Step:
    """What an event makes happen by itself: SA consequences, R39-B, R16 at the river, end."""
    rulings: list[Ruling] = []
    if not before_sa and t.sa(rules) and not t.over:
        if t.misdeal is not None:
            rulings.append(alert(rules, ("no_misdeal_after_sa",), "misdeal_withdrawn",
                                 "substantial action has occurred: the misdeal offered earlier "
                                 "can no longer be declared; the hand proceeds (R35-D)"))
            t = evolve(t, misdeal=None)
        dealt_out = {s.seat for s in t.hand.seats if not s.hole and not t.deal.cards_of(s.seat)}
        for seat in sorted(set(t.deal.wrong_count) | dealt_out):
            if t.hand.seat(seat).status is not SeatStatus.FOLDED:
                t, out = dealing.kill_wrong_count(t, seat, rules)
                rulings += out
    if t.board.flop_without_burn:  # R39-B's one case (board.after_action)
        t, out = board.after_action(t, rules)
        rulings += out
    hand = t.hand
    if (hand.phase is Phase.SHOWDOWN and not hand.face_up
            and any(s.status is SeatStatus.ALL_IN for s in hand.seats)):
        t = evolve(t, hand=evolve(hand, face_up=True))
        rulings.append(Ruling(RulingKind.INFO, (rules.cite("all_in_face_up"),),
                              "a player is all in and the betting is over: all live hands are "
                              "tabled now, no hand may be mucked untabled", code="face_up"))
    if t.hand.phase is Phase.COMPLETE and t.status in (HandStatus.PLAYING, HandStatus.DEALING):
        t = evolve(t, status=HandStatus.COMPLETE)
    if t.over and t.oot.pending:
        t, out = out_of_turn.resolve_pending(t, rules)
        rulings += out
    return t, rulings


def mark_reference(t: TrackedHand, name: str) -> TrackedHand:
    """Start counting SA from now under ``name`` (e.g. R52-B "after the erroneous bet")."""
    return evolve(t, points=t.points.mark(name, len(t.hand.actions)))
