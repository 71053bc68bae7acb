"""The broadcast delay on disk: what the relay holds back survives a restart.

A 30-minute delay holds half an hour of the table's feed. Kept only in memory, a relay
restart (a crash, an update, a reboot) would lose it, and the broadcast would jump. So the
relay writes each held message here as it holds it (SQLite, WAL: a ``kill -9`` loses
nothing committed) with its release time on the wall clock, and deletes it once the broker
has acknowledged its release. A restarted relay reloads what is left and releases each at
its original time: those already due at once, oldest first.

Delivery is at least once: a message whose release the broker acknowledged in the instant
before the relay died (between the acknowledgement and the delete) is released again.
Everything else is released exactly once.

The file holds hole cards in clear for the length of the delay: it is created 0600.

>>> import tempfile, pathlib
>>> from pokertable.room.broadcast import Outgoing
>>> path = pathlib.Path(tempfile.mkdtemp()) / "delay.sqlite3"
>>> store = DelayStore(path)
>>> store.add(1, 100.0, Outgoing("broadcast/state", {"hand_id": "h1"}, True))
>>> store.add(2, 101.0, Outgoing("broadcast/events", {"seq": 7}, False))
>>> store.remove(1)
>>> store.close()
>>> [(key, at, m.leaf) for key, at, m in DelayStore(path).pending()]
[(2, 101.0, 'broadcast/events')]
>>> oct(path.stat().st_mode & 0o777)
'0o600'
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from pokertable.room.broadcast import Outgoing

SCHEMA = """
CREATE TABLE IF NOT EXISTS held (
    key INTEGER PRIMARY KEY,
    release_at_s REAL NOT NULL,
    leaf TEXT NOT NULL,
    payload TEXT NOT NULL,
    retain INTEGER NOT NULL
)
"""


class DelayStoreError(Exception):
    """The delay file cannot be opened or is not ours: the relay does not start."""


class DelayStore:
    """The held messages of one relay, keyed by the lane's order. One thread at a time."""

    def __init__(self, path: Path) -> None:
        try:
            # created 0600 before SQLite opens it: the file holds hole cards
            os.close(os.open(path, os.O_CREAT | os.O_RDWR, 0o600))
            os.chmod(path, 0o600)
            # opened and read before the relay's worker starts, then used by it alone
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(SCHEMA)
        except (OSError, sqlite3.Error) as error:
            raise DelayStoreError(f"broadcast delay file {path}: {error}") from None

    def add(self, key: int, release_at_s: float, message: Outgoing) -> None:
        self._db.execute("INSERT INTO held VALUES (?, ?, ?, ?, ?)",
                         (key, release_at_s, message.leaf, json.dumps(message.payload),
                          int(message.retain)))

    def remove(self, key: int) -> None:
        self._db.execute("DELETE FROM held WHERE key = ?", (key,))

    def pending(self) -> list[tuple[int, float, Outgoing]]:
        """What was held and not yet released, oldest first."""
        rows = self._db.execute(
            "SELECT key, release_at_s, leaf, payload, retain FROM held ORDER BY key")
        return [(key, at, Outgoing(leaf, json.loads(payload), bool(retain)))
                for key, at, leaf, payload, retain in rows]

    def close(self) -> None:
        self._db.close()
