"""Serial transport, point-to-point: one port per reader node, in pyserial's own model.

Ports open with ``serial.serial_for_url`` so ``loop://``, a pseudo-terminal and a real
USB-serial adapter share one code path. :class:`NodeLink` is a
``serial.threaded.Protocol``: pyserial's ``ReaderThread`` calls it with bytes, it feeds a
``HostFrameDecoder`` (``wire.FrameDecoder``'s contract) and passes frames to the shared
:class:`BusSession`.
``ReaderThread`` stops when an adapter is unplugged, and that is right: the
:class:`PortSupervisor` owns reopening, with capped exponential backoff::

    session = BusSession(BusInterpreter(registry), MonotonicClock(), events.put)
    supervisor = PortSupervisor("/dev/serial/by-id/usb-node1", session)
    supervisor.start()
    watch = HeartbeatWatch(session); watch.start()    # NodeDown even while unplugged
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections.abc import Callable
from typing import Any

import serial
import serial.threaded

from pokertable.firmware import wire
from pokertable.hardware.clock import Clock
from pokertable.hardware.events import Alert, AlertCode, HardwareEvent
from pokertable.hardware.frames import HostFrameDecoder
from pokertable.hardware.interpreter import BusInterpreter, Command

log = logging.getLogger(__name__)

EventSink = Callable[[HardwareEvent], None]
CommandSender = Callable[[int, int, bytes], bool]


def open_port(url: str, baudrate: int = 115_200, **kwargs: Any) -> serial.SerialBase:
    """The one way this package opens a port (loop://, /dev/pts/N, /dev/ttyUSB0, rfc2217://)."""
    return serial.serial_for_url(url, baudrate=baudrate, timeout=None, **kwargs)


class BusSession:
    """Thread-safe front of one :class:`BusInterpreter` shared by every port of a table.

    Reader threads deliver frames, a ticker delivers time; a lock makes each delivery run
    to completion, and events leave through ``sink`` in the order they were made.
    """

    def __init__(self, interpreter: BusInterpreter, clock: Clock, sink: EventSink) -> None:
        self.interpreter = interpreter
        self.clock = clock
        self.sink = sink
        self.node_ports: dict[int, str] = {}  # where each node was last heard (for commands)
        # Set by the owner (TableBus): how to reach a node from a tick, and what to send a
        # node that rebooted or lost our frames (its LEDs).
        self.command_sender: CommandSender | None = None
        self.state_refresher: Callable[[int], None] | None = None
        self._lock = threading.Lock()

    def deliver(
        self,
        frames: list[tuple[int, int, int, bytes]],
        new_errors: int = 0,
        port: str = "",
    ) -> list[Command]:
        """Interpret frames that just arrived; returns the commands to send back."""
        with self._lock:
            at_ms = self.clock.ticks_ms()
            for frame in frames:
                self.node_ports[frame[0]] = port
            events: list[HardwareEvent] = []
            if new_errors:
                events += self.interpreter.on_decode_errors(new_errors, at_ms, port)
                # A corrupt frame from this port may have been any node's snapshot.
                for node, node_port in sorted(self.node_ports.items()):
                    if node_port == port:
                        self.interpreter.request_resync(node, at_ms)
            for node, msg_type, seq, payload in frames:
                events += self.interpreter.on_frame(node, msg_type, seq, payload, at_ms)
            for event in events:
                self.sink(event)
            commands, wanted = self.interpreter.take_outputs()
        self._refresh_state(wanted)
        return commands

    def tick(self) -> None:
        with self._lock:
            for event in self.interpreter.tick(self.clock.ticks_ms()):
                self.sink(event)
            commands, wanted = self.interpreter.take_outputs()
        sender = self.command_sender
        if sender is not None:
            for node, msg_type, payload in commands:
                sender(node, msg_type, payload)
        self._refresh_state(wanted)

    def alert(self, code: AlertCode, message: str) -> None:
        """Raise an alert from the transport itself (a port that will not open)."""
        with self._lock:
            self.sink(Alert(code, message, self.clock.ticks_ms()))

    def _refresh_state(self, nodes: set[int]) -> None:
        refresher = self.state_refresher
        if refresher is not None:
            for node in sorted(nodes):
                refresher(node)


def port_missing_text(url: str, exc: BaseException) -> str:
    """The one line the room sees when a reader port will not open."""
    return (f"reader port {url} cannot be opened ({exc}): the zones behind it are not "
            "being read; check the cable or adapter and the port path in the "
            "[[readers]] config")


class NodeLink(serial.threaded.Protocol):  # type: ignore[misc]
    """One connection to one port: bytes in -> frames -> the session; commands out."""

    def __init__(self, session: BusSession, port: str = "") -> None:
        self.session = session
        self.port = port
        self.decoder = HostFrameDecoder()
        self.transport: serial.threaded.ReaderThread | None = None
        self._seq = 0
        self._errors_seen = 0
        self._write_lock = threading.Lock()

    def connection_made(self, transport: serial.threaded.ReaderThread) -> None:
        self.transport = transport
        log.info("port %s connected", self.port)

    def data_received(self, data: bytes) -> None:
        frames = self.decoder.feed(data)
        total = self.decoder.errors()
        new_errors, self._errors_seen = total - self._errors_seen, total
        if not frames and not new_errors:
            return  # part of a frame: the rest is on its way
        for node, msg_type, payload in self.session.deliver(frames, new_errors, self.port):
            self.send(node, msg_type, payload)

    def connection_lost(self, exc: BaseException | None) -> None:
        # Never re-raise: losing the port is the supervisor's business, not an error here.
        self.transport = None
        if exc is not None:
            log.warning("port %s lost: %s", self.port, exc)

    def send(self, node: int, msg_type: int, payload: bytes = b"") -> bool:
        """Send one frame to a node; False when the port is gone (the command is dropped)."""
        transport = self.transport
        if transport is None:
            return False
        with self._write_lock:
            frame = wire.encode_frame(node, msg_type, self._seq, payload)
            self._seq = (self._seq + 1) & 0xFFFF
        try:
            transport.write(frame)
        except (serial.SerialException, OSError) as exc:
            log.warning("port %s: write failed: %s", self.port, exc)
            return False
        return True


_CHUNK = 4096  # bytes taken from the port per read: every frame that has arrived


class _PortReader(serial.threaded.ReaderThread):  # type: ignore[misc]  # pyserial is untyped
    """pyserial's reader thread, with two changes.

    A POSIX port (a tty, a pty) is read with one ``select`` and one ``read`` of whatever
    has arrived. pyserial's loop asked for the byte count (an ``ioctl``), found none, waited
    for one byte, handed that byte on alone, then asked again and read the rest: six system
    calls and two passes through the decoder and the bus per frame (docs/benchmarks.md).
    Other ports (``loop://``, ``rfc2217://``) keep pyserial's read.

    An unplugged adapter's EIO (an ``OSError``, which pyserial 3.5 does not catch as it
    does ``SerialException``) ends the connection like any other I/O error:
    ``connection_lost`` is called and no traceback reaches the log on every unplug.
    """

    def run(self) -> None:
        if not hasattr(self.serial, "cancel_read"):
            self.serial.timeout = 1
        self.protocol = self.protocol_factory()
        try:
            self.protocol.connection_made(self)
        except Exception as exc:
            self.alive = False
            self.protocol.connection_lost(exc)
            self._connection_made.set()
            return
        self._connection_made.set()
        read = self._read_posix if _is_posix_port(self.serial) else self._read_pyserial
        lost: BaseException | None = None
        while self.alive and self.serial.is_open:
            try:
                data = read()
            except (serial.SerialException, OSError) as exc:  # the adapter is gone
                lost = exc
                break
            if data:
                try:
                    self.protocol.data_received(data)
                except Exception as exc:
                    lost = exc
                    break
        self.alive = False
        protocol, self.protocol = self.protocol, None
        protocol.connection_lost(lost)

    def _read_pyserial(self) -> bytes:
        data: bytes = self.serial.read(self.serial.in_waiting or 1)
        return data

    def _read_posix(self) -> bytes:
        """What has arrived, after waiting for it; b"" when ``stop`` cancelled the wait."""
        port = self.serial
        fd, cancel = port.fd, port.pipe_abort_read_r
        try:
            ready, _, _ = select.select([fd, cancel], [], [])
            if cancel in ready:
                os.read(cancel, 1000)
                return b""
            data = os.read(fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return b""
        except (OSError, ValueError) as exc:  # as pyserial words it (ValueError: closed)
            raise serial.SerialException(f"read failed: {exc}") from exc
        if not data:  # readable but empty: how Linux shows a device that went away
            raise serial.SerialException(
                "device reports readiness to read but returned no data "
                "(device disconnected or multiple access on port?)"
            )
        return data


def _is_posix_port(port: serial.SerialBase) -> bool:
    """A port with a file descriptor and pyserial's cancel pipe (a POSIX tty or pty)."""
    fd = getattr(port, "fd", None)
    return fd is not None and getattr(port, "pipe_abort_read_r", None) is not None


class PortSupervisor:
    """Keeps one port open: opens it, runs a ReaderThread, and reopens after an unplug.

    Backoff starts at ``backoff_initial_s`` and doubles up to ``backoff_max_s`` while the
    port is missing; it resets once a connection is made.
    """

    def __init__(
        self,
        url: str,
        session: BusSession,
        *,
        baudrate: int = 115_200,
        backoff_initial_s: float = 0.05,
        backoff_max_s: float = 2.0,
        opener: Callable[[str], serial.SerialBase] | None = None,
    ) -> None:
        self.url = url
        self.session = session
        self.baudrate = baudrate
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self._opener = opener or (lambda u: open_port(u, baudrate))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._port_lock = threading.Lock()  # ``stop``'s cancel never meets the close
        self.link: NodeLink | None = None
        self.connected = threading.Event()
        self.connections = 0
        self.failed_opens = 0
        self._missing_alerted = False

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"port {self.url}", daemon=True)
        self._thread.start()

    @property
    def thread(self) -> threading.Thread | None:
        """The supervisor thread (None before ``start``); it lives until ``stop``."""
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        # Under the lock the supervisor thread closes the port with: pyserial's cancel
        # writes to a pipe that ``close`` closes, so a cancel racing the close raised EBADF
        # here (seen in CI, in `pokertable readers --once`).
        with self._port_lock:
            reader = self._reader
            if reader is not None:
                reader.stop()  # cancel the blocking read; the supervisor thread closes the port
        if self._thread is not None:
            self._thread.join(5)

    def wait_connected(self, count: int = 1, timeout: float = 5.0) -> bool:
        """Wait until the port has been (re)opened ``count`` times in total."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.connections >= count and self.connected.is_set():
                return True
            self._stop.wait(0.01)
        return False

    def send(self, node: int, msg_type: int, payload: bytes = b"") -> bool:
        link = self.link
        return link.send(node, msg_type, payload) if link is not None else False

    def _run(self) -> None:
        backoff = self.backoff_initial_s
        while not self._stop.is_set():
            try:
                port = self._opener(self.url)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.failed_opens += 1
                if self.failed_opens == 1 or self.failed_opens % 50 == 0:
                    log.warning("cannot open %s (%s); retrying", self.url, exc)
                if not self._missing_alerted:
                    self._missing_alerted = True
                    self.session.alert("port_missing", port_missing_text(self.url, exc))
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self.backoff_max_s)
                continue
            opened_at = time.monotonic()
            self._missing_alerted = False  # a later outage alerts the room again
            link = NodeLink(self.session, self.url)
            reader = _PortReader(port, lambda link=link: link)
            self._reader = reader
            self.link = link
            reader.start()
            self.connections += 1
            self.connected.set()
            while reader.is_alive() and not self._stop.is_set():
                reader.join(0.05)
            self.connected.clear()
            self.link = None
            with self._port_lock:
                self._reader = None
                if reader.is_alive():
                    reader.stop()
                # Only this thread closes the port: two closers could close a reused fd number.
                with contextlib.suppress(serial.SerialException, OSError):
                    port.close()
            if time.monotonic() - opened_at > 1.0:
                backoff = self.backoff_initial_s  # it worked for a while: retry promptly
            else:
                # Opens but dies at once (a half-gone adapter): do not spin on it.
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self.backoff_max_s)


class HeartbeatWatch:
    """Ticks the session every ``interval_s`` so a silent node is declared down in time."""

    def __init__(self, session: BusSession, interval_s: float = 0.1) -> None:
        self.session = session
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="heartbeat watch", daemon=True)

    def start(self) -> None:
        self._thread.start()

    @property
    def thread(self) -> threading.Thread:
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.session.tick()
