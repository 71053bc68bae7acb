"""Controller footprint after 1,000 simulated hands: resident memory and hands per second.

Idle CPU is measured in bench/e2e_figures.py, where ``pokertable run`` has its serial
reader and the nodes' heartbeats running (here the engine would sit idle without them).

The controller runs with its real parts (journal with fsync, the session, the MQTT
bridge with its SQLite outbox, talking to a broker), plays 1,000 hands fed as the readers
and the console would feed them, then sits idle while its threads keep running. The peer,
measured in the same run on the same broker, is the least any Python table controller
needs: an interpreter with paho-mqtt connected and idle.
"""

from __future__ import annotations

import json
import multiprocessing
import random
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

IDLE_S = 5.0


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _idle_cpu_percent() -> float:
    start_cpu, start = _cpu_s(), time.monotonic()
    time.sleep(IDLE_S)
    return 100.0 * (_cpu_s() - start_cpu) / (time.monotonic() - start)


def _play(app: Any, hands: int, rng: random.Random) -> None:
    from pokertable.controller.engine import betting
    from pokertable.controller.engine.cards import RANKS, SUITS
    from pokertable.controller.engine.model import Phase, Street
    from pokertable.controller.table.inputs import CardDetected, ChipItem, ChipsMoved, ConsolePress

    t = 0

    def feed(item: Any) -> None:
        app.process(item)

    for _ in range(hands):
        t += 1000
        feed(ConsolePress("hand_start", t))
        hand = app.session.hand
        deck = [r + s for r in RANKS for s in SUITS]
        rng.shuffle(deck)
        for _ in range(2):  # one card at a time, starting left of the button (R35-A2)
            for seat in hand.seats_clockwise_from(hand.button):
                t += 1
                feed(CardDetected(f"seat{seat.seat}.cards", seat.seat, deck.pop(), t))
        uid = 0
        steps = 0
        while app.session.hand.phase is not Phase.COMPLETE:
            steps += 1
            if steps > 500:
                raise RuntimeError(f"hand {hand.hand_id} is stuck: {app.session.alerts}")
            hand = app.session.hand
            t += 1
            if hand.phase is Phase.BETTING:
                opts = betting.options_for(hand, app.session.config.rules)
                if opts is None:
                    raise RuntimeError(f"hand {hand.hand_id}: betting with nobody to act")
                roll = rng.random()
                if opts.to_call and roll < 0.25:
                    feed(ConsolePress("fold", t))
                elif opts.can_raise and roll > 0.85:
                    # "Raise to X" on the console, then the chips that pay it.
                    seat_no, before = opts.seat, hand.seat(opts.seat).bet
                    feed(ConsolePress("bet_raise", t, opts.min_to))
                    uid += 1
                    chips = (ChipItem(opts.min_to - before, "value", f"b{uid}"),)
                    feed(ChipsMoved(f"seat{seat_no}.bet", seat_no, chips, (), t))
                else:
                    feed(ConsolePress("check_call", t))
            elif hand.phase is Phase.DEALING:
                for seat_no, chips in app.session.bet_zones:
                    if chips:
                        feed(ChipsMoved(f"seat{seat_no}.bet", seat_no, (), chips, t))
                feed(CardDetected("burn", None, deck.pop(), t))  # one burn per street (R38)
                for _ in range(Street(hand.street + 1).board_size - len(hand.board)):
                    t += 1
                    feed(CardDetected("board", None, deck.pop(), t))
            else:
                feed(ConsolePress("confirm", t))


def _controller(port: int, hands: int, result: Any) -> None:
    from pokertable.controller.app.config import parse_config
    from pokertable.controller.app.table_app import TableApp
    from pokertable.mqtt.bridge import TableBridge

    with tempfile.TemporaryDirectory() as folder:
        config = parse_config(
            {
                "table": {"venue": "bench", "id": "t1", "first_button": 1},
                "levels": [{"number": 1, "small_blind": 1, "big_blind": 2}],
                "players": [{"seat": s, "name": f"p{s}", "stack": 10_000_000} for s in range(1, 7)],
                "journal": {"path": f"{folder}/journal.jsonl"},
            }
        )
        bridge = TableBridge(
            venue="bench",
            table="t1",
            session="bench",
            outbox_path=f"{folder}/outbox.sqlite3",
            port=port,
        )
        app = TableApp(config, publisher=bridge)
        bridge.start()
        bridge.wait_connected(10)
        app.recover()
        started = time.monotonic()
        _play(app, hands, random.Random(3))
        played_s = time.monotonic() - started
        bridge.wait_delivered(60)
        import threading

        engine = threading.Thread(target=app.run, kwargs={"tick_s": 1.0}, daemon=True)
        engine.start()  # the engine thread waits for input, as on a quiet table
        rss = _rss_mb()
        idle = _idle_cpu_percent()
        app.stop()
        bridge.stop()
        result.put({"rss_mb": rss, "idle_cpu_pct": idle, "hands_per_s": hands / played_s})


def _peer(port: int, result: Any) -> None:
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="bench-peer")
    client.connect("127.0.0.1", port)
    client.loop_start()
    rss = _rss_mb()
    idle = _idle_cpu_percent()
    client.loop_stop()
    result.put({"rss_mb": rss, "idle_cpu_pct": idle})


def _in_child(target: Any, *args: Any) -> dict[str, float]:
    context = multiprocessing.get_context("spawn")
    result = context.Queue()
    process = context.Process(target=target, args=(*args, result))
    process.start()
    value: dict[str, float] = result.get(timeout=900)
    process.join(30)
    return value


def figures(hands: int = 1000) -> dict[str, dict[str, Any]]:
    from pokertable.mqtt.inprocess_broker import AmqttBroker
    from pokertable.mqtt.mosquitto import MosquittoProcess, find_mosquitto

    with tempfile.TemporaryDirectory() as folder:
        broker: Any = (
            MosquittoProcess.from_shipped(Path(folder)) if find_mosquitto() else AmqttBroker()
        )
        broker.start()
        try:
            ours = _in_child(_controller, broker.port, hands)
            peer = _in_child(_peer, broker.port)
        finally:
            broker.stop()
    name = "python + paho-mqtt connected and idle"
    return {
        "controller_rss_mb_after_1000_hands": {
            "ours": round(ours["rss_mb"], 1),
            "peer": round(peer["rss_mb"], 1),
            "unit": "MB",
            "peer_name": name,
            "ratio": round(peer["rss_mb"] / ours["rss_mb"], 2),
        },
        "controller_hands_per_s_with_fsync": {
            "ours": round(ours["hands_per_s"], 1),
            "peer": None,
            "unit": "hands/s",
            "peer_name": "(no peer: journal + outbox per input, commands fsynced)",
            "ratio": None,
        },
    }


if __name__ == "__main__":
    print(json.dumps(figures()))
