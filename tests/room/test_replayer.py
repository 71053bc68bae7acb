"""The hand replayer (issue #31 goal 6): a hand played again through the engine step by
step, and the page in Debian's Chromium stepping through it (board, pots, stacks, equities
per street, rulings with the rulebook's text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pokertable.controller.history.phh import PhhError
from pokertable.room.replayer import EXAMPLE, hand_steps
from pokertable.room.web import ROOM_DIR, PageServer

DOCS = Path(__file__).resolve().parents[2] / "docs"


def test_steps_follow_the_engine_to_the_side_pot() -> None:
    """Three-way all in pre-flop (docs/examples/side-pot.phh): Ann's aces win the main pot
    (9,200), Bob's kings the side pot (9,600); equities on each street add up to 100."""
    replay = hand_steps(Path(EXAMPLE).read_text("utf-8"))
    steps = replay["steps"]
    assert replay["players"] == ["Ann", "Bob", "Cat"]
    last = steps[-1]
    assert last["street"] == "complete"
    assert {w["player"]: w["amount"] for w in last["winners"]} == {"Ann": 9200, "Bob": 9600}
    assert {s["player"]: s["stack"] for s in last["seats"]} == {
        "Ann": 9200,
        "Bob": 9600,
        "Cat": 4200,
    }
    flop = next(s for s in steps if s["board"] and len(s["board"]) == 3)
    assert flop["street"] == "flop" and flop["pot"] == 18_800
    for step in steps:
        known = [s["equity"] for s in step["seats"] if s["equity"] is not None]
        if known:
            assert sum(known) == pytest.approx(100, abs=0.2)
    raises = [r for s in steps for r in s["rulings"] if "TDA2024-43A" in r["rule_ids"]]
    assert raises and all(r["rule_text"] for r in raises)  # the rulebook's passage


def test_an_illegal_action_is_named() -> None:
    text = Path(EXAMPLE).read_text("utf-8").replace('"p3 cbr 600"', '"p3 cbr 250"')
    with pytest.raises(PhhError, match="illegal"):
        hand_steps(text)


def test_the_page_steps_through_the_hand(browser: Any) -> None:
    body = json.dumps(hand_steps(Path(EXAMPLE).read_text("utf-8"), name="side-pot.phh"))
    pages = PageServer(
        ROOM_DIR,
        {},
        0,
        page="replayer/",
        routes={"/hand.json": lambda query: ("application/json", body.encode())},
    )
    pages.start()
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(pages.url)
        page.wait_for_selector("body[data-step='0']", state="attached", timeout=60_000)
        assert page.inner_text("#hand") == "side-pot.phh"
        assert page.inner_text("#pot") == "Pot 500"
        for _ in range(8):  # deal, three hands dealt, four actions: the flop next
            page.click("#next")
        page.wait_for_selector("body[data-step='8']", state="attached")
        assert page.inner_text("#action") == "board 2c 7d 8s"
        assert page.eval_on_selector_all(
            "#board [data-card]", "els => els.map(e => e.dataset.card)"
        ) == ["2c", "7d", "8s"]
        equities = page.eval_on_selector_all(
            "#seats tbody .equity", "els => els.map(e => e.textContent)"
        )
        assert all(e.endswith("%") for e in equities)
        page.keyboard.press("ArrowLeft")  # back to Cat's call: the rulings with rule text
        page.wait_for_selector("body[data-step='7']", state="attached")
        assert "TDA2024-16" in page.inner_text("#ruling-list")
        page.screenshot(path=str(DOCS / "replayer.png"))
        page.click("#last")
        page.wait_for_selector("#winners:has-text('Ann wins 9,200')", timeout=10_000)
        assert page.is_disabled("#next")
    finally:
        pages.stop()


def test_the_archive_lists_its_hands_and_replays_one(tmp_path: Path, browser: Any) -> None:
    """With the archive (``--db``) the page lists the venue's hands; a hand opens in the
    replayer; a hand not in the archive is a 404 that names it."""
    import argparse
    import urllib.error
    import urllib.request

    from pokertable.room.hand_archive import HandRecord
    from pokertable.room.hand_store import open_store
    from pokertable.room.replayer import server

    db = str(tmp_path / "hands.sqlite3")
    store = open_store(db)
    store.put(
        HandRecord(
            "casino",
            "t07",
            "s1",
            42,
            "h-0042",
            None,
            1,
            Path(EXAMPLE).read_text("utf-8"),
            ("Ann", "Bob", "Cat"),
            (9200, 9600, 4200),
            True,
        )
    )
    store.close()
    pages = server(
        argparse.Namespace(
            db=db, venue="casino", key_file=None, http_port=0, bind="127.0.0.1", phh=None
        )
    )
    pages.start()
    try:
        with pytest.raises(urllib.error.HTTPError) as missing:
            urllib.request.urlopen(
                f"{pages.url.rsplit('/replayer/', 1)[0]}/hand.json?table=t07&number=99", timeout=30
            )
        assert missing.value.code == 404
        assert "no replayable hand 99 of table t07" in str(missing.value.reason)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(pages.url)
        page.click("#hands a[data-table='t07'][data-number='42']")
        page.wait_for_selector("body[data-step='0']", state="attached", timeout=60_000)
        assert page.inner_text("#hand") == "casino/t07 hand 42 (h-0042)"
        page.click("#last")
        page.wait_for_selector("#winners:has-text('Bob wins 9,600')", timeout=10_000)
    finally:
        pages.stop()


def test_the_floor_console_links_to_the_replayer(browser: Any) -> None:
    from pokertable.room.floor_service import console

    pages = console("casino", "ws://127.0.0.1:1", replayer_url="http://hands.local:8084/")
    pages.start()
    try:
        page = browser.new_page()
        page.goto(pages.url)
        page.wait_for_selector("#replayer:not([hidden])", timeout=60_000)
        assert page.get_attribute("#replayer", "href") == "http://hands.local:8084/"
    finally:
        pages.stop()
