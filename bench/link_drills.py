"""Reader-link drills (issue #12): fuzzed frames, line noise during scripted hands, convergence.

Each drill returns plain figures (a dict) so the drills runner (bench/drills.py) can print
them and the reliability tests can run the same code at small size::

    fuzz_frames(1_000_000)        # {"frames": ..., "false_accepts": 0, "crashes": 0, ...}
    noise_hands(20, noise=0.01)   # every hand as without noise, or an alert to act on
    convergence(100, noise=0.01)  # time from "noise stops" to "the view equals the felt"

``run_all(full=True)`` runs the three at full size. The frame fuzz is
``bench/frame_fuzz.py``; it also runs the same mutations against protocol 1 (the peer it
replaced), so the figure shows what the new format buys.
"""

from __future__ import annotations

import math
import random
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokertable.bench.frame_fuzz import Figures, fuzz_frames
from pokertable.firmware import wire
from pokertable.hardware.registry import TagRegistry

# -- 2. line noise on the simulated table -------------------------------------------------


class LineNoise:
    """Corrupts (bit flip) or drops each byte with probability ``rate`` (half each).

    Installed as ``PtyBridge.mangle``; ``on`` switches it without touching the bridge.
    """

    def __init__(self, rate: float, seed: int) -> None:
        self.rate = rate
        self.on = rate > 0
        self.touched = 0
        self._rng = random.Random(seed)
        self._lock = threading.Lock()
        # What the node itself said, read before the noise: the truth the Pi converges to.
        self._truth = wire.FrameDecoder()
        self.node_view: dict[str, frozenset[str]] = {}

    def _watch(self, data: bytes) -> None:
        from pokertable.hardware.zones import is_valid_zone, zone_kind

        for _node, msg_type, _seq, payload in self._truth.feed(data):
            if msg_type != wire.MSG_SNAPSHOT:
                continue
            zone, settled, uids = wire.unpack_snapshot(payload)
            if is_valid_zone(zone) and (settled or zone_kind(zone) != "chips"):
                self.node_view[zone] = frozenset(u.hex() for u in uids)

    def __call__(self, data: bytes, direction: str) -> bytes:
        if direction == "to_pi":
            self._watch(data)
        if not self.on:
            return data
        out = bytearray()
        with self._lock:
            rng = self._rng
            for b in data:
                r = rng.random()
                if r >= self.rate:
                    out.append(b)
                    continue
                self.touched += 1
                if r >= self.rate / 2:
                    out.append(b ^ (1 << rng.randrange(8)))  # else: dropped
        return bytes(out)


SEATS = (1, 2, 3)
# The demo's timing; refresh_ms stays at the node's default (1000).
_NODE_TIMING = {"present_after": 2, "absent_after": 2, "settle_ms": 80, "heartbeat_ms": 500}
# By position, every hand: the big blind's aces win; the button calls and folds the flop.
_HOLE = {"button": ("2c", "7d"), "small": ("Ks", "Kd"), "big": ("As", "Ad")}
_BURNS = ("3h", "5h", "6h")
_BOARD = (("4s", "9c", "Jd"), ("Qc",), ("8s",))


class DrillError(RuntimeError):
    """A step of the scripted hand never took effect at the table."""


@dataclass
class HandOutcome:
    completed: bool
    deltas: dict[str, int] = field(default_factory=dict)  # by position
    board: tuple[str, ...] = ()
    actions: int = 0
    alerts: list[str] = field(default_factory=list)
    stalled_at: str = ""
    seconds: float = 0.0


