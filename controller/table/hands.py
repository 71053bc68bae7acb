"""Hand routing: chips, cards and decided actions of the hand in play.

Chips and words go to bet interpretation, cards to the irregularities layer; their
rulings become events, and floor calls are parked under one id (``raise_floor``).
"""

from __future__ import annotations

from typing import Any

from pokertable.controller.engine import EngineError, HandSetup
from pokertable.controller.engine.events import (
    ActionKind,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.engine.mixed_games import (
    ButtonPlan,
    after_stud_hand,
    button_at_game_change,
    stud_hand,
)
from pokertable.controller.engine.model import (
    HandState,
    Phase,
    SeatStatus,
    Variant,
    evolve,
)
from pokertable.controller.engine.rulings import Ruling, RulingKind
from pokertable.controller.engine.seating import after_hand, next_hand
from pokertable.controller.interpretation.hand import Outcome, TableEvent, interpret_steps
from pokertable.controller.interpretation.held import settle_held
from pokertable.controller.interpretation.zones import Pending
from pokertable.controller.irregularities import tracked as irregular
from pokertable.controller.irregularities.events import CardRemoved as ReaderCardGone
from pokertable.controller.irregularities.events import CardSeen as ReaderCard
from pokertable.controller.irregularities.events import TableEvent as ReaderEvent
from pokertable.controller.irregularities.hand import HandStatus, TrackedHand
from pokertable.controller.rules import RuleProfile
from pokertable.controller.table.found_chips import settle_found_chips
from pokertable.controller.table.inputs import (
    CardCleared,
    CardDetected,
)
from pokertable.controller.table.orbit_rotation import counted, level_of_hand
from pokertable.controller.table.outputs import alert_out, event_out, raise_floor, warn
from pokertable.controller.table.penalties import on_penalty, remove_disqualified
from pokertable.controller.table.published import published_hand  # PHH for the archive
from pokertable.controller.table.runout_hold import hold_runout, refuse_while_held
from pokertable.controller.table.state import Channel, Output, TableSession


def interpret_at_table(
    tracked: TrackedHand, pending: Pending, event: TableEvent, rules: RuleProfile
) -> tuple[TrackedHand, Pending, Outcome]:
    """Interpretation decides; this is the one place the live table applies what it decided:
    the irregularities layer's step over the hand's ``TrackedHand`` (deal close, R37, R53
    held actions, SA follow-ups), which deals to the engine. Nothing is called back: each
    decision comes out of the run as data and its result goes back in."""
    steps = interpret_steps(tracked.hand, pending, event, rules)
    try:
        decision = next(steps)
        while True:
            if tracked.hand is not decision.state:  # an R52 replay moved the hand on
                tracked = evolve(tracked, hand=decision.state)
            tracked, said = irregular.step(tracked, decision.event, rules)
            decision = steps.send((tracked.hand, tuple(said)))
    except StopIteration as done:
        hand, pending, outcome = done.value
    if tracked.hand is not hand:  # an R52 correction replayed the street in the engine
        tracked = evolve(tracked, hand=hand)
    return tracked, pending, outcome


def run_event(
    session: TableSession, event: TableEvent, out: list[Output], at_ms: int, kind: str
) -> TableSession:
    """Run one event through bet interpretation and the engine, publish the rulings, and
    park floor rulings as pending alerts for the director."""
    rules = session.config.rules
    if isinstance(event, PlayerAction) and event.seat in session.floor_approved:
        event = evolve(event, floor_approved=True)
        session = evolve(session, floor_approved=session.floor_approved - {event.seat})
    if (
        session.tracked is not None
        and session.tracked.over
        and not isinstance(event, (ShowHand, MuckHand))
    ):
        warn(
            out,
            session,
            "rules",
            f"the hand is over ({session.tracked.status}): no more actions",
            "hand_over",
            at_ms,
        )
        return session
    session = _judge_due(session, out, at_ms, acting=False)
    assert session.hand is not None and session.tracked is not None
    before = session.hand
    tracked, pending, outcome = interpret_at_table(session.tracked, session.pending, event, rules)
    hand, rulings = tracked.hand, outcome.rulings
    data: dict[str, Any] = {}
    if isinstance(event, PlayerAction):
        data = {"seat": event.seat, "action": str(event.kind), "amount": event.amount}
    decided = outcome.interpretation
    if decided is not None:
        data = {
            "seat": decided.seat,
            "action": str(decided.action) if decided.action else None,
            "total": decided.total,
            "returned": decided.returned,
            "add": decided.add,
        }
    session = evolve(session, tracked=tracked, pending=pending)  # one copy for both
    session, rulings = hold_runout(session, tuple(rulings))  # RP-8-F under hand-for-hand
    for ruling in rulings:
        if ruling.kind is RulingKind.FLOOR:
            session = raise_floor(session, ruling, out, at_ms)
    refused = hand is before and any(
        r.kind in (RulingKind.REJECTED, RulingKind.ALERT) for r in rulings
    )
    if any(r.code == "out_of_turn" for r in rulings):
        kind = "out_of_turn"  # held until the action reaches the seat (R53-A), not refused
    elif refused:
        kind = "rejected"
    if rulings or data:  # chips merely held in a zone are not news
        out.append(event_out(session, kind, rulings, data, at_ms))
    if (
        isinstance(event, DealHole)
        and hand.seat(event.seat).hole
        and not before.seat(event.seat).hole
    ):
        payload = {
            "hand_id": hand.hand_id,
            "seat": event.seat,
            "cards": list(event.cards),
            "ts_ms": at_ms,
        }
        out.append(Output(Channel.HOLE_CARDS, payload))
    if hand.phase is Phase.COMPLETE and before.phase is not Phase.COMPLETE:
        session = finish_hand(session, out, at_ms)
    return session


def finish_hand(session: TableSession, out: list[Output], at_ms: int) -> TableSession:
    hand = session.hand
    assert hand is not None
    misdeal = session.tracked is not None and session.tracked.status is HandStatus.MISDEAL
    # R11-B: a stud hand leaves the positions of the last flop-game hand (frozen button)
    table = (after_stud_hand if hand.variant.is_stud else after_hand)(session.table, hand)
    awards = [
        {
            "seat": a.seat,
            "pot": a.pot_index,
            "amount": a.amount,
            "hand": a.hand_name,
            **({"half": a.half} if a.half else {}),
        }
        for a in hand.awards
    ]
    data = {"awards": awards, "board": list(hand.board), **published_hand(session)}
    out.append(event_out(session, "hand_complete", (), data, at_ms))
    session = evolve(
        session,
        table=table,
        history=(*session.history, hand.hand_id),
        last_finish=(hand.hand_id, at_ms, session.paused),
        # the chips still in the bet zones are this hand's, not the next one's blinds
        pending=session.pending if misdeal else session.pending.hand_over(),
    )
    if session.found_chips:  # R62: chips found during the hand that are settled now
        session = settle_found_chips(session, out, at_ms)
    if session.disqualified:  # R71-D: waited for the hand the player was in
        session = remove_disqualified(session, out, at_ms)
    return session


def first_button_seat(session: TableSession) -> int | None:
    """Where the first hand's button goes: the configured seat, else the first seat."""
    first = session.config.first_button
    if first is None and session.table.seats:
        first = session.table.seats[0].seat
    return first


def planned_setup(session: TableSession) -> HandSetup | str:
    """Who the next hand deals in and where its button and blinds are, as ``start_hand``
    deals it (read between hands too: the blinds' zones, ``bet_zones``); or why it can't."""
    level = session.pending_level or session.level  # R23: a new level applies to the next hand
    rotation = session.rotation if session.pending_level is None else session.pending_rotation
    first_button = first_button_seat(session)
    dealt = level_of_hand(rotation, level)  # a mix by orbit: the orbit's game
    if isinstance(dealt, str):
        return dealt
    game = dealt.game or session.config.variant  # mixed games: the level's game
    try:
        # R11-B: stud at the button frozen where the next hold'em hand has it
        setup = (stud_hand if game.is_stud else next_hand)(
            session.table, hand_id=f"{session.config.table}-h{session.hand_number + 1:05d}",
            variant=game, level=dealt, first_button=first_button,
        )
    except EngineError as exc:
        return str(exc)
    return evolve(setup, event_players_left=session.event_players_left)


def start_hand(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    rules = session.config.rules
    misdealt = session.tracked is not None and session.tracked.status is HandStatus.MISDEAL
    if misdealt:
        redealt = _redeal(session, at_ms, out)
        if redealt is not None:
            return redealt
    if session.hand is not None and session.hand.phase is not Phase.COMPLETE:
        warn(
            out,
            session,
            "rules",
            f"hand {session.hand.hand_id} is still in progress",
            "hand_in_progress",
            at_ms,
        )
        return session
    if session.paused:
        warn(out, session, "rules", "play is paused by the director", "paused", at_ms)
        return session
    level = session.pending_level or session.level  # R23: a new level applies to the next hand
    rotation = session.rotation if session.pending_level is None else session.pending_rotation
    setup = planned_setup(session)
    if isinstance(setup, str):
        warn(out, session, "rules", setup, "cannot_start", at_ms)
        return session
    try:
        tracked, started = irregular.start_tracked(
            setup,
            rules,
            absent=session.absent,
            on_penalty=on_penalty(session),  # R71-C: dealt in, blinds posted, hand killed
            read_window_ms=session.config.card_read_window_ms,
        )
    except EngineError as exc:
        warn(out, session, "rules", str(exc), "cannot_start", at_ms)
        return session
    hand, rulings = tracked.hand, tuple(started)
    previous = session.hand.variant if session.hand is not None else None
    if previous is not None and previous is not hand.variant:
        rulings = (*rulings, game_change_ruling(previous, hand.variant, level.number, rules))
    rotation, last_of_orbit = counted(rotation, len(setup.players), rules)
    rulings = (*rulings, *last_of_orbit)
    uncollected = uncollected_rulings(session.pending, rules)
    session = evolve(
        session,
        tracked=tracked,
        hand_number=session.hand_number + 1,
        level=level,
        pending_level=None,
        rotation=rotation,
        pending_rotation=None,
        pending=session.pending.new_hand(hand, rules),  # the blinds' chips already out count
    )
    data = {
        "button": setup.button,
        "small_blind_seat": setup.small_blind_seat,
        "big_blind_seat": setup.big_blind_seat,
        "level": level.number,
        "game": hand.variant.value,
    }
    out.append(event_out(session, "hand_start", rulings, data, at_ms))
    for ruling in uncollected:  # the dealer's to tidy: an alert each, after the start
        alert_out(out, session, ruling, at_ms)
    return session


def uncollected_rulings(pending: Pending, rules: RuleProfile) -> tuple[Ruling, ...]:
    """Chips the last hand left in a bet zone are not the new hand's blinds or bets (they
    lay there before it began, ``Pending.hand_over``): the dealer is told to pull them in;
    a blind counts once it is put out (docs/interpretation.md)."""
    return tuple(
        Ruling(RulingKind.ALERT, (rules.cite("prior_chips"),),
               f"seat {seat}'s bet zone still holds {value} from the last hand, not pulled "
               "in: not a blind or a bet of this hand; pull it in (his blind counts when "
               "put out)", seat=seat, code="zone_not_collected")
        for seat, value in pending.uncollected
    )


def _fresh_felt(session: TableSession, tracked: TrackedHand) -> TableSession:
    return evolve(
        session,
        tracked=tracked,
        pending=session.pending.new_hand(tracked.hand, session.config.rules),
    )


def _redeal(session: TableSession, at_ms: int, out: list[Output]) -> TableSession | None:
    """R35-C: after a misdeal the re-deal is the same hand: same button, limits, players.

    The table, not the misdealt hand, says who still sits there: a player who left since
    (disqualified with his chips removed, R71-D) is not dealt in again, and a small blind
    he would have posted is dead. Without its big blind the hand cannot be the same one:
    None, and the next hand starts as usual.
    """
    assert session.tracked is not None
    seated = _seated_now(session, session.tracked.setup)
    if seated is None:
        return None
    expected = _seated_now(session, session.tracked.expected_setup) or seated
    misdealt = evolve(session.tracked, setup=seated, expected_setup=expected)
    tracked, rulings = irregular.redeal(misdealt, session.config.rules)
    session = _fresh_felt(session, tracked)
    out.append(
        event_out(session, "redeal", tuple(rulings), {"hand_id": tracked.hand.hand_id}, at_ms)
    )
    return session


def _seated_now(session: TableSession, setup: HandSetup) -> HandSetup | None:
    """``setup`` with only the players still in their seats, at the stacks the table holds."""
    players = []
    for seat, player, _ in setup.players:
        occupant = session.table.occupied(seat)
        if occupant is not None and occupant.player == player:
            players.append((seat, player, occupant.stack))
    seats = {seat for seat, _, _ in players}
    if len(players) < 2 or setup.big_blind_seat not in seats:
        return None
    small = setup.small_blind_seat if setup.small_blind_seat in seats else None
    return evolve(setup, players=tuple(players), small_blind_seat=small)


def reader_step(
    session: TableSession, event: ReaderEvent, out: list[Output], at_ms: int, kind: str
) -> TableSession:
    """Run one event through the irregularities layer (deal, burns, misdeals, fouled deck),
    which deals to the engine; publish what it says and keep the other layers in step."""
    assert session.tracked is not None and session.hand is not None
    before = session.hand
    tracked, said = irregular.step(session.tracked, event, session.config.rules)
    rulings = tuple(said)
    for ruling in rulings:
        if ruling.kind is RulingKind.FLOOR:
            session = raise_floor(session, ruling, out, at_ms)
    if rulings:
        out.append(event_out(session, kind, rulings, {}, at_ms))
    hand = tracked.hand
    if hand is not before:  # most reads (a card of the deal, a re-read) change no hand
        _hand_news(session, before, hand, out, at_ms)
    pending = settle_held(_pending_for(session.pending, hand), rulings)  # R53 held chips
    session = evolve(session, tracked=tracked, pending=pending)
    if hand.phase is Phase.COMPLETE and before.phase is not Phase.COMPLETE:
        session = finish_hand(session, out, at_ms)
    return session


def _hand_news(
    session: TableSession, before: HandState, hand: HandState, out: list[Output], at_ms: int
) -> None:
    """What a reader step that moved the hand on publishes: repaired streets (R39) and the
    hole cards a seat was dealt."""
    for repair in hand.board_repairs[len(before.board_repairs) :]:
        # R39: a repaired street is its own public event, with what it replaced.
        data = {
            "street": repair.street.name.lower(),
            "replaced": list(repair.replaced),
            "cards": list(repair.cards),
            "board": list(hand.board),
            "rule_id": repair.rule_id,
        }
        out.append(event_out(session, "board_replaced", (), data, at_ms))
    for seat in hand.seats:
        # the initial deal, each later stud card (seventh street's is a downcard), each draw
        if seat.hole and before.has_seat(seat.seat) and before.seat(seat.seat).hole != seat.hole:
            payload = {
                "hand_id": hand.hand_id,
                "seat": seat.seat,
                "cards": list(seat.hole),
                "ts_ms": at_ms,
            }
            out.append(Output(Channel.HOLE_CARDS, payload))


def _pending_for(pending: Pending, hand: HandState) -> Pending:
    """Betting zones belong to one street: a new street (or the end) starts them afresh."""
    if hand.street != pending.street or hand.phase is Phase.COMPLETE:
        return pending.next_street(hand.street)
    return pending


def _judge_due(session: TableSession, out: list[Output], at_ms: int, acting: bool) -> TableSession:
    """What waited for the readers' window (first card's seat, a street's burn) is decided
    once the window has passed or a player acts."""
    tracked = session.tracked
    if tracked is None or tracked.over:
        return session
    tracked, said = irregular.judge_due(tracked, session.config.rules, at_ms, acting)
    if said:
        for ruling in said:
            if ruling.kind is RulingKind.FLOOR:
                session = raise_floor(session, ruling, out, at_ms)
        out.append(event_out(session, "card", tuple(said), {}, at_ms))
    return evolve(session, tracked=tracked)


def confirm_showdown(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """The dealer confirms the live hands are tabled (R13-A): the table reads them."""
    hand = session.hand
    assert hand is not None
    if hand.phase is not Phase.SHOWDOWN and not (hand.face_up and hand.phase is Phase.DEALING):
        warn(
            out,
            session,
            "tabling",
            "hands are tabled at showdown or when all in",
            "not_showdown",
            at_ms,
        )
        return session
    if refuse_while_held(session, "hands tabled", "runout_held", at_ms, out):
        return session  # RP-8-F: the cards stay face down until the room says so
    for seat in hand.in_hand:
        current = session.hand
        if current is None or current.phase is Phase.COMPLETE:
            break
        if not seat.mucked and not seat.shown and seat.hole:
            session = run_event(session, ShowHand(seat.seat, at_ms=at_ms), out, at_ms, "tabled")
    return session


def _tag(seen: CardDetected | CardCleared) -> str:
    return seen.uid or f"card:{seen.card}"


def _already_there(session: TableSession, seen: CardDetected) -> bool:
    """The same tag re-read where the card ledger says it lies (e.g. after a restart)."""
    if seen.zone == "muck":
        hand = session.hand
        return (
            hand is not None
            and hand.phase is Phase.COMPLETE
            and any(seen.card in s.hole for s in hand.seats)
        )
    placed = session.tracked.ledger.by_tag(_tag(seen)) if session.tracked is not None else None
    if placed is None or placed.card != seen.card or not placed.lies_in(seen.zone):
        return False
    hand = session.hand  # a card put back during a draw may close a draw held for it
    return placed.present or not (hand and hand.variant.is_draw and hand.phase is Phase.DEALING)


def card_detected(session: TableSession, seen: CardDetected, out: list[Output]) -> TableSession:
    """A card read at a pad, the board, the burn or the muck: the irregularities layer deals
    it (initial deal, streets, burns) and raises misdeals, fouled decks and the rest."""
    hand = session.hand
    if _already_there(session, seen):
        return session  # a re-read is not a second card (R35-E) and not news
    if hand is not None and hand.phase is Phase.COMPLETE and seen.zone in ("burn", "muck"):
        return session  # the dealer gathers the cards (a last burn's read may come late)
    if hand is None or session.tracked is None or hand.phase is Phase.COMPLETE:
        warn(
            out,
            session,
            "rules",
            f"card {seen.card} read at {seen.zone} with no hand in progress",
            "card_outside_hand",
            seen.at_ms,
            seat=seen.seat,
        )
        return session
    if seen.zone in ("burn", "board"):  # RP-8-F: the card stands, the alert goes out
        refuse_while_held(session, f"card {seen.card} read at the {seen.zone}",
                          "runout_card_early", seen.at_ms, out)
    session = reader_step(
        session, ReaderCard(seen.zone, seen.card, _tag(seen), seen.at_ms), out, seen.at_ms,
        "card",
    )
    if seen.zone == "muck":
        return _mucked(session, seen, out)
    return session


def _mucked(session: TableSession, seen: CardDetected, out: list[Output]) -> TableSession:
    """R14: a hand pushed into the muck is dead; in turn that is his fold. (At showdown and
    out of turn the irregularities layer has already ruled on it.)"""
    hand = session.hand
    assert hand is not None
    owner = next((s for s in hand.seats if seen.card in s.hole), None)
    if owner is None or not owner.in_hand:
        return session
    if hand.phase is Phase.BETTING and hand.action_on == owner.seat:
        fold = PlayerAction(owner.seat, ActionKind.FOLD, at_ms=seen.at_ms)
        return run_event(session, fold, out, seen.at_ms, "fold")
    return session


def card_cleared(session: TableSession, cleared: CardCleared, out: list[Output]) -> TableSession:
    """Cards leaving the board or a pad during a hand (a premature card going back, a flop
    being repaired); once the hand is over the dealer is only collecting them."""
    hand = session.hand
    if hand is None or session.tracked is None or session.tracked.over:
        return session
    if hand.phase is Phase.COMPLETE:
        return session
    event = ReaderCardGone(cleared.zone, cleared.card, _tag(cleared), cleared.at_ms)
    return reader_step(session, event, out, cleared.at_ms, "card_removed")


def update_leds(session: TableSession, out: list[Output]) -> TableSession:
    """Seat LEDs follow the hand: action-on, all-in, otherwise off."""
    wanted: dict[int, str] = {}
    hand = session.hand
    if hand is not None and hand.phase is not Phase.COMPLETE:
        for s in hand.seats:
            if s.status is SeatStatus.ALL_IN:
                wanted[s.seat] = "all_in"
        if hand.action_on is not None:
            wanted[hand.action_on] = "action"
    if tuple(sorted(wanted.items())) == session.leds:
        return session  # as lit: ``leds`` holds exactly what was wanted last
    current = dict(session.leds)
    changes = []
    for seat in sorted(set(current) | set(wanted)):
        mode = wanted.get(seat, "off")
        if current.get(seat, "off") != mode:
            changes.append((seat, mode))
    if not changes:
        return session
    for seat, mode in changes:
        out.append(Output(Channel.LED, {"seat": seat, "mode": mode}))
    return evolve(session, leds=tuple(sorted((s, m) for s, m in wanted.items())))


def game_change_ruling(
    previous: Variant, following: Variant, level: int, rules: RuleProfile
) -> Ruling:
    """A mixed-game change announced at the hand that starts the new game (R11-B).

    Between flop games the button and blinds move on as for any next hand; for stud the
    button is frozen where the next hold'em hand has it and a flop game after stud starts
    there (``mixed_games.stud_hand``, ``after_stud_hand``).
    """
    plan = button_at_game_change(previous, following)
    button = {
        ButtonPlan.MOVES_ON: "the button and the blinds move on as for the next hand",
        ButtonPlan.FREEZE: "the button moves to where the next hold'em hand has it, frozen "
        "during stud",
        ButtonPlan.RESUME: "the button starts where it was frozen",
        ButtonPlan.STAYS_FROZEN: "the button stays frozen (one stud game to another)",
    }[plan]
    return Ruling(
        RulingKind.INFO,
        (rules.cite("mixed_game_button"),),
        f"level {level}: the game changes from {previous.value} to {following.value}; {button}",
        code="game_change",
    )
