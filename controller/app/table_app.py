"""The table application: readers, console and MQTT around one session, one input at a time.

Every input (a settled chip motion, a card read, a console button, a room command) is
journaled (commands fsynced at once, physical inputs as a group), applied to the pure
session, and what the table must say goes to the MQTT outbox. Inputs are applied one at
a time and in journal order, but not always on one thread.

Threads, and which of them apply inputs (``submit``): the *engine* thread (``run``) feeds
the systemd watchdog, fsyncs the journal's group and applies what was queued. Every
thread that submits (each serial port's reader or RS-485 poller, the heartbeat watch and
port supervisors for node and port alerts, ``mqtt-commands``, ``console``) applies its
input itself, inline, when nothing is queued and the engine lock is free: a thread
handoff per chip was most of the latency (docs/benchmarks.md). Otherwise the input is
queued and the engine thread applies it. paho's network thread and the bridge's worker
never apply inputs: they fill queues.

Locks, outermost first (``LOCK_ORDER``; a thread holding one takes only later ones, and
``tests/app/test_lock_order.py`` checks it in a real run):

1. ``BusSession._lock`` (hardware/transport.py): held by a reader thread while it submits,
   so its input may be applied under it;
2. ``TableApp._pending_lock``: the count of queued inputs; only try-acquires the engine;
3. ``TableApp._engine``: one input applied at a time (try-acquired by ``submit``, so a
   reader thread never waits on the engine: it queues);
4. ``TableBridge._pump_lock`` (mqtt/bridge.py): who hands outbox rows to paho
   (try-acquired by the publishing thread; paho's own mutexes and
   ``PahoClient._write_lock`` come after it and are never held across a publish);
5. ``Outbox._lock`` (mqtt/outbox.py): one SQLite connection; a message with nothing of
   its lane ahead of it is handed to paho under it, before its row is written, so paho's
   mutexes also come after this one (paho's callbacks never take it: they only queue);
6. ``TableApp._lock``: the session for readers on other threads (``snapshot``); nothing
   is taken under it, so outputs are emitted after it is released;
7. ``Journal._lock`` (app/journal.py): a line's write and the journal's counts, taken by
   ``process`` (under ``TableApp._engine``) and by the engine thread's group commit
   (``run``, holding nothing); nothing is taken under it, and the group's fsync runs
   outside it, so a reader appending inline never waits for an fsync.

Leaf locks, taken one at a time under ``TableApp._engine`` by the LED sink:
``DealerConsole._lock``, ``TableBus._leds_lock``, ``NodeLink._write_lock`` (none of them
takes ``BusSession._lock``, which a reader applying inline already holds).

After a crash the journal is replayed through the same pure session. Each message the
table publishes carries an *origin* derived from its journal position, so the outbox
skips what it had already queued before the crash: nothing is lost and nothing is sent
twice.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pokertable.controller.app.config import AppConfig
from pokertable.controller.app.journal import Journal, JournalError, what_to_do
from pokertable.controller.engine.seating import TableSeat
from pokertable.controller.interpretation.context import prime
from pokertable.controller.sealing import sealer_for
from pokertable.controller.table.card_hold import held_until
from pokertable.controller.table.inputs import (
    CardCleared,
    CardDetected,
    ChipItem,
    ChipsMoved,
    ConsoleButton,
    ConsolePress,
    HardwareNotice,
    Input,
    RoomCommand,
    TimePassed,
    from_record,
    to_record,
)
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import (
    Channel,
    Output,
    SessionConfig,
    TableSession,
    apply,
    new_session,
)

log = logging.getLogger("pokertable")

# Outermost first; the module docstring says who takes each and why.
LOCK_ORDER = (
    "BusSession._lock",
    "TableApp._pending_lock",
    "TableApp._engine",
    "TableBridge._pump_lock",
    "Outbox._lock",
    "TableApp._lock",
    "Journal._lock",
)

# origin = journal index * this + the output's place in the order it leaves (``_apply``)
OUTPUTS_PER_INPUT = 256
_ROOM_FIRST = (Channel.EVENT, Channel.REPLY)  # before the state; hole cards, LEDs after it


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


class Publisher(Protocol):
    """What the application needs from the MQTT bridge (``mqtt.bridge.TableBridge``)."""

    def publish_state(self, state: dict[str, Any], *, origin: int | None = None) -> int | None: ...
    def publish_event(self, event: dict[str, Any], *, origin: int | None = None) -> int | None: ...
    def publish_hole_cards(
        self, cards: dict[str, Any], *, origin: int | None = None
    ) -> int | None: ...
    def reply(
        self,
        request_id: str | None,
        *,
        ok: bool,
        command: str | None = None,
        error: str | None = None,
        field: str | None = None,
        origin: int | None = None,
        ts_ms: int | None = None,
    ) -> int | None: ...


def hardware_to_input(event: object, at_ms: int) -> Input | None:
    """Convert a ``hardware.events`` event to a session input (None: nothing to decide)."""
    import pokertable.hardware.events as hw  # not ``from ... import``: a Python call per chip

    match event:
        case hw.ChipsSettled():

            def items(chips: tuple[Any, ...]) -> tuple[ChipItem, ...]:
                return tuple(ChipItem(c.denomination, c.kind, c.uid) for c in chips)

            return ChipsMoved(
                event.zone,
                event.seat,
                items(event.arrived),
                items(event.left),
                at_ms,
                event.complete,
            )
        case hw.CardSeen():
            return CardDetected(event.zone, event.seat, event.rank + event.suit, at_ms, event.uid)
        case hw.CardRemoved():
            return CardCleared(event.zone, event.seat, event.rank + event.suit, at_ms, event.uid)
        case hw.NodeDown():
            return HardwareNotice(
                "node_down",
                f"reader node {event.node} is silent ({event.silent_ms} ms): check its cable",
                at_ms,
            )
        case hw.NodeRebooted():
            return HardwareNotice("node_rebooted", f"reader node {event.node} restarted", at_ms)
        case hw.Alert():
            return HardwareNotice(event.code, event.message, at_ms, event.zone)
    return None


@dataclass
class Stats:
    inputs: int = 0
    replayed: int = 0


class TableApp:
    """One table: journal + session + publisher. Threads feed ``submit``; ``run`` consumes."""

    def __init__(
        self,
        config: AppConfig,
        *,
        publisher: Publisher | None = None,
        led_sink: Callable[[int, str], None] | None = None,
        clock_ms: Callable[[], int] = wall_ms,
        on_output: Callable[[TableSession, tuple[Output, ...]], None] | None = None,
    ) -> None:
        self.config = config
        self.publisher = publisher
        self.led_sink = led_sink
        self.clock_ms = clock_ms
        self.on_output = on_output
        self.inputs: queue.Queue[Input | None] = queue.Queue()
        self.journal = Journal(config.journal.path, sealer=sealer_for(config.seal_key_file))
        self.stats = Stats()
        self.session = fresh_session(self.config)
        self._lock = threading.Lock()  # guards self.session for readers on other threads
        self._stopped = threading.Event()
        # One input is applied at a time, on whichever thread runs it: ``submit`` applies
        # it at once on the caller's thread when nothing is queued (a thread handoff per
        # chip was most of the latency), otherwise it queues behind the others.
        self._engine = threading.Lock()
        self._pending_lock = threading.Lock()
        self._pending = 0  # inputs queued and not yet applied
        self._inline = False  # set while ``run`` consumes
        self._inline_error: BaseException | None = None
        self._last_state: dict[str, Any] | None = None  # last public state, without ts_ms
        # request_id -> (the command's payload, the replies it got); rebuilt by the replay,
        # so a command re-sent after a restart is still answered, not applied again.
        self._answered: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}

    @property
    def session_id(self) -> str:
        """The MQTT session id: stable across restarts of the same journal."""
        if self.config.mqtt is not None and self.config.mqtt.session:
            return self.config.mqtt.session
        marker = Path(str(self.journal.path) + ".session")
        mq = self.config.mqtt
        outbox_lost = mq is not None and not Path(mq.outbox).exists() and len(self.journal) > 0
        if marker.exists() and (len(self.journal) == 0 or outbox_lost):
            # A new journal, or an outbox moved aside: the old session's sequence numbers
            # and publish marks no longer match, so consumers must see a new session.
            log.warning("journal or outbox was replaced: starting a new MQTT session")
            marker.unlink()
        if not marker.exists():
            marker.write_text(f"{self.config.table.id}-{uuid.uuid4().hex[:12]}\n")
        return marker.read_text().strip()

    # --- applying inputs (one at a time: the engine thread, or a submitter inline) -----

    def recover(self) -> int:
        """Replay the journal into the session, re-publishing only what was never queued."""
        count = 0
        # What the first start published before any input: replays start from the same
        # point, so they skip exactly the unchanged states the first run skipped.
        self._last_state = _without_time(table_state(self.session, 0))
        for index, record in enumerate(self.journal.records()):
            try:
                item = from_record(record)
            except ValueError as exc:
                raise JournalError(
                    f"journal {self.journal.path}: record {index + 1}: {exc}; "
                    + what_to_do(self.journal.path)
                ) from exc
            self._apply(index, item)
            count += 1
        self.stats.replayed = count
        if count == 0:
            self._publish_state(None, at_ms=self.clock_ms())
        return count

    def submit(self, item: Input) -> None:
        """Thread-safe: apply an input now if nothing is queued, else queue it in order."""
        with self._pending_lock:
            inline = self._inline and self._pending == 0 and self._engine.acquire(False)
            if not inline:
                self._pending += 1
        if not inline:
            self.inputs.put(item)
            return
        try:
            self.process(item)
        except KeyboardInterrupt:
            # The caller's own Ctrl-C (the demo's main thread submits inline), not an engine
            # failure: it stops the caller. Handed to the engine thread it would kill that
            # thread and leave the caller waiting on a table that no longer moves.
            self._inline = False
            raise
        except BaseException as exc:  # the engine thread raises it, as if it had failed
            self._inline_error = exc
            self._inline = False
        finally:
            self._engine.release()
        self.inputs.put(None)  # wake the engine thread: watchdog, and the group commit

    def stop(self) -> None:
        self._inline = False
        self._stopped.set()
        self.inputs.put(None)

    def process(self, item: Input) -> tuple[Output, ...]:
        """Journal one input, then apply it (the caller holds ``_engine``).

        Commands (console, room) are fsynced before they are applied and acknowledged;
        physical inputs are fsynced as a group by ``run`` once the queue is empty: the
        felt re-reports them after a power cut, and an fsync per chip costs the latency.
        A room command whose ``request_id`` was already applied (the sender retried, or the
        broker redelivered it under QoS 1) is not applied again: it gets the same reply.
        """
        if isinstance(item, RoomCommand) and item.request_id in self._answered:
            self._answer_again(item)
            return ()
        durable = isinstance(item, ConsolePress | RoomCommand)
        index = self.journal.append(to_record(item), sync=durable)
        self.stats.inputs += 1
        return self._apply(index, item)

    def run(self, *, watchdog: Callable[[], None] | None = None, tick_s: float = 1.0) -> None:
        """Consume inputs until ``stop``; ``watchdog`` is called at least every ``tick_s``.

        While it runs, ``submit`` may apply an input on the caller's thread; this thread
        then only drains what queued meanwhile and fsyncs the journal once nothing is
        pending (group commit, after the outputs are on their way).
        """
        self._inline = not self._stopped.is_set()
        try:
            while not self._stopped.is_set():
                try:
                    item = self.inputs.get(timeout=self._wait_s(tick_s))
                except queue.Empty:
                    item = None
                if watchdog is not None:
                    watchdog()
                if self._inline_error is not None:
                    raise self._inline_error
                if item is not None:
                    with self._engine:
                        self.process(item)
                    with self._pending_lock:
                        self._pending -= 1
                elif held_until(self.snapshot()) is not None:
                    with self._engine:
                        self.judge_time()
                if self._pending == 0:
                    # Not under ``_engine``: a reader may append meanwhile (``Journal._lock``).
                    self.journal.sync()
        finally:
            self._inline = False

    def _wait_s(self, tick_s: float) -> float:
        """How long the engine thread waits for an input: ``tick_s``, or less when a held
        card's time comes sooner (``judge_time``)."""
        due = held_until(self.snapshot())
        if due is None:
            return tick_s
        return min(tick_s, max(0.0, (due - self.clock_ms() + 1) / 1000))

    def judge_time(self) -> tuple[Output, ...]:
        """What waits for time is judged once its time has passed with nothing else read: a
        card held for the chips' report lag (``card_hold``) becomes premature when no call
        came, told then and not when the player next acts. A journaled ``TimePassed``, so a
        replay judges it the same; nothing is journaled while nothing waits (the caller
        holds ``_engine``, as for ``process``)."""
        due = held_until(self.snapshot())
        now = self.clock_ms()
        if due is None or now <= due:
            return ()
        return self.process(TimePassed(now))

    def snapshot(self) -> TableSession:
        with self._lock:
            return self.session

    def _apply(self, index: int, item: Input) -> tuple[Output, ...]:
        with self._lock:
            self.session, outputs = apply(self.session, item)
        if isinstance(item, RoomCommand):
            replies = [dict(o.payload) for o in outputs if o.channel == Channel.REPLY]
            self._answered[item.request_id] = (dict(item.payload), replies)
        base = index * OUTPUTS_PER_INPUT
        if len(outputs) >= OUTPUTS_PER_INPUT - 1:
            raise RuntimeError(f"input {index} produced {len(outputs)} outputs")
        # What the room reads first leaves first: events and replies, then the state, then
        # the secure lane (hole cards, a stream of their own) and the seat LEDs (a serial
        # write to the nodes). Hole cards and LEDs ahead of the state cost a card's state
        # a message or a port write of latency (docs/benchmarks.md). Origins follow the
        # order of leaving, so a replay skips exactly what the outbox already holds.
        public = [o for o in outputs if o.channel in _ROOM_FIRST]
        later = [o for o in outputs if o.channel not in _ROOM_FIRST]
        for k, output in enumerate(public):
            self._emit(base + k, output)
        self._publish_state(base + len(public), at_ms=item.at_ms)
        for k, output in enumerate(later, len(public) + 1):
            self._emit(base + k, output)
        if self.on_output is not None:
            self.on_output(self.session, outputs)
        # The messages are out: the next turn's facts are worked out now, off the next
        # chips' path (they are read against the same hand object, ``context.prime``).
        prime(self.session.hand, self.session.config.rules)
        return outputs

    def _answer_again(self, item: RoomCommand) -> None:
        """Repeat the reply of an already applied command (or refuse a reused request id)."""
        payload, replies = self._answered[item.request_id]
        if self.publisher is None:
            return
        if payload != item.payload:
            self.publisher.reply(
                item.request_id,
                ok=False,
                command=item.command,
                error="request_id was already used by another command; use a new one",
                field="request_id",
                ts_ms=item.at_ms,
            )
            return
        log.info("command %s repeated: answered again, not applied again", item.request_id)
        for reply in replies:
            self.publisher.reply(
                reply["request_id"],
                ok=bool(reply["ok"]),
                command=reply.get("command"),
                error=reply.get("error"),
                field=reply.get("field"),
                ts_ms=reply.get("ts_ms"),
            )

    def _emit(self, origin: int, output: Output) -> None:
        payload = output.payload
        if output.channel == Channel.LED:
            if self.led_sink is not None:
                self.led_sink(int(payload["seat"]), str(payload["mode"]))
            return
        if self.publisher is None:
            return
        if output.channel == Channel.EVENT:
            self.publisher.publish_event(payload, origin=origin)
        elif output.channel == Channel.HOLE_CARDS:
            self.publisher.publish_hole_cards(payload, origin=origin)
        elif output.channel == Channel.REPLY:
            self.publisher.reply(
                payload["request_id"],
                ok=bool(payload["ok"]),
                command=payload.get("command"),
                error=payload.get("error"),
                field=payload.get("field"),
                origin=origin,
                ts_ms=payload.get("ts_ms"),
            )

    def _publish_state(self, origin: int | None, at_ms: int) -> None:
        if self.publisher is None:
            return
        state = table_state(self.session, at_ms)
        unchanged = _without_time(state)
        if origin is not None and unchanged == self._last_state:
            return  # chips merely held, a card re-read: the room already has this state
        self._last_state = unchanged
        self.publisher.publish_state(state, origin=origin)

    def close(self) -> None:
        self.journal.close()


