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
from dataclasses import dataclass
from typing import Any, Literal

from pokertable.mqtt.payloads import MAX_INBOUND_BYTES


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
