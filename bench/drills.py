"""Reliability drills at full size (issue #12): hostile MQTT, damaged files, kill -9.

    python -m pokertable.bench.drills                 # full size (about 20-40 min on a Pi 4)
    python -m pokertable.bench.drills --small         # the sizes the test suite runs
    pokertable bench --only drills                    # the same, from the bench runner

Each drill runs the real thing: mosquitto with the shipped config and ACL, the real
``pokertable run`` process, simulated reader nodes running the firmware under the
MicroPython unix port. The kill -9 drill reuses the crash drill's script and rig
(tests/app/), so it runs from a source checkout. The figures are counts, not timings: a
drill passes when every "bad" count is 0. docs/reliability.md has the figures of one run.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

Figures = dict[str, dict[str, Any]]
PREFIX = "pokertable/v1/club/t9"


def _rig_modules() -> tuple[Any, Any]:
    """The end-to-end rig and the crash drill's script, imported when a drill runs."""
    return (importlib.import_module("pokertable.bench.table_rig"),
            importlib.import_module("pokertable.bench.crash_script"))


def _wait(condition: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise RuntimeError(f"drill stalled: {what}")


# --- hostile MQTT ----------------------------------------------------------------------------


def _hostile_payloads(rng: random.Random, count: int) -> list[tuple[str, bytes]]:
    """(topic leaf, payload): nested, oversized, broken and schema-breaking messages."""
    makers: list[Callable[[], tuple[str, bytes]]] = [
        lambda: ("cmd/rebirth", b"[" * rng.randint(1_000, 65_000)),
        lambda: ("cmd/rebirth", b'{"a":' * rng.randint(1_000, 13_000)),
        lambda: ("cmd/rebirth", b'{"command":"rebirth","request_id":"x","pad":"'
                 + b"x" * rng.randint(65_537, 200_000) + b'"}'),
        lambda: ("cmd/rebirth", b"x" * rng.randint(262_145, 600_000)),  # the broker drops it
        lambda: ("cmd/rebirth", bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 300)))),
        lambda: ("cmd/rebirth", b"\xff\xfe" + b"{}"),
        lambda: ("cmd/rebirth", json.dumps({"command": "rebirth", "request_id": 7}).encode()),
        lambda: ("cmd/rebirth", b"[]"),
        lambda: ("cmd/rebirth", b'{"command":"rebirth","request_id":"' + b"r" * 70 + b'"}'),
    ]
    return [rng.choice(makers)() for _ in range(count)]


