"""``pokertable demo --tables 2``: two simulated tables and the room around them.

Table t1 starts with six players, t2 with three. Each is a whole table as in the one-table
demo (firmware under MicroPython, ptys, the engine, MQTT), dealing the game of ``--game``
(a rotation such as ``horse`` or ``8-game`` moves both tables on together, the clock's
level telling each its game); the room runs the clock with its leaderboard page
(``room.clock_service``) and the seating desk (``room.seating_service``), on the demo's
own broker or the one of ``--broker``.
After the first hand at each table the desk proposes a balancing move (TDA Rule 11), the
simulated floor confirms it, and the desk moves the player at both tables. At the end the
room's archive must hold every hand of both tables as PHH that replays to the table's
stacks and equals the table's journal export (docs/tournament-server.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import tempfile
import threading
from collections.abc import Callable
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
from pokertable.controller.demo import games
from pokertable.controller.demo import overlay as demo_overlay
from pokertable.controller.demo.room import DemoError, SimulatedDirector

VENUE = "demo"
SEATS = 6  # six-seat tables, every seat read, so a moved player can sit anywhere
STRUCTURE = "[[step]]\nsmall_blind = 100\nbig_blind = 200\nminutes = 60\n"
LINEUP = {"t1": ("Ada", "Ben", "Cleo", "Dev", "Eve", "Finn"), "t2": ("Gus", "Hana", "Ivo")}


def _config(
    tmp: Path, table: str, ports: list[str], host: str, port: int, profile: str,
    plan: games.DemoPlan,
) -> AppConfig:
    return AppConfig(
        table=TableSection(
            venue=VENUE, id=table, seats=SEATS, profile=profile, first_button=len(LINEUP[table])
        ),
        levels=[LevelSection(number=1, chip_unit=25, **plan.first_level())],
        players=[
            PlayerSection(seat=i + 1, name=name, stack=10_000)
            for i, name in enumerate(LINEUP[table])
        ],
        registry=PathSection(path=str(tmp / "registry.sqlite3")),
        journal=PathSection(path=str(tmp / "journal.jsonl")),
        readers=[ReaderSection(port=p) for p in ports],
        mqtt=MqttSection(host=host, port=port, outbox=str(tmp / "outbox.sqlite3")),
    )


class FloorWatch:
    """The room as the floor console sees it: the desk's proposals and the leaderboard."""

    def __init__(self, host: str, port: int) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        self.seating: dict[str, Any] = {}
        self.board: dict[str, Any] = {}
        self.changed = threading.Condition()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="demo-floor-watch")
        self.client.on_connect = lambda c, *_: c.subscribe(
            [(f"pokertable/v1/{VENUE}/seating", 1), (f"pokertable/v1/{VENUE}/leaderboard", 1)]
        )
        self.client.on_message = self._on_message
        self.client.connect(host, port)
        self.client.loop_start()

    def _on_message(self, client: Any, userdata: Any, message: Any) -> None:
        with self.changed:
            if message.topic.endswith("/seating"):
                self.seating = json.loads(message.payload)
            else:
                self.board = json.loads(message.payload)
            self.changed.notify_all()

    def wait(self, predicate: Any, what: str, timeout: float) -> Any:
        with self.changed:
            if not self.changed.wait_for(predicate, timeout=timeout):
                raise DemoError(f"the room never showed {what} (seating: {self.seating})")
            return predicate()

    def confirm(self, move_id: str) -> None:
        self.client.publish(
            f"pokertable/v1/{VENUE}/seating/control",
            json.dumps({"command": "confirm_move", "id": move_id}),
            qos=1,
        )

    def stop(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def journal_phh(config: AppConfig) -> dict[str, str]:
    """Every hand of a table's journal as PHH (the ``pokertable export phh`` code)."""
    from pokertable.controller.app.journal_export import export_journal, read_journal
    from pokertable.controller.app.table_app import fresh_session

    records, _ = read_journal(Path(config.journal.path))
    return {
        hand.hand_id: hand.text or f"not written: {hand.skipped}"
        for hand in export_journal(fresh_session(config), records)
    }


def write_archive(
    records: list[Any], journals: dict[str, dict[str, str]], folder: Path
) -> dict[str, int]:
    """The archive's PHH files, one a hand; each must equal the table's journal export."""
    written: dict[str, int] = {}
    for record in records:
        target = folder / record.table / f"{record.hand_number:04d}-{record.hand_id}.phh"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(record.phh, encoding="utf-8")
        if record.phh != journals[record.table].get(record.hand_id):
            raise DemoError(f"{record.name}: the archive's PHH differs from the journal's")
        written[record.table] = written.get(record.table, 0) + 1
    return written


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--tables",
        type=int,
        default=1,
        choices=(1, 2),
        help="2: two tables and the room (leaderboard, seating desk, PHH per hand); "
        "docs/tournament-server.md",
    )
    parser.add_argument(
        "--phh-dir",
        type=Path,
        default=None,
        help="with --tables 2: keep the PHH files of every hand here",
    )


