"""The floor console in a real browser (Debian's Chromium via Playwright's executable_path)
against a real table: a silent raise on the big blind's option goes to the floor (A6), the
console shows the call with its rule ids and options, a person presses one, and the table
rules it and plays on. Also: a wrong password is refused on screen."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pokertable.bench.table_rig import USERS, TableRig
from pokertable.room.floor_service import console
from pokertable.room.rule_texts import lookup, rule_texts
from tests.room.conftest import ARTIFACTS, Players

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 5000)]


def _seat(state: dict[str, Any], number: int) -> dict[str, Any]:
    return next(s for s in state["seats"] if s["seat"] == number)


def test_a_floor_call_is_answered_from_the_console(
    table: Callable[[Players, int], TableRig], browser: Any
) -> None:
    rig = table(PLAYERS, 3)
    server = console("club", f"ws://127.0.0.1:{rig.broker.ws_port}")
    server.start()
    replies: list[dict[str, Any]] = []
    try:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        page.goto(server.url)
        page.fill("#username", "floor")
        page.fill("#password", "not-the-password")
        page.click("#login button")
        page.wait_for_function(
            "() => document.getElementById('login-error').textContent !== ''",
            timeout=60_000)
        assert page.is_visible("#login") and page.is_hidden("#room")

        page.fill("#password", USERS["floor"])
        page.click("#login button")
        page.wait_for_selector(".table[data-table='t9'] .status.online", timeout=60_000)
        page.wait_for_function(
            "() => document.querySelectorAll(\".table[data-table='t9'] tbody tr\")"
            ".length === 3", timeout=60_000)

        rig.button("hand_start")
        rig.overlay.wait_state(lambda s: s["hand_number"] == 1, "hand 1")
        rig.push(1, 100)
        rig.push(2, 100, 100)
        for round_ in range(2):
            for seat in (1, 2, 3):
                rig.deal(f"seat{seat}.cards", "KQJ"[seat - 1] + "hd"[round_])
        # every physical step is read before the next one, as a dealer waits for the table
        rig.overlay.wait_state(
            lambda s: s["action_on"] == 3 and _seat(s, 1)["bet"] == 100
            and _seat(s, 2)["bet"] == 200
            and all(_seat(s, n)["cards_held"] == 2 for n in (1, 2, 3)),
            "the blinds and the deal read, Cat to act")
        rig.push(3, 100, 100)  # Cat calls 200
        rig.overlay.wait_state(lambda s: s["action_on"] == 1 and _seat(s, 3)["bet"] == 200,
                               "Cat's call read, Ann to act")
        rig.push(1, 100)  # Ann completes
        rig.overlay.wait_state(lambda s: s["action_on"] == 2 and _seat(s, 1)["bet"] == 200,
                               "Ann's completion read, Bob's option")
        rig.push(2, 500)  # Bob pushes chips without a word on his option: the floor (A6)
        state = rig.overlay.wait_state(lambda s: bool(s["alerts"]), "the floor call")
        alert = state["alerts"][0]

        card = page.wait_for_selector(f".call[data-alert='{alert['id']}']",
                                      timeout=60_000)
        assert card is not None
        assert " ".join(alert["rule_ids"]) in card.inner_text()
        texts = rule_texts()
        for rule_id in alert["rule_ids"]:  # the rulebook's text beside each rule id
            shown = page.inner_text(f".call[data-alert='{alert['id']}'] "
                                    f".rule-text[data-rule='{rule_id}']")
            wanted = lookup(texts, rule_id)
            assert wanted["concepts"] or wanted["passages"], rule_id
            for title in wanted["title"]:
                assert title in shown
            for concept in wanted["concepts"]:
                assert concept.replace("_", " ") in shown
            for passage in wanted["passages"]:
                assert passage in shown
        options = page.eval_on_selector_all(f".call[data-alert='{alert['id']}'] button",
                                            "els => els.map(e => e.dataset.option)")
        assert options == alert["options"]
        page.screenshot(path=str(ARTIFACTS / "floor-call.png"), full_page=True)

        assert "check" in options  # the TD may rule the chips a check (A6)
        page.click(f".call[data-alert='{alert['id']}'] button[data-option='check']")
        after = rig.overlay.wait_state(
            lambda s: alert["id"] not in [a["id"] for a in s["alerts"]], "the call answered")
        page.wait_for_selector(f".call[data-alert='{alert['id']}']", state="detached",
                               timeout=60_000)
        # the table applied the decision: Bob checked, so pre-flop betting is over
        assert _seat(after, 2)["bet"] == 200 and after["action_on"] is None
        replies = rig.director.on("/reply")
        page.wait_for_function(
            "() => document.querySelector(\".table[data-table='t9'] .reply\")"
            ".textContent.startsWith('floor_decision: done')", timeout=60_000)
        page.screenshot(path=str(ARTIFACTS / "floor-answered.png"), full_page=True)
    finally:
        server.stop()
    assert not [r for r in replies if r.get("ok") is False and "floor" in json.dumps(r)]