class _Table:
    """The simulated felt, the real firmware under MicroPython, the Pi runtime (no MQTT)."""

    def __init__(self, folder: Path, noise: float, seed: int, stall_s: float) -> None:
        from pokertable.controller.app.config import (
            AppConfig,
            LevelSection,
            PathSection,
            PlayerSection,
            ReaderSection,
            TableSection,
        )
        from pokertable.controller.app.runtime import TableRuntime
        from pokertable.hardware.simulator import NodeSpec, SyntheticTags, TableSimulator

        self.stall_s = stall_s
        self.registry = TagRegistry(folder / "registry.sqlite3")
        SyntheticTags.enroll(self.registry)
        seat_zones = tuple(f"seat{s}.{z}" for s in SEATS for z in ("bet", "cards"))
        self.sim = TableSimulator(
            self.registry,
            [NodeSpec(1, seat_zones), NodeSpec(2, ("board", "burn", "muck"))],
            node_config=_NODE_TIMING,
        )
        self.noise = [LineNoise(noise, seed * 7 + n) for n in sorted(self.sim.nodes)]
        for line, node_id in zip(self.noise, sorted(self.sim.nodes), strict=True):
            self.sim.nodes[node_id].bridge.mangle = line
        config = AppConfig(
            table=TableSection(venue="drill", id="t1", seats=10, first_button=1),
            levels=[LevelSection(number=1, small_blind=100, big_blind=200, chip_unit=25)],
            players=[PlayerSection(seat=s, name=f"p{s}", stack=20_000) for s in SEATS],
            registry=PathSection(path=str(folder / "registry.sqlite3")),
            journal=PathSection(path=str(folder / "journal.jsonl")),
            readers=[ReaderSection(port=self.sim.port_of(n)) for n in sorted(self.sim.nodes)],
        )
        self.runtime = TableRuntime(config, publisher_factory=lambda _sid: None,
                                    registry=self.registry)
        self.alerts: list[str] = []
        self.app = self.runtime.start()
        self.app.on_output = self._outputs
        for bus in self.runtime.buses:
            for supervisor in bus.supervisors.values():
                if not supervisor.wait_connected(timeout=stall_s):
                    raise DrillError(f"port {supervisor.url} never opened")

    def _outputs(self, _session: Any, outputs: tuple[Any, ...]) -> None:
        for output in outputs:
            if output.channel != "event":
                continue
            rulings = output.payload.get("rulings", [])
            if any(r.get("kind") == "alert" for r in rulings):
                self.alerts.append(str(output.payload.get("kind")))

    def set_noise(self, on: bool) -> None:
        for line in self.noise:
            line.on = on and line.rate > 0

    def close(self) -> None:
        self.runtime.stop()
        self.sim.close()
        self.registry.close()

    def zone_view(self, zone: str) -> frozenset[str]:
        for bus in self.runtime.buses:
            view: frozenset[str] = bus.zone_view(zone)
            if view:
                return view
        return frozenset()

    def felt_matches(self) -> bool:
        return all(self.zone_view(z) == frozenset(uids) for z, uids in self.sim.on_felt.items())

    def nodes_match_felt(self) -> bool:
        """The nodes themselves have the felt (their debounce is done), whatever the Pi has."""
        said: dict[str, frozenset[str]] = {}
        for line in self.noise:
            said.update(line.node_view)
        return all(said.get(z, frozenset()) == frozenset(u) for z, u in self.sim.on_felt.items())

    def wait(self, predicate: Callable[[Any], bool], what: str) -> Any:
        """Wait on the table's own state (a condition), with a stall limit that names it."""
        deadline = time.monotonic() + self.stall_s
        while True:
            session = self.app.snapshot()
            if predicate(session):
                return session
            if time.monotonic() > deadline:
                raise DrillError(what)
            time.sleep(0.01)


