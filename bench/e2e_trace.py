"""Where a chip's e2e time goes inside ``pokertable run``: the e2e rig, with the controller
stamping the monotonic clock at each step of the path.

    python -m pokertable.bench.e2e_trace [--samples 300] [--hands 20] [--python PATH] [--by-kind]

The rig is bench/e2e_figures.py's (the same node on a pty, broker and subscriber); only the
child differs: ``python -m pokertable.bench.e2e_trace --child run --config ...`` wraps the
functions below before it runs the real ``pokertable run``. The clock is
``perf_counter_ns`` (CLOCK_MONOTONIC on Linux, one clock for both processes). For every
timed frame the first stamp of each step between the frame's last byte and the message at
the subscriber is kept; the output is the median and p90 of each step, in ms from the last
byte. The wrappers cost a few microseconds each: compare traces with each other (``main``
and a branch alternately), never with ``pokertable bench``'s figures. ``--python`` runs
the controller with another checkout's interpreter (this file is handed to it as a
script, so that checkout needs no copy of it): ``--python ../main/.venv/bin/python``.
``--by-kind`` gives the hands' dealt cards and call chips apart as well: four frames of
five are cards, so the hands' median is a card's, whatever a chip costs.
"""

from __future__ import annotations

import argparse
import atexit
import bisect
import functools
import importlib
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_OUT = "POKERTABLE_E2E_TRACE"  # where the child writes its stamps
# (module, class or "" for a module function, function, step name, stamp on entry?)
STEPS = (
    ("pokertable.hardware.transport", "NodeLink", "data_received", "reader has the bytes", True),
    ("pokertable.firmware.wire", "FrameDecoder", "feed", "frame decoded", False),
    ("pokertable.hardware.frames", "HostFrameDecoder", "feed", "frame decoded", False),
    ("pokertable.hardware.interpreter", "BusInterpreter", "on_frame", "interpreted", False),
    ("pokertable.controller.app.table_app", "TableApp", "process", "session input", True),
    ("pokertable.controller.app.journal", "", "encode_record", "journal line encoded", False),
    ("pokertable.controller.app.journal", "Journal", "append", "journal line written", False),
    ("pokertable.controller.app.table_app", "", "apply", "session answered", False),
    ("pokertable.controller.app.table_app", "", "table_state", "state built", False),
    ("pokertable.mqtt.patched_json", "", "dumps", "first message encoded", False),
    ("pokertable.mqtt.patched_json", "PatchedEncoder", "encode", "first message encoded", False),
    # paho's own write (``loop_write``) or the first one of ``publish_quiet``
    ("pokertable.mqtt.paho_client", "DirectWriteClient", "_sock_send", "socket write begins", True),
    ("pokertable.mqtt.outbox", "Outbox", "_insert", "outbox row written", False),
)


def _install(log: list[tuple[str, int]]) -> None:
    """Wrap each step's function so it stamps the clock (on entry or on return)."""
    now = time.perf_counter_ns
    for module_name, owner_name, name, step, on_entry in STEPS:
        try:  # a checkout traced with ``--python`` may not have every step
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            module = None
        owner: Any = getattr(module, owner_name, None) if owner_name else module
        original = getattr(owner, name, None)
        if original is None:
            print(f"e2e_trace: {module_name}.{owner_name or ''}.{name} is gone", file=sys.stderr)
            continue

        def stamped(*args: Any, _f: Callable[..., Any] = original, _step: str = step,
                    _entry: bool = on_entry, **kwargs: Any) -> Any:
            if _entry:
                log.append((_step, now()))
                return _f(*args, **kwargs)
            try:
                return _f(*args, **kwargs)
            finally:
                log.append((_step, now()))

        setattr(owner, name, functools.wraps(original)(stamped))


def _child(argv: list[str]) -> int:
    """``pokertable run`` (``argv``: ``run --config FILE``), traced."""
    from pokertable.controller.app import runtime

    log: list[tuple[str, int]] = []
    _install(log)
    atexit.register(lambda: Path(os.environ[_OUT]).write_text(json.dumps(log)))
    parser = argparse.ArgumentParser(prog="pokertable run")
    runtime.add_arguments(parser)
    return runtime.run(parser.parse_args(argv[1:]))


def trace(
    samples: int, hands: int, python: str = sys.executable, by_kind: bool = False
) -> dict[str, dict[str, list[float]]]:
    """Run the rig once (an idle round, then hands); per situation, step -> ms per frame.
    ``by_kind``: also "hands, cards" and "hands, chips" (the frame's zone) apart."""
    from pokertable.bench import e2e_figures as rig
    from pokertable.mqtt.mosquitto import MosquittoProcess

    sends: list[tuple[str, int, int]] = []  # (situation, last byte, first message)
    situation = ["idle"]

    class Traced(rig._Table):
        def timed(self, zone: str) -> float | None:
            self.sub.arm()
            sent = self.node.snapshot(zone)
            first = self.sub.wait_first(rig._WAIT_S)
            self._heard(first, f"a snapshot of {zone}")
            self.sub.wait_quiet()
            sends.append((situation[0], sent, first))
            if by_kind and situation[0] == "hands":
                kind = "chips" if zone.endswith(".bet") else "cards"
                sends.append((f"hands, {kind}", sent, first))
            return None if first == 0 else (first - sent) / 1e6

    with tempfile.TemporaryDirectory(prefix="pokertable-e2e-trace-") as tmp:
        out = Path(tmp) / "stamps.json"
        os.environ[_OUT] = str(out)
        child = [python, str(Path(__file__).resolve()), "--child"]
        with MosquittoProcess.from_shipped(Path(tmp)) as broker:
            table = Traced(Path(tmp), broker.port, command=child)
            try:
                table.idle_round(samples)
                situation[0] = "hands"
                table.hand_round(hands)
            finally:
                table.close()
        stamps = sorted(json.loads(out.read_text()), key=lambda s: s[1])
    times = [t for _, t in stamps]
    found: dict[str, dict[str, list[float]]] = {"idle": {}, "hands": {}}
    for where, sent, first in sends:
        if not first:
            continue
        steps = found.setdefault(where, {})
        seen: set[str] = set()
        for step, at in stamps[bisect.bisect_left(times, sent) : bisect.bisect_left(times, first)]:
            if step not in seen:
                seen.add(step)
                steps.setdefault(step, []).append((at - sent) / 1e6)
        steps.setdefault("subscriber has it", []).append((first - sent) / 1e6)
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--child"]:
        return _child(args[1:])
    parser = argparse.ArgumentParser(prog="python -m pokertable.bench.e2e_trace",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--samples", type=int, default=300, help="idle chip motions")
    parser.add_argument("--hands", type=int, default=20, help="hands (5 timed frames each)")
    parser.add_argument("--python", default=sys.executable,
                        help="the interpreter of the checkout whose controller is traced")
    parser.add_argument("--by-kind", action="store_true",
                        help="the hands' dealt cards and call chips apart as well")
    parsed = parser.parse_args(args)
    found = trace(parsed.samples, parsed.hands, parsed.python, parsed.by_kind)
    for where, steps in found.items():
        frames = len(steps.get("subscriber has it", []))
        print(f"{where}: {frames} frames; ms from the frame's last byte (median, p90, frames)")
        for step, ms in sorted(steps.items(), key=lambda kv: statistics.median(kv[1])):
            ms.sort()
            p90 = ms[min(len(ms) - 1, int(len(ms) * 0.9))]
            print(f"  {step:24s} {statistics.median(ms):6.3f} {p90:7.3f} {len(ms):5d}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
