"""``pokertable demo``: a whole table with no hardware: simulated readers, bots, a broker, a view.

Everything real runs: the reader-node firmware under the MicroPython unix port scans a
simulated antenna field and talks the wire protocol over pseudo-terminals; the Pi side
decodes frames, resolves tags through a registry and feeds the rules engine; the table
publishes over MQTT (an in-process amqtt broker unless ``--broker`` is given) and the
live view reads the table back from the broker. Only the people are bots: a dealer who
deals, collects bets and burns, and players who push chips or use the dealer console.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pokertable.controller import betting
from pokertable.controller.app import TableApp, wall_ms
from pokertable.controller.cards import RANKS, SUITS
from pokertable.controller.config import (
    AppConfig,
    LevelSection,
    MqttSection,
    PathSection,
    PlayerSection,
    ReaderSection,
    TableSection,
)
from pokertable.controller.inputs import ConsolePress
from pokertable.controller.model import Phase, Street
from pokertable.controller.run import TableRuntime
from pokertable.controller.session import TableSession, zone_value

DENOMINATIONS = (5000, 1000, 500, 100, 25)
NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana", "Ivo", "Jo")
# Fast reader timing for the demo: chips count after two scans and settle after 80 ms.
NODE_TIMING = {"present_after": 2, "absent_after": 2, "settle_ms": 80, "heartbeat_ms": 500}


class DemoError(RuntimeError):
    """The simulated table did not react as expected (printed, and the demo exits 1)."""


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
    """The dealer and the bot players: physical actions on the simulated felt."""

    def __init__(
        self, sim: Any, app: TableApp, rng: random.Random, timeout_s: float = 15.0
    ) -> None:
        self.sim = sim
        self.app = app
        self.rng = rng
        self.timeout_s = timeout_s
        self.actions = 0
        self.buses: list[Any] = []

    # -- plumbing --------------------------------------------------------------------

    def wait(self, predicate: Callable[[TableSession], bool], what: str) -> TableSession:
        deadline = time.monotonic() + self.timeout_s
        while time.monotonic() < deadline:
            session = self.app.snapshot()
            if predicate(session):
                return session
            time.sleep(0.005)
        raise DemoError(f"timed out waiting for {what}")

    def press(self, button: str, amount: int | None = None) -> None:
        self.app.submit(ConsolePress(button, wall_ms(), amount))

    def push(self, seat: int, amount: int) -> None:
        from pokertable.hardware.simulator import PushChips

        if amount > 0:
            self.sim.perform(PushChips(f"seat{seat}.bet", tuple(compose(amount))))

    def deal(self, zone: str, card: str) -> None:
        from pokertable.hardware.simulator import DealCard

        self.sim.perform(DealCard(zone, card))

    def clear(self, zone: str) -> None:
        from pokertable.hardware.simulator import ClearZone

        if self.sim.on_felt.get(zone):
            self.sim.perform(ClearZone(zone))

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
        order = [s.seat for s in hand.seats_clockwise_from(hand.button)]
        for _ in range(hand.variant.hole_cards):
            for seat in order:
                self.deal(f"seat{seat}.cards", deck.pop())
        self.wait(
            lambda s: (
                s.hand is None
                or s.hand.phase is Phase.COMPLETE
                or all(x.hole for x in s.hand.seats)
            ),
            "the hole cards to be read",
        )
        while True:
            session = self.app.snapshot()
            hand = session.hand
            assert hand is not None
            if hand.phase is Phase.COMPLETE:
                break
            if hand.phase is Phase.BETTING:
                self.act(session)
            elif hand.phase is Phase.DEALING:
                self.next_street(session, deck)
            elif hand.phase is Phase.SHOWDOWN:
                self.press("confirm")
                self.wait(
                    lambda s: s.hand is not None and s.hand.phase is Phase.COMPLETE,
                    "the pots to be awarded",
                )
        for zone in list(self.sim.on_felt):
            self.clear(zone)
        # The dealer gathers and shuffles until the readers see every pad empty; a card
        # dealt to the same pad next hand would otherwise never look "new" to them.
        deadline = time.monotonic() + self.timeout_s
        while any(bus.zone_view(zone) for bus in self.buses for zone in self.sim.on_felt):
            if time.monotonic() > deadline:
                raise DemoError("the readers still see cards or chips after the clear-up")
            time.sleep(0.01)
        return self.app.snapshot()

    def next_street(self, session: TableSession, deck: list[str]) -> None:
        hand = session.hand
        assert hand is not None
        bet_zones = [z for z in self.sim.on_felt if z.endswith(".bet")]
        for zone in bet_zones:
            self.clear(zone)  # the bets go to the pot
        self.wait(lambda s: all(not c for _, c in s.bet_zones) and not any(
            bus.zone_view(z) for bus in self.buses for z in bet_zones),
            "the bets to be collected")
        street = hand.street
        self.deal("burn", deck.pop())
        for _ in range(Street(street + 1).board_size - len(hand.board)):
            self.deal("board", deck.pop())
        self.wait(
            lambda s: (
                s.hand is not None and (s.hand.street > street or s.hand.phase is Phase.COMPLETE)
            ),
            f"the {Street(street + 1).name.lower()} to be read",
        )

    def act(self, session: TableSession) -> None:
        hand = session.hand
        assert hand is not None
        rules = session.config.rules
        opts = betting.options_for(hand, rules)
        assert opts is not None
        seat_no = opts.seat
        seat = hand.seat(seat_no)
        in_zone = zone_value(session.zone(seat_no))
        before = len(hand.actions)
        roll = self.rng.random()
        expensive = opts.to_call > (seat.stack + seat.bet) // 4
        if opts.to_call and roll < (0.6 if expensive else 0.2):
            self.press("fold")
        elif opts.can_raise and roll > 0.985:
            self.press("all_in")
            self.wait(lambda s: s.hand is None or len(s.hand.actions) > before, "the all-in")
            after = self.app.snapshot().hand
            if after is not None and after.has_seat(seat_no):
                self.push(seat_no, round_chips(after.seat(seat_no).bet - in_zone))
            self.actions += 1
            return
        elif opts.can_raise and not expensive and roll > 0.85:
            top = min(opts.max_to, opts.min_to + 3 * hand.level.big_blind, seat.bet + seat.stack)
            target = round_chips(self.rng.randint(opts.min_to, max(opts.min_to, top)))
            if target < opts.min_to or (target - in_zone) % DENOMINATIONS[-1]:
                self.press("bet_raise", opts.min_to)  # declared on the console instead
            else:
                self.push(seat_no, target - in_zone)  # a raise by chips alone, one motion
        elif opts.can_check:
            self.press("check_call")
        else:
            self.push(seat_no, opts.to_call + seat.bet - in_zone)  # a silent call by chips
        try:
            self.wait(
                lambda s: (
                    s.hand is None or len(s.hand.actions) > before or s.hand.phase is Phase.COMPLETE
                ),
                f"seat {seat_no}'s action",
            )
        except DemoError:
            # The table refused what the chips said (an alert is on the event stream): the
            # dealer settles it on the console, as at a real table.
            self.press("check_call" if opts.can_check else "fold")
            self.wait(
                lambda s: s.hand is None or len(s.hand.actions) > before,
                f"seat {seat_no}'s corrected action",
            )
        self.actions += 1


# --- the live view ------------------------------------------------------------------------


class Viewer:
    """Reads the table back from the broker, as an overlay would, and renders it."""

    def __init__(self, host: str, port: int, venue: str, table: str, live: bool) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from pokertable.mqtt.watch import Room

        self.room = Room()
        self.events = 0
        self.live = live
        self._lock = threading.Lock()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"demo-view-{table}")
        prefix = f"pokertable/v1/{venue}/{table}"

        def on_connect(client: Any, userdata: Any, flags: Any, rc: Any, props: Any) -> None:
            client.subscribe(
                [(f"{prefix}/state", 1), (f"{prefix}/events", 1), (f"{prefix}/status", 1)]
            )

        def on_message(client: Any, userdata: Any, msg: Any) -> None:
            with self._lock:
                self.room.apply(msg.topic, msg.payload)
                if msg.topic.endswith("/events"):
                    self.events += 1

        self.client.on_connect = on_connect
        self.client.on_message = on_message
        self.client.connect(host, port)
        self.client.loop_start()

    def renderable(self) -> Any:
        from pokertable.mqtt.watch import render

        with self._lock:
            return render(self.room, single=True)

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


# --- the command --------------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hands", type=int, default=0, help="hands to play, then exit (default: until Ctrl-C)"
    )
    parser.add_argument("--players", type=int, default=6, choices=range(2, 11), metavar="2-10")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--broker", metavar="HOST:PORT", help="use this MQTT broker instead of an in-process one"
    )
    parser.add_argument("--profile", default="tda-2024")


def _config(
    tmp: Path, players: int, ports: list[str], host: str, port: int, profile: str
) -> AppConfig:
    return AppConfig(
        table=TableSection(venue="demo", id="t1", seats=10, profile=profile, first_button=1),
        levels=[LevelSection(number=1, small_blind=100, big_blind=200, chip_unit=25)],
        players=[PlayerSection(seat=i + 1, name=NAMES[i], stack=10_000) for i in range(players)],
        registry=PathSection(path=str(tmp / "registry.sqlite3")),
        journal=PathSection(path=str(tmp / "journal.jsonl")),
        readers=[ReaderSection(port=p) for p in ports],
        mqtt=MqttSection(host=host, port=port, outbox=str(tmp / "outbox.sqlite3")),
    )


def _node_specs(players: int) -> list[Any]:
    from pokertable.hardware.simulator import NodeSpec

    specs: list[Any] = []
    seats = list(range(1, players + 1))
    for i in range(0, len(seats), 3):
        zones = tuple(f"seat{s}.{z}" for s in seats[i : i + 3] for z in ("bet", "stack", "cards"))
        specs.append(NodeSpec(len(specs) + 1, zones))
    specs.append(NodeSpec(len(specs) + 1, ("board", "burn", "muck")))
    return specs


def _clock_level(host: str, port: int) -> None:
    """The tournament clock announces level 2 (applies from the next hand, Rule 23)."""
    import paho.mqtt.publish as publish

    level = {
        "number": 2,
        "small_blind": 200,
        "big_blind": 400,
        "ante": 400,
        "ante_format": "bb_ante",
    }
    publish.single(
        "pokertable/v1/demo/clock",
        json.dumps({"command": "level", "request_id": "demo-clock-2", "level": level}),
        qos=1,
        hostname=host,
        port=port,
    )


def run(args: argparse.Namespace) -> int:
    from pokertable.hardware.registry import TagRegistry
    from pokertable.hardware.simulator import SyntheticTags, TableSimulator
    from pokertable.mqtt.inprocess_broker import AmqttBroker

    interactive = sys.stdout.isatty()
    broker = None
    if args.broker:
        host, _, port_text = args.broker.rpartition(":")
        host, port = host or "127.0.0.1", int(port_text)
    else:
        broker = AmqttBroker()
        broker.start()
        host, port = "127.0.0.1", broker.port
    rng = random.Random(args.seed)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pokertable-demo-") as folder:
        tmp = Path(folder)
        registry = TagRegistry(tmp / "registry.sqlite3")
        SyntheticTags.enroll(registry)
        sim = TableSimulator(registry, _node_specs(args.players), node_config=NODE_TIMING)
        ports = [sim.port_of(n) for n in sorted(sim.nodes)]
        runtime = TableRuntime(
            _config(tmp, args.players, ports, host, port, args.profile), registry=registry
        )
        viewer: Viewer | None = None
        hands = 0
        try:
            app = runtime.start()
            if runtime.bridge is not None and not runtime.bridge.wait_connected(10):
                raise DemoError(f"cannot reach the MQTT broker at {host}:{port}")
            for bus in runtime.buses:
                for supervisor in bus.supervisors.values():
                    supervisor.wait_connected(timeout=10)
            viewer = Viewer(host, port, "demo", "t1", interactive)
            dealer = Dealer(sim, app, rng)
            dealer.buses = runtime.buses
            hands = _play(dealer, viewer, args, interactive, host, port)
        except DemoError as exc:
            print(f"demo failed: {exc}", file=sys.stderr)
            return 1
        finally:
            if viewer is not None:
                viewer.stop()
            runtime.stop()
            sim.close()
            registry.close()
            if broker is not None:
                broker.stop()
        session = app.snapshot()
        stacks = ", ".join(f"{s.player} {s.stack}" for s in session.table.seats)
        elapsed = time.monotonic() - started
        print(
            f"demo: {hands} hands, {dealer.actions} player actions, "
            f"{app.stats.inputs} reader/console inputs journaled, "
            f"{viewer.events if viewer else 0} events via MQTT, {elapsed:.1f} s; "
            f"stacks: {stacks}"
        )
    return 0


def _play(
    dealer: Dealer,
    viewer: Viewer,
    args: argparse.Namespace,
    interactive: bool,
    host: str,
    port: int,
) -> int:
    hands = 0
    live_ctx: Any = None
    if interactive:
        from rich.live import Live

        live_ctx = Live(viewer.renderable(), refresh_per_second=8, screen=False)
        live_ctx.start()
    try:
        while args.hands == 0 or hands < args.hands:
            session = dealer.app.snapshot()
            if sum(1 for s in session.table.seats if s.stack > 0) < 2:
                break
            if hands == 9:
                _clock_level(host, port)
            session = dealer.play_hand()
            hands += 1
            if live_ctx is not None:
                live_ctx.update(viewer.renderable())
            else:
                print(_hand_line(session, hands, args.hands), flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        if live_ctx is not None:
            live_ctx.stop()
    return hands


def _hand_line(session: TableSession, number: int, total: int) -> str:
    hand = session.hand
    assert hand is not None
    names = {s.seat: s.player for s in hand.seats}
    wins = "; ".join(
        f"{names[a.seat]} wins {a.amount}" + (f" with {a.hand_name}" if a.hand_name else "")
        for a in hand.awards
    )
    board = " ".join(hand.board) or "-"
    of = f"/{total}" if total else ""
    return (
        f"hand {number}{of} {hand.hand_id} L{hand.level.number} "
        f"{hand.level.small_blind}/{hand.level.big_blind}: board {board}: {wins}"
    )
