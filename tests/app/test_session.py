"""The table session: readers, console and room commands in; engine hands and messages out."""

from __future__ import annotations

from pokertable.controller.engine.model import Phase
from pokertable.controller.table.inputs import CardDetected, RoomCommand
from pokertable.controller.table.public_state import table_state
from pokertable.controller.table.session import Output
from pokertable.mqtt.payloads import validate
from tests.app.session_table import Table, _deal


def test_a_hand_from_readers_and_console_with_a_side_pot() -> None:
    table = Table()
    table.press("hand_start")
    hand = table.session.hand
    assert hand is not None and (hand.button, hand.small_blind_seat, hand.big_blind_seat) == (
        3,
        1,
        2,
    )
    _deal(table)
    assert len([o for o in table.out if o.channel == "hole_cards"]) == 3
    assert table.session.hand.action_on == 3
    table.push(3, 1000, 500)  # Cat: all in for 1,500
    table.press("check_call")  # Ann calls 1,500 (the dealer pushes her chips afterwards)
    table.push(1, 1000, 500)  # fulfils the declared call: not a second action
    table.push(2, 1000, 1000, 1000, 500, 500)  # Bob raises to 4,000 by chips alone
    table.press("fold")  # Ann folds
    hand = table.session.hand
    assert hand.phase is Phase.DEALING and hand.face_up  # one player with chips left: R16
    table.collect()
    for zone, c in (
        ("burn", "5s"),
        ("board", "2c"),
        ("board", "7d"),
        ("board", "9h"),
        ("burn", "6s"),
        ("board", "Jc"),
        ("burn", "8c"),
        ("board", "4s"),
    ):
        table.card(zone, c)
    table.press("confirm")  # dealer: live hands tabled
    hand = table.session.hand
    assert hand.phase is Phase.COMPLETE
    # Ann folded the aces; Bob's 2,500 over Cat's all-in came back; his kings beat Cat's
    # queens for the 4,500 pot and Cat leaves the table.
    stacks = {s.seat: s.stack for s in table.session.table.seats}
    assert stacks == {1: 3500, 2: 8000}
    kinds = [e["kind"] for e in table.events()]
    assert kinds[0] == "hand_start" and "hand_complete" in kinds
    for event in table.events():
        validate("event", {**event, "venue": "v", "table": "t1", "session": "s",
                           "seq": 1, "schema_version": 1})
    state = table_state(table.session, 999)
    validate("state", {**state, "venue": "v", "table": "t1", "session": "s",
                       "seq": 1, "schema_version": 1})


def test_undercall_and_out_of_turn_chips_raise_alerts_without_changing_state() -> None:
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.push(1, 100)  # the blinds go out
    table.push(2, 100, 100)
    before = table.session.hand
    out = table.push(1, 500)  # seat 3 is on the action
    assert before is table.session.hand
    assert out[0].payload["kind"] == "out_of_turn"
    assert out[0].payload["rulings"][0]["rule_ids"] == ["TDA2024-53A"]


def test_level_announced_mid_hand_applies_to_the_next_hand_R23() -> None:
    table = Table()
    table.press("hand_start")
    level = {
        "number": 2,
        "small_blind": 200,
        "big_blind": 400,
        "ante": 400,
        "ante_format": "bb_ante",
    }
    out = table(
        RoomCommand(
            "level", "r1", {"command": "level", "request_id": "r1", "level": level}, table.ms()
        )
    )
    assert out[0].channel == "reply" and out[0].payload["ok"]
    assert table.session.hand.level.big_blind == 200
    assert table.session.pending_level is not None
    table.press("fold")
    table.press("fold")
    assert table.session.hand.phase is Phase.COMPLETE
    table.press("hand_start")
    assert table.session.hand.level.big_blind == 400 and table.session.pending_level is None


def test_director_commands_are_answered_and_bad_ones_change_nothing() -> None:
    table = Table()
    before = table.session
    out = table(
        RoomCommand(
            "seat_player",
            "r2",
            {
                "command": "seat_player",
                "request_id": "r2",
                "seat": 1,
                "player": "Dan",
                "stack": 100,
            },
            table.ms(),
        )
    )
    assert out[0].payload == {
        "request_id": "r2",
        "ok": False,
        "command": "seat_player",
        "ts_ms": table.t,
        "error": "seat 1 is taken",
        "field": "seat",
    }
    assert table.session == before
    out = table(
        RoomCommand(
            "seat_player",
            "r3",
            {
                "command": "seat_player",
                "request_id": "r3",
                "seat": 5,
                "player": "Dan",
                "stack": 100,
            },
            table.ms(),
        )
    )
    assert out[0].payload["ok"] and table.session.table.occupied(5) is not None


