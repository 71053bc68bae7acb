"""``pokertable demo --floor``: the demo's table with the room's floor console and clock.

The demo's in-process broker then also listens for MQTT over WebSockets, so the pages can
reach it; it takes any password (it is never a production broker), so sign in to the console
as ``director`` or ``floor`` (or ``director/<your name>``): a table acts on commands from
those logins only, read from the topic (docs/mqtt.md). The tournament clock runs
``DEMO_STRUCTURE`` (the demo table's own levels), and its big display page serves beside
the console. The demo's simulated floor still
answers every floor call after its pause (``--floor-pause``); a person at the console can
answer first. ``controller/demo/main.py`` only asks for this context.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

from pokertable.room.clock_service import ClockService, display
from pokertable.room.floor_service import console

DEMO_STRUCTURE = """
[[step]]
small_blind = 100
big_blind = 200
minutes = 15
[[step]]
small_blind = 200
big_blind = 400
ante = 400
ante_format = "bb_ante"
minutes = 15
[[step]]
break_minutes = 10
color_up = [25]
[[step]]
small_blind = 300
big_blind = 600
ante = 600
ante_format = "bb_ante"
minutes = 15
"""


@contextlib.contextmanager
def floor_pages(
    host: str, port: int, ws_url: str, structure: str | None = None, venue: str = "demo"
) -> Iterator[dict[str, str]]:
    """The clock process, the floor console and the clock display, stopped on exit; says
    where the pages are on stderr (the demo's live view owns stdout). ``structure``: the
    clock's levels for ``--game`` (controller/demo/games.py), else ``DEMO_STRUCTURE``."""
    service = ClockService(
        host=host, port=port, venue=venue, structure_text=structure or DEMO_STRUCTURE,
        login=("clock", ""),
    )
    floor = console(venue, ws_url)
    clock = display(venue, ws_url)
    with contextlib.ExitStack() as stack:
        service.start()
        stack.callback(service.stop)
        floor.start()
        stack.callback(floor.stop)
        clock.start()
        stack.callback(clock.stop)
        urls = {"floor": floor.url, "clock": clock.url}
        print(
            f"floor console: {urls['floor']} (sign in as director or floor, any password)\n"
            f"clock display: {urls['clock']}",
            file=sys.stderr,
            flush=True,
        )
        yield urls
