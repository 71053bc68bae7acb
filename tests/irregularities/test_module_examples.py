"""The usage examples in the package's docstrings run and stay true."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

from pokertable.controller.rules import TDA_2024
from tests.irregularities.table_driver import Table, setup

MODULES = [
    "alerts", "dealing", "killed", "ledger", "levels", "showdown_requests", "substantial",
    "tracked",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"pokertable.controller.irregularities.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_published_state_is_json() -> None:
    table = Table(setup({1: 1000, 2: 1000, 3: 1000}, button=3, sb=1, bb=2))
    table.seat(2)
    table.deal([1, 3, 1, 2, 3])
    table.act(1, "call")
    payload = json.loads(json.dumps(table.t.published(TDA_2024)))
    assert payload["misdeal_offered"] == ["misdeal_first_card"]
    assert payload["substantial_action"] == {"hand_start": False}
    assert payload["initial_deal"]["cards_by_seat"] == {"1": 2, "2": 2, "3": 2}
    assert payload["alerts"][0]["rule_ids"] == ["TDA2024-35A2", "TDA2024-35C"]
