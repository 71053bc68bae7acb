"""The quick PHH reader gives ``tomllib``'s answer on every text, errors included."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokertable.controller.history.phh_toml import _flat, _NotSimple, loads

EXAMPLES = sorted(Path(__file__).resolve().parents[2].glob("docs/examples/*.phh*"))

TRICKY = [
    "variant = 'NT'  # a comment after a value\n",
    "antes = [0, 1_000]\n",
    'actions = ["p1 cbr 100", "p2 f"]\nvariant = "N\\u0054"\n',
    "actions = [\n  'p1 f',\n]\n",
    "[hand1]\nvariant = 'NT'\n",
    "x = 1.5\n",
    "x = 007\n",
    "x = [1, 'a']\n",
    "x = 'it''s'\n",
    "a.b = 1\n",
    "x = 1\nx = 2\n",
    "x = '''multi'''\n",
    "x = [[1, 2], [3]]\n",
    "x = []\ny = [ 'a' , \"b\" , ]\nz = -5\nw = [true, false]\n",
    "x = \n",
    "= 1\n",
    "x = [,]\n",
    "x = [12,,]\n",
    "x = [ 1 ,\t2 , ]\n",
]


@pytest.mark.parametrize("text", TRICKY)
def test_tricky_toml_is_read_as_tomllib_reads_it(text: str) -> None:
    try:
        expected = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        with pytest.raises(tomllib.TOMLDecodeError):
            loads(text)
        return
    assert loads(text) == expected


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_hands_are_read_as_tomllib_reads_them(path: Path) -> None:
    text = path.read_text()
    assert loads(text) == tomllib.loads(text)


_WORD = st.text("abcdefghijklmnopqrstuvwxyz0123456789 #=,-", max_size=12)
_VALUE = st.one_of(
    st.integers(-(10**12), 10**12),
    st.booleans(),
    _WORD,
    st.lists(st.integers(0, 10**6), max_size=8),
    st.lists(_WORD, max_size=8),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.from_regex(r"[a-z_]{1,12}", fullmatch=True), _VALUE, max_size=6))
def test_flat_phh_shapes_are_read_without_tomllib(doc: dict[str, object]) -> None:
    def dump(value: object) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, str):
            return repr(value) if "'" not in value else f'"{value}"'
        if isinstance(value, list):
            return "[" + ", ".join(dump(v) for v in value) + "]"
        return str(value)

    text = "".join(f"{key} = {dump(value)}\n" for key, value in doc.items())
    assert tomllib.loads(text) == doc
    try:
        assert _flat(text) == doc
    except _NotSimple:
        pytest.fail(f"a flat PHH shape went to tomllib: {text!r}")