def run_tables(args: argparse.Namespace) -> int:
    """The two-table demo; 0 when the move was made and every PHH file replays the same."""
    try:
        play_tables(args, on_line=lambda line: print(line, flush=True))
    except DemoError as exc:
        print(f"demo failed: {exc}", file=sys.stderr)
        return exc.exit_code
    return 0


class _Lines(list[str]):
    """The run's lines, each also handed to ``on_line`` as it happens."""

    def __init__(self, on_line: Callable[[str], None] | None) -> None:
        super().__init__()
        self.on_line = on_line

    def append(self, line: str) -> None:
        super().append(line)
        if self.on_line is not None:
            self.on_line(line)


def play_tables(
    args: argparse.Namespace, on_line: Callable[[str], None] | None = None
) -> list[str]:
    """Run it; the summary lines, each also given to ``on_line`` as it happens.
    ``args.phh_dir`` keeps the PHH files (else a temp dir, gone when the demo ends)."""
    from pokertable.controller.app.runtime import TableRuntime
    from pokertable.controller.demo.archive import DemoArchive
    from pokertable.controller.demo.dealer import Dealer, hand_line, node_specs
    from pokertable.controller.demo.room import TournamentClock, own_broker
    from pokertable.hardware.registry import TagRegistry
    from pokertable.hardware.simulator import SyntheticTags, TableSimulator
    from pokertable.mqtt.mosquitto import free_port
    from pokertable.room.clock_service import ClockService, display
    from pokertable.room.seating_service import SeatingService

    hands = args.hands or 2
    game = getattr(args, "game", None)
    plan = games.demo_plan(game, hands=hands, players=SEATS)
    out = _Lines(on_line)
    played = 0
    with (
        contextlib.ExitStack() as stack,
        tempfile.TemporaryDirectory(prefix="pokertable-demo-tables-") as folder,
    ):
        tmp = Path(folder)
        if getattr(args, "broker", None):
            broker = None
            host, port = args.broker
            _reachable(host, port, args.stall_limit)
            ws_port = demo_overlay.SHIPPED_WS_PORT  # the shipped mosquitto's WebSockets
        else:
            broker = own_broker(free_port(), instead="give --broker HOST:PORT (a broker "
                                "already running)")
            stack.callback(broker.stop)
            host, port, ws_port = "127.0.0.1", broker.port, broker.ws_port
        archive = DemoArchive(
            host,
            port,
            VENUE,
            getattr(args, "archive", None) or str(tmp / "hands.sqlite3"),
            args.stall_limit,
        )
        stack.enter_context(archive)  # the room's live hand-history archive
        clock = ClockService(
            host=host, port=port, venue=VENUE, login=("clock", ""),
            structure_text=plan.structure() if game else STRUCTURE,
        )
        desk = SeatingService(
            host=host,
            port=port,
            venue=VENUE,
            login=("director", ""),
            profile=args.profile,
            seed=args.seed,
        )
        watch = FloorWatch(host, port)
        stack.callback(watch.stop)
        for service in (clock, desk):
            service.start()
            stack.callback(service.stop)
        page = display(VENUE, f"ws://{host}:{ws_port}", 0)
        page.start()
        stack.callback(page.stop)
        leaderboard = page.url.replace("clock_display/", "leaderboard/")
        out.append(f"leaderboard page (while the demo runs): {leaderboard}")
        if getattr(args, "floor", False):  # the room's clock runs already: only the console
            from pokertable.room.floor_service import console

            floor = console(VENUE, f"ws://{host}:{ws_port}")
            floor.start()
            stack.callback(floor.stop)
            out.append(f"floor console (both tables; sign in with any name): {floor.url}")
        # --overlay: the broadcast page of table t1 (it prints its own address)
        stack.enter_context(demo_overlay.overlay_page(args, host, port, broker, VENUE, "t1"))
        dealers: dict[str, Dealer] = {}
        directors: dict[str, SimulatedDirector] = {}
        configs: dict[str, AppConfig] = {}
        for number, table in enumerate(LINEUP):
            work = tmp / table
            work.mkdir()
            registry = TagRegistry(work / "registry.sqlite3")
            stack.callback(registry.close)
            SyntheticTags.enroll(registry)
            sim = TableSimulator(
                registry, node_specs(SEATS, stud=plan.deals_stud), node_config=_timing(),
                simulated_time=not getattr(args, "real_time", False),
            )
            stack.callback(sim.close)
            config = _config(
                work, table, [sim.port_of(n) for n in sorted(sim.nodes)], host, port, args.profile,
                plan,
            )
            director = SimulatedDirector(
                host, port, VENUE, table, pause_s=0.2, stall_s=args.stall_limit
            )
            director.start()
            stack.callback(director.stop)
            directors[table] = director
            runtime = TableRuntime(config, registry=registry)
            app = runtime.start()
            stack.callback(runtime.stop)
            dealer = Dealer(
                sim,
                app,
                random.Random(args.seed + number),
                stall_s=args.stall_limit,
                string_bets=0.0,
            )
            app.on_output = dealer.observe
            dealer.buses = runtime.buses
            for bus in runtime.buses:
                for supervisor in bus.supervisors.values():
                    supervisor.wait_connected(timeout=args.stall_limit)
            if runtime.bridge is not None and not runtime.bridge.wait_subscribed(args.stall_limit):
                raise DemoError(f"table {table} cannot reach the broker")
            dealers[table], configs[table] = dealer, config
        levels = TournamentClock(host, port, VENUE, stall_s=args.stall_limit)
        levels.follows_room_clock = True  # the room's clock shows the level (and game) too
        levels.start()
        stack.callback(levels.stop)
        for hand in range(hands):
            _next_level(plan if game else None, hand, levels, dealers)
            for table, dealer in dealers.items():
                if sum(1 for s in dealer.app.snapshot().table.seats if s.stack > 0) >= 2:
                    games.button_picks(dealer, directors[table])  # dealer's choice
                    session = dealer.play_hand()
                    played += 1  # counted for the archive
                    out.append(f"{table} {hand_line(session, hand + 1, hands)}")
            if hand == 0:
                out.append(_balance(watch, dealers, args.stall_limit))
        watch.client.publish(
            f"pokertable/v1/{VENUE}/clock/control",
            json.dumps({"command": "entries", "players": 9, "starting_stack": 10_000}),
            qos=1,
        )
        board = watch.wait(
            lambda: (watch.board.get("audit") or {}).get("ok") and watch.board,
            "the leaderboard's audit against the entries",
            args.stall_limit,
        )
        out.append(
            "leaderboard: "
            + ", ".join(
                f"{r['rank']}. {r['player']} {r['table']}/{r['seat']} {r['stack']}"
                for r in board["rows"]
            )
        )
        out.append(f"audit: {board['audit']['counted']} chips on the felt, as entered")
        records = archive.check(played)
        kept = bool(getattr(args, "phh_dir", None))
        phh = Path(args.phh_dir) if kept else tmp / "phh"
        journals = {table: journal_phh(config) for table, config in configs.items()}
        for table, count in sorted(write_archive(records, journals, phh).items()):
            out.append(
                f"{table}: {count} PHH files from the archive, each replays to the table's "
                "stacks and equals the journal's export"
                + (f"; kept in {phh / table}" if kept else " (--phh-dir DIR keeps them)")
            )
    return out


