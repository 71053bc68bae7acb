"""JSON for the retained table state, encoded once and patched.

Between two inputs the state changes in a seat or two (a dealt card, a call) and the stamps
(``seq``, ``ts_ms``); encoding the whole object again for every input cost as much as
building it, from cold caches, on the path of the first message (docs/benchmarks.md).
``PatchedEncoder`` keeps the last payload's text per top-level value, and per item of a
list value (the seats): a value equal to the last one at its place keeps its text, so only
what changed is encoded. The bytes are ``json`` with ``separators=(",", ":")`` and
``ensure_ascii=False``, exactly as the bridge encodes every other message.

An object value, or an object in a list, keeps its text only if its keys come in the
same order too (objects nested deeper are compared by ``==`` alone: the table builds them
in one order). Two conditions keep equal values' texts equal, both true of the bridge's
schema-typed payloads: no field mixes booleans with integers or integers with floats (``True == 1``,
``1 == 1.0`` encode differently), and a value is not changed in place once published
(the table builds its state afresh for every input).
"""

from __future__ import annotations

import json
from typing import Any

# One encoder for every message: ``json.dumps`` with options builds one per call.
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False).encode


def dumps(payload: dict[str, Any]) -> bytes:
    """Any message's bytes (the bridge's encoding; ``PatchedEncoder`` gives the same)."""
    return _ENCODE(payload).encode("utf-8")


# key -> (value, its '"key":value' text, the texts of its items when it is a list)
_Entry = tuple[Any, str, tuple[tuple[Any, str], ...]]


class PatchedEncoder:
    """Encodes a stream of JSON objects, each mostly the last one, by patching the last text."""

    def __init__(self) -> None:
        self._last: dict[str, _Entry] = {}

    def encode(self, payload: dict[str, Any]) -> bytes:
        last = self._last  # read once: a concurrent call replaces it, never changes it
        now: dict[str, _Entry] = {}
        parts: list[str] = []
        for key, value in payload.items():
            seen = last.get(key)
            if seen is not None and seen[0] == value and _same_keys(seen[0], value):
                entry = seen
            elif type(value) is list:
                entry = _patched_list(key, value, seen[2] if seen is not None else ())
            else:
                entry = (value, f"{_ENCODE(key)}:{_ENCODE(value)}", ())
            now[key] = entry
            parts.append(entry[1])
        self._last = now
        return ("{" + ",".join(parts) + "}").encode("utf-8")


def _patched_list(key: str, value: list[Any], before: tuple[tuple[Any, str], ...]) -> _Entry:
    """A list value: each item equal to the last list's item at its place keeps its text."""
    items: list[tuple[Any, str]] = []
    for index, item in enumerate(value):
        old = before[index] if index < len(before) else None
        same = old is not None and old[0] == item and _same_keys(old[0], item)
        items.append(old if same and old is not None else (item, _ENCODE(item)))
    text = f"{_ENCODE(key)}:[{','.join(t for _, t in items)}]"
    return value, text, tuple(items)


def _same_keys(old: Any, new: Any) -> bool:
    """Equal dicts with their keys in another order encode differently (``==`` ignores the
    order): an object value, a list's objects or a list item keeps its text only with the
    same key order."""
    if type(new) is dict:
        return list(old) == list(new)
    if type(new) is list:
        return all(type(b) is not dict or list(a) == list(b) for a, b in zip(old, new, strict=True))
    return True
