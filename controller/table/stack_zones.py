"""What the readers count in each seat's stack zone, for the room's colour-up (R24).

The stack zone decides nothing at the table (chips there are not action); the room needs
it at a colour-up break: how many chips of the colour being removed each player holds
(``room/chip_race.py``). Tags are kept, so a chip re-reported after a restart is not
counted twice; a complete view (after a restart) replaces what the zone held.

>>> from pokertable.controller.table.inputs import ChipItem
>>> denominations((ChipItem(25, uid="a"), ChipItem(25, uid="b"), ChipItem(100, uid="c")))
{'25': 2, '100': 1}
"""

from __future__ import annotations

from collections import Counter

from pokertable.controller.engine.model import evolve
from pokertable.controller.table.inputs import ChipItem, ChipsMoved
from pokertable.controller.table.state import TableSession, set_pair


def stack_moved(session: TableSession, moved: ChipsMoved) -> TableSession:
    """Chips arriving in or leaving ``moved.seat``'s stack zone."""
    assert moved.seat is not None
    zone = list(dict(session.stack_zones).get(moved.seat, ()))
    if moved.complete:
        zone = list(moved.arrived)
    else:
        known = {c.uid for c in zone if c.uid}
        zone.extend(c for c in moved.arrived if not c.uid or c.uid not in known)
        for chip in moved.left:
            if chip in zone:
                zone.remove(chip)
    return evolve(session, stack_zones=set_pair(session.stack_zones, moved.seat, tuple(zone)))


def denominations(chips: tuple[ChipItem, ...]) -> dict[str, int]:
    """Value chips by denomination, as the public state shows them (JSON keys are text)."""
    counts = Counter(c.denomination for c in chips if c.kind == "value")
    return {str(d): n for d, n in sorted(counts.items())}
