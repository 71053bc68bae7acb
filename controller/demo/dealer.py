"""The simulated dealer and players of `pokertable demo`: bots that bet with real chip
pictures on simulated felt, and a dealer who deals, burns and pulls bets in as a real one
does, waiting for the table to read each step before the next."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from pokertable.controller.app.table_app import TableApp, wall_ms
from pokertable.controller.demo.draw import DrawDealing
from pokertable.controller.demo.room import (
    DemoError,
)
from pokertable.controller.demo.stud import StudDealing
from pokertable.controller.engine import betting
from pokertable.controller.engine.cards import RANKS, SUITS
from pokertable.controller.engine.model import Betting, HandState, Phase, Street
from pokertable.controller.table.inputs import ConsolePress
from pokertable.controller.table.session import TableSession, zone_value

DENOMINATIONS = (5000, 1000, 500, 100, 25)
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo")
# Fast reader timing for the demo: chips count after two scans and settle after 80 ms.
NODE_TIMING = {"present_after": 2, "absent_after": 2, "settle_ms": 80, "heartbeat_ms": 500}
# The last resort: a table that takes no input at all for this long has stalled.
STALL_S = 120.0


def compose(amount: int) -> list[int]:
    """Chips for an exact amount, largest first (amounts are multiples of the 25 chip).

    >>> compose(1650)
    [1000, 500, 100, 25, 25]
    """
    if amount < 0 or amount % DENOMINATIONS[-1]:
        raise ValueError(f"{amount} cannot be paid in chips of {DENOMINATIONS}")
    chips = []
    for d in DENOMINATIONS:
        while amount >= d:
            chips.append(d)
            amount -= d
    return chips


def round_chips(amount: int) -> int:
    return amount - amount % DENOMINATIONS[-1]


class Dealer:
    """The dealer and the bot players: physical actions on the simulated felt.

    Every wait is on the table's state (a new action, a new street, an alert, a refusal):
    never on a guess of how fast the machine is. Only when the table has taken no input at
    all for ``stall_s`` seconds does the dealer give up, naming what it was waiting for.
    """

    def __init__(
        self,
        sim: Any,
        app: TableApp,
        rng: random.Random,
        *,
        stall_s: float = STALL_S,
        string_bets: float = 0.02,
    ) -> None:
        self.sim = sim
        self.app = app
        self.rng = rng
        self.stall_s = stall_s
        self.string_bets = string_bets  # how often a player pushes a bet in two motions
        self.actions = 0
        self.buses: list[Any] = []
        self._changed = threading.Condition()
        self._processed = 0  # inputs the table has applied
        self._refusals: list[tuple[int | None, str]] = []  # (seat, text) of refused inputs
        self.acting: int | None = None  # the seat whose move the dealer is waiting on
        self.stud = StudDealing(self)
        self.draws = DrawDealing(self)

    # -- plumbing --------------------------------------------------------------------

    def observe(self, session: TableSession, outputs: tuple[Any, ...]) -> None:
        """``TableApp.on_output``: wake the waits; note every input the table refused."""
        with self._changed:
            self._processed += 1
            for output in outputs:
                payload = output.payload
                if output.channel != "event":
                    continue
                for ruling in payload.get("rulings", []):
                    # A refused input, or an alert about the seat that is acting ("waits
                    # for a floor ruling", "no action"): the dealer must look again.
                    mine = ruling.get("kind") == "alert" and ruling.get("seat") == self.acting
                    if payload.get("kind") == "rejected" or mine:
                        self._refusals.append((ruling.get("seat"), str(ruling.get("text"))))
            self._changed.notify_all()

    def refusals(self) -> int:
        with self._changed:
            return len(self._refusals)

    def wait(self, predicate: Callable[[TableSession], bool], what: str) -> TableSession:
        """Until ``predicate`` holds; a stall (no input applied for ``stall_s``) is an error."""
        with self._changed:
            seen = self._processed
        last_progress = time.monotonic()
        while True:
            session = self.app.snapshot()
            if predicate(session):
                return session
            with self._changed:
                self._changed.wait(0.05)
                progressed = self._processed != seen
                seen = self._processed
            now = time.monotonic()
            if progressed:
                last_progress = now
            elif now - last_progress > self.stall_s:
                raise DemoError(
                    f"stalled: no table input for {self.stall_s:.0f} s while waiting for "
                    f"{what} ({describe(self.app.snapshot())})"
                )

    def press(self, button: str, amount: int | None = None) -> None:
        # A declaration names the seat whose action LED is lit, as the GPIO console's does:
        # if the action moved before the table reads it, it is refused, never moved.
        lit = self.acting if button not in ("hand_start", "confirm") else None
        self.app.submit(ConsolePress(button, wall_ms(), amount, lit_seat=lit))

    def push(self, seat: int, amount: int) -> None:
        from pokertable.hardware.simulator import PushChips

        if amount > 0:
            self.sim.perform(PushChips(f"seat{seat}.bet", tuple(compose(amount))))

    def deal(self, zone: str, card: str) -> None:
        """Deal one card and let it be read before the next, as a dealer's hands are
        slower than the readers: reads then arrive in deal order on any machine."""
        from pokertable.hardware.simulator import DealCard

        self.sim.perform(DealCard(zone, card))
        self.wait(
            lambda s: _table_has_card(s, zone, card) or s.hand is None or bool(s.alerts),
            f"{card} in {zone} to be read",
        )

    def clear(self, zone: str) -> None:
        from pokertable.hardware.simulator import ClearZone

        if self.sim.on_felt.get(zone):
            self.sim.perform(ClearZone(zone))

    def _readers_see_nothing(self, zones: list[str]) -> bool:
        return not any(bus.zone_view(zone) for bus in self.buses for zone in zones)

    # -- one hand --------------------------------------------------------------------

    def play_hand(self) -> TableSession:
        number = self.app.snapshot().hand_number
        self.press("hand_start")
        session = self.wait(
            lambda s: s.hand_number == number + 1 and s.hand is not None, "the hand to start"
        )
        hand = session.hand
        assert hand is not None
        for seat in (hand.small_blind_seat, hand.big_blind_seat):
            if seat is not None:
                self.push(seat, round_chips(hand.seat(seat).bet))  # blinds go out physically
        deck = [r + s for r in RANKS for s in SUITS]
        self.rng.shuffle(deck)
        if hand.variant.is_stud:
            self.stud.third_street(hand, deck)
        else:
            order = [s.seat for s in hand.seats_clockwise_from(hand.button)]
            for _ in range(hand.variant.hole_cards):
                for seat in order:
                    self.deal(f"seat{seat}.cards", deck.pop())
        while True:
            session = self.app.snapshot()
            hand = session.hand
            assert hand is not None
            if hand.phase is Phase.COMPLETE:
                break
            if session.alerts:
                # The floor has been called: play stops until the director rules (over MQTT).
                self._wait_for_floor({a.id for a in session.alerts})
            elif hand.phase is Phase.BETTING:
                self.act(session)
            elif hand.phase is Phase.DEALING and hand.variant.is_stud:
                self.stud.next_street(session, deck)
            elif hand.phase is Phase.DEALING and hand.variant.is_draw:
                self.draws.draw(session, deck)
            elif hand.phase is Phase.DEALING:
                self.next_street(session, deck)
            elif hand.phase is Phase.SHOWDOWN:
                self.press("confirm")
                self.wait(
                    lambda s: s.hand is not None and s.hand.phase is Phase.COMPLETE,
                    "the pots to be awarded",
                )
        zones = list(self.sim.on_felt)
        for zone in zones:
            self.clear(zone)
        # The dealer gathers and shuffles until the readers see every pad empty; a card
        # dealt to the same pad next hand would otherwise never look "new" to them.
        self.wait(lambda s: self._readers_see_nothing(zones), "the readers to see a clear felt")
        return self.app.snapshot()

    def _wait_for_floor(self, waiting: set[str]) -> None:
        self.wait(
            lambda s: not waiting & {a.id for a in s.alerts},
            f"the floor to rule on {', '.join(sorted(waiting))}",
        )

    def collect_bets(self) -> None:
        bet_zones = [z for z in self.sim.on_felt if z.endswith(".bet")]
        for zone in bet_zones:
            self.clear(zone)  # the bets go to the pot
        self.wait(
            lambda s: all(not c for _, c in s.bet_zones) and self._readers_see_nothing(bet_zones),
            "the bets to be collected",
        )

    def next_street(self, session: TableSession, deck: list[str]) -> None:
        hand = session.hand
        assert hand is not None
        self.collect_bets()
        street = hand.street
        self.deal("burn", deck.pop())
        for _ in range(Street(street + 1).board_size - len(hand.board)):
            self.deal("board", deck.pop())
        self.wait(
            lambda s: (
                s.hand is None
                or s.hand.street > street
                or s.hand.phase is not Phase.DEALING
                or bool(s.alerts)
            ),
            f"the {Street(street + 1).name.lower()} to be read",
        )

    def act(self, session: TableSession) -> None:
        """One player acts; returns once the table has moved on, called the floor or refused."""
        hand = session.hand
        assert hand is not None
        opts = betting.options_for(hand, session.config.rules)
        assert opts is not None
        seat_no = opts.seat
        self.acting = seat_no
        seat = hand.seat(seat_no)
        in_zone = zone_value(session.zone(seat_no))
        before = (len(hand.actions), hand.action_on, self.refusals())
        roll = self.rng.random()
        expensive = opts.to_call > (seat.stack + seat.bet) // 4
        felt = in_zone  # what the player has in front once the move is made
        forced = self.stud.forced(hand, opts, roll) if hand.variant.is_stud else None
        if forced is not None:  # stud: the bring-in or its completion, pushed as chips
            opts = forced
            felt = opts.min_to
            self._push_bet(seat_no, felt - in_zone, in_zone)
        elif opts.to_call and roll < (0.85 if expensive else 0.2):
            self.press("fold")
        elif opts.can_raise and roll > 0.985:
            self.press("all_in")
            self.wait(lambda s: self._moved_on(s, before), f"seat {seat_no}'s all-in")
            after = self.app.snapshot().hand
            if after is not None and after.has_seat(seat_no):
                owed = round_chips(after.seat(seat_no).bet - in_zone)
                self.push(seat_no, owed)
                # His chips go out before the next player acts, as at a table: the bots act
                # on what the table has read, not on chips still in flight to the readers.
                self.wait(
                    lambda s: zone_value(s.zone(seat_no)) >= in_zone + owed or s.hand is None
                    or bool(s.alerts),
                    f"seat {seat_no}'s all-in chips to be read",
                )
            self.actions += 1
            return
        elif opts.can_raise and not expensive and roll > 0.85:
            top = min(opts.max_to, opts.min_to + 3 * hand.level.big_blind, seat.bet + seat.stack)
            target = round_chips(self.rng.randint(opts.min_to, max(opts.min_to, top)))
            if target < opts.min_to or target <= in_zone or (target - in_zone) % DENOMINATIONS[-1]:
                self.press("bet_raise", opts.min_to)  # declared on the console instead
            else:
                felt = target
                self._push_bet(seat_no, target - in_zone, in_zone)  # a raise by chips alone
        elif opts.can_check:
            self.press("check_call")
        elif opts.to_call + seat.bet <= in_zone:
            # Chips already out cover the call (the floor sent some back that are still
            # in front): the dealer states the call on the console.
            self.press("check_call")
        else:
            felt = opts.to_call + seat.bet
            self._push_bet(seat_no, felt - in_zone, in_zone)  # a silent call by chips
        moved = self.wait(
            lambda s: self._moved_on(s, before) or self._holds(s, seat_no, felt, in_zone),
            f"seat {seat_no}'s action",
        )
        if not self._moved_on(moved, before):
            # The table saw the chips but could not rule on them alone (or refused the
            # button): the dealer states the player's action on the console, as at a table.
            hand_now = moved.hand
            assert hand_now is not None
            now_opts = betting.options_for(hand_now, moved.config.rules)
            can_check = now_opts is not None and now_opts.can_check
            covers = now_opts is not None and felt >= now_opts.to_call + hand_now.seat(seat_no).bet
            self.press("check_call" if can_check or covers else "fold")
            before = (before[0], before[1], self.refusals())
            self.wait(
                lambda s: self._moved_on(s, before),
                f"seat {seat_no}'s action as the dealer stated it",
            )
        self.actions += 1

    def _push_bet(self, seat: int, amount: int, in_zone: int) -> None:
        """Chips into the bet zone; now and then in two motions (a string bet, R45)."""
        chips = compose(amount) if amount > 0 else []
        if len(chips) > 1 and self.rng.random() < self.string_bets:
            from pokertable.hardware.simulator import PushChips

            zone = f"seat{seat}.bet"
            first, second = chips[: len(chips) // 2], chips[len(chips) // 2 :]
            self.sim.perform(PushChips(zone, tuple(first)))
            self.wait(
                lambda s: zone_value(s.zone(seat)) >= in_zone + sum(first) or bool(s.alerts),
                f"seat {seat}'s first motion to be read",
            )
            self.sim.perform(PushChips(zone, tuple(second)))
            return
        self.push(seat, amount)

    def _moved_on(self, s: TableSession, before: tuple[int, int | None, int]) -> bool:
        hand = s.hand
        return (
            hand is None
            or hand.phase is not Phase.BETTING
            or len(hand.actions) > before[0]
            or hand.action_on != before[1]
            or bool(s.alerts)
            or self.refusals() > before[2]
        )

    @staticmethod
    def _holds(s: TableSession, seat: int, felt: int, in_zone: int) -> bool:
        """The table has read every chip the player put out and still waits on him."""
        return felt != in_zone and zone_value(s.zone(seat)) == felt


def _table_has_card(session: TableSession, zone: str, card: str) -> bool:
    return card in session.cards_in(zone)


def _drawn(hand: HandState) -> dict[int, list[int]]:
    """Cards drawn by seat, one count a draw he took part in (0: he stood pat)."""
    drawn: dict[int, list[int]] = {}
    for _, seat, kind, cards in hand.draw.log if hand.draw is not None else ():
        if kind == "sd":
            drawn.setdefault(seat, []).append(len(cards))
    return drawn


def describe(session: TableSession) -> str:
    """The table as the stall message reports it."""
    hand = session.hand
    if hand is None:
        return f"no hand; {session.hand_number} played"
    alerts = ", ".join(f"{a.id} {a.ruling.text}" for a in session.alerts) or "none"
    return (
        f"hand {hand.hand_id} {hand.phase.name.lower()} street {hand.street.name.lower()}, "
        f"action on {hand.action_on}, floor alerts: {alerts}"
    )


def node_specs(players: int, *, stud: bool = False) -> list[Any]:
    """The simulated reader nodes: three seats to a node, then the board, burn and muck.
    ``stud``: each seat also has its upcard pad (``seat<N>.up``, hardware/zones.py)."""
    from pokertable.hardware.simulator import NodeSpec

    specs: list[Any] = []
    seats = list(range(1, players + 1))
    areas = ("bet", "stack", "cards", "up") if stud else ("bet", "stack", "cards")
    for i in range(0, len(seats), 3):
        zones = tuple(f"seat{s}.{z}" for s in seats[i : i + 3] for z in areas)
        specs.append(NodeSpec(len(specs) + 1, zones))
    specs.append(NodeSpec(len(specs) + 1, ("board", "burn", "muck")))
    return specs


def hand_line(session: TableSession, number: int, total: int) -> str:
    """One finished hand as the demo prints it."""
    hand = session.hand
    assert hand is not None
    names = {s.seat: s.player for s in hand.seats}
    wins = "; ".join(
        f"{names[a.seat]} wins {a.amount}" + (f" with {a.hand_name}" if a.hand_name else "")
        for a in hand.awards
    )
    of = f"/{total}" if total else ""
    level = hand.level
    stakes = f"{level.small_blind}/{level.big_blind}"
    if hand.variant.betting is Betting.FIXED_LIMIT:  # the small bet is the big blind
        stakes = f"limits {level.big_blind}/{2 * level.big_blind}"
    game = f" {hand.variant.value}" if level.game is not None else ""
    if hand.variant.is_stud:  # no board: the bring-in, and a community card if one was dealt
        bring_in = names.get(hand.bring_in_seat or 0, "-")
        cards = f"bring-in {bring_in}" + (
            f", community card {hand.board[0]}" if hand.board else "")
    elif hand.variant.is_draw:  # no board: how many cards each player drew, draw by draw
        cards = "draws " + (", ".join(
            f"{names[s]} {'/'.join(str(n) for n in counts)}"
            for s, counts in _drawn(hand).items()) or "-")
    else:
        cards = f"board {' '.join(hand.board) or '-'}"
    return f"hand {number}{of} {hand.hand_id} L{level.number}{game} {stakes}: {cards}: {wins}"
