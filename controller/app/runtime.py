"""``pokertable run --config table.toml``: the table process that starts at boot.

The composition root: it is the only place that picks real parts (serial ports, the MQTT
bridge, GPIO pins, the wall clock) and hands them to the application. Inputs are applied
one at a time: by the thread that submits one when nothing is queued (a serial reader,
the heartbeat watch, ``mqtt-commands``, ``console``), else by the ``engine`` thread, which
also feeds the watchdog. ``controller/app/table_app.py`` lists the threads and the lock
order.
"""

from __future__ import annotations

import argparse
import functools
import gc
import logging
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any, cast

from pokertable.controller.app.config import AppConfig, file_problems, load_config
from pokertable.controller.app.table_app import (
    TableApp,
    command_to_input,
    console_to_input,
    hardware_to_input,
    wall_ms,
)

log = logging.getLogger("pokertable")


class TableRuntime:
    """Real parts around a ``TableApp``: readers, the MQTT bridge, their threads."""

    def __init__(
        self,
        config: AppConfig,
        *,
        publisher_factory: Callable[[str], Any] | None = None,
        registry: Any = None,
        clock_ms: Callable[[], int] = wall_ms,
    ) -> None:
        from pokertable.hardware.registry import TagRegistry

        self.config = config
        # The one clock of the table: every input's at_ms and every published ts_ms.
        self.clock_ms = clock_ms
        self.registry = registry or TagRegistry(config.registry.path, create=False)
        self.bridge: Any = None
        self._publisher_factory = publisher_factory or self._bridge_factory
        self.buses: list[Any] = []
        self._started: list[Any] = []
        self.console: Any = None
        self.gpio: Any = None
        self.app: TableApp | None = None
        self._threads: list[threading.Thread] = []
        self._stop = threading.Event()
        self.dead: list[str] = []  # worker threads found stopped by the watchdog check

    def _bridge_factory(self, session_id: str) -> Any:
        from pokertable.controller.sealing import OutboxSeal, sealer_for
        from pokertable.mqtt.bridge import TableBridge, TlsOptions

        mq = self.config.mqtt
        if mq is None:
            return None
        password = None
        if mq.password_file:
            password = Path(mq.password_file).read_text().strip()
        return TableBridge(
            venue=self.config.table.venue,
            table=self.config.table.id,
            session=session_id,
            outbox_path=mq.outbox,
            host=mq.host,
            port=mq.port,
            username=mq.username,
            password=password,
            tls=TlsOptions(ca_certs=mq.tls_ca) if mq.tls_ca else None,
            secure_delay_s=mq.secure_delay_s,
            sealer=OutboxSeal(sealer_for(self.config.seal_key_file)),
        )

    def start(self) -> TableApp:
        from pokertable.hardware.bus import BusConfig, TableBus
        from pokertable.hardware.clock import MonotonicClock
        from pokertable.hardware.console import (
            WIRE_LED_MODE,
            ConsolePinMap,
            DealerConsole,
            LedMode,
        )
        from pokertable.hardware.gpio import select_backend

        for reader in self.config.readers:
            self.buses.append(
                TableBus(
                    self.registry,
                    MonotonicClock(),
                    BusConfig(
                        ports=(reader.port,),
                        baudrate=reader.baudrate,
                        rs485_addresses=tuple(reader.addresses)
                        if reader.transport == "rs485"
                        else (),
                        announce_first_view=True,
                    ),
                )
            )

        def node_leds(seat: int, mode: LedMode) -> None:
            for bus in self.buses:
                bus.show_led(seat, WIRE_LED_MODE[mode])  # re-sent to a node that lost it

        if self.config.gpio.backend != "none":
            self.gpio = select_backend(self.config.gpio.backend, clock=MonotonicClock())
            self.console = DealerConsole(
                self.gpio,
                ConsolePinMap.from_config(self.config.gpio.pins),
                MonotonicClock(),
                led_sink=node_leds,
            )

        def led_sink(seat: int, mode: str) -> None:
            lit = cast(LedMode, mode)
            if self.console is not None:
                self.console.set_seat_led(seat, lit)  # also tells the reader nodes
            else:
                node_leds(seat, lit)

        app = TableApp(self.config, led_sink=led_sink, clock_ms=self.clock_ms)
        self.app = app
        self.bridge = self._publisher_factory(app.session_id)
        app.publisher = self.bridge
        replayed = app.recover()
        log.info("journal replayed: %d inputs; hand %s", replayed, app.session.hand_number)
        if self.bridge is not None:
            self.bridge.start()
            self._spawn(self._pump_commands, "mqtt-commands")
        for bus in self.buses:
            # Reader events go straight onto the engine's queue from the reader thread: a
            # pump thread in between cost a thread handoff per chip (docs/benchmarks.md).
            bus.session.sink = functools.partial(self._submit_hardware, app)
            bus.start()
            self._started.append(bus)
        if self.console is not None:
            self._spawn(self._pump_console, "console")
        self._spawn(lambda: app.run(watchdog=self._watchdog), "engine")
        return app

    def _pump_console(self) -> None:
        import queue

        assert self.app is not None and self.console is not None
        while not self._stop.is_set():
            self.console.tick()  # blinking LEDs, and releases RPi.GPIO misses
            try:
                event = self.console.events.get(timeout=0.05)
            except queue.Empty:
                continue
            item = console_to_input(event, self.app.clock_ms())
            if item is not None:
                self.app.submit(item)

    def _spawn(self, target: Callable[[], None], name: str) -> None:
        thread = threading.Thread(target=target, name=name, daemon=True)
        thread.start()
        self._threads.append(thread)

    @staticmethod
    def _submit_hardware(app: TableApp, event: Any) -> None:
        item = hardware_to_input(event, app.clock_ms())
        if item is not None:
            app.submit(item)

    def _pump_commands(self) -> None:
        import queue

        assert self.app is not None and self.bridge is not None
        while not self._stop.is_set():
            try:
                command = self.bridge.inbound.get(timeout=0.2)
            except queue.Empty:
                continue
            self.app.submit(command_to_input(command, self.app.clock_ms()))

    def _watchdog(self) -> None:
        """Feed systemd only while every worker runs: a dead thread means a restart."""
        from pokertable.controller.app import systemd_notify
        from pokertable.controller.app.table_app import dead_workers

        if self._stop.is_set():
            return  # shutting down: threads end on purpose
        workers = [t for t in self._threads if t.name != "engine"]
        workers += [t for bus in self.buses for t in bus.threads()]  # the readers' threads
        dead = dead_workers(workers, self.bridge)
        if dead:
            if dead != self.dead:
                log.error("worker thread(s) stopped: %s; no more watchdog pings", ", ".join(dead))
                systemd_notify.notify_status(f"worker stopped: {', '.join(dead)}")
            self.dead = dead
            return
        systemd_notify.notify_watchdog()

    def stop(self) -> None:
        self._stop.set()
        if self.app is not None:
            self.app.stop()
        for thread in self._threads:
            thread.join(timeout=3)
        for bus in self._started:  # a start refused before the buses ran stops cleanly
            bus.stop()
        if self.console is not None:
            self.console.all_leds_off()
            self.gpio.cleanup()
        if self.bridge is not None:
            self.bridge.stop()
        if self.app is not None:
            self.app.close()


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
EX_CONFIG = 78  # sysexits.h: systemd's unit does not restart a table with a broken config


