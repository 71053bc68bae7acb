"""Every example in a docstring of the installed package runs, so none can rot.

This is ``--doctest-modules`` done through the ``pokertable`` namespace: pytest's own flag
would import ``controller/engine/model.py`` a second time as ``controller.engine.model``,
beside the ``pokertable.controller.engine.model`` every other module uses, and an example building a
``HandSetup`` of one copy and handing it to the other would fail for the wrong reason.
The firmware is left out: it runs under MicroPython, its examples there (tests/firmware).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("controller", "hardware", "mqtt", "room", "bench")


def modules_with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        root = importlib.import_module(f"pokertable.{package}")
        names.append(root.__name__)
        names += [m.name for m in pkgutil.walk_packages(root.__path__, f"{root.__name__}.")]
    finder = doctest.DocTestFinder()

    def runs(example: doctest.Example) -> bool:  # "+SKIP" marks an example as text only
        return not example.options.get(doctest.SKIP, False)

    return [
        name
        for name in sorted(names)
        if any(runs(e) for t in finder.find(importlib.import_module(name)) for e in t.examples)
    ]


MODULES = modules_with_examples()


def test_the_examples_are_found() -> None:
    # A finder that found nothing would make every test below vacuous.
    assert len(MODULES) >= 25, MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
