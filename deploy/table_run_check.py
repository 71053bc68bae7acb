"""``pokertable run`` as the service runs it, against simulated readers and a real mosquitto.

deploy/check-arm.sh runs this with the installed venv's Python inside the emulated Pi:

    /opt/pokertable/.venv/bin/python deploy/table_run_check.py --seconds 30

It starts the reader-node firmware on pseudo-terminals (hardware/simulator.py), a mosquitto
from the repository's shipped config on a free port and a subscriber, writes a table.toml
naming those ports and that broker, then starts the installed ``pokertable run`` and checks
what a table owner would look for: a state message reaches the subscriber, a chip pushed
onto a bet zone reaches the journal, the outbox exists, and SIGTERM stops the table with
exit status 0. Every wait is on a condition with a deadline, except the run itself, which
lasts ``--seconds``. Exit status 0 when all hold, 1 with one line naming the first that
did not.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

VENUE, TABLE = "pi-check", "t1"
# Emulation runs everything 5 to 20 times slower than a Pi: deadlines are generous, and
# each is a ceiling on a wait for a condition, never a guess at how long something takes.
DEADLINE_S = 180.0


class CheckFailed(Exception):
    """One expectation did not hold; the message names it."""


def wait_for(what: str, condition: Callable[[], bool], timeout: float = DEADLINE_S) -> float:
    """Poll ``condition`` until it holds; the seconds it took, or CheckFailed naming ``what``."""
    started = time.monotonic()
    while not condition():
        if time.monotonic() - started > timeout:
            raise CheckFailed(f"{what}: not within {timeout:.0f} s")
        time.sleep(0.05)
    return time.monotonic() - started


def say(text: str) -> None:
    print(f"    {text}", flush=True)


def table_toml(folder: Path, ports: list[str], broker_port: int) -> str:
    readers = "".join(f'\n[[readers]]\nport = "{port}"\n' for port in ports)
    players = "".join(
        f'\n[[players]]\nseat = {seat}\nname = "p{seat}"\nstack = 10000\n' for seat in (1, 2, 3)
    )
    return f"""[table]
venue = "{VENUE}"
id = "{TABLE}"
seats = 6
first_button = 1

[[levels]]
number = 1
small_blind = 100
big_blind = 200
chip_unit = 25
{players}
[registry]
path = "{folder / 'registry.sqlite3'}"

[journal]
path = "{folder / 'journal.jsonl'}"
{readers}
[gpio]
backend = "none"

[mqtt]
host = "127.0.0.1"
port = {broker_port}
outbox = "{folder / 'outbox.sqlite3'}"
"""


class StateSubscriber:
    """A paho client on the table's state topic; ``received`` is set by the first message."""

    def __init__(self, port: int) -> None:
        import paho.mqtt.client as mqtt
        from paho.mqtt.enums import CallbackAPIVersion

        from pokertable.mqtt.topics import TableTopics

        self.topic = TableTopics(VENUE, TABLE).state
        self.received = threading.Event()
        self.subscribed = threading.Event()
        self._client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="pi-check-subscriber")
        self._client.on_connect = lambda client, *_: client.subscribe(self.topic, qos=1)
        self._client.on_subscribe = lambda *_: self.subscribed.set()
        self._client.on_message = lambda *_: self.received.set()
        self._client.connect("127.0.0.1", port)
        self._client.loop_start()

    def stop(self) -> None:
        self._client.loop_stop()
        self._client.disconnect()


def journal_records(path: Path) -> list[str]:
    return path.read_text().splitlines() if path.exists() else []


def outbox_tables(path: Path) -> list[str]:
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]


def check(seconds: float, pokertable: str) -> None:
    from pokertable.hardware.registry import TagRegistry
    from pokertable.hardware.simulator import NodeSpec, PushChips, SyntheticTags, TableSimulator
    from pokertable.mqtt.mosquitto import MosquittoProcess

    with tempfile.TemporaryDirectory(prefix="pokertable-run-check-") as name:
        folder = Path(name)
        broker = MosquittoProcess.from_shipped(folder)
        broker.start(timeout=DEADLINE_S)
        say(f"mosquitto ({broker.binary}) on port {broker.port}")
        registry = TagRegistry(folder / "registry.sqlite3")
        SyntheticTags.enroll(registry)
        specs = [NodeSpec(1, ("seat1.bet", "seat1.stack", "seat1.cards")),
                 NodeSpec(2, ("board", "burn", "muck"))]
        sim = TableSimulator(registry, specs)
        subscriber = StateSubscriber(broker.port)
        table: subprocess.Popen[str] | None = None
        try:
            ports = [sim.port_of(n) for n in sorted(sim.nodes)]
            say(f"simulated reader nodes on {', '.join(ports)}")
            config = folder / "table.toml"
            config.write_text(table_toml(folder, ports, broker.port))
            wait_for("the subscriber is subscribed", subscriber.subscribed.is_set)
            started = time.monotonic()
            table = subprocess.Popen([pokertable, "run", "--config", str(config)],
                                     stderr=subprocess.PIPE, text=True)
            took = wait_for("a state message reaches the subscriber", subscriber.received.is_set)
            say(f"state message on {subscriber.topic} after {took:.1f} s")
            journal = folder / "journal.jsonl"
            (uid,) = sim.perform(PushChips("seat1.bet", (500,)))
            took = wait_for(f"the chip {uid} pushed on seat1.bet reaches the journal",
                            lambda: any(uid in record for record in journal_records(journal)))
            say(f"journal {journal}: {len(journal_records(journal))} records, chip {uid} on "
                f"seat1.bet journaled {took:.1f} s after the push")
            tables = outbox_tables(folder / "outbox.sqlite3")
            if not tables:
                raise CheckFailed("the outbox was not written")
            say(f"outbox {folder / 'outbox.sqlite3'}: tables {', '.join(tables)}")
            remaining = seconds - (time.monotonic() - started)
            if remaining > 0:  # the run's own duration: the table keeps serving the readers
                time.sleep(remaining)
            if table.poll() is not None:
                raise CheckFailed(f"pokertable run exited early with status {table.returncode}")
            table.send_signal(signal.SIGTERM)
            try:
                _, stderr = table.communicate(timeout=DEADLINE_S)
            except subprocess.TimeoutExpired as exc:
                raise CheckFailed("pokertable run did not stop on SIGTERM") from exc
            ran = time.monotonic() - started
            if table.returncode != 0 or "Traceback" in stderr:
                raise CheckFailed(f"pokertable run stopped with status {table.returncode} "
                                  f"after SIGTERM: {stderr.strip()[-600:]}")
            say(f"SIGTERM after {ran:.1f} s: stopped cleanly (status 0)")
        finally:
            if table is not None and table.poll() is None:
                table.kill()
                table.wait()
            subscriber.stop()
            sim.close()
            registry.close()
            broker.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="how long the table runs")
    default = Path(sys.executable).parent / "pokertable"
    parser.add_argument("--pokertable", default=str(default),
                        help=f"the pokertable command to run (default: {default})")
    args = parser.parse_args()
    if shutil.which(args.pokertable) is None and not os.access(args.pokertable, os.X_OK):
        print(f"table_run_check: {args.pokertable} is not an executable", file=sys.stderr)
        return 1
    try:
        check(args.seconds, args.pokertable)
    except CheckFailed as exc:
        print(f"table_run_check: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
