"""Hand-for-hand across two real tables (RP-8): the room process against real mosquitto, two
``pokertable run`` processes on simulated felt, and the floor console in Debian's Chromium
where the director turns it on. Every table finishes its hand and holds the next; the
next hand starts at both together; the level clock stops between hands and loses two
minutes per hand-for-hand hand (RP-8-B/C/D). The pure model's cases come first."""

from __future__ import annotations

import doctest
from collections.abc import Callable
from typing import Any

import pytest

from pokertable.bench.table_rig import USERS, TableRig, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.controller.rules import HandForHandClock
from pokertable.room import hand_for_hand as h4h_module
from pokertable.room.clock import TournamentClock, parse_structure
from pokertable.room.clock_service import ClockService, hand_for_hand
from pokertable.room.floor_service import console
from pokertable.room.hand_for_hand import HandForHand
from tests.room.conftest import ARTIFACTS, signed_in
from tests.room.test_clock import STRUCTURE

MINUTE = 60_000
SEATS = [
    {"seat": 1, "stack": 100, "status": "active"},
    {"seat": 2, "stack": 100, "status": "active"},
]


def _room(t1: tuple[int, str], t2: tuple[int, str]) -> dict[str, dict[str, Any]]:
    return {
        name: {"hand_number": n, "street": street, "seats": SEATS}
        for name, (n, street) in (("t1", t1), ("t2", t2))
    }


def test_module_examples_run() -> None:
    result = doctest.testmod(h4h_module)
    assert result.attempted > 0 and result.failed == 0


def test_TDA24_RP8_D1_two_minutes_off_the_clock_after_each_hand_for_hand_hand() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    clock = clock.add_time(-10 * MINUTE)  # 10:00 left in level 1
    h4h, clock = HandForHand(HandForHandClock.DEDUCT_UP_TO_3_MIN).announce(clock, 0)
    h4h, clock, release = h4h.step(_room((3, "flop"), (5, "complete")), clock, MINUTE)
    assert not release and not clock.display(MINUTE)["paused"]  # the current hand runs
    h4h, clock, release = h4h.step(_room((3, "complete"), (5, "complete")), clock, MINUTE)
    assert release and clock.remaining_ms(5 * MINUTE) == 9 * MINUTE  # stopped at 9:00
    # the released hands: one table finished, the other not yet
    h4h, clock, release = h4h.step(_room((4, "complete"), (6, "turn")), clock, 2 * MINUTE)
    assert not release and h4h.waiting_for(_room((4, "complete"), (6, "turn"))) == ["t2"]
    h4h, clock, release = h4h.step(_room((4, "complete"), (6, "complete")), clock, 9 * MINUTE)
    assert release and clock.remaining_ms(9 * MINUTE) == 7 * MINUTE  # 2:00 per hand
    remaining = [clock.remaining_ms(0)]
    for hand in range(3):  # 7:00 -> 5:00 -> 3:00 -> 1:00, whatever the hands took
        h4h, clock, _ = h4h.step(
            _room((5 + hand, "complete"), (7 + hand, "complete")), clock, (10 + hand) * MINUTE
        )
        remaining.append(clock.remaining_ms(0))
    assert remaining == [7 * MINUTE, 5 * MINUTE, 3 * MINUTE, MINUTE]
    # RP-8-D: blinds go up when the time runs out, 2 minutes a hand, the clock still stopped
    h4h, clock, _ = h4h.step(_room((8, "complete"), (10, "complete")), clock, 20 * MINUTE)
    clock, changes = clock.advance(20 * MINUTE)
    assert [(c.kind, c.step.level_number) for c in changes] == [("level", 2)]
    assert clock.remaining_ms(99 * MINUTE) == 19 * MINUTE and clock.paused_at_ms is not None
    h4h, clock = h4h.end(clock, 30 * MINUTE)
    assert clock.remaining_ms(31 * MINUTE) == 18 * MINUTE  # runs again


