"""What the bridge puts around every message of a table: venue, table, session, sequence
number, time and schema version, checked against the schema when asked, then encoded.

The bridge stores a message's builder, not its bytes: the outbox gives it its sequence
number when it stores the row (``Outbox.append``), so a message is stamped exactly once.

    stamps = Stamps(TableTopics("casino", "t07"), "s-1", clock_ms=lambda: 0)
    stamps.builder("reply", {"request_id": "r1", "ok": True, "command": "pause"})(7)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pokertable.mqtt import patched_json
from pokertable.mqtt.payloads import SCHEMA_VERSION, SchemaName, validate
from pokertable.mqtt.topics import TableTopics

SCHEMA_TAG = "pokertable/v1"


class Stamps:
    """One table's stamps; ``validate_outbound`` checks each message against its schema."""

    def __init__(self, topics: TableTopics, session: str, *, clock_ms: Callable[[], int],
                 validate_outbound: bool = False) -> None:
        self.topics = topics
        self.session = session
        self.clock_ms = clock_ms
        self.validate_outbound = validate_outbound

    def stamp(self, data: dict[str, Any], seq: int) -> dict[str, Any]:
        stamped = dict(data)  # the stamps after the data's members, in this order
        stamped["venue"] = self.topics.venue
        stamped["table"] = self.topics.table
        stamped["session"] = self.session
        stamped["seq"] = seq
        stamped["ts_ms"] = data["ts_ms"] if "ts_ms" in data else self.clock_ms()
        stamped["schema_version"] = SCHEMA_VERSION
        return stamped

    def builder(
        self, schema: SchemaName, data: dict[str, Any],
        encode: Callable[[dict[str, Any]], bytes] | None = None,
    ) -> Callable[[int], bytes]:
        """The message's bytes once its sequence number is known."""
        def build(seq: int) -> bytes:
            payload = self.stamp(data, seq)
            if self.validate_outbound:
                validate(schema, payload)
            # looked up now, not bound at import: the e2e tracer wraps it (bench/e2e_trace.py)
            return (encode or patched_json.dumps)(payload)

        return build

    def status(self, state: str, seq: int) -> bytes:
        """The retained status (birth, will, offline): ``seq`` is the birth-death sequence."""
        payload = {
            "venue": self.topics.venue,
            "table": self.topics.table,
            "session": self.session,
            "seq": seq,
            "ts_ms": self.clock_ms(),
            "schema_version": SCHEMA_VERSION,
            "state": state,
            "schema": SCHEMA_TAG,
        }
        if self.validate_outbound:
            validate("status", payload)
        return patched_json.dumps(payload)


def overflow_event(streams: dict[str, tuple[int, int, int]]) -> dict[str, Any]:
    """The event that says the outbox dropped its oldest messages (stream -> count, first
    and last seq), so consumers know to ask for a rebirth."""
    dropped = {
        s: {"count": c, "first_seq": f, "last_seq": last} for s, (c, f, last) in streams.items()
    }
    return {
        "hand_id": None,
        "kind": "outbox_overflow",
        "rulings": [
            {
                "rule_ids": [],
                "kind": "alert",
                "seat": None,
                "text": "broker unreachable too long: oldest queued messages were "
                "dropped; request a rebirth for the current state",
            }
        ],
        "data": {"dropped": dropped},
    }
