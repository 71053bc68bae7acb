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
import contextlib
import difflib
import functools
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokertable.controller.app.config import (
    AppConfig,
    LevelSection,
    MqttSection,
    PathSection,
    PlayerSection,
    ReaderSection,
    TableSection,
)
from pokertable.controller.app.runtime import TableRuntime
from pokertable.controller.demo import games
from pokertable.controller.demo import overlay as demo_overlay
from pokertable.controller.demo.dealer import (
    NAMES,
    NODE_TIMING,
    STALL_S,
    Dealer,
    hand_line,
    node_specs,
)
from pokertable.controller.demo.room import (
    FLOOR_PAUSE_S,
    DemoError,
    DemoUnavailable,
    LiveView,
    SimulatedDirector,
    TournamentClock,
    Viewer,
    own_broker,
)
from pokertable.controller.demo.tables import add_table_arguments, run_tables
from pokertable.room.serving import broker_address

# --- the command --------------------------------------------------------------------------


def _profile_name(text: str) -> str:
    from pokertable.controller.rules.profiles import available_profiles

    names = available_profiles()
    if text not in names:
        hint = difflib.get_close_matches(text, names, n=1)
        guess = f"; did you mean {hint[0]!r}?" if hint else ""
        raise argparse.ArgumentTypeError(
            f"unknown profile {text!r}{guess} (known: {', '.join(names)})"
        )
    return text


def _hand_count(text: str) -> int:
    """--hands: a whole number of hands, 0 for no end."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value}: a count of hands is 0 (no end) or more")
    return value


def _rate(text: str) -> float:
    """--string-bets: a probability."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"{text}: a rate is between 0 and 1")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--hands", type=_hand_count, default=0,
        help="hands to play, then exit (default: until Ctrl-C)",
    )
    parser.add_argument(
        "--players", type=int, default=6, choices=range(2, 11), metavar="2-10",
        help="players at the table (default: 6)",
    )
    parser.add_argument(
        "--seed", type=int, default=7, help="seed of the shuffles and the bots' play (default: 7)"
    )
    parser.add_argument(
        "--broker", metavar="HOST:PORT", type=broker_address,
        help="use this MQTT broker instead of an in-process one",
    )
    parser.add_argument(
        "--profile", default="tda-2024", type=_profile_name,
        help="rule profile the table plays (default: tda-2024; see 'pokertable rules')",
    )
    parser.add_argument(
        "--floor-pause", type=float, default=None, metavar="SECONDS",
        help="how long the simulated floor looks at a call before ruling "
        f"(default: {FLOOR_PAUSE_S} s in a terminal, 0.2 s otherwise)",
    )
    parser.add_argument(
        "--string-bets", type=_rate, default=0.02, metavar="RATE",
        help="how often a player pushes a bet in two motions, a string bet the floor rules "
        "on (0 to 1; default: 0.02)",
    )
    parser.add_argument(
        "--archive", metavar="DB",
        help="run the room's hand-history archive into this SQLite file (or postgresql:// "
        "URL) and check at the end that every hand replays to the table's stacks",
    )
    games.add_arguments(parser)  # --game: controller/demo/games.py
    add_table_arguments(parser)  # --tables 2, --phh-dir: controller/demo/tables.py
    parser.add_argument(
        "--floor", action="store_true",
        help="also run the floor console and the tournament clock, and print their URLs",
    )
    parser.add_argument(
        "--stall-limit", type=float, default=STALL_S, metavar="SECONDS",
        help="give up when the table takes no input for this long (a last resort; "
        f"default: {STALL_S:.0f} s)",
    )
    parser.add_argument(
        "--real-time", action="store_true",
        help="run the simulated readers on the real clock, as fast as boards read "
        "(about 20 s a hand); by default they run on simulated time and the demo only "
        "waits for the computer",
    )
    demo_overlay.add_arguments(parser)  # --overlay: the broadcast page (controller/demo/overlay.py)


