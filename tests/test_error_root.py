"""One exception root for the controller (issue #26): every exception class a controller
package defines subclasses ``ControllerError``, so the CLI and the room catch the
controller's refusals in one clause and a bug still shows its traceback."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import pokertable.controller
from pokertable.controller.errors import ControllerError

# Exceptions used as control flow inside one module, never raised to a caller.
PRIVATE = {"pokertable.controller.history.phh_toml._NotSimple"}


def _controller_modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(pokertable.controller.__path__, "pokertable.controller."):
        if not info.name.endswith("__main__"):
            names.append(info.name)
    return names


def _exception_classes() -> dict[str, type[BaseException]]:
    found = {}
    for name in _controller_modules():
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if (inspect.isclass(value) and issubclass(value, BaseException)
                    and value.__module__ == name):
                found[f"{name}.{attr}"] = value
    return found


def test_the_walk_finds_the_controllers_errors() -> None:
    """A walk that found none would pass the next test for nothing."""
    found = _exception_classes()
    assert "pokertable.controller.engine.state_machine.EngineError" in found
    assert "pokertable.controller.app.config.ConfigError" in found


def test_every_controller_exception_subclasses_the_root() -> None:
    strays = sorted(name for name, cls in _exception_classes().items()
                    if name not in PRIVATE and not issubclass(cls, ControllerError))
    assert strays == []


@pytest.mark.parametrize("name", sorted(PRIVATE))
def test_private_exceptions_stay_private(name: str) -> None:
    """An exception left off the root must stay inside its module (a leading underscore)."""
    assert name.rsplit(".", 1)[1].startswith("_")
