"""L0, hand strength and equity: pure functions over card strings (eval7, numpy).

``hand_strength.py`` ranks one hand, ``batch.py`` many at once, ``handrank.py`` and ``equity.py``
give the broadcast's exact equities, ``draw_hands.py`` the draw games' lowball and
badugi hands. Imports nothing else of the controller.

>>> from pokertable.controller.evaluation import holdem_strength
>>> holdem_strength(["As", "Ah"], ["Ad", "Ac", "2h", "7d", "9s"])[1]
'Quads'
"""

from pokertable.controller.evaluation.draw_hands import badugi, deuce_to_seven
from pokertable.controller.evaluation.hand_strength import holdem_strength, omaha_strength

__all__ = ["badugi", "deuce_to_seven", "holdem_strength", "omaha_strength"]