def _reachable(host: str, port: int, stall_s: float) -> None:
    """``--broker``: a broker nobody answers at is named at once (exit 69), before the
    room's services start retrying it."""
    import socket

    from pokertable.controller.demo.room import DemoUnavailable

    try:
        socket.create_connection((host, port), timeout=stall_s).close()
    except OSError as exc:
        raise DemoUnavailable(f"cannot reach the MQTT broker at {host}:{port}: {exc}") from None


def _next_level(plan: games.DemoPlan | None, hand: int, clock: Any,
                dealers: dict[str, Any]) -> None:
    """``--game``: the clock announces the level of hand number ``hand`` (a rotation's next
    game) to both tables, and each deals its next hand once it has it (R23)."""
    level = plan.level_before(hand) if plan is not None else None
    if level is None:
        return
    clock.announce(level)
    for dealer in dealers.values():
        dealer.wait(
            lambda s: games.level_reached(level, s), f"level {level['number']} to reach the table"
        )


def _timing() -> dict[str, int]:
    from pokertable.controller.demo.dealer import NODE_TIMING

    return NODE_TIMING


def _balance(watch: FloorWatch, dealers: dict[str, Any], stall_s: float) -> str:
    """The desk's proposed move, confirmed by the simulated floor, made at both tables; or
    none, when the desk (having seen every table as it is now) finds them balanced."""
    counts = {
        table: sum(1 for s in dealer.app.snapshot().table.seats if s.stack > 0)
        for table, dealer in dealers.items()
    }
    seating = watch.wait(
        lambda: (watch.seating.get("moves") or watch.seating.get("tables") == counts)
        and watch.seating,
        "the seating desk's view of both tables",
        stall_s,
    )
    if not seating.get("moves"):
        players = ", ".join(f"{t} {n} players" for t, n in sorted(counts.items()))
        return f"balancing: no move needed ({players}), as the seating desk finds"
    move = seating["moves"][0]
    watch.confirm(move["id"])
    dealers[move["destination"]].wait(
        lambda s: any(
            p.player == move["player"] and p.seat == move["to_seat"] for p in s.table.seats
        ),
        f"the move {move['id']}",
    )
    return (
        f"balancing: {move['player']} moved from {move['source']} seat {move['seat']} to "
        f"{move['destination']} seat {move['to_seat']} ({' '.join(move['rule_ids'])}), "
        "proposed by the desk and confirmed by the floor"
    )
