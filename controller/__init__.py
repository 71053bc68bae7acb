"""The table controller: a pure, deterministic poker rules engine plus the application around it.

The engine (``controller.engine``) is a step function over frozen data::

    from pokertable.controller.engine import start_hand, step
    from pokertable.controller.rules import TDA_2024

    state = start_hand(table, TDA_2024, hand_id="h1")
    state, rulings = step(state, PlayerAction(seat=3, kind=ActionKind.CALL), TDA_2024)

It never reads a clock, a port or a file: time arrives on events, so the same event list
always gives the same state. Everything with I/O (journal, MQTT, serial) lives outside it.
"""
