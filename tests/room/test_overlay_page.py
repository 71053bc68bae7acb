"""The broadcast overlay end to end: a real table (``pokertable run`` on simulated felt with
the real firmware) plays through mosquitto with the shipped ACL; the relay holds the whole
feed back and adds equities; the page in Debian's Chromium (Playwright, executable_path)
reads the delayed subtree over MQTT-over-WebSockets and shows cards, win % and the pot."""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from typing import Any

from pokertable.bench.table_rig import PREFIX, USERS, TableRig, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.controller.evaluation.equity import equities
from pokertable.room.overlay_service import (
    PAGE_DIR,
    OverlayService,
    load_layout,
    page_config,
)
from tests.room.conftest import ARTIFACTS, Players

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]
DELAY_S = 2.0
HOLES = {1: ("Kh", "Kd"), 2: ("Qs", "Qd"), 3: ("Ah", "Ad")}
MQTT_JS_SHA256 = "f3cbeae580d3010048938ee370f2db0c15d16e6f7fc147cb32ae5510e571b387"


def test_vendored_mqtt_client_is_the_pinned_release() -> None:
    data = (PAGE_DIR / "vendor" / "mqtt-5.16.0.min.js").read_bytes()
    assert hashlib.sha256(data).hexdigest() == MQTT_JS_SHA256
    assert (
        (PAGE_DIR / "vendor" / "mqtt-5.16.0.LICENSE.md").read_text().startswith("The MIT License")
    )


def _seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = next(s for s in state["seats"] if s["seat"] == number)
    return found


def _acting(seat_no: int, state: dict[str, Any]) -> bool:
    return bool(state["action_on"] == seat_no)


def play_to_the_turn(rig: TableRig) -> tuple[str, ...]:
    """Seat 3 (the button) calls, the small blind completes with one chip, the big blind
    checks; the flop is checked round; the turn comes. Each step waits for the state that
    shows it. The blinds' chips went out as the hand was started: read before or after the
    start, they are the posted blinds (Add. 46), so the small blind's one chip is his call
    whatever the read order."""
    rig.push(3, 100, 100)
    rig.overlay.wait_state(lambda s: _seat(s, 3)["bet"] == 200, "the button's call")
    rig.overlay.wait_state(functools.partial(_acting, 1), "the small blind to act")
    rig.push(1, 100)
    rig.overlay.wait_state(lambda s: _seat(s, 1)["bet"] == 200, "the small blind's call")
    rig.button("check_call")
    rig.overlay.wait_state(lambda s: s["action_on"] is None, "the big blind's check")
    for seat_no in HOLES:
        rig.clear(f"seat{seat_no}.bet")
    board = ("2c", "7d", "9h", "Jc")
    rig.deal("burn", "5s")
    for card in board[:3]:
        rig.deal("board", card)
    rig.overlay.wait_state(lambda s: s["street"] == "flop", "the flop")
    for seat_no in (1, 2, 3):
        rig.overlay.wait_state(functools.partial(_acting, seat_no), f"seat {seat_no} to act")
        rig.button("check_call")
    rig.overlay.wait_state(lambda s: s["action_on"] is None, "the flop checked round")
    rig.deal("burn", "6s")
    rig.deal("board", board[3])
    rig.overlay.wait_state(lambda s: s["street"] == "turn", "the turn")
    return board


