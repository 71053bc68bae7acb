"""What arrives on a table's command topics: a validated command, or a rejection to answer.

Split from ``bridge`` (which re-exports these names): the bridge's worker decodes every
inbound message against its schema here and answers a bad one on the reply topic, echoing
the sender's request id when it is usable so the sender can match the answer.

>>> request_id_of(b'{"request_id": "r1", "command": 3}'), command_of(b'{"command": 3}')
('r1', None)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from dataclasses import dataclass
from typing import Any, Literal

from pokertable.mqtt.errors import PayloadError
from pokertable.mqtt.payloads import MAX_INBOUND_BYTES, SchemaName, decode
from pokertable.mqtt.topics import COMMAND_ROLES, TableTopics, command_role

log = logging.getLogger("pokertable.mqtt.bridge")


@dataclass(frozen=True, slots=True)
class TlsOptions:
    """TLS for the broker connection; ``ca_certs`` None means the system trust store."""

    ca_certs: str | None = None
    certfile: str | None = None
    keyfile: str | None = None
    insecure: bool = False  # skip hostname check (lab brokers with an IP in the cert)


@dataclass(frozen=True, slots=True)
class InboundCommand:
    """A clock or director command that passed its schema; the application applies it."""

    source: Literal["clock", "director"]
    command: str
    request_id: str
    payload: dict[str, Any]
    topic: str

    @property
    def sender(self) -> str | None:
        """The broker login that sent a table command: its topic is ``.../cmd/<login>``,
        which the ACL lets only that login publish (``None`` for the venue clock).

        >>> topic = "pokertable/v1/casino/t07/cmd/director/ann"
        >>> InboundCommand("director", "pause", "r1", {}, topic).sender
        'director/ann'
        """
        parts = self.topic.split("/")  # pokertable/v1/<venue>/<table>/cmd/<login...>
        if len(parts) < 6 or parts[4] != "cmd":
            return None
        return "/".join(parts[5:]) or None


@dataclass(frozen=True, slots=True)
class RejectedCommand:
    """An inbound message that broke its schema; an error reply has already been sent."""

    topic: str
    request_id: str | None
    error: str
    field: str | None


@dataclass(frozen=True, slots=True)
class RebirthRequest:
    """A consumer asks for the full state again (``cmd/rebirth``)."""

    request_id: str


def read_command(
    topics: TableTopics, topic: str, raw: bytes, retained: bool
) -> InboundCommand | RebirthRequest | RejectedCommand | None:
    """What one inbound message asks: a command, a rebirth, a refusal to answer (the
    caller replies on the reply topic), or None for a topic no login commands from."""
    schema: SchemaName
    if topic == topics.clock:
        schema = "clock"
    elif topic == topics.rebirth:
        schema = "rebirth"
    elif (sender := topics.sender_of(topic)) is not None and command_role(sender):
        schema = "director"
    else:
        log.warning("ignored a message on %s: not a login that commands tables", topic)
        return None
    if retained:
        # A command is a request, not state: the broker delivers a retained one to every
        # later subscriber (a restart, a new journal that no longer knows its
        # request_id), so it is never applied. Live delivery never has the flag set.
        return RejectedCommand(topic, request_id_of(raw), "retain: a retained command is "
                               "stale and never applied; publish commands without the "
                               "retain flag", "retain")
    try:
        payload = decode(schema, raw)
    except PayloadError as err:
        return RejectedCommand(topic, request_id_of(raw), err.message, err.field)
    if schema == "rebirth":
        return RebirthRequest(payload["request_id"])
    if schema == "director":  # a role limited to some commands (the clock's login)
        sender = topics.sender_of(topic) or ""
        allowed = COMMAND_ROLES[command_role(sender) or ""]
        if allowed is not None and payload["command"] not in allowed:
            error = (f"login {sender!r} may not send {payload['command']!r} "
                     f"(only {sorted(allowed)})")
            return RejectedCommand(topic, payload["request_id"], error, "command")
    return InboundCommand(schema, payload["command"], payload["request_id"], payload, topic)


def table_client_id(venue: str, table: str, password: str | None) -> str:
    """The table's MQTT client id: stable across restarts, unknowable without its password.

    The broker disconnects a client when another connects with the same client id, and
    fires the first one's will. A predictable id (``pokertable-<venue>-<table>``) let any
    login silence a table that way. Derived from the table's own password, the id stays the
    same across restarts (a restarted table replaces its own stale connection, and its will
    fires before the new birth), but only a holder of the password can compute it.

    >>> table_client_id("casino", "t07", None)
    'pokertable-casino-t07'
    >>> table_client_id("casino", "t07", "s3cret") == table_client_id("casino", "t07", "other")
    False
    """
    if not password:
        return f"pokertable-{venue}-{table}"
    tag = hmac.new(password.encode(), f"client-id:{venue}/{table}".encode(), hashlib.sha256)
    return f"pokertable-{venue}-{table}-{tag.hexdigest()[:20]}"


def _loose_json(raw: bytes) -> dict[str, Any]:
    if len(raw) > MAX_INBOUND_BYTES:
        return {}
    try:
        value = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return {}
    return value if isinstance(value, dict) else {}


def request_id_of(raw: bytes) -> str | None:
    """Echo the request id of a rejected command when it is usable, so the sender can match."""
    value = _loose_json(raw).get("request_id")
    return value if isinstance(value, str) and 0 < len(value) <= 64 else None


def command_of(raw: bytes) -> str | None:
    value = _loose_json(raw).get("command")
    return value if isinstance(value, str) and len(value) <= 64 else None
