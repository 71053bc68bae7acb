"""The crash drill's scripted session: a hand dealt through the end-to-end rig, the steps a
dealer takes, and what the table published, for ``tests/app/test_crash_drill.py`` (kill -9 at
20 random points) and ``pokertable bench drills`` (the same drill, repeated and timed).

Every step waits for what shows it happened, never on a guess of time.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from pokertable.bench.table_rig import TableRig, journaled_felt

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]
Step = tuple[str, tuple[Any, ...], Callable[[dict[str, Any]], bool]]


def seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["seat"] == number)


def script() -> list[Step]:
    """Physical actions and dealer buttons, each with the state that shows it took effect."""
    steps: list[Step] = [
        ("button", ("hand_start",), lambda s: s["hand_number"] == 1),
        ("push", (1, 100), lambda s: True),
        ("push", (2, 100, 100), lambda s: True),
    ]
    cards = ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad"))
    for n, (seat_no, card) in enumerate(cards):
        held = 1 if n < 3 else 2
        steps.append(
            (
                "deal",
                (f"seat{seat_no}.cards", card),
                lambda s, x=seat_no, h=held: seat(s, x)["cards_held"] >= h,
            )
        )
    steps += [
        ("push", (3, 1000), lambda s: seat(s, 3)["bet"] == 200),
        ("push", (1, 500, 100, 100), lambda s: seat(s, 1)["bet"] == 800),
        ("push", (2, 500, 100), lambda s: seat(s, 2)["bet"] == 800),
        ("button", ("all_in",), lambda s: seat(s, 3)["status"] == "all_in"),
        ("push", (1, 1000, 1000, 100, 100, 500), lambda s: seat(s, 1)["bet"] == 3500),
        ("push", (2, 1000, 1000, 100, 100, 500), lambda s: seat(s, 2)["bet"] == 3500),
        ("clear", ("seat1.bet",), lambda s: True),
        ("clear", ("seat2.bet",), lambda s: True),
        ("clear", ("seat3.bet",), lambda s: True),
        ("deal", ("burn", "5s"), lambda s: True),
        ("deal", ("board", "2c"), lambda s: True),
        ("deal", ("board", "7d"), lambda s: True),
        ("deal", ("board", "9h"), lambda s: s["street"] == "flop"),
        ("push", (1, 500), lambda s: seat(s, 1)["bet"] == 500),
        ("push", (2, 500), lambda s: s["action_on"] is None),
        ("clear", ("seat1.bet",), lambda s: True),
        ("clear", ("seat2.bet",), lambda s: True),
        ("deal", ("burn", "6s"), lambda s: True),
        ("deal", ("board", "Jc"), lambda s: s["street"] == "turn"),
        ("button", ("check_call",), lambda s: s["action_on"] == 2),
        ("button", ("check_call",), lambda s: s["action_on"] is None),
        ("deal", ("burn", "8c"), lambda s: True),
        ("deal", ("board", "4s"), lambda s: s["street"] == "river"),
        ("button", ("check_call",), lambda s: s["action_on"] == 2),
        ("button", ("check_call",), lambda s: s["street"] == "showdown"),
        ("button", ("confirm",), lambda s: s["street"] == "complete"),
    ]
    return steps


def perform(rig: TableRig, step: Step) -> None:
    kind, args, _ = step
    if kind == "button":
        rig.button(*args)
    elif kind == "push":
        rig.push(*args, read=False)  # the controller may be down: the drill checks reads itself
    elif kind == "deal":
        rig.deal(*args)
    else:
        rig.clear(*args)


def onlines(rig: TableRig) -> int:
    return sum(1 for s in rig.overlay.on("/status") if s["state"] == "online")


def wait_ready(rig: TableRig, before: int) -> None:
    """The controller is back: its bridge announced a new birth after the restart."""
    deadline = time.monotonic() + 90  # a stall limit: a loaded machine starts slowly
    while onlines(rig) <= before:
        assert time.monotonic() < deadline, f"controller did not come back: {rig.log()}"
        time.sleep(0.02)


def wait_felt_journaled(rig: TableRig, since: int, what: str) -> None:
    """Wait until the journal, from record ``since`` on, shows exactly what lies on the felt.

    After each physical action this is "the readers settled and the controller heard it";
    after a restart (``since`` = the journal's length at the kill) it is "the new readers'
    re-reports of the whole felt have landed": a dealer does not deal in the instant the
    table comes back, and the order of what happened while it was down is not knowable.
    """
    on_felt = {zone: set(uids) for zone, uids in rig.sim.on_felt.items() if uids}
    deadline = time.monotonic() + 90
    while True:
        records = rig.journaled()
        seen = journaled_felt(records[since:]) if since <= len(records) else {}
        if seen == on_felt:
            return
        assert time.monotonic() < deadline, (
            f"waiting for {what}: the journal shows {seen}, the felt holds {on_felt}"
        )
        time.sleep(0.02)


def run_session(rig: TableRig, crash_after: set[int], rng: random.Random) -> None:
    rig.start_controller()
    wait_ready(rig, 0)
    for index, step in enumerate(script()):
        done = step[2]
        perform(rig, step)
        if index in crash_after:
            # A random crash point somewhere in the controller's work on this step: the
            # pause picks the moment of the kill, it waits for nothing.
            time.sleep(rng.uniform(0.0, 0.15))
            rig.kill_controller()
            kept = len(rig.journaled())
            before = onlines(rig)
            rig.start_controller()
            wait_ready(rig, before)
            wait_felt_journaled(rig, kept, f"the re-reports after the restart at step {index}")
        deadline = time.monotonic() + 90  # a stall limit, reported below
        pressed_again = 0
        while True:
            state = rig.overlay.state()
            if state is not None and done(state):
                break
            # A command lost in a crash is pressed again, as a dealer does when nothing
            # happens for a while (the one wall-clock fallback left: see docs/testing.md).
            if step[0] == "button" and pressed_again < 2 and time.monotonic() > deadline - 75:
                perform(rig, step)
                pressed_again += 1
                deadline = time.monotonic() + 90
            assert time.monotonic() < deadline, (
                f"step {index} {step[:2]} never took effect; state {state}; "
                f"events {rig.overlay.on('/events')[-3:]}"
            )
            time.sleep(0.02)
        if step[0] != "button":  # the readers settled and the controller heard them
            wait_felt_journaled(rig, 0, f"step {index} {step[:2]} to reach the journal")
    rig.overlay.wait_state(lambda s: s["street"] == "complete", "the end of the hand")


def public(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k not in ("seq", "ts_ms", "session")}


def outcome(rig: TableRig) -> tuple[dict[str, Any], list[dict[str, Any]], list[int]]:
    events: dict[int, dict[str, Any]] = {}
    for payload in rig.overlay.on("/events"):
        events.setdefault(payload["seq"], payload)  # QoS 1 may deliver twice
    seqs = sorted(events)
    final = rig.overlay.state()
    assert final is not None
    return public(final), [public(events[s]) for s in seqs], seqs