def test_overlay_page_shows_the_delayed_hand_with_equities(
    table: Callable[[Players, int], TableRig], browser: Any
) -> None:
    rig = table(PLAYERS, 3)
    layout = load_layout(None)
    layout["stale_after_s"] = 1
    service = OverlayService(
        host="127.0.0.1",
        port=rig.broker.port,
        venue="club",
        table="t9",
        delay_s=DELAY_S,
        relay_login=("broadcaster", USERS["broadcaster"]),
        http_port=0,
        heartbeat_s=0.3,
        page_config=page_config(f"ws://127.0.0.1:{rig.broker.ws_port}", layout),
    )
    service.start()
    assert service.wait_subscribed(), "the relay could not subscribe"
    # a client with the `broadcast` login (the delayed feed over plain MQTT): what may it read?
    page_login = Watcher(
        rig.broker.port,
        "broadcast",
        (f"{PREFIX}/state", f"{PREFIX}/secure/#", f"{PREFIX}/broadcast/#"),
    )
    secure = Watcher(rig.broker.port, "overlay-secure", (f"{PREFIX}/secure/equities",))
    try:
        page = browser.new_page(viewport={"width": 1920, "height": 1080})
        page.goto(service.url)
        page.wait_for_selector("#connection.online", state="attached", timeout=60_000)

        rig.button("hand_start")
        rig.push(1, 100)
        rig.push(2, 100, 100)
        deals = [(seat, HOLES[seat][round_]) for round_ in range(2) for seat in (1, 2, 3)]
        for seat, card in deals[:-1]:
            rig.deal(f"seat{seat}.cards", card)
        # the relay cannot hear the sixth card before it is dealt, so the page cannot
        # show six cards before this moment plus the delay, however busy the machine
        before_last_card = time.monotonic()
        rig.deal(f"seat{deals[-1][0]}.cards", deals[-1][1])
        live = rig.overlay.wait_state(
            lambda s: all(x["cards_held"] == 2 for x in s["seats"] if x["seat"] in HOLES),
            "hole cards, live",
        )

        # the page shows all six hole cards and a win % per seat, from the delayed feed
        page.wait_for_function(
            "() => document.querySelectorAll('#seats .card[data-card]').length === 6 &&"
            " [...document.querySelectorAll('#seats .win')].every(e => e.textContent)",
            timeout=120_000,
        )
        assert time.monotonic() - before_last_card >= DELAY_S, "not held back"

        spot = equities("NLHE", HOLES)
        expected = {s.seat: f"{s.equity * 100:.1f}%" for s in spot.seats}
        wins = {seat: page.inner_text(f".seat[data-seat='{seat}'] .win") for seat in HOLES}
        assert wins == expected
        cards = {
            seat: tuple(
                page.eval_on_selector_all(
                    f".seat[data-seat='{seat}'] .card", "els => els.map(e => e.dataset.card)"
                )
            )
            for seat in HOLES
        }
        assert cards == HOLES
        names = page.eval_on_selector_all(".seat .name", "els => els.map(e => e.textContent)")
        assert names == ["Ann", "Bob", "Cat"]
        pot_total = sum(p["amount"] for p in live["pots"]) if live["pots"] else 0
        if pot_total:
            assert page.inner_text("#pot").startswith(f"Pot {pot_total:,}")
        page.screenshot(path=str(ARTIFACTS / "overlay-hand.png"), omit_background=True)

        # secure/equities went out live, the same figures the page shows late
        live_eq = wait_for(lambda: secure.on("/secure/equities"), "secure/equities")
        assert {s["seat"]: f"{s['equity'] * 100:.1f}%" for s in live_eq[-1]["seats"]} == (expected)

        # the `broadcast` login heard the delayed state but never the live one or the secure
        # subtree, though it asked for both (the relay published only after the live state)
        assert page_login.on("/broadcast/state")
        assert not page_login.on(f"{PREFIX}/state")
        assert not [m for t, m in page_login.messages if "/secure/" in t]

        # on to the turn: the seats behind show their outs, as the equity engine finds them
        board = play_to_the_turn(rig)
        turn = {s.seat: s.outs for s in equities("NLHE", HOLES, board).seats}
        assert turn[1] and turn[2] and not turn[3], turn  # kings and queens chase the aces
        page.wait_for_function(
            "() => document.querySelectorAll('#board .card').length === 4 &&"
            " document.querySelectorAll('#seats .outs:not([hidden])').length === 2",
            timeout=120_000,
        )
        for seat_no in HOLES:
            shown_outs = page.eval_on_selector_all(
                f".seat[data-seat='{seat_no}'] .outs .card", "els => els.map(e => e.dataset.card)"
            )
            assert tuple(shown_outs) == turn[seat_no]
            if turn[seat_no]:
                assert page.inner_text(f".seat[data-seat='{seat_no}'] .outs .count") == (
                    f"outs: {len(turn[seat_no])}"
                )

        # R29: the director calls the clock on the player to act; the delayed page counts
        # his 25 seconds down in his seat box (TDA 2024: 25 s plus a 5 s final count)
        on = rig.overlay.wait_state(lambda s: s["action_on"] is not None, "the turn's first to act")
        rig.director.publish(
            f"{PREFIX}/cmd/director", {"command": "clock_call", "request_id": "clk1"}
        )
        called = rig.overlay.wait_state(lambda s: s["clock"] is not None, "the clock call")
        assert called["clock"]["seat"] == on["action_on"]
        clock_box = f".seat[data-seat='{on['action_on']}'] .clock"
        page.wait_for_function(
            f"() => /^(on the clock \\d+ s|final count \\d|time)$/.test("
            f"document.querySelector(\"{clock_box}\")?.textContent || '')",
            timeout=120_000,
        )
        others = [n for n in HOLES if n != on["action_on"]]
        assert all(page.inner_text(f".seat[data-seat='{n}'] .clock") == "" for n in others)
        page.screenshot(path=str(ARTIFACTS / "overlay-clock.png"), omit_background=True)
        page.screenshot(path=str(ARTIFACTS / "overlay-turn.png"), omit_background=True)

        # the feed stops: the page says so
        service.stop()
        page.wait_for_selector("#stale-marker", state="visible", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "overlay-stale.png"), omit_background=True)
    finally:
        page_login.stop()
        secure.stop()
