"""Enrollment: teach the registry a chip set or a deck by laying tags on the ``enroll`` pad.

The logic is two small classes fed with zone snapshots and the time, so it is tested
without a port; ``pokertable enroll`` wires them to a real one::

    pokertable enroll chips --denomination 500 --chip-set club --colour purple \\
        --registry tags.sqlite --port /dev/ttyUSB0 --zone enroll
    pokertable enroll deck --deck-id red-1 --registry tags.sqlite --port /dev/ttyUSB0

Chips: put a pile on the pad; once the set of UIDs read has not changed for
``--stable-ms`` the whole pile is stored with one denomination.

Deck: lay the cards on the pad one at a time, each removed before the next, in one of
:data:`DECK_ORDERS`. The default is the order a new deck comes in from the US Playing Card
Company (Bicycle, Bee, Aviator...), spread face up from its face with the jokers and ad
cards set aside: ace to king of spades, ace to king of diamonds, king to ace of clubs,
king to ace of hearts (:data:`NEW_DECK_ORDER`). ``face-down`` is the same deck taken from
the top face down (the reverse), ``suits`` a deck sorted by hand (spades, hearts,
diamonds, clubs, each ace to king). A card is taken once it has lain alone on the pad for
``--stable-ms``.
"""

from __future__ import annotations

import argparse
import logging
import queue
import sys
from dataclasses import dataclass, field
from pathlib import Path

import serial

from pokertable.hardware.clock import Clock, MonotonicClock
from pokertable.hardware.errors import EnrollmentError, HardwareError
from pokertable.hardware.events import Alert, HardwareEvent, ZoneSnapshot
from pokertable.hardware.interpreter import BusInterpreter
from pokertable.hardware.registry import RANKS, SUITS, Card, Chip, ChipKind, TagRegistry
from pokertable.hardware.transport import BusSession, PortSupervisor, open_port