def _config(
    tmp: Path, players: int, ports: list[str], host: str, port: int, profile: str,
    plan: games.DemoPlan,
) -> AppConfig:
    """The demo table's config, at the first level of ``--game`` (``plan``)."""
    return AppConfig(
        table=TableSection(venue="demo", id="t1", seats=10, profile=profile, first_button=1),
        levels=[LevelSection(number=1, chip_unit=25, **plan.first_level())],
        players=[PlayerSection(seat=i + 1, name=NAMES[i], stack=10_000) for i in range(players)],
        registry=PathSection(path=str(tmp / "registry.sqlite3")),
        journal=PathSection(path=str(tmp / "journal.jsonl")),
        readers=[ReaderSection(port=p) for p in ports],
        mqtt=MqttSection(host=host, port=port, outbox=str(tmp / "outbox.sqlite3")),
    )


@dataclass
class DemoResult:
    """What a run did, for the summary line and for tests."""

    hands: int = 0
    actions: int = 0
    inputs: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    floor_calls: dict[str, str] = field(default_factory=dict)  # alert id -> decision
    stacks: str = ""
    archived: int = 0  # hands the archive stored, each replaying to the table's stacks


def run(args: argparse.Namespace) -> int:
    if args.tables == 2:
        return run_tables(args)
    game = getattr(args, "game", None)
    interactive = sys.stdout.isatty()
    started = time.monotonic()
    pace = (
        "readers on the real clock, as fast as boards read"
        if getattr(args, "real_time", False)
        else "readers on simulated time (--real-time to read at a board's pace)"
    )
    hands = f"{args.hands} hand{'s' if args.hands != 1 else ''}" if args.hands else (
        "hands until Ctrl-C"
    )
    dealt = f", {game}" if game else ""
    print(f"demo: {hands}{dealt}, {args.players} players, {pace}", flush=True)
    try:
        result = play(args, interactive=interactive)
    except DemoError as exc:
        print(f"demo failed: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        return 130
    print(
        f"demo: {result.hands} hands, {result.actions} player actions, "
        f"{len(result.floor_calls)} floor calls ruled, "
        f"{result.inputs} reader/console inputs journaled, "
        f"{len(result.events)} events via MQTT, {time.monotonic() - started:.1f} s; "
        f"stacks: {result.stacks}"
        + (f"; {result.archived} hands archived, each replays to the table" if args.archive
           else "")
    )
    return 0


def play(args: argparse.Namespace, *, interactive: bool = False) -> DemoResult:
    """The demo's core: a table, its room and the bots; raises DemoError when it stalls."""
    from pokertable.hardware.registry import TagRegistry
    from pokertable.hardware.simulator import SyntheticTags, TableSimulator, node_runtime

    print(f"demo: {node_runtime()[1]}", flush=True)  # MicroPython, or CPython on a Pi
    broker: Any = None
    if args.broker:
        host, port = args.broker
    else:
        from pokertable.mqtt.mosquitto import free_port

        # --overlay / --floor: the pages in a browser reach the broker over WebSockets
        ws = demo_overlay.ws_port(args) or (free_port() if getattr(args, "floor", False) else None)
        broker = own_broker(ws, instead="give --broker HOST:PORT (a broker already running)")
        host, port = "127.0.0.1", broker.port
    pause = args.floor_pause
    if pause is None:
        pause = FLOOR_PAUSE_S if interactive else 0.2
    result = DemoResult()
    with contextlib.ExitStack() as stack, tempfile.TemporaryDirectory(
        prefix="pokertable-demo-"
    ) as folder:
        if broker is not None:
            stack.callback(broker.stop)
        tmp = Path(folder)
        registry = TagRegistry(tmp / "registry.sqlite3")
        stack.callback(registry.close)
        SyntheticTags.enroll(registry)
        plan = games.demo_plan(getattr(args, "game", None), hands=args.hands,
                               players=args.players)
        sim = TableSimulator(
            registry, node_specs(args.players, stud=plan.deals_stud), node_config=NODE_TIMING,
            simulated_time=not getattr(args, "real_time", False),
        )
        stack.callback(sim.close)
        ports = [sim.port_of(n) for n in sorted(sim.nodes)]
        config = _config(tmp, args.players, ports, host, port, args.profile, plan)
        # The room's clients come first, so they see the table's very first state.
        stack.enter_context(demo_overlay.overlay_page(args, host, port, broker))
        viewer = Viewer(host, port, "demo", "t1", stall_s=args.stall_limit)
        viewer.start()
        stack.callback(viewer.stop)
        director = SimulatedDirector(
            host, port, "demo", "t1", pause_s=pause, stall_s=args.stall_limit
        )
        director.start()
        stack.callback(director.stop)
        clock = TournamentClock(host, port, "demo", stall_s=args.stall_limit)
        clock.start()
        stack.callback(clock.stop)
        archive = None
        if getattr(args, "archive", None):
            from pokertable.controller.demo.archive import DemoArchive

            archive = DemoArchive(host, port, "demo", args.archive, args.stall_limit)
            stack.enter_context(archive)
        if getattr(args, "floor", False):  # the room's floor console and clock (issue #15)
            from pokertable.controller.demo.floor import floor_pages

            ws = broker.ws_port if broker is not None else 9001
            structure = plan.structure() if getattr(args, "game", None) else None
            stack.enter_context(floor_pages(host, port, f"ws://{host}:{ws}", structure))
            clock.follows_room_clock = True
        runtime = TableRuntime(config, registry=registry)
        app = runtime.start()
        stack.callback(runtime.stop)
        dealer = Dealer(
            sim, app, random.Random(args.seed), stall_s=args.stall_limit,
            string_bets=args.string_bets,
        )
        app.on_output = dealer.observe
        dealer.buses = runtime.buses
        # The clock's first level (dealer's choice) goes out at once: the table must be
        # subscribed (SUBACK), not only connected, or the level is never routed to it.
        if runtime.bridge is not None and not runtime.bridge.wait_subscribed(args.stall_limit):
            raise DemoUnavailable(f"the table cannot subscribe at the MQTT broker at {host}:{port}")
        for bus in runtime.buses:
            for supervisor in bus.supervisors.values():
                supervisor.wait_connected(timeout=args.stall_limit)
        view = LiveView(viewer, director, args.hands) if interactive else None
        if view is not None:
            stack.enter_context(view)
        result.hands = _play(dealer, clock, director, args, view, plan)
        session = app.snapshot()
        result.actions = dealer.actions
        result.inputs = app.stats.inputs
        result.stacks = ", ".join(f"{s.player} {s.stack}" for s in session.table.seats)
        if runtime.bridge is not None:
            runtime.bridge.wait_delivered(args.stall_limit)
        if archive is not None:
            result.archived = len(archive.check(result.hands))
        result.floor_calls = dict(director.answers)
        result.events = list(viewer.event_log)
    return result


def _play(dealer: Dealer, clock: TournamentClock, director: SimulatedDirector,
          args: argparse.Namespace, view: LiveView | None, plan: games.DemoPlan) -> int:
    hands = 0
    started = time.monotonic()
    while args.hands == 0 or hands < args.hands:
        session = dealer.app.snapshot()
        if sum(1 for s in session.table.seats if s.stack > 0) < 2:
            break
        level = plan.level_before(hands)
        if level is not None:
            # The clock announces the next level (HORSE: the next game); the table takes it
            # from the next hand (Rule 23), which waits until the table has it.
            clock.announce(level)
            dealer.wait(
                functools.partial(games.level_reached, level),
                f"level {level['number']} to reach the table",
            )
        games.button_picks(dealer, director)  # dealer's choice: the orbit's game
        if view is not None:
            view.hand = hands + 1
        session = dealer.play_hand()
        hands += 1
        if view is None:
            elapsed = time.monotonic() - started
            print(f"{hand_line(session, hands, args.hands)} ({elapsed:.1f} s)", flush=True)
    return hands
