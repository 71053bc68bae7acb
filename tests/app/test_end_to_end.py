"""End to end: real firmware on simulated felt -> ptys -> ``pokertable run`` -> mosquitto (with
the shipped ACL) -> a subscriber. One scripted hand: an overchip call (R44), a multi-chip
raise (R45), an all-in and a side pot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pokertable.bench.table_rig import PREFIX, TableRig
from pokertable.bench.waiting import wait_for

pytestmark = pytest.mark.needs("mosquitto", "micropython")

PLAYERS = [(1, "Ann", 5000), (2, "Bob", 5000), (3, "Cat", 1500)]


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[TableRig]:
    table = TableRig(tmp_path, PLAYERS, first_button=3)
    try:
        yield table
    finally:
        table.close()


def seat(state: dict, number: int) -> dict:
    return next(s for s in state["seats"] if s["seat"] == number)


def test_scripted_hand_reaches_the_room_with_rule_ids(rig: TableRig) -> None:
    rig.start_controller()
    watch = rig.overlay
    watch.wait_state(lambda s: s["hand_number"] == 0, "the controller's first state")
    rig.button("hand_start")
    watch.wait_state(lambda s: s["hand_number"] == 1 and s["action_on"] == 3, "hand 1")
    rig.push(1, 100)  # the blinds go out
    rig.push(2, 100, 100)
    for card_pair in ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")):
        rig.deal(f"seat{card_pair[0]}.cards", card_pair[1])
    watch.wait_state(
        lambda s: all(seat(s, n)["cards_held"] == 2 for n in (1, 2, 3)), "the hole cards"
    )

    rig.push(3, 1000)  # Cat: one 1000 chip facing the 200 blind: a call (R44)
    watch.wait_state(lambda s: seat(s, 3)["bet"] == 200 and s["action_on"] == 1, "Cat's call")
    rig.push(1, 500, 100, 100)  # Ann: 100 in + 700 more: raise to 800 (R45-B)
    watch.wait_state(
        lambda s: seat(s, 1)["bet"] == 800 and s["min_raise_to"] == 1400, "Ann's raise"
    )
    rig.push(2, 500, 100)  # Bob: every chip needed: a call (R45-A)
    watch.wait_state(lambda s: seat(s, 2)["bet"] == 800, "Bob's call")
    rig.button("all_in")  # Cat declares all in
    watch.wait_state(lambda s: seat(s, 3)["status"] == "all_in", "Cat's all-in")
    rig.push(3, 500)  # and pays it
    rig.push(1, 1000, 1000, 100, 100)  # Ann re-raises to 3,000
    watch.wait_state(lambda s: seat(s, 1)["bet"] == 3000, "Ann's re-raise")
    rig.push(2, 1000, 1000, 100, 100)  # Bob calls 3,000
    state = watch.wait_state(
        lambda s: (s["street"] == "preflop" and s["action_on"] is None) or s["street"] == "flop",
        "the end of pre-flop betting",
    )
    for zone in ("seat1.bet", "seat2.bet", "seat3.bet"):
        rig.clear(zone)  # the dealer pulls the bets in
    rig.deal("burn", "5s")
    for card in ("2c", "7d", "9h"):
        rig.deal("board", card)
    state = watch.wait_state(lambda s: s["street"] == "flop" and s["action_on"] == 1, "the flop")
    assert state["pots"] == [
        {"amount": 4500, "eligible": [1, 2, 3]},
        {"amount": 3000, "eligible": [1, 2]},
    ]
    for street, card in (("turn", "Jc"), ("river", "4s")):
        rig.button("check_call")
        watch.wait_state(lambda s: s["action_on"] == 2, "Ann's check")
        rig.button("check_call")
        watch.wait_state(lambda s: s["action_on"] is None, "Bob's check")
        rig.deal("burn", {"turn": "6s", "river": "8c"}[street])
        rig.deal("board", card)
        watch.wait_state(
            lambda s, st=street: s["street"] == st and s["action_on"] == 1, f"the {street}"
        )
    rig.button("check_call")
    watch.wait_state(lambda s: s["action_on"] == 2, "Ann's river check")
    rig.button("check_call")
    watch.wait_state(lambda s: s["street"] == "showdown", "the showdown")
    rig.button("confirm")  # the dealer: hands tabled
    state = watch.wait_state(lambda s: s["street"] == "complete", "the award")
    assert {n: seat(state, n)["stack"] for n in (1, 2, 3)} == {1: 5000, 2: 2000, 3: 4500}
    # The flop is one unit of three cards (R39 rules on "a 3-card flop"), spread together:
    # there is no order among them to check. The turn and the river follow, in that order.
    assert sorted(state["board"][:3]) == sorted(["2c", "7d", "9h"])
    assert state["board"][3:] == ["Jc", "4s"]

    rulings = [(r["rule_ids"], r["text"]) for e in watch.on("/events") for r in e["rulings"]]
    assert any("TDA2024-44" in ids for ids, _ in rulings), rulings
    assert any("TDA2024-45B1" in ids for ids, _ in rulings)
    assert any("TDA2024-45A" in ids for ids, _ in rulings)
    assert any(text.startswith("side pot 1 3000 to seat 1") for _, text in rulings)
    # The public overlay never sees a hole card.
    for _, payload in watch.messages:
        assert "cards" not in str(payload.get("seats", "")) or all(
            "cards" not in s
            for s in payload.get("seats", [])
            if isinstance(s, dict)
            and set(s) - {"seat", "player", "stack", "bet", "status", "cards_held"}
        )
    assert not [t for t, _ in watch.messages if "/secure/" in t]
    events = watch.on("/events")
    seqs = sorted({e["seq"] for e in events})
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))  # no gaps
    assert rig.stop_controller() == 0
    statuses = [s["state"] for s in watch.on("/status")]
    assert statuses[-1] == "offline", statuses
    assert f"{PREFIX}/state" in {t for t, _ in watch.messages}


def test_TDA2024_46_blind_chips_read_before_the_start_and_a_blind_put_out_late(
    rig: TableRig,
) -> None:
    """At the real table: Ann's blind goes out before the dealer presses hand start (read
    first), so her one more 100 is her call; Bob never put his blind out, and the 200 he
    puts out on his option is his blind put out late (Add. 46), published with its rule,
    not a silent 400 on the option; he checks."""
    rig.start_controller()
    watch = rig.overlay
    watch.wait_state(lambda s: s["hand_number"] == 0, "the controller's first state")
    rig.push(1, 100)  # read before the hand starts (the push waits for the read)
    rig.button("hand_start")
    watch.wait_state(lambda s: s["hand_number"] == 1 and s["action_on"] == 3, "hand 1")
    for card_pair in ((1, "Kh"), (2, "Qs"), (3, "Ah"), (1, "Kd"), (2, "Qd"), (3, "Ad")):
        rig.deal(f"seat{card_pair[0]}.cards", card_pair[1])
    watch.wait_state(
        lambda s: all(seat(s, n)["cards_held"] == 2 for n in (1, 2, 3)), "the hole cards"
    )
    rig.push(3, 100, 100)  # Cat calls
    watch.wait_state(lambda s: seat(s, 3)["bet"] == 200 and s["action_on"] == 1, "Cat's call")
    rig.push(1, 100)  # Ann completes
    watch.wait_state(lambda s: seat(s, 1)["bet"] == 200 and s["action_on"] == 2, "Ann's call")
    rig.push(2, 100, 100)  # Bob's blind, put out only now
    late = wait_for(
        lambda: next((e for e in watch.on("/events")
                      if any("put out late" in r["text"] for r in e["rulings"])), None),
        "Bob's blind put out late",
    )
    [ruling] = late["rulings"]  # his blind, and nothing else: no raise, no floor call
    assert (ruling["kind"], ruling["rule_ids"], ruling["seat"]) == (
        "accepted", ["TDA2024-46C"], 2)
    rig.button("check_call")  # play stayed on Bob: he checks his option
    state = watch.wait_state(lambda s: s["action_on"] is None, "Bob's check: pre-flop is over")
    assert {n: seat(state, n)["bet"] for n in (1, 2, 3)} == {1: 200, 2: 200, 3: 200}
    assert state["alerts"] == []
    rulings = [r for e in watch.on("/events") for r in e["rulings"]]
    assert not [r for r in rulings if r["kind"] == "floor"], rulings
    texts = [r["text"] for r in rulings]
    assert "seat 1 calls to 200" in texts, texts
    assert not any("put out late" in t and "seat 1" in t for t in texts), texts
