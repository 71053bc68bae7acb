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
from collections.abc import Callable
from typing import Any


def one_shot(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode``, without what it builds on every call for an object or a list:
    json's C encoder, made once with the arguments ``JSONEncoder.iterencode`` gives it.
    ``encoder.encode`` itself where that is not the same (no C accelerator, an indent, or
    the cycle check, whose marks belong to one call)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or encoder.indent is not None or encoder.check_circular:
        return encoder.encode
    strings = (json.encoder.encode_basestring_ascii if encoder.ensure_ascii
               else json.encoder.encode_basestring)
    c_encode = make(None, encoder.default, strings, None, encoder.key_separator,
                    encoder.item_separator, encoder.sort_keys, encoder.skipkeys,
                    encoder.allow_nan)
    plain = encoder.encode

    def encode(value: Any) -> str:
        kind = type(value)
        return "".join(c_encode(value, 0)) if kind is dict or kind is list else plain(value)

    return encode


# One encoder for every message: ``json.dumps`` with options builds one per call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
_ENCODE = one_shot(_ENCODER)
_STR = json.encoder.encode_basestring  # a str's text with ``ensure_ascii=False``
_INT = int.__repr__


def _text(value: Any) -> str:
    """``_ENCODE(value)``, an int's and a str's text without its call."""
    kind = type(value)
    if kind is int:
        return _INT(value)
    if kind is str:
        return _STR(value)
    return _ENCODE(value)


def dumps(payload: dict[str, Any]) -> bytes:
    """Any message's bytes (the bridge's encoding; ``PatchedEncoder`` gives the same)."""
    return _text(payload).encode("utf-8")


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
            if seen is not None and (seen[0] is value or _equal(seen[0], value)):
                entry = seen
            elif type(value) is list:
                entry = _patched_list(key, value, seen[2] if seen is not None else ())
            else:
                entry = (value, f"{_text(key)}:{_text(value)}", ())
            now[key] = entry
            parts.append(entry[1])
        self._last = now
        return ("{" + ",".join(parts) + "}").encode("utf-8")


def _patched_list(key: str, value: list[Any], before: tuple[tuple[Any, str], ...]) -> _Entry:
    """A list value: each item equal to the last list's item at its place keeps its text."""
    items: list[tuple[Any, str]] = []
    known = len(before)
    for index, item in enumerate(value):
        old = before[index] if index < known else None
        if old is not None and (old[0] is item or _equal(old[0], item)):
            items.append(old)
        else:
            items.append((item, _text(item)))
    text = f"{_text(key)}:[{','.join([t for _, t in items])}]"
    return value, text, tuple(items)


def _equal(old: Any, new: Any) -> bool:
    """``new`` encodes as ``old`` did: equal, and equal dicts with their keys in the same
    order (``==`` ignores the order), an object value, a list's objects or a list item.
    The callers try identity first: a state's unchanged parts are the last state's
    objects (``table.public_seats``), which keep their text without being read."""
    if old != new:
        return False
    if not new:
        return True  # an empty list or object, or a scalar such as 0 or ""
    if type(new) is dict:
        return list(old) == list(new)
    if type(new) is list:
        return all(type(b) is not dict or list(a) == list(b) for a, b in zip(old, new, strict=True))
    return True