def hostile_mqtt(workdir: Path, messages: int, duplicates: int, takeovers: int,
                 seed: int = 12) -> Figures:
    """Throw ``messages`` hostile payloads, repeat ``duplicates`` commands, try takeovers."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    rig_mod, _ = _rig_modules()
    rng = random.Random(seed)
    rig = rig_mod.TableRig(workdir, [(1, "Ann", 5000), (2, "Bob", 5000)], first_button=2)
    figures: Figures = {}
    try:
        rig.start_controller()
        _wait(lambda: any(s["state"] == "online" for s in rig.overlay.on("/status")), "online")
        pid = rig.process.pid

        def client(user: str, client_id: str) -> Any:
            c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id)
            c.username_pw_set(user, rig_mod.USERS[user])
            c.connect("127.0.0.1", rig.broker.port)
            c.loop_start()
            _wait(c.is_connected, f"{user} to connect")
            return c

        def answered(request_id: str) -> int:
            return sum(1 for r in rig.director.on("/reply") if r["request_id"] == request_id)

        def alive_probe(tag: str) -> bool:
            rig.director.publish(f"{PREFIX}/cmd/director",
                                 {"command": "pause", "request_id": f"{tag}-p"})
            rig.director.publish(f"{PREFIX}/cmd/director",
                                 {"command": "resume", "request_id": f"{tag}-r"})
            _wait(lambda: answered(f"{tag}-r"), f"the probe {tag}")
            return True

        # 1. hostile payloads from a public login (what Found 1 used).
        attacker = client("overlay-secure", "drill-hostile")
        payloads = _hostile_payloads(rng, messages)
        for n, (leaf, payload) in enumerate(payloads):
            if not attacker.is_connected():  # over max_packet_size: the broker cut it off
                attacker.loop_stop()
                attacker = client("overlay-secure", f"drill-hostile-{n}")
            attacker.publish(f"{PREFIX}/{leaf}", payload, qos=1)
        attacker.publish(f"{PREFIX}/cmd/rebirth",
                         b'{"command":"rebirth","request_id":"hostile-end"}', qos=1)
        _wait(lambda: answered("hostile-end"), "the last hostile message's answer", 600)
        attacker.loop_stop()
        attacker.disconnect()
        figures["drill_hostile_payloads"] = {
            "sent": messages,
            "table_still_running": rig.process.poll() is None and alive_probe("hostile"),
            "same_process": rig.process.pid == pid,
            "refusals_answered": sum(1 for r in rig.director.on("/reply") if not r["ok"]),
            "tracebacks_in_log": rig.log().count("Traceback"),
        }

        # 2. duplicates: each command sent 3 times (a retry and a redelivery).
        for n in range(duplicates):
            command = "pause" if n % 2 == 0 else "resume"
            for _ in range(3):
                rig.director.publish(f"{PREFIX}/cmd/director",
                                     {"command": command, "request_id": f"dup-{n}"})
        _wait(lambda: answered(f"dup-{duplicates - 1}") >= 3, "the duplicates' answers", 600)
        journaled: dict[str, int] = {}
        for line in (workdir / "journal.jsonl").read_bytes().splitlines():
            record = json.loads(line.rpartition(b"\t")[0] or line)
            if record.get("kind") == "command":
                journaled[record["request_id"]] = journaled.get(record["request_id"], 0) + 1
        acted = [journaled.get(f"dup-{n}", 0) for n in range(duplicates)]
        figures["drill_duplicate_commands"] = {
            "commands": duplicates,
            "copies_sent": 3 * duplicates,
            "acted_twice": sum(1 for a in acted if a > 1),
            "never_acted": sum(1 for a in acted if a == 0),
            "answers": sum(answered(f"dup-{n}") for n in range(duplicates)),
        }

        # 3. takeover: the public overlay login borrows the table's client id.
        observer = rig_mod.Watcher(rig.broker.port, "overlay-secure", (f"{PREFIX}/status",))
        rig.overlay.stop()
        for _ in range(takeovers):
            impostor = client("overlay", rng.choice([rig_mod.TABLE_LOGIN, "pokertable-club-t9"]))
            impostor.loop_stop()
            impostor.disconnect()
        rig.overlay = rig_mod.Watcher(rig.broker.port, "overlay",
                                      (f"{PREFIX}/state", f"{PREFIX}/events", f"{PREFIX}/status"))
        figures["drill_takeover"] = {
            "attempts": takeovers,
            "table_still_running": alive_probe("takeover"),
            "table_disconnected": sum(1 for s in observer.on("/status") if s["state"] != "online"),
        }
        observer.stop()

        # 4. another table's login publishes into this table's tree and reads its commands.
        heard: list[str] = []
        other = client("club/t8", "drill-other")
        other.on_message = lambda c, u, m: heard.append(m.topic)
        other.subscribe([(f"{PREFIX}/cmd/#", 1), ("pokertable/v1/#", 1)])
        forged = json.dumps({"session": "forged", "seq": 10**9}).encode()
        leaves = ("state", "status", "events", "reply", "secure/hole_cards/1")
        for leaf in leaves:
            other.publish(f"{PREFIX}/{leaf}", forged, qos=1, retain=True)
        alive_probe("cross")
        other.loop_stop()
        other.disconnect()
        arrived = [p for p in rig.overlay.on("/state") + rig.overlay.on("/status")
                   if p.get("session") == "forged"]
        figures["drill_cross_table"] = {
            "forged_publishes": len(leaves),
            "forged_arrived": len(arrived),
            "foreign_commands_read": sum(1 for t in heard if "/t9/cmd/" in t),
        }
    finally:
        rig.close()
    return figures


# --- damaged files ---------------------------------------------------------------------------


def journal_integrity(workdir: Path, mutations: int, seed: int = 8) -> Figures:
    """Mutate a real journal ``mutations`` times; count the damage that went unnoticed."""
    from pokertable.controller.app.journal import Journal, scan
    from pokertable.controller.table.inputs import ChipItem, ChipsMoved, ConsolePress, to_record

    rng = random.Random(seed)
    path = workdir / "journal.jsonl"
    journal = Journal(path, fsync=False)
    journal.append(to_record(ConsolePress("hand_start", 1)))
    for n in range(400):
        chips = tuple(ChipItem(rng.choice((25, 100, 500, 1000)), "value", f"e004{n:012x}")
                      for _ in range(rng.randint(1, 4)))
        journal.append(to_record(ChipsMoved(f"seat{n % 9 + 1}.bet", n % 9 + 1, chips, (), n)))
    journal.close()
    good = path.read_bytes()
    lines = good.split(b"\n")[:-1]
    kinds = {"digit": 0, "byte": 0, "delete_line": 0, "swap_lines": 0, "duplicate_line": 0}
    undetected = {k: 0 for k in kinds}
    for _ in range(mutations):
        kind = rng.choice(list(kinds))
        kinds[kind] += 1
        mutated = list(lines)
        i = rng.randrange(1, len(lines) - 1)
        if kind == "digit":
            line = mutated[i]
            digits = [k for k, b in enumerate(line) if 48 <= b <= 57]
            k = rng.choice(digits)
            new = (line[k] - 48 + rng.randint(1, 9)) % 10 + 48
            mutated[i] = line[:k] + bytes([new]) + line[k + 1:]
        elif kind == "byte":
            line = mutated[i]
            k = rng.randrange(len(line))
            mutated[i] = line[:k] + bytes([line[k] ^ rng.randint(1, 255)]) + line[k + 1:]
            if b"\n" in mutated[i] or not mutated[i].strip():
                kinds[kind] -= 1  # a new line break or blank: a different drill
                continue
        elif kind == "delete_line":
            del mutated[i]
        elif kind == "swap_lines":
            mutated[i], mutated[i + 1] = mutated[i + 1], mutated[i]
        else:
            mutated.insert(i, mutated[i])
        found = scan(b"\n".join(mutated) + b"\n")
        if found.problem is None:
            undetected[kind] += 1
    return {
        "drill_journal_integrity": {
            "records": len(lines),
            "mutations": sum(kinds.values()),
            "by_kind": kinds,
            "undetected": sum(undetected.values()),
            "undetected_by_kind": undetected,
        }
    }


def outbox_size(workdir: Path, rows: int) -> Figures:
    """The outbox with the broker away for ``rows`` table states (the 73.7 MB case)."""
    from pokertable.mqtt.outbox import Outbox

    path = workdir / "outbox.sqlite3"
    box = Outbox(path, session="drill")
    payload = b'{"seq":%d,"pad":"' + b"x" * 1_450 + b'"}'  # a 10-seat state is about 1.5 kB
    peak = 0
    for n in range(rows):
        box.append("state", "t/state", lambda seq: payload % seq)
        if n % 1000 == 999:
            peak = max(peak, _size_on_disk(path))
    peak = max(peak, _size_on_disk(path))
    kept = len(box)
    for row in box.pending("public", after_id=0, now_ms=0, limit=rows):
        box.remove(row.id)
    drained = _size_on_disk(path)
    box.close()
    return {
        "drill_outbox_bytes": {
            "states_offered": rows,
            "payload_mb_offered": round(rows * len(payload) / 1e6, 1),
            "rows_kept": kept,
            "peak_mb_on_disk": round(peak / 1e6, 1),
            "after_drain_mb_on_disk": round(drained / 1e6, 2),
        }
    }


def _size_on_disk(path: Path) -> int:
    return sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())


# --- kill -9 ---------------------------------------------------------------------------------


def kill9(workdir: Path, kills: int, per_session: int = 20, seed: int = 20261126) -> Figures:
    """Random kill -9 during the crash drill's hand, with physical actions while it is down.

    A kill lands at a random moment after a step (in the middle of the work or idle); when
    the step's effect was visible before the kill and the next step is physical, the next
    step is done while the controller is down and the readers report it after the restart.
    Each session is compared with an uninterrupted run of the same script.
    """
    rig_mod, drill = _rig_modules()
    rng = random.Random(seed)
    totals = {"kills": 0, "down_actions": 0, "sessions": 0, "sessions_stalled": 0, "lost": 0,
              "duplicated": 0, "extra_events": 0, "gaps": 0, "wrong_final_state": 0,
              "chips_not_conserved": 0}
    steps = drill.script()
    calm = rig_mod.TableRig(workdir / "calm", drill.PLAYERS, first_button=3)
    try:
        _crashy_session(calm, drill, steps, set(), rng)
        expected_state, expected_events, _ = drill.outcome(calm)
    finally:
        calm.close()
    session = 0
    while totals["kills"] < kills and session < 3 * kills:
        session += 1
        want = min(per_session, kills - totals["kills"])
        points = set(rng.sample(range(len(steps) - 1), want))
        rig = rig_mod.TableRig(workdir / f"crashy-{session}", drill.PLAYERS, first_button=3)
        try:
            counts = _crashy_session(rig, drill, steps, points, rng)
            state, events, seqs = drill.outcome(rig)
        except (RuntimeError, AssertionError) as stall:  # a step never took effect: counted
            totals["sessions_stalled"] += 1
            print(f"# kill drill session {session} stalled: {str(stall)[:300]}", file=sys.stderr)
            continue
        finally:
            rig.close()
        totals["sessions"] += 1
        print(f"# kill drill session {session}: {counts}", file=sys.stderr)
        totals["kills"] += counts["kills"]
        totals["down_actions"] += counts["down_actions"]
        got = Counter(json.dumps(e, sort_keys=True) for e in events)
        expected = Counter(json.dumps(e, sort_keys=True) for e in expected_events)
        totals["lost"] += sum((expected - got).values())
        surplus = got - expected  # after dedupe by seq: the same event twice, or a new one
        totals["duplicated"] += sum(n for key, n in surplus.items() if key in expected)
        extra = [json.loads(key) for key in surplus if key not in expected]
        totals["extra_events"] += sum(surplus[key] for key in surplus if key not in expected)
        for event in extra:
            print(f"# kill drill session {session}: an event the calm run did not have: "
                  f"{json.dumps(event)[:400]}", file=sys.stderr)
        totals["gaps"] += int(seqs != list(range(1, len(seqs) + 1)))
        totals["wrong_final_state"] += int(state != expected_state)
        chips = sum(s["stack"] + s["bet"] for s in state["seats"])
        if state["street"] != "complete":  # once awarded, the pots are in the stacks
            chips += sum(p["amount"] for p in state["pots"])
        totals["chips_not_conserved"] += int(chips != sum(p[2] for p in drill.PLAYERS))
    return {"drill_kill_9": totals}


def _crashy_session(rig: Any, drill: Any, steps: list[Any], points: set[int],
                    rng: random.Random) -> dict[str, int]:
    counts = {"kills": 0, "down_actions": 0}
    rig.start_controller()
    _wait_ready(rig, drill, 0)
    done_early: set[int] = set()
    for index, step in enumerate(steps):
        before = rig.overlay.state()
        if index not in done_early:
            drill.perform(rig, step)
        _wait_step(rig, drill, step, index)
        if index in points:
            visible = before is not None and not step[2](before)  # its effect was seen
            time.sleep(rng.uniform(0.0, 0.6))  # anywhere: mid-publish, mid-journal, idle
            rig.kill_controller()
            counts["kills"] += 1
            upcoming = steps[index + 1]
            if visible and upcoming[0] != "button" and index + 1 not in done_early:
                drill.perform(rig, upcoming)  # the dealer goes on while the Pi is down
                done_early.add(index + 1)
                counts["down_actions"] += 1
            ready = drill.onlines(rig)
            rig.start_controller()
            _wait_ready(rig, drill, ready)
            time.sleep(0.6)  # the readers re-report the felt zone by zone (see the drill)
        time.sleep(0.15)
    try:
        rig.overlay.wait_state(lambda s: s["street"] == "complete", "the end of the hand", 60)
    except AssertionError as exc:
        raise RuntimeError(str(exc)) from None
    return counts


def _wait_ready(rig: Any, drill: Any, before: int) -> None:
    """The controller announced a new birth (a busy machine may take a minute to start)."""
    _wait(lambda: drill.onlines(rig) > before, f"the controller to come back: {rig.log()}", 180)


def _wait_step(rig: Any, drill: Any, step: Any, index: int) -> None:
    """Wait for a step's effect; press a button again if nothing happened (as a dealer)."""
    deadline = time.monotonic() + 60  # a stall limit for a busy machine, not a timing
    pressed_again = 0
    while True:
        state = rig.overlay.state()
        if state is not None and step[2](state):
            return
        if step[0] == "button" and pressed_again < 3 and time.monotonic() > deadline - 45:
            drill.perform(rig, step)  # the dealer presses again: nothing happened
            pressed_again += 1
            deadline = time.monotonic() + 60
        if time.monotonic() > deadline:
            raise RuntimeError(f"step {index} {step[:2]} never took effect: {rig.log()}")
        time.sleep(0.02)


