"""Optional dependencies (pyproject's extras): when one is missing, say in one line which
extra brings it.

The table itself needs none of them; a room service that does (the broadcast relay's
exact equities need numpy) imports it as::

    try:
        import numpy as np
    except ModuleNotFoundError as missing:
        raise needs_extra(missing, "broadcast", "exact equities") from None

so a Pi installed without the extra gets ``pokertable overlay: exact equities need numpy:
pip install 'pokertable-controller[broadcast]'`` (exit 69) instead of a traceback.
"""

from __future__ import annotations

from pokertable.controller.errors import ControllerError

DISTRIBUTION = "pokertable-controller"


PROVIDES = {"broadcast": ("numpy",), "demo": ("amqtt",)}
"""Extra -> the import names it brings (pyproject.toml's [project.optional-dependencies])."""


class MissingExtra(ControllerError, ImportError):
    """An optional dependency is not installed; the message names the extra to install."""


def needs_extra(
    missing: ModuleNotFoundError, extra: str, purpose: str, *, instead: str = ""
) -> ImportError:
    """The error to raise for ``missing``: MissingExtra naming ``extra`` (and ``instead``, a
    way round it, when there is one), or ``missing`` itself when it is not the optional
    dependency (something it needs) but a real fault."""
    name = (missing.name or "").split(".")[0]
    if name not in PROVIDES.get(extra, ()):
        return missing
    return MissingExtra(
        f"{purpose} need {name}: pip install '{DISTRIBUTION}[{extra}]'"
        + (f", or {instead}" if instead else ""),
        name=name,
    )
