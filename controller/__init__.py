"""The table controller, one package per layer (docs/architecture.md; tests/test_layers.py).

- ``rules``, ``evaluation`` (L0): rules as data; hand strength and equity.
- ``engine`` (L1): the pure hand engine, ``start_hand`` / ``step(state, event, rules)``.
- ``history``, ``interpretation``, ``irregularities`` (L2): PHH; chips and words read as a
  floor would; card irregularities.
- ``table`` (L3): the live table, ``TableSession``, still pure.
- ``app`` (L4): the process and all its I/O. ``cli``, ``demo`` (L5): what a user runs.

The engine never reads a clock, a port or a file: time arrives on events, so the same
event list always gives the same state.

>>> from pokertable.controller.engine import HandSetup, start_hand
>>> from pokertable.controller.engine.model import Level, Variant
>>> from pokertable.controller.rules import TDA_2024
>>> players = ((1, "Ann", 1000), (2, "Bob", 1000), (3, "Cat", 1000))
>>> setup = HandSetup(hand_id="h1", variant=Variant.NLHE, button=1, small_blind_seat=2,
...                   big_blind_seat=3, level=Level(small_blind=10, big_blind=20), players=players)
>>> hand, rulings = start_hand(setup, TDA_2024)
>>> hand.seat(3).bet, hand.action_on
(20, 1)
"""