def test_NZ22_RP8B_EX1_hand_for_hand_sets_the_clock_two_minutes_lower_each_hand() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    clock = clock.add_time(-(2 * MINUTE + 30_000))  # 17:30 left when it is announced
    h4h, clock = HandForHand(HandForHandClock.FIXED_2_MIN_PER_HAND).announce(clock, 0)
    h4h, clock, _ = h4h.step(_room((1, "river"), (1, "complete")), clock, 4 * MINUTE)
    assert clock.remaining_ms(4 * MINUTE) == 17 * MINUTE + 30_000  # stopped at once
    h4h, clock, release = h4h.step(_room((1, "complete"), (1, "complete")), clock, 5 * MINUTE)
    assert release and clock.remaining_ms(0) == 15 * MINUTE + 30_000  # H1 starts: 15:30
    h4h, clock, release = h4h.step(_room((2, "complete"), (2, "complete")), clock, 6 * MINUTE)
    assert release and clock.remaining_ms(0) == 13 * MINUTE + 30_000  # H2 starts: 13:30


def test_TDA24_RP8B_more_than_three_minutes_a_hand_is_refused() -> None:
    with pytest.raises(ValueError, match="RP-8-B: at most 3 minutes"):
        hand_for_hand("tda-2024", 4)
    assert hand_for_hand("clubs-nz-2022", 4).minutes_per_hand == 4  # NZ: the house's time
    assert hand_for_hand("clubs-nz-2022", 2).scheme is HandForHandClock.FIXED_2_MIN_PER_HAND


def room_clock(port: int) -> ClockService:
    """The venue's clock process (not started) for the tables on ``port``: TDA 2024,
    2 minutes per hand-for-hand hand."""
    return ClockService(host="127.0.0.1", port=port, venue="club", structure_text=STRUCTURE,
                        login=("clock", USERS["clock"]),
                        hand_for_hand=hand_for_hand("tda-2024", 2))


def _fold_out(rig: TableRig, hand: int) -> dict[str, Any]:
    """Heads-up: the button (small blind) folds; the hand is over."""
    rig.overlay.wait_state(
        lambda s: s["hand_number"] == hand and s["action_on"] is not None,
        f"hand {hand} on the action at {rig.table_id}",
    )
    rig.button("fold")
    return rig.overlay.wait_state(
        lambda s: s["hand_number"] == hand and s["street"] == "complete",
        f"hand {hand} over at {rig.table_id}",
    )


def _started_at(rig: TableRig, hand: int) -> int:
    return next(
        e["ts_ms"]
        for e in rig.overlay.on("/events")
        if e["kind"] == "hand_start" and e["hand_id"].endswith(f"h{hand:05d}")
    )


def _finished_at(rig: TableRig, hand: int) -> int:
    return next(
        s["ts_ms"]
        for s in sorted(rig.overlay.on("/state"), key=lambda s: s["seq"])
        if s["hand_number"] == hand and s["street"] == "complete"
    )


@pytest.mark.needs("mosquitto", "micropython")
def test_hand_for_hand_across_two_tables_from_the_floor_console(
    table: Callable[..., TableRig], browser: Any
) -> None:
    t9 = table([(1, "Ann", 5000), (2, "Bob", 5000)], 1)
    t8 = table([(1, "Cat", 5000), (2, "Dan", 5000)], 1, table_id="t8", broker=t9.broker)
    service = room_clock(t9.broker.port)
    status = Watcher(
        t9.broker.port,
        "overlay",
        ("pokertable/v1/club/clock/status",),
        client_id="rig-overlay-clock-status",
    )
    service.start()
    assert service.subscribed.wait(60), "the clock could not subscribe"
    server = console("club", f"ws://127.0.0.1:{t9.broker.ws_port}")
    server.start()
    try:
        page = signed_in(browser, server.url, "director", ("t8", "t9"))

        for rig in (t9, t8):  # hand 1 is on at both tables when the director calls it
            rig.button("hand_start")
            rig.overlay.wait_state(lambda s: s["hand_number"] == 1, "hand 1")
        page.click("#h4h-on")
        for rig in (t9, t8):
            rig.overlay.wait_state(lambda s: s["hand_for_hand"], "hand-for-hand at the table")

        _fold_out(t9, 1)
        t9.button("hand_start")  # t9's dealer is ready first: held for the room
        t9.overlay.wait_state(lambda s: s["deal_held"], "t9 holds its next hand")
        page.wait_for_function(
            "() => document.getElementById('room-h4h').textContent.includes('waiting for t8')",
            timeout=60_000,
        )
        page.screenshot(path=str(ARTIFACTS / "floor-hand-for-hand.png"), full_page=True)
        assert t9.overlay.state()["hand_number"] == 1

        _fold_out(t8, 1)  # the last table finishes: the room deals at both
        t9.overlay.wait_state(lambda s: s["hand_number"] == 2, "t9's hand 2, released")
        t8.button("hand_start")  # released before its dealer pressed: starts at once
        t8.overlay.wait_state(lambda s: s["hand_number"] == 2, "t8's hand 2")
        assert _started_at(t9, 2) >= _finished_at(t8, 1)  # nobody dealt ahead of the room
        first = wait_for(
            lambda: next(
                (
                    s
                    for s in reversed(status.on("/clock/status"))
                    if s["hand_for_hand"] and s["paused"]
                ),
                None,
            ),
            "the clock stopped between hands",
        )

        for rig in (t9, t8):  # the first hand-for-hand hand, then the clock loses 2:00
            _fold_out(rig, 2)
        second = wait_for(
            lambda: next(
                (
                    s
                    for s in reversed(status.on("/clock/status"))
                    if s["hand_for_hand"] and s["hand_for_hand"]["hands"] == 2
                ),
                None,
            ),
            "the second release",
        )
        assert first["remaining_ms"] - second["remaining_ms"] == 2 * MINUTE
        for rig in (t9, t8):
            rig.button("hand_start")
            rig.overlay.wait_state(lambda s: s["hand_number"] == 3, "hand 3")

        page.click("#h4h-off")
        for rig in (t9, t8):
            rig.overlay.wait_state(lambda s: not s["hand_for_hand"], "hand-for-hand over")
        wait_for(
            lambda: any(
                s["hand_for_hand"] is None and not s["paused"]
                for s in status.on("/clock/status")[-3:]
            ),
            "the clock runs",
        )
    finally:
        server.stop()
        service.stop()
        status.stop()


