"""The examples in the hardware modules' docstrings are run, so they cannot rot."""

from __future__ import annotations

import doctest
import importlib

import pytest


@pytest.mark.parametrize(
    "module", [
        "pokertable.hardware.zones",
        "pokertable.hardware.registry",
        "pokertable.hardware.interpreter",
        "pokertable.hardware.events",
    ]
)
def test_docstring_examples(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
