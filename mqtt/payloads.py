"""JSON Schemas of every payload, shipped in ``mqtt/schemas``, and the one place they are checked.

>>> validate("rebirth", {"command": "rebirth", "request_id": "r1"})
>>> try:
...     validate("rebirth", {"command": "rebirth"})
... except PayloadError as err:
...     print(err.field)
request_id
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource

from pokertable.mqtt.errors import PayloadError

SCHEMA_DIR = Path(__file__).parent / "schemas"
SCHEMA_VERSION = 1
"""Every outbound payload's ``schema_version``: the major version of the ``pokertable/v1``
tree. Fields are added without changing it (consumers ignore keys they do not know); a
breaking change means 2 and a ``pokertable/v2`` prefix published side by side."""
SchemaName = Literal[
    "state", "event", "hole_cards", "status", "reply", "clock", "director", "rebirth",
    "equities", "heartbeat", "clock_status", "clock_control", "leaderboard", "seating",
    "seating_control", "service_status",
]
SCHEMA_NAMES: tuple[SchemaName, ...] = (
    "state", "event", "hole_cards", "status", "reply", "clock", "director", "rebirth",
    "equities", "heartbeat", "clock_status", "clock_control", "leaderboard", "seating",
    "seating_control", "service_status",
)
_QUOTED = re.compile(r"'([^']+)'")
# Inbound commands are a few hundred bytes; the broker configs cap payloads at 64 KiB too
# (message_size_limit), this is our own line for a broker that was set up without it.
MAX_INBOUND_BYTES = 64 * 1024


def load_schema(name: str) -> dict[str, Any]:
    """The parsed schema file, for docs and for consumers written in other languages."""
    schema: dict[str, Any] = json.loads((SCHEMA_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return schema


@functools.cache
def _registry() -> Registry:
    resources = []
    for path in sorted(SCHEMA_DIR.glob("*.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


@functools.cache
def validator(name: SchemaName) -> Draft202012Validator:
    """A compiled validator; schemas are checked against the metaschema once, here."""
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, registry=_registry())


def _field_of(error: ValidationError) -> str | None:
    """Dotted path of the field at fault, including the missing or unexpected key's name."""
    path = [str(p) for p in error.absolute_path]
    if error.validator == "required" and isinstance(error.instance, dict):
        schema = error.schema if isinstance(error.schema, dict) else {}
        required: list[str] = list(schema.get("required", []))
        missing = [k for k in required if k not in error.instance]
        if missing:
            path.append(str(missing[0]))
    elif error.validator in ("additionalProperties", "unevaluatedProperties"):
        quoted = _QUOTED.findall(error.message)
        if quoted:
            path.append(quoted[0])
    return ".".join(path) or None


def validate(name: SchemaName, payload: Any) -> None:
    """Raise PayloadError naming the field when ``payload`` breaks schema ``name``."""
    errors = list(validator(name).iter_errors(payload))
    # A failing nested field also makes its parent "unevaluated"; report the nested cause.
    # An unknown key deep inside (``level.extra``) also makes its parent unevaluated
    # above: the deepest one names it.
    specific = [e for e in errors if e.validator != "unevaluatedProperties"]
    error = (best_match(specific) if specific
             else max(errors, key=lambda e: len(e.absolute_path), default=None))
    if error is not None:
        raise PayloadError(error.message, _field_of(error))


def decode(name: SchemaName, raw: bytes) -> dict[str, Any]:
    """Parse and validate one inbound payload; anything but a valid object is a PayloadError.

    Hostile input ends here as a PayloadError too: an oversized payload is refused before it
    is parsed, and JSON nested deeper than the parser's recursion limit (``"[" * 100000``)
    is an error, not a RecursionError that would kill the thread reading commands.

    >>> decode("rebirth", b"[" * 60_000)
    Traceback (most recent call last):
    pokertable.mqtt.errors.PayloadError: payload is nested too deeply
    """
    if len(raw) > MAX_INBOUND_BYTES:
        raise PayloadError(f"payload is {len(raw)} bytes; the limit is {MAX_INBOUND_BYTES}")
    try:
        payload = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as err:
        raise PayloadError(f"not valid UTF-8 JSON: {err}") from None
    except RecursionError:
        raise PayloadError("payload is nested too deeply") from None
    if not isinstance(payload, dict):
        raise PayloadError("payload must be a JSON object")
    try:
        validate(name, payload)
    except RecursionError:
        raise PayloadError("payload is nested too deeply") from None
    return payload
