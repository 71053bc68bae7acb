"""What the room's services accept from the broker: a JSON object, or a ValueError.

Any login allowed to publish on a topic a service reads can send garbage; a bad payload is
logged and dropped by the caller, never allowed to kill paho's network thread.
"""

from __future__ import annotations

import json
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