def test_seat_leds_follow_the_action() -> None:
    table = Table()
    out = table.press("hand_start")
    leds = [o.payload for o in out if o.channel == "led"]
    assert leds == [{"seat": 3, "mode": "action"}]
    out = table.press("all_in")
    leds = [o.payload for o in out if o.channel == "led"]
    assert {"seat": 3, "mode": "all_in"} in leds and {"seat": 1, "mode": "action"} in leds


def test_overchip_call_multichip_raise_and_side_pot_from_chips_alone() -> None:
    """The issue-7 scenario, in process: R44 overchip call, R45 multi-chip raise, a side pot."""
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.push(1, 100)  # the blinds go out physically: nothing to rule
    table.push(2, 100, 100)
    assert all(o.payload["kind"] != "out_of_turn" for o in table.out if o.channel == "event")

    def rulings(out: tuple[Output, ...]) -> list[tuple[str, list[str]]]:
        return [
            (r["text"], r["rule_ids"])
            for o in out
            if o.channel == "event"
            for r in o.payload["rulings"]
        ]

    out = table.push(3, 1000)  # Cat faces the 200 big blind with one 1000 chip: a call
    assert any("TDA2024-44" in ids for _, ids in rulings(out))
    assert table.session.hand.seat(3).bet == 200
    change = [o.payload["data"] for o in out if o.channel == "event" and o.payload["data"]]
    assert change[0]["returned"] == 800
    out = table.push(1, 500, 100, 100)  # Ann (small blind 100 in) makes it 800
    assert any("TDA2024-45B1" in ids for _, ids in rulings(out))
    hand = table.session.hand
    assert (hand.call_to, hand.increment) == (800, 600)
    table.push(2, 500, 100)  # Bob calls: every chip is needed (R45-A)
    table.press("all_in")  # Cat: all in for 1,500
    table.push(1, 500, 100, 100, 1000, 500)  # Ann re-raises to 3,000
    table.push(2, 1000, 1000, 100, 100)  # Bob calls 3,000
    hand = table.session.hand
    assert hand.phase is Phase.DEALING
    from pokertable.controller.engine.pots import build_pots

    assert [(p.amount, p.eligible) for p in build_pots(hand.seats)] == [
        (4500, (1, 2, 3)),
        (3000, (1, 2)),
    ]


def test_first_card_to_the_wrong_seat_is_a_misdeal_and_the_redeal_is_the_same_hand() -> None:
    """R35-A2 from the card readers; the dealer's confirm declares it; R35-C re-deal."""
    table = Table()
    table.press("hand_start")
    hand = table.session.hand
    assert hand is not None and hand.button == 3  # the first card belongs to seat 1
    table.card("seat2.cards", "As")
    assert table.session.tracked is not None and table.session.tracked.misdeal is None
    table.t += table.session.config.card_read_window_ms  # seat 1 is not read within the window
    out = table.card("seat1.cards", "Kd")
    codes = [r["text"] for o in out if o.channel == "event" for r in o.payload["rulings"]]
    assert table.session.tracked is not None and table.session.tracked.misdeal is not None
    assert any(
        "TDA2024-35A2" in r["rule_ids"]
        for o in table.out
        if o.channel == "event"
        for r in o.payload["rulings"]
    ), codes
    table.press("confirm")  # the dealer declares the misdeal
    assert table.session.tracked.status.value == "misdeal"
    table.press("hand_start")  # the re-deal
    redeal = table.session.hand
    assert redeal is not None and redeal.hand_id.startswith(hand.hand_id + "-redeal")
    assert (redeal.button, redeal.big_blind_seat) == (hand.button, hand.big_blind_seat)
    assert table.session.hand_number == 1  # still one hand (R35-C)


def test_a_second_tag_with_the_same_card_fouls_the_deck_and_returns_all_bets() -> None:
    """R35-E: identity is rank and suit, not the tag; all bets go back."""
    table = Table()
    table.press("hand_start")
    _deal(table)
    table.push(3, 1000)  # Cat calls 200 with an overchip
    table(CardDetected("board", None, "As", table.ms(), uid="another-tag-As"))
    hand = table.session.hand
    assert hand is not None and hand.phase is Phase.COMPLETE and not hand.awards
    assert table.session.tracked is not None and table.session.tracked.status.value == "fouled"
    stacks = {s.seat: s.stack for s in table.session.table.seats}
    assert stacks == {1: 5000, 2: 5000, 3: 1500}
    assert any(
        "TDA2024-35E" in r["rule_ids"]
        for o in table.out
        if o.channel == "event"
        for r in o.payload["rulings"]
    )


def test_the_same_tag_read_again_is_not_a_second_card() -> None:
    table = Table()
    table.press("hand_start")
    _deal(table)
    before = table.session
    out = table(CardDetected("seat1.cards", 1, "As", table.ms()))
    assert out == () and table.session.hand == before.hand