class _Dealer:
    """Plays one fixed hand by position; waits for each step to show at the table."""

    def __init__(self, table: _Table) -> None:
        self.t = table

    def press(self, button: str, seat: int | None = None) -> None:
        from pokertable.controller.app.table_app import wall_ms
        from pokertable.controller.table.inputs import ConsolePress

        self.t.app.submit(ConsolePress(button, wall_ms(), lit_seat=seat))

    def push(self, seat: int, amount: int) -> None:
        from pokertable.hardware.simulator import PushChips

        chips = [500] * (amount // 500) + [100] * (amount % 500 // 100)
        self.t.sim.perform(PushChips(f"seat{seat}.bet", tuple(chips)))

    def deal(self, zone: str, card: str) -> None:
        from pokertable.hardware.simulator import DealCard

        self.t.sim.perform(DealCard(zone, card))

    def act(self, seat: int, chips: int = 0, button: str = "") -> None:
        """As a dealer does: wait for the seat's action LED, then chips or a button."""
        self.t.wait(lambda s: s.hand is not None and s.hand.action_on == seat,
                    f"the action to reach seat {seat}")
        hand = self.t.app.snapshot().hand
        assert hand is not None  # the wait above saw it
        before = len(hand.actions)
        if chips:
            self.push(seat, chips)
        else:
            self.press(button, seat)
        self.t.wait(lambda s: s.hand is not None and len(s.hand.actions) > before,
                    f"seat {seat}'s {'chips' if chips else button} to take effect")

    def collect(self) -> None:
        from pokertable.hardware.simulator import ClearZone

        zones = [f"seat{s}.bet" for s in SEATS]
        for zone in zones:
            if self.t.sim.on_felt[zone]:
                self.t.sim.perform(ClearZone(zone))
        self.t.wait(lambda s: all(not c for _, c in s.bet_zones)
                    and not any(self.t.zone_view(z) for z in zones), "the bets to be collected")

    def street(self, number: int) -> None:
        self.deal("burn", _BURNS[number])
        for card in _BOARD[number]:
            self.deal("board", card)
        self.t.wait(lambda s: s.hand is not None and int(s.hand.street) > number,
                    f"street {number + 1} to be read")

    def play(self) -> HandOutcome:
        from pokertable.controller.engine.model import Phase
        from pokertable.hardware.simulator import ClearZone

        started = time.monotonic()
        alerts_before = len(self.t.alerts)
        stacks_before = {s.seat: s.stack for s in self.t.app.snapshot().table.seats}
        number = self.t.app.snapshot().hand_number
        outcome = HandOutcome(completed=False)
        step = "hand start"
        try:
            self.press("hand_start")
            hand = self.t.wait(lambda s: s.hand_number == number + 1 and s.hand is not None,
                               "the hand to start").hand
            pos = {"button": hand.button, "small": hand.small_blind_seat,
                   "big": hand.big_blind_seat}
            btn, sb, bb = pos["button"], pos["small"], pos["big"]
            step = "blinds"
            self.push(sb, 100)
            self.push(bb, 200)
            self.t.wait(lambda s: sum(c.denomination for c in s.zone(sb)) == 100
                        and sum(c.denomination for c in s.zone(bb)) == 200, "the blinds")
            step = "hole cards"
            for k in range(2):
                for name in ("small", "big", "button"):
                    self.deal(f"seat{pos[name]}.cards", _HOLE[name][k])
            self.t.wait(lambda s: s.hand is not None and all(len(x.hole) == 2
                                                             for x in s.hand.seats),
                        "the hole cards to be read")
            step = "preflop"
            self.act(btn, chips=200)
            self.act(sb, chips=100)
            self.act(bb, button="check_call")
            self.collect()
            step = "flop"
            self.street(0)
            self.act(sb, button="check_call")
            self.act(bb, chips=400)
            self.act(btn, button="fold")
            self.act(sb, chips=400)
            self.collect()
            for street in (1, 2):
                step = ("turn", "river")[street - 1]
                self.street(street)
                self.act(sb, button="check_call")
                self.act(bb, button="check_call")
            step = "showdown"
            self.t.wait(lambda s: s.hand is not None and s.hand.phase is Phase.SHOWDOWN,
                        "the showdown")
            self.press("confirm")
            session = self.t.wait(lambda s: s.hand is not None
                                  and s.hand.phase is Phase.COMPLETE, "the pot to be awarded")
            step = "clear-up"
            for zone in list(self.t.sim.on_felt):
                if self.t.sim.on_felt[zone]:
                    self.t.sim.perform(ClearZone(zone))
            self.t.wait(lambda _s: not any(self.t.zone_view(z) for z in self.t.sim.on_felt),
                        "the readers to see every pad empty")
            outcome.completed = True
            stacks = {s.seat: s.stack for s in session.table.seats}
            outcome.deltas = {name: stacks[seat] - stacks_before[seat]
                              for name, seat in pos.items() if seat is not None}
            outcome.board = tuple(session.hand.board)
            outcome.actions = len(session.hand.actions)
        except DrillError as exc:
            outcome.stalled_at = f"{step}: {exc}"
        outcome.alerts = self.t.alerts[alerts_before:]
        outcome.seconds = round(time.monotonic() - started, 2)
        return outcome


# Alerts that tell the dealer to act (the hand is not silently wrong when one is raised).
DEALER_ALERTS = frozenset({"press_wrong_seat", "node_down", "node_stale", "port_missing"})


def noise_hands(hands: int = 20, noise: float = 0.01, seed: int = 1,
                stall_s: float = 30.0) -> Figures:
    """A noise-free reference hand, then ``hands`` hands at ``noise`` on both directions.

    A hand is "same" when it completes with the reference's stack changes (by position),
    board and action count; "alerted" when it did not but the dealer was told to act;
    "silent_wrong" otherwise (must be 0).
    """
    with tempfile.TemporaryDirectory(prefix="pokertable-drill-") as folder:
        table = _Table(Path(folder), noise, seed, stall_s)
        try:
            table.set_noise(False)
            reference = _Dealer(table).play()
            if not reference.completed:
                raise DrillError(f"the reference hand without noise failed: "
                                 f"{reference.stalled_at}")
            table.set_noise(True)
            outcomes = [_Dealer(table).play() for _ in range(hands)]
            table.set_noise(False)
            touched = sum(line.touched for line in table.noise)
        finally:
            table.close()
    same = [o for o in outcomes if o.completed and (o.deltas, o.board, o.actions)
            == (reference.deltas, reference.board, reference.actions)]
    alerted = [o for o in outcomes if o not in same and set(o.alerts) & DEALER_ALERTS]
    return {
        "hands": hands,
        "noise": noise,
        "same_as_without_noise": len(same),
        "alerted": len(alerted),
        "silent_wrong": hands - len(same) - len(alerted),
        "bytes_corrupted_or_dropped": touched,
        "hand_seconds_median": statistics.median(o.seconds for o in outcomes) if outcomes else 0,
        "reference_seconds": reference.seconds,
        "failures": [o.stalled_at or f"deltas {o.deltas} board {o.board}"
                     for o in outcomes if o not in same],
    }


def convergence(trials: int = 100, noise: float = 0.01, seed: int = 2,
                noise_ms: int = 1_500, stall_s: float = 20.0) -> Figures:
    """Noise on while the felt changes and then lies still; noise off; time until the
    Pi's view of every zone equals the felt, counted from the later of "noise stopped"
    and "the nodes have the felt" (read from their clean output before the noise), so
    the figure is the link's and not the readers' debounce. The same with 0 noise,
    interleaved, is the baseline."""
    from pokertable.hardware.simulator import ClearZone, DealCard, PushChips

    rng = random.Random(seed)
    times: dict[str, list[float]] = {"noise": [], "baseline": []}
    when_wrong: list[float] = []
    wrong_at_stop = 0
    converged = 0
    with tempfile.TemporaryDirectory(prefix="pokertable-converge-") as folder:
        table = _Table(Path(folder), noise, seed, stall_s)
        try:
            deck = ["As", "Kd", "Qh", "Jc", "Ts", "9d"]
            dealt: dict[str, str] = {}  # card -> zone
            for trial in range(trials * 2):
                kind = "noise" if trial % 2 == 0 else "baseline"
                table.set_noise(kind == "noise")
                for zone in list(table.sim.on_felt):
                    if table.sim.on_felt[zone] and rng.random() < 0.5:
                        table.sim.perform(ClearZone(zone))
                        dealt = {c: z for c, z in dealt.items() if z != zone}
                for _ in range(3):
                    seat = rng.choice(SEATS)
                    free = [c for c in deck if c not in dealt]
                    if rng.random() < 0.6 or not free:
                        chips = (100,) * rng.randrange(1, 4)
                        table.sim.perform(PushChips(f"seat{seat}.bet", chips))
                    else:
                        card = rng.choice(free)
                        dealt[card] = f"seat{seat}.cards"
                        table.sim.perform(DealCard(dealt[card], card))
                time.sleep(noise_ms / 1000)  # the drill's noise period (the felt lies still)
                table.set_noise(False)
                stopped = time.monotonic()
                wrong = not table.felt_matches()
                deadline = stopped + stall_s
                # The node's own debounce is not the link's doing: start the clock at the
                # later of "noise stopped" and "the node has the felt".
                while not table.nodes_match_felt() and time.monotonic() < deadline:
                    time.sleep(0.002)
                start = max(stopped, time.monotonic())
                while not table.felt_matches():
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.002)
                else:
                    converged += kind == "noise"
                times[kind].append(time.monotonic() - start)
                if kind == "noise" and wrong:
                    wrong_at_stop += 1
                    when_wrong.append(times[kind][-1])
        finally:
            table.close()

    def p(values: list[float], q: float) -> float:
        """Nearest-rank percentile, in ms."""
        ordered = sorted(values) or [0.0]
        return round(ordered[max(0, math.ceil(q * len(ordered)) - 1)] * 1000, 1)

    return {
        "trials": trials,
        "noise": noise,
        "converged": converged,
        "wrong_when_noise_stopped": wrong_at_stop,
        "p99_ms_when_wrong": p(when_wrong, 0.99),
        "p50_ms": p(times["noise"], 0.5),
        "p99_ms": p(times["noise"], 0.99),
        "max_ms": p(times["noise"], 1.0),
        "baseline_p50_ms": p(times["baseline"], 0.5),
        "baseline_p99_ms": p(times["baseline"], 0.99),
        "spread_ms": round(statistics.pstdev(times["noise"]) * 1000, 1),
    }


def run_all(full: bool = True) -> dict[str, Figures]:
    """The callable for bench/drills.py: every link drill, full size or smoke size."""
    if full:
        return {
            "mutated_frames": fuzz_frames(1_000_000),
            "noise_hands": noise_hands(20, 0.01),
            "convergence": convergence(100, 0.01),
        }
    return {
        "mutated_frames": fuzz_frames(20_000),
        "noise_hands": noise_hands(1, 0.01),
        "convergence": convergence(5, 0.01),
    }


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run_all(full="--small" not in sys.argv), indent=2))
