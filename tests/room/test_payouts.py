"""Payouts on the clock (issue #31): prize pool, payout table, the places a hand-for-hand
hand pays (RP-8-A), ICM deals; then the clock display in Debian's Chromium showing them,
with the level and break sounds and a mute that is honoured."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest

from pokertable.bench.table_rig import PREFIX, TABLE_LOGIN, USERS, Watcher
from pokertable.bench.waiting import wait_for
from pokertable.controller.table.public_state import table_state
from pokertable.mqtt.mosquitto import MosquittoProcess
from pokertable.mqtt.payloads import validate
from pokertable.room.clock_service import ClockService, display
from pokertable.room.finishing import Finishes
from pokertable.room.payouts import (
    Payout,
    PayoutError,
    PrizePool,
    icm,
    icm_deal,
    parse_chart,
    payout_table,
    prizes_for_finishes,
)
from tests.app.session_table import Table
from tests.room.conftest import room_clock

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _harville_by_orders(stacks: list[int], prizes: list[float]) -> list[float]:
    """ICM the long way: every order of finish, each with its Harville probability."""
    out = [0.0] * len(stacks)
    for order in itertools.permutations(range(len(stacks))):
        chance, left = 1.0, float(sum(stacks))
        for player in order:
            chance *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            out[player] += chance * (prizes[place] if place < len(prizes) else 0)
    return out


def test_icm_known_values() -> None:
    """The textbook three-way example: 5000/3000/2000 chips for 50/30/20 is worth
    38.39/32.75/28.86; heads-up 3000/1000 for 70/30 is 60/40."""
    assert [round(v, 2) for v in icm([5000, 3000, 2000], [50, 30, 20])] == [38.39, 32.75, 28.86]
    assert icm([3000, 1000], [70, 30]) == pytest.approx([60.0, 40.0])
    assert icm([100], [500, 300]) == [500]
    rng = random.Random(31)
    for _ in range(20):
        stacks = [rng.randint(1, 10_000) for _ in range(rng.randint(2, 6))]
        prizes = sorted((rng.randint(1, 1000) for _ in range(rng.randint(1, 4))), reverse=True)
        values = icm(stacks, prizes)
        assert values == pytest.approx(_harville_by_orders(stacks, prizes))
        assert sum(values) == pytest.approx(sum(prizes[: len(stacks)]))


def test_icm_refuses_what_it_cannot_value() -> None:
    with pytest.raises(PayoutError, match="every player in the deal needs chips"):
        icm([100, 0], [70, 30])
    with pytest.raises(PayoutError, match="1 to 12 players"):
        icm([1] * 13, [1])


def test_icm_deal_splits_the_places_still_to_pay() -> None:
    payouts = payout_table(20, 10_000)  # 5 paid
    deal = icm_deal([("Ann", 5000), ("Bob", 3000), ("Cat", 2000)], payouts)
    assert deal["prize_money"] == sum(p.amount for p in payouts[:3])
    assert [r["player"] for r in deal["rows"]] == ["Ann", "Bob", "Cat"]
    assert deal["rows"][0]["icm"] > deal["rows"][1]["icm"] > deal["rows"][2]["icm"]
    assert sum(r["icm"] for r in deal["rows"]) <= deal["prize_money"]


def test_prize_pool_rake_and_guarantee() -> None:
    pool = PrizePool(buy_in=100, re_entry=80, add_on=50, rake_percent=10, guarantee=0)
    assert pool.total(entries=10, re_entries=5, add_ons=2) == (1000 + 400 + 100) * 9 // 10
    assert PrizePool(buy_in=100, guarantee=5000).total(entries=10) == 5000
    with pytest.raises(PayoutError, match="rake_percent"):
        PrizePool(rake_percent=120)


@pytest.mark.parametrize("entrants", [1, 2, 5, 9, 18, 27, 45, 60, 61, 200])
def test_payout_table_pays_the_whole_pool_best_place_most(entrants: int) -> None:
    table = payout_table(entrants, 12_345)
    assert sum(p.amount for p in table) == 12_345
    assert [p.place for p in table] == list(range(1, len(table) + 1))
    assert len(table) <= entrants
    assert all(a.amount >= b.amount for a, b in itertools.pairwise(table))


def test_payout_table_from_csv_by_entrants() -> None:
    chart = parse_chart(
        "min_entrants,max_entrants,place,percent\n2,9,1,100\n10,30,1,60\n10,30,2,40\n"
    )
    assert [p.amount for p in payout_table(8, 1000, chart)] == [1000]
    assert [p.amount for p in payout_table(20, 1000, chart)] == [600, 400]
    with pytest.raises(PayoutError, match="no row for 31 entrants"):
        payout_table(31, 1000, chart)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("place,amount\n1,100\n", "place and percent"),
        ("place,percent\n1,60\n3,40\n", "without a gap"),
        ("place,percent\n1,60\n2,30\n", "add up to 90"),
        ("place,percent\n1,sixty\n", "line 2"),
    ],
)
def test_a_bad_payout_csv_names_the_problem(text: str, message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        parse_chart(text)


def _busts_on_one_hand(
    busted: int, *, seated: int, players_left: int, hand_for_hand: int | None
) -> Finishes:
    """One hand at table t1 with ``seated`` players, ``players_left`` in the tournament
    before it: seats 1 to ``busted`` all in at the river, and out when it completes."""
    seats = [
        {
            "seat": n,
            "player": f"P{n}",
            "stack": 0 if n <= busted else 5000,
            "status": "all_in" if n <= busted else "active",
        }
        for n in range(1, seated + 1)
    ]
    finishes = Finishes().seen(
        "t1",
        {"hand_id": "t1-h9", "street": "river", "seats": seats},
        players_left=players_left,
        hand_for_hand=hand_for_hand,
    )
    return finishes.seen(
        "t1",
        {"hand_id": "t1-h9", "street": "complete", "seats": seats[busted:]},
        players_left=players_left - busted,
        hand_for_hand=hand_for_hand,
    )


def test_rp_8_a_three_busts_on_one_hand_for_hand_hand_share_the_50th_place() -> None:
    """RP-8-A's example: 50 paid, 52 left at the announcement, 3 bust on the current hand:
    all three share the 50th place payout (51st and 52nd pay nothing)."""
    payouts = [Payout(place, 1000 if place < 50 else 300, 0) for place in range(1, 51)]
    rows = _busts_on_one_hand(3, seated=9, players_left=52, hand_for_hand=0).rows()
    assert [(r["place"], r["tied"]) for r in rows] == [(50, 3)] * 3
    assert prizes_for_finishes(rows, payouts) == [100, 100, 100]
    # two busting in the money on one hand share both their places
    two = [{"place": 4, "tied": 2}, {"place": 4, "tied": 2}]
    assert prizes_for_finishes(two, payout_table(20, 1000)) == [(110 + 80) // 2] * 2


STRUCTURE = (
    "".join(f"[[step]]\nsmall_blind = {b}\nbig_blind = {2 * b}\nminutes = 20\n" for b in (100, 200))
    + "[[step]]\nbreak_minutes = 10\n"
    + ("[[step]]\nsmall_blind = 300\nbig_blind = 600\nminutes = 20\n")
)


@pytest.mark.needs("mosquitto")
def test_clock_display_shows_payouts_rings_and_honours_the_mute(
    tmp_path: Path, browser: Any
) -> None:
    broker = MosquittoProcess.from_shipped(tmp_path, users=USERS)
    broker.start(timeout=120)
    clock = pages = director = table_login = None
    try:
        clock = room_clock(broker, STRUCTURE, prize_pool=PrizePool(
            buy_in=100, re_entry=100, add_on=50, rake_percent=10))
        clock.start()
        assert clock.subscribed.wait(60), "the clock could not subscribe"
        director = Watcher(
            broker.port,
            "director",
            ("pokertable/v1/club/clock/status", "pokertable/v1/club/leaderboard"),
        )
        control = "pokertable/v1/club/clock/control"
        director.publish(
            control,
            {
                "command": "entries",
                "players": 18,
                "re_entries": 2,
                "add_ons": 4,
                "starting_stack": 5000,
            },
        )
        # a table with five players left: the next one out finishes 5th, the first paid
        table = Table(
            (
                (1, "Ann", 9000),
                (2, "Bob", 6000),
                (3, "Cat", 4000),
                (4, "Dan", 3500),
                (5, "Eve", 2500),
            ),
            first_button=5,
        )
        table_login = Watcher(broker.port, TABLE_LOGIN, (f"{PREFIX}/cmd/#",))
        table_login.publish(
            f"{PREFIX}/state",
            {
                **table_state(table.session, table.t),
                "venue": "club",
                "table": "t9",
                "session": "s",
                "seq": 1,
                "ts_ms": 1,
                "schema_version": 1,
            },
        )

        def status() -> dict[str, Any] | None:
            assert director is not None
            shown = director.on("/clock/status")
            return (
                shown[-1]
                if shown and shown[-1]["players_left"] == 5 and shown[-1]["prize_pool"] == 1980
                else None
            )

        shown = wait_for(status, "the clock's status with the prize pool", timeout=60)
        validate("clock_status", shown)
        assert [p["amount"] for p in shown["payouts"]] == [794, 495, 316, 217, 158]
        assert shown["next_payout"] == {"place": 5, "amount": 158}
        board = wait_for(
            lambda: (
                director is not None
                and director.on("/leaderboard")
                and director.on("/leaderboard")[-1].get("prize_pool") == 1980
                and director.on("/leaderboard")[-1]
            ),
            "the leaderboard's payouts",
        )
        validate("leaderboard", board)

        pages = display("club", f"ws://127.0.0.1:{broker.ws_port}")
        pages.start()
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        page.goto(pages.url)
        page.wait_for_selector("#payout-list li[data-place='5'].next", timeout=60_000)
        assert page.inner_text("#pool") == "Prize pool 1,980"
        assert page.inner_text("#next-payout") == "Next out: 5th · 158"
        assert page.inner_text("#mute") == "Sound on"

        director.publish(control, {"command": "icm_deal"})
        page.wait_for_selector("#deal:not([hidden])", timeout=60_000)
        assert page.inner_text("#deal").startswith("ICM deal")
        deal = page.inner_text("#deal").splitlines()[1:]
        assert [line.split()[0] for line in deal] == ["Ann", "Bob", "Cat", "Dan", "Eve"]
        shares = [int(line.rsplit(": ", 1)[1].replace(",", "")) for line in deal]
        assert shares == sorted(shares, reverse=True) and sum(shares) <= 1980
        page.screenshot(path=str(DOCS / "clock-payouts.png"))
        director.publish(control, {"command": "end_deal"})
        page.wait_for_selector("#deal[hidden]", state="attached", timeout=60_000)

        # a new level rings ...
        director.publish(control, {"command": "next_step"})
        page.wait_for_function("() => window.clockSounds.length === 1", timeout=60_000)
        assert page.evaluate("window.clockSounds") == [{"kind": "level", "played": True}]
        # ... muted, the break that follows does not; the choice outlives a reload
        page.click("#mute")
        assert page.get_attribute("#mute", "aria-pressed") == "true"
        page.reload()
        page.wait_for_selector("#mute[aria-pressed='true']", timeout=60_000)
        page.wait_for_function(
            "() => document.getElementById('step').textContent === 'Level 2'", timeout=60_000
        )
        director.publish(control, {"command": "next_step"})
        page.wait_for_function("() => window.clockSounds.length === 1", timeout=60_000)
        assert page.evaluate("window.clockSounds") == [{"kind": "break", "played": False}]
        assert page.inner_text("#step") == "Break"
        page.click("#mute")
        director.publish(control, {"command": "next_step"})
        page.wait_for_function("() => window.clockSounds.length === 2", timeout=60_000)
        assert page.evaluate("window.clockSounds[1]") == {"kind": "level", "played": True}
        assert (
            json.loads(page.evaluate("JSON.stringify(localStorage)"))["pokertable-clock-muted"]
            == "0"
        )
    finally:
        for part in (pages, clock):
            if part is not None:
                part.stop()
        for watcher in (director, table_login):
            if watcher is not None:
                watcher.stop()
        broker.stop()


def _two_bust(hand_for_hand: int | None) -> Finishes:
    """Two players out on one hand with five left before it: places 4 and 5, tied."""
    return _busts_on_one_hand(2, seated=5, players_left=5, hand_for_hand=hand_for_hand)


@pytest.mark.parametrize(("hand_for_hand", "td"), [(0, False), (None, True)])
def test_the_leaderboard_pays_tied_busts_and_marks_what_the_td_decides(
    hand_for_hand: int | None, td: bool
) -> None:
    """RP-8-A: on one hand-for-hand hand the tie shares 4th and 5th; on one table's hand
    outside it no rule orders them: the same even split, marked for the TD."""
    from pokertable.room.chipcounts import Entries

    clock = ClockService(
        host="127.0.0.1",
        port=1,
        venue="club",
        structure_text=STRUCTURE,
        login=("clock", "unused"),
        prize_pool=PrizePool(buy_in=100),
    )
    clock.entries = Entries(players=20)
    clock.finishes = _two_bust(hand_for_hand)
    board = clock._board()
    validate("leaderboard", {"schema_version": 1, **board})
    assert [p["amount"] for p in board["payouts"]] == [800, 500, 320, 220, 160]
    assert [(r["place"], r["prize"], r.get("prize_td", False)) for r in board["eliminated"]] == [
        (4, 190, td),
        (4, 190, td),
    ]


def test_a_bad_clock_control_is_refused_by_its_schema(caplog: pytest.LogCaptureFixture) -> None:
    """``clock/control`` is checked against clock_control.json: a bad one names the field
    and changes nothing; a good one acts."""
    clock = ClockService(
        host="127.0.0.1", port=1, venue="club", structure_text=STRUCTURE, login=("clock", "unused")
    )
    clock._control({"command": "payouts", "buy_in": "100"})
    clock._control({"command": "go_to_level", "level": "2"})
    assert clock.pool == PrizePool() and clock.clock.index == 0
    assert "field buy_in" in caplog.text and "field level" in caplog.text
    clock._control({"command": "payouts", "buy_in": 100, "table_csv": "place,percent\n1,100\n"})
    clock._control({"command": "go_to_level", "level": 2, "note": "by ann (floor console)"})
    assert clock.pool.buy_in == 100 and clock.clock.index == 1
