"""RS-485 multi-drop: the Pi is the polling master of every node on one bus.

Nodes only talk when polled, so the master sends ``MSG_POLL`` to each address in turn
and listens for a bounded response window; the node answers with its queued frames or
an ACK. The window waits ``response_window_s`` for the first byte, then stays open
while bytes arrive and closes ``quiet_gap_s`` after the last one (a node's burst is
continuous on the wire), so the master never talks into a reply; commands the session
wants sent wait until the window has closed. Direction control prefers the kernel's
RS-485 mode (``ser.rs485_mode``); where the port has none (a pseudo-terminal answers
ENOTTY, an adapter may lack it) we fall back to toggling RTS in software, and where even
RTS cannot be set we assume an auto-direction transceiver. Each fallback is logged once per port::

    bus = Rs485Supervisor("/dev/ttyAMA0", [1, 2, 3], session)   # opens, polls, reopens
    bus.start()
"""

from __future__ import annotations

import contextlib
import logging
import queue
import termios
import threading
import time
from collections.abc import Callable, Sequence
from typing import Literal

import serial
import serial.rs485

from pokertable.firmware import wire
from pokertable.hardware.frames import HostFrameDecoder
from pokertable.hardware.transport import (
    BusSession,
    open_port,
    port_missing_text,
)

log = logging.getLogger(__name__)

DirectionMode = Literal["kernel", "rts-toggle", "none"]

_logged_ports: set[str] = set()


def _log_once(port: str, message: str, *args: object) -> None:
    if port not in _logged_ports:
        _logged_ports.add(port)
        log.warning(message, *args)


def configure_direction(ser: serial.SerialBase) -> DirectionMode:
    """Set up transmitter direction control on ``ser``; never raises for a missing feature."""
    name = str(getattr(ser, "port", "") or ser.name)
    if not isinstance(ser, serial.Serial):
        return "none"  # loop:// and other virtual ports have no driver line
    try:
        ser.rs485_mode = serial.rs485.RS485Settings(rts_level_for_tx=True, rts_level_for_rx=False)
        return "kernel"
    except (ValueError, OSError, NotImplementedError) as exc:
        ser._rs485_mode = None  # the setter stored it before failing; forget it
        kernel_error = exc
    try:
        ser.rts = False  # receive
    except (ValueError, OSError, serial.SerialException) as exc:
        _log_once(name, "%s: no kernel RS-485 mode (%s) and RTS cannot be set (%s): assuming "
                  "an auto-direction transceiver", name, kernel_error, exc)
        return "none"
    _log_once(name, "%s: no kernel RS-485 mode (%s): toggling RTS in software, which can "
              "clip the first byte of a reply on a slow system", name, kernel_error)
    return "rts-toggle"


