"""A journal line is the same bytes whichever way it is encoded (issue #26): the prebuilt C
encoder of ``encode_record`` against ``json.dumps`` with the journal's options and the
checksum as ``_checksum`` writes it."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.app.journal import _checksum, encode_record, scan

_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(), st.text(),
                     st.floats(allow_nan=True, allow_infinity=True))
_VALUES = st.recursive(_SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=12)


def _reference(index: int, record: dict[str, Any]) -> bytes:
    body = json.dumps(record, separators=(",", ":"), sort_keys=True).encode()
    return body + b"\t" + _checksum(index, body).encode() + b"\n"


@settings(max_examples=500)
@given(st.integers(0, 10**9), st.dictionaries(st.text(max_size=12), _VALUES, max_size=8))
def test_a_line_is_the_bytes_json_dumps_and_the_checksum_give(
    index: int, record: dict[str, Any]
) -> None:
    line = encode_record(index, record)
    assert line == _reference(index, record)
    if index == 0:
        assert scan(line).records == 1


def test_what_json_cannot_encode_is_refused_alike() -> None:
    for bad in ({"a": object()}, {"a": {1j: 2}}, {"a": b"bytes"}):
        for encode in (encode_record, _reference):
            try:
                encode(3, bad)
            except TypeError as exc:
                assert "not JSON serializable" in str(exc) or "keys must be" in str(exc)
            else:
                raise AssertionError(f"{bad!r} was encoded")
