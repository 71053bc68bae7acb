"""What the room's services accept from the broker: a JSON object, or a ValueError.

Any login allowed to publish on a topic a service reads can send garbage; a bad payload is
logged and dropped by the caller, never allowed to kill paho's network thread.
"""

from __future__ import annotations

import json
import logging
from typing import Any


def json_object(raw: bytes) -> dict[str, Any]:
    """The payload as a dict; ValueError for anything else (deep nesting included).

    >>> json_object(b'{"a": 1}')
    {'a': 1}
    >>> json_object(b"[" * 100_000)
    Traceback (most recent call last):
    ValueError: nested too deeply
    """
    try:
        payload = json.loads(raw)
    except RecursionError:
        raise ValueError("nested too deeply") from None
    if not isinstance(payload, dict):
        raise ValueError("not a JSON object")
    return payload


def message_object(message: Any, log: logging.Logger, service: str) -> dict[str, Any] | None:
    """A paho message's payload as a dict, or None after logging why it was dropped (the
    one guard every room service puts first in its ``on_message``)."""
    try:
        return json_object(message.payload)
    except ValueError as error:
        log.warning("%s: dropped a bad payload on %s: %s", service, message.topic, error)
        return None
