"""L1, the pure hand engine: ``start_hand`` / ``step(state, event, rules)`` over frozen data.

``state_machine.py`` drives a hand; ``model.py``, ``events.py`` and ``rulings.py`` are its data;
the other modules are the rules it applies (betting, blinds, pots, showdown, repairs ...) and
``seating.py`` carries the table between hands. Imports only ``rules`` and ``evaluation``;
no clock, no I/O.
"""

from pokertable.controller.engine.state_machine import (
    MAX_SEATS,
    EngineError,
    HandSetup,
    settle,
    start_hand,
    step,
)

__all__ = ["MAX_SEATS", "EngineError", "HandSetup", "settle", "start_hand", "step"]