NEW_DECK_ORDER: tuple[str, ...] = tuple(
    [r + "s" for r in RANKS] + [r + "d" for r in RANKS]  # ace to king
    + [r + "c" for r in RANKS[::-1]] + [r + "h" for r in RANKS[::-1]]  # king to ace
)
"""A new USPCC deck face up from its face: ``As..Ks, Ad..Kd, Kc..Ac, Kh..Ah``."""
SUIT_ORDER: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""A deck sorted by hand: ``As..Ks, Ah..Kh, Ad..Kd, Ac..Kc``."""
DECK_ORDERS: dict[str, tuple[str, ...]] = {
    "new-deck": NEW_DECK_ORDER,
    "face-down": NEW_DECK_ORDER[::-1],
    "suits": SUIT_ORDER,
}
DECK_ORDER = NEW_DECK_ORDER
"""The default order: a new deck laid out as it comes out of the box."""


@dataclass(slots=True)
class ChipEnrollment:
    """Collects the UIDs on the pad until the set has held still for ``stable_ms``."""

    stable_ms: int = 2_000
    uids: frozenset[str] = frozenset()
    since_ms: int | None = None

    def feed(self, uids: frozenset[str], at_ms: int) -> None:
        if uids != self.uids:
            self.uids = uids
            self.since_ms = at_ms

    def result(self, now_ms: int) -> frozenset[str] | None:
        """The stable, non-empty set of UIDs, or ``None`` while still waiting."""
        if not self.uids or self.since_ms is None:
            return None
        return self.uids if now_ms - self.since_ms >= self.stable_ms else None


@dataclass(slots=True)
class DeckEnrollment:
    """Assigns each card laid alone on the pad to the next card of ``order``."""

    deck_id: str
    stable_ms: int = 300
    order: tuple[str, ...] = DECK_ORDER
    assigned: list[Card] = field(default_factory=list)
    problem: str | None = None
    _candidate: str | None = None
    _since_ms: int = 0
    _must_clear: bool = False

    @property
    def next_card(self) -> str | None:
        return self.order[len(self.assigned)] if len(self.assigned) < len(self.order) else None

    @property
    def done(self) -> bool:
        return self.next_card is None

    def feed(self, uids: frozenset[str], at_ms: int) -> Card | None:
        """Take one snapshot of the pad; returns the card just assigned, if any."""
        # The lone card lay still at least until this snapshot: it may have earned its
        # place even if the reader thread hands us its removal in the same batch.
        earned = self.poll(at_ms)
        if not uids:
            self._must_clear = False
            self._candidate = None
            self.problem = None
            return earned
        if len(uids) > 1:
            self.problem = f"{len(uids)} tags on the pad: lay one card at a time"
            self._candidate = None
            return earned
        (uid,) = uids
        if self._must_clear:
            return earned
        if any(card.uid == uid for card in self.assigned):
            self.problem = f"tag {uid} was already enrolled in this deck: take it away"
            return earned
        if uid != self._candidate:
            self._candidate, self._since_ms = uid, at_ms
        return self.poll(at_ms)

    def poll(self, now_ms: int) -> Card | None:
        """Assign the lone card once it has lain still long enough."""
        code = self.next_card
        if self._candidate is None or code is None or self._must_clear:
            return None
        if now_ms - self._since_ms < self.stable_ms:
            return None
        card = Card(self._candidate, code[0], code[1], self.deck_id)
        self.assigned.append(card)
        self._must_clear = True
        self._candidate = None
        self.problem = None
        return card


def store_chips(
    registry: TagRegistry,
    uids: frozenset[str],
    *,
    denomination: int,
    chip_set: str = "",
    colour: str = "",
    kind: ChipKind = "value",
) -> tuple[list[Chip], list[str]]:
    """Store new chips in one transaction; returns (stored, uids that were already enrolled)."""
    known = sorted(u for u in uids if registry.lookup(u) is not None)
    chips = [Chip(u, denomination, chip_set, colour, kind) for u in sorted(uids) if u not in known]
    registry.add_chips(chips)
    return chips, known


# -- the CLI -------------------------------------------------------------------------------


WORKFLOW = """\
How enrollment goes (docs/install-pi.md, "Enrolling chips and decks"):
  1. Wire one reader node with a pad zone (default name "enroll") and plug it in;
     `pokertable readers --port PORT` shows it talking.
  2. Chips, one denomination at a time: `pokertable enroll chips --denomination 500
     --chip-set club --registry REG --port PORT`, put the whole stack on the pad, leave it
     still until "enrolled N chips". Repeat per denomination; chips already known are
     left unchanged.
  3. A deck: `pokertable enroll deck --deck-id red-1 --registry REG --port PORT`, lay the
     cards on the pad one at a time in the order printed (a new deck as it comes out of
     the box, by default), take each away when told. Nothing is stored until all 52 are in.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "Teach the tag registry which RFID tag is which chip or card, by laying them on a "
        "reader's enrollment pad."
    )
    parser.epilog = WORKFLOW
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    what = parser.add_subparsers(dest="what", required=True, metavar="{chips,deck}")
    chips = what.add_parser(
        "chips", help="enroll a pile of chips of one denomination",
        description="Put a pile of chips of one denomination on the pad and leave it still: "
        "once the set of tags read has not changed for --stable-ms, all of them are stored.",
    )
    chips.add_argument("--denomination", type=int, required=True,
                       help="the value printed on these chips, e.g. 500")
    chips.add_argument("--chip-set", default="",
                       help="name of the chip set (one venue may own several)")
    chips.add_argument("--colour", default="", help="the chips' colour, for people")
    chips.add_argument("--kind", default="value",
                       choices=["value", "bounty", "clock_token", "other_non_value"],
                       help="value chips count in bets; the others never do (default: value)")
    orders = ", ".join(DECK_ORDERS)
    deck = what.add_parser(
        "deck", help="enroll a deck, one card at a time, in the order it comes",
        description="Lay the cards on the pad one at a time in the order printed, each taken "
        "away before the next; nothing is stored until the 52nd card is in.",
        epilog="orders: new-deck = a new US Playing Card Co. deck (Bicycle, Bee...) spread face "
        "up: As..Ks, Ad..Kd, Kc..Ac, Kh..Ah; face-down = the same taken from the top face "
        "down (the reverse); suits = sorted by hand: As..Ks, Ah..Kh, Ad..Kd, Ac..Kc.",
    )
    deck.add_argument("--deck-id", required=True,
                      help="a name for this deck, e.g. red-1 (the back colour and a number)")
    deck.add_argument("--order", default="new-deck", choices=list(DECK_ORDERS),
                      help=f"the order the cards come in ({orders}; default: new-deck)")
    for sub in (chips, deck):
        sub.add_argument("--registry", required=True, type=Path,
                         help="SQLite file of the tag registry (created if missing)")
        sub.add_argument("--port", required=True,
                         help="the node's serial port, e.g. /dev/serial/by-id/usb-..., "
                         "or a pyserial URL")
        sub.add_argument("--zone", default="enroll",
                         help="the pad's zone name in the node's config (default: enroll)")
        sub.add_argument("--baudrate", type=int, default=115_200,
                         help="the node's UART speed (default: 115200)")
        sub.add_argument("--stable-ms", type=int, default=None,
                         help="how long the pad must hold still (chips 2000, cards 300)")
        sub.add_argument("--timeout-s", type=float, default=300.0,
                         help="give up after this long (default: 300)")


