"""``PatchedEncoder`` gives the bridge's bytes for every payload of a stream (mqtt/patched_json).

Random streams of typed objects, each the last one with a few changes (a value replaced, a
key added or dropped, a list item changed, the list grown or shrunk, keys reordered), as
the table's state changes between inputs: every payload is encoded exactly as ``dumps``.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.mqtt.patched_json import PatchedEncoder, dumps

KEYS = ("ts_ms", "hand_id", "seats", "board", "paused", "level", "alerts", "é", "pots")
# one JSON type per key, as the schemas fix them (null aside)
SCALARS: dict[str, st.SearchStrategy[Any]] = {
    "ts_ms": st.integers(0, 2**40),
    "hand_id": st.none() | st.text(max_size=6),
    "paused": st.booleans(),
    "é": st.text(max_size=4),
}
ITEMS: dict[str, st.SearchStrategy[Any]] = {
    "seats": st.fixed_dictionaries({
        "seat": st.integers(1, 9), "bet": st.integers(0, 5000),
        "status": st.sampled_from(["active", "folded", "empty"]),
        "upcards": st.lists(st.sampled_from(["As", "Kd"]), max_size=2)}),
    "board": st.sampled_from(["2c", "Th", "Ah"]),
    "alerts": st.fixed_dictionaries({"id": st.integers(1, 3), "text": st.text(max_size=5)}),
    "pots": st.integers(0, 900),
}
LISTS = {key: st.lists(item, max_size=4) for key, item in ITEMS.items()}
OBJECTS: dict[str, st.SearchStrategy[Any]] = {
    "level": st.none() | st.fixed_dictionaries({"number": st.integers(1, 3)}),
}
VALUES = {**SCALARS, **LISTS, **OBJECTS}


@st.composite
def streams(draw: st.DrawFn) -> list[dict[str, Any]]:
    payload = {k: draw(VALUES[k]) for k in draw(st.permutations(KEYS))[:draw(st.integers(0, 9))]}
    out = [payload]
    for _ in range(draw(st.integers(1, 8))):
        payload = dict(payload)
        for _ in range(draw(st.integers(0, 3))):
            key = draw(st.sampled_from(KEYS))
            change = draw(st.sampled_from(("set", "drop", "item", "reorder")))
            if change == "drop":
                payload.pop(key, None)
            elif change == "reorder":
                payload = dict(reversed(list(payload.items())))
            elif change == "item" and key in LISTS and payload.get(key):
                items = list(payload[key])
                items[draw(st.integers(0, len(items) - 1))] = draw(ITEMS[key])
                payload[key] = items
            else:
                payload[key] = draw(VALUES[key])
        out.append(payload)
    return out


@settings(max_examples=300, deadline=None)
@given(streams())
def test_every_payload_is_encoded_as_the_bridge_encodes_it(stream: list[dict[str, Any]]) -> None:
    encoder = PatchedEncoder()
    for payload in stream:
        assert encoder.encode(payload) == dumps(payload)
        # ...which is ``json``'s, whatever ``dumps`` builds once instead of per call
        assert dumps(payload) == json.dumps(payload, separators=(",", ":"),
                                            ensure_ascii=False).encode("utf-8")


def test_one_changed_seat_keeps_the_other_seats_texts() -> None:
    """What is patched: the seat that changed is encoded again, not the others."""
    encoder = PatchedEncoder()
    seats = [{"seat": n, "bet": 0} for n in (1, 2, 3)]
    encoder.encode({"ts_ms": 1, "seats": seats})
    entry = encoder._last["seats"]
    changed = [dict(seats[0]), dict(seats[1], bet=200), dict(seats[2])]
    assert encoder.encode({"ts_ms": 2, "seats": changed}) == dumps({"ts_ms": 2, "seats": changed})
    after = encoder._last["seats"]
    assert after[2][0] is entry[2][0] and after[2][2] is entry[2][2]
    assert after[2][1] is not entry[2][1]
