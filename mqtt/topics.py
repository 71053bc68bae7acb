"""The versioned topic tree, written once so the bridge, the ACL, the docs and ``watch`` agree.

>>> t = TableTopics("casino", "t07")
>>> t.state
'pokertable/v1/casino/t07/state'
>>> t.hole_cards(3)
'pokertable/v1/casino/t07/secure/hole_cards/3'
>>> parse_table_topic("pokertable/v1/casino/t07/events")
('casino', 't07', 'events')
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

ROOT = "pokertable/v1"
NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
VENUE_LEAVES = frozenset({"clock", "leaderboard", "seating", "services"})
"""The room's own topics under ``<venue>/``: a table of that name would share them (its
login ``<venue>/clock`` could write the clock status every overlay reads), so no table
may be called so."""


def check_name(kind: str, name: str) -> str:
    """Reject venue/table names that would break the topic tree (``/``, ``+``, ``#``)."""
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"{kind} {name!r} must match {NAME_PATTERN.pattern}")
    if kind == "table" and name in VENUE_LEAVES:
        raise ValueError(
            f"table {name!r} is the name of a room topic ({', '.join(sorted(VENUE_LEAVES))}): "
            "choose another table name"
        )
    return name


def venue_clock(venue: str) -> str:
    """The venue-wide clock topic: one tournament clock drives every table in the room."""
    return f"{ROOT}/{venue}/clock"


@dataclass(frozen=True, slots=True)
class TableTopics:
    """All topics of one table; ``table='+'`` gives subscription filters for the whole room."""

    venue: str
    table: str
    # worked out once: every message of the table names one of them
    base: str = field(init=False, repr=False, compare=False)
    state: str = field(init=False, repr=False, compare=False)
    events: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        base = f"{ROOT}/{self.venue}/{self.table}"
        object.__setattr__(self, "base", base)
        object.__setattr__(self, "state", f"{base}/state")
        object.__setattr__(self, "events", f"{base}/events")

    @property
    def status(self) -> str:
        return f"{self.base}/status"

    @property
    def reply(self) -> str:
        return f"{self.base}/reply"

    @property
    def director(self) -> str:
        return f"{self.base}/cmd/director"

    @property
    def rebirth(self) -> str:
        return f"{self.base}/cmd/rebirth"

    @property
    def commands(self) -> str:
        """Every command topic of the table: ``cmd/<login>`` carries the sender's login."""
        return f"{self.base}/cmd/#"

    def command_from(self, login: str) -> str:
        """Where ``login`` publishes its commands: the ACL's ``cmd/%u`` pattern lets each
        login publish only under its own name, so the topic says who sent a command."""
        return f"{self.base}/cmd/{login}"

    def sender_of(self, topic: str) -> str | None:
        """The login a command topic carries (``None`` for another topic or ``rebirth``).

        >>> TableTopics("casino", "t07").sender_of("pokertable/v1/casino/t07/cmd/director/ann")
        'director/ann'
        """
        prefix = f"{self.base}/cmd/"
        if not topic.startswith(prefix) or topic == self.rebirth:
            return None
        return topic[len(prefix):] or None

    @property
    def clock(self) -> str:
        return venue_clock(self.venue)

    def hole_cards(self, seat: int | str) -> str:
        return f"{self.base}/secure/hole_cards/{seat}"


COMMAND_ROLES: dict[str, frozenset[str] | None] = {
    "director": None,
    "floor": None,
    "clock": frozenset({"clock_expired", "resume_runout"}),
}
"""Who may command a table, by the first part of the sender's login (``director``,
``director/ann``, ``floor/bob``, ``clock``), and which director commands (``None``: all).
The tournament clock only calls time on a player (R29) and releases a held runout (RP-8-F)."""


def command_role(login: str) -> str | None:
    """The role of a command's sender, or ``None`` when that login may not command a table.

    >>> command_role("director/ann"), command_role("floor"), command_role("overlay")
    ('director', 'floor', None)
    """
    role = login.split("/", 1)[0]
    return role if role in COMMAND_ROLES else None


def parse_table_topic(topic: str) -> tuple[str, str, str]:
    """Split a table topic into (venue, table, leaf path); raise ValueError for foreign topics."""
    parts = topic.split("/")
    if len(parts) < 5 or "/".join(parts[:2]) != ROOT:
        raise ValueError(f"not a {ROOT} table topic: {topic!r}")
    return parts[2], parts[3], "/".join(parts[4:])


_TABLE_LEAVES: dict[str, str] = {
    "state": "state", "events": "event", "status": "status", "reply": "reply",
    "secure/equities": "equities", "cmd/rebirth": "rebirth",
    "broadcast/state": "state", "broadcast/events": "event", "broadcast/status": "status",
    "broadcast/equities": "equities", "broadcast/heartbeat": "heartbeat",
}
_VENUE_LEAVES: dict[str, str] = {
    "clock": "clock", "clock/status": "clock_status", "clock/control": "clock_control",
    "leaderboard": "leaderboard", "seating": "seating", "seating/control": "seating_control",
}


def schema_for_topic(topic: str) -> str:
    """The schema (a file in ``mqtt/schemas``) of any topic of the tree; ValueError for a
    topic outside it.

    >>> schema_for_topic("pokertable/v1/casino/clock/status")
    'clock_status'
    >>> schema_for_topic("pokertable/v1/casino/t07/broadcast/hole_cards/3")
    'hole_cards'
    >>> schema_for_topic("pokertable/v1/casino/t07/cmd/director/ann")
    'director'
    """
    parts = topic.split("/")
    if len(parts) < 4 or "/".join(parts[:2]) != ROOT:
        raise ValueError(f"not a {ROOT} topic: {topic!r}")
    leaf = "/".join(parts[3:])
    if leaf in _VENUE_LEAVES:
        return _VENUE_LEAVES[leaf]
    if parts[3] == "services" and len(parts) == 6:
        return "service_status"
    rest = "/".join(parts[4:])
    if rest in _TABLE_LEAVES:
        return _TABLE_LEAVES[rest]
    if len(parts) == 7 and "/".join(parts[4:6]) in ("secure/hole_cards", "broadcast/hole_cards"):
        return "hole_cards"
    if len(parts) >= 6 and parts[4] == "cmd" and command_role("/".join(parts[5:])):
        return "director"
    raise ValueError(f"no schema for topic {topic!r}")