def _log_level(text: str) -> str:
    level = text.upper()
    if level not in LOG_LEVELS:
        raise argparse.ArgumentTypeError(f"{text!r} is not one of {', '.join(LOG_LEVELS)}")
    return level


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config", required=True, type=Path, metavar="FILE",
        help="the table's table.toml (docs/install-pi.md explains every key)",
    )
    parser.add_argument(
        "--check", action="store_true",
        help="check the configuration against this machine (files, GPIO, pins) and exit: "
        "0 when it would start, 78 with one line per problem otherwise",
    )
    parser.add_argument(
        "--log-level", default="INFO", type=_log_level, metavar="LEVEL",
        help=f"one of {', '.join(LOG_LEVELS)} (default: INFO); logs go to stderr (the journal)",
    )


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(
        level=args.log_level,
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    problems = [f"config error: {args.config}: {p}" for p in file_problems(args.config)]
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return EX_CONFIG
    config = load_config(args.config)
    from pokertable.controller.app.data_files import DataFileError, check_data_files

    try:
        check_data_files(config)
    except DataFileError as exc:
        print(f"data file error: {exc}", file=sys.stderr)
        return EX_CONFIG  # restarting cannot repair a file: the line says what to do
    if args.check:
        print(
            f"{args.config}: ok (table {config.table.venue}/{config.table.id}, "
            f"profile {config.table.profile})"
        )
        return 0
    from pokertable.controller.app import systemd_notify
    from pokertable.controller.app.journal import JournalError
    from pokertable.hardware.errors import HardwareError, RegistryError
    from pokertable.mqtt.errors import MqttBridgeError

    try:
        runtime = TableRuntime(config)
    except RegistryError as exc:
        print(f"data file error: {exc}", file=sys.stderr)
        return EX_CONFIG
    done = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        done.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        runtime.start()
    except (JournalError, MqttBridgeError) as exc:  # a file damaged after the check
        print(f"data file error: {exc}", file=sys.stderr)
        runtime.stop()
        return EX_CONFIG
    except (HardwareError, OSError) as exc:
        # What --check could not foresee (a pin taken by another process, a permission):
        # one line, and the status that stops systemd restarting into the same wall.
        print(f"cannot start the table: {exc}", file=sys.stderr)
        runtime.stop()
        return EX_CONFIG
    # What start-up built (modules, config, registry, the replayed journal) lives as long as
    # the process: frozen, a full collection never walks it again. The first one after start
    # walked all of it, 15-45 ms of one chip's path to the room (docs/benchmarks.md).
    gc.collect()
    gc.freeze()
    if config.seal_key_file is None:
        log.warning("[sealing] key_file is not set: hole cards are kept in clear in the "
                    "journal and the outbox (docs/overlay.md, hole cards at rest)")
    systemd_notify.notify_ready()
    systemd_notify.notify_status(f"table {config.table.id} running")
    try:
        done.wait()
    finally:
        runtime.stop()
    return 0