def run(args: argparse.Namespace) -> int:
    # The port's own retry warnings would repeat what enroll says once, in one line.
    logging.getLogger("pokertable.hardware.transport").setLevel(logging.ERROR)
    try:
        return _run(args, MonotonicClock())
    except HardwareError as exc:
        print(f"enroll: {exc}", file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, clock: Clock) -> int:
    registry = TagRegistry(args.registry)
    events: queue.Queue[HardwareEvent] = queue.Queue()
    session = BusSession(BusInterpreter(registry, emit_snapshots=True), clock, events.put)
    failures: list[str] = []

    def opener(url: str) -> serial.SerialBase:
        try:
            return open_port(url, args.baudrate)
        except (serial.SerialException, OSError, ValueError) as exc:
            failures.append(str(exc))
            raise

    supervisor = PortSupervisor(args.port, session, baudrate=args.baudrate, opener=opener)
    supervisor.start()
    deadline = clock.ticks_ms() + int(args.timeout_s * 1000)
    try:
        _wait_port_open(args.port, supervisor, failures, clock, deadline)
        print(f"port {args.port} open")
        if args.what == "chips":
            return _enroll_chips(args, registry, events, clock, deadline)
        return _enroll_deck(args, registry, events, clock, deadline)
    finally:
        supervisor.stop()
        registry.close()


def _wait_port_open(
    port: str, supervisor: PortSupervisor, failures: list[str], clock: Clock, deadline: int
) -> None:
    """The port is open, or the first failed open says why (a missing device, no access)."""
    while not supervisor.connected.wait(0.05):
        if failures:
            hint = " (is the node plugged in? `ls -l /dev/serial/by-id/` lists the ports)"
            if "ermission" in failures[0]:
                hint = " (is this user in the dialout group? `sudo usermod -aG dialout $USER`)"
            raise EnrollmentError(f"port {port}: cannot open it: {failures[0]}{hint}")
        if clock.ticks_ms() > deadline:
            raise EnrollmentError(f"port {port}: did not open before the timeout")


def _pad_snapshots(
    events: queue.Queue[HardwareEvent], zone: str, settled_only: bool
) -> list[ZoneSnapshot]:
    found: list[ZoneSnapshot] = []
    try:
        event = events.get(timeout=0.05)
        while True:
            if (isinstance(event, ZoneSnapshot) and event.zone == zone
                    and (event.settled or not settled_only)):
                found.append(event)
            elif isinstance(event, Alert) and event.code == "port_missing":
                raise EnrollmentError(event.message)  # blame the port, not the pad
            event = events.get_nowait()
    except queue.Empty:
        return found


def _enroll_chips(
    args: argparse.Namespace,
    registry: TagRegistry,
    events: queue.Queue[HardwareEvent],
    clock: Clock,
    deadline: int,
) -> int:
    enrollment = ChipEnrollment(stable_ms=args.stable_ms if args.stable_ms is not None else 2000)
    print(f"place the {args.denomination} chips on zone {args.zone} and leave them still")
    shown = -1
    while True:
        for snap in _pad_snapshots(events, args.zone, settled_only=True):
            enrollment.feed(frozenset(snap.uids), snap.at_ms)
        if len(enrollment.uids) != shown:
            shown = len(enrollment.uids)
            print(f"  {shown} chips on the pad")
        uids = enrollment.result(clock.ticks_ms())
        if uids is not None:
            break
        if clock.ticks_ms() > deadline:
            raise EnrollmentError(f"timeout: the pad never held a stable pile ({shown} seen)")
    stored, known = store_chips(registry, uids, denomination=args.denomination,
                                chip_set=args.chip_set, colour=args.colour, kind=args.kind)
    print(f"enrolled {len(stored)} chips of {args.denomination}"
          + (f"; {len(known)} were already enrolled and left unchanged" if known else ""))
    return 0


def _enroll_deck(
    args: argparse.Namespace,
    registry: TagRegistry,
    events: queue.Queue[HardwareEvent],
    clock: Clock,
    deadline: int,
) -> int:
    if registry.deck(args.deck_id):
        raise EnrollmentError(f"deck_id: deck {args.deck_id!r} is already enrolled")
    order = DECK_ORDERS[getattr(args, "order", "new-deck")]
    enrollment = DeckEnrollment(args.deck_id, order=order,
                                stable_ms=args.stable_ms if args.stable_ms is not None else 300)
    print(f"lay the cards of deck {args.deck_id} on zone {args.zone} one at a time, "
          f"in this order: {' '.join(order)}")
    print(f"  next: {enrollment.next_card}")
    problem: str | None = None
    while not enrollment.done:
        fresh = []
        for snap in _pad_snapshots(events, args.zone, settled_only=False):
            fresh.append(enrollment.feed(frozenset(snap.uids), snap.at_ms))
        fresh.append(enrollment.poll(clock.ticks_ms()))
        for card in fresh:
            if card is not None:
                print(f"  {card.code} = {card.uid}; take it away. next: {enrollment.next_card}")
        if enrollment.problem != problem:
            problem = enrollment.problem
            if problem:
                print(f"  ! {problem}")
        if clock.ticks_ms() > deadline:
            raise EnrollmentError(
                f"timeout: {len(enrollment.assigned)} of {len(order)} cards scanned; "
                "nothing was stored")
    registry.add_cards(enrollment.assigned)
    print(f"enrolled deck {args.deck_id}: {len(enrollment.assigned)} cards")
    return 0