def dead_workers(threads: Iterable[threading.Thread], bridge: Any) -> list[str]:
    """Names of the worker threads that stopped; the watchdog is fed only while this is empty.

    The engine thread feeds the systemd watchdog, so an engine that runs while the MQTT
    bridge or a reader thread died would otherwise keep a silent table "healthy" forever.
    """
    dead = [t.name for t in threads if not t.is_alive()]
    alive = getattr(bridge, "alive", None)
    if callable(alive) and not alive():
        dead.append("mqtt-bridge")
    return dead


def _without_time(state: dict[str, Any]) -> dict[str, Any]:
    unchanged = dict(state)  # a copy in C, not a comprehension's Python loop over its keys
    unchanged.pop("ts_ms", None)
    return unchanged


def console_to_input(event: object, at_ms: int) -> ConsolePress | None:
    """A ``hardware.console`` button event as a session input (None: nothing to decide)."""
    from pokertable.hardware import console as c

    match event:
        case c.HandStartPressed():
            return ConsolePress(ConsoleButton.HAND_START, at_ms)
        case c.DeclarationPressed():
            # speaker: the seat button held with it, words out of turn (R53)
            return ConsolePress(str(event.kind), at_ms, seat=event.speaker, lit_seat=event.seat)
        case c.FloorCallPressed():
            return ConsolePress(ConsoleButton.FLOOR, at_ms)
        case c.ClockCallPressed():
            return ConsolePress(ConsoleButton.CLOCK, at_ms)
        case c.ConfirmPressed():
            return ConsolePress(ConsoleButton.CONFIRM, at_ms)
        case c.UndoPressed():
            return ConsolePress(ConsoleButton.UNDO, at_ms)
    return None


def command_to_input(command: Any, at_ms: int) -> RoomCommand:
    """A validated ``mqtt.bridge.InboundCommand`` as a journal-ready session input."""
    return RoomCommand(
        command.command, command.request_id, dict(command.payload), at_ms, command.sender
    )


def fresh_session(config: AppConfig) -> TableSession:
    """The session a table starts from, before any input: what the journal replays onto
    (the live table) and what ``pokertable export phh`` reads a journal into."""
    table = config.table
    session_config = SessionConfig(
        venue=table.venue,
        table=table.id,
        variant=config.variant(),
        rules=config.rules(),
        max_seats=table.seats,
        first_button=table.first_button,
        **config.reading.model_dump(exclude_none=True),  # the readers' windows, if tuned
    )
    seats = tuple(
        TableSeat(p.seat, p.name, p.stack) for p in sorted(config.players, key=lambda p: p.seat)
    )
    return new_session(session_config, config.levels[0].to_level(), seats)
