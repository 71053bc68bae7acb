"""What the table adds to its ``hand_complete`` event for the room's archive: the hand as PHH
(``history.render``) with only the cards tabled at the table."""

from __future__ import annotations

from typing import Any

from pokertable.controller.history.render import ExportError, hand_to_phh
from pokertable.controller.table.state import TableSession


def published_hand(session: TableSession) -> dict[str, Any]:
    """What the table adds to its ``hand_complete`` event for the room's archive: the hand
    as PHH with only the cards tabled at the table (the event stream is public; the archive
    reads the hole cards on the secure lane), or why PHH cannot express it."""
    tracked = session.tracked
    assert tracked is not None
    config = session.config
    try:
        text = hand_to_phh(
            tracked.setup,
            tracked.hand,
            venue=config.venue,
            table=config.table,
            seat_count=config.max_seats,
            number=session.hand_number,
            started_ms=None,
            public=True,
            rules=config.rules,
        )
    except ExportError as exc:
        return {"hand_number": session.hand_number, "phh": None, "phh_problem": str(exc)}
    return {"hand_number": session.hand_number, "phh": text}
