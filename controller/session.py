"""The table session: everything one table does between power-on and power-off, as a pure fold.

``apply(session, input) -> (session, outputs)`` is the application's only decision point.
It turns what the readers, the dealer console and the room (MQTT) say into hands played
through the engine, and says what the table must publish. Like the engine it is pure and
deterministic, so the journal of inputs replays to the same session after a crash.

    session = new_session(SessionConfig(...))
    session, out = apply(session, ConsolePress("hand_start", at_ms=1000))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokertable.controller import betting
from pokertable.controller.cards import RANKS, SUITS
from pokertable.controller.engine import EngineError
from pokertable.controller.events import (
    ActionKind,
    DealHole,
    MuckHand,
    PlayerAction,
    ShowHand,
)
from pokertable.controller.inputs import (
    CardCleared,
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsolePress,
    HardwareNotice,
    Input,
    RoomCommand,
)
from pokertable.controller.interpretation.events import ChipItem as ZoneChip
from pokertable.controller.interpretation.events import (
    ChipMotion,
    Declaration,
    DeclKind,
    FloorDecision,
    PriorChipsPulled,
)
from pokertable.controller.interpretation.hand import TableEvent, interpret
from pokertable.controller.interpretation.zones import Pending
from pokertable.controller.irregularities import dealing as irregular_dealing
from pokertable.controller.irregularities import tracked as irregular
from pokertable.controller.irregularities.events import CardRemoved as ReaderCardGone
from pokertable.controller.irregularities.events import CardSeen as ReaderCard
from pokertable.controller.irregularities.events import ConfirmMisdeal
from pokertable.controller.irregularities.events import TableEvent as ReaderEvent
from pokertable.controller.irregularities.hand import HandStatus, TrackedHand
from pokertable.controller.model import (
    AnteFormat,
    HandState,
    Level,
    Phase,
    SeatStatus,
    Variant,
    evolve,
)
from pokertable.controller.rules import TDA_2024, RuleProfile
from pokertable.controller.rulings import Ruling, RulingKind
from pokertable.controller.table import TableSeat, TableState, after_hand, next_hand


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionConfig:
    venue: str
    table: str
    variant: Variant = Variant.NLHE
    rules: RuleProfile = TDA_2024
    max_seats: int = 10
    first_button: int | None = None  # drawn for the button; default: lowest occupied seat
    # Cards placed within this many ms of each other may be reported in any order: each node
    # scans its antennas in turn (a tag counts after two reads) and the Pi polls the nodes
    # in turn. Deal order (R35-A2) and burns (R38) are judged with this tolerance.
    card_read_window_ms: int = 1500


@dataclass(frozen=True, slots=True)
class PendingAlert:
    """A ruling waiting for the floor, with the options the director may choose from.

    ``id`` is the one name of this floor call everywhere: the state's alert, the event
    that raised it, the rejections that wait for it, the director's ``floor_decision`` and
    its reply. It is ``<hand_id>/F<n>``, numbered per hand by one counter
    (``Pending.next_floor``) whichever layer raised the call. ``kind`` says what the call
    is about (``string_bet``, ``bet_ruling``, ``skipped_player``, ...).
    """

    id: str
    ruling: Ruling
    hand_id: str | None
    kind: str
    interpretation: bool = False  # the interpretation layer holds the decision


@dataclass(frozen=True, slots=True)
class Output:
    """Something the table must say: an event, a hole-card reveal, a reply, a seat LED."""

    channel: str  # event | hole_cards | reply | led
    payload: dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class TableSession:
    config: SessionConfig
    table: TableState
    level: Level
    pending_level: Level | None = None
    hand: HandState | None = None
    tracked: TrackedHand | None = None  # the same hand as the card readers see it (R23-R39, 53)
    pending: Pending = field(default_factory=Pending)  # zones, words, floor rulings (R40-62)
    hand_number: int = 0
    paused: bool = False
    hand_for_hand: bool = False
    absent: frozenset[int] = frozenset()
    bet_zones: tuple[tuple[int, tuple[ChipItem, ...]], ...] = ()  # chips seen in each bet zone
    seat_cards: tuple[tuple[int, tuple[str, ...]], ...] = ()  # cards read at each seat pad
    board_cards: tuple[str, ...] = ()
    burn_cards: tuple[str, ...] = ()
    alerts: tuple[PendingAlert, ...] = ()
    floor_approved: frozenset[int] = frozenset()  # seats the floor allowed to raise (T11 R37)
    alert_counter: int = 0
    leds: tuple[tuple[int, str], ...] = ()
    history: tuple[str, ...] = field(default=())  # hand ids completed this session

    def zone(self, seat: int) -> tuple[ChipItem, ...]:
        return dict(self.bet_zones).get(seat, ())

    def cards_at(self, seat: int) -> tuple[str, ...]:
        return dict(self.seat_cards).get(seat, ())


def new_session(config: SessionConfig, level: Level, seats: tuple[TableSeat, ...]) -> TableSession:
    return TableSession(
        config=config,
        table=TableState(seats=seats, max_seats=config.max_seats),
        level=level,
    )


def zone_value(chips: tuple[ChipItem, ...]) -> int:
    return sum(c.denomination for c in chips if c.kind == "value")


# --- the fold -----------------------------------------------------------------------------


def apply(session: TableSession, item: Input) -> tuple[TableSession, tuple[Output, ...]]:
    """Apply one input. Bad input yields an alert output and leaves the session unchanged."""
    out: list[Output] = []
    match item:
        case ConsolePress():
            session = _console(session, item, out)
        case ChipsMoved():
            session = _chips(session, item, out)
        case CardDetected():
            session = _card(session, item, out)
        case CardCleared():
            session = _card_cleared(session, item, out)
        case RoomCommand():
            session = _command(session, item, out)
        case HardwareNotice():
            _warn(out, session, "rules", item.text, item.code, item.at_ms)
    session = _leds(session, out)
    return session, tuple(out)


def _warn(
    out: list[Output],
    session: TableSession,
    concept: str,
    text: str,
    code: str,
    at_ms: int,
    seat: int | None = None,
) -> None:
    """Tell the dealer something is off, citing the rule concept (an ALERT, no decision)."""
    ruling = Ruling(
        RulingKind.ALERT, (session.config.rules.cite(concept),), text, seat=seat, code=code
    )
    _alert(out, session, ruling, at_ms)


def _alert(
    out: list[Output], session: TableSession, ruling: Ruling, at_ms: int, kind: str | None = None
) -> None:
    out.append(_event(session, kind or ruling.code or "alert", (ruling,), {}, at_ms))


def _event(
    session: TableSession, kind: str, rulings: tuple[Ruling, ...], data: dict[str, Any], at_ms: int
) -> Output:
    public: list[dict[str, Any]] = []
    for r in rulings:
        said: dict[str, Any] = {
            "rule_ids": list(r.rule_ids),
            "kind": _public_kind(r.kind),
            "seat": r.seat,
            "text": r.text[:500],
        }
        alert_id = _alert_id(session, r) if r.kind is RulingKind.FLOOR else None
        if alert_id is not None:
            said["alert_id"] = alert_id  # what the director answers with floor_decision
        public.append(said)
    hand_id = session.hand.hand_id if session.hand is not None else None
    return Output(
        "event", {"hand_id": hand_id, "kind": kind, "rulings": public, "data": data, "ts_ms": at_ms}
    )


def _public_kind(kind: RulingKind) -> str:
    # The public schema has no "rejected"/"info": a refused action is an alert to the dealer,
    # an automatic step is accepted play.
    return {RulingKind.REJECTED: "alert", RulingKind.INFO: "accepted"}.get(kind, str(kind))


def _engine(
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
        _warn(
            out,
            session,
            "rules",
            f"the hand is over ({session.tracked.status}): no more actions",
            "hand_over",
            at_ms,
        )
        return session
    session = _judge_due(session, out, at_ms, acting=False)
    assert session.hand is not None
    before = session.hand
    hand, pending, outcome = interpret(before, session.pending, event, rules)
    rulings = _once(outcome.rulings)
    if session.tracked is not None and hand is not before:
        played = tuple(
            a
            for a in (i.player_action(at_ms) for i in outcome.interpretations if i.decided)
            if a is not None
        )
        if isinstance(event, PlayerAction):
            played = (event,)
        status = HandStatus.COMPLETE if hand.phase is Phase.COMPLETE else session.tracked.status
        session = evolve(
            session,
            hand=hand,
            tracked=evolve(
                session.tracked, hand=hand, played=(*session.tracked.played, *played), status=status
            ),
        )
        if played:
            # The first action ends the initial deal (R35-A counts, R30 presence); chips
            # that only show posted blinds are not an action.
            session = _judge_due(session, out, at_ms, acting=True)
            session = _close_deal(session, out, at_ms)
            assert session.hand is not None
            hand = session.hand
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
    session = evolve(session, pending=pending)
    for ruling in rulings:
        if ruling.kind is RulingKind.FLOOR:
            session = _raise_floor(session, ruling, out, at_ms)
    refused = hand is before and any(
        r.kind in (RulingKind.REJECTED, RulingKind.ALERT) for r in rulings
    )
    if rulings or data:  # chips merely held in a zone are not news
        out.append(_event(session, "rejected" if refused else kind, rulings, data, at_ms))
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
        out.append(Output("hole_cards", payload))
    session = evolve(session, hand=hand)
    if hand.phase is Phase.COMPLETE and before.phase is not Phase.COMPLETE:
        session = _finish_hand(session, out, at_ms)
    return session


def _once(rulings: tuple[Ruling, ...]) -> tuple[Ruling, ...]:
    """The interpretation layer and the engine may say the same sentence: say it once."""
    kept: list[Ruling] = []
    for ruling in rulings:
        if all(ruling.text != k.text for k in kept):
            kept.append(ruling)
    return tuple(kept)


def _raise_floor(
    session: TableSession, ruling: Ruling, out: list[Output], at_ms: int
) -> TableSession:
    """Park a FLOOR ruling as a pending alert under its one id (see ``PendingAlert``)."""
    hand_id = session.hand.hand_id if session.hand is not None else None
    held = session.pending.floor(ruling.code)
    if held is not None:  # the interpretation layer numbered it already
        kind = held.topic or "bet_ruling"
        pending = PendingAlert(held.ruling_id, ruling, hand_id, kind, interpretation=True)
        return evolve(session, alerts=(*session.alerts, pending))
    number = session.pending.next_floor
    alert_id = f"{hand_id or session.config.table}/F{number}"
    pending = PendingAlert(alert_id, ruling, hand_id, ruling.code or "floor")
    return evolve(
        session,
        alerts=(*session.alerts, pending),
        pending=evolve(session.pending, next_floor=number + 1),
        alert_counter=session.alert_counter + 1,
    )


def _alert_id(session: TableSession, ruling: Ruling) -> str | None:
    return next((a.id for a in session.alerts if a.ruling is ruling), None)


def _finish_hand(session: TableSession, out: list[Output], at_ms: int) -> TableSession:
    hand = session.hand
    assert hand is not None
    table = after_hand(session.table, hand)
    awards = [
        {"seat": a.seat, "pot": a.pot_index, "amount": a.amount, "hand": a.hand_name}
        for a in hand.awards
    ]
    out.append(
        _event(session, "hand_complete", (), {"awards": awards, "board": list(hand.board)}, at_ms)
    )
    return evolve(session, table=table, history=(*session.history, hand.hand_id))


# --- dealer console -----------------------------------------------------------------------


def _console(session: TableSession, press: ConsolePress, out: list[Output]) -> TableSession:
    rules = session.config.rules
    if press.button == "hand_start":
        return _start_hand(session, press.at_ms, out)
    if press.button in ("floor", "clock"):
        text = "floor called to the table" if press.button == "floor" else "clock called"
        concept = "rules"
        out.append(
            _event(
                session,
                f"{press.button}_call",
                (Ruling(RulingKind.ALERT, (rules.cite(concept),), text),),
                {},
                press.at_ms,
            )
        )
        return session
    hand = session.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        _warn(
            out,
            session,
            "rules",
            f"'{press.button}' pressed with no hand in progress",
            "no_hand",
            press.at_ms,
        )
        return session
    if press.button == "confirm":
        tracked = session.tracked
        if (
            tracked is not None
            and tracked.misdeal is not None
            and not tracked.over
            and not tracked.sa(session.config.rules)  # no misdeal after SA (R35-D)
        ):
            # The table proved a misdeal (R35-A): the dealer's confirm declares it.
            return _reader_step(session, ConfirmMisdeal(press.at_ms), out, press.at_ms, "misdeal")
        return _confirm_showdown(session, press.at_ms, out)
    if press.button == "undo":
        _warn(
            out,
            session,
            "in_turn_binding",
            "an action in turn is binding (R50-A): the floor corrects errors",
            "undo_refused",
            press.at_ms,
        )
        return session
    seat_no = hand.action_on
    opts = betting.options_for(hand, rules)
    if seat_no is None or opts is None:
        _warn(
            out,
            session,
            "in_turn_binding",
            f"'{press.button}' pressed but nobody is on the action",
            "no_action",
            press.at_ms,
        )
        return session
    kind_of = {
        "check_call": DeclKind.CHECK if opts.can_check else DeclKind.CALL,
        "fold": DeclKind.FOLD,
        "all_in": DeclKind.ALL_IN,
        "bet_raise": DeclKind.RAISE if hand.call_to else DeclKind.BET,
        "pot": DeclKind.POT,
    }
    if press.button not in kind_of:
        _warn(
            out,
            session,
            "rules",
            f"unknown console button {press.button!r}",
            "unknown_button",
            press.at_ms,
        )
        return session
    # The dealer enters what the player said; the chips that follow fulfil it (R40-A: the
    # declaration came first). "Raise" with no amount waits for the chips (R51-A).
    amount = press.amount if press.button == "bet_raise" else None
    declaration = Declaration(seat_no, kind_of[press.button], amount, at_ms=press.at_ms)
    return _engine(session, declaration, out, press.at_ms, "declaration")


def _start_hand(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    rules = session.config.rules
    misdealt = session.tracked is not None and session.tracked.status is HandStatus.MISDEAL
    if misdealt:
        return _redeal(session, at_ms, out)
    if session.hand is not None and session.hand.phase is not Phase.COMPLETE:
        _warn(
            out,
            session,
            "rules",
            f"hand {session.hand.hand_id} is still in progress",
            "hand_in_progress",
            at_ms,
        )
        return session
    if session.paused:
        _warn(out, session, "rules", "play is paused by the director", "paused", at_ms)
        return session
    level = session.pending_level or session.level  # R23: a new level applies to the next hand
    number = session.hand_number + 1
    hand_id = f"{session.config.table}-h{number:05d}"
    first_button = session.config.first_button
    if first_button is None and session.table.seats:
        first_button = session.table.seats[0].seat
    try:
        setup = next_hand(
            session.table,
            hand_id=hand_id,
            variant=session.config.variant,
            level=level,
            first_button=first_button,
        )
        tracked, started = irregular.start_tracked(
            setup,
            rules,
            absent=session.absent,
            read_window_ms=session.config.card_read_window_ms,
        )
    except EngineError as exc:
        _warn(out, session, "rules", str(exc), "cannot_start", at_ms)
        return session
    hand, rulings = tracked.hand, tuple(started)
    session = evolve(
        session,
        hand=hand,
        tracked=tracked,
        hand_number=number,
        level=level,
        pending_level=None,
        pending=Pending(street=hand.street),
        bet_zones=(),
        seat_cards=(),
        board_cards=(),
        burn_cards=(),
    )
    data = {
        "button": setup.button,
        "small_blind_seat": setup.small_blind_seat,
        "big_blind_seat": setup.big_blind_seat,
        "level": level.number,
    }
    out.append(_event(session, "hand_start", rulings, data, at_ms))
    return session


def _fresh_felt(session: TableSession, tracked: TrackedHand) -> TableSession:
    return evolve(
        session,
        hand=tracked.hand,
        tracked=tracked,
        pending=Pending(street=tracked.hand.street),
        bet_zones=(),
        seat_cards=(),
        board_cards=(),
        burn_cards=(),
    )


def _redeal(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """R35-C: after a misdeal the re-deal is the same hand: same button, limits, players."""
    assert session.tracked is not None
    tracked, rulings = irregular.redeal(session.tracked, session.config.rules)
    session = _fresh_felt(session, tracked)
    out.append(_event(session, "redeal", tuple(rulings), {"hand_id": tracked.hand.hand_id}, at_ms))
    return session


def _reader_step(
    session: TableSession, event: ReaderEvent, out: list[Output], at_ms: int, kind: str
) -> TableSession:
    """Run one event through the irregularities layer (deal, burns, misdeals, fouled deck),
    which deals to the engine; publish what it says and keep the other layers in step."""
    assert session.tracked is not None and session.hand is not None
    before = session.hand
    tracked, said = irregular.step(session.tracked, event, session.config.rules)
    rulings = _once(tuple(said))
    for ruling in rulings:
        if ruling.kind is RulingKind.FLOOR:
            session = _raise_floor(session, ruling, out, at_ms)
    if rulings:
        out.append(_event(session, kind, rulings, {}, at_ms))
    hand = tracked.hand
    for seat in hand.seats:
        if seat.hole and before.has_seat(seat.seat) and not before.seat(seat.seat).hole:
            payload = {
                "hand_id": hand.hand_id,
                "seat": seat.seat,
                "cards": list(seat.hole),
                "ts_ms": at_ms,
            }
            out.append(Output("hole_cards", payload))
    session = evolve(
        session, tracked=tracked, hand=hand, pending=_pending_for(session.pending, hand)
    )
    if hand.phase is Phase.COMPLETE and before.phase is not Phase.COMPLETE:
        session = _finish_hand(session, out, at_ms)
    return session


def _pending_for(pending: Pending, hand: HandState) -> Pending:
    """Betting zones belong to one street: a new street (or the end) starts them afresh."""
    if hand.street != pending.street or hand.phase is Phase.COMPLETE:
        return Pending(street=hand.street, floors=pending.floors, next_floor=pending.next_floor)
    return pending


def _judge_due(
    session: TableSession, out: list[Output], at_ms: int, acting: bool
) -> TableSession:
    """What waited for the readers' window (first card's seat, a street's burn) is decided
    once the window has passed or a player acts."""
    tracked = session.tracked
    if tracked is None or tracked.over:
        return session
    tracked, said = irregular.judge_due(tracked, session.config.rules, at_ms, acting)
    if said:
        for ruling in said:
            if ruling.kind is RulingKind.FLOOR:
                session = _raise_floor(session, ruling, out, at_ms)
        out.append(_event(session, "card", tuple(said), {}, at_ms))
    return evolve(session, tracked=tracked, hand=tracked.hand)


def _close_deal(session: TableSession, out: list[Output], at_ms: int) -> TableSession:
    """The first action ends the initial deal (R35-A counts, R30 presence)."""
    tracked = session.tracked
    if tracked is None or tracked.deal.closed or tracked.over:
        return session
    tracked, said = irregular_dealing.close_deal(tracked, session.config.rules)
    rulings = _once(tuple(said))
    if rulings:
        out.append(_event(session, "deal_closed", rulings, {}, at_ms))
    return evolve(session, tracked=tracked, hand=tracked.hand)


def _confirm_showdown(session: TableSession, at_ms: int, out: list[Output]) -> TableSession:
    """The dealer confirms the live hands are tabled (R13-A): the table reads them."""
    hand = session.hand
    assert hand is not None
    if hand.phase is not Phase.SHOWDOWN and not (hand.face_up and hand.phase is Phase.DEALING):
        _warn(
            out,
            session,
            "tabling",
            "hands are tabled at showdown or when all in",
            "not_showdown",
            at_ms,
        )
        return session
    for seat in hand.in_hand:
        current = session.hand
        if current is None or current.phase is Phase.COMPLETE:
            break
        if not seat.mucked and not seat.shown and seat.hole:
            session = _engine(session, ShowHand(seat.seat, at_ms=at_ms), out, at_ms, "tabled")
    return session


# --- chips --------------------------------------------------------------------------------


def _chips(session: TableSession, moved: ChipsMoved, out: list[Output]) -> TableSession:
    """A settled chip motion in a bet zone goes to bet interpretation (R40-R46, R56, RP-22).

    Chips leaving a zone are prior chips pulled back (R46-B) or change the dealer takes
    out while betting is open; once the street is over they are the dealer collecting the
    bets into the pot, which decides nothing.
    """
    if moved.seat is None or not moved.zone.endswith(".bet"):
        return session  # stack zones and the pot are not action
    seat_no = moved.seat
    zone = list(session.zone(seat_no))
    # After a controller restart the readers report every chip afresh: tags the session
    # already holds are not new chips, and tags it never saw cannot leave.
    known = {c.uid for c in zone if c.uid}
    arrived = tuple(c for c in moved.arrived if not c.uid or c.uid not in known)
    left = tuple(c for c in moved.left if c in zone)
    if moved.complete:
        # The readers' full view after a restart: chips we still hold that are not in it
        # left while nobody listened; they leave the zone without a ruling.
        present = {c.uid for c in moved.arrived if c.uid}
        zone = [c for c in zone if not c.uid or c.uid in present]
        session = evolve(session, bet_zones=_set_pair(session.bet_zones, seat_no, tuple(zone)))
    moved = evolve(moved, arrived=arrived, left=left)
    if not arrived and not left:
        return session
    for chip in left:
        zone.remove(chip)
    zone.extend(arrived)
    session = evolve(session, bet_zones=_set_pair(session.bet_zones, seat_no, tuple(zone)))
    hand = session.hand
    if hand is None or hand.phase is Phase.COMPLETE:
        if moved.arrived:
            _warn(
                out,
                session,
                "rules",
                f"chips arrived in seat {seat_no}'s bet zone with no hand in progress",
                "chips_out_of_round",
                moved.at_ms,
                seat_no,
            )
        return session
    if moved.left and hand.phase is Phase.BETTING and hand.has_seat(seat_no):
        seat_zone = session.pending.zone(seat_no)
        pulled = tuple(ZoneChip(c.denomination, c.kind) for c in moved.left)
        if seat_zone.prior:
            event: TableEvent = PriorChipsPulled(
                seat_no, pulled, at_ms=moved.at_ms, by_dealer=seat_zone.change > 0
            )
            session = _engine(session, event, out, moved.at_ms, "chips_pulled")
    if (
        moved.arrived
        and hand.phase is Phase.BETTING
        and hand.has_seat(seat_no)
        and hand.action_on != seat_no
        and zone_value(tuple(zone)) > hand.seat(seat_no).bet
    ):
        # More than the seat has committed (posted blinds are fine), out of turn: R53-A.
        # The chips are held in the zone; nothing is ruled until the action reaches him.
        _warn(
            out,
            session,
            "acting_in_turn",
            f"seat {seat_no} put chips out but the action is on seat {hand.action_on}: "
            "the chips stay where they are until the action reaches him",
            "out_of_turn",
            moved.at_ms,
            seat_no,
        )
    if moved.arrived:
        chips = tuple(ZoneChip(c.denomination, c.kind) for c in moved.arrived)
        motion = ChipMotion(seat_no, chips, at_ms=moved.at_ms, settled=True)
        session = _engine(session, motion, out, moved.at_ms, "chips")
    return session


def _set_pair(
    pairs: tuple[tuple[int, Any], ...], key: int, value: Any
) -> tuple[tuple[int, Any], ...]:
    items = dict(pairs)
    items[key] = value
    return tuple(sorted(items.items()))


# --- cards --------------------------------------------------------------------------------


def _already_there(session: TableSession, seen: CardDetected) -> bool:
    """A card re-read where the table already knows it lies (e.g. after a restart)."""
    if seen.zone == "board":
        return seen.card in session.board_cards
    if seen.zone == "burn":
        return seen.card in session.burn_cards
    if seen.zone == "muck":
        hand = session.hand
        return (
            hand is not None
            and hand.phase is Phase.COMPLETE
            and any(seen.card in s.hole for s in hand.seats)
        )
    if seen.seat is not None:
        return seen.card in session.cards_at(seen.seat)
    return False


def _card(session: TableSession, seen: CardDetected, out: list[Output]) -> TableSession:
    """A card read at a pad, the board, the burn or the muck: the irregularities layer deals
    it (initial deal, streets, burns) and raises misdeals, fouled decks and the rest."""
    hand = session.hand
    if _already_there(session, seen):
        return session  # a re-read is not a second card (R35-E) and not news
    if hand is not None and hand.phase is Phase.COMPLETE and seen.zone in ("burn", "muck"):
        return session  # the dealer gathers the cards (a last burn's read may come late)
    if hand is None or session.tracked is None or hand.phase is Phase.COMPLETE:
        _warn(
            out,
            session,
            "rules",
            f"card {seen.card} read at {seen.zone} with no hand in progress",
            "card_outside_hand",
            seen.at_ms,
            seat=seen.seat,
        )
        return session
    if seen.zone == "burn":
        session = evolve(session, burn_cards=(*session.burn_cards, seen.card))
    elif seen.zone == "board":
        session = evolve(session, board_cards=(*session.board_cards, seen.card))
    elif seen.seat is not None and seen.zone.endswith(".cards"):
        cards = (*session.cards_at(seen.seat), seen.card)
        session = evolve(session, seat_cards=_set_pair(session.seat_cards, seen.seat, cards))
    uid = seen.uid or f"card:{seen.card}"
    session = _reader_step(
        session, ReaderCard(seen.zone, seen.card, uid, seen.at_ms), out, seen.at_ms, "card"
    )
    if seen.zone == "muck":
        return _mucked(session, seen, out)
    return session


def _card_order(card: str) -> tuple[int, int]:
    return RANKS.index(card[0]), SUITS.index(card[1])


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
        return _engine(session, fold, out, seen.at_ms, "fold")
    return session


def _card_cleared(session: TableSession, cleared: CardCleared, out: list[Output]) -> TableSession:
    """Cards leaving the board or a pad during a hand (a premature card going back, a flop
    being repaired); once the hand is over the dealer is only collecting them."""
    hand = session.hand
    if hand is None or session.tracked is None or session.tracked.over:
        return session
    if hand.phase is Phase.COMPLETE:
        return session
    uid = cleared.uid or f"card:{cleared.card}"
    event = ReaderCardGone(cleared.zone, cleared.card, uid, cleared.at_ms)
    return _reader_step(session, event, out, cleared.at_ms, "card_removed")


# --- room commands (MQTT) -----------------------------------------------------------------


def _reply(
    session: TableSession,
    cmd: RoomCommand,
    out: list[Output],
    ok: bool,
    error: str | None = None,
    field_name: str | None = None,
) -> None:
    payload: dict[str, Any] = {
        "request_id": cmd.request_id,
        "ok": ok,
        "command": cmd.command,
        "ts_ms": cmd.at_ms,
    }
    if error is not None:
        payload["error"] = error[:500]
    if field_name is not None:
        payload["field"] = field_name
    out.append(Output("reply", payload))


def _command(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    p = cmd.payload
    if cmd.command == "level":
        lv = p["level"]
        fmt = {
            "none": AnteFormat.NONE,
            "bb_ante": AnteFormat.BIG_BLIND_ANTE,
            "per_player": AnteFormat.PER_PLAYER,
        }.get(lv["ante_format"])
        if fmt is None:
            _reply(
                session,
                cmd,
                out,
                False,
                f"ante format {lv['ante_format']!r} is not supported at this table",
                "level.ante_format",
            )
            return session
        try:
            # The chip unit belongs to the chip set in play, not to the clock's level.
            level = Level(
                number=lv["number"],
                small_blind=lv["small_blind"],
                big_blind=lv["big_blind"],
                ante=lv["ante"],
                ante_format=fmt,
                chip_unit=session.level.chip_unit,
            )
        except ValueError as exc:
            _reply(session, cmd, out, False, str(exc), "level")
            return session
        in_hand = session.hand is not None and session.hand.phase is not Phase.COMPLETE
        _reply(session, cmd, out, True)
        if in_hand or session.hand is not None:
            return evolve(session, pending_level=level)
        return evolve(session, level=level, pending_level=None)
    if cmd.command in ("pause", "resume"):
        _reply(session, cmd, out, True)
        return evolve(session, paused=cmd.command == "pause")
    if cmd.command == "hand_for_hand":
        _reply(session, cmd, out, True)
        return evolve(session, hand_for_hand=bool(p["enabled"]))
    if cmd.command in ("break_start", "break_end"):
        _reply(session, cmd, out, True)
        return evolve(session, paused=cmd.command == "break_start")
    if cmd.command == "seat_player":
        try:
            table = session.table.seat_player(int(p["seat"]), str(p["player"]), int(p["stack"]))
        except EngineError as exc:
            _reply(session, cmd, out, False, str(exc), "seat")
            return session
        _reply(session, cmd, out, True)
        return evolve(session, table=table)
    if cmd.command in ("player_absent", "player_present"):
        seat = int(p["seat"])
        if session.table.occupied(seat) is None:
            _reply(session, cmd, out, False, f"seat {seat} is empty", "seat")
            return session
        absent = (
            (session.absent | {seat})
            if cmd.command == "player_absent"
            else (session.absent - {seat})
        )
        _reply(session, cmd, out, True)
        return evolve(session, absent=frozenset(absent))
    if cmd.command == "floor_decision":
        return _floor_decision(session, cmd, out)
    if cmd.command == "dealer_button":
        # A networked dealer console (a tablet at the dealer's seat) instead of GPIO buttons.
        _reply(session, cmd, out, True)
        amount = p.get("amount")
        press = ConsolePress(str(p["button"]), cmd.at_ms, int(amount) if amount else None)
        return _console(session, press, out)
    if cmd.command == "penalty":
        seat = int(p["seat"])
        if session.table.occupied(seat) is None:
            _reply(session, cmd, out, False, f"seat {seat} is empty", "seat")
            return session
        _reply(session, cmd, out, True)
        rules_cited = tuple(str(r) for r in p["rule_ids"])
        out.append(
            _event(
                session,
                "penalty",
                (
                    Ruling(
                        RulingKind.BINDING,
                        rules_cited,
                        f"penalty for seat {seat}: {p['penalty']}",
                        seat=seat,
                    ),
                ),
                {"seat": seat, "penalty": p["penalty"], "count": p.get("count")},
                cmd.at_ms,
            )
        )
        return session
    _reply(
        session, cmd, out, False, f"command {cmd.command!r} is not handled by this table", "command"
    )
    return session


def _floor_decision(session: TableSession, cmd: RoomCommand, out: list[Output]) -> TableSession:
    alert_id = str(cmd.payload["alert_id"])
    decision = str(cmd.payload["decision"])
    pending = next((a for a in session.alerts if a.id == alert_id), None)
    if pending is None:
        _reply(session, cmd, out, False, f"no pending alert {alert_id!r}", "alert_id")
        return session
    if pending.ruling.options and decision not in pending.ruling.options:
        _reply(
            session,
            cmd,
            out,
            False,
            f"decision must be one of {list(pending.ruling.options)}",
            "decision",
        )
        return session
    session = evolve(session, alerts=tuple(a for a in session.alerts if a.id != alert_id))
    _reply(session, cmd, out, True)
    ruling = Ruling(
        RulingKind.BINDING,
        pending.ruling.rule_ids,
        f"floor decision on {alert_id}: {decision}",
        seat=pending.ruling.seat,
        code="floor_decision",
    )
    out.append(
        _event(
            session,
            "floor_decision",
            (ruling,),
            {"alert_id": alert_id, "decision": decision},
            cmd.at_ms,
        )
    )
    if pending.ruling.code == "reopen_floor" and decision == "allow the raise":
        seat = pending.ruling.seat
        assert seat is not None
        # The dealer re-enters the raise; it now carries the floor's approval.
        return evolve(session, floor_approved=session.floor_approved | {seat})
    if pending.interpretation and session.hand is not None:
        # The interpretation layer applies the chosen option (call, raise, forfeit...).
        choice = FloorDecision(pending.id, decision, at_ms=cmd.at_ms)
        return _engine(session, choice, out, cmd.at_ms, "floor_applied")
    return session


# --- seat LEDs ----------------------------------------------------------------------------


def _leds(session: TableSession, out: list[Output]) -> TableSession:
    """Seat LEDs follow the hand: action-on, all-in, otherwise off."""
    wanted: dict[int, str] = {}
    hand = session.hand
    if hand is not None and hand.phase is not Phase.COMPLETE:
        for s in hand.seats:
            if s.status is SeatStatus.ALL_IN:
                wanted[s.seat] = "all_in"
        if hand.action_on is not None:
            wanted[hand.action_on] = "action"
    current = dict(session.leds)
    changes = []
    for seat in sorted(set(current) | set(wanted)):
        mode = wanted.get(seat, "off")
        if current.get(seat, "off") != mode:
            changes.append((seat, mode))
    if not changes:
        return session
    for seat, mode in changes:
        out.append(Output("led", {"seat": seat, "mode": mode}))
    return evolve(session, leds=tuple(sorted((s, m) for s, m in wanted.items())))