# --- the reader link (H3, issue #12 "self-healing link") -------------------------------------


def link(small: bool) -> Figures:
    """The link drills (mutated frames, noise, convergence): ``bench/link_drills.run_all``."""
    try:
        module = importlib.import_module("pokertable.bench.link_drills")
    except ImportError:
        return {"drill_link": {"error": "bench/link_drills.py is not in this build yet"}}
    run_all = getattr(module, "run_all", None)
    if run_all is None:
        return {"drill_link": {"error": "bench/link_drills.py has no run_all(full)"}}
    groups: dict[str, dict[str, Any]] = run_all(full=not small)
    return {f"drill_link_{name}": values for name, values in groups.items()}


# --- runner ----------------------------------------------------------------------------------

FULL = {"messages": 2_000, "duplicates": 500, "takeovers": 50, "mutations": 20_000,
        "outbox_rows": 50_000, "kills": 100}
SMALL = {"messages": 100, "duplicates": 20, "takeovers": 5, "mutations": 2_000,
         "outbox_rows": 5_000, "kills": 5}


def figures(small: bool = False, only: set[str] | None = None) -> Figures:
    size = SMALL if small else FULL
    result: Figures = {}
    with tempfile.TemporaryDirectory(prefix="pokertable-drills-") as folder:
        root = Path(folder)
        parts: list[tuple[str, Callable[[Path], Figures]]] = [
            ("files", lambda d: journal_integrity(d, size["mutations"])
             | outbox_size(d, size["outbox_rows"])),
            ("mqtt", lambda d: hostile_mqtt(d, size["messages"], size["duplicates"],
                                            size["takeovers"])),
            ("link", lambda d: link(small)),
            ("kill", lambda d: kill9(d, size["kills"])),
        ]
        for name, part in parts:
            if only is not None and name not in only:
                continue
            folder_n = root / name
            folder_n.mkdir()
            started = time.monotonic()
            try:
                result.update(part(folder_n))
            except Exception as exc:  # one drill stalling must not hide the others' figures
                result[f"drill_{name}_error"] = {"error": f"{type(exc).__name__}: {exc}"}
            print(f"# {name} drills: {time.monotonic() - started:.0f} s", file=sys.stderr)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pokertable.bench.drills",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--small", action="store_true", help="suite sizes, a few minutes")
    parser.add_argument("--only", action="append", choices=("files", "mqtt", "link", "kill"))
    parser.add_argument("--kills", type=int, help="kill -9 count (default: 100, --small 5)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    # SIGTERM unwinds like Ctrl-C, so each rig stops its broker, controller and nodes.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if args.kills is not None:
        (SMALL if args.small else FULL)["kills"] = args.kills
    result = figures(args.small, set(args.only) if args.only else None)
    if args.json:
        print(json.dumps(result))
    else:
        for name, values in result.items():
            print(f"{name}: " + ", ".join(f"{k} {v}" for k, v in values.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