class Rs485Master:
    """Polls node addresses in turn on one half-duplex port and feeds the session."""

    def __init__(
        self,
        ser: serial.SerialBase,
        addresses: Sequence[int],
        session: BusSession,
        *,
        response_window_s: float = 0.05,
        quiet_gap_s: float = 0.005,
        max_reply_s: float = 0.5,
        port_label: str = "",
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if not addresses or any(not 1 <= a <= 255 for a in addresses):
            raise ValueError(f"addresses: need node addresses 1..255, got {list(addresses)}")
        self.ser = ser
        self.addresses = tuple(addresses)
        self.session = session
        self.response_window_s = response_window_s
        self.quiet_gap_s = quiet_gap_s
        # A reply longer than this is an overrun (counted); the master then waits for the
        # line to go quiet, at most as long again, and polls on.
        self.max_reply_s = max_reply_s
        self._now = monotonic
        self.overruns = 0
        self.port_label = port_label or str(ser.name)
        self.direction: DirectionMode = configure_direction(ser)
        self.decoder = HostFrameDecoder()
        self.polls = 0
        self.timeouts = 0
        self._errors_seen = 0
        self._seq = 0
        self._outbox: queue.SimpleQueue[tuple[int, int, bytes]] = queue.SimpleQueue()
        self.ser.timeout = 0.002

    # -- one exchange ------------------------------------------------------------------

    def send(self, node: int, msg_type: int, payload: bytes = b"") -> None:
        """Write one frame and wait until it has left the UART (tcdrain).

        Only the polling thread may call this (see queue_command).
        """
        # A leading 0x00 ends whatever noise the nodes' decoders hold (a babbling node, a
        # collision), so the frame is never glued to garbage and lost.
        frame = b"\x00" + wire.encode_frame(node, msg_type, self._seq, payload)
        self._seq = (self._seq + 1) & 0xFFFF
        # tcdrain (flush) on a port unplugged mid-frame raises termios.error (EIO): that is
        # a lost port for the supervisor to reopen, not an error that ends its thread.
        try:
            if self.direction == "rts-toggle":
                self.ser.rts = True
                self.ser.write(frame)
                self.ser.flush()  # tcdrain: the last stop bit has left before we release the bus
                self.ser.rts = False
            else:
                self.ser.write(frame)
                self.ser.flush()  # the response window starts once the frame is on the wire
        except termios.error as exc:
            raise serial.SerialException(f"{self.port_label}: {exc}") from exc

    def poll(self, node: int) -> int:
        """Poll one node and collect its answer; returns how many frames it sent (0 = silent).

        The window waits ``response_window_s`` for the first byte; once bytes come it
        stays open until ``quiet_gap_s`` passes without a byte (not merely after the last
        whole frame: a frame still on the wire keeps it open). A reply longer than
        ``max_reply_s`` is an overrun; the window then still waits for quiet, but never
        longer than twice that. An ACK of the POLL itself is a node's whole answer (it has nothing
        queued) and closes the window at once. Commands the session answers with are sent
        after it closes.
        """
        poll_seq = self._seq
        self.send(node, wire.MSG_POLL)
        self.polls += 1
        heard = 0
        start = self._now()
        last_byte_at: float | None = None
        replies: list[tuple[int, int, bytes]] = []
        overrun = False
        while True:
            now = self._now()
            if now - start >= self.max_reply_s and not overrun:
                overrun = True  # a node that does not stop: still wait for quiet, bounded
                self.overruns += 1
            if now - start >= 2 * self.max_reply_s:
                break
            if last_byte_at is None:
                if now - start >= self.response_window_s:
                    break
            elif now - last_byte_at >= self.quiet_gap_s:
                break
            data = self.ser.read(self.ser.in_waiting or 1)
            if not data:
                continue
            last_byte_at = self._now()
            frames = self.decoder.feed(data)
            total = self.decoder.errors()
            new_errors, self._errors_seen = total - self._errors_seen, total
            mine = [f for f in frames if f[0] == node and f[1] != wire.MSG_POLL]
            if frames or new_errors:
                replies += self.session.deliver(mine, new_errors, self.port_label)
            heard += len(mine)
            if any(f[1] == wire.MSG_ACK and f[3] == wire.pack_ack(poll_seq) for f in mine):
                break  # "nothing queued": the node's whole answer is this one ACK
        if heard == 0:
            self.timeouts += 1
        for cmd_node, msg_type, payload in replies:
            self.send(cmd_node, msg_type, payload)
        return heard

    def queue_command(self, node: int, msg_type: int, payload: bytes = b"") -> None:
        """Thread-safe: only the polling thread writes, so commands wait for the next cycle."""
        self._outbox.put((node, msg_type, payload))

    def poll_cycle(self) -> dict[int, int]:
        """Send queued commands, then poll every address once; returns frames per address."""
        while True:
            try:
                node, msg_type, payload = self._outbox.get_nowait()
            except queue.Empty:
                break
            self.send(node, msg_type, payload)
        heard = {node: self.poll(node) for node in self.addresses}
        self.session.tick()
        return heard

    def run_until(self, stop: threading.Event) -> None:
        """Poll until ``stop`` is set; raises ``SerialException`` if the port fails."""
        while not stop.is_set():
            self.poll_cycle()


class Rs485Supervisor:
    """Keeps one RS-485 bus polled: opens the port, polls, and reopens after an unplug.

    The same capped backoff as :class:`~hardware.transport.PortSupervisor`; the master
    (and its sequence number, decoder state) is rebuilt for every connection.
    """

    def __init__(
        self,
        url: str,
        addresses: Sequence[int],
        session: BusSession,
        *,
        baudrate: int = 115_200,
        response_window_s: float = 0.05,
        backoff_initial_s: float = 0.05,
        backoff_max_s: float = 2.0,
    ) -> None:
        self.url = url
        self.addresses = tuple(addresses)
        self.session = session
        self.baudrate = baudrate
        self.response_window_s = response_window_s
        self.backoff_initial_s = backoff_initial_s
        self.backoff_max_s = backoff_max_s
        self.master: Rs485Master | None = None
        self.connections = 0
        self.failed_opens = 0
        self._missing_alerted = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"rs485 {self.url}", daemon=True)
        self._thread.start()

    @property
    def thread(self) -> threading.Thread | None:
        """The polling thread (None before ``start``); it lives until ``stop``."""
        return self._thread

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

    def send(self, node: int, msg_type: int, payload: bytes = b"") -> bool:
        """Queue a command for the poller to send (False while the bus is not open)."""
        master = self.master
        if master is None:
            return False
        master.queue_command(node, msg_type, payload)
        return True

    def _run(self) -> None:
        backoff = self.backoff_initial_s
        while not self._stop.is_set():
            try:
                port = open_port(self.url, self.baudrate)
            except (serial.SerialException, OSError, ValueError) as exc:
                self.failed_opens += 1
                if self.failed_opens == 1:
                    log.warning("cannot open RS-485 bus %s (%s); retrying", self.url, exc)
                if not self._missing_alerted:
                    self._missing_alerted = True
                    self.session.alert("port_missing", port_missing_text(self.url, exc))
                self._stop.wait(backoff)
                backoff = min(backoff * 2, self.backoff_max_s)
                continue
            backoff = self.backoff_initial_s
            self._missing_alerted = False  # a later outage alerts the room again
            try:
                self.master = Rs485Master(port, self.addresses, self.session,
                                          response_window_s=self.response_window_s,
                                          port_label=self.url)
                self.connections += 1
                self.master.run_until(self._stop)
            except (serial.SerialException, OSError) as exc:
                log.warning("RS-485 bus %s lost: %s", self.url, exc)
            finally:
                self.master = None
                with contextlib.suppress(serial.SerialException, OSError):
                    port.close()
