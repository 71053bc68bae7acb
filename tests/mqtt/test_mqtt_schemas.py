"""The shipped JSON Schemas: well-formed, strict, and agreeing with what the bridge sends."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from mqtt_samples import sample_event, sample_hole_cards, sample_state

from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.payloads import SCHEMA_DIR, SCHEMA_NAMES, decode, load_schema, validate

ORIGIN = {"venue": "casino", "table": "t07", "session": "s1", "seq": 1, "ts_ms": 1,
          "schema_version": 1}


def test_every_schema_file_is_a_valid_2020_12_schema_and_shipped():
    names = {p.stem for p in SCHEMA_DIR.glob("*.json")}
    assert names == {*SCHEMA_NAMES, "common"}
    for name in names:
        Draft202012Validator.check_schema(load_schema(name))


@pytest.mark.parametrize(
    ("name", "payload"),
    [
        ("state", {**ORIGIN, **sample_state()}),
        ("event", {**ORIGIN, **sample_event()}),
        ("hole_cards", {**ORIGIN, **sample_hole_cards()}),
        ("status", {**ORIGIN, "state": "lost", "schema": "pokertable/v1"}),
        ("reply", {**ORIGIN, "request_id": None, "ok": False, "command": None,
                   "error": "bad", "field": None}),
    ],
)
def test_samples_are_valid(name, payload):
    validate(name, payload)


@pytest.mark.parametrize(
    ("name", "payload", "field"),
    [
        # Hole cards can never ride along in the public state.
        ("state", {**ORIGIN, **sample_state(seats=[{"seat": 1, "player": "Ada", "stack": 1,
                                                     "bet": 0, "status": "active",
                                                     "cards_held": 2, "cards": ["Ah", "Kh"]}])},
         "seats.0.cards"),
        ("state", {**ORIGIN, **sample_state(board=["As", "As"])}, "board"),
        ("state", {**ORIGIN, **sample_state(board=["1s"])}, "board.0"),
        ("state", {**ORIGIN, **sample_state(street="eighth")}, "street"),
        ("state", {k: v for k, v in {**ORIGIN, **sample_state()}.items() if k != "seq"}, "seq"),
        ("state", {**ORIGIN, **sample_state(), "hole_cards": []}, "hole_cards"),
        ("event", {**ORIGIN, **sample_event(rulings=[{"rule_ids": ["TDA 45"], "kind": "floor",
                                                      "seat": None, "text": ""}])},
         "rulings.0.rule_ids.0"),
        ("event", {**ORIGIN, **sample_event(rulings=[{"rule_ids": [], "kind": "maybe",
                                                      "seat": None, "text": ""}])},
         "rulings.0.kind"),
        ("hole_cards", {**ORIGIN, **sample_hole_cards(seat=0)}, "seat"),
        ("reply", {**ORIGIN, "request_id": "r", "ok": False, "command": None}, "error"),
        ("status", {**ORIGIN, "state": "zombie", "schema": "pokertable/v1"}, "state"),
    ],
)
def test_strict_schemas_name_the_bad_field(name, payload, field):
    with pytest.raises(PayloadError) as caught:
        validate(name, payload)
    assert caught.value.field == field


def test_decode_rejects_non_objects():
    with pytest.raises(PayloadError, match="JSON object"):
        decode("director", b'"pause"')
    with pytest.raises(PayloadError, match="UTF-8 JSON"):
        decode("director", b"\xff\xfe")


CARDS = st.sampled_from([r + s for r in "23456789TJQKA" for s in "cdhs"])
SEAT = st.integers(1, 12)
CHIPS = st.integers(0, 10**9)


@st.composite
def states(draw: st.DrawFn) -> dict[str, Any]:
    seat_numbers = draw(st.lists(SEAT, unique=True, max_size=10))
    return {
        **ORIGIN,
        "seq": draw(st.integers(1, 2**53)),
        "hand_id": draw(st.one_of(st.none(), st.text("abc-0123456789", min_size=1, max_size=8))),
        "hand_number": draw(st.integers(0, 10**6)),
        "level": {"number": draw(st.integers(1, 100)), "small_blind": draw(CHIPS),
                  "big_blind": draw(st.integers(1, 10**9)), "ante": draw(CHIPS),
                  "ante_format": draw(st.sampled_from(["none", "bb_ante", "per_player",
                                                       "button_ante"]))},
        "pending_level": None,
        "paused": draw(st.booleans()),
        "hand_for_hand": draw(st.booleans()),
        "button": draw(st.one_of(st.none(), SEAT)),
        "street": draw(st.sampled_from([None, "preflop", "flop", "turn", "river", "showdown",
                                        "complete"])),
        "board": draw(st.lists(CARDS, unique=True, max_size=5)),
        "pots": [{"amount": draw(CHIPS), "eligible": draw(st.lists(SEAT, unique=True))}],
        "seats": [
            {"seat": n, "player": draw(st.one_of(st.none(), st.text(max_size=20))),
             "stack": draw(CHIPS), "bet": draw(CHIPS),
             "status": draw(st.sampled_from(["empty", "active", "folded", "all_in",
                                             "sitting_out", "absent"])),
             "cards_held": draw(st.integers(0, 4))}
            for n in seat_numbers
        ],
        "action_on": draw(st.one_of(st.none(), SEAT)),
        "to_call": draw(CHIPS),
        "min_raise_to": draw(CHIPS),
        "substantial_action": draw(st.booleans()),
        "alerts": [],
    }


@settings(max_examples=150, deadline=None)
@given(states())
def test_generated_states_validate_and_survive_the_json_round_trip(state):
    validate("state", state)
    wire = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    assert json.loads(wire) == state


@settings(max_examples=150, deadline=None)
@given(states(), st.sampled_from(["venue", "table", "session", "seq", "ts_ms", "seats",
                                  "level", "alerts"]))
def test_any_missing_required_field_is_named(state, missing):
    del state[missing]
    with pytest.raises(PayloadError) as caught:
        validate("state", state)
    assert caught.value.field == missing


def test_arbitrary_bytes_never_crash_the_command_decoder():
    """Any bytes decode to a valid command or raise PayloadError. Valid commands are mixed
    in and must decode: a decoder refusing everything would pass the first half alone."""
    valid = st.builds(
        lambda command, request_id: json.dumps(
            {"command": command, "request_id": request_id}).encode(),
        st.sampled_from(["pause", "resume"]),
        st.text(st.characters(min_codepoint=48, max_codepoint=122), min_size=1, max_size=20),
    )
    accepted: list[bytes] = []

    @settings(max_examples=100, deadline=None)
    @given(st.one_of(st.binary(max_size=200), valid))
    def any_bytes(raw: bytes) -> None:
        try:
            payload = decode("director", raw)
        except PayloadError:
            return
        assert payload["command"] and payload["request_id"]  # only a valid command gets here
        accepted.append(raw)

    any_bytes()
    assert accepted, "every input was refused"