def test_clock_refuses_a_room_profile_or_time_per_hand_it_cannot_run(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from pokertable.room.clock_service import main

    structure = tmp_path / "structure.toml"
    structure.write_text(STRUCTURE)
    base = ["--venue", "club", "--structure", str(structure)]
    assert main([*base, "--h4h-minutes", "4"]) == 78
    assert "RP-8-B: at most 3 minutes per hand" in capsys.readouterr().err
    assert main([*base, "--rules", "tda-2025"]) == 78
    assert "unknown profile 'tda-2025'" in capsys.readouterr().err


def test_TDA24_RP8F_the_room_releases_a_held_runout_once_every_other_table_is_done() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    h4h, clock = HandForHand().announce(clock, 0)
    room = _room((3, "flop"), (5, "turn"))
    room["t1"] = {**room["t1"], "hand_id": "t1-h00003", "runout_held": True}
    h4h, due = h4h.release_runouts(room)
    assert due == []  # t2 is still playing its hand: the all-in waits face down
    room["t2"] = {**room["t2"], "street": "complete"}
    h4h, due = h4h.release_runouts(room)
    assert due == ["t1"]
    h4h, again = h4h.release_runouts(room)  # the table has not said so yet: told once
    assert again == []
    h4h, clock, release = h4h.step(room, clock, MINUTE)
    assert not release  # the held table's hand is not over: no next hand anywhere
    room["t1"] = {**room["t1"], "street": "complete", "runout_held": False}
    h4h, clock, release = h4h.step(room, clock, MINUTE)
    assert release


def test_TDA24_RP8F_two_held_runouts_are_released_together() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    h4h, clock = HandForHand().announce(clock, 0)
    room = {
        name: {"hand_number": 1, "hand_id": f"{name}-h1", "street": "flop", "seats": SEATS,
               "runout_held": True}
        for name in ("t1", "t2")
    }
    assert h4h.release_runouts(room)[1] == ["t1", "t2"]
    assert HandForHand().release_runouts(room)[1] == []  # not playing hand-for-hand


def test_TDA24_RP8_a_table_whose_players_are_all_in_is_still_waited_for() -> None:
    clock = TournamentClock.start(parse_structure(STRUCTURE), now_ms=0)
    h4h, clock = HandForHand().announce(clock, 0)
    assert h4h.step({}, clock, 0)[2] is False  # no table heard yet: nothing to release
    all_in = [{"seat": 1, "stack": 0, "status": "all_in"},
              {"seat": 2, "stack": 0, "status": "all_in"}]
    room = _room((3, "complete"), (5, "turn"))
    room["t2"] = {**room["t2"], "seats": all_in}
    h4h, clock, release = h4h.step(room, clock, MINUTE)
    assert not release and h4h.waiting_for(room) == ["t2"]
