"""The TOML of a PHH hand, read quickly: one ``key = value`` per line, else ``tomllib``.

A PHH hand is a handful of lines of flat TOML (a variant string, integer lists, a list of
action strings). ``tomllib`` reads any TOML through a character-by-character parser, a
tenth of the cost of replaying the hand through the engine (docs/benchmarks.md). This
reader takes the shapes PHH files use: bare keys, single- or simply double-quoted strings,
integers, booleans and one-line lists of those. Anything else in the text (a table
header, an escape, a multi-line list, a float, a date) sends the whole text to ``tomllib``,
so the answer is always ``tomllib``'s answer, errors included.

>>> loads("variant = 'NT'\\nantes = [0, 5]\\nactions = ['d dh p1 AsKs', 'p1 f']\\n")
{'variant': 'NT', 'antes': [0, 5], 'actions': ['d dh p1 AsKs', 'p1 f']}
"""

from __future__ import annotations

import re
from typing import Any

_KEY = re.compile(r"[A-Za-z0-9_-]+\Z")
_INT = re.compile(r"[+-]?(?:0|[1-9][0-9]*)\Z")
# A one-line list of such integers (TOML whitespace is spaces and tabs; one trailing comma).
_INT_ITEM = r"[ \t]*[+-]?(?:0|[1-9][0-9]*)[ \t]*"
_INTS = re.compile(rf"\[{_INT_ITEM}(?:,{_INT_ITEM})*(?:,[ \t]*)?\]\Z")
# A one-line list of plain strings: quoted items without quotes or backslashes inside.
_ITEM = r"""(?:'[^'\\\n]*'|"[^"\\\n]*")"""
_STRINGS = re.compile(rf"\[\s*{_ITEM}(?:\s*,\s*{_ITEM})*\s*,?\s*\]\Z")
_QUOTED = re.compile(r"'([^'\\\n]*)'" + r'|"([^"\\\n]*)"')
_SINGLE_QUOTED = re.compile(r"'([^'\\\n]*)'")  # the items when none is double-quoted


class _NotSimple(Exception):
    """The text uses TOML beyond the flat PHH shapes: ``tomllib`` reads it."""


def loads(text: str) -> dict[str, Any]:
    """``tomllib.loads(text)``, faster for flat PHH hands; raises ``tomllib.TOMLDecodeError``."""
    try:
        return _flat(text)
    except _NotSimple:
        import tomllib  # only for the files that need it: a flat hand's replay never does

        return tomllib.loads(text)


# The fields of a PHH hand (the standard's and ours), taken as keys without the
# regular expression; any other key is checked by ``_KEY``.
_USUAL_KEYS = frozenset((
    "variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in",
    "small_bet", "big_bet", "min_bet", "starting_stacks", "actions", "players",
))


def _flat(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for raw in text.split("\n"):
        line = raw.strip()
        if not line or line[0] == "#":
            continue
        key, eq, value = line.partition("=")
        key = key.rstrip()  # its left is the line's, stripped already (and the value's right)
        if not eq or not (key in _USUAL_KEYS or _KEY.match(key)) or key in out:
            raise _NotSimple
        out[key] = _value(value.lstrip())
    return out


def _value(text: str) -> Any:
    if not text:
        raise _NotSimple
    first = text[0]
    if first == "[":  # most of a hand's lines
        if text[-1] == "]":
            return _list(text)
        raise _NotSimple
    if first == "'" or first == '"':
        # A quoted string without its quote or a backslash inside (a line has no line break).
        inner = text[1:-1]
        if len(text) >= 2 and text[-1] == first and first not in inner and "\\" not in inner:
            return inner
        raise _NotSimple
    if text == "true":
        return True
    if text == "false":
        return False
    if _INT.match(text):
        return int(text)
    raise _NotSimple


def _list(text: str) -> list[Any]:
    """A one-line list ``[...]`` of integers, strings or booleans."""
    if _INTS.match(text):
        items = text[1:-1].split(",")
        if not items[-1].strip(" \t"):
            items.pop()  # the trailing comma
        return list(map(int, items))
    body = text[1:-1].strip()
    inner = body[:-1].rstrip() if body.endswith(",") else body  # one trailing comma
    if not inner:
        if body:
            raise _NotSimple  # "[,]" is not TOML
        return []
    if inner[0] in "'\"":
        spaced = _written_by_pokerkit(inner)
        if spaced is not None:
            return spaced
        if not _STRINGS.match(text):
            raise _NotSimple
        if '"' not in inner:
            return _SINGLE_QUOTED.findall(inner)
        return [single or double for single, double in _QUOTED.findall(inner)]
    items = [item.strip() for item in inner.split(",")]
    if all(_INT.match(item) for item in items):
        return [int(item) for item in items]
    if all(item in ("true", "false") for item in items):
        return [item == "true" for item in items]
    raise _NotSimple


def _written_by_pokerkit(inner: str) -> list[str] | None:
    """The items of ``'a', 'b', ...`` as PokerKit and our writer space them, else None.

    The actions line is most of a hand's text, and the two regular expressions that read
    any spacing (``_STRINGS`` to check it, ``_SINGLE_QUOTED`` to take the items) cost half
    of ``loads``. One split reads the usual spacing: ``inner`` holds nothing but the quotes
    that open and close the items (twice as many quotes as items), and no double quote or
    backslash, so the items are exactly what ``_SINGLE_QUOTED`` would find.
    """
    if inner[0] != "'" or inner[-1] != "'" or len(inner) < 2 or '"' in inner or "\\" in inner:
        return None
    items = inner[1:-1].split("', '")
    if inner.count("'") != 2 * len(items):
        return None
    return items
